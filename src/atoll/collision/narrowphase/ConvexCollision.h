#pragma once
// The leaf routines of collide_shapes: a convex shape against a convex shape, and a convex
// shape against the triangles of a mesh or height field. The dispatch (CollideShapes.cpp)
// reduces every pair of shapes to these.

#include "atoll/collision/narrowphase/CollideShapeSettings.h"
#include "atoll/collision/narrowphase/ContactCollector.h"
#include "atoll/collision/narrowphase/ManifoldBuilder.h"
#include "atoll/collision/narrowphase/ShapeInstance.h"

namespace atl {

/// Cosine above which manifolds of one convex against several triangles are merged into one
/// (their normals are within about 5° of each other).
inline constexpr float k_merge_manifold_normal_cos = 0.996f;

/// Convex `a` against convex `b`: GJK on the cores, EPA when they overlap, then the manifold
/// from the supporting faces. Reports at most one manifold.
void collide_convex_vs_convex(const ShapeInstance& a, const ShapeInstance& b,
                              const CollideShapeSettings& settings, ContactCollector& collector);

/// The manifold of convex `a` and convex `b` (leaf instances, not cut) that touch along `axis`
/// (unit, from A to B, in A's local space) by `depth` (m, > 0 overlapping), with the deepest
/// points `point_a` on A's surface and `point_b` on B's (A's local space): the supporting faces
/// clipped and reduced (settings.collect_faces) or the single pair, sent to the collector in
/// world space when it accepts the depth. `b_to_a` is A's inverse transform times B's.
void emit_convex_contact(const ShapeInstance& a, const ShapeInstance& b, const Mat44& b_to_a,
                         const Vec3& axis, float depth, const Vec3& point_a, const Vec3& point_b,
                         const CollideShapeSettings& settings, ContactCollector& collector);

/// Convex `a` against the front faces of the triangles of `b` (a TriangleMeshShape or
/// HeightFieldShape) that overlap a's bounds, with active-edge normals; manifolds with nearly
/// parallel normals are merged and reduced again.
void collide_convex_vs_triangles(const ShapeInstance& a, const ShapeInstance& b,
                                 const CollideShapeSettings& settings, ContactCollector& collector);

/// Sends a manifold computed in the space of `transform_a` (shape 1's instance transform) to
/// the collector in world space. `points` must hold at most k_max_manifold_points pairs.
void emit_manifold(const Mat44& transform_a, const Vec3& normal, float penetration_depth,
                   const SubShapeID& id1, const SubShapeID& id2, const ContactPoints& points,
                   ContactCollector& collector);

}  // namespace atl
