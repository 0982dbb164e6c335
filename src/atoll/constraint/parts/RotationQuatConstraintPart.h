#pragma once
// Three rotational degrees of freedom, like RotationEulerConstraintPart, with the exact
// quaternion Jacobian instead of the small-angle one: it stays accurate when the error is
// large (a fixed joint pulled far out of shape, a six-dof joint driven to a target
// orientation).
//
// Constrains: with q0 = q1⁻¹·q2 the relative rotation to hold, the error e = q1⁻¹·q2·q0⁻¹
// (body 1's frame, w ≥ 0) gives C = e.xyz (dimensionless, sin of half the error angle).
// Its rate is ė.xyz = A·(ω2 − ω1) with A = ½·(e.w·E − [e.xyz]×)·R1ᵀ (R1 body 1's rotation), so
// J = [0, −A, 0, A] on (v1, ω1, v2, ω2). K = A·(I1⁻¹ + I2⁻¹)·Aᵀ (3×3), solved as a block.
// λ in N·m·s per unit of C; the world angular impulse is Aᵀ·λ.

#include "atoll/constraint/SolverBody.h"
#include "atoll/constraint/parts/ConstraintRow.h"

namespace atl {

class RotationQuatConstraintPart {
 public:
  /// The relative rotation q1⁻¹·q2 that the part holds, from the bodies' current rotations.
  static Quat relative_rotation(const Quat& rotation1, const Quat& rotation2) {
    return rotation1.conjugated() * rotation2;
  }
  /// The error rotation e = q1⁻¹·q2·q0⁻¹ with w ≥ 0.
  static Quat error_rotation(const Quat& rotation1, const Quat& rotation2, const Quat& q0) {
    return (rotation1.conjugated() * rotation2 * q0.conjugated()).normalized().ensure_w_positive();
  }

  /// Prepares the constraint at the bodies' current rotations for the held rotation `q0`.
  void calculate_constraint_properties(const SolverBody& body1, const SolverBody& body2,
                                       const Quat& q0) {
    const Quat e = error_rotation(body1.rotation, body2.rotation, q0);
    Mat44 a = (Mat44::scale(Vec3::replicate(e.w())) - Mat44::cross_product(e.xyz()))
                  .multiply3x3(Mat44::rotation(body1.rotation).transposed3x3());
    a = a * 0.5f;
    jacobian_ = a;
    const Mat44 a_t = a.transposed3x3();
    inv_i1_a_t_ = body1.inv_inertia.multiply3x3(a_t);
    inv_i2_a_t_ = body2.inv_inertia.multiply3x3(a_t);
    const Mat44 k = a.multiply3x3(inv_i1_a_t_ + inv_i2_a_t_);
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

  /// One block step making A·(ω2 − ω1) = 0 (so ω2 = ω1). Returns true when it changed the
  /// rate of C by more than k_min_velocity_change.
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2) {
    if (!active_) return false;
    const Vec3 error = jacobian_.multiply3x3(body2.angular_velocity - body1.angular_velocity);
    const Vec3 lambda = effective_mass_.multiply3x3(-error);
    if (!lambda.is_finite() || lambda == Vec3::zero()) return false;
    total_lambda_ += lambda;
    apply(body1, body2, lambda);
    return error.length_sq() > square(ConstraintRow::k_min_velocity_change);
  }

  /// Applies `lambda` (negative on body 1): Δω1 = −I1⁻¹Aᵀλ, Δω2 = I2⁻¹Aᵀλ.
  void apply(SolverBody& body1, SolverBody& body2, const Vec3& lambda) const {
    if (!active_ || !lambda.is_finite()) return;
    body1.angular_velocity -= inv_i1_a_t_.multiply3x3(lambda);
    body2.angular_velocity += inv_i2_a_t_.multiply3x3(lambda);
  }

  /// Baumgarte step towards the held rotation `q0`, with the Jacobian and K of the last
  /// calculate_constraint_properties (recalculate them first). Returns true when it moved the
  /// bodies.
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, const Quat& q0,
                                 float baumgarte) const {
    if (!active_) return false;
    const Vec3 c = error_rotation(body1.rotation, body2.rotation, q0).xyz();
    if (c == Vec3::zero()) return false;
    const Vec3 lambda = effective_mass_.multiply3x3(c) * -baumgarte;
    if (!lambda.is_finite()) return false;
    body1.apply_position_step(Vec3::zero(), -inv_i1_a_t_.multiply3x3(lambda));
    body2.apply_position_step(Vec3::zero(), inv_i2_a_t_.multiply3x3(lambda));
    return true;
  }

  /// Accumulated impulse (N·m·s per unit of C) of this step so far.
  const Vec3& total_lambda() const { return total_lambda_; }
  void set_total_lambda(const Vec3& lambda) { total_lambda_ = lambda; }
  /// Walks the accumulated impulse as `name` (three floats; core/StateStream.h).
  void visit_state(StateStream& s, const char* name) { visit_finite(s, name, total_lambda_); }

 private:
  Mat44 jacobian_ = Mat44::zero();        // A
  Mat44 inv_i1_a_t_ = Mat44::zero();      // I1⁻¹·Aᵀ
  Mat44 inv_i2_a_t_ = Mat44::zero();      // I2⁻¹·Aᵀ
  Mat44 effective_mass_ = Mat44::zero();  // K⁻¹
  Vec3 total_lambda_;
  bool active_ = false;
};

}  // namespace atl
