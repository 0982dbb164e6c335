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
