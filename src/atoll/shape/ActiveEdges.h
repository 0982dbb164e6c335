#pragma once
// Active edges of triangle meshes and height fields. A contact on the interior of a flat
// surface made of several triangles can have its normal computed against a triangle edge,
// which makes boxes bump when they slide over the seam. The collision code only trusts edge
// normals for edges marked active: boundary edges and edges where the surface bends by more
// than a threshold angle (convex or concave); edges between (nearly) coplanar triangles are
// inactive and the collision code uses the face normal there instead.

#include <cstdint>

#include "atoll/math/Math.h"
#include "atoll/math/Vec3.h"

namespace atl {

/// Bit of the edge from vertex 0 to vertex 1 in a triangle's active-edge mask.
inline constexpr uint8_t k_active_edge_01 = 1u << 0;
/// Bit of the edge from vertex 1 to vertex 2.
inline constexpr uint8_t k_active_edge_12 = 1u << 1;
/// Bit of the edge from vertex 2 to vertex 0.
inline constexpr uint8_t k_active_edge_20 = 1u << 2;
/// All three edges active (an isolated triangle).
inline constexpr uint8_t k_active_edge_all = 0x7u;

/// Default cosine of the bend angle above which an edge is active: cos(5°).
inline constexpr float k_default_active_edge_cos_threshold = 0.996194698f;

/// True when the edge shared by two triangles with unit normals n1 and n2 is active, i.e. the
/// surface bends there by more than acos(cos_threshold). Back-to-back triangles (normals
/// opposite, the two sides of a thin wall) count as bent by 180°, so their edge is active.
inline bool is_edge_active(const Vec3& n1, const Vec3& n2, float cos_threshold) {
  return n1.dot(n2) < cos_threshold;
}

}  // namespace atl
