#pragma once
// One degree of freedom shared by two independent directions: a point of body 1 moving along
// n1 and a point of body 2 moving along n2 are coupled so that their speeds, weighted by
// `ratio`, sum to a target — a pulley, where n1 and n2 point from each fixed point to the body
// and the rope length L1 + ratio·L2 is limited.
//
// Constrains: C = L1 + ratio·L2 (m; the caller subtracts the rest length). Jacobian:
// J = [n1, (r1 × n1), ratio·n2, ratio·(r2 × n2)] on (v1, ω1, v2, ω2), so
// Jv = n1·(v1 + ω1 × r1) + ratio·n2·(v2 + ω2 × r2) (m/s). K = n1·M1⁻¹n1 + (r1×n1)·I1⁻¹(r1×n1) +
// ratio²·(n2·M2⁻¹n2 + (r2×n2)·I2⁻¹(r2×n2)) (1/kg). λ in N·s, positive lengthens the rope.

#include "atoll/constraint/SolverBody.h"
#include "atoll/constraint/parts/ConstraintRow.h"

namespace atl {

class IndependentAxisConstraintPart {
 public:
  /// Prepares the row for world lever arms r1, r2 (m), unit world directions n1, n2 and the
  /// `ratio` (dimensionless); the solve drives Jv to `target_velocity` (m/s).
  void calculate_constraint_properties(const SolverBody& body1, const Vec3& r1,
                                       const SolverBody& body2, const Vec3& r2, const Vec3& n1,
                                       const Vec3& n2, float ratio, float target_velocity = 0.0f) {
    n1_ = n1;
    n2_ = n2;
    ratio_ = ratio;
    r1_cross_n1_ = r1.cross(n1);
    r2_cross_n2_ = r2.cross(n2);
    linear1_ = body1.inv_mass * n1;
    linear2_ = body2.inv_mass * n2 * ratio;
    angular1_ = body1.inv_inertia.multiply3x3(r1_cross_n1_);
    angular2_ = body2.inv_inertia.multiply3x3(r2_cross_n2_) * ratio;
    const float k = n1.dot(linear1_) + r1_cross_n1_.dot(angular1_) +
                    ratio * (n2.dot(linear2_) + r2_cross_n2_.dot(angular2_));
    row_.set(k, target_velocity);
  }

  /// True when the bodies can respond (K > 0).
  bool is_active() const { return row_.is_active(); }
  /// Stops the part: solves do nothing and the accumulated impulse is 0.
  void deactivate() { row_.deactivate(); }
  /// 1/K (kg).
  float effective_mass() const { return row_.effective_mass(); }

  /// Applies last step's accumulated impulse × `ratio` (dt / previous dt; 0 = no warm start).
  void warm_start(SolverBody& body1, SolverBody& body2, float ratio) {
    apply(body1, body2, row_.warm_start(ratio));
  }

  /// Jv (m/s).
  float velocity(const SolverBody& body1, const SolverBody& body2) const {
    return n1_.dot(body1.linear_velocity) + r1_cross_n1_.dot(body1.angular_velocity) +
           ratio_ * (n2_.dot(body2.linear_velocity) + r2_cross_n2_.dot(body2.angular_velocity));
  }

  /// One Gauss-Seidel step with the accumulated impulse clamped to [min, max] (N·s; a rope
  /// that only pulls: max = 0). Returns true when Jv changed by more than
  /// k_min_velocity_change.
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                 float min_lambda = -k_float_max, float max_lambda = k_float_max) {
    const float delta = row_.accumulate(velocity(body1, body2), min_lambda, max_lambda);
    if (delta == 0.0f) return false;
    apply(body1, body2, delta);
    return row_.is_significant(delta);
  }

  /// Applies the impulse `lambda` (N·s).
  void apply(SolverBody& body1, SolverBody& body2, float lambda) const {
    if (!is_finite(lambda)) return;
    body1.linear_velocity += linear1_ * lambda;
    body1.angular_velocity += angular1_ * lambda;
    body2.linear_velocity += linear2_ * lambda;
    body2.angular_velocity += angular2_ * lambda;
  }

  /// Baumgarte step for the error `c` (m), with the Jacobian and K of the last
  /// calculate_constraint_properties (recalculate them first).
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, float c,
                                 float baumgarte) const {
    const float lambda = row_.position_lambda(c, baumgarte);
    if (lambda == 0.0f || !is_finite(lambda)) return false;
    body1.apply_position_step(linear1_ * lambda, angular1_ * lambda);
    body2.apply_position_step(linear2_ * lambda, angular2_ * lambda);
    return true;
  }

  /// Accumulated impulse (N·s) of this step so far.
  float total_lambda() const { return row_.total_lambda(); }
  void set_total_lambda(float lambda) { row_.set_total_lambda(lambda); }
  /// Walks the accumulated impulse as `name` (one float; core/StateStream.h).
  void visit_state(StateStream& s, const char* name) { row_.visit_state(s, name); }

 private:
  Vec3 n1_;
  Vec3 n2_;
  Vec3 r1_cross_n1_;
  Vec3 r2_cross_n2_;
  Vec3 linear1_;   // M1⁻¹·n1
  Vec3 linear2_;   // ratio·M2⁻¹·n2
  Vec3 angular1_;  // I1⁻¹·(r1 × n1)
  Vec3 angular2_;  // ratio·I2⁻¹·(r2 × n2)
  float ratio_ = 1.0f;
  ConstraintRow row_;
};

}  // namespace atl
