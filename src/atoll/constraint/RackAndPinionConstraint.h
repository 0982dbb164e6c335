#pragma once
// Rack-and-pinion constraint: the rotation of a pinion (body 1, normally on a hinge) about its
// axis and the translation of a rack (body 2, normally on a slider) along its axis are coupled
// by a ratio in rad per m: ω1·a1 − ratio·v2·s2 = 0 (Jolt's convention), so turning the pinion by
// +θ about a1 moves the rack by +θ / ratio along s2. For a rack of N_r teeth over L m and a
// pinion of N_p teeth, ratio = 2π·N_r / (L·N_p). The constraint only couples the two motions;
// the hinge and the slider are separate constraints. With set_constraints the position solve
// also drives θ1 − ratio·x2 back to its value at that call, read from the hinge and the slider
// (as Jolt does, counting whole turns of the pinion). Part: RackAndPinionConstraintPart, given
// −s2 as the rack's axis (its own convention is θ1 + ratio·x2).

#include <cmath>

#include "atoll/constraint/Constraint.h"
#include "atoll/constraint/CoupledJoints.h"
#include "atoll/constraint/parts/RackAndPinionConstraintPart.h"

namespace atl {

struct RackAndPinionConstraintSettings {
  /// Common fields (enabled, priority, overrides, user data, break thresholds). break_impulse
  /// is compared with the rack's impulse (|ratio·λ| N·s), break_angular_impulse with the
  /// pinion's (|λ| N·m·s).
  ConstraintSettings common;
  /// Space of the axes (default world).
  ConstraintSpace space = ConstraintSpace::WorldSpace;
  /// The axis the pinion (body 1) turns about (non-zero; normalized). Default +x.
  Vec3 hinge_axis = Vec3(1.0f, 0.0f, 0.0f);
  /// The axis the rack (body 2) moves along (non-zero; normalized). Default +x.
  Vec3 slider_axis = Vec3(1.0f, 0.0f, 0.0f);
  /// Ratio (rad/m, finite, non-zero; default 1): the pinion's turn per metre of the rack, in
  /// ω1·a1 − ratio·v2·s2 = 0. A negative ratio is the same as flipping slider_axis.
  float ratio = 1.0f;

  /// Validates every field and the bodies and builds the constraint; the error names the field.
  Result<Ref<Constraint>> create(const BodyInterface& bodies, BodyID body1, BodyID body2) const;
  bool operator==(const RackAndPinionConstraintSettings&) const = default;
};

class RackAndPinionConstraint final : public Constraint {
 public:
  ConstraintSubType sub_type() const override { return ConstraintSubType::RackAndPinion; }
  /// The settings as they are now (local space).
  RackAndPinionConstraintSettings settings() const;

  /// Couples the hinge holding the pinion (a HingeConstraint attaching body1, its axis
  /// parallel to hinge_axis) and the slider holding the rack (a SliderConstraint attaching
  /// body2, its axis parallel to slider_axis), so the position solve corrects the drift of
  /// θ1 − ratio·x2 from its value now. Both null: no position correction (the default). Error
  /// naming the argument, nothing changed, otherwise. The joints are read, not owned. While
  /// this constraint is disabled, or a joint is disabled (broken) or not in a world, the joints
  /// are not followed and no drift is corrected: then it corrects the drift from the angle and
  /// position it finds when they are again.
  Status set_constraints(const Ref<Constraint>& hinge, const Ref<Constraint>& slider);
  /// The coupled hinge and slider (null when none).
  const Ref<Constraint>& constraint1() const { return hinge_.constraint(); }
  const Ref<Constraint>& constraint2() const { return slider_.constraint(); }
  /// θ1 − ratio·x2 − its value at set_constraints (rad), from the joints at the last solve (0
  /// without coupled joints).
  float error() const { return error_; }

  /// This step's impulse of the row (N·m·s on the pinion; the rack receives ratio× in N·s).
  float total_lambda() const { return part_.total_lambda(); }

  void setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                 float dt) override;
  /// The setup reads the coupled hinge's angle and slider's position.
  bool reads_other_constraints() const override { return hinge_.constraint() != nullptr; }
  void warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2, float ratio) override;
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2, float dt) override;
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, float dt,
                                 float baumgarte) override;
  float linear_impulse() const override { return std::fabs(s_.ratio * part_.total_lambda()); }
  float angular_impulse() const override { return std::fabs(part_.total_lambda()); }
  /// Also restarts the joint readings: re-enabled, it keeps the angle and position it finds.
  void reset_warm_start() override;

 protected:
  /// Walks, in this order: rack_lambda (N·m·s), hinge_last_angle, hinge_turn (rad), slider_start,
  /// slider_travel (m; the coupled joints' readings).
  void visit_type_state(StateStream& s) override;

 private:
  friend struct RackAndPinionConstraintSettings;
  RackAndPinionConstraint(BodyID body1, BodyID body2, const RackAndPinionConstraintSettings& local)
      : Constraint(body1, body2, local.common), s_(local) {}

  void calculate_properties(const SolverBody& body1, const SolverBody& body2);
  // True when the coupled joints are followed: both enabled and in a world; else suspends the
  // readings (false without coupled joints).
  bool follow_joints();
  void read_joints();

  RackAndPinionConstraintSettings s_;  // local space
  HingeAngleReading hinge_;
  SliderPositionReading slider_;
  float error_ = 0.0f;  // rad
  RackAndPinionConstraintPart part_;
};

}  // namespace atl
