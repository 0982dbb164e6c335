#include "atoll/body/MotionProperties.h"

#include <cmath>

namespace atl {

namespace {

// Scales `v` down to length `max_length` when it is longer. Comparing squared lengths keeps the
// common (not clamped) case free of a square root.
// A vector whose squared length overflows float (|v| > 1.8e19) is first divided by its largest
// component: it used to become 0 (max / inf), so that a body given 1e20 m/s stopped dead.
Vec3 clamped_length(const Vec3& v, float max_length) {
  const float length_sq = v.length_sq();
  if (length_sq <= square(max_length)) return v;
  if (std::isfinite(length_sq)) return v * (max_length / std::sqrt(length_sq));
  const Vec3 unit_ish = v / v.abs().max_component();
  return unit_ish * (max_length / unit_ish.length());
}

}  // namespace

void MotionProperties::set_linear_velocity(const Vec3& velocity) {
  linear_velocity_ = clamped_length(lock_translation(velocity), max_linear_velocity_);
}

void MotionProperties::set_angular_velocity(const Vec3& velocity) {
  angular_velocity_ = clamped_length(lock_angular(velocity), max_angular_velocity_);
}

void MotionProperties::clamp_linear_velocity() {
  linear_velocity_ = clamped_length(linear_velocity_, max_linear_velocity_);
}

void MotionProperties::clamp_angular_velocity() {
  angular_velocity_ = clamped_length(angular_velocity_, max_angular_velocity_);
}

void MotionProperties::move_kinematic(const Vec3& current_com, const Quat& current_rotation,
                                      const Vec3& target_com, const Quat& target_rotation,
                                      float dt) {
  ATOLL_ASSERT(dt > 0.0f);
  linear_velocity_ = lock_translation((target_com - current_com) / dt);
  // to_axis_angle picks w ≥ 0, i.e. the shorter of the two rotations that reach the target.
  Vec3 axis;
  float angle;
  (target_rotation * current_rotation.conjugated()).to_axis_angle(axis, angle);
  angular_velocity_ = lock_angular(axis * (angle / dt));
}

void MotionProperties::set_mass_properties(AllowedDOFs allowed_dofs, const MassProperties& mass) {
  allowed_dofs_ = allowed_dofs;
  const bool can_translate = (allowed_dofs & AllowedDOFs::AllTranslation) != AllowedDOFs::None;
  const bool can_rotate = (allowed_dofs & AllowedDOFs::AllRotation) != AllowedDOFs::None;
  const bool has_mass = mass.mass > 0.0f && is_finite(mass.mass);
  inverse_mass_ = can_translate && has_mass ? 1.0f / mass.mass : 0.0f;

  inertia_rotation_ = Quat::identity();
  if (!can_rotate) {
    inverse_inertia_diagonal_ = Vec3::zero();
    return;
  }
  Mat44 principal_axes;
  Vec3 moments;
  if (has_mass && mass.decompose_principal_moments(principal_axes, moments) &&
      moments.min_component() > 0.0f && moments.is_finite()) {
    inverse_inertia_diagonal_ = moments.reciprocal();
    inertia_rotation_ = principal_axes.quaternion().normalized();
  } else {
    // Degenerate tensor (zero mass, a flat or thin shape): inertia of a solid sphere of
    // radius 1 (0.4·m), as Jolt does, so that the body still rotates plausibly.
    inverse_inertia_diagonal_ = Vec3::replicate(2.5f * (has_mass ? 1.0f / mass.mass : 0.0f));
  }
}

Mat44 MotionProperties::inverse_inertia_world(const Mat44& body_rotation) const {
  const Mat44 rotation = body_rotation.multiply3x3(Mat44::rotation(inertia_rotation_));
  const Vec3& d = inverse_inertia_diagonal_;
  const Mat44 rotation_scaled(
      Vec4(rotation.column3(0) * d.x(), 0.0f), Vec4(rotation.column3(1) * d.y(), 0.0f),
      Vec4(rotation.column3(2) * d.z(), 0.0f), Vec4(0.0f, 0.0f, 0.0f, 1.0f));
  const Mat44 inverse_inertia = rotation_scaled.multiply3x3(rotation.transposed3x3());
  // Zero the rows and the columns of locked axes, so that neither an impulse about a locked
  // axis nor the coupling of a free axis into a locked one produces rotation there.
  const Vec3 free_axes = lock_angular(Vec3::replicate(1.0f));
  Mat44 masked = Mat44::identity();
  for (int column = 0; column < 3; ++column)
    masked.set_column3(column, free_axes[column] != 0.0f
                                   ? lock_angular(inverse_inertia.column3(column))
                                   : Vec3::zero());
  return masked;
}

Vec3 MotionProperties::multiply_world_space_inverse_inertia(const Quat& body_rotation,
                                                            const Vec3& v) const {
  const Quat to_world = body_rotation * inertia_rotation_;
  const Vec3 principal = to_world.inverse_rotate(lock_angular(v));
  return lock_angular(to_world * (inverse_inertia_diagonal_ * principal));
}

void MotionProperties::apply_force_torque_and_gravity(const Quat& body_rotation, float dt,
                                                      const Vec3& gravity) {
  linear_velocity_ = lock_translation(
      linear_velocity_ + (gravity * gravity_factor_ + Vec3(force_) * inverse_mass_) * dt);
  angular_velocity_ += multiply_world_space_inverse_inertia(body_rotation, Vec3(torque_)) * dt;

  // dv/dt = −c·v has the solution v·e^(−c·dt); its first-order Taylor term is accurate for
  // small c·dt, and the max(0, …) keeps a huge damping from reversing the velocity.
  linear_velocity_ *= std::fmax(0.0f, 1.0f - linear_damping_ * dt);
  angular_velocity_ *= std::fmax(0.0f, 1.0f - angular_damping_ * dt);

  clamp_linear_velocity();
  clamp_angular_velocity();
}

Vec3 MotionProperties::lock_translation(const Vec3& v) const {
  return Vec3(has_dofs(allowed_dofs_, AllowedDOFs::TranslationX) ? v.x() : 0.0f,
              has_dofs(allowed_dofs_, AllowedDOFs::TranslationY) ? v.y() : 0.0f,
              has_dofs(allowed_dofs_, AllowedDOFs::TranslationZ) ? v.z() : 0.0f);
}

Vec3 MotionProperties::lock_angular(const Vec3& v) const {
  return Vec3(has_dofs(allowed_dofs_, AllowedDOFs::RotationX) ? v.x() : 0.0f,
              has_dofs(allowed_dofs_, AllowedDOFs::RotationY) ? v.y() : 0.0f,
              has_dofs(allowed_dofs_, AllowedDOFs::RotationZ) ? v.z() : 0.0f);
}

void MotionProperties::reset_sleep_test(const Vec3 (&points)[k_num_sleep_test_points]) {
  for (int i = 0; i < k_num_sleep_test_points; ++i) {
    sleep_test_spheres_[i].center = points[i].to_float3();
    sleep_test_spheres_[i].radius = 0.0f;
  }
  sleep_test_timer_ = 0.0f;
}

bool MotionProperties::update_sleep_test(const Vec3 (&points)[k_num_sleep_test_points], float dt,
                                         float max_movement, float time_before_sleep) {
  for (int i = 0; i < k_num_sleep_test_points; ++i) {
    SleepTestSphere& sphere = sleep_test_spheres_[i];
    // Grow the sphere just enough to touch the point: the new sphere spans from the far side
    // of the old one to the point, so its radius only grows with real displacement.
    const Vec3 center(sphere.center);
    const Vec3 to_point = points[i] - center;
    const float distance_sq = to_point.length_sq();
    if (distance_sq > square(sphere.radius)) {
      const float distance = std::sqrt(distance_sq);
      const float new_radius = 0.5f * (sphere.radius + distance);
      sphere.center = (center + to_point * ((new_radius - sphere.radius) / distance)).to_float3();
      sphere.radius = new_radius;
    }
    if (sphere.radius > max_movement) {
      reset_sleep_test(points);
      return false;
    }
  }
  sleep_test_timer_ += dt;
  return sleep_test_timer_ >= time_before_sleep;
}

}  // namespace atl
