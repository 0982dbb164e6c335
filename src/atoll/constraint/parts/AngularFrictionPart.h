#pragma once
// One rotational degree of freedom held by friction: an AngleConstraintPart whose accumulated
// angular impulse is bounded by a friction budget, and which has no position error. Manifold
// friction (seed 000 §4.1, Jolt 5.6) uses it about the contact normal: the twist friction of a
// face contact, bounded by μ·Σ(distance × normal impulse) of its points. A hinge's or a
// six-dof joint's friction torque uses it with the bound ± max friction torque × dt.
//
// Jacobian J = [0, −a, 0, a] (see AngleConstraintPart); λ in N·m·s.

#include <cmath>

#include "atoll/constraint/parts/AngleConstraintPart.h"

namespace atl {

class ContactLanes;

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
  /// Whether an impulse changes the relative angular velocity noticeably.
  using AngleConstraintPart::is_significant;
  /// Accumulated angular impulse (N·m·s) of this step so far.
  using AngleConstraintPart::set_total_lambda;
  using AngleConstraintPart::total_lambda;

  /// Friction has no position error: nothing to correct.
  bool solve_position_constraint(SolverBody&, SolverBody&, float) const { return false; }

 private:
  // The wide contact solver packs the row into SIMD lanes (ContactLanes.h).
  friend class ContactLanes;
};

/// One Gauss-Seidel step of two angular friction rows about perpendicular axes (a contact's
/// rolling resistance about its tangents): the pair's accumulated angular impulse is clamped as
/// a 2D vector to length `max_lambda` (N·m·s), so the resistance does not depend on the
/// direction of rolling. Returns true when a significant impulse was applied.
inline bool solve_angular_friction_disc(AngularFrictionPart& part1, AngularFrictionPart& part2,
                                        SolverBody& body1, SolverBody& body2, float max_lambda) {
  const float old1 = part1.total_lambda();
  const float old2 = part2.total_lambda();
  float new1 = old1 + part1.lambda_for_target(body1, body2);
  float new2 = old2 + part2.lambda_for_target(body1, body2);
  const float len_sq = new1 * new1 + new2 * new2;
  if (len_sq > max_lambda * max_lambda) {
    const float scale = len_sq > 0.0f ? max_lambda / std::sqrt(len_sq) : 0.0f;
    new1 *= scale;
    new2 *= scale;
  }
  const float d1 = new1 - old1;
  const float d2 = new2 - old2;
  if (d1 == 0.0f && d2 == 0.0f) return false;
  part1.set_total_lambda(new1);
  part2.set_total_lambda(new2);
  part1.apply(body1, body2, d1);
  part2.apply(body1, body2, d2);
  return part1.is_significant(d1) || part2.is_significant(d2);
}

}  // namespace atl
