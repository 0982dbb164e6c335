#pragma once
// Gear constraint: two bodies, each turning about its own axis (normally each on a hinge), turn
// at a fixed ratio of angular velocities: ω1·a1 + ratio·ω2·a2 = 0, so with parallel axes and
// ratio 2 body 1 turns twice as fast as body 2, in the opposite sense (gear 2 has twice the
// teeth of gear 1). The constraint only couples the two rotations; the hinges that hold each
// gear in place are separate constraints. Velocity rows alone let the angles drift; with
// set_constraints the position solve also drives θ1 + ratio·θ2 back to its value at that call,
// the angles read from the two hinges (as Jolt does, but counting whole turns, so a non-integer
// ratio is corrected too). Part: GearConstraintPart.

#include <cmath>

#include "atoll/constraint/Constraint.h"
#include "atoll/constraint/CoupledJoints.h"
#include "atoll/constraint/parts/GearConstraintPart.h"

namespace atl {

struct GearConstraintSettings {
  /// Common fields (enabled, priority, overrides, user data, break thresholds). The gear has
  /// no linear part: break_impulse would never trigger and must be 0.
  ConstraintSettings common;
  /// Space of the axes (default world).
  ConstraintSpace space = ConstraintSpace::WorldSpace;
  /// The axis body 1 turns about (non-zero; normalized). Default +x.
  Vec3 hinge_axis1 = Vec3(1.0f, 0.0f, 0.0f);
  /// The axis body 2 turns about (non-zero; normalized). Default +x.
  Vec3 hinge_axis2 = Vec3(1.0f, 0.0f, 0.0f);
  /// Gear ratio (dimensionless, finite, non-zero; default 1) in ω1·a1 + ratio·ω2·a2 = 0: for
  /// gears of N1 and N2 teeth, N2 / N1. A negative ratio is the same as flipping hinge_axis2.
  float ratio = 1.0f;

  /// Validates every field and the bodies and builds the constraint; the error names the field.
  Result<Ref<Constraint>> create(const BodyInterface& bodies, BodyID body1, BodyID body2) const;
  bool operator==(const GearConstraintSettings&) const = default;
};

class GearConstraint final : public Constraint {
 public:
  ConstraintSubType sub_type() const override { return ConstraintSubType::Gear; }
  /// The settings as they are now (local space).
  GearConstraintSettings settings() const;

  /// Couples the hinges that hold the gears (hinge1 attaches body1, hinge2 body2; each a
  /// HingeConstraint whose axis is parallel to the gear's axis on that body) so the position
  /// solve corrects the drift of θ1 + ratio·θ2 from its value now (θ from the hinges' current
  /// angles, which before the first step are the angles at creation). Both null: no position
  /// correction (the default). Error naming the argument, nothing changed, otherwise. The
  /// hinges are read, not owned; they should stay in the same world as the gear. While the
  /// gear is disabled, or a hinge is disabled (broken) or not in a world, the hinges are not
  /// followed and no drift is corrected: then it corrects the drift from the angles it finds
  /// when they are again.
  Status set_constraints(const Ref<Constraint>& hinge1, const Ref<Constraint>& hinge2);
  /// The coupled hinges (null when none).
  const Ref<Constraint>& constraint1() const { return hinge1_.constraint(); }
  const Ref<Constraint>& constraint2() const { return hinge2_.constraint(); }
  /// θ1 + ratio·θ2 − its value at set_constraints (rad), from the hinges at the last solve: the
  /// drift the position solve takes back (0 without coupled hinges).
  float angle_error() const { return angle_error_; }

  /// This step's angular impulse of the gear row (N·m·s; on body 1 about a1, ratio× on body 2).
  float total_lambda() const { return gear_.total_lambda(); }

  void setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                 float dt) override;
  /// The setup reads the coupled hinges' angles.
  bool reads_other_constraints() const override { return hinge1_.constraint() != nullptr; }
  void warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2, float ratio) override;
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2, float dt) override;
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, float dt,
                                 float baumgarte) override;
  float linear_impulse() const override { return 0.0f; }
  float angular_impulse() const override { return std::fabs(gear_.total_lambda()); }
  /// Also restarts the hinge readings: re-enabled, the gear keeps the angles it finds.
  void reset_warm_start() override;

 protected:
  /// Walks, in this order: gear_lambda (N·m·s), hinge1_last_angle, hinge1_turn, hinge2_last_angle,
  /// hinge2_turn (rad; the coupled hinges' readings).
  void visit_type_state(StateStream& s) override;

 private:
  friend struct GearConstraintSettings;
  GearConstraint(BodyID body1, BodyID body2, const GearConstraintSettings& local)
      : Constraint(body1, body2, local.common), s_(local) {}

  void calculate_properties(const SolverBody& body1, const SolverBody& body2);
  // True when the coupled hinges are followed: both enabled and in a world; else suspends the
  // readings (false without coupled hinges).
  bool follow_hinges();
  void read_hinges();

  GearConstraintSettings s_;  // local space
  HingeAngleReading hinge1_;
  HingeAngleReading hinge2_;
  float angle_error_ = 0.0f;  // rad
  GearConstraintPart gear_;
};

}  // namespace atl
