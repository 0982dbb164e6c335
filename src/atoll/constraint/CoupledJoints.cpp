#include "atoll/constraint/CoupledJoints.h"

#include <cmath>
#include <limits>
#include <string>

#include "atoll/constraint/HingeConstraint.h"
#include "atoll/constraint/SliderConstraint.h"
#include "atoll/math/MathState.h"

namespace atl {

namespace {

// Largest |1 − |cos|| between the joint's axis and the coupled axis (about 2.6°).
constexpr float k_parallel_tolerance = 1.0e-3f;

// Checks that `joint` is of `type` and has `body` as one of its bodies; returns +1 when `body`
// is its body2 (its angle / position grows with the body), −1 when it is its body1.
Result<float> body_side(const Ref<Constraint>& joint, ConstraintSubType type, BodyID body,
                        std::string_view path) {
  if (joint == nullptr) return Error(std::string(path) + ": is null");
  if (joint->sub_type() != type)
    return Error(std::string(path) + ": must be a " + to_string(type) + " constraint, got a " +
                 to_string(joint->sub_type()) + " constraint");
  if (body == Constraint::k_world)
    return Error(std::string(path) + ": the coupled body is the world, which has no joint angle");
  if (joint->body2() == body) return 1.0f;
  if (joint->body1() == body) return -1.0f;
  return Error(std::string(path) + ": does not attach the coupled body (body " +
               std::to_string(body.index()) + ")");
}

// sign(a·b) when the unit axes a and b are parallel, else an error naming `path`.
Result<float> axis_sign(const Vec3& a, const Vec3& b, std::string_view path, const char* what) {
  const float d = a.dot(b);
  if (std::fabs(d) < 1.0f - k_parallel_tolerance)
    return Error(std::string(path) + ": its " + what + " is not parallel to the coupled axis");
  return d > 0.0f ? 1.0f : -1.0f;
}

}  // namespace

Result<HingeAngleReading> HingeAngleReading::make(const Ref<Constraint>& hinge, BodyID body,
                                                  const Vec3& local_axis, std::string_view path) {
  Result<float> side = body_side(hinge, ConstraintSubType::Hinge, body, path);
  if (!side) return side.error();
  const HingeConstraintSettings s = static_cast<const HingeConstraint&>(*hinge).settings();
  // The hinge angle grows as body2 turns about the hinge axis relative to body1; both local
  // axes are that axis, each in its own body's frame.
  const Vec3& axis = side.value() > 0.0f ? s.hinge_axis2 : s.hinge_axis1;
  Result<float> dir = axis_sign(local_axis, axis, path, "hinge axis");
  if (!dir) return dir.error();
  HingeAngleReading r;
  r.joint_ = hinge;
  r.sign_ = side.value() * dir.value();
  r.last_ = static_cast<const HingeConstraint&>(*hinge).current_angle();
  return r;
}

float HingeAngleReading::update() {
  const float now = static_cast<const HingeConstraint&>(*joint_).current_angle();
  // Suspended, or restarted while the hinge's reading was not finite (its body was quarantined
  // in that step): the count starts from the first finite reading.
  if (suspended()) {
    last_ = now;
    return angle_;
  }
  angle_ += sign_ * center_angle_around_zero(now - last_);
  last_ = now;
  return angle_;
}

Result<SliderPositionReading> SliderPositionReading::make(const Ref<Constraint>& slider,
                                                          BodyID body, const Vec3& local_axis,
                                                          std::string_view path) {
  Result<float> side = body_side(slider, ConstraintSubType::Slider, body, path);
  if (!side) return side.error();
  const SliderConstraintSettings s = static_cast<const SliderConstraint&>(*slider).settings();
  // The slider axis is fixed in body1; body2 holds the relative rotation q1⁻¹·q2, so in
  // body2's frame the axis is rel⁻¹·axis1.
  const Vec3 axis =
      side.value() > 0.0f ? s.relative_rotation.conjugated() * s.slider_axis1 : s.slider_axis1;
  Result<float> dir = axis_sign(local_axis, axis, path, "slider axis");
  if (!dir) return dir.error();
  SliderPositionReading r;
  r.joint_ = slider;
  r.sign_ = side.value() * dir.value();
  r.start_ = static_cast<const SliderConstraint&>(*slider).current_position();
  return r;
}

namespace {

bool joint_follows_bodies(const Ref<Constraint>& joint) {
  return joint != nullptr && joint->is_enabled() && joint->index() != Constraint::k_not_in_world;
}

}  // namespace

bool HingeAngleReading::follows_bodies() const { return joint_follows_bodies(joint_); }

bool SliderPositionReading::follows_bodies() const { return joint_follows_bodies(joint_); }

void HingeAngleReading::suspend() {
  last_ = std::numeric_limits<float>::quiet_NaN();
  angle_ = 0.0f;
}

void SliderPositionReading::suspend() {
  start_ = std::numeric_limits<float>::quiet_NaN();
  position_ = 0.0f;
}

void HingeAngleReading::restart() {
  if (joint_ == nullptr) return;
  last_ = static_cast<const HingeConstraint&>(*joint_).current_angle();
  angle_ = 0.0f;
}

void SliderPositionReading::restart() {
  if (joint_ == nullptr) return;
  start_ = static_cast<const SliderConstraint&>(*joint_).current_position();
  position_ = 0.0f;
}

float SliderPositionReading::update() {
  // As HingeAngleReading::update: suspended, or restarted from a reading that was not finite.
  if (suspended()) start_ = static_cast<const SliderConstraint&>(*joint_).current_position();
  position_ = sign_ * (static_cast<const SliderConstraint&>(*joint_).current_position() - start_);
  return position_;
}

void HingeAngleReading::visit_state(StateStream& s, const char* name) {
  const std::string prefix(name);
  // Not finite: suspended (suspend()); the next update() starts counting again.
  atl::visit_state(s, (prefix + "_last_angle").c_str(), last_);
  visit_finite(s, (prefix + "_turn").c_str(), angle_);
}

void SliderPositionReading::visit_state(StateStream& s, const char* name) {
  const std::string prefix(name);
  atl::visit_state(s, (prefix + "_start").c_str(), start_);  // as _last_angle
  visit_finite(s, (prefix + "_travel").c_str(), position_);
}

}  // namespace atl
