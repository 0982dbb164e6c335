#pragma once
// Polygon clipping for contact manifolds: the supporting face of one shape is clipped against
// the face (or edge) of the other, and the points that survive become contact points.
//
// Polygons are convex, their vertices in order around the boundary (either winding), with no
// heap allocation. A 2-vertex polygon is a segment and a 1-vertex polygon a point. A result
// has at most 32 vertices: clipping can add one vertex per plane, and vertices beyond the
// capacity are dropped (the result then stays inside the exact clip, just coarser).

#include "atoll/core/StaticArray.h"
#include "atoll/geometry/AABox.h"

namespace atl {

/// A convex polygon (or segment, or point) of up to 32 vertices (m), in boundary order.
using Polygon = StaticArray<Vec3, 32>;

/// Keeps the part of `polygon` on the side `plane_normal` points to: (p - plane_point)·normal
/// ≥ 0 (Sutherland–Hodgman). `plane_normal` need not be normalized. `out` must not be `polygon`.
void clip_polygon_vs_plane(const Polygon& polygon, const Vec3& plane_point,
                           const Vec3& plane_normal, Polygon& out);

/// Keeps the part of `polygon` inside the prism that `clipping_polygon` sweeps along
/// `clipping_normal`: inside every edge plane (the plane through the edge that contains
/// clipping_normal). Either winding of clipping_polygon works; zero-length edges clip nothing.
void clip_polygon_vs_polygon(const Polygon& polygon, const Polygon& clipping_polygon,
                             const Vec3& clipping_normal, Polygon& out);

/// For a 2-vertex face: the part of `polygon` inside the strip that the edge edge_v1 edge_v2
/// sweeps along `clipping_normal`. `out` gets the 0, 1 or 2 end points of that chord of the
/// polygon (points on the polygon). Empty when the edge is parallel to clipping_normal.
void clip_polygon_vs_edge(const Polygon& polygon, const Vec3& edge_v1, const Vec3& edge_v2,
                          const Vec3& clipping_normal, Polygon& out);

/// Keeps the part of `polygon` inside `box` (faces included).
void clip_polygon_vs_aabox(const Polygon& polygon, const AABox& box, Polygon& out);

}  // namespace atl
