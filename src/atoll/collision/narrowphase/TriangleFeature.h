#pragma once
// Active-edge handling shared by collide_shapes and cast_shape against meshes and height
// fields (see shape/ActiveEdges.h): a contact normal that leans away from a triangle's face
// normal is only trusted when the contact lies on an active edge or on a vertex of one.

#include <cstdint>

#include "atoll/math/Vec3.h"

namespace atl {

/// Barycentric weight below which a contact point counts as on the opposite edge (and above
/// 1 minus it as on a vertex).
inline constexpr float k_triangle_feature_epsilon = 1.0e-4f;

/// The active-edge bits of triangle (v0, v2, v1) given those of (v0, v1, v2): a mirroring
/// scale reverses a triangle's winding, so edge 0-1 and edge 2-0 trade places.
uint8_t swap_winding_edges(uint8_t active_edges);

/// True when `point` (on or near triangle v0 v1 v2) lies on an active feature of the triangle:
/// an edge whose bit is set in `active_edges` (k_active_edge_01 / _12 / _20), or a vertex with
/// at least one active edge. The interior and inactive edges and vertices give false.
bool on_active_triangle_feature(const Vec3& v0, const Vec3& v1, const Vec3& v2,
                                uint8_t active_edges, const Vec3& point);

/// The contact normal to use against a triangle: `normal` (unit, from the other shape towards
/// the triangle) as it is when it lies within the cone of cosine `cone_cos` around
/// -face_normal or when the contact `point` is on an active feature; otherwise -face_normal.
/// `face_normal` is the triangle's unit normal on the other shape's side.
Vec3 active_edge_normal(const Vec3& v0, const Vec3& v1, const Vec3& v2, uint8_t active_edges,
                        const Vec3& face_normal, const Vec3& point, const Vec3& normal,
                        float cone_cos);

}  // namespace atl
