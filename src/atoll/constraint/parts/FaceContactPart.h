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

 private:
  // Generalised velocity g = (normal velocity at the centroid, tilt rates about t1 and t2).
  void generalised_velocity(const SolverBody& body1, const SolverBody& body2, float g[3]) const;

  // Row k of the block Jacobian is [-lin_k, -ang1_k, lin_k, ang2_k] with lin_0 = normal and
  // lin_1 = lin_2 = 0; a point's row is row 0 + dx·row 1 + dy·row 2.
  Vec3 normal_;
  Vec3 angular1_[3];  // ang1_k
  Vec3 angular2_;     // ang2_0; ang2_1 = ang1_1 and ang2_2 = ang1_2 (tilts)
  // ang2_k: the tilt rows are the same on both bodies.
  const Vec3& angular2(int k) const { return k == 0 ? angular2_ : angular1_[k]; }
  Vec3 linear1_;            // M1⁻¹·normal (scaled)
  Vec3 linear2_;            // M2⁻¹·normal (scaled)
  Vec3 inv_i_angular1_[3];  // I1⁻¹·ang1_k (scaled)
  Vec3 inv_i_angular2_[3];  // I2⁻¹·ang2_k (scaled)
  float a_[3][3] = {};      // J M⁻¹ Jᵀ of the three rows
  float inv_a_[3][3] = {};  // its inverse
  float target_[3] = {};    // generalised target velocity (affine fit of the point targets)
  float distribute_[k_max_points][3] = {};  // Dᵀ(DDᵀ)⁻¹: generalised impulse → point impulses
  float offset_[k_max_points][2] = {};      // point coordinates on the face (m, from centroid)
  float null_[k_max_points] = {};           // D·z = 0 (4 points): redistributes, moves nothing
  uint32_t num_points_ = 0;
};

}  // namespace atl
