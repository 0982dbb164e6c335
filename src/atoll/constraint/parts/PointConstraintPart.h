#pragma once
// Three translational degrees of freedom: keeps a point of body 1 and a point of body 2
// together (a ball joint; the positional part of fixed, hinge, cone, swing-twist joints).
//
// Constrains: C = (x2 + r2) − (x1 + r1) = 0 (m, world space; r1, r2 the lever arms from each
// centre of mass). Jacobian: J = [−E, [r1]×, E, −[r2]×] on (v1, ω1, v2, ω2), so Jv = the
// velocity of point 2 relative to point 1 (m/s). K = M1⁻¹ + M2⁻¹ − [r1]×I1⁻¹[r1]× −
// [r2]×I2⁻¹[r2]× (3×3, 1/kg), solved as a block with its inverse. λ in N·s (world vector).
// When K is singular (both bodies immovable, or a body whose locked axes leave it without a
// full response) the part is inactive.

#include "atoll/constraint/SolverBody.h"
#include "atoll/constraint/parts/ConstraintRow.h"

namespace atl {

class PointConstraintPart {
 public:
  /// Prepares the constraint for world lever arms r1, r2 (from each centre of mass, m).
  void calculate_constraint_properties(const SolverBody& body1, const Vec3& r1,
                                       const SolverBody& body2, const Vec3& r2) {
    r1_ = r1;
    r2_ = r2;
    inv_inertia1_ = body1.inv_inertia;
    inv_inertia2_ = body2.inv_inertia;
    inv_mass1_ = body1.inv_mass;
    inv_mass2_ = body2.inv_mass;
    const Mat44 r1x = Mat44::cross_product(r1);
    const Mat44 r2x = Mat44::cross_product(r2);
    const Mat44 k = Mat44::scale(body1.inv_mass + body2.inv_mass) -
                    r1x.multiply3x3(body1.inv_inertia.multiply3x3(r1x)) -
                    r2x.multiply3x3(body2.inv_inertia.multiply3x3(r2x));
    active_ = k.try_inverse3x3(effective_mass_) && effective_mass_.is_finite();
    if (!active_) total_lambda_ = Vec3::zero();
  }

  /// True when the bodies can respond (K invertible).
  bool is_active() const { return active_; }
  /// Stops the part: solves do nothing and the accumulated impulse is 0.
  void deactivate() {
    active_ = false;
    total_lambda_ = Vec3::zero();
  }

  /// Applies last step's accumulated impulse × `ratio` (dt / previous dt; 0 = no warm start).
  void warm_start(SolverBody& body1, SolverBody& body2, float ratio) {
    total_lambda_ *= ratio;
    apply(body1, body2, total_lambda_);
  }

  /// Velocity of point 2 relative to point 1 (m/s).
  Vec3 relative_velocity(const SolverBody& body1, const SolverBody& body2) const {
    return body2.linear_velocity + body2.angular_velocity.cross(r2_) - body1.linear_velocity -
           body1.angular_velocity.cross(r1_);
  }

  /// One block step: the impulse that makes the points' relative velocity 0. Returns true when
  /// it changed that velocity by more than k_min_velocity_change.
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2) {
    if (!active_) return false;
    const Vec3 error = relative_velocity(body1, body2);
    const Vec3 lambda = effective_mass_.multiply3x3(-error);
    if (!lambda.is_finite() || lambda == Vec3::zero()) return false;
    total_lambda_ += lambda;
    apply(body1, body2, lambda);
    return error.length_sq() > square(ConstraintRow::k_min_velocity_change);
  }

  /// Applies the impulse `lambda` (N·s) at the points (negative on body 1).
  void apply(SolverBody& body1, SolverBody& body2, const Vec3& lambda) const {
    if (!active_ || !lambda.is_finite()) return;
    body1.linear_velocity -= inv_mass1_ * lambda;
    body1.angular_velocity -= inv_inertia1_.multiply3x3(r1_.cross(lambda));
    body2.linear_velocity += inv_mass2_ * lambda;
    body2.angular_velocity += inv_inertia2_.multiply3x3(r2_.cross(lambda));
  }

  /// Baumgarte step: moves the bodies by `baumgarte` × the separation of the points at the
  /// lever arms and K of the last calculate_constraint_properties (recalculate them at the
  /// current positions first). Returns true when it moved the bodies.
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, float baumgarte) const {
    if (!active_) return false;
    const Vec3 c = (body2.com_position + r2_) - (body1.com_position + r1_);
    if (c == Vec3::zero()) return false;
    const Vec3 lambda = effective_mass_.multiply3x3(c) * -baumgarte;
    if (!lambda.is_finite()) return false;
    body1.apply_position_step(-(inv_mass1_ * lambda),
                              -inv_inertia1_.multiply3x3(r1_.cross(lambda)));
    body2.apply_position_step(inv_mass2_ * lambda, inv_inertia2_.multiply3x3(r2_.cross(lambda)));
    return true;
  }

  /// Accumulated impulse (N·s, world vector) of this step so far.
  const Vec3& total_lambda() const { return total_lambda_; }
  void set_total_lambda(const Vec3& lambda) { total_lambda_ = lambda; }
  /// Walks the accumulated impulse as `name` (three floats; core/StateStream.h).
  void visit_state(StateStream& s, const char* name) { visit_finite(s, name, total_lambda_); }

 private:
  Vec3 r1_;
  Vec3 r2_;
  Vec3 inv_mass1_;
  Vec3 inv_mass2_;
  Mat44 inv_inertia1_ = Mat44::zero();
  Mat44 inv_inertia2_ = Mat44::zero();
  Mat44 effective_mass_ = Mat44::zero();  // K⁻¹
  Vec3 total_lambda_;
  bool active_ = false;
};

}  // namespace atl
