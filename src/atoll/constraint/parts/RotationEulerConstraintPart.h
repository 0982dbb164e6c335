#pragma once
// Three rotational degrees of freedom: holds the rotation of body 2 relative to body 1 — the
// rotational part of a fixed joint (and of a six-dof joint with every rotation locked).
//
// Constrains: with q0 = q1⁻¹·q2 the relative rotation to hold, the world-space error rotation
// e = q2·q0⁻¹·q1⁻¹ (identity when held) gives C = 2·e.xyz (e with w ≥ 0; ≈ the rotation vector
// of body 2's excess rotation, rad). Jacobian: J = [0, −E, 0, E] on (v1, ω1, v2, ω2), so
// Jv = ω2 − ω1 (rad/s, the small-angle rate of C). K = I1⁻¹ + I2⁻¹ (3×3, 1/(kg·m²)), solved
// as a block. λ in N·m·s (world vector).

#include "atoll/constraint/SolverBody.h"
#include "atoll/constraint/parts/ConstraintRow.h"

namespace atl {

class RotationEulerConstraintPart {
 public:
  /// The relative rotation q1⁻¹·q2 that the part holds, from the bodies' current rotations.
  static Quat relative_rotation(const Quat& rotation1, const Quat& rotation2) {
    return rotation1.conjugated() * rotation2;
  }

  /// Prepares the constraint for the bodies' current inverse inertias.
  void calculate_constraint_properties(const SolverBody& body1, const SolverBody& body2) {
    inv_inertia1_ = body1.inv_inertia;
    inv_inertia2_ = body2.inv_inertia;
    active_ = (body1.inv_inertia + body2.inv_inertia).try_inverse3x3(effective_mass_) &&
              effective_mass_.is_finite();
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

  /// One block step making ω2 − ω1 = 0. Returns true when it changed it by more than
  /// k_min_velocity_change.
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2) {
    if (!active_) return false;
    const Vec3 error = body2.angular_velocity - body1.angular_velocity;
    const Vec3 lambda = effective_mass_.multiply3x3(-error);
    if (!lambda.is_finite() || lambda == Vec3::zero()) return false;
    total_lambda_ += lambda;
    apply(body1, body2, lambda);
    return error.length_sq() > square(ConstraintRow::k_min_velocity_change);
  }

  /// Applies the angular impulse `lambda` (N·m·s, negative on body 1).
  void apply(SolverBody& body1, SolverBody& body2, const Vec3& lambda) const {
    if (!active_ || !lambda.is_finite()) return;
    body1.angular_velocity -= inv_inertia1_.multiply3x3(lambda);
    body2.angular_velocity += inv_inertia2_.multiply3x3(lambda);
  }

  /// The error C (rad) of the current rotations against the held relative rotation `q0`.
  static Vec3 error(const SolverBody& body1, const SolverBody& body2, const Quat& q0) {
    const Quat e = (body2.rotation * q0.conjugated() * body1.rotation.conjugated())
                       .normalized()
                       .ensure_w_positive();
    return 2.0f * e.xyz();
  }

  /// Baumgarte step turning the bodies towards the held relative rotation `q0`, with the K of
  /// the last calculate_constraint_properties. Returns true when it moved the bodies.
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, const Quat& q0,
                                 float baumgarte) const {
    if (!active_) return false;
    const Vec3 c = error(body1, body2, q0);
    if (c == Vec3::zero()) return false;
    const Vec3 lambda = effective_mass_.multiply3x3(c) * -baumgarte;
    if (!lambda.is_finite()) return false;
    body1.apply_position_step(Vec3::zero(), -inv_inertia1_.multiply3x3(lambda));
    body2.apply_position_step(Vec3::zero(), inv_inertia2_.multiply3x3(lambda));
    return true;
  }

  /// Accumulated angular impulse (N·m·s, world vector) of this step so far.
  const Vec3& total_lambda() const { return total_lambda_; }
  void set_total_lambda(const Vec3& lambda) { total_lambda_ = lambda; }
  /// Walks the accumulated impulse as `name` (three floats; core/StateStream.h).
  void visit_state(StateStream& s, const char* name) { visit_finite(s, name, total_lambda_); }

 private:
  Mat44 inv_inertia1_ = Mat44::zero();
  Mat44 inv_inertia2_ = Mat44::zero();
  Mat44 effective_mass_ = Mat44::zero();  // (I1⁻¹ + I2⁻¹)⁻¹
  Vec3 total_lambda_;
  bool active_ = false;
};

}  // namespace atl
