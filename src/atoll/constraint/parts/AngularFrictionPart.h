#pragma once
// One rotational degree of freedom held by friction: an AngleConstraintPart whose accumulated
// angular impulse is bounded by a friction budget, and which has no position error. Manifold
// friction (seed 000 §4.1, Jolt 5.6) uses it about the contact normal: the twist friction of a
// face contact, bounded by μ·Σ(distance × normal impulse) of its points. A hinge's or a
// six-dof joint's friction torque uses it with the bound ± max friction torque × dt.
//
// Jacobian J = [0, −a, 0, a] (see AngleConstraintPart); λ in N·m·s.

#include "atoll/constraint/parts/AngleConstraintPart.h"

namespace atl {

class AngularFrictionPart : private AngleConstraintPart {
 public:
  /// Prepares the row about unit `axis` (world space). `target_velocity` is the angular
  /// velocity (rad/s) of body 2 relative to body 1 about the axis that the solve drives to.
  using AngleConstraintPart::calculate_constraint_properties;
  /// True when the bodies can respond (K > 0).
  using AngleConstraintPart::is_active;
  /// Stops the part and clears its impulse.
  using AngleConstraintPart::deactivate;
  /// Applies last step's accumulated impulse × `ratio` (dt / previous dt; 0 = no warm start).
  using AngleConstraintPart::warm_start;
  /// The angular impulse (N·m·s) that would drive the relative angular velocity to the target.
  using AngleConstraintPart::lambda_for_target;
  /// One Gauss-Seidel step with the accumulated impulse clamped to [min, max] (the budget).
  using AngleConstraintPart::solve_velocity_constraint;
  /// Applies an angular impulse about the axis (negative on body 1).
  using AngleConstraintPart::apply;
  /// Accumulated angular impulse (N·m·s) of this step so far.
  using AngleConstraintPart::set_total_lambda;
  using AngleConstraintPart::total_lambda;

  /// Friction has no position error: nothing to correct.
  bool solve_position_constraint(SolverBody&, SolverBody&, float) const { return false; }
};

}  // namespace atl
