#include "atoll/constraint/SliderConstraint.h"

#include <algorithm>
#include <cmath>

#include "atoll/constraint/ConstraintState.h"

namespace atl {

namespace {

Status check_limits(float limits_min, float limits_max, std::string_view path) {
  if (std::isnan(limits_min) || limits_min > 0.0f)
    return Error(std::string(path) + ".limits_min: must be <= 0 m, got " +
                 std::to_string(limits_min));
  if (std::isnan(limits_max) || limits_max < 0.0f)
    return Error(std::string(path) + ".limits_max: must be >= 0 m, got " +
                 std::to_string(limits_max));
  return Ok{};
}

}  // namespace

Result<Ref<Constraint>> SliderConstraintSettings::create(const BodyInterface& bodies, BodyID body1,
                                                         BodyID body2) const {
  constexpr std::string_view path = "SliderConstraintSettings";
  if (Status s = common.validate(path); !s) return s.error();
  if (Status s = check_finite(point1, path, "point1"); !s) return s.error();
  if (Status s = check_finite(point2, path, "point2"); !s) return s.error();
  if (Status s = check_direction(slider_axis1, path, "slider_axis1"); !s) return s.error();
  if (!relative_rotation.is_finite() || std::fabs(relative_rotation.length() - 1.0f) > 1.0e-3f)
    return Error(std::string(path) + ".relative_rotation: must be a finite unit quaternion");
  if (Status s = check_limits(limits_min, limits_max, path); !s) return s.error();
  if (Status s = limits_spring_settings.validate(std::string(path) + ".limits_spring_settings"); !s)
    return s.error();
  if (!std::isfinite(max_friction_force) || max_friction_force < 0.0f)
    return Error(std::string(path) + ".max_friction_force: must be finite and >= 0, got " +
                 std::to_string(max_friction_force));
  if (Status s = motor_settings.validate(std::string(path) + ".motor_settings"); !s)
    return s.error();
  Result<std::array<ConstraintBodyPose, 2>> poses =
      constraint_body_poses(bodies, body1, body2, path);
  if (!poses) return poses.error();
  const auto& p = poses.value();
  SliderConstraintSettings local = *this;
  local.space = ConstraintSpace::LocalToBodyCOM;
  local.slider_axis1 = slider_axis1.normalized();
  if (space == ConstraintSpace::WorldSpace) {
    local.point1 = p[0].to_local(point1);
    local.point2 = p[1].to_local(point2);
    local.slider_axis1 = p[0].to_local_direction(local.slider_axis1);
    local.relative_rotation =
        RotationEulerConstraintPart::relative_rotation(p[0].rotation, p[1].rotation);
  } else {
    local.relative_rotation = relative_rotation.normalized();
  }
  return Ref<Constraint>(new SliderConstraint(body1, body2, local));
}

SliderConstraintSettings SliderConstraint::settings() const {
  SliderConstraintSettings s = s_;
  s.common = common_settings();
  return s;
}

Status SliderConstraint::set_target_velocity(float velocity) {
  if (!std::isfinite(velocity))
    return Error("SliderConstraint::set_target_velocity: velocity: must be finite");
  target_velocity_ = velocity;
  return Ok{};
}

Status SliderConstraint::set_target_position(float position) {
  if (!std::isfinite(position))
    return Error("SliderConstraint::set_target_position: position: must be finite");
  target_position_ = std::clamp(position, s_.limits_min, s_.limits_max);
  return Ok{};
}

Status SliderConstraint::set_limits(float limits_min, float limits_max) {
  if (Status s = check_limits(limits_min, limits_max, "SliderConstraint"); !s) return s;
  s_.limits_min = limits_min;
  s_.limits_max = limits_max;
  return Ok{};
}

float SliderConstraint::linear_impulse() const {
  const std::array<float, 2> p = position_rows_.total_lambda();
  const float l = limits_.total_lambda();
  return std::sqrt(p[0] * p[0] + p[1] * p[1] + l * l);
}

void SliderConstraint::reset_warm_start() {
  position_rows_.set_total_lambda({0.0f, 0.0f});
  rotation_.set_total_lambda(Vec3::zero());
  limits_.set_total_lambda(0.0f);
  motor_.set_total_lambda(0.0f);
}

void SliderConstraint::measure(const SolverBody& body1, const SolverBody& body2) {
  const Vec3 r1 = body1.rotation * s_.point1;
  r2_ = body2.rotation * s_.point2;
  const Vec3 u = (body2.com_position + r2_) - (body1.com_position + r1);
  r1u_ = r1 + u;
  axis_ = body1.rotation * s_.slider_axis1;
  // The perpendicular axes turn with body 1 (a perpendicular picked anew each step could jump
  // and the warm start would then apply last step's impulses along other axes).
  n1_ = body1.rotation * s_.slider_axis1.normalized_perpendicular();
  n2_ = axis_.cross(n1_);
  position_ = u.dot(axis_);
}

bool SliderConstraint::limit_violation(float& c, float& min_lambda, float& max_lambda) const {
  return has_limits() &&
         atl::limit_violation(position_, s_.limits_min, s_.limits_max, c, min_lambda, max_lambda);
}

void SliderConstraint::setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                                 float dt) {
  measure(body1, body2);
  position_rows_.calculate_constraint_properties(body1, r1u_, body2, r2_, n1_, n2_);
  rotation_.calculate_constraint_properties(body1, body2);
  float c = 0.0f;
  if (limit_violation(c, limit_min_lambda_, limit_max_lambda_))
    limits_.calculate_constraint_properties_for_limit(dt, body1, r1u_, body2, r2_, axis_, 0.0f, c,
                                                      s_.limits_spring_settings);
  else
    limits_.deactivate();

  const MotorSettings& m = s_.motor_settings;
  motor_min_lambda_ = m.min_force_limit * dt;
  motor_max_lambda_ = m.max_force_limit * dt;
  switch (motor_state_) {
    case MotorState::Off:
      if (s_.max_friction_force > 0.0f) {
        motor_min_lambda_ = -s_.max_friction_force * dt;
        motor_max_lambda_ = s_.max_friction_force * dt;
        motor_.calculate_constraint_properties(body1, r1u_, body2, r2_, axis_, 0.0f);
      } else {
        motor_.deactivate();
      }
      break;
    case MotorState::Velocity:
      motor_.calculate_constraint_properties(body1, r1u_, body2, r2_, axis_, target_velocity_);
      break;
    case MotorState::Position:
    case MotorState::PositionAndVelocity: {
      const float velocity =
          motor_state_ == MotorState::PositionAndVelocity ? target_velocity_ : 0.0f;
      motor_.calculate_constraint_properties_for_motor(dt, body1, r1u_, body2, r2_, axis_, velocity,
                                                       position_ - target_position_, m.spring,
                                                       motor_min_lambda_, motor_max_lambda_);
      break;
    }
  }
}

void SliderConstraint::warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                      float ratio) {
  if (motor_.is_active()) motor_.warm_start(body1, body2, ratio);
  if (limits_.is_active()) limits_.warm_start(body1, body2, ratio);
  rotation_.warm_start(body1, body2, ratio);
  position_rows_.warm_start(body1, body2, ratio);
}

bool SliderConstraint::solve_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                 float /*dt*/) {
  bool applied = false;
  if (motor_.is_active())
    applied |=
        motor_.solve_velocity_constraint(body1, body2, axis_, motor_min_lambda_, motor_max_lambda_);
  if (limits_.is_active())
    applied |= limits_.solve_velocity_constraint(body1, body2, axis_, limit_min_lambda_,
                                                 limit_max_lambda_);
  applied |= rotation_.solve_velocity_constraint(body1, body2);
  applied |= position_rows_.solve_velocity_constraint(body1, body2);
  return applied;
}

bool SliderConstraint::solve_position_constraint(SolverBody& body1, SolverBody& body2, float /*dt*/,
                                                 float baumgarte) {
  bool moved = false;
  rotation_.calculate_constraint_properties(body1, body2);
  moved |= rotation_.solve_position_constraint(body1, body2, s_.relative_rotation, baumgarte);
  if (!s_.limits_spring_settings.has_stiffness()) {
    measure(body1, body2);
    float c = 0.0f, lo = 0.0f, hi = 0.0f;
    if (limit_violation(c, lo, hi))
      moved |= AxisConstraintPart::solve_position_constraint(body1, r1u_, body2, r2_, axis_, c,
                                                             baumgarte);
  }
  measure(body1, body2);
  // DualAxisConstraintPart measures its error between the points at its lever arms, so the
  // position pass gives it body 1's own point (r1 = r1u − u), not the velocity pass's r1 + u
  // (with which the error would always read 0).
  const std::array<float, 2> lambda = position_rows_.total_lambda();
  const Vec3 r1 = body1.rotation * s_.point1;
  position_rows_.calculate_constraint_properties(body1, r1, body2, r2_, n1_, n2_);
  position_rows_.set_total_lambda(lambda);
  moved |= position_rows_.solve_position_constraint(body1, body2, baumgarte);
  return moved;
}

void SliderConstraint::visit_type_state(StateStream& s) {
  visit_setting<2>(s, {"limits_min", "limits_max"}, {s_.limits_min, s_.limits_max},
                   [this](const std::array<float, 2>& v) { return set_limits(v[0], v[1]); });
  visit_motor_states(s, "motor_state", &motor_state_, 1);
  visit_finite(s, "target_velocity", target_velocity_);
  visit_finite(s, "target_position", target_position_);
  visit_finite(s, "current_position", position_);
  position_rows_.visit_state(s, "position_lambda");
  rotation_.visit_state(s, "rotation_lambda");
  limits_.visit_state(s, "limits_lambda");
  motor_.visit_state(s, "motor_lambda");
}

}  // namespace atl
