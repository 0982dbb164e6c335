#pragma once
// Axis-aligned bounding box.

#include <algorithm>

#include "atoll/math/Mat44.h"

namespace atl {

class AABox {
 public:
  /// An empty (inverted) box: encapsulating anything makes it that thing.
  AABox() : min(Vec3::replicate(k_float_max)), max(Vec3::replicate(-k_float_max)) {}
  AABox(const Vec3& min_corner, const Vec3& max_corner) : min(min_corner), max(max_corner) {}
  /// Box of half extent `radius` around `center`.
  static AABox from_center(const Vec3& center, const Vec3& half_extent) {
    return AABox(center - half_extent, center + half_extent);
  }
  static AABox from_two_points(const Vec3& a, const Vec3& b) {
    return AABox(Vec3::min(a, b), Vec3::max(a, b));
  }

  /// True when min ≤ max on every axis.
  bool is_valid() const { return min.x() <= max.x() && min.y() <= max.y() && min.z() <= max.z(); }
  Vec3 center() const { return 0.5f * (min + max); }
  Vec3 extent() const { return 0.5f * (max - min); }
  Vec3 size() const { return max - min; }
  float surface_area() const {
    const Vec3 s = size();
    return 2.0f * (s.x() * s.y() + s.y() * s.z() + s.z() * s.x());
  }
  float volume() const {
    const Vec3 s = size();
    return s.x() * s.y() * s.z();
  }

  void encapsulate(const Vec3& p) {
    min = Vec3::min(min, p);
    max = Vec3::max(max, p);
  }
  void encapsulate(const AABox& b) {
    min = Vec3::min(min, b.min);
    max = Vec3::max(max, b.max);
  }
  /// Smallest box containing both.
  static AABox merged(const AABox& a, const AABox& b) {
    return AABox(Vec3::min(a.min, b.min), Vec3::max(a.max, b.max));
  }
  AABox intersection(const AABox& b) const {
    return AABox(Vec3::max(min, b.min), Vec3::min(max, b.max));
  }
  /// Grows the box by `margin` on every side.
  AABox expanded(const Vec3& margin) const { return AABox(min - margin, max + margin); }
  AABox expanded(float margin) const { return expanded(Vec3::replicate(margin)); }
  /// Makes every side at least `min_size` long (keeps the centre).
  void ensure_minimal_edge_length(float min_size) {
    const Vec3 c = center();
    const Vec3 half = Vec3::max(extent(), Vec3::replicate(0.5f * min_size));
    min = c - half;
    max = c + half;
  }

  bool contains(const Vec3& p) const {
    return p.x() >= min.x() && p.y() >= min.y() && p.z() >= min.z() && p.x() <= max.x() &&
           p.y() <= max.y() && p.z() <= max.z();
  }
  bool contains(const AABox& b) const {
    return b.min.x() >= min.x() && b.min.y() >= min.y() && b.min.z() >= min.z() &&
           b.max.x() <= max.x() && b.max.y() <= max.y() && b.max.z() <= max.z();
  }
  bool overlaps(const AABox& b) const {
    return !(b.min.x() > max.x() || b.max.x() < min.x() || b.min.y() > max.y() ||
             b.max.y() < min.y() || b.min.z() > max.z() || b.max.z() < min.z());
  }

  /// Bounds of this box after the transform (exact for the box's 8 corners).
  AABox transformed(const Mat44& m) const {
    // Arvo's method: per row, take min/max of each column's contribution.
    const Vec3 t = m.translation();
    Vec3 new_min = t, new_max = t;
    for (int c = 0; c < 3; ++c) {
      const Vec3 col = m.column3(c);
      const Vec3 a = col * min[c];
      const Vec3 b = col * max[c];
      new_min += Vec3::min(a, b);
      new_max += Vec3::max(a, b);
    }
    return AABox(new_min, new_max);
  }
  /// Bounds after a per-axis scale (handles negative scale).
  AABox scaled(const Vec3& s) const { return from_two_points(min * s, max * s); }
  AABox translated(const Vec3& t) const { return AABox(min + t, max + t); }

  /// Closest point of the box to p.
  Vec3 closest_point(const Vec3& p) const { return Vec3::min(Vec3::max(p, min), max); }
  float distance_sq(const Vec3& p) const { return (closest_point(p) - p).length_sq(); }

  /// Slab test for the ray origin + t·direction, t ∈ [0, max_fraction]. Returns the entry
  /// fraction (0 when the origin is inside), or k_float_max when missed. `inv_direction` is
  /// 1/direction per axis (±inf for zero components is fine).
  float ray_fraction(const Vec3& origin, const Vec3& inv_direction,
                     float max_fraction = k_float_max) const {
    float t_min = 0.0f, t_max = max_fraction;
    for (int i = 0; i < 3; ++i) {
      if (std::isinf(inv_direction[i])) {
        // Parallel to this slab: inside it or missed.
        if (origin[i] < min[i] || origin[i] > max[i]) return k_float_max;
        continue;
      }
      float t1 = (min[i] - origin[i]) * inv_direction[i];
      float t2 = (max[i] - origin[i]) * inv_direction[i];
      if (t1 > t2) std::swap(t1, t2);
      t_min = std::max(t_min, t1);
      t_max = std::min(t_max, t2);
      if (t_min > t_max) return k_float_max;
    }
    return t_min;
  }
  bool operator==(const AABox& b) const { return min == b.min && max == b.max; }

  Vec3 min;
  Vec3 max;
};

}  // namespace atl
