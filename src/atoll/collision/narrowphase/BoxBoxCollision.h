#pragma once
// Box against box by the separating axis test (SAT) instead of GJK + EPA. Two boxes overlap
// exactly when their projections overlap on all 15 candidate axes (the 3 face normals of each
// and the 9 cross products of their edge directions), and their penetration depth is the
// smallest of those overlaps, along that axis. SAT first runs on the boxes' cores (shrunk by
// the convex radius), whose overlap decides the case as GJK on the cores does in the GJK + EPA
// path: cores apart by more than the radii (plus the speculative distance) is no contact; cores
// overlapping is a penetration, whose depth and normal are those of the full boxes (for a
// rounded box its sharp outer box, the shape EPA expands: the same on a face axis, where the
// full overlap is the cores' plus both radii, deeper on an edge axis). That is exact where EPA
// iterates to a tolerance, and much cheaper; the manifold is then built as the GJK + EPA path
// builds it (ConvexCollision.h: supporting faces clipped along the normal, then reduced).

#include "atoll/collision/narrowphase/CollideShapeSettings.h"
#include "atoll/collision/narrowphase/ContactCollector.h"
#include "atoll/collision/narrowphase/ShapeInstance.h"

namespace atl {

/// An edge-edge axis is only taken when its overlap is smaller than the best face axis's by
/// more than this (m): nearly equal depths (a box resting flat on another, whose edges cross
/// at the face normal) keep the face normal, which does not depend on round-off.
inline constexpr float k_box_edge_axis_bias = 1.0e-5f;

/// Sine² below which two edge directions count as parallel (about 1 mrad): their cross product
/// is too short to give a reliable axis, and the face axes cover the contact.
inline constexpr float k_box_parallel_edges_sin_sq = 1.0e-6f;

/// Result of the separating axis test on two box cores in A's local space.
struct BoxSatResult {
  /// Smallest overlap (m) of the cores' projections over the tested axes; negative when the
  /// cores are apart along `axis` (then a lower bound of minus their distance).
  float overlap = 0.0f;
  /// The axis of that overlap (unit, A's local space, pointing from A to B).
  Vec3 axis;
  /// 0–2: A's face normal x/y/z; 3–5: B's face normal x/y/z; 6 + 3·i + j: A's edge i × B's
  /// edge j.
  int feature = 0;
};

/// Separating axis test on two boxes of core half extents `core_a`, `core_b` (m, ≥ 0), B placed
/// in A's local space by `b_to_a` (rigid). Stops early and returns the separating axis as soon
/// as one axis separates the cores by more than `max_gap` (m).
BoxSatResult box_sat(const Vec3& core_a, const Vec3& core_b, const Mat44& b_to_a, float max_gap);

/// Box `a` against box `b` (both BoxShape instances): when SAT finds the cores overlapping, the
/// full boxes' SAT depth and normal, with the manifold built from the supporting faces; nothing
/// when SAT separates the cores by more than the convex radii plus
/// settings.max_separation_distance. Cores apart by less than that (a
/// speculative or rounded-edge contact, whose distance SAT only bounds from below) and huge
/// boxes (k_large_box_half_extent, which the GJK path cuts down first) take
/// collide_convex_vs_convex. Reports at most one manifold.
void collide_box_vs_box(const ShapeInstance& a, const ShapeInstance& b,
                        const CollideShapeSettings& settings, ContactCollector& collector);

}  // namespace atl
