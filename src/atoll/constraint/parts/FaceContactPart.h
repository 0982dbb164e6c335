#pragma once
// The non-penetration rows of a face contact — three or four contact points that share a
// normal and lie in one plane, as a box resting on a box — solved as one block.
//
// Why: the relative normal velocity of coplanar points is an affine function over the face, so
// the points' rows span only three degrees of freedom (push along the normal, tilt about the two
// tangents) and the 4×4 effective-mass matrix is singular. Gauss-Seidel over such points
// converges slowly and favours the point it visits first: the first corner takes more of the
// load, the bodies tilt a little, friction turns the tilt into sideways motion, and a ten-box
// tower leans by centimetres before it falls asleep (tests/laws/StackingLawsTest.cpp). Solving
// the three degrees of freedom exactly removes the bias: one step drives every point of the
// pair to its target at once, with no rotation left over.
//
// The block works on the per-point accumulated impulses λ_i, so warm starting, friction
// budgets and the impulse cache stay per point. A step is accepted only when every λ_i stays
// ≥ 0 (then it is the exact solution of the pair's complementarity problem); otherwise — the
// centre of pressure would leave the face, as when a box starts to tip — the caller solves the
// points one by one as before.

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "atoll/constraint/SolverBody.h"
#include "atoll/constraint/parts/AxisConstraintPart.h"

namespace atl {

class ContactLanes;

class FaceContactPart {
 public:
  static constexpr uint32_t k_max_points = 4;

  /// Prepares the block for `num_points` contact points at lever arms r1[i] (from body 1's
  /// centre of mass) and r2[i] (from body 2's), sharing the unit `normal` and its tangents
  /// t1, t2 (orthonormal, t2 = normal × t1), with per-point target normal velocities (m/s).
  /// Leaves the part inactive when the block does not apply: fewer than three points, points
  /// (nearly) on a line, targets that are not affine over the face (a mix of resting and
  /// speculative points), or bodies that cannot tilt (locked rotations).
  void calculate_constraint_properties(const SolverBody& body1, const SolverBody& body2,
                                       const Vec3* r1, const Vec3* r2, const float* targets,
                                       uint32_t num_points, const Vec3& normal, const Vec3& t1,
                                       const Vec3& t2, const InverseMassScales& scales = {});

  /// True when solve_velocity_constraint may be used this step.
  bool is_active() const { return num_points_ != 0; }

  enum class Outcome : uint8_t {
    /// The block was solved; nothing changed more than AxisConstraintPart::k_min_velocity_change.
    Settled,
    /// The block was solved and impulses were applied.
    Applied,
    /// The solution would pull on a point (λ_i < 0): nothing was applied; solve point by point.
    NotPushOnly,
  };

  /// One block step on the accumulated impulses `lambdas[i]` (N·s, in/out): drives the
  /// push and both tilts to their targets and applies the change to the bodies.
  Outcome solve_velocity_constraint(SolverBody& body1, SolverBody& body2, float* lambdas) const;

  // The pieces of a block step, for solving several blocks at once (a stack of face contacts,
  // solver/ContactStackChain.cpp). Only valid while is_active().

  /// Generalised target minus generalised velocity (push m/s, tilt rates rad/s).
  void velocity_error(const SolverBody& body1, const SolverBody& body2, float out[3]) const;
  /// The block's J M⁻¹ Jᵀ (3×3).
  void effective_mass(double out[3][3]) const;
  /// J_this M_s⁻¹ J_otherᵀ through the body s both blocks act on: this block's body 2 when
  /// `via_body2`, else its body 1; likewise `other_via_body2` for `other`.
  void coupling(bool via_body2, const FaceContactPart& other, bool other_via_body2,
                double out[3][3]) const;
  /// Point impulses after adding the generalised `impulse` to `lambdas`; false when no split
  /// of it pushes at every point.
  bool push_only_lambdas(const float impulse[3], const float* lambdas, float* new_lambdas) const;
  /// Applies the change from `lambdas` to `new_lambdas` to the bodies and stores it in `lambdas`.
  Outcome apply_lambdas(SolverBody& body1, SolverBody& body2, float* lambdas,
                        const float* new_lambdas) const;

  // The wide contact solver packs these parts into SIMD lanes (ContactLanes.h).
  friend class ContactLanes;

 private:
  // Points closer to a line than this (det of their second moment / trace², 1e-3 ≈ a 1:30 strip)
  // are an edge contact: two tilts are not both defined, so the points are solved one by one.
  static constexpr float k_min_face_flatness = 1.0e-3f;
  // A face smaller than this (sum of squared distances from the centroid, m²) has no tilt worth
  // solving.
  static constexpr float k_min_face_spread_sq = 1.0e-6f;
  // How far (m/s) a point's target may be from an affine function over the face. Resting points
  // have target 0 and a slightly tilted face has targets affine in position; a mix of resting and
  // speculative points is not, and is solved point by point.
  static constexpr float k_max_target_misfit = 1.0e-4f;

  // Changes of the point impulses below this fraction of the largest one are round-off (float has
  // 24 bits, ≈ 6e-8; a few operations lose a few more).
  static constexpr float k_min_relative_change = 1.0e-5f;

  // A = J M⁻¹ Jᵀ of the three rows from their dot products — dots1[k][l] = ang1_k·I1⁻¹ang1_l,
  // dots2[k][l] = ang2_k·I2⁻¹ang2_l (scaled), `linear` = normal·(M1⁻¹ + M2⁻¹)·normal — summed and
  // inverted in double. Returns false (and writes nothing) when A is singular.
  static bool invert_block(const float (&dots1)[3][3], const float (&dots2)[3][3], float linear,
                           float (&a_out)[3][3], float (&inv_a_out)[3][3]);
  // The null vector of four points at face coordinates `offset` (D z = 0), its largest entry 1.
  static void null_vector(const float (&offset)[k_max_points][2], float (&null)[k_max_points]);

  // Generalised velocity g = (normal velocity at the centroid, tilt rates about t1 and t2).
  void generalised_velocity(const SolverBody& body1, const SolverBody& body2, float g[3]) const;

  // Row k of the block Jacobian is [-lin_k, -ang1_k, lin_k, ang2_k] with lin_0 = normal and
  // lin_1 = lin_2 = 0; a point's row is row 0 + dx·row 1 + dy·row 2.
  // Vectors packed as Float3 (144 bytes instead of 192): the contact solver streams these every
  // iteration and is bound by memory; the Vec3 made from a Float3 holds the same values.
  Float3 normal_;
  Float3 angular1_[3];  // ang1_k
  Float3 angular2_;     // ang2_0; ang2_1 = ang1_1 and ang2_2 = ang1_2 (tilts)
  // ang2_k: the tilt rows are the same on both bodies.
  Vec3 angular2(int k) const { return Vec3(k == 0 ? angular2_ : angular1_[k]); }
  Float3 linear1_;            // M1⁻¹·normal (scaled)
  Float3 linear2_;            // M2⁻¹·normal (scaled)
  Float3 inv_i_angular1_[3];  // I1⁻¹·ang1_k (scaled)
  Float3 inv_i_angular2_[3];  // I2⁻¹·ang2_k (scaled)
  float a_[3][3] = {};        // J M⁻¹ Jᵀ of the three rows
  float inv_a_[3][3] = {};    // its inverse
  float target_[3] = {};      // generalised target velocity (affine fit of the point targets)
  float distribute_[k_max_points][3] = {};  // Dᵀ(DDᵀ)⁻¹: generalised impulse → point impulses
  float offset_[k_max_points][2] = {};      // point coordinates on the face (m, from centroid)
  float null_[k_max_points] = {};           // D·z = 0 (4 points): redistributes, moves nothing
  uint32_t num_points_ = 0;
};

// Inline: the block step of solve_velocity_constraint and the stack solve share them, and
// compiled into the step as one piece they round exactly as the step did before they were split
// out (with -mfma, contraction depends on what is inlined).

inline bool FaceContactPart::push_only_lambdas(const float impulse[3], const float* lambdas,
                                               float* new_lambdas) const {
  float smallest = k_float_max;
  for (uint32_t i = 0; i < num_points_; ++i) {
    new_lambdas[i] = lambdas[i] + distribute_[i][0] * impulse[0] + distribute_[i][1] * impulse[1] +
                     distribute_[i][2] * impulse[2];
    smallest = std::min(smallest, new_lambdas[i]);
  }
  if (smallest >= 0.0f) return true;
  if (num_points_ != 4) return false;
  // Move along the null vector to the nearest load split that pushes everywhere, if any.
  float low = -k_float_max;
  float high = k_float_max;
  for (uint32_t i = 0; i < 4; ++i) {
    if (null_[i] > 0.0f)
      low = std::max(low, -new_lambdas[i] / null_[i]);
    else if (null_[i] < 0.0f)
      high = std::min(high, -new_lambdas[i] / null_[i]);
    else if (new_lambdas[i] < 0.0f)
      return false;
  }
  if (low > high) return false;
  const float shift = std::clamp(0.0f, low, high);
  for (uint32_t i = 0; i < 4; ++i)
    new_lambdas[i] = std::max(0.0f, new_lambdas[i] + shift * null_[i]);
  return true;
}

inline FaceContactPart::Outcome FaceContactPart::apply_lambdas(SolverBody& body1, SolverBody& body2,
                                                               float* lambdas,
                                                               const float* new_lambdas) const {
  // Apply what the point impulses actually changed (the null shift moves nothing, the clamp of
  // round-off below zero a little).
  float applied[3] = {0.0f, 0.0f, 0.0f};
  float old_lambdas[k_max_points];
  for (uint32_t i = 0; i < num_points_; ++i) {
    old_lambdas[i] = lambdas[i];
    const float delta = new_lambdas[i] - lambdas[i];
    applied[0] += delta;
    applied[1] += delta * offset_[i][0];
    applied[2] += delta * offset_[i][1];
    lambdas[i] = new_lambdas[i];
  }
  body1.linear_velocity -= Vec3(linear1_) * applied[0];
  body2.linear_velocity += Vec3(linear2_) * applied[0];
  body1.angular_velocity -= Vec3(inv_i_angular1_[0]) * applied[0] +
                            Vec3(inv_i_angular1_[1]) * applied[1] +
                            Vec3(inv_i_angular1_[2]) * applied[2];
  body2.angular_velocity += Vec3(inv_i_angular2_[0]) * applied[0] +
                            Vec3(inv_i_angular2_[1]) * applied[1] +
                            Vec3(inv_i_angular2_[2]) * applied[2];

  // The early exit's rule (AxisConstraintPart::is_significant): did any point's normal velocity
  // change by more than k_min_velocity_change? In a settled stack the block also sees round-off:
  // the point impulses of a small box cancel in its angular velocity to a few ulps, which its
  // large inverse inertia turns into corner velocities above that threshold, and neighbouring
  // blocks trade these ulps back and forth for ever. A change below k_min_relative_change of
  // the accumulated impulse is such round-off and does not count.
  float change[3];
  for (int k = 0; k < 3; ++k)
    change[k] = a_[k][0] * applied[0] + a_[k][1] * applied[1] + a_[k][2] * applied[2];
  float largest_change = 0.0f;
  float largest_lambda = 0.0f;
  for (uint32_t i = 0; i < num_points_; ++i) {
    largest_change = std::max(largest_change, std::fabs(new_lambdas[i] - old_lambdas[i]));
    largest_lambda = std::max(largest_lambda, new_lambdas[i]);
  }
  if (largest_change <= k_min_relative_change * largest_lambda) return Outcome::Settled;
  for (uint32_t i = 0; i < num_points_; ++i)
    if (std::fabs(change[0] + offset_[i][0] * change[1] + offset_[i][1] * change[2]) >
        AxisConstraintPart::k_min_velocity_change)
      return Outcome::Applied;
  return Outcome::Settled;
}

}  // namespace atl
