#pragma once
// Couples the rotation of a pinion (body 1, hinged) with the translation of a rack (body 2,
// on a slider) — a rack and pinion.
//
// Constrains: C = θ1 + ratio·x2 (θ1 in rad about a1, x2 in m along s2; the caller measures
// them and subtracts the rest value; ratio in rad/m). Jacobian: J = [0, a1, ratio·s2, 0] on
// (v1, ω1, v2, ω2), so Jv = a1·ω1 + ratio·s2·v2 (rad/s). K = a1·I1⁻¹a1 + ratio²·s2·M2⁻¹s2.
// λ in N·m·s (the rack receives ratio·λ N·s).

#include "atoll/constraint/SolverBody.h"
#include "atoll/constraint/parts/ConstraintRow.h"

namespace atl {

class RackAndPinionConstraintPart {
 public:
  /// Prepares the row for the pinion's unit world axis a1, the rack's unit world axis s2 and
  /// `ratio` (rad/m); the solve drives Jv to `target_velocity` (rad/s).
  void calculate_constraint_properties(const SolverBody& body1, const Vec3& a1,
                                       const SolverBody& body2, const Vec3& s2, float ratio,
                                       float target_velocity = 0.0f) {
    a1_ = a1;
    s2_ = s2 * ratio;
    angular1_ = body1.inv_inertia.multiply3x3(a1_);
    linear2_ = body2.inv_mass * s2_;
    row_.set(a1_.dot(angular1_) + s2_.dot(linear2_), target_velocity);
  }

  /// True when the bodies can respond (K > 0).
  bool is_active() const { return row_.is_active(); }
  /// Stops the part: solves do nothing and the accumulated impulse is 0.
  void deactivate() { row_.deactivate(); }

  /// Applies last step's accumulated impulse × `ratio` (dt / previous dt; 0 = no warm start).
  void warm_start(SolverBody& body1, SolverBody& body2, float ratio) {
    apply(body1, body2, row_.warm_start(ratio));
  }

  /// Jv = a1·ω1 + ratio·s2·v2 (rad/s).
  float velocity(const SolverBody& body1, const SolverBody& body2) const {
    return a1_.dot(body1.angular_velocity) + s2_.dot(body2.linear_velocity);
  }

  /// One Gauss-Seidel step (no clamp). Returns true when Jv changed by more than
  /// k_min_velocity_change.
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2) {
    const float delta = row_.accumulate(velocity(body1, body2), -k_float_max, k_float_max);
    if (delta == 0.0f) return false;
    apply(body1, body2, delta);
    return row_.is_significant(delta);
  }

  /// Applies the impulse `lambda` (N·m·s on the pinion, ratio·λ N·s on the rack).
  void apply(SolverBody& body1, SolverBody& body2, float lambda) const {
    if (!is_finite(lambda)) return;
    body1.angular_velocity += angular1_ * lambda;
    body2.linear_velocity += linear2_ * lambda;
  }

  /// Baumgarte step for the error `c` = θ1 + ratio·x2 − rest (rad), with the axes and K of the
  /// last calculate_constraint_properties (recalculate them first).
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, float c,
                                 float baumgarte) const {
    const float lambda = row_.position_lambda(c, baumgarte);
    if (lambda == 0.0f || !is_finite(lambda)) return false;
    body1.apply_position_step(Vec3::zero(), angular1_ * lambda);
    body2.apply_position_step(linear2_ * lambda, Vec3::zero());
    return true;
  }

  /// Accumulated impulse (N·m·s) of this step so far.
  float total_lambda() const { return row_.total_lambda(); }
  void set_total_lambda(float lambda) { row_.set_total_lambda(lambda); }
  /// Walks the accumulated impulse as `name` (one float; core/StateStream.h).
  void visit_state(StateStream& s, const char* name) { row_.visit_state(s, name); }

 private:
  Vec3 a1_;
  Vec3 s2_;        // ratio·s2
  Vec3 angular1_;  // I1⁻¹·a1
  Vec3 linear2_;   // M2⁻¹·ratio·s2
  ConstraintRow row_;
};

}  // namespace atl
