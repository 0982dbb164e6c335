#include "atoll/collision/narrowphase/ManifoldBuilder.h"

#include <cmath>

#include "atoll/geometry/Clipping.h"

namespace atl {

namespace {

/// Below this |normal · face normal| (unit vectors) a face is seen edge-on along the contact
/// normal: projecting onto it would divide by almost zero, so the deepest pair is used.
constexpr float k_min_face_alignment = 1.0e-3f;
/// Depths (m) closer than this to the deepest count as equally deep in the reduction.
constexpr float k_reduction_depth_tie = 1.0e-4f;
/// Sine of the largest angle between two edges that still counts as parallel (about 3°): only
/// then can two edges touch along a segment rather than at a point.
constexpr float k_parallel_edge_sin = 0.05f;

/// Newell's normal of a planar polygon (not normalized), relative to its first vertex so that
/// polygons far from the origin lose no precision.
Vec3 polygon_normal(const SupportingFace& face) {
  Vec3 n = Vec3::zero();
  const Vec3 origin = face[0];
  for (size_t i = 1; i + 1 < face.size(); ++i) n += (face[i] - origin).cross(face[i + 1] - origin);
  return n;
}

/// Face 2 clipped against face 1 along `normal` (see manifold_between_faces); empty when the
/// faces can only touch at a point.
void clip_faces(const SupportingFace& face1, const SupportingFace& face2, const Vec3& normal,
                Polygon& out) {
  out.clear();
  if (face1.size() >= 3) {
    // Polygon, or a segment (2 vertices), clipped by the side planes of face 1.
    clip_polygon_vs_polygon(face2, face1, normal, out);
    return;
  }
  if (face2.size() >= 3) {
    clip_polygon_vs_edge(face2, face1[0], face1[1], normal, out);
    return;
  }
  // Two edges touch along a segment only when parallel; then face 2 is clipped to the slab
  // between the planes through face 1's end points.
  const Vec3 edge1 = face1[1] - face1[0];
  const Vec3 edge2 = face2[1] - face2[0];
  if (edge1.cross(edge2).length_sq() >
      square(k_parallel_edge_sin) * edge1.length_sq() * edge2.length_sq())
    return;
  Polygon half;
  clip_polygon_vs_plane(face2, face1[0], edge1, half);
  clip_polygon_vs_plane(half, face1[1], -edge1, out);
}

/// Signed area (×2) of triangle a b c seen along `normal`.
float signed_area2(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& normal) {
  return (b - a).cross(c - a).dot(normal);
}

/// Area (×2) of the convex hull of four coplanar points seen along `normal`. Four points are
/// either in convex position (the hull is the quadrilateral of one of the three cyclic orders,
/// which has the largest |shoelace| area) or one lies inside the triangle of the other three
/// (the hull is the largest of the four triangles); the maximum covers both.
float hull_area2(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d, const Vec3& normal) {
  const float abc = signed_area2(a, b, c, normal);
  const float abd = signed_area2(a, b, d, normal);
  const float acd = signed_area2(a, c, d, normal);
  const float bcd = signed_area2(b, c, d, normal);
  // Shoelace areas of the cyclic orders a b c d, a b d c and a c b d, fanned from a.
  const float q0 = std::fabs(abc + acd);
  const float q1 = std::fabs(abd - acd);
  const float q2 = std::fabs(abd - abc);
  float best = std::fmax(q0, std::fmax(q1, q2));
  best = std::fmax(best, std::fmax(std::fabs(abc), std::fabs(abd)));
  return std::fmax(best, std::fmax(std::fabs(acd), std::fabs(bcd)));
}

}  // namespace

void manifold_between_faces(const Vec3& point_on_1, const Vec3& point_on_2, const Vec3& normal,
                            float max_separation, const SupportingFace& face1,
                            const SupportingFace& face2, ContactPoints& io_points) {
  const size_t old_size = io_points.size();
  if (face1.size() >= 2 && face2.size() >= 2) {
    Polygon clipped;
    clip_faces(face1, face2, normal, clipped);
    // Plane of face 1, oriented along the normal; an edge's plane contains the edge and is as
    // close to perpendicular to the normal as the edge allows.
    Vec3 plane_normal;
    if (face1.size() >= 3) {
      plane_normal = polygon_normal(face1);
    } else {
      const Vec3 edge = face1[1] - face1[0];
      plane_normal = edge.cross(normal).cross(edge);
    }
    const float len = plane_normal.length();
    if (len > 0.0f) {
      plane_normal /= len;
      if (plane_normal.dot(normal) < 0.0f) plane_normal = -plane_normal;
      const float alignment = plane_normal.dot(normal);
      if (alignment > k_min_face_alignment) {
        const Vec3& origin = face1[0];
        for (const Vec3& p2 : clipped) {
          // Distance from face 1's plane to p2 along the normal: > 0 in front (separated).
          const float separation = (p2 - origin).dot(plane_normal) / alignment;
          if (separation <= max_separation && io_points.size() < k_max_contact_points)
            io_points.push_back(p2 - normal * separation, p2);
        }
      }
    }
  }
  if (io_points.size() == old_size) io_points.push_back(point_on_1, point_on_2);
}

void reduce_manifold(ContactPoints& io_points, const Vec3& normal) {
  const size_t n = io_points.size();
  if (n <= static_cast<size_t>(k_max_manifold_points)) return;
  bool used[k_max_contact_points] = {};
  // Points are compared in the contact plane (on shape 1; the normal component drops out of the
  // cross products and is removed explicitly for distances).
  const auto planar = [&](size_t i) {
    const Vec3& p = io_points.on_1[i];
    return p - normal * p.dot(normal);
  };
  // The deepest pair first: it carries the penetration the solver must resolve. Depths equal
  // up to round-off (a flat face resting on another) are a tie, broken by the distance from the
  // centroid: otherwise an interior point could win and the outline would be lost.
  float max_depth = -k_float_max;
  Vec3 centroid = Vec3::zero();
  for (size_t i = 0; i < n; ++i) {
    const float depth = (io_points.on_1[i] - io_points.on_2[i]).dot(normal);
    max_depth = depth > max_depth ? depth : max_depth;
    centroid += planar(i);
  }
  centroid /= static_cast<float>(n);
  size_t i0 = 0;
  float best = -1.0f;
  for (size_t i = 0; i < n; ++i) {
    const float depth = (io_points.on_1[i] - io_points.on_2[i]).dot(normal);
    if (depth < max_depth - k_reduction_depth_tie) continue;
    const float distance_sq = (planar(i) - centroid).length_sq();
    if (distance_sq > best) {
      best = distance_sq;
      i0 = i;
    }
  }
  used[i0] = true;
  const auto pick = [&](auto&& score) {
    size_t chosen = n;
    float chosen_score = -1.0f;
    for (size_t i = 0; i < n; ++i) {
      if (used[i]) continue;
      const float s = score(i);
      if (s > chosen_score) {
        chosen_score = s;
        chosen = i;
      }
    }
    used[chosen] = true;
    return chosen;
  };
  const Vec3 q0 = planar(i0);
  const size_t i1 = pick([&](size_t i) { return (planar(i) - q0).length_sq(); });
  const Vec3 q1 = planar(i1);
  const size_t i2 =
      pick([&](size_t i) { return std::fabs(signed_area2(q0, q1, planar(i), normal)); });
  const Vec3 q2 = planar(i2);
  const size_t i3 = pick([&](size_t i) { return hull_area2(q0, q1, q2, planar(i), normal); });

  ContactPoints reduced;
  for (size_t i : {i0, i1, i2, i3}) reduced.push_back(io_points.on_1[i], io_points.on_2[i]);
  io_points = reduced;
}

}  // namespace atl
