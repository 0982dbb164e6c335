#pragma once
// Ray versus primitive tests. Every function takes the ray origin + t·direction (direction need
// not be normalized) and returns the fraction t ≥ 0 of the first hit, 0 when the origin is
// inside the solid, or k_float_max when the ray misses. A zero direction hits only when the
// origin is inside.

#include <cmath>

#include "atoll/geometry/AABox.h"
#include "atoll/math/Vec3.h"

namespace atl {

namespace detail {

/// Real roots t0 ≤ t1 of a·t² + b·t + c = 0 (a ≠ 0); false when there are none.
inline bool solve_quadratic(float a, float b, float c, float& out_t0, float& out_t1) {
  const float discriminant = b * b - 4.0f * a * c;
  if (discriminant < 0.0f) return false;
  // Citardauq form: avoids cancellation between -b and the root of the discriminant.
  const float q = -0.5f * (b + std::copysign(std::sqrt(discriminant), b));
  if (q == 0.0f) {
    // b = 0 and c = 0: double root at 0.
    out_t0 = out_t1 = 0.0f;
    return true;
  }
  const float r0 = q / a;
  const float r1 = c / q;
  out_t0 = r0 < r1 ? r0 : r1;
  out_t1 = r0 < r1 ? r1 : r0;
  return true;
}

/// Fraction range [t_enter, t_exit] in which the ray is inside the infinite Y-axis cylinder of
/// `radius` around the origin; false when it never is.
inline bool ray_infinite_cylinder_y(const Vec3& origin, const Vec3& direction, float radius,
                                    float& out_enter, float& out_exit) {
  const float a = square(direction.x()) + square(direction.z());
  const float c = square(origin.x()) + square(origin.z()) - square(radius);
  if (a == 0.0f) {
    // Parallel to the axis: inside for every t or never.
    if (c > 0.0f) return false;
    out_enter = -k_float_max;
    out_exit = k_float_max;
    return true;
  }
  const float b = 2.0f * (origin.x() * direction.x() + origin.z() * direction.z());
  return solve_quadratic(a, b, c, out_enter, out_exit);
}

}  // namespace detail

/// First hit fraction of the ray against the solid sphere (`radius` in m).
inline float ray_sphere(const Vec3& origin, const Vec3& direction, const Vec3& center,
                        float radius) {
  const Vec3 rel = origin - center;
  const float c = rel.length_sq() - square(radius);
  if (c <= 0.0f) return 0.0f;
  const float a = direction.length_sq();
  if (a == 0.0f) return k_float_max;
  const float b = 2.0f * rel.dot(direction);
  float t0, t1;
  // Outside and not approaching: the sphere is behind or beside the ray.
  if (b >= 0.0f || !detail::solve_quadratic(a, b, c, t0, t1)) return k_float_max;
  return t0 >= 0.0f ? t0 : k_float_max;
}

/// First hit fraction of the ray against the solid axis-aligned box [min, max].
inline float ray_aabox(const Vec3& origin, const Vec3& direction, const Vec3& min,
                       const Vec3& max) {
  // The slab test's min/max would silently skip a NaN lane and report a hit.
  if (origin.is_nan() || direction.is_nan()) return k_float_max;
  // 1/±0 = ±inf marks an axis the ray is parallel to; AABox::ray_fraction handles that slab.
  return AABox(min, max).ray_fraction(origin, direction.reciprocal());
}

/// First hit fraction of the ray against the solid capsule around the Y axis, centred at the
/// origin: segment (0, ±half_height, 0) grown by `radius`.
inline float ray_capsule(const Vec3& origin, const Vec3& direction, float half_height,
                         float radius) {
  const float closest_y = clamp(origin.y(), -half_height, half_height);
  if ((origin - Vec3(0.0f, closest_y, 0.0f)).length_sq() <= square(radius)) return 0.0f;
  // The capsule is the union of the side cylinder (|y| ≤ half_height) and two end spheres. The
  // origin is outside all three, so the first hit of the union is the first hit of a part. A
  // side hit outside |y| ≤ half_height enters through a cap plane, which lies inside a sphere
  // that the ray then reaches earlier, so such hits can be dropped.
  float best = k_float_max;
  float t_enter, t_exit;
  if (detail::ray_infinite_cylinder_y(origin, direction, radius, t_enter, t_exit) &&
      t_enter >= 0.0f && t_enter < k_float_max) {
    const float y = origin.y() + t_enter * direction.y();
    if (std::fabs(y) <= half_height) best = t_enter;
  }
  const float top = ray_sphere(origin, direction, Vec3(0.0f, half_height, 0.0f), radius);
  const float bottom = ray_sphere(origin, direction, Vec3(0.0f, -half_height, 0.0f), radius);
  best = top < best ? top : best;
  return bottom < best ? bottom : best;
}

/// First hit fraction of the ray against the solid capsule around the segment a–b (any
/// direction; a sphere when a = b) grown by `radius` (m).
inline float ray_segment_capsule(const Vec3& origin, const Vec3& direction, const Vec3& a,
                                 const Vec3& b, float radius) {
  const Vec3 axis = b - a;
  const float length_sq = axis.length_sq();
  float best = ray_sphere(origin, direction, a, radius);
  if (length_sq == 0.0f) return best;
  const float end = ray_sphere(origin, direction, b, radius);
  best = end < best ? end : best;
  if (best == 0.0f) return 0.0f;
  // The side: with u = axis / |axis|, the parts of origin − a and direction across the axis
  // give |m⊥ + t·d⊥|² = radius². As in ray_capsule, a side hit beyond the segment's ends enters
  // through a cap the ray meets earlier in an end sphere, so only hits along the segment count.
  const Vec3 m = origin - a;
  const float m_along = m.dot(axis) / length_sq;
  const float d_along = direction.dot(axis) / length_sq;
  const Vec3 m_across = m - axis * m_along;
  const Vec3 d_across = direction - axis * d_along;
  const float qa = d_across.length_sq();
  const float qc = m_across.length_sq() - square(radius);
  if (qc <= 0.0f && m_along >= 0.0f && m_along <= 1.0f) return 0.0f;
  float t0, t1;
  if (qa == 0.0f || qc <= 0.0f ||
      !detail::solve_quadratic(qa, 2.0f * m_across.dot(d_across), qc, t0, t1))
    return best;
  const float along = m_along + t0 * d_along;
  if (t0 >= 0.0f && along >= 0.0f && along <= 1.0f && t0 < best) best = t0;
  return best;
}

/// First hit fraction of the ray against the solid flat-capped cylinder around the Y axis,
/// centred at the origin, from y = -half_height to +half_height.
inline float ray_cylinder(const Vec3& origin, const Vec3& direction, float half_height,
                          float radius) {
  // Intersection of the infinite cylinder's inside range with the slab |y| ≤ half_height.
  float t_enter, t_exit;
  if (!detail::ray_infinite_cylinder_y(origin, direction, radius, t_enter, t_exit))
    return k_float_max;
  if (direction.y() == 0.0f) {
    if (std::fabs(origin.y()) > half_height) return k_float_max;
  } else {
    const float inv = 1.0f / direction.y();
    float s0 = (-half_height - origin.y()) * inv;
    float s1 = (half_height - origin.y()) * inv;
    if (s0 > s1) std::swap(s0, s1);
    t_enter = s0 > t_enter ? s0 : t_enter;
    t_exit = s1 < t_exit ? s1 : t_exit;
  }
  // Written so that NaN fractions miss.
  if (!(t_enter <= t_exit && t_exit >= 0.0f)) return k_float_max;
  return t_enter > 0.0f ? t_enter : 0.0f;
}

/// First hit fraction of the ray against the triangle v0 v1 v2, from either side. Hits on the
/// edges count, within 1e-6 of the barycentric coordinates (so that the rounding of u and v
/// opens no gap on an edge or a vertex, also on a mesh's outer rim); a degenerate triangle or a
/// ray parallel to its plane misses.
inline float ray_triangle(const Vec3& origin, const Vec3& direction, const Vec3& v0, const Vec3& v1,
                          const Vec3& v2) {
  constexpr float k_edge_tolerance = 1.0e-6f;
  // Möller–Trumbore: solve origin + t·d = v0 + u·e1 + v·e2 by Cramer's rule.
  const Vec3 e1 = v1 - v0;
  const Vec3 e2 = v2 - v0;
  const Vec3 p = direction.cross(e2);
  const float det = e1.dot(p);
  // det = d·(e1 × e2): relative to |d|·|e1 × e2| it is the cosine of the angle between the ray
  // and the normal. Below float resolution the ray is parallel (or the triangle degenerate).
  const float scale_sq = direction.length_sq() * e1.cross(e2).length_sq();
  if (square(det) <= square(k_float_epsilon) * scale_sq || scale_sq == 0.0f) return k_float_max;
  const float inv_det = 1.0f / det;
  const Vec3 s = origin - v0;
  const float u = s.dot(p) * inv_det;
  if (u < -k_edge_tolerance || u > 1.0f + k_edge_tolerance) return k_float_max;
  const Vec3 q = s.cross(e1);
  const float v = direction.dot(q) * inv_det;
  if (v < -k_edge_tolerance || u + v > 1.0f + k_edge_tolerance) return k_float_max;
  const float t = e2.dot(q) * inv_det;
  return t >= 0.0f ? t : k_float_max;
}

}  // namespace atl
