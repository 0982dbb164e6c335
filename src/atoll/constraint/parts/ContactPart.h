#pragma once
// One contact point: its non-penetration row along the contact normal and its two friction
// rows along the tangents, each an AxisConstraintPart, plus the Coulomb cone step that bounds
// the friction rows together. The contact solver (solver/ContactConstraintManager) owns the
// order of the steps (friction before non-penetration, the face block, the budgets).
//
// Constrains: normal: (p2 − p1)·n ≥ 0 (m) with λ_n ≥ 0 (only pushes); friction: the relative
// tangential velocity of the points → the surface velocity, with |λ_t| ≤ μ·λ_n as a 2D vector.
// Jacobians and units: see AxisConstraintPart (λ in N·s).

#include <cmath>

#include "atoll/constraint/parts/AxisConstraintPart.h"

namespace atl {

/// One Gauss-Seidel step of two friction rows (tangents `axis1`, `axis2`) inside the Coulomb
/// cone: the pair's accumulated impulse is clamped as a 2D vector to length `max_lambda` (N·s),
/// so friction is isotropic. Returns true when a significant impulse was applied.
inline bool solve_friction_cone(AxisConstraintPart& part1, AxisConstraintPart& part2,
                                SolverBody& body1, SolverBody& body2, const Vec3& axis1,
                                const Vec3& axis2, float max_lambda) {
  const float old1 = part1.total_lambda();
  const float old2 = part2.total_lambda();
  float new1 = old1 + part1.lambda_for_target(body1, body2, axis1);
  float new2 = old2 + part2.lambda_for_target(body1, body2, axis2);
  const float len_sq = new1 * new1 + new2 * new2;
  if (len_sq > max_lambda * max_lambda) {
    const float scale = max_lambda / std::sqrt(len_sq);
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

struct ContactPart {
  /// Non-penetration along the contact normal (λ ≥ 0).
  AxisConstraintPart normal;
  /// Friction along the first tangent.
  AxisConstraintPart friction1;
  /// Friction along the second tangent (normal × tangent1).
  AxisConstraintPart friction2;
  /// The part (N·s) of the normal impulse that stops a new contact's approach (before this
  /// step's forces); the contact solver does not carry it to the next step's warm start.
  float impact_lambda = 0.0f;

  /// Warm-starts the friction rows (when `friction`) and then the normal row with last step's
  /// impulses × `ratio`.
  void warm_start(SolverBody& body1, SolverBody& body2, float ratio, bool friction = true) {
    if (friction) {
      friction1.warm_start(body1, body2, ratio);
      friction2.warm_start(body1, body2, ratio);
    }
    normal.warm_start(body1, body2, ratio);
  }
  /// One non-penetration step along `n` (the accumulated impulse stays ≥ 0).
  bool solve_normal(SolverBody& body1, SolverBody& body2, const Vec3& n) {
    return normal.solve_velocity_constraint(body1, body2, n, 0.0f, k_float_max);
  }
  /// One friction step inside the cone of radius `max_lambda` (N·s, μ × the normal impulse).
  bool solve_friction(SolverBody& body1, SolverBody& body2, const Vec3& tangent1,
                      const Vec3& tangent2, float max_lambda) {
    return solve_friction_cone(friction1, friction2, body1, body2, tangent1, tangent2, max_lambda);
  }
  /// True when the normal row can act.
  bool is_active() const { return normal.is_active(); }
  /// Stops all three rows and clears their impulses.
  void deactivate() {
    normal.deactivate();
    friction1.deactivate();
    friction2.deactivate();
    impact_lambda = 0.0f;
  }
  /// Accumulated impulses (N·s): normal, tangent 1, tangent 2.
  Vec3 total_lambda() const {
    return Vec3(normal.total_lambda(), friction1.total_lambda(), friction2.total_lambda());
  }
  void set_total_lambda(const Vec3& lambda) {
    normal.set_total_lambda(lambda.x());
    friction1.set_total_lambda(lambda.y());
    friction2.set_total_lambda(lambda.z());
  }
};

}  // namespace atl
