#pragma once
// One rotational degree of freedom between two bodies: drives their relative angular velocity
// about a world axis to a target, with the accumulated angular impulse clamped to a range. A
// hinge's limits and motor, the twist and swing limits of a swing-twist joint and a contact's
// twist friction (AngularFrictionPart) are built from it.
//
// Constrains: an angle θ about unit world axis a (rad; the caller measures it, e.g. a hinge's
// angle). Jacobian: J = [0, −a, 0, a] on (v1, ω1, v2, ω2), so Jv = a·(ω2 − ω1) (rad/s).
// K = a·I1⁻¹a + a·I2⁻¹a (1/(kg·m²)). λ in N·m·s, positive turns body 2 about +a. Soft variants
// via SpringPart (ConstraintRow).

#include <cmath>

#include "atoll/constraint/SolverBody.h"
#include "atoll/constraint/SpringSettings.h"
#include "atoll/constraint/parts/AxisConstraintPart.h"
#include "atoll/constraint/parts/ConstraintRow.h"

namespace atl {

class ContactLanes;

class AngleConstraintPart {
 public:
  /// Prepares the row about unit world `axis`; the solve drives a·(ω2 − ω1) to
  /// `target_velocity` (rad/s).
  void calculate_constraint_properties(const SolverBody& body1, const SolverBody& body2,
                                       const Vec3& axis, float target_velocity = 0.0f,
                                       const InverseMassScales& scales = {}) {
    row_.set(calculate_jacobian(body1, body2, axis, scales), target_velocity);
  }
  /// Soft row: a spring of `frequency` Hz and damping ratio `damping` pulls the angle error
  /// `c` (rad) to 0 while its damper drives the velocity to `target_velocity`. ≤ 0 Hz = hard.
  void calculate_constraint_properties_with_frequency_and_damping(float dt, const SolverBody& body1,
                                                                  const SolverBody& body2,
                                                                  const Vec3& axis,
                                                                  float target_velocity, float c,
                                                                  float frequency, float damping) {
    row_.set_with_frequency_and_damping(dt, calculate_jacobian(body1, body2, axis, {}),
                                        target_velocity, c, frequency, damping);
  }
  /// Soft row of `stiffness` (N·m/rad) and `damping` (N·m·s/rad), or per unit effective mass
  /// (1/s², 1/s) when `mass_normalized`. Stiffness ≤ 0 = hard.
  void calculate_constraint_properties_with_stiffness_and_damping(float dt, const SolverBody& body1,
                                                                  const SolverBody& body2,
                                                                  const Vec3& axis,
                                                                  float target_velocity, float c,
                                                                  float stiffness, float damping,
                                                                  bool mass_normalized = false) {
    row_.set_with_stiffness_and_damping(dt, calculate_jacobian(body1, body2, axis, {}),
                                        target_velocity, c, stiffness, damping, mass_normalized);
  }
  /// A limit whose angle error is `c` (rad): soft by `spring` if it has stiffness, else hard.
  void calculate_constraint_properties_for_limit(float dt, const SolverBody& body1,
                                                 const SolverBody& body2, const Vec3& axis,
                                                 float target_velocity, float c,
                                                 const SpringSettings& spring) {
    row_.set_for_limit(dt, calculate_jacobian(body1, body2, axis, {}), target_velocity, c, spring);
  }
  /// A position motor whose error is `c` (rad, current − target angle): soft by the motor's
  /// spring, or rigid when it has no stiffness (LAWS.md B2). [min_lambda, max_lambda]: the
  /// torque limits × dt (N·m·s) the solve will clamp to.
  void calculate_constraint_properties_for_motor(float dt, const SolverBody& body1,
                                                 const SolverBody& body2, const Vec3& axis,
                                                 float target_velocity, float c,
                                                 const SpringSettings& spring,
                                                 float min_lambda = -k_float_max,
                                                 float max_lambda = k_float_max) {
    row_.set_for_motor(dt, calculate_jacobian(body1, body2, axis, {}), target_velocity, c, spring,
                       min_lambda, max_lambda);
  }

  /// True when the bodies can respond (K > 0).
  bool is_active() const { return row_.is_active(); }
  /// Stops the part: solves do nothing and the accumulated impulse is 0.
  void deactivate() { row_.deactivate(); }
  /// 1/K (kg·m²), or 1/(K + γ) for a soft row.
  float effective_mass() const { return row_.effective_mass(); }
  /// True when a spring makes the row soft (then it has no position solve).
  bool is_soft() const { return row_.spring().is_soft(); }

  /// Applies last step's accumulated impulse × `ratio` (dt / previous dt; 0 = no warm start).
  void warm_start(SolverBody& body1, SolverBody& body2, float ratio) {
    apply(body1, body2, row_.warm_start(ratio));
  }

  /// a·(ω2 − ω1) (rad/s).
  float relative_velocity(const SolverBody& body1, const SolverBody& body2) const {
    return axis_.dot(body2.angular_velocity - body1.angular_velocity);
  }
  /// The angular impulse (N·m·s) that would drive the row to its target, before clamping.
  float lambda_for_target(const SolverBody& body1, const SolverBody& body2) const {
    return row_.lambda_for(relative_velocity(body1, body2));
  }

  /// One Gauss-Seidel step with the accumulated impulse clamped to [min, max] (N·m·s). Returns
  /// true when the relative angular velocity changed by more than k_min_velocity_change.
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                 float min_lambda = -k_float_max, float max_lambda = k_float_max) {
    const float delta = row_.accumulate(relative_velocity(body1, body2), min_lambda, max_lambda);
    if (delta == 0.0f) return false;
    apply(body1, body2, delta);
    return row_.is_significant(delta);
  }

  /// Applies an angular impulse `lambda` about the axis (negative on body 1); a non-finite
  /// one is dropped (see AxisConstraintPart::apply).
  void apply(SolverBody& body1, SolverBody& body2, float lambda) const {
    if (!is_finite(lambda)) return;
    body1.angular_velocity -= angular1_ * lambda;
    body2.angular_velocity += angular2_ * lambda;
  }

  /// Baumgarte step for the angle error `c` (rad) with the axis and K of the last
  /// calculate_constraint_properties* (recalculate them first). Nothing for a soft row.
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, float c,
                                 float baumgarte) const {
    const float lambda = row_.position_lambda(c, baumgarte);
    if (lambda == 0.0f || !is_finite(lambda)) return false;
    body1.apply_position_step(Vec3::zero(), -angular1_ * lambda);
    body2.apply_position_step(Vec3::zero(), angular2_ * lambda);
    return true;
  }

  /// Whether an impulse `delta` (N·m·s) changes the relative angular velocity by more than
  /// k_min_velocity_change.
  bool is_significant(float delta) const { return row_.is_significant(delta); }

  /// Accumulated angular impulse (N·m·s) of this step so far.
  float total_lambda() const { return row_.total_lambda(); }
  void set_total_lambda(float lambda) { row_.set_total_lambda(lambda); }
  /// Walks the accumulated impulse as `name` (one float; core/StateStream.h).
  void visit_state(StateStream& s, const char* name) { row_.visit_state(s, name); }

  // The wide contact solver packs these parts into SIMD lanes (ContactLanes.h).
  friend class ContactLanes;

 private:
  float calculate_jacobian(const SolverBody& body1, const SolverBody& body2, const Vec3& axis,
                           const InverseMassScales& scales) {
    axis_ = axis;
    angular1_ = body1.inv_inertia.multiply3x3(axis) * scales.inv_inertia1;
    angular2_ = body2.inv_inertia.multiply3x3(axis) * scales.inv_inertia2;
    // K = J M⁻¹ Jᵀ for J = [0, -axis, 0, axis].
    return axis.dot(angular1_) + axis.dot(angular2_);
  }

  Vec3 axis_;
  Vec3 angular1_;  // I1⁻¹·axis
  Vec3 angular2_;  // I2⁻¹·axis
  ConstraintRow row_;
};

}  // namespace atl
