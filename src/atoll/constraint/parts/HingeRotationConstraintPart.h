#pragma once
// Two rotational degrees of freedom: keeps a hinge axis of body 1 aligned with a hinge axis
// of body 2, leaving the rotation about it free — the rotational part of a hinge.
//
// Constrains: with a1 the hinge axis of body 1 and b2, c2 two unit vectors ⟂ a2 fixed in
// body 2 (all world space), C = (a1·b2, a1·c2) = 0 (dimensionless, ≈ the misalignment angles in
// rad). Jacobian rows: J_b = [0, −(b2 × a1), 0, (b2 × a1)], J_c likewise with c2, so
// Jv = ((b2 × a1)·(ω2 − ω1), (c2 × a1)·(ω2 − ω1)) (rad/s). K_ij = j_i·(I1⁻¹ + I2⁻¹)·j_j (2×2,
// 1/(kg·m²)), solved as a block. λ in N·m·s. The alignment a1 = −a2 also satisfies C = 0; it
// is unstable and the position solve moves away from it.

#include <array>
#include <cmath>

#include "atoll/constraint/SolverBody.h"
#include "atoll/constraint/parts/ConstraintRow.h"

namespace atl {

class HingeRotationConstraintPart {
 public:
  using Lambda = std::array<float, 2>;

  /// Prepares the constraint for the world hinge axes a1 (body 1) and a2 (body 2), unit.
  void calculate_constraint_properties(const SolverBody& body1, const SolverBody& body2,
                                       const Vec3& a1, const Vec3& a2) {
    a1_ = a1;
    b2_ = a2.normalized_perpendicular();
    c2_ = a2.cross(b2_);
    j_[0] = b2_.cross(a1);
    j_[1] = c2_.cross(a1);
    for (int i = 0; i < 2; ++i) {
      angular1_[i] = body1.inv_inertia.multiply3x3(j_[i]);
      angular2_[i] = body2.inv_inertia.multiply3x3(j_[i]);
    }
    float k[2][2];
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) k[i][j] = j_[i].dot(angular1_[j]) + j_[i].dot(angular2_[j]);
    const float det = k[0][0] * k[1][1] - k[0][1] * k[1][0];
    active_ = det > 0.0f && std::isfinite(det);
    if (!active_) {
      total_lambda_ = {0.0f, 0.0f};
      return;
    }
    const float inv_det = 1.0f / det;
    effective_mass_[0][0] = k[1][1] * inv_det;
    effective_mass_[1][1] = k[0][0] * inv_det;
    effective_mass_[0][1] = -k[0][1] * inv_det;
    effective_mass_[1][0] = -k[1][0] * inv_det;
  }

  /// True when the bodies can respond (K invertible).
  bool is_active() const { return active_; }
  /// Stops the part: solves do nothing and the accumulated impulse is 0.
  void deactivate() {
    active_ = false;
    total_lambda_ = {0.0f, 0.0f};
  }

  /// Applies last step's accumulated impulse × `ratio` (dt / previous dt; 0 = no warm start).
  void warm_start(SolverBody& body1, SolverBody& body2, float ratio) {
    total_lambda_[0] *= ratio;
    total_lambda_[1] *= ratio;
    apply(body1, body2, total_lambda_);
  }

  /// One block step driving both rows' velocities to 0. Returns true when it changed them by
  /// more than k_min_velocity_change.
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2) {
    if (!active_) return false;
    const Vec3 w = body2.angular_velocity - body1.angular_velocity;
    const float e0 = j_[0].dot(w);
    const float e1 = j_[1].dot(w);
    const Lambda lambda = {-(effective_mass_[0][0] * e0 + effective_mass_[0][1] * e1),
                           -(effective_mass_[1][0] * e0 + effective_mass_[1][1] * e1)};
    if (!std::isfinite(lambda[0]) || !std::isfinite(lambda[1])) return false;
    if (lambda[0] == 0.0f && lambda[1] == 0.0f) return false;
    total_lambda_[0] += lambda[0];
    total_lambda_[1] += lambda[1];
    apply(body1, body2, lambda);
    return std::fmax(std::fabs(e0), std::fabs(e1)) > ConstraintRow::k_min_velocity_change;
  }

  /// Applies the angular impulses `lambda` (N·m·s) of the two rows (negative on body 1).
  void apply(SolverBody& body1, SolverBody& body2, const Lambda& lambda) const {
    if (!active_) return;
    body1.angular_velocity -= angular1_[0] * lambda[0] + angular1_[1] * lambda[1];
    body2.angular_velocity += angular2_[0] * lambda[0] + angular2_[1] * lambda[1];
  }

  /// Baumgarte step for the misalignment C, with the axes and K of the last
  /// calculate_constraint_properties (recalculate them at the current rotations first).
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, float baumgarte) const {
    if (!active_) return false;
    const float c0 = a1_.dot(b2_);
    const float c1 = a1_.dot(c2_);
    if (c0 == 0.0f && c1 == 0.0f) return false;
    const float l0 = -baumgarte * (effective_mass_[0][0] * c0 + effective_mass_[0][1] * c1);
    const float l1 = -baumgarte * (effective_mass_[1][0] * c0 + effective_mass_[1][1] * c1);
    if (!std::isfinite(l0) || !std::isfinite(l1)) return false;
    body1.apply_position_step(Vec3::zero(), -(angular1_[0] * l0 + angular1_[1] * l1));
    body2.apply_position_step(Vec3::zero(), angular2_[0] * l0 + angular2_[1] * l1);
    return true;
  }

  /// Accumulated angular impulses (N·m·s) of the two rows of this step so far.
  const Lambda& total_lambda() const { return total_lambda_; }
  void set_total_lambda(const Lambda& lambda) { total_lambda_ = lambda; }
  /// Walks the two rows' accumulated impulses as `name` (two floats; core/StateStream.h).
  void visit_state(StateStream& s, const char* name) {
    visit_finite(s, name, total_lambda_.data(), 2);
  }

 private:
  Vec3 a1_;
  Vec3 b2_;
  Vec3 c2_;
  Vec3 j_[2];         // b2 × a1, c2 × a1
  Vec3 angular1_[2];  // I1⁻¹·j_i
  Vec3 angular2_[2];  // I2⁻¹·j_i
  float effective_mass_[2][2] = {};
  Lambda total_lambda_ = {0.0f, 0.0f};
  bool active_ = false;
};

}  // namespace atl
