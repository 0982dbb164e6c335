#pragma once
// One rotational degree of freedom between two bodies: keeps their relative angular velocity
// about a world axis at a target, with the accumulated angular impulse clamped to a range.
// Manifold friction (seed 000 §4.1, Jolt 5.6) uses it about the contact normal: the twist
// friction of a face contact, bounded by μ·Σ(distance × normal impulse) of its points.

#include <algorithm>
#include <cmath>

#include "atoll/constraint/SolverBody.h"
#include "atoll/constraint/parts/AxisConstraintPart.h"

namespace atl {

class AngularFrictionPart {
 public:
  /// Prepares the constraint about unit `axis` (world space). `target_velocity` is the
  /// angular velocity (rad/s) of body 2 relative to body 1 about the axis that the solve
  /// drives towards.
  void calculate_constraint_properties(const SolverBody& body1, const SolverBody& body2,
                                       const Vec3& axis, float target_velocity = 0.0f,
                                       const InverseMassScales& scales = {}) {
    axis_ = axis;
    angular1_ = body1.inv_inertia.multiply3x3(axis) * scales.inv_inertia1;
    angular2_ = body2.inv_inertia.multiply3x3(axis) * scales.inv_inertia2;
    // K = J M⁻¹ Jᵀ for J = [0, -axis, 0, axis].
    const float k = axis.dot(angular1_) + axis.dot(angular2_);
    effective_mass_ = k > 0.0f ? 1.0f / k : 0.0f;
    target_velocity_ = target_velocity;
  }

  /// True when the bodies can respond (K > 0).
  bool is_active() const { return effective_mass_ != 0.0f; }

  /// Applies last step's accumulated impulse × `ratio` (dt / previous dt; 0 = no warm start).
  void warm_start(SolverBody& body1, SolverBody& body2, float ratio) {
    total_lambda_ *= ratio;
    apply(body1, body2, total_lambda_);
  }

  /// The angular impulse (N·m·s) that would drive the relative angular velocity to the target.
  float lambda_for_target(const SolverBody& body1, const SolverBody& body2) const {
    const float relative = axis_.dot(body2.angular_velocity - body1.angular_velocity);
    return effective_mass_ * (target_velocity_ - relative);
  }

  /// One Gauss-Seidel step with the accumulated impulse clamped to [min, max]. Returns true
  /// when the angular velocity about the axis changed by more than
  /// AxisConstraintPart::k_min_velocity_change (rad/s).
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2, float min_lambda,
                                 float max_lambda) {
    const float new_total =
        std::clamp(total_lambda_ + lambda_for_target(body1, body2), min_lambda, max_lambda);
    const float delta = new_total - total_lambda_;
    total_lambda_ = new_total;
    if (delta == 0.0f) return false;
    apply(body1, body2, delta);
    return std::fabs(delta) > AxisConstraintPart::k_min_velocity_change * effective_mass_;
  }

  /// Applies an angular impulse `lambda` about the axis (negative on body 1); a non-finite
  /// one is dropped (see AxisConstraintPart::apply).
  void apply(SolverBody& body1, SolverBody& body2, float lambda) const {
    if (!is_finite(lambda)) return;
    body1.angular_velocity -= angular1_ * lambda;
    body2.angular_velocity += angular2_ * lambda;
  }

  /// Accumulated angular impulse (N·m·s) of this step so far.
  float total_lambda() const { return total_lambda_; }
  void set_total_lambda(float lambda) { total_lambda_ = lambda; }

 private:
  Vec3 axis_;
  Vec3 angular1_;  // I1⁻¹·axis
  Vec3 angular2_;  // I2⁻¹·axis
  float effective_mass_ = 0.0f;
  float target_velocity_ = 0.0f;
  float total_lambda_ = 0.0f;
};

}  // namespace atl
