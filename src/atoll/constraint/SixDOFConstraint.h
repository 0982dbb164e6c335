#pragma once
// Six-degree-of-freedom constraint: each of the three translations and three rotations of
// constraint frame 2 relative to constraint frame 1 is fixed, free or limited on its own, with
// a friction force or torque and a motor per axis. Frame i sits at position_i on body i with
// axes axis_x_i, axis_y_i, axis_z_i = x × y. The translation is that of point 2 from point 1
// along frame 1's axes (m); the rotation is split into a twist about X and a swing about Y and
// Z (the swing either an elliptic cone with symmetric limits or a pyramid with independent,
// possibly asymmetric ranges, SwingTwistConstraintPart).
//
// Parts: PointConstraintPart when every translation is fixed (and hard), else one
// AxisConstraintPart per fixed or limited translation axis (soft by that axis' limits spring);
// RotationEulerConstraintPart when every rotation is fixed, else SwingTwistConstraintPart
// for the rotation limits; an AxisConstraintPart per translation axis and an
// AngleConstraintPart per rotation axis for the motors and friction (as Jolt; a rotation
// position motor's error about axis i is 2·e_i of the rotation e = target⁻¹·q left to turn, so
// each axis keeps its own spring and torque limits). A cone with one swing axis fixed is solved
// as the equal pyramid (the segment of the other axis' range), whose rows hold the fixed axis
// from both sides. A motor or friction on a fixed axis does nothing.
//
// Like every swing-twist split, the rotation limits are singular at a swing of π: with both
// swing axes free a limited twist is undefined there (keep one swing axis limited below π).

#include <array>

#include "atoll/constraint/Constraint.h"
#include "atoll/constraint/MotorSettings.h"
#include "atoll/constraint/SpringSettings.h"
#include "atoll/constraint/parts/AngleConstraintPart.h"
#include "atoll/constraint/parts/AxisConstraintPart.h"
#include "atoll/constraint/parts/PointConstraintPart.h"
#include "atoll/constraint/parts/RotationEulerConstraintPart.h"
#include "atoll/constraint/parts/SwingTwistConstraintPart.h"

namespace atl {

struct SixDOFConstraintSettings {
  /// The six axes, in the order of the 6-arrays below.
  enum Axis : uint8_t {
    TranslationX = 0,
    TranslationY = 1,
    TranslationZ = 2,
    RotationX = 3,
    RotationY = 4,
    RotationZ = 5,
  };
  /// Number of axes (the length of the 6-arrays).
  static constexpr int k_num_axes = 6;
  /// Number of translation axes (the length of limits_spring_settings).
  static constexpr int k_num_translation_axes = 3;

  /// Common fields (enabled, priority, overrides, user data, break thresholds).
  ConstraintSettings common;
  /// Space of the positions and axes (default world).
  ConstraintSpace space = ConstraintSpace::WorldSpace;
  /// Origin of constraint frame 1 on body 1 (m).
  Vec3 position1;
  /// Frame 1's X axis on body 1 (non-zero; normalized). Default +x.
  Vec3 axis_x1 = Vec3(1.0f, 0.0f, 0.0f);
  /// Frame 1's Y axis on body 1 (non-zero, ⟂ axis_x1; normalized). Default +y.
  Vec3 axis_y1 = Vec3(0.0f, 1.0f, 0.0f);
  /// Origin of constraint frame 2 on body 2 (m).
  Vec3 position2;
  /// Frame 2's X axis on body 2. Default +x.
  Vec3 axis_x2 = Vec3(1.0f, 0.0f, 0.0f);
  /// Frame 2's Y axis on body 2 (⟂ axis_x2). Default +y.
  Vec3 axis_y2 = Vec3(0.0f, 1.0f, 0.0f);
  /// Lower limit per axis (m for translation, rad for rotation). min = max fixes the axis (at
  /// that value); −k_float_max with max k_float_max frees it (for a rotation also −π with π);
  /// otherwise it is limited to [min, max]. Rotations: in [−π, π] (or ∓k_float_max); with
  /// swing_type Cone the Y and Z limits must be symmetric (min = −max). Default: all free.
  std::array<float, k_num_axes> limit_min{-k_float_max, -k_float_max, -k_float_max,
                                          -k_float_max, -k_float_max, -k_float_max};
  /// Upper limit per axis (≥ limit_min).
  std::array<float, k_num_axes> limit_max{k_float_max, k_float_max, k_float_max,
                                          k_float_max, k_float_max, k_float_max};
  /// Springs of the translation limits (a fixed translation too: it then pulls to the fixed
  /// value); frequency 0 (default) = hard.
  std::array<SpringSettings, k_num_translation_axes> limits_spring_settings{};
  /// Friction per axis while its motor is off: force (N) for translation, torque (N·m) for
  /// rotation, ≥ 0. Default 0.
  std::array<float, k_num_axes> max_friction{0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  /// The swing limit's shape (default Cone).
  SwingType swing_type = SwingType::Cone;
  /// Motor per axis (its spring, force limits for translation, torque limits for rotation).
  std::array<MotorSettings, k_num_axes> motor_settings{};

  /// Fixes `axis` at 0.
  void make_fixed_axis(Axis axis) { limit_min[axis] = limit_max[axis] = 0.0f; }
  /// Frees `axis`.
  void make_free_axis(Axis axis) {
    limit_min[axis] = -k_float_max;
    limit_max[axis] = k_float_max;
  }
  /// Limits `axis` to [min, max] (fixed when equal, free for the full range).
  void set_limited_axis(Axis axis, float min, float max) {
    limit_min[axis] = min;
    limit_max[axis] = max;
  }
  /// True when `axis` is fixed (min = max).
  bool is_fixed_axis(Axis axis) const { return limit_min[axis] == limit_max[axis]; }
  /// True when `axis` is free (the full range; for a rotation at least [−π, π]).
  bool is_free_axis(Axis axis) const;

  /// Validates every field and the bodies and builds the constraint; the error names the field
  /// (`six_dof.limit_min[3]: …`) and nothing is created.
  Result<Ref<Constraint>> create(const BodyInterface& bodies, BodyID body1, BodyID body2) const;
  bool operator==(const SixDOFConstraintSettings&) const = default;
};

class SixDOFConstraint final : public Constraint {
 public:
  using Axis = SixDOFConstraintSettings::Axis;
  static constexpr int k_num_axes = SixDOFConstraintSettings::k_num_axes;

  ConstraintSubType sub_type() const override { return ConstraintSubType::SixDOF; }
  /// The settings as they are now (local space; axes normalized, axis_y made ⟂ axis_x).
  SixDOFConstraintSettings settings() const;

  /// Motor state of `axis` (default Off).
  MotorState motor_state(Axis axis) const { return motor_state_[axis]; }
  /// Sets it.
  void set_motor_state(Axis axis, MotorState state) { motor_state_[axis] = state; }
  /// Target velocity of point 2 relative to point 1 along frame 1's axes (m/s).
  const Vec3& target_velocity_cs() const { return target_velocity_; }
  /// Sets it; error (nothing changed) when not finite.
  Status set_target_velocity_cs(const Vec3& velocity);
  /// Target angular velocity of body 2 relative to body 1 about frame 2's axes (rad/s).
  const Vec3& target_angular_velocity_cs() const { return target_angular_velocity_; }
  /// Sets it; error (nothing changed) when not finite.
  Status set_target_angular_velocity_cs(const Vec3& angular_velocity);
  /// Target position of point 2 from point 1 along frame 1's axes (m).
  const Vec3& target_position_cs() const { return target_position_; }
  /// Sets it; error (nothing changed) when not finite.
  Status set_target_position_cs(const Vec3& position);
  /// Target rotation of frame 2 in frame 1 (unit).
  const Quat& target_orientation_cs() const { return target_orientation_; }
  /// Sets it (normalized, w ≥ 0); error (nothing changed) unless a finite non-zero quaternion.
  Status set_target_orientation_cs(const Quat& orientation);

  /// Translation of point 2 from point 1 along frame 1's axes (m) at the last solver poses.
  const Vec3& current_translation_cs() const { return translation_; }
  /// Rotation of frame 2 in frame 1 (w ≥ 0) at the last solver poses.
  const Quat& current_rotation_cs() const { return rotation_cs_; }

  /// This step's impulses (N·s) of the fixed and limited translation rows, along frame 1's
  /// axes (for the point part: its impulse in frame 1's axes).
  Vec3 total_lambda_position() const;
  /// This step's angular impulses of the rotation (N·m·s): the fixed rotation's in frame 1's
  /// axes, or the limit rows' (twist, swing about Y or the cone, swing about Z), each about
  /// its row's unit world axis (see SwingTwistConstraintPart).
  Vec3 total_lambda_rotation() const;
  /// This step's impulses (N·s) of the translation motors and friction.
  Vec3 total_lambda_motor_translation() const {
    return Vec3(motor_[0].total_lambda(), motor_[1].total_lambda(), motor_[2].total_lambda());
  }
  /// This step's impulses (N·m·s) of the rotation motors and friction.
  Vec3 total_lambda_motor_rotation() const {
    return Vec3(motor_rotation_[0].total_lambda(), motor_rotation_[1].total_lambda(),
                motor_rotation_[2].total_lambda());
  }

  void setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                 float dt) override;
  void warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2, float ratio) override;
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2, float dt) override;
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, float dt,
                                 float baumgarte) override;
  float linear_impulse() const override { return total_lambda_position().length(); }
  /// The rotation rows' angular impulse on body 2 as a world vector, its length (N·m·s): the
  /// fixed rotation's, or the limit rows' (the motors and friction do not count).
  float angular_impulse() const override;
  void reset_warm_start() override;

 protected:
  /// Walks, in this order: motor_state[0…5], target_velocity (m/s), target_angular_velocity
  /// (rad/s), target_position (m), target_orientation (unit), point_lambda (N·s; the point part,
  /// when every translation is fixed), translation_x_lambda … translation_z_lambda (N·s),
  /// rotation_lambda (N·m·s), limits_swing_lambda, limits_twist_lambda, limits_swing_z_lambda
  /// (N·m·s), translation_motor_x_lambda … _z (N·s), rotation_motor_x_lambda … _z (N·m·s).
  void visit_type_state(StateStream& s) override;

 private:
  friend struct SixDOFConstraintSettings;
  SixDOFConstraint(BodyID body1, BodyID body2, const SixDOFConstraintSettings& local);

  // Lever arms (r1 + u, r2), frame 1's world axes, the translation and rotation at the poses.
  void measure(const SolverBody& body1, const SolverBody& body2);
  // The error (m) of translation axis i and its impulse range; false when it needs no row.
  bool translation_violation(int i, float& c, float& min_lambda, float& max_lambda) const;

  SixDOFConstraintSettings s_;  // local space
  Quat constraint_to_body1_, constraint_to_body2_;
  Quat fixed_rotation_;  // all rotations fixed: the held q1⁻¹·q2
  bool translation_free_[3] = {}, translation_fixed_[3] = {};
  bool rotation_free_[3] = {};
  bool rotation_fixed_[3] = {};
  bool use_point_ = false;           // all translations fixed at 0 and hard
  bool use_rotation_euler_ = false;  // all rotations fixed
  bool rotation_limited_ = false;    // some rotation fixed or limited

  std::array<MotorState, k_num_axes> motor_state_{};
  Vec3 target_velocity_, target_angular_velocity_, target_position_;
  Quat target_orientation_;

  Vec3 r1u_, r2_, translation_;
  Vec3 axis_[3];           // frame 1's world axes
  Vec3 rotation_axis_[3];  // frame 2's world axes
  Quat rotation_cs_;
  float limit_min_lambda_[3] = {}, limit_max_lambda_[3] = {};
  float motor_min_lambda_[3] = {}, motor_max_lambda_[3] = {};
  float motor_rotation_min_lambda_[3] = {}, motor_rotation_max_lambda_[3] = {};

  PointConstraintPart point_;
  AxisConstraintPart translation_rows_[3];
  RotationEulerConstraintPart rotation_;
  SwingTwistConstraintPart swing_twist_;
  AxisConstraintPart motor_[3];
  AngleConstraintPart motor_rotation_[3];
};

}  // namespace atl
