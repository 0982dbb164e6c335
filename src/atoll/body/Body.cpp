#include "atoll/body/Body.h"

#include <cmath>

namespace atl {

void Body::set_position_and_rotation_internal(const Vec3& position, const Quat& rotation) {
  rotation_ = rotation;
  com_position_ = position + rotation * Vec3(shape_com_);
  update_world_bounds();
}

void Body::add_rotation_step(const Vec3& delta) {
  const float angle = delta.length();
  // Below 1e-6 rad the axis is numerically meaningless and the rotation negligible.
  if (angle > 1.0e-6f) rotation_ = (Quat::rotation(delta / angle, angle) * rotation_).normalized();
}

void Body::sleep_test_points(Vec3 (&out_points)[MotionProperties::k_num_sleep_test_points]) const {
  out_points[0] = com_position_;
  // The two largest half axes: a body spinning about any axis moves at least one of their
  // end points, while the centre of mass catches pure translation.
  const Vec3 extent = shape_->local_bounds().extent();
  const int smallest = extent.min_component_index();
  const int first = smallest == 0 ? 1 : 0;
  const int second = smallest == 2 ? 1 : 2;
  const Vec3 axes[3] = {rotation_.rotate_axis_x(), rotation_.rotate_axis_y(),
                        rotation_.rotate_axis_z()};
  out_points[1] = com_position_ + axes[first] * extent[first];
  out_points[2] = com_position_ + axes[second] * extent[second];
}

void Body::reset_sleep_test() {
  if (motion_ == nullptr) return;
  Vec3 points[MotionProperties::k_num_sleep_test_points];
  sleep_test_points(points);
  motion_->reset_sleep_test(points);
}

bool Body::update_sleep_test(float dt, float max_movement, float time_before_sleep) {
  ATOLL_ASSERT(motion_ != nullptr, "static bodies have no sleep state");
  if (!motion_->allow_sleeping() || is_sensor()) return false;
  Vec3 points[MotionProperties::k_num_sleep_test_points];
  sleep_test_points(points);
  return motion_->update_sleep_test(points, dt, max_movement, time_before_sleep);
}

}  // namespace atl
