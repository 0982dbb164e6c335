#include "atoll/constraint/HingeConstraint.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "atoll/constraint/ConstraintState.h"

namespace atl {

namespace {

Status check_limits(float limits_min, float limits_max, std::string_view path) {
  if (!std::isfinite(limits_min) || limits_min < -k_pi || limits_min > 0.0f)
    return Error(std::string(path) + ".limits_min: must be in [-pi, 0] rad, got " +
                 std::to_string(limits_min));
  if (!std::isfinite(limits_max) || limits_max > k_pi || limits_max < 0.0f)
    return Error(std::string(path) + ".limits_max: must be in [0, pi] rad, got " +
                 std::to_string(limits_max));
  return Ok{};
}

Status check_friction(float torque, std::string_view path) {
  if (!std::isfinite(torque) || torque < 0.0f)
    return Error(std::string(path) + ".max_friction_torque: must be finite and >= 0, got " +
                 std::to_string(torque));
  return Ok{};
}

}  // namespace

Result<Ref<Constraint>> HingeConstraintSettings::create(const BodyInterface& bodies, BodyID body1,
                                                        BodyID body2) const {
  constexpr std::string_view path = "HingeConstraintSettings";
  if (Status s = common.validate(path); !s) return s.error();
  if (Status s = check_finite(point1, path, "point1"); !s) return s.error();
  if (Status s = check_finite(point2, path, "point2"); !s) return s.error();
  for (auto [axis, name] :
       {std::pair{hinge_axis1, "hinge_axis1"}, std::pair{hinge_axis2, "hinge_axis2"},
        std::pair{normal_axis1, "normal_axis1"}, std::pair{normal_axis2, "normal_axis2"}})
    if (Status s = check_direction(axis, path, name); !s) return s.error();
  if (std::fabs(hinge_axis1.normalized().dot(normal_axis1.normalized())) > 1.0e-3f)
    return Error(std::string(path) + ".normal_axis1: must be perpendicular to hinge_axis1");
  if (std::fabs(hinge_axis2.normalized().dot(normal_axis2.normalized())) > 1.0e-3f)
    return Error(std::string(path) + ".normal_axis2: must be perpendicular to hinge_axis2");
  if (Status s = check_limits(limits_min, limits_max, path); !s) return s.error();
  if (Status s = limits_spring_settings.validate(std::string(path) + ".limits_spring_settings"); !s)
    return s.error();
  if (Status s = check_friction(max_friction_torque, path); !s) return s.error();
  if (Status s = motor_settings.validate(std::string(path) + ".motor_settings"); !s)
    return s.error();
  Result<std::array<ConstraintBodyPose, 2>> poses =
      constraint_body_poses(bodies, body1, body2, path);
  if (!poses) return poses.error();
  const auto& p = poses.value();
  HingeConstraintSettings local = *this;
  local.space = ConstraintSpace::LocalToBodyCOM;
  local.hinge_axis1 = hinge_axis1.normalized();
  local.hinge_axis2 = hinge_axis2.normalized();
  local.normal_axis1 = normal_axis1.normalized();
  local.normal_axis2 = normal_axis2.normalized();
  if (space == ConstraintSpace::WorldSpace) {
    local.point1 = p[0].to_local(point1);
    local.point2 = p[1].to_local(point2);
    local.hinge_axis1 = p[0].to_local_direction(local.hinge_axis1);
    local.hinge_axis2 = p[1].to_local_direction(local.hinge_axis2);
    local.normal_axis1 = p[0].to_local_direction(local.normal_axis1);
    local.normal_axis2 = p[1].to_local_direction(local.normal_axis2);
  }
  return Ref<Constraint>(new HingeConstraint(body1, body2, local));
}

HingeConstraintSettings HingeConstraint::settings() const {
  HingeConstraintSettings s = s_;
  s.common = common_settings();
  return s;
}

Status HingeConstraint::set_target_angular_velocity(float velocity) {
  if (!std::isfinite(velocity))
    return Error("HingeConstraint::set_target_angular_velocity: velocity: must be finite");
  target_angular_velocity_ = velocity;
  return Ok{};
}

Status HingeConstraint::set_target_angle(float angle) {
  if (!std::isfinite(angle))
    return Error("HingeConstraint::set_target_angle: angle: must be finite");
  target_angle_ = has_limits() ? std::clamp(angle, s_.limits_min, s_.limits_max) : angle;
  return Ok{};
}

Status HingeConstraint::set_limits(float limits_min, float limits_max) {
  if (Status s = check_limits(limits_min, limits_max, "HingeConstraint"); !s) return s;
  s_.limits_min = limits_min;
  s_.limits_max = limits_max;
  return Ok{};
}

Status HingeConstraint::set_max_friction_torque(float torque) {
  if (Status s = check_friction(torque, "HingeConstraint"); !s) return s;
  s_.max_friction_torque = torque;
  return Ok{};
}

float HingeConstraint::angular_impulse() const {
  const std::array<float, 2> r = rotation_.total_lambda();
  const float l = limits_.total_lambda();
  return std::sqrt(r[0] * r[0] + r[1] * r[1] + l * l);
}

void HingeConstraint::reset_warm_start() {
  point_.set_total_lambda(Vec3::zero());
  rotation_.set_total_lambda({0.0f, 0.0f});
  limits_.set_total_lambda(0.0f);
  motor_.set_total_lambda(0.0f);
}

void HingeConstraint::measure(const SolverBody& body1, const SolverBody& body2) {
  r1_ = body1.rotation * s_.point1;
  r2_ = body2.rotation * s_.point2;
  a1_ = body1.rotation * s_.hinge_axis1;
  a2_ = body2.rotation * s_.hinge_axis2;
  const Vec3 n1 = body1.rotation * s_.normal_axis1;
  const Vec3 n2 = body2.rotation * s_.normal_axis2;
  angle_ = atl::atan2(a1_.dot(n1.cross(n2)), n1.dot(n2));
}

bool HingeConstraint::limit_violation(float& c, float& min_lambda, float& max_lambda) const {
  return has_limits() &&
         atl::limit_violation(angle_, s_.limits_min, s_.limits_max, c, min_lambda, max_lambda);
}

void HingeConstraint::setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                                float dt) {
  measure(body1, body2);
  point_.calculate_constraint_properties(body1, r1_, body2, r2_);
  rotation_.calculate_constraint_properties(body1, body2, a1_, a2_);

  float c = 0.0f;
  if (limit_violation(c, limit_min_lambda_, limit_max_lambda_))
    limits_.calculate_constraint_properties_for_limit(dt, body1, body2, a1_, 0.0f, c,
                                                      s_.limits_spring_settings);
  else
    limits_.deactivate();

  const MotorSettings& m = s_.motor_settings;
  motor_min_lambda_ = m.min_torque_limit * dt;
  motor_max_lambda_ = m.max_torque_limit * dt;
  switch (motor_state_) {
    case MotorState::Off:
      if (s_.max_friction_torque > 0.0f) {
        motor_min_lambda_ = -s_.max_friction_torque * dt;
        motor_max_lambda_ = s_.max_friction_torque * dt;
        motor_.calculate_constraint_properties(body1, body2, a1_, 0.0f);
      } else {
        motor_.deactivate();
      }
      break;
    case MotorState::Velocity:
      motor_.calculate_constraint_properties(body1, body2, a1_, target_angular_velocity_);
      break;
    case MotorState::Position:
    case MotorState::PositionAndVelocity: {
      const float error = center_angle_around_zero(angle_ - target_angle_);
      const float velocity =
          motor_state_ == MotorState::PositionAndVelocity ? target_angular_velocity_ : 0.0f;
      motor_.calculate_constraint_properties_for_motor(
          dt, body1, body2, a1_, velocity, error, m.spring, motor_min_lambda_, motor_max_lambda_);
      break;
    }
  }
}

void HingeConstraint::warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                     float ratio) {
  if (motor_.is_active()) motor_.warm_start(body1, body2, ratio);
  if (limits_.is_active()) limits_.warm_start(body1, body2, ratio);
  rotation_.warm_start(body1, body2, ratio);
  point_.warm_start(body1, body2, ratio);
}

bool HingeConstraint::solve_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                float /*dt*/) {
  bool applied = false;
  if (motor_.is_active())
    applied |= motor_.solve_velocity_constraint(body1, body2, motor_min_lambda_, motor_max_lambda_);
  if (limits_.is_active())
    applied |=
        limits_.solve_velocity_constraint(body1, body2, limit_min_lambda_, limit_max_lambda_);
  applied |= rotation_.solve_velocity_constraint(body1, body2);
  applied |= point_.solve_velocity_constraint(body1, body2);
  return applied;
}

bool HingeConstraint::solve_position_constraint(SolverBody& body1, SolverBody& body2, float /*dt*/,
                                                float baumgarte) {
  bool moved = false;
  measure(body1, body2);
  rotation_.calculate_constraint_properties(body1, body2, a1_, a2_);
  moved |= rotation_.solve_position_constraint(body1, body2, baumgarte);
  if (!s_.limits_spring_settings.has_stiffness()) {
    measure(body1, body2);
    float c = 0.0f, lo = 0.0f, hi = 0.0f;
    if (limit_violation(c, lo, hi)) {
      // A fresh hard row at the current pose; the velocity impulse of the step is kept.
      const float lambda = limits_.total_lambda();
      limits_.calculate_constraint_properties(body1, body2, a1_);
      limits_.set_total_lambda(lambda);
      moved |= limits_.solve_position_constraint(body1, body2, c, baumgarte);
    }
  }
  measure(body1, body2);
  point_.calculate_constraint_properties(body1, r1_, body2, r2_);
  moved |= point_.solve_position_constraint(body1, body2, baumgarte);
  return moved;
}

void HingeConstraint::visit_type_state(StateStream& s) {
  visit_setting<2>(s, {"limits_min", "limits_max"}, {s_.limits_min, s_.limits_max},
                   [this](const std::array<float, 2>& v) { return set_limits(v[0], v[1]); });
  visit_setting<1>(s, {"max_friction_torque"}, {s_.max_friction_torque},
                   [this](const std::array<float, 1>& v) { return set_max_friction_torque(v[0]); });
  visit_motor_states(s, "motor_state", &motor_state_, 1);
  visit_finite(s, "target_angular_velocity", target_angular_velocity_);
  visit_finite(s, "target_angle", target_angle_);
  visit_finite(s, "current_angle", angle_);
  point_.visit_state(s, "point_lambda");
  rotation_.visit_state(s, "rotation_lambda");
  limits_.visit_state(s, "limits_lambda");
  motor_.visit_state(s, "motor_lambda");
}

}  // namespace atl
