#pragma once
// Path constraint: a point of body 2 follows a path fixed in body 1 (PathConstraintPath, e.g. a
// Hermite spline): it moves freely along the path, within its ends on an open path, against a
// friction force, driven by a motor, while its rotation is free, free about one axis of the
// path's frame, held to the frame, or held relative to body 1.
//
// The point on body 2 is where the path is at `path_fraction` at creation (body 2 need not be
// there: that point, fixed in body 2, is what follows the path). Each step the constraint finds
// the path's closest fraction to it (searched from last step's) and measures the path's frame
// there: tangent T, normal N, binormal B.
//
// Parts: DualAxisConstraintPart (the point stays on the path along N and B), AxisConstraintPart
// (the ends, along T), AxisConstraintPart (motor and friction, along T), and for the rotation
// AngleConstraintPart rows (about the frame's axes a mode constrains) or
// RotationEulerConstraintPart (fully constrained).
//
// Differences from Jolt, for a curved path (a body at speed v on a curve of radius R turns its
// tangent by v·dt/R per step). Measured in tests/laws/PathLawsTest.cpp, boxes thrown at ~4–9
// m/s along a 3 m circle and a banked S-curve (radius down to 1.25 m); in brackets the same
// runs with the first two switched off (Jolt's scheme: the frame at the start of the step,
// rotation rows driven to 0):
// - the velocity rows use the frame at the step's predicted midpoint (the fraction advanced by
//   half a step at the speed along the path, a motor's impulse included, never past an open
//   path's end), so that the velocity they allow is the step's chord and the point stays on
//   the curve to second order: ≤ 0.009 mm off the circle, ≤ 0.14 mm off the S-curve [0.85–1.8
//   mm, 4.4–7.9 mm: v²dt²/(2R) per step, left for the position solve];
// - the rotation rows of the path-following modes drive body 2's angular velocity relative to
//   body 1 to the turning rate of the path's frame (about the rows' axes), not to 0: ≤ 0.0084
//   rad [0.05 rad on the circle, 0.13 rad on the S-curve]. They are AngleConstraintPart rows
//   (which take a target velocity) where Jolt uses HingeRotation / RotationEuler parts (which do
//   not); FullyConstrained, whose target is 0, uses RotationEulerConstraintPart as Jolt does;
// - the position motor's error is the fraction error times the path's length per unit fraction
//   (m), not the fraction error itself; a rigid one (frequency 0) moves at most a quarter of a
//   fraction per step;
// - the ends of an open path are a speculative row (the point may reach the end within the
//   step, not pass it) rather than a row that acts once the point is past the end.

#include <array>
#include <cstdint>

#include "atoll/constraint/Constraint.h"
#include "atoll/constraint/MotorSettings.h"
#include "atoll/constraint/PathConstraintPath.h"
#include "atoll/constraint/parts/AngleConstraintPart.h"
#include "atoll/constraint/parts/AxisConstraintPart.h"
#include "atoll/constraint/parts/DualAxisConstraintPart.h"
#include "atoll/constraint/parts/RotationEulerConstraintPart.h"

namespace atl {

/// How a path constraint holds body 2's rotation (stable values).
enum class PathRotationConstraintType : uint8_t {
  /// Not at all.
  Free = 0,
  /// Body 2 turns only about the path's tangent (its axis that was the tangent at creation
  /// stays on the tangent).
  ConstrainAroundTangent = 1,
  /// Body 2 turns only about the path's normal.
  ConstrainAroundNormal = 2,
  /// Body 2 turns only about the path's binormal.
  ConstrainAroundBinormal = 3,
  /// Body 2 keeps its rotation relative to the path's frame (T, N, B) at its fraction: it
  /// turns with the path.
  ConstrainToPath = 4,
  /// Body 2 keeps its rotation relative to body 1 (the rotation at creation).
  FullyConstrained = 5,
};
/// Snake-case name ("free", "constrain_around_tangent", …, "fully_constrained").
const char* to_string(PathRotationConstraintType type);

struct PathConstraintSettings {
  /// Common fields (enabled, priority, overrides, user data, break thresholds).
  ConstraintSettings common;
  /// The path, in its own space; required, valid (PathConstraintPath::validate). Shared, not
  /// copied: it must not change while a constraint uses it (the Hermite path cannot).
  Ref<const PathConstraintPath> path;
  /// Where the path's origin is in body 1, relative to its centre of mass (m; world space
  /// when body 1 is the world). Default 0.
  Vec3 path_position;
  /// The path's rotation in body 1's frame (unit; default identity).
  Quat path_rotation;
  /// The fraction at which body 2's point is at creation, in [0, path->max_fraction()];
  /// default 0.
  float path_fraction = 0.0f;
  /// How body 2's rotation is held; default Free.
  PathRotationConstraintType rotation_constraint_type = PathRotationConstraintType::Free;
  /// Friction force (N, ≥ 0) against motion along the path while the motor is off; default 0.
  float max_friction_force = 0.0f;
  /// The motor's spring and force limits (the torque limits are not used).
  MotorSettings position_motor_settings;

  /// Validates every field, the path and the bodies and builds the constraint; the error
  /// names the field (`PathConstraintSettings.path_fraction: …`) and nothing is created.
  Result<Ref<Constraint>> create(const BodyInterface& bodies, BodyID body1, BodyID body2) const;
  bool operator==(const PathConstraintSettings&) const = default;
};

class PathConstraint final : public Constraint {
 public:
  ConstraintSubType sub_type() const override { return ConstraintSubType::Path; }
  /// The settings as they are now (path_fraction: the fraction at creation).
  PathConstraintSettings settings() const;

  /// The path.
  const PathConstraintPath& path() const { return *s_.path; }
  /// The fraction of body 2's point on the path at the bodies' last solver poses (the start
  /// fraction before the first step).
  float path_fraction() const { return fraction_; }

  /// Motor state (default Off).
  MotorState motor_state() const { return motor_state_; }
  void set_motor_state(MotorState state) { motor_state_ = state; }
  /// Target speed of body 2's point along the path relative to body 1 (m/s; > 0 towards
  /// larger fractions). Default 0.
  float target_velocity() const { return target_velocity_; }
  /// Sets it; error (nothing changed) when not finite.
  Status set_target_velocity(float velocity);
  /// Target fraction of a position motor (default 0).
  float target_path_fraction() const { return target_path_fraction_; }
  /// Sets it, clamped to [0, max fraction] on an open path and wrapped on a looping one;
  /// error (nothing changed) when not finite.
  Status set_target_path_fraction(float fraction);
  /// Friction force (N); set_max_friction_force: error (nothing changed) unless finite, ≥ 0.
  float max_friction_force() const { return s_.max_friction_force; }
  Status set_max_friction_force(float force);

  /// This step's impulses keeping the point on the path, along N and B (N·s).
  std::array<float, 2> total_lambda_position() const { return position_.total_lambda(); }
  /// This step's impulse of the path's ends (N·s; 0 on a looping path).
  float total_lambda_position_limits() const { return limits_.total_lambda(); }
  /// This step's impulse of the motor or friction (N·s).
  float total_lambda_motor() const { return motor_.total_lambda(); }
  /// This step's angular impulse holding the rotation (N·m·s, world vector; 0 when Free).
  Vec3 total_lambda_rotation() const;

  void setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                 float dt) override;
  void warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2, float ratio) override;
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2, float dt) override;
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, float dt,
                                 float baumgarte) override;
  float linear_impulse() const override;
  float angular_impulse() const override { return total_lambda_rotation().length(); }
  void reset_warm_start() override;

 protected:
  /// Walks, in this order: max_friction_force (N, through set_max_friction_force), motor_state,
  /// target_velocity (m/s), target_path_fraction, path_fraction (where the next step's search
  /// starts), position_lambda (two rows, N·s), limits_lambda, motor_lambda (N·s),
  /// rotation_row1_lambda … rotation_row3_lambda, rotation_lambda (N·m·s).
  void visit_type_state(StateStream& s) override;

 private:
  friend struct PathConstraintSettings;
  PathConstraint(BodyID body1, BodyID body2, const PathConstraintSettings& settings,
                 const Vec3& local_point2, const Quat& frame2, const Quat& relative_rotation)
      : Constraint(body1, body2, settings.common),
        s_(settings),
        local_point2_(local_point2),
        frame2_(frame2),
        relative_rotation_(relative_rotation),
        fraction_(settings.path_fraction) {}

  // The path's frame as a rotation of path space (columns T, N, B).
  static Quat frame_rotation(const PathConstraintPath::Frame& frame);
  // Angular velocity of the path's frame per unit fraction at `fraction` (rad, path space).
  Vec3 frame_turn_rate(float fraction) const;
  // Finds the fraction of body 2's point and the lever arms, u and the world frame there.
  void measure(const SolverBody& body1, const SolverBody& body2);
  // The motor (or friction) row along `axis` and its impulse bounds.
  void setup_motor(const SolverBody& body1, const SolverBody& body2, float dt, const Vec3& r1u,
                   const Vec3& axis);
  // Number of angle rows of the rotation mode and their world axes at the measured frame.
  int rotation_rows(Vec3 axes[3]) const;
  // The rotation error (rad) of the angle rows' mode, as a world rotation vector of body 2.
  Vec3 rotation_error(const SolverBody& body1, const SolverBody& body2) const;

  PathConstraintSettings s_;
  Vec3 local_point2_;       // body 2's point, centre-of-mass frame
  Quat frame2_;             // the path's frame at creation in body 2's frame
  Quat relative_rotation_;  // q1⁻¹·q2 at creation (FullyConstrained)
  MotorState motor_state_ = MotorState::Off;
  float target_velocity_ = 0.0f;
  float target_path_fraction_ = 0.0f;

  // Geometry at the last measure().
  float fraction_ = 0.0f;
  PathConstraintPath::Frame frame_;  // path space
  Quat path_to_world_;               // q1 · path_rotation
  Vec3 r1_, r2_, u_;
  Vec3 tangent_, normal_, binormal_;  // world, at fraction_
  // The velocity rows' axes (world, at the step's predicted midpoint).
  Vec3 axis_, n1_, n2_;
  int limit_end_ = 0;  // −1 start, +1 end, 0 none (looping)
  float limit_min_lambda_ = 0.0f, limit_max_lambda_ = 0.0f;
  float motor_min_lambda_ = 0.0f, motor_max_lambda_ = 0.0f;
  Vec3 rotation_axes_[3];
  int num_rotation_rows_ = 0;

  DualAxisConstraintPart position_;
  AxisConstraintPart limits_;
  AxisConstraintPart motor_;
  std::array<AngleConstraintPart, 3> rotation_;
  RotationEulerConstraintPart rotation_euler_;
};

}  // namespace atl
