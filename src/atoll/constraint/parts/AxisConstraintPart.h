#pragma once
// One translational degree of freedom between two bodies: keeps the relative velocity of two
// points along a world axis at a target, with the accumulated impulse clamped to a range.
// Contacts (non-penetration and friction) and the translational rows of joints (a slider's
// limits and motor, a distance constraint) are built from it. The velocity changes an impulse
// causes are precomputed once per step, so a solve is two dot products and four multiply-adds.
//
// Constrains: C = (p2 − p1)·n (m), points p1 = x1 + r1, p2 = x2 + r2, unit world axis n.
// Jacobian: J = [−n, −(r1 × n), n, (r2 × n)] on (v1, ω1, v2, ω2), so Jv = the velocity of p2
// relative to p1 along n (m/s). K = n·M1⁻¹n + n·M2⁻¹n + (r1×n)·I1⁻¹(r1×n) + (r2×n)·I2⁻¹(r2×n)
// (1/kg). λ in N·s, positive pushes p2 along +n. Soft variants via SpringPart (ConstraintRow).

#include <algorithm>
#include <cmath>

#include "atoll/constraint/SolverBody.h"
#include "atoll/constraint/SpringSettings.h"
#include "atoll/constraint/parts/ConstraintRow.h"

namespace atl {

class ContactLanes;

/// Per-contact scales of the bodies' inverse mass and inertia (ContactSettings), 1 = unchanged.
struct InverseMassScales {
  float inv_mass1 = 1.0f;
  float inv_inertia1 = 1.0f;
  float inv_mass2 = 1.0f;
  float inv_inertia2 = 1.0f;
};

class AxisConstraintPart {
 public:
  /// Prepares the constraint along unit `axis` for points at lever arms r1, r2 (from each
  /// centre of mass, world space). `target_velocity` is the relative velocity (m/s) of point 2
  /// with respect to point 1 along the axis that the solve drives towards.
  void calculate_constraint_properties(const SolverBody& body1, const Vec3& r1,
                                       const SolverBody& body2, const Vec3& r2, const Vec3& axis,
                                       float target_velocity = 0.0f,
                                       const InverseMassScales& scales = {}) {
    row_.set(calculate_jacobian(body1, r1, body2, r2, axis, scales), target_velocity);
  }
  /// Soft row: a spring of `frequency` Hz and damping ratio `damping` pulls the error `c` (m,
  /// C above minus its rest value) to 0 while the damper drives Jv to `target_velocity`.
  /// Frequency ≤ 0 = hard.
  void calculate_constraint_properties_with_frequency_and_damping(
      float dt, const SolverBody& body1, const Vec3& r1, const SolverBody& body2, const Vec3& r2,
      const Vec3& axis, float target_velocity, float c, float frequency, float damping) {
    row_.set_with_frequency_and_damping(dt, calculate_jacobian(body1, r1, body2, r2, axis, {}),
                                        target_velocity, c, frequency, damping);
  }
  /// Soft row of `stiffness` (N/m) and `damping` (N·s/m), or per unit effective mass (1/s²,
  /// 1/s) when `mass_normalized`. Stiffness ≤ 0 = hard.
  void calculate_constraint_properties_with_stiffness_and_damping(
      float dt, const SolverBody& body1, const Vec3& r1, const SolverBody& body2, const Vec3& r2,
      const Vec3& axis, float target_velocity, float c, float stiffness, float damping,
      bool mass_normalized = false) {
    row_.set_with_stiffness_and_damping(dt, calculate_jacobian(body1, r1, body2, r2, axis, {}),
                                        target_velocity, c, stiffness, damping, mass_normalized);
  }
  /// A limit whose error is `c` (m): soft by `spring` if it has stiffness, else hard (the
  /// position solve corrects `c`).
  void calculate_constraint_properties_for_limit(float dt, const SolverBody& body1, const Vec3& r1,
                                                 const SolverBody& body2, const Vec3& r2,
                                                 const Vec3& axis, float target_velocity, float c,
                                                 const SpringSettings& spring) {
    row_.set_for_limit(dt, calculate_jacobian(body1, r1, body2, r2, axis, {}), target_velocity, c,
                       spring);
  }
  /// A position motor whose error is `c` (m, current − target position): soft by the motor's
  /// `spring`, or rigid when it has no stiffness (reaches the target in one step within its
  /// force limits, LAWS.md B2). [min_lambda, max_lambda]: the force limits × dt (N·s) the
  /// solve will clamp to. A velocity motor uses calculate_constraint_properties.
  void calculate_constraint_properties_for_motor(float dt, const SolverBody& body1, const Vec3& r1,
                                                 const SolverBody& body2, const Vec3& r2,
                                                 const Vec3& axis, float target_velocity, float c,
                                                 const SpringSettings& spring,
                                                 float min_lambda = -k_float_max,
                                                 float max_lambda = k_float_max) {
    row_.set_for_motor(dt, calculate_jacobian(body1, r1, body2, r2, axis, {}), target_velocity, c,
                       spring, min_lambda, max_lambda);
  }

  /// True when the bodies can respond (K > 0).
  bool is_active() const { return row_.is_active(); }
  /// Stops the part: solves do nothing and the accumulated impulse is 0.
  void deactivate() { row_.deactivate(); }
  /// 1/K (kg), or 1/(K + γ) for a soft row.
  float effective_mass() const { return row_.effective_mass(); }
  /// The target the solve drives Jv to (m/s; includes the spring's pull for a soft row).
  float target_velocity() const { return row_.spring().target(); }
  /// True when a spring makes the row soft (then it has no position solve).
  bool is_soft() const { return row_.spring().is_soft(); }

  /// Applies last step's accumulated impulse × `ratio` (dt / previous dt; 0 = no warm start).
  void warm_start(SolverBody& body1, SolverBody& body2, float ratio) {
    apply(body1, body2, row_.warm_start(ratio));
  }

  /// Relative velocity of point 2 w.r.t. point 1 along the axis (m/s).
  float relative_velocity(const SolverBody& body1, const SolverBody& body2,
                          const Vec3& axis) const {
    return axis.dot(body2.linear_velocity - body1.linear_velocity) +
           Vec3(r2_cross_axis_).dot(body2.angular_velocity) -
           Vec3(r1_cross_axis_).dot(body1.angular_velocity);
  }

  /// The impulse (N·s) that would drive the relative velocity to the target, before clamping.
  float lambda_for_target(const SolverBody& body1, const SolverBody& body2,
                          const Vec3& axis) const {
    return row_.lambda_for(relative_velocity(body1, body2, axis));
  }

  /// One Gauss-Seidel step: accumulates an impulse, clamps the total to [min, max] and applies
  /// the difference. Returns true when the impulse changed the relative velocity by more than
  /// k_min_velocity_change (the solver's early exit stops once no part does).
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2, const Vec3& axis,
                                 float min_lambda = -k_float_max, float max_lambda = k_float_max) {
    const float delta =
        row_.accumulate(relative_velocity(body1, body2, axis), min_lambda, max_lambda);
    if (delta == 0.0f) return false;
    apply(body1, body2, delta);
    return is_significant(delta);
  }

  /// Relative-velocity change (m/s) below which an impulse does not count as "applied" for
  /// the early exit. Jolt counts any non-zero impulse, so round-off in the last bits of a
  /// settled stack keeps its loop running to the cap (LAWS.md A8); the impulse is still
  /// applied, only the loop's decision ignores it.
  static constexpr float k_min_velocity_change = ConstraintRow::k_min_velocity_change;
  /// True when `delta` (N·s) changes the relative velocity by more than k_min_velocity_change.
  bool is_significant(float delta) const { return row_.is_significant(delta); }

  /// Applies an impulse `lambda` along the axis (negative on body 1, positive on body 2). A
  /// non-finite impulse is dropped: it only comes from a body whose state is already
  /// non-finite (the world quarantines it at the end of the step, DESIGN.md §7), and applying
  /// it would spread the NaN to the other body — through 0 · NaN even to a static one, whose
  /// solver entry every island touching it shares.
  void apply(SolverBody& body1, SolverBody& body2, float lambda) const {
    if (!is_finite(lambda)) return;
    body1.linear_velocity -= Vec3(linear1_) * lambda;
    body1.angular_velocity -= Vec3(angular1_) * lambda;
    body2.linear_velocity += Vec3(linear2_) * lambda;
    body2.angular_velocity += Vec3(angular2_) * lambda;
  }

  /// Position-level correction for a separation error `c` (m, negative = too close): moves
  /// the bodies apart by baumgarte × |c| along the axis. Uses the lever arms of the current
  /// positions (recomputes K). Returns true when the bodies were moved.
  static bool solve_position_constraint(SolverBody& body1, const Vec3& r1, SolverBody& body2,
                                        const Vec3& r2, const Vec3& axis, float c, float baumgarte,
                                        const InverseMassScales& scales = {}) {
    if (c == 0.0f) return false;
    const Jacobian j = jacobian(body1, r1, body2, r2, axis, scales);
    if (j.k == 0.0f) return false;
    const float lambda = -baumgarte * c / j.k;
    if (!is_finite(lambda)) return false;  // a non-finite body: see apply()
    body1.apply_position_step(-j.linear1 * lambda, -j.angular1 * lambda);
    body2.apply_position_step(j.linear2 * lambda, j.angular2 * lambda);
    return true;
  }

  /// Baumgarte position step of a joint row for the error `c` (m, C minus its rest value),
  /// using the lever arms and K of the last calculate_constraint_properties* (recalculate them
  /// at the current positions first). Does nothing for a soft row. Returns true when it moved
  /// the bodies.
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, float c,
                                 float baumgarte) const {
    const float lambda = row_.position_lambda(c, baumgarte);
    if (lambda == 0.0f || !is_finite(lambda)) return false;
    body1.apply_position_step(-Vec3(linear1_) * lambda, -Vec3(angular1_) * lambda);
    body2.apply_position_step(Vec3(linear2_) * lambda, Vec3(angular2_) * lambda);
    return true;
  }

  /// Accumulated impulse (N·s) of this step so far.
  float total_lambda() const { return row_.total_lambda(); }
  void set_total_lambda(float lambda) { row_.set_total_lambda(lambda); }
  /// Walks the accumulated impulse as `name` (one float; core/StateStream.h).
  void visit_state(StateStream& s, const char* name) { row_.visit_state(s, name); }

  // The wide contact solver packs these parts into SIMD lanes (ContactLanes.h).
  friend class ContactLanes;

 private:
  // The Jacobian's velocity changes and K = J M⁻¹ Jᵀ for J = [-axis, -r1×axis, axis, r2×axis]
  // (k 0 when the bodies cannot respond).
  struct Jacobian {
    Vec3 r1_cross_axis;
    Vec3 r2_cross_axis;
    Vec3 linear1;
    Vec3 linear2;
    Vec3 angular1;
    Vec3 angular2;
    float k = 0.0f;
  };
  static Jacobian jacobian(const SolverBody& body1, const Vec3& r1, const SolverBody& body2,
                           const Vec3& r2, const Vec3& axis, const InverseMassScales& scales) {
    Jacobian j;
    j.r1_cross_axis = r1.cross(axis);
    j.r2_cross_axis = r2.cross(axis);
    j.linear1 = body1.inv_mass * axis * scales.inv_mass1;
    j.linear2 = body2.inv_mass * axis * scales.inv_mass2;
    j.angular1 = body1.inv_inertia.multiply3x3(j.r1_cross_axis) * scales.inv_inertia1;
    j.angular2 = body2.inv_inertia.multiply3x3(j.r2_cross_axis) * scales.inv_inertia2;
    const float k = axis.dot(j.linear1) + axis.dot(j.linear2) + j.r1_cross_axis.dot(j.angular1) +
                    j.r2_cross_axis.dot(j.angular2);
    j.k = is_solvable(k, body1, j.r1_cross_axis, body2, j.r2_cross_axis, scales) ? k : 0.0f;
    return j;
  }
  // Stores the Jacobian's velocity changes and returns K (0 when the bodies cannot respond).
  float calculate_jacobian(const SolverBody& body1, const Vec3& r1, const SolverBody& body2,
                           const Vec3& r2, const Vec3& axis, const InverseMassScales& scales) {
    const Jacobian j = jacobian(body1, r1, body2, r2, axis, scales);
    r1_cross_axis_ = j.r1_cross_axis.to_float3();
    r2_cross_axis_ = j.r2_cross_axis.to_float3();
    linear1_ = j.linear1.to_float3();
    linear2_ = j.linear2.to_float3();
    angular1_ = j.angular1.to_float3();
    angular2_ = j.angular2.to_float3();
    return j.k;
  }

  // Whether K = J M⁻¹ Jᵀ is more than round-off. K is tiny but positive when the axis is all
  // but perpendicular to every motion the bodies allow: a body that may only turn about Y,
  // resting on the floor, sees (r × normal) with a y component of a few ulps of the normal.
  // 1/K is then huge, and one impulse through that ulp-sized lever sets ω_y to whatever makes
  // the point's normal velocity zero — it stopped the spin of such a body (issue 7 item 5; the
  // box-on-floor normal there is off by 1.1e-5 rad, K / scale = 2.6e-10). K is compared with
  // `scale`, what the same lever arms give along the body's most mobile directions (the traces
  // bound the masked inverse inertia): below k_min_relative_k of it, the constraint cannot act.
  // It scales with the square of the normal's error, so 1e-8 ignores errors up to ~1e-4 rad,
  // while a real contact is far above it (a 10 m rod of radius 1 cm hit sideways: ~2e-6).
  static bool is_solvable(float k, const SolverBody& body1, const Vec3& r1_cross,
                          const SolverBody& body2, const Vec3& r2_cross,
                          const InverseMassScales& scales) {
    if (!(k > 0.0f)) return false;
    const Mat44& i1 = body1.inv_inertia;
    const Mat44& i2 = body2.inv_inertia;
    const float scale =
        body1.inv_mass.max_component() * scales.inv_mass1 +
        body2.inv_mass.max_component() * scales.inv_mass2 +
        r1_cross.length_sq() * (i1(0, 0) + i1(1, 1) + i1(2, 2)) * scales.inv_inertia1 +
        r2_cross.length_sq() * (i2(0, 0) + i2(1, 1) + i2(2, 2)) * scales.inv_inertia2;
    return k > k_min_relative_k * scale;
  }
  static constexpr float k_min_relative_k = 1.0e-8f;

  // Packed (12 bytes each, 88 in all instead of 112): the contact solver streams thousands of
  // these per iteration and is bound by memory; a Vec3 made from a Float3 holds the same
  // values, so the results are bit-identical.
  Float3 r1_cross_axis_;
  Float3 r2_cross_axis_;
  Float3 linear1_;   // M1⁻¹·axis
  Float3 linear2_;   // M2⁻¹·axis
  Float3 angular1_;  // I1⁻¹·(r1 × axis)
  Float3 angular2_;  // I2⁻¹·(r2 × axis)
  ConstraintRow row_;
};

}  // namespace atl
