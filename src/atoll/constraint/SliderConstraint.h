#pragma once
// Slider constraint (prismatic joint): body 2 moves relative to body 1 along one axis only, its
// relative rotation held; within position limits (hard, or soft by the limits spring), against
// a friction force, driven by a motor. The position is 0 where the points coincide and grows
// as point 2 moves along +slider axis. Parts: DualAxisConstraintPart + RotationEulerConstraintPart
// + AxisConstraintPart (limits) + AxisConstraintPart (motor and friction).

#include <array>

#include "atoll/constraint/Constraint.h"
#include "atoll/constraint/MotorSettings.h"
#include "atoll/constraint/SpringSettings.h"
#include "atoll/constraint/parts/AxisConstraintPart.h"
#include "atoll/constraint/parts/DualAxisConstraintPart.h"
#include "atoll/constraint/parts/RotationEulerConstraintPart.h"

namespace atl {

struct SliderConstraintSettings {
  /// Common fields (enabled, priority, overrides, user data, break thresholds).
  ConstraintSettings common;
  /// Space of the points and axis (default world). In world space the held relative rotation
  /// is the bodies' at creation; in local space it is `relative_rotation`.
  ConstraintSpace space = ConstraintSpace::WorldSpace;
  /// The slider point on body 1 (m).
  Vec3 point1;
  /// The slider point on body 2 (m).
  Vec3 point2;
  /// The slider axis in body 1 (non-zero; normalized). Default +x.
  Vec3 slider_axis1 = Vec3(1.0f, 0.0f, 0.0f);
  /// Local space only: body 2's rotation relative to body 1's (q1⁻¹·q2) to hold (unit).
  Quat relative_rotation;
  /// Lowest position (m, ≤ 0); −k_float_max (default) with max k_float_max = no limits.
  float limits_min = -k_float_max;
  /// Highest position (m, ≥ 0).
  float limits_max = k_float_max;
  /// Spring of the limits; frequency 0 (default) = hard.
  SpringSettings limits_spring_settings;
  /// Friction force (N, ≥ 0) resisting sliding while the motor is off.
  float max_friction_force = 0.0f;
  /// The motor's spring and force limits.
  MotorSettings motor_settings;

  /// Validates every field and the bodies and builds the constraint; the error names the field.
  Result<Ref<Constraint>> create(const BodyInterface& bodies, BodyID body1, BodyID body2) const;
  bool operator==(const SliderConstraintSettings&) const = default;
};

class SliderConstraint final : public Constraint {
 public:
  ConstraintSubType sub_type() const override { return ConstraintSubType::Slider; }
  /// The settings as they are now (local space).
  SliderConstraintSettings settings() const;

  /// Current position (m) along the axis at the bodies' last solver poses.
  float current_position() const { return position_; }
  /// Motor state (default Off).
  MotorState motor_state() const { return motor_state_; }
  void set_motor_state(MotorState state) { motor_state_ = state; }
  /// Target velocity of point 2 relative to point 1 along the axis (m/s).
  float target_velocity() const { return target_velocity_; }
  /// Sets it; error (nothing changed) when not finite.
  Status set_target_velocity(float velocity);
  /// Target position (m); set_target_position clamps it to the limits; error when not finite.
  float target_position() const { return target_position_; }
  Status set_target_position(float position);
  /// Changes the limits; error (nothing changed) unless min ≤ 0 ≤ max, not NaN.
  Status set_limits(float limits_min, float limits_max);

  /// This step's impulses of the two perpendicular position rows (N·s).
  std::array<float, 2> total_lambda_position() const { return position_rows_.total_lambda(); }
  /// This step's angular impulse of the rotation part (N·m·s, world vector).
  Vec3 total_lambda_rotation() const { return rotation_.total_lambda(); }
  /// This step's impulse of the limits (N·s).
  float total_lambda_position_limits() const { return limits_.total_lambda(); }
  /// This step's impulse of the motor or friction (N·s).
  float total_lambda_motor() const { return motor_.total_lambda(); }

  void setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                 float dt) override;
  void warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2, float ratio) override;
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2, float dt) override;
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, float dt,
                                 float baumgarte) override;
  float linear_impulse() const override;
  float angular_impulse() const override { return rotation_.total_lambda().length(); }
  void reset_warm_start() override;

 protected:
  /// Walks, in this order: limits_min, limits_max (m, through set_limits), motor_state,
  /// target_velocity (m/s), target_position (m), current_position (m: a rack reads it before this
  /// slider's next setup), position_lambda (two rows, N·s), rotation_lambda (N·m·s), limits_lambda,
  /// motor_lambda (N·s).
  void visit_type_state(StateStream& s) override;

 private:
  friend struct SliderConstraintSettings;
  SliderConstraint(BodyID body1, BodyID body2, const SliderConstraintSettings& local)
      : Constraint(body1, body2, local.common), s_(local) {}

  bool has_limits() const { return s_.limits_min > -k_float_max || s_.limits_max < k_float_max; }
  // World axis, perpendiculars, lever arms (r1 + u, r2) at the bodies' poses; sets position_.
  void measure(const SolverBody& body1, const SolverBody& body2);
  // The violated limit's error (m) at position_ and its impulse range; false inside.
  bool limit_violation(float& c, float& min_lambda, float& max_lambda) const;

  SliderConstraintSettings s_;  // local space
  MotorState motor_state_ = MotorState::Off;
  float target_velocity_ = 0.0f;
  float target_position_ = 0.0f;
  Vec3 r1u_, r2_, axis_, n1_, n2_;
  float position_ = 0.0f;
  float limit_min_lambda_ = 0.0f, limit_max_lambda_ = 0.0f;
  float motor_min_lambda_ = 0.0f, motor_max_lambda_ = 0.0f;
  DualAxisConstraintPart position_rows_;
  RotationEulerConstraintPart rotation_;
  AxisConstraintPart limits_;
  AxisConstraintPart motor_;
};

}  // namespace atl
