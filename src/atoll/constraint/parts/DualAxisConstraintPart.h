#pragma once
// Two translational degrees of freedom: keeps the relative position of two points fixed along
// two world axes n1, n2 (both perpendicular to a slider's axis), leaving the third free — the
// positional part of a slider.
//
// Constrains: C_i = ((x2 + r2) − (x1 + r1))·n_i = 0 (m), i = 1, 2. Jacobian rows:
// J_i = [−n_i, −(r1 × n_i), n_i, (r2 × n_i)] on (v1, ω1, v2, ω2), so Jv_i = the relative
// velocity of the points along n_i (m/s). K_ij = n_i·(M1⁻¹ + M2⁻¹)n_j + (r1×n_i)·I1⁻¹(r1×n_j) +
// (r2×n_i)·I2⁻¹(r2×n_j) (2×2, 1/kg), solved as a block. λ = (λ1, λ2) in N·s.

#include <array>
#include <cmath>

#include "atoll/constraint/SolverBody.h"
#include "atoll/constraint/parts/ConstraintRow.h"

namespace atl {

class DualAxisConstraintPart {
 public:
  using Lambda = std::array<float, 2>;

  /// Prepares the constraint for world lever arms r1, r2 (m) and unit world axes n1 ⟂ n2.
  void calculate_constraint_properties(const SolverBody& body1, const Vec3& r1,
                                       const SolverBody& body2, const Vec3& r2, const Vec3& n1,
                                       const Vec3& n2) {
    r1_ = r1;
    r2_ = r2;
    const Vec3 n[2] = {n1, n2};
    for (int i = 0; i < 2; ++i) {
      n_[i] = n[i];
      r1_cross_n_[i] = r1.cross(n[i]);
      r2_cross_n_[i] = r2.cross(n[i]);
      linear1_[i] = body1.inv_mass * n[i];
      linear2_[i] = body2.inv_mass * n[i];
      angular1_[i] = body1.inv_inertia.multiply3x3(r1_cross_n_[i]);
      angular2_[i] = body2.inv_inertia.multiply3x3(r2_cross_n_[i]);
    }
    float k[2][2];
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        k[i][j] = n_[i].dot(linear1_[j]) + n_[i].dot(linear2_[j]) +
                  r1_cross_n_[i].dot(angular1_[j]) + r2_cross_n_[i].dot(angular2_[j]);
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

  /// Relative velocity of the points along n_i (m/s).
  float relative_velocity(const SolverBody& body1, const SolverBody& body2, int i) const {
    return n_[i].dot(body2.linear_velocity - body1.linear_velocity) +
           r2_cross_n_[i].dot(body2.angular_velocity) - r1_cross_n_[i].dot(body1.angular_velocity);
  }

  /// One block step driving both relative velocities to 0. Returns true when it changed them
  /// by more than k_min_velocity_change.
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2) {
    if (!active_) return false;
    const float e0 = relative_velocity(body1, body2, 0);
    const float e1 = relative_velocity(body1, body2, 1);
    const Lambda lambda = {-(effective_mass_[0][0] * e0 + effective_mass_[0][1] * e1),
                           -(effective_mass_[1][0] * e0 + effective_mass_[1][1] * e1)};
    if (!std::isfinite(lambda[0]) || !std::isfinite(lambda[1])) return false;
    if (lambda[0] == 0.0f && lambda[1] == 0.0f) return false;
    total_lambda_[0] += lambda[0];
    total_lambda_[1] += lambda[1];
    apply(body1, body2, lambda);
    return std::fmax(std::fabs(e0), std::fabs(e1)) > ConstraintRow::k_min_velocity_change;
  }

  /// Applies the impulses `lambda` (N·s) along n1, n2 (negative on body 1).
  void apply(SolverBody& body1, SolverBody& body2, const Lambda& lambda) const {
    if (!active_) return;
    body1.linear_velocity -= linear1_[0] * lambda[0] + linear1_[1] * lambda[1];
    body1.angular_velocity -= angular1_[0] * lambda[0] + angular1_[1] * lambda[1];
    body2.linear_velocity += linear2_[0] * lambda[0] + linear2_[1] * lambda[1];
    body2.angular_velocity += angular2_[0] * lambda[0] + angular2_[1] * lambda[1];
  }

  /// Baumgarte step for the points' separation along n1, n2, with the lever arms, axes and K
  /// of the last calculate_constraint_properties (recalculate them first).
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, float baumgarte) const {
    if (!active_) return false;
    const Vec3 d = (body2.com_position + r2_) - (body1.com_position + r1_);
    const float c0 = d.dot(n_[0]);
    const float c1 = d.dot(n_[1]);
    if (c0 == 0.0f && c1 == 0.0f) return false;
    const float l0 = -baumgarte * (effective_mass_[0][0] * c0 + effective_mass_[0][1] * c1);
    const float l1 = -baumgarte * (effective_mass_[1][0] * c0 + effective_mass_[1][1] * c1);
    if (!std::isfinite(l0) || !std::isfinite(l1)) return false;
    body1.apply_position_step(-(linear1_[0] * l0 + linear1_[1] * l1),
                              -(angular1_[0] * l0 + angular1_[1] * l1));
    body2.apply_position_step(linear2_[0] * l0 + linear2_[1] * l1,
                              angular2_[0] * l0 + angular2_[1] * l1);
    return true;
  }

  /// Accumulated impulses (N·s) along n1, n2 of this step so far.
  const Lambda& total_lambda() const { return total_lambda_; }
  void set_total_lambda(const Lambda& lambda) { total_lambda_ = lambda; }
  /// Walks the two rows' accumulated impulses as `name` (two floats; core/StateStream.h).
  void visit_state(StateStream& s, const char* name) {
    visit_finite(s, name, total_lambda_.data(), 2);
  }

 private:
  Vec3 r1_;
  Vec3 r2_;
  Vec3 n_[2];
  Vec3 r1_cross_n_[2];
  Vec3 r2_cross_n_[2];
  Vec3 linear1_[2];   // M1⁻¹·n_i
  Vec3 linear2_[2];   // M2⁻¹·n_i
  Vec3 angular1_[2];  // I1⁻¹·(r1 × n_i)
  Vec3 angular2_[2];  // I2⁻¹·(r2 × n_i)
  float effective_mass_[2][2] = {};
  Lambda total_lambda_ = {0.0f, 0.0f};
  bool active_ = false;
};

}  // namespace atl
