#pragma once
// 3D convex hull of a point cloud (quickhull with face merging). Points within `tolerance` of
// the hull count as on it, so coplanar and duplicate input gives clean polygon faces: a grid
// of points on a cube's surface becomes 8 vertices and 6 quads. The result holds every input
// point (contains(p, tolerance)), every face is planar within the tolerance and convex, and
// every vertex is behind every face plane. Points that all lie within `tolerance` of one plane
// give a flat hull: their 2D convex polygon, as two faces (front and back) on the same vertices.

#include <cstdint>
#include <span>
#include <vector>

#include "atoll/core/Result.h"
#include "atoll/math/Vec3.h"

namespace atl {

/// A convex polyhedron with polygon faces, as ConvexHullBuilder makes it.
struct ConvexHull {
  /// Hull vertices only (input points that are no corner are dropped), in input order.
  std::vector<Vec3> vertices;
  /// Plane: dot(normal, p) = distance (m), normal outward unit; indices in face_indices.
  struct Face {
    uint32_t first_index;
    uint32_t num_indices;
    Vec3 normal;
    float distance;
  };
  /// Coplanar triangles merged into one convex polygon face.
  std::vector<Face> faces;
  /// Vertex indices of all faces, counter-clockwise seen from outside.
  std::vector<uint32_t> face_indices;
  /// True when p is behind every face plane or at most `tolerance` (m) in front of it.
  bool contains(const Vec3& p, float tolerance) const;
  /// True for a flat hull (coplanar points): two faces, front and back, on one polygon.
  bool flat() const { return faces.size() == 2; }
};

/// Builds convex hulls.
class ConvexHullBuilder {
 public:
  /// Builds the hull; `tolerance` (m) is the distance below which a point counts as on a plane
  /// (raised to a few float ulps of the largest coordinate when smaller).
  static Result<ConvexHull> build(std::span<const Vec3> points, float tolerance = 1.0e-3f);
};

}  // namespace atl
