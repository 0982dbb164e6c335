#pragma once
// Hinge constraint: a point of each body stays together and a hinge axis of each stays aligned;
// body 2 turns about the axis relative to body 1, within angle limits (hard, or soft by the
// limits spring), against a friction torque, driven by a motor. The angle is 0 when the normal
// axes coincide and grows as body 2 turns about +hinge axis. Parts: PointConstraintPart +
// HingeRotationConstraintPart + AngleConstraintPart (limits) + AngleConstraintPart (motor and
// friction).

#include <array>

#include "atoll/constraint/Constraint.h"
#include "atoll/constraint/MotorSettings.h"
#include "atoll/constraint/SpringSettings.h"
#include "atoll/constraint/parts/AngleConstraintPart.h"
#include "atoll/constraint/parts/HingeRotationConstraintPart.h"
#include "atoll/constraint/parts/PointConstraintPart.h"

namespace atl {

struct HingeConstraintSettings {
  /// Common fields (enabled, priority, overrides, user data, break thresholds).
  ConstraintSettings common;
  /// Space of the points and axes (default world).
  ConstraintSpace space = ConstraintSpace::WorldSpace;
  /// The hinge point on body 1 (m).
  Vec3 point1;
  /// The hinge point on body 2 (m).
  Vec3 point2;
  /// The hinge axis on body 1 (non-zero; normalized). Default +y.
  Vec3 hinge_axis1 = Vec3(0.0f, 1.0f, 0.0f);
  /// The hinge axis on body 2. Default +y.
  Vec3 hinge_axis2 = Vec3(0.0f, 1.0f, 0.0f);
  /// An axis ⟂ hinge_axis1 on body 1: angle 0 is where it meets normal_axis2. Default +x.
  Vec3 normal_axis1 = Vec3(1.0f, 0.0f, 0.0f);
  /// An axis ⟂ hinge_axis2 on body 2. Default +x.
  Vec3 normal_axis2 = Vec3(1.0f, 0.0f, 0.0f);
  /// Lowest angle (rad, in [−π, 0]); −π with limits_max π = no limits.
  float limits_min = -k_pi;
  /// Highest angle (rad, in [0, π]).
  float limits_max = k_pi;
  /// Spring of the limits; frequency 0 (default) = hard.
  SpringSettings limits_spring_settings;
  /// Friction torque (N·m, ≥ 0) resisting rotation while the motor is off.
  float max_friction_torque = 0.0f;
  /// The motor's spring and torque limits.
  MotorSettings motor_settings;

  /// Validates every field and the bodies and builds the constraint; the error names the field.
  Result<Ref<Constraint>> create(const BodyInterface& bodies, BodyID body1, BodyID body2) const;
  bool operator==(const HingeConstraintSettings&) const = default;
};

class HingeConstraint final : public Constraint {
 public:
  ConstraintSubType sub_type() const override { return ConstraintSubType::Hinge; }
  /// The settings as they are now (local space).
  HingeConstraintSettings settings() const;

  /// Current angle (rad, in (−π, π]) from the bodies' last solver poses (0 before the first
  /// step it was solved in: the angle at creation).
  float current_angle() const { return angle_; }
  /// Motor state (default Off).
  MotorState motor_state() const { return motor_state_; }
  void set_motor_state(MotorState state) { motor_state_ = state; }
  /// Target angular velocity of body 2 relative to body 1 about the axis (rad/s).
  float target_angular_velocity() const { return target_angular_velocity_; }
  /// Sets it; error (nothing changed) when not finite.
  Status set_target_angular_velocity(float velocity);
  /// Target angle (rad); set_target_angle clamps it to the limits; error when not finite.
  float target_angle() const { return target_angle_; }
  Status set_target_angle(float angle);
  /// Changes the limits; error (nothing changed) unless −π ≤ min ≤ 0 ≤ max ≤ π.
  Status set_limits(float limits_min, float limits_max);
  /// Changes the friction torque (N·m ≥ 0); error (nothing changed) otherwise.
  Status set_max_friction_torque(float torque);

  /// This step's impulse of the point part (N·s, world vector).
  Vec3 total_lambda_position() const { return point_.total_lambda(); }
  /// This step's angular impulses of the two axis-alignment rows (N·m·s).
  std::array<float, 2> total_lambda_rotation() const { return rotation_.total_lambda(); }
  /// This step's angular impulse of the limits (N·m·s).
  float total_lambda_rotation_limits() const { return limits_.total_lambda(); }
  /// This step's angular impulse of the motor or friction (N·m·s).
  float total_lambda_motor() const { return motor_.total_lambda(); }

  void setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                 float dt) override;
  void warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2, float ratio) override;
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2, float dt) override;
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, float dt,
                                 float baumgarte) override;
  float linear_impulse() const override { return point_.total_lambda().length(); }
  float angular_impulse() const override;
  void reset_warm_start() override;

 protected:
  /// Walks, in this order: limits_min, limits_max (rad, through set_limits), max_friction_torque
  /// (N·m), motor_state, target_angular_velocity (rad/s), target_angle (rad), current_angle (rad: a
  /// gear or rack reads it before this hinge's next setup), point_lambda (N·s), rotation_lambda
  /// (two rows, N·m·s), limits_lambda, motor_lambda (N·m·s).
  void visit_type_state(StateStream& s) override;

 private:
  friend struct HingeConstraintSettings;
  HingeConstraint(BodyID body1, BodyID body2, const HingeConstraintSettings& local)
      : Constraint(body1, body2, local.common), s_(local) {}

  bool has_limits() const { return s_.limits_min > -k_pi || s_.limits_max < k_pi; }
  // World axes and lever arms at the bodies' poses; sets angle_.
  void measure(const SolverBody& body1, const SolverBody& body2);
  // The violated limit's error (rad) at angle_ and its impulse range; false inside the limits.
  bool limit_violation(float& c, float& min_lambda, float& max_lambda) const;

  HingeConstraintSettings s_;  // local space
  MotorState motor_state_ = MotorState::Off;
  float target_angular_velocity_ = 0.0f;
  float target_angle_ = 0.0f;
  // This step's geometry.
  Vec3 r1_, r2_, a1_, a2_;
  float angle_ = 0.0f;
  float limit_min_lambda_ = 0.0f, limit_max_lambda_ = 0.0f;
  float motor_min_lambda_ = 0.0f, motor_max_lambda_ = 0.0f;
  PointConstraintPart point_;
  HingeRotationConstraintPart rotation_;
  AngleConstraintPart limits_;
  AngleConstraintPart motor_;
};

}  // namespace atl
