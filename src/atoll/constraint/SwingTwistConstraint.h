#pragma once
// Swing-twist constraint (a shoulder, a hip): a point of each body stays together and body 2's
// rotation relative to body 1 is limited to a swing inside an elliptic cone and a twist within
// [twist_min_angle, twist_max_angle]; a friction torque resists rotation and two motors (swing
// and twist) drive the relative angular velocity or orientation. Parts: PointConstraintPart +
// SwingTwistConstraintPart (the limits) + one AngleConstraintPart per constraint-space axis
// (twist X, swing Y, swing Z) for the motors and the friction.
//
// Constraint space of body i: X = twist_axis_i, Y = plane_axis_i, Z = X × Y (fixed in body i).
// The relative rotation q = (constraint space 1)⁻¹·(constraint space 2) is split into swing ·
// twist (twist about X); see SwingTwistConstraintPart for the limits' rows. Swing about Y tips
// the twist axis towards −Z/+Z (limited by plane_half_cone_angle), swing about Z tips it towards
// ±Y (limited by normal_half_cone_angle); with both equal to α the twist axis stays within α of
// its rest direction.
//
// Motors act about the three axes of constraint space 2 (world axes e_i = frame2·x̂_i, as in
// Jolt: a limb's twist row sees its small inertia about its length and the swing rows the
// large one across it, so a soft motor keeps its frequency and damping when the joint is
// bent): the twist motor about X2, the swing motor about Y2 and Z2. A velocity motor drives
// e_i·(ω2 − ω1) to e_i·(frame1·target_angular_velocity_cs) — all three rows together give
// body 2 exactly that relative angular velocity; the twist row alone gives its projection on
// X2. A position motor drives e_i·φ to 0 through the motor's spring, φ the error rotation's
// angle vector (axis × angle of q·target⁻¹, turned to world), whose rate is ω2 − ω1. With a
// motor off and max_friction_torque > 0 its rows are a friction torque (target 0, |torque| ≤
// max_friction_torque each).

#include "atoll/constraint/Constraint.h"
#include "atoll/constraint/MotorSettings.h"
#include "atoll/constraint/parts/AngleConstraintPart.h"
#include "atoll/constraint/parts/PointConstraintPart.h"
#include "atoll/constraint/parts/SwingTwistConstraintPart.h"

namespace atl {

struct SwingTwistConstraintSettings {
  /// Common fields (enabled, priority, overrides, user data, break thresholds).
  ConstraintSettings common;
  /// Space of the positions and axes (default world).
  ConstraintSpace space = ConstraintSpace::WorldSpace;
  /// The joint point on body 1 (m).
  Vec3 position1;
  /// The joint point on body 2 (m).
  Vec3 position2;
  /// The twist axis on body 1 (non-zero; normalized): X of constraint space 1. Default +x.
  Vec3 twist_axis1 = Vec3(1.0f, 0.0f, 0.0f);
  /// The twist axis on body 2: X of constraint space 2. Default +x.
  Vec3 twist_axis2 = Vec3(1.0f, 0.0f, 0.0f);
  /// An axis ⟂ twist_axis1 on body 1 (|cos| ≤ 1e-3; normalized): Y of constraint space 1.
  /// Default +y.
  Vec3 plane_axis1 = Vec3(0.0f, 1.0f, 0.0f);
  /// An axis ⟂ twist_axis2 on body 2: Y of constraint space 2. Default +y.
  Vec3 plane_axis2 = Vec3(0.0f, 1.0f, 0.0f);
  /// Largest swing about the normal axis Z (rad, in [0, π]); default 0 (locked); π = free.
  float normal_half_cone_angle = 0.0f;
  /// Largest swing about the plane axis Y (rad, in [0, π]); default 0 (locked); π = free
  /// (when normal_half_cone_angle is π too).
  float plane_half_cone_angle = 0.0f;
  /// Lowest twist about X (rad, in [−π, π]); default 0. −π with twist_max_angle π = free.
  float twist_min_angle = 0.0f;
  /// Highest twist (rad, in [twist_min_angle, π]); default 0.
  float twist_max_angle = 0.0f;
  /// Friction torque (N·m, ≥ 0) about each axis whose motor is off; default 0.
  float max_friction_torque = 0.0f;
  /// The swing motor's spring and torque limits (Y and Z axes).
  MotorSettings swing_motor_settings;
  /// The twist motor's spring and torque limits (X axis).
  MotorSettings twist_motor_settings;

  /// Validates every field and the bodies and builds the constraint; the error names the field.
  Result<Ref<Constraint>> create(const BodyInterface& bodies, BodyID body1, BodyID body2) const;
  bool operator==(const SwingTwistConstraintSettings&) const = default;
};

class SwingTwistConstraint final : public Constraint {
 public:
  ConstraintSubType sub_type() const override { return ConstraintSubType::SwingTwist; }
  /// The settings as they are now (local space).
  SwingTwistConstraintSettings settings() const;

  /// The rotation of constraint space 2 in constraint space 1 (w ≥ 0) at the bodies' last
  /// solver poses (identity before the first step it was solved in).
  Quat current_rotation_cs() const { return rotation_cs_; }

  /// Swing motor state (default Off).
  MotorState swing_motor_state() const { return swing_motor_state_; }
  void set_swing_motor_state(MotorState state) { swing_motor_state_ = state; }
  /// Twist motor state (default Off).
  MotorState twist_motor_state() const { return twist_motor_state_; }
  void set_twist_motor_state(MotorState state) { twist_motor_state_ = state; }
  /// Target angular velocity of body 2 relative to body 1 (rad/s, constraint space 1).
  Vec3 target_angular_velocity_cs() const { return target_angular_velocity_cs_; }
  /// Sets it; error (nothing changed) when not finite.
  Status set_target_angular_velocity_cs(const Vec3& velocity);
  /// Target rotation of constraint space 2 in constraint space 1 (unit, clamped to the limits).
  Quat target_orientation_cs() const { return target_orientation_cs_; }
  /// Sets it, clamped to the limits (the twist to its range, the swing to the nearest point
  /// of the cone); error (nothing changed) unless finite and of non-zero length.
  Status set_target_orientation_cs(const Quat& orientation);
  /// Sets the target as the rotation of body 2 in body 1 (body1⁻¹·body2), converted to
  /// constraint space and clamped; error as set_target_orientation_cs.
  Status set_target_orientation_bs(const Quat& orientation);
  /// Changes the limits; error (nothing changed) unless the half angles are in [0, π] and
  /// −π ≤ twist_min ≤ twist_max ≤ π. The target orientation is clamped to the new limits.
  Status set_limits(float normal_half_cone_angle, float plane_half_cone_angle,
                    float twist_min_angle, float twist_max_angle);
  /// Changes the friction torque (N·m ≥ 0); error (nothing changed) otherwise.
  Status set_max_friction_torque(float torque);

  /// This step's impulse of the point part (N·s, world vector).
  Vec3 total_lambda_position() const { return point_.total_lambda(); }
  /// This step's impulse of the twist limit row (N·m·s).
  float total_lambda_twist() const { return limits_.total_lambda()[1]; }
  /// This step's angular impulse (N·m·s, ≤ 0) of the swing (cone) limit row, about its unit
  /// world axis (the direction that opens the swing further at the bodies' poses). The cone
  /// is one elliptic row, not one per swing axis; swing_impulse() gives it as a vector.
  float total_lambda_swing() const { return limits_.total_lambda()[0]; }
  /// This step's angular impulse of the swing limit on body 2 as a world vector (N·m·s; body
  /// 1 gets its opposite): total_lambda_swing() times the row's unit axis.
  Vec3 swing_impulse() const { return limits_.swing_impulse(); }
  /// This step's angular impulse of the twist limit on body 2 as a world vector (N·m·s).
  Vec3 twist_impulse() const { return limits_.twist_impulse(); }
  /// This step's impulses of the motor / friction rows about X (twist), Y and Z (swing) of
  /// constraint space 2 (N·m·s).
  Vec3 total_lambda_motor() const {
    return Vec3(motor_[0].total_lambda(), motor_[1].total_lambda(), motor_[2].total_lambda());
  }

  void setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                 float dt) override;
  void warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2, float ratio) override;
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2, float dt) override;
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, float dt,
                                 float baumgarte) override;
  float linear_impulse() const override { return point_.total_lambda().length(); }
  /// |swing_impulse() + twist_impulse()| (N·m·s): the limit rows' angular impulse (the motor
  /// and friction rows do not count).
  float angular_impulse() const override;
  void reset_warm_start() override;

 protected:
  /// Walks, in this order: normal_half_cone_angle, plane_half_cone_angle, twist_min_angle,
  /// twist_max_angle (rad, through set_limits), max_friction_torque (N·m), swing_motor_state,
  /// twist_motor_state, target_angular_velocity (rad/s), target_orientation (unit),
  /// point_lambda (N·s), limits_swing_lambda, limits_twist_lambda, limits_swing_z_lambda,
  /// motor_x_lambda, motor_y_lambda, motor_z_lambda (N·m·s).
  void visit_type_state(StateStream& s) override;

 private:
  friend struct SwingTwistConstraintSettings;
  SwingTwistConstraint(BodyID body1, BodyID body2, const SwingTwistConstraintSettings& local);

  // `orientation` (unit) with its twist clamped to the twist range and its swing to the cone.
  Quat clamp_to_limits(const Quat& orientation) const;
  void update_limits();

  SwingTwistConstraintSettings s_;  // local space
  Quat constraint_to_body1_, constraint_to_body2_;
  MotorState swing_motor_state_ = MotorState::Off;
  MotorState twist_motor_state_ = MotorState::Off;
  Vec3 target_angular_velocity_cs_;
  Quat target_orientation_cs_;
  // This step's geometry.
  Quat rotation_cs_;
  Vec3 r1_, r2_;
  float motor_min_lambda_[3] = {0.0f, 0.0f, 0.0f};
  float motor_max_lambda_[3] = {0.0f, 0.0f, 0.0f};
  PointConstraintPart point_;
  SwingTwistConstraintPart limits_;
  AngleConstraintPart motor_[3];
};

}  // namespace atl
