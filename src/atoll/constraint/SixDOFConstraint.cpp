#include "atoll/constraint/SixDOFConstraint.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "atoll/constraint/ConstraintState.h"

namespace atl {

namespace {

constexpr std::string_view k_six_dof_path = "six_dof";

std::string indexed(const char* field, int i) {
  return std::string(k_six_dof_path) + "." + field + "[" + std::to_string(i) + "]";
}

// The rotation whose columns are the orthonormal axes x, y, z.
Quat basis_rotation(const Vec3& x, const Vec3& y, const Vec3& z) {
  const float m00 = x.x(), m10 = x.y(), m20 = x.z();
  const float m01 = y.x(), m11 = y.y(), m21 = y.z();
  const float m02 = z.x(), m12 = z.y(), m22 = z.z();
  const float trace = m00 + m11 + m22;
  Quat q;
  if (trace > 0.0f) {
    const float s = 2.0f * std::sqrt(trace + 1.0f);
    q = Quat((m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, 0.25f * s);
  } else if (m00 > m11 && m00 > m22) {
    const float s = 2.0f * std::sqrt(1.0f + m00 - m11 - m22);
    q = Quat(0.25f * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s);
  } else if (m11 > m22) {
    const float s = 2.0f * std::sqrt(1.0f + m11 - m00 - m22);
    q = Quat((m01 + m10) / s, 0.25f * s, (m12 + m21) / s, (m02 - m20) / s);
  } else {
    const float s = 2.0f * std::sqrt(1.0f + m22 - m00 - m11);
    q = Quat((m02 + m20) / s, (m12 + m21) / s, 0.25f * s, (m10 - m01) / s);
  }
  return q.normalized();
}

// The frame's rotation from its X and Y axes (unit, perpendicular).
Quat frame_rotation(const Vec3& axis_x, const Vec3& axis_y) {
  return basis_rotation(axis_x, axis_y, axis_x.cross(axis_y));
}

// y made perpendicular to unit x, normalized.
Vec3 orthogonalized(const Vec3& x, const Vec3& y) { return (y - x * x.dot(y)).normalized(); }

bool is_rotation(int axis) { return axis >= SixDOFConstraintSettings::k_num_translation_axes; }

// The rotation of frame 2 in frame 1 at twist `twist` about X and swing components
// sin(swing_y / 2), sin(swing_z / 2) (SwingTwistConstraintPart's measure of the angles).
Quat rotation_at_angles(float twist, float swing_y, float swing_z) {
  const float y = atl::sin(0.5f * swing_y);
  const float z = atl::sin(0.5f * swing_z);
  const float w = std::sqrt(std::max(0.0f, 1.0f - y * y - z * z));
  return (Quat(0.0f, y, z, w).normalized() * Quat::rotation(Vec3::axis_x(), twist)).normalized();
}

}  // namespace

bool SixDOFConstraintSettings::is_free_axis(Axis axis) const {
  if (is_rotation(axis)) return limit_min[axis] <= -k_pi && limit_max[axis] >= k_pi;
  return limit_min[axis] <= -k_float_max && limit_max[axis] >= k_float_max;
}

Result<Ref<Constraint>> SixDOFConstraintSettings::create(const BodyInterface& bodies, BodyID body1,
                                                         BodyID body2) const {
  const std::string path(k_six_dof_path);
  if (Status s = common.validate(path); !s) return s.error();
  if (Status s = check_finite(position1, path, "position1"); !s) return s.error();
  if (Status s = check_finite(position2, path, "position2"); !s) return s.error();
  if (Status s = check_direction(axis_x1, path, "axis_x1"); !s) return s.error();
  if (Status s = check_direction(axis_y1, path, "axis_y1"); !s) return s.error();
  if (Status s = check_direction(axis_x2, path, "axis_x2"); !s) return s.error();
  if (Status s = check_direction(axis_y2, path, "axis_y2"); !s) return s.error();
  if (std::fabs(axis_x1.normalized().dot(axis_y1.normalized())) > 1.0e-3f)
    return Error(path + ".axis_y1: must be perpendicular to axis_x1");
  if (std::fabs(axis_x2.normalized().dot(axis_y2.normalized())) > 1.0e-3f)
    return Error(path + ".axis_y2: must be perpendicular to axis_x2");
  for (int i = 0; i < k_num_axes; ++i) {
    const float lo = limit_min[i];
    const float hi = limit_max[i];
    if (!std::isfinite(lo))
      return Error(indexed("limit_min", i) + ": must be finite (-FLT_MAX frees the axis), got " +
                   std::to_string(lo));
    if (!std::isfinite(hi))
      return Error(indexed("limit_max", i) + ": must be finite (FLT_MAX frees the axis), got " +
                   std::to_string(hi));
    if (lo > hi)
      return Error(indexed("limit_min", i) + ": must be <= limit_max[" + std::to_string(i) + "] (" +
                   std::to_string(hi) + "), got " + std::to_string(lo));
    if (lo == hi && std::fabs(lo) == k_float_max)
      return Error(indexed("limit_min", i) + ": a fixed axis (limit_min = limit_max) must be " +
                   "fixed at a real value, not at +-FLT_MAX");
    if (is_rotation(i)) {
      if (lo != -k_float_max && (lo < -k_pi || lo > k_pi))
        return Error(indexed("limit_min", i) + ": a rotation limit must be in [-pi, pi] rad (or " +
                     "-FLT_MAX), got " + std::to_string(lo));
      if (hi != k_float_max && (hi < -k_pi || hi > k_pi))
        return Error(indexed("limit_max", i) + ": a rotation limit must be in [-pi, pi] rad (or " +
                     "FLT_MAX), got " + std::to_string(hi));
    }
  }
  if (swing_type != SwingType::Cone && swing_type != SwingType::Pyramid)
    return Error(path + ".swing_type: unknown value " +
                 std::to_string(static_cast<int>(swing_type)));
  if (swing_type == SwingType::Cone)
    for (const Axis a : {RotationY, RotationZ})
      if (!is_free_axis(a) && limit_min[a] != -limit_max[a])
        return Error(
            indexed("limit_min", a) +
            ": with swing_type cone the rotation Y and Z limits must be symmetric "
            "(limit_min = -limit_max); use swing_type pyramid for asymmetric limits, got [" +
            std::to_string(limit_min[a]) + ", " + std::to_string(limit_max[a]) + "]");
  for (int i = 0; i < k_num_translation_axes; ++i)
    if (Status s = limits_spring_settings[i].validate(indexed("limits_spring_settings", i)); !s)
      return s.error();
  for (int i = 0; i < k_num_axes; ++i)
    if (!std::isfinite(max_friction[i]) || max_friction[i] < 0.0f)
      return Error(indexed("max_friction", i) + ": must be finite and >= 0, got " +
                   std::to_string(max_friction[i]));
  for (int i = 0; i < k_num_axes; ++i)
    if (Status s = motor_settings[i].validate(indexed("motor_settings", i)); !s) return s.error();
  Result<std::array<ConstraintBodyPose, 2>> poses =
      constraint_body_poses(bodies, body1, body2, path);
  if (!poses) return poses.error();
  const auto& p = poses.value();

  SixDOFConstraintSettings local = *this;
  local.space = ConstraintSpace::LocalToBodyCOM;
  local.axis_x1 = axis_x1.normalized();
  local.axis_y1 = orthogonalized(local.axis_x1, axis_y1.normalized());
  local.axis_x2 = axis_x2.normalized();
  local.axis_y2 = orthogonalized(local.axis_x2, axis_y2.normalized());
  if (space == ConstraintSpace::WorldSpace) {
    local.position1 = p[0].to_local(position1);
    local.position2 = p[1].to_local(position2);
    local.axis_x1 = p[0].to_local_direction(local.axis_x1);
    local.axis_y1 = p[0].to_local_direction(local.axis_y1);
    local.axis_x2 = p[1].to_local_direction(local.axis_x2);
    local.axis_y2 = p[1].to_local_direction(local.axis_y2);
  }
  return Ref<Constraint>(new SixDOFConstraint(body1, body2, local));
}

SixDOFConstraint::SixDOFConstraint(BodyID body1, BodyID body2,
                                   const SixDOFConstraintSettings& local)
    : Constraint(body1, body2, local.common), s_(local) {
  constraint_to_body1_ = frame_rotation(s_.axis_x1, s_.axis_y1);
  constraint_to_body2_ = frame_rotation(s_.axis_x2, s_.axis_y2);
  bool all_translation_fixed_at_0 = true;
  bool translation_soft = false;
  for (int i = 0; i < 3; ++i) {
    const auto axis = static_cast<Axis>(i);
    translation_free_[i] = s_.is_free_axis(axis);
    translation_fixed_[i] = s_.is_fixed_axis(axis);
    all_translation_fixed_at_0 &= translation_fixed_[i] && s_.limit_min[i] == 0.0f;
    translation_soft |= s_.limits_spring_settings[i].has_stiffness();
  }
  use_point_ = all_translation_fixed_at_0 && !translation_soft;
  bool all_rotation_fixed = true;
  for (int i = 0; i < 3; ++i) {
    const auto axis = static_cast<Axis>(3 + i);
    rotation_free_[i] = s_.is_free_axis(axis);
    rotation_fixed_[i] = s_.is_fixed_axis(axis);
    all_rotation_fixed &= rotation_fixed_[i];
    rotation_limited_ |= !rotation_free_[i];
  }
  use_rotation_euler_ = all_rotation_fixed;
  const auto clamp_angle = [](float a) { return std::clamp(a, -k_pi, k_pi); };
  const float* lo = &s_.limit_min[3];
  const float* hi = &s_.limit_max[3];
  if (use_rotation_euler_) {
    // The held q1⁻¹·q2 = c1·q·c2⁻¹ for the rotation q of frame 2 in frame 1 at the fixed angles.
    fixed_rotation_ = (constraint_to_body1_ * rotation_at_angles(lo[0], lo[1], lo[2]) *
                       constraint_to_body2_.conjugated())
                          .normalized();
  } else if (s_.swing_type == SwingType::Pyramid || rotation_fixed_[1] || rotation_fixed_[2]) {
    // A cone with a swing axis fixed (at 0: the limits are symmetric) is the segment of the
    // other axis' range, which is exactly that pyramid; the pyramid holds the fixed axis with a
    // two-sided row (the cone's row would act only once the swing has left the segment).
    swing_twist_.set_pyramid_limits(clamp_angle(lo[0]), clamp_angle(hi[0]), clamp_angle(lo[1]),
                                    clamp_angle(hi[1]), clamp_angle(lo[2]), clamp_angle(hi[2]));
  } else {
    // Cone: symmetric Y and Z limits (validated), the half-angles are the maxima.
    swing_twist_.set_limits(clamp_angle(lo[0]), clamp_angle(hi[0]), std::clamp(hi[1], 0.0f, k_pi),
                            std::clamp(hi[2], 0.0f, k_pi));
  }
}

SixDOFConstraintSettings SixDOFConstraint::settings() const {
  SixDOFConstraintSettings s = s_;
  s.common = common_settings();
  return s;
}

Status SixDOFConstraint::set_target_velocity_cs(const Vec3& velocity) {
  if (!velocity.is_finite())
    return Error("SixDOFConstraint::set_target_velocity_cs: velocity: must be finite");
  target_velocity_ = velocity;
  return Ok{};
}

Status SixDOFConstraint::set_target_angular_velocity_cs(const Vec3& angular_velocity) {
  if (!angular_velocity.is_finite())
    return Error(
        "SixDOFConstraint::set_target_angular_velocity_cs: angular_velocity: must be finite");
  target_angular_velocity_ = angular_velocity;
  return Ok{};
}

Status SixDOFConstraint::set_target_position_cs(const Vec3& position) {
  if (!position.is_finite())
    return Error("SixDOFConstraint::set_target_position_cs: position: must be finite");
  target_position_ = position;
  return Ok{};
}

Status SixDOFConstraint::set_target_orientation_cs(const Quat& orientation) {
  if (!orientation.is_finite() || orientation.length_sq() < 1.0e-12f)
    return Error(
        "SixDOFConstraint::set_target_orientation_cs: orientation: must be a finite non-zero "
        "quaternion");
  target_orientation_ = orientation.normalized().ensure_w_positive();
  return Ok{};
}

Vec3 SixDOFConstraint::total_lambda_position() const {
  if (use_point_) {
    const Vec3& l = point_.total_lambda();
    return Vec3(l.dot(axis_[0]), l.dot(axis_[1]), l.dot(axis_[2]));
  }
  return Vec3(translation_rows_[0].total_lambda(), translation_rows_[1].total_lambda(),
              translation_rows_[2].total_lambda());
}

Vec3 SixDOFConstraint::total_lambda_rotation() const {
  if (use_rotation_euler_) {
    const Vec3& l = rotation_.total_lambda();
    return Vec3(l.dot(axis_[0]), l.dot(axis_[1]), l.dot(axis_[2]));
  }
  const SwingTwistConstraintPart::Lambda l = swing_twist_.total_lambda();
  return Vec3(l[1], l[0], swing_twist_.total_lambda_swing_z());
}

float SixDOFConstraint::angular_impulse() const {
  // The fixed rotation's three rows are about orthonormal axes; the limit rows' axes need not
  // be, so their impulses are summed as vectors.
  if (use_rotation_euler_) return total_lambda_rotation().length();
  return swing_twist_.angular_impulse().length();
}

void SixDOFConstraint::reset_warm_start() {
  point_.set_total_lambda(Vec3::zero());
  rotation_.set_total_lambda(Vec3::zero());
  swing_twist_.set_total_lambda({0.0f, 0.0f});
  swing_twist_.set_total_lambda_swing_z(0.0f);
  for (int i = 0; i < 3; ++i) {
    translation_rows_[i].set_total_lambda(0.0f);
    motor_[i].set_total_lambda(0.0f);
    motor_rotation_[i].set_total_lambda(0.0f);
  }
}

void SixDOFConstraint::measure(const SolverBody& body1, const SolverBody& body2) {
  const Vec3 r1 = body1.rotation * s_.position1;
  r2_ = body2.rotation * s_.position2;
  const Vec3 u = (body2.com_position + r2_) - (body1.com_position + r1);
  r1u_ = r1 + u;
  const Quat frame1 = body1.rotation * constraint_to_body1_;
  const Quat frame2 = body2.rotation * constraint_to_body2_;
  axis_[0] = frame1.rotate_axis_x();
  axis_[1] = frame1.rotate_axis_y();
  axis_[2] = frame1.rotate_axis_z();
  rotation_axis_[0] = frame2.rotate_axis_x();
  rotation_axis_[1] = frame2.rotate_axis_y();
  rotation_axis_[2] = frame2.rotate_axis_z();
  translation_ = Vec3(u.dot(axis_[0]), u.dot(axis_[1]), u.dot(axis_[2]));
  rotation_cs_ = (frame1.conjugated() * frame2).normalized().ensure_w_positive();
}

bool SixDOFConstraint::translation_violation(int i, float& c, float& min_lambda,
                                             float& max_lambda) const {
  if (translation_free_[i]) return false;
  if (translation_fixed_[i]) {
    c = translation_[i] - s_.limit_min[i];
    min_lambda = -k_float_max;
    max_lambda = k_float_max;
    return true;
  }
  return atl::limit_violation(translation_[i], s_.limit_min[i], s_.limit_max[i], c, min_lambda,
                              max_lambda);
}

void SixDOFConstraint::setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                                 float dt) {
  measure(body1, body2);
  // Translation: the point part, or a row per fixed or violated limited axis.
  if (use_point_) {
    point_.calculate_constraint_properties(body1, body1.rotation * s_.position1, body2, r2_);
  } else {
    for (int i = 0; i < 3; ++i) {
      float c = 0.0f;
      if (translation_violation(i, c, limit_min_lambda_[i], limit_max_lambda_[i]))
        translation_rows_[i].calculate_constraint_properties_for_limit(
            dt, body1, r1u_, body2, r2_, axis_[i], 0.0f, c, s_.limits_spring_settings[i]);
      else
        translation_rows_[i].deactivate();
    }
  }
  // Rotation: all fixed, or the limits.
  if (use_rotation_euler_)
    rotation_.calculate_constraint_properties(body1, body2);
  else if (rotation_limited_)
    swing_twist_.calculate_constraint_properties(dt, body1, body2, constraint_to_body1_,
                                                 constraint_to_body2_);
  else
    swing_twist_.deactivate();

  // Translation motors and friction, along frame 1's axes.
  for (int i = 0; i < 3; ++i) {
    AxisConstraintPart& motor = motor_[i];
    if (translation_fixed_[i]) {
      motor.deactivate();
      continue;
    }
    const MotorSettings& m = s_.motor_settings[i];
    motor_min_lambda_[i] = m.min_force_limit * dt;
    motor_max_lambda_[i] = m.max_force_limit * dt;
    switch (motor_state_[i]) {
      case MotorState::Off:
        if (s_.max_friction[i] > 0.0f) {
          motor_min_lambda_[i] = -s_.max_friction[i] * dt;
          motor_max_lambda_[i] = s_.max_friction[i] * dt;
          motor.calculate_constraint_properties(body1, r1u_, body2, r2_, axis_[i], 0.0f);
        } else {
          motor.deactivate();
        }
        break;
      case MotorState::Velocity:
        motor.calculate_constraint_properties(body1, r1u_, body2, r2_, axis_[i],
                                              target_velocity_[i]);
        break;
      case MotorState::Position:
      case MotorState::PositionAndVelocity: {
        const float velocity =
            motor_state_[i] == MotorState::PositionAndVelocity ? target_velocity_[i] : 0.0f;
        motor.calculate_constraint_properties_for_motor(
            dt, body1, r1u_, body2, r2_, axis_[i], velocity, translation_[i] - target_position_[i],
            m.spring, motor_min_lambda_[i], motor_max_lambda_[i]);
        break;
      }
    }
  }
  // Rotation motors and friction, about frame 2's axes. The position error of axis i is
  // 2·e.xyz[i] of the rotation e = target⁻¹·q left to turn (frame 2's axes; ≈ the angle).
  const Quat error =
      (target_orientation_.conjugated() * rotation_cs_).normalized().ensure_w_positive();
  for (int i = 0; i < 3; ++i) {
    AngleConstraintPart& motor = motor_rotation_[i];
    if (rotation_fixed_[i]) {
      motor.deactivate();
      continue;
    }
    const MotorSettings& m = s_.motor_settings[3 + i];
    motor_rotation_min_lambda_[i] = m.min_torque_limit * dt;
    motor_rotation_max_lambda_[i] = m.max_torque_limit * dt;
    switch (motor_state_[3 + i]) {
      case MotorState::Off:
        if (s_.max_friction[3 + i] > 0.0f) {
          motor_rotation_min_lambda_[i] = -s_.max_friction[3 + i] * dt;
          motor_rotation_max_lambda_[i] = s_.max_friction[3 + i] * dt;
          motor.calculate_constraint_properties(body1, body2, rotation_axis_[i], 0.0f);
        } else {
          motor.deactivate();
        }
        break;
      case MotorState::Velocity:
        motor.calculate_constraint_properties(body1, body2, rotation_axis_[i],
                                              target_angular_velocity_[i]);
        break;
      case MotorState::Position:
      case MotorState::PositionAndVelocity: {
        const float velocity = motor_state_[3 + i] == MotorState::PositionAndVelocity
                                   ? target_angular_velocity_[i]
                                   : 0.0f;
        motor.calculate_constraint_properties_for_motor(
            dt, body1, body2, rotation_axis_[i], velocity, 2.0f * error.xyz()[i], m.spring,
            motor_rotation_min_lambda_[i], motor_rotation_max_lambda_[i]);
        break;
      }
    }
  }
}

void SixDOFConstraint::warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                      float ratio) {
  for (int i = 0; i < 3; ++i) {
    if (motor_[i].is_active()) motor_[i].warm_start(body1, body2, ratio);
    if (motor_rotation_[i].is_active()) motor_rotation_[i].warm_start(body1, body2, ratio);
  }
  if (use_rotation_euler_)
    rotation_.warm_start(body1, body2, ratio);
  else if (rotation_limited_)
    swing_twist_.warm_start(body1, body2, ratio);
  if (use_point_) {
    point_.warm_start(body1, body2, ratio);
  } else {
    for (AxisConstraintPart& row : translation_rows_)
      if (row.is_active()) row.warm_start(body1, body2, ratio);
  }
}

bool SixDOFConstraint::solve_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                 float /*dt*/) {
  bool applied = false;
  for (int i = 0; i < 3; ++i) {
    if (motor_[i].is_active())
      applied |= motor_[i].solve_velocity_constraint(body1, body2, axis_[i], motor_min_lambda_[i],
                                                     motor_max_lambda_[i]);
    if (motor_rotation_[i].is_active())
      applied |= motor_rotation_[i].solve_velocity_constraint(
          body1, body2, motor_rotation_min_lambda_[i], motor_rotation_max_lambda_[i]);
  }
  if (use_rotation_euler_)
    applied |= rotation_.solve_velocity_constraint(body1, body2);
  else if (rotation_limited_)
    applied |= swing_twist_.solve_velocity_constraint(body1, body2);
  if (use_point_) {
    applied |= point_.solve_velocity_constraint(body1, body2);
  } else {
    for (int i = 0; i < 3; ++i)
      if (translation_rows_[i].is_active())
        applied |= translation_rows_[i].solve_velocity_constraint(
            body1, body2, axis_[i], limit_min_lambda_[i], limit_max_lambda_[i]);
  }
  return applied;
}

bool SixDOFConstraint::solve_position_constraint(SolverBody& body1, SolverBody& body2, float /*dt*/,
                                                 float baumgarte) {
  bool moved = false;
  if (use_rotation_euler_) {
    rotation_.calculate_constraint_properties(body1, body2);
    moved |= rotation_.solve_position_constraint(body1, body2, fixed_rotation_, baumgarte);
  } else if (rotation_limited_) {
    moved |= swing_twist_.solve_position_constraint(body1, body2, constraint_to_body1_,
                                                    constraint_to_body2_, baumgarte);
  }
  if (use_point_) {
    measure(body1, body2);
    point_.calculate_constraint_properties(body1, body1.rotation * s_.position1, body2, r2_);
    moved |= point_.solve_position_constraint(body1, body2, baumgarte);
    return moved;
  }
  for (int i = 0; i < 3; ++i) {
    if (s_.limits_spring_settings[i].has_stiffness()) continue;  // soft: no position solve
    measure(body1, body2);
    float c = 0.0f, lo = 0.0f, hi = 0.0f;
    if (translation_violation(i, c, lo, hi))
      moved |= AxisConstraintPart::solve_position_constraint(body1, r1u_, body2, r2_, axis_[i], c,
                                                             baumgarte);
  }
  return moved;
}

void SixDOFConstraint::visit_type_state(StateStream& s) {
  visit_motor_states(s, "motor_state", motor_state_.data(), k_num_axes);
  visit_finite(s, "target_velocity", target_velocity_);
  visit_finite(s, "target_angular_velocity", target_angular_velocity_);
  visit_finite(s, "target_position", target_position_);
  visit_rotation(s, "target_orientation", target_orientation_);
  point_.visit_state(s, "point_lambda");
  constexpr const char* k_translation[3] = {"translation_x_lambda", "translation_y_lambda",
                                            "translation_z_lambda"};
  for (int i = 0; i < 3; ++i) translation_rows_[i].visit_state(s, k_translation[i]);
  rotation_.visit_state(s, "rotation_lambda");
  swing_twist_.visit_state(s, "limits");
  constexpr const char* k_motor[3] = {"translation_motor_x_lambda", "translation_motor_y_lambda",
                                      "translation_motor_z_lambda"};
  for (int i = 0; i < 3; ++i) motor_[i].visit_state(s, k_motor[i]);
  constexpr const char* k_rotation_motor[3] = {"rotation_motor_x_lambda", "rotation_motor_y_lambda",
                                               "rotation_motor_z_lambda"};
  for (int i = 0; i < 3; ++i) motor_rotation_[i].visit_state(s, k_rotation_motor[i]);
}

}  // namespace atl
