#include "atoll/constraint/SwingTwistConstraint.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "atoll/constraint/ConstraintState.h"

namespace atl {

namespace {

Status check_limits(float normal_half_cone_angle, float plane_half_cone_angle,
                    float twist_min_angle, float twist_max_angle, std::string_view path) {
  for (auto [angle, name] : {std::pair{normal_half_cone_angle, "normal_half_cone_angle"},
                             std::pair{plane_half_cone_angle, "plane_half_cone_angle"}})
    if (!std::isfinite(angle) || angle < 0.0f || angle > k_pi)
      return Error(std::string(path) + "." + name + ": must be in [0, pi] rad, got " +
                   std::to_string(angle));
  for (auto [angle, name] : {std::pair{twist_min_angle, "twist_min_angle"},
                             std::pair{twist_max_angle, "twist_max_angle"}})
    if (!std::isfinite(angle) || angle < -k_pi || angle > k_pi)
      return Error(std::string(path) + "." + name + ": must be in [-pi, pi] rad, got " +
                   std::to_string(angle));
  if (twist_min_angle > twist_max_angle)
    return Error(std::string(path) + ".twist_max_angle: must be >= twist_min_angle (" +
                 std::to_string(twist_min_angle) + "), got " + std::to_string(twist_max_angle));
  return Ok{};
}

Status check_friction(float torque, std::string_view path) {
  if (!std::isfinite(torque) || torque < 0.0f)
    return Error(std::string(path) + ".max_friction_torque: must be finite and >= 0, got " +
                 std::to_string(torque));
  return Ok{};
}

// The rotation taking the constraint space (X = twist, Y = plane ⟂ twist, Z = X × Y; unit
// axes) to the body's frame.
Quat constraint_to_body(const Vec3& twist, const Vec3& plane) {
  const Vec3 x = twist.normalized();
  const Vec3 y = (plane - x * x.dot(plane)).normalized();
  const Vec3 z = x.cross(y);
  return Mat44(Vec4(x, 0.0f), Vec4(y, 0.0f), Vec4(z, 0.0f), Vec4(0.0f, 0.0f, 0.0f, 1.0f))
      .quaternion()
      .normalized();
}

}  // namespace

Result<Ref<Constraint>> SwingTwistConstraintSettings::create(const BodyInterface& bodies,
                                                             BodyID body1, BodyID body2) const {
  constexpr std::string_view path = "SwingTwistConstraintSettings";
  if (Status s = common.validate(path); !s) return s.error();
  if (Status s = check_finite(position1, path, "position1"); !s) return s.error();
  if (Status s = check_finite(position2, path, "position2"); !s) return s.error();
  for (auto [axis, name] :
       {std::pair{twist_axis1, "twist_axis1"}, std::pair{twist_axis2, "twist_axis2"},
        std::pair{plane_axis1, "plane_axis1"}, std::pair{plane_axis2, "plane_axis2"}})
    if (Status s = check_direction(axis, path, name); !s) return s.error();
  if (std::fabs(twist_axis1.normalized().dot(plane_axis1.normalized())) > 1.0e-3f)
    return Error(std::string(path) + ".plane_axis1: must be perpendicular to twist_axis1");
  if (std::fabs(twist_axis2.normalized().dot(plane_axis2.normalized())) > 1.0e-3f)
    return Error(std::string(path) + ".plane_axis2: must be perpendicular to twist_axis2");
  if (Status s = check_limits(normal_half_cone_angle, plane_half_cone_angle, twist_min_angle,
                              twist_max_angle, path);
      !s)
    return s.error();
  if (Status s = check_friction(max_friction_torque, path); !s) return s.error();
  if (Status s = swing_motor_settings.validate(std::string(path) + ".swing_motor_settings"); !s)
    return s.error();
  if (Status s = twist_motor_settings.validate(std::string(path) + ".twist_motor_settings"); !s)
    return s.error();
  Result<std::array<ConstraintBodyPose, 2>> poses =
      constraint_body_poses(bodies, body1, body2, path);
  if (!poses) return poses.error();
  const auto& p = poses.value();
  SwingTwistConstraintSettings local = *this;
  local.space = ConstraintSpace::LocalToBodyCOM;
  local.twist_axis1 = twist_axis1.normalized();
  local.twist_axis2 = twist_axis2.normalized();
  local.plane_axis1 = plane_axis1.normalized();
  local.plane_axis2 = plane_axis2.normalized();
  if (space == ConstraintSpace::WorldSpace) {
    local.position1 = p[0].to_local(position1);
    local.position2 = p[1].to_local(position2);
    local.twist_axis1 = p[0].to_local_direction(local.twist_axis1);
    local.twist_axis2 = p[1].to_local_direction(local.twist_axis2);
    local.plane_axis1 = p[0].to_local_direction(local.plane_axis1);
    local.plane_axis2 = p[1].to_local_direction(local.plane_axis2);
  }
  return Ref<Constraint>(new SwingTwistConstraint(body1, body2, local));
}

SwingTwistConstraint::SwingTwistConstraint(BodyID body1, BodyID body2,
                                           const SwingTwistConstraintSettings& local)
    : Constraint(body1, body2, local.common),
      s_(local),
      constraint_to_body1_(constraint_to_body(local.twist_axis1, local.plane_axis1)),
      constraint_to_body2_(constraint_to_body(local.twist_axis2, local.plane_axis2)) {
  update_limits();
  target_orientation_cs_ = clamp_to_limits(Quat::identity());
}

SwingTwistConstraintSettings SwingTwistConstraint::settings() const {
  SwingTwistConstraintSettings s = s_;
  s.common = common_settings();
  return s;
}

void SwingTwistConstraint::update_limits() {
  // Swing about Y is bounded by the plane half-angle, about Z by the normal half-angle.
  limits_.set_limits(s_.twist_min_angle, s_.twist_max_angle, s_.plane_half_cone_angle,
                     s_.normal_half_cone_angle);
}

Quat SwingTwistConstraint::clamp_to_limits(const Quat& orientation) const {
  Quat swing;
  Quat twist;
  orientation.normalized().ensure_w_positive().swing_twist(swing, twist);
  swing = swing.ensure_w_positive();
  if (!(s_.twist_min_angle <= -k_pi && s_.twist_max_angle >= k_pi)) {
    const float angle = 2.0f * atl::atan2(twist.x(), twist.w());
    twist =
        Quat::rotation(Vec3::axis_x(), std::clamp(angle, s_.twist_min_angle, s_.twist_max_angle));
  }
  if (!(s_.plane_half_cone_angle >= k_pi && s_.normal_half_cone_angle >= k_pi)) {
    // The cone is the ellipse of semi-axes sin(half-angle / 2) in the swing's (y, z).
    const std::array<float, 2> p = SwingTwistConstraintPart::closest_point_on_ellipse(
        atl::sin(0.5f * s_.plane_half_cone_angle), atl::sin(0.5f * s_.normal_half_cone_angle),
        swing.y(), swing.z());
    swing = Quat(0.0f, p[0], p[1], std::sqrt(std::max(0.0f, 1.0f - p[0] * p[0] - p[1] * p[1])));
  }
  return (swing * twist).normalized();
}

Status SwingTwistConstraint::set_target_angular_velocity_cs(const Vec3& velocity) {
  if (!velocity.is_finite())
    return Error("SwingTwistConstraint::set_target_angular_velocity_cs: velocity: must be finite");
  target_angular_velocity_cs_ = velocity;
  return Ok{};
}

Status SwingTwistConstraint::set_target_orientation_cs(const Quat& orientation) {
  if (!orientation.is_finite() || orientation.length_sq() < 1.0e-12f)
    return Error(
        "SwingTwistConstraint::set_target_orientation_cs: orientation: must be a finite "
        "quaternion of non-zero length");
  target_orientation_cs_ = clamp_to_limits(orientation);
  return Ok{};
}

Status SwingTwistConstraint::set_target_orientation_bs(const Quat& orientation) {
  if (!orientation.is_finite() || orientation.length_sq() < 1.0e-12f)
    return Error(
        "SwingTwistConstraint::set_target_orientation_bs: orientation: must be a finite "
        "quaternion of non-zero length");
  // frame1⁻¹·frame2 = c1⁻¹·(body1⁻¹·body2)·c2.
  target_orientation_cs_ = clamp_to_limits(constraint_to_body1_.conjugated() *
                                           orientation.normalized() * constraint_to_body2_);
  return Ok{};
}

Status SwingTwistConstraint::set_limits(float normal_half_cone_angle, float plane_half_cone_angle,
                                        float twist_min_angle, float twist_max_angle) {
  if (Status s = check_limits(normal_half_cone_angle, plane_half_cone_angle, twist_min_angle,
                              twist_max_angle, "SwingTwistConstraint");
      !s)
    return s;
  s_.normal_half_cone_angle = normal_half_cone_angle;
  s_.plane_half_cone_angle = plane_half_cone_angle;
  s_.twist_min_angle = twist_min_angle;
  s_.twist_max_angle = twist_max_angle;
  update_limits();
  target_orientation_cs_ = clamp_to_limits(target_orientation_cs_);
  return Ok{};
}

Status SwingTwistConstraint::set_max_friction_torque(float torque) {
  if (Status s = check_friction(torque, "SwingTwistConstraint"); !s) return s;
  s_.max_friction_torque = torque;
  return Ok{};
}

float SwingTwistConstraint::angular_impulse() const { return limits_.angular_impulse().length(); }

void SwingTwistConstraint::reset_warm_start() {
  point_.set_total_lambda(Vec3::zero());
  limits_.set_total_lambda({0.0f, 0.0f});
  for (AngleConstraintPart& m : motor_) m.set_total_lambda(0.0f);
}

void SwingTwistConstraint::setup_velocity_constraint(const SolverBody& body1,
                                                     const SolverBody& body2, float dt) {
  r1_ = body1.rotation * s_.position1;
  r2_ = body2.rotation * s_.position2;
  point_.calculate_constraint_properties(body1, r1_, body2, r2_);
  limits_.calculate_constraint_properties(dt, body1, body2, constraint_to_body1_,
                                          constraint_to_body2_);
  rotation_cs_ = SwingTwistConstraintPart::relative_rotation(body1, body2, constraint_to_body1_,
                                                             constraint_to_body2_);

  // The rows act about the axes of constraint space 2 (X = body 2's twist axis), as in Jolt: a
  // limb's twist row then sees its small inertia about its length and the swing rows the
  // large one across it, so a soft motor's spring keeps its frequency and damping when the
  // joint is bent. The targets, given in constraint space 1, are projected on these axes.
  const Quat frame1 = body1.rotation * constraint_to_body1_;
  const Quat frame2 = body2.rotation * constraint_to_body2_;
  const Vec3 axes[3] = {frame2.rotate_axis_x(), frame2.rotate_axis_y(), frame2.rotate_axis_z()};
  const Vec3 target_velocity = frame1 * target_angular_velocity_cs_;
  // The error rotation of the position motors: current = error · target in constraint space
  // 1; its angle vector (turned to world) has the relative angular velocity as its rate.
  Vec3 error_axis;
  float error_angle = 0.0f;
  (rotation_cs_ * target_orientation_cs_.conjugated())
      .normalized()
      .ensure_w_positive()
      .to_axis_angle(error_axis, error_angle);
  const Vec3 error = frame1 * (error_axis * error_angle);
  for (int i = 0; i < 3; ++i) {
    const MotorState state = i == 0 ? twist_motor_state_ : swing_motor_state_;
    const MotorSettings& m = i == 0 ? s_.twist_motor_settings : s_.swing_motor_settings;
    motor_min_lambda_[i] = m.min_torque_limit * dt;
    motor_max_lambda_[i] = m.max_torque_limit * dt;
    switch (state) {
      case MotorState::Off:
        if (s_.max_friction_torque > 0.0f) {
          motor_min_lambda_[i] = -s_.max_friction_torque * dt;
          motor_max_lambda_[i] = s_.max_friction_torque * dt;
          motor_[i].calculate_constraint_properties(body1, body2, axes[i], 0.0f);
        } else {
          motor_[i].deactivate();
        }
        break;
      case MotorState::Velocity:
        motor_[i].calculate_constraint_properties(body1, body2, axes[i],
                                                  axes[i].dot(target_velocity));
        break;
      case MotorState::Position:
      case MotorState::PositionAndVelocity: {
        const float velocity =
            state == MotorState::PositionAndVelocity ? axes[i].dot(target_velocity) : 0.0f;
        motor_[i].calculate_constraint_properties_for_motor(
            dt, body1, body2, axes[i], velocity, axes[i].dot(error), m.spring, motor_min_lambda_[i],
            motor_max_lambda_[i]);
        break;
      }
    }
  }
}

void SwingTwistConstraint::warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                          float ratio) {
  for (AngleConstraintPart& m : motor_)
    if (m.is_active()) m.warm_start(body1, body2, ratio);
  limits_.warm_start(body1, body2, ratio);
  point_.warm_start(body1, body2, ratio);
}

bool SwingTwistConstraint::solve_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                     float /*dt*/) {
  bool applied = false;
  for (int i = 0; i < 3; ++i)
    if (motor_[i].is_active())
      applied |= motor_[i].solve_velocity_constraint(body1, body2, motor_min_lambda_[i],
                                                     motor_max_lambda_[i]);
  applied |= limits_.solve_velocity_constraint(body1, body2);
  applied |= point_.solve_velocity_constraint(body1, body2);
  return applied;
}

bool SwingTwistConstraint::solve_position_constraint(SolverBody& body1, SolverBody& body2,
                                                     float /*dt*/, float baumgarte) {
  bool moved = limits_.solve_position_constraint(body1, body2, constraint_to_body1_,
                                                 constraint_to_body2_, baumgarte);
  r1_ = body1.rotation * s_.position1;
  r2_ = body2.rotation * s_.position2;
  point_.calculate_constraint_properties(body1, r1_, body2, r2_);
  moved |= point_.solve_position_constraint(body1, body2, baumgarte);
  return moved;
}

void SwingTwistConstraint::visit_type_state(StateStream& s) {
  visit_setting<4>(
      s, {"normal_half_cone_angle", "plane_half_cone_angle", "twist_min_angle", "twist_max_angle"},
      {s_.normal_half_cone_angle, s_.plane_half_cone_angle, s_.twist_min_angle, s_.twist_max_angle},
      [this](const std::array<float, 4>& v) { return set_limits(v[0], v[1], v[2], v[3]); });
  visit_setting<1>(s, {"max_friction_torque"}, {s_.max_friction_torque},
                   [this](const std::array<float, 1>& v) { return set_max_friction_torque(v[0]); });
  visit_motor_states(s, "swing_motor_state", &swing_motor_state_, 1);
  visit_motor_states(s, "twist_motor_state", &twist_motor_state_, 1);
  visit_finite(s, "target_angular_velocity", target_angular_velocity_cs_);
  // After the limits: set_limits clamps the target to them.
  visit_rotation(s, "target_orientation", target_orientation_cs_);
  point_.visit_state(s, "point_lambda");
  limits_.visit_state(s, "limits");
  constexpr const char* k_motor[3] = {"motor_x_lambda", "motor_y_lambda", "motor_z_lambda"};
  for (int i = 0; i < 3; ++i) motor_[i].visit_state(s, k_motor[i]);
}

}  // namespace atl
