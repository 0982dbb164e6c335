#pragma once
// Closest point to the origin on a simplex (point, segment, triangle, tetrahedron), with the
// barycentric weights of the result and the set of vertices that span the feature it lies on.
// GJK keeps only those vertices; the weights give the witness points on both shapes.

#include <cstdint>

#include "atoll/math/Vec3.h"

namespace atl {

/// Closest point of a simplex to the origin.
struct SimplexClosestPoint {
  /// The closest point (m).
  Vec3 point;
  /// Barycentric weights: point = Σ weights[i]·vertex[i]; 0 for vertices not in vertex_set.
  float weights[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  /// Bit i set when vertex i spans the feature the point lies on (vertex, edge, face, inside).
  uint32_t vertex_set = 0;
};

namespace detail {

/// Squared sine of the angle below which a triangle or tetrahedron counts as flat. A looser
/// bound than float epsilon: the Voronoi tests lose all precision long before the area is 0.
inline constexpr float k_simplex_degenerate_sin_sq = 1.0e-10f;

/// A single vertex (weight 1) with vertex bit(s) `bit`.
inline SimplexClosestPoint closest_vertex(const Vec3& v, uint32_t bit) {
  SimplexClosestPoint r;
  r.point = v;
  r.vertex_set = bit;
  for (int i = 0; i < 4; ++i) r.weights[i] = (bit >> i) & 1u ? 1.0f : 0.0f;
  return r;
}

/// Closest point to the origin on segment a b; a and b are vertex `index_a`, `index_b`.
inline SimplexClosestPoint closest_on_segment(const Vec3& a, const Vec3& b, int index_a,
                                              int index_b) {
  const Vec3 ab = b - a;
  const float ab_len_sq = ab.length_sq();
  const float along = -a.dot(ab);
  // Degenerate segments fall into a vertex region: along ≤ 0 or along ≥ 0 = ab_len_sq.
  if (along <= 0.0f) return closest_vertex(a, 1u << index_a);
  if (along >= ab_len_sq) return closest_vertex(b, 1u << index_b);
  const float t = along / ab_len_sq;
  SimplexClosestPoint r;
  r.point = a + ab * t;
  r.weights[index_a] = 1.0f - t;
  r.weights[index_b] = t;
  r.vertex_set = (1u << index_a) | (1u << index_b);
  return r;
}

/// Closest point to the origin on triangle a b c; the vertices are reported as bits i_a, i_b, i_c.
inline SimplexClosestPoint closest_on_triangle(const Vec3& a, const Vec3& b, const Vec3& c, int i_a,
                                               int i_b, int i_c) {
  const Vec3 ab = b - a;
  const Vec3 ac = c - a;
  const Vec3 normal = ab.cross(ac);
  const float normal_len_sq = normal.length_sq();
  if (normal_len_sq <= k_simplex_degenerate_sin_sq * ab.length_sq() * ac.length_sq()) {
    // Flat triangle: the closest point is on one of its edges.
    SimplexClosestPoint best = closest_on_segment(a, b, i_a, i_b);
    SimplexClosestPoint e = closest_on_segment(a, c, i_a, i_c);
    if (e.point.length_sq() < best.point.length_sq()) best = e;
    e = closest_on_segment(b, c, i_b, i_c);
    if (e.point.length_sq() < best.point.length_sq()) best = e;
    return best;
  }
  // Voronoi regions tested in order: vertices, then edges, then the face (Ericson, RTCD §5.1.5).
  const float d1 = -ab.dot(a);
  const float d2 = -ac.dot(a);
  if (d1 <= 0.0f && d2 <= 0.0f) return closest_vertex(a, 1u << i_a);
  const float d3 = -ab.dot(b);
  const float d4 = -ac.dot(b);
  if (d3 >= 0.0f && d4 <= d3) return closest_vertex(b, 1u << i_b);
  const float d5 = -ab.dot(c);
  const float d6 = -ac.dot(c);
  if (d6 >= 0.0f && d5 <= d6) return closest_vertex(c, 1u << i_c);
  SimplexClosestPoint r;
  const float vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
    const float t = d1 / (d1 - d3);
    r.point = a + ab * t;
    r.weights[i_a] = 1.0f - t;
    r.weights[i_b] = t;
    r.vertex_set = (1u << i_a) | (1u << i_b);
    return r;
  }
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
    const float t = d2 / (d2 - d6);
    r.point = a + ac * t;
    r.weights[i_a] = 1.0f - t;
    r.weights[i_c] = t;
    r.vertex_set = (1u << i_a) | (1u << i_c);
    return r;
  }
  const float va = d3 * d6 - d5 * d4;
  if (va <= 0.0f && d4 - d3 >= 0.0f && d5 - d6 >= 0.0f) {
    const float t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    r.point = b + (c - b) * t;
    r.weights[i_b] = 1.0f - t;
    r.weights[i_c] = t;
    r.vertex_set = (1u << i_b) | (1u << i_c);
    return r;
  }
  // Inside the face. Projecting onto the plane is more precise than summing the weighted
  // vertices when the triangle is far from the origin compared to its size.
  r.point = normal * (normal.dot(a) / normal_len_sq);
  const float inv_sum = 1.0f / (va + vb + vc);
  r.weights[i_b] = vb * inv_sum;
  r.weights[i_c] = vc * inv_sum;
  r.weights[i_a] = 1.0f - r.weights[i_b] - r.weights[i_c];
  r.vertex_set = (1u << i_a) | (1u << i_b) | (1u << i_c);
  return r;
}

/// True when the origin is on the other side of plane a b c than `opposite`, or when the
/// tetrahedron is too flat to tell (then the face must be tested).
inline bool origin_outside_face(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& opposite) {
  const Vec3 normal = (b - a).cross(c - a);
  const float side_origin = -normal.dot(a);
  const Vec3 to_opposite = opposite - a;
  const float side_opposite = normal.dot(to_opposite);
  if (square(side_opposite) <=
      k_simplex_degenerate_sin_sq * normal.length_sq() * to_opposite.length_sq())
    return true;
  return side_origin * side_opposite < 0.0f;
}

}  // namespace detail

/// Closest point to the origin on the segment a b (vertex bits 0, 1).
inline SimplexClosestPoint closest_point_to_origin_on_segment(const Vec3& a, const Vec3& b) {
  return detail::closest_on_segment(a, b, 0, 1);
}

/// Closest point to the origin on the triangle a b c (vertex bits 0, 1, 2); a flat triangle
/// is handled as its edges.
inline SimplexClosestPoint closest_point_to_origin_on_triangle(const Vec3& a, const Vec3& b,
                                                               const Vec3& c) {
  return detail::closest_on_triangle(a, b, c, 0, 1, 2);
}

/// Closest point to the origin on the solid tetrahedron a b c d (vertex bits 0..3); the origin
/// itself with vertex_set 0b1111 when it is inside. A flat tetrahedron is handled as its faces.
inline SimplexClosestPoint closest_point_to_origin_on_tetrahedron(const Vec3& a, const Vec3& b,
                                                                  const Vec3& c, const Vec3& d) {
  SimplexClosestPoint best;
  float best_len_sq = k_float_max;
  const auto consider = [&](const SimplexClosestPoint& candidate) {
    const float len_sq = candidate.point.length_sq();
    if (len_sq < best_len_sq) {
      best_len_sq = len_sq;
      best = candidate;
    }
  };
  // The closest point of an outside origin lies on a face whose plane the origin is in front
  // of; faces it is behind can be skipped.
  if (detail::origin_outside_face(a, b, c, d))
    consider(detail::closest_on_triangle(a, b, c, 0, 1, 2));
  if (detail::origin_outside_face(a, c, d, b))
    consider(detail::closest_on_triangle(a, c, d, 0, 2, 3));
  if (detail::origin_outside_face(a, d, b, c))
    consider(detail::closest_on_triangle(a, d, b, 0, 3, 1));
  if (detail::origin_outside_face(b, d, c, a))
    consider(detail::closest_on_triangle(b, d, c, 1, 3, 2));
  if (best_len_sq < k_float_max) return best;

  // Inside: weights are ratios of signed volumes (the origin replaces one vertex each).
  SimplexClosestPoint r;
  r.point = Vec3::zero();
  r.vertex_set = 0b1111u;
  const Vec3 ab = b - a, ac = c - a, ad = d - a;
  const float volume = ab.dot(ac.cross(ad));
  const Vec3 ao = -a;
  r.weights[1] = ao.dot(ac.cross(ad)) / volume;
  r.weights[2] = ab.dot(ao.cross(ad)) / volume;
  r.weights[3] = ab.dot(ac.cross(ao)) / volume;
  r.weights[0] = 1.0f - r.weights[1] - r.weights[2] - r.weights[3];
  return r;
}

/// Closest point to the origin on the simplex of `count` (1..4) vertices.
inline SimplexClosestPoint closest_point_to_origin_on_simplex(const Vec3* vertices, int count) {
  switch (count) {
    case 1:
      return detail::closest_vertex(vertices[0], 1u);
    case 2:
      return closest_point_to_origin_on_segment(vertices[0], vertices[1]);
    case 3:
      return closest_point_to_origin_on_triangle(vertices[0], vertices[1], vertices[2]);
    default:
      ATOLL_ASSERT(count == 4, "simplex needs 1 to 4 vertices");
      return closest_point_to_origin_on_tetrahedron(vertices[0], vertices[1], vertices[2],
                                                    vertices[3]);
  }
}

/// Point of segment a b closest to p.
inline Vec3 closest_point_on_segment(const Vec3& p, const Vec3& a, const Vec3& b) {
  return p + closest_point_to_origin_on_segment(a - p, b - p).point;
}

/// Point of triangle a b c closest to p.
inline Vec3 closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  return p + closest_point_to_origin_on_triangle(a - p, b - p, c - p).point;
}

}  // namespace atl
