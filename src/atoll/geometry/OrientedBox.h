#pragma once
// Oriented bounding box and its overlap tests by the separating axis theorem.

#include <cmath>

#include "atoll/geometry/AABox.h"
#include "atoll/math/Mat44.h"

namespace atl {

class OrientedBox {
 public:
  /// An empty-size box at the origin.
  OrientedBox() = default;
  /// Box of `half_extents` (m) placed by `orientation` (rotation + translation of its centre).
  OrientedBox(const Mat44& orientation, const Vec3& half_extents)
      : orientation(orientation), half_extents(half_extents) {}
  /// The box `box` moved by the rigid transform `transform`.
  OrientedBox(const Mat44& transform, const AABox& box)
      : orientation(transform * Mat44::translation(box.center())), half_extents(box.extent()) {}

  /// True when this box and the axis-aligned `box` overlap (touching counts).
  bool overlaps(const AABox& box) const {
    return overlaps(OrientedBox(Mat44::translation(box.center()), box.extent()));
  }

  /// True when the boxes overlap (touching counts): no separating axis among the 3 + 3 face
  /// normals and the 9 edge-edge cross products.
  bool overlaps(const OrientedBox& other) const {
    // Work in this box's frame: r(i, j) = axis_i · other.axis_j, t = other's centre.
    float r[3][3], abs_r[3][3];
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        r[i][j] = orientation.column3(i).dot(other.orientation.column3(j));
        // The epsilon keeps the cross-product tests sound when edges are (nearly) parallel:
        // the cross product then vanishes and both sides of the test are ~0.
        abs_r[i][j] = std::fabs(r[i][j]) + k_parallel_epsilon;
      }
    }
    const Vec3 d = other.orientation.translation() - orientation.translation();
    const float t[3] = {orientation.column3(0).dot(d), orientation.column3(1).dot(d),
                        orientation.column3(2).dot(d)};
    const Vec3& a = half_extents;
    const Vec3& b = other.half_extents;

    for (int i = 0; i < 3; ++i) {
      const float rb = b.x() * abs_r[i][0] + b.y() * abs_r[i][1] + b.z() * abs_r[i][2];
      if (std::fabs(t[i]) > a[i] + rb) return false;
    }
    for (int j = 0; j < 3; ++j) {
      const float ra = a.x() * abs_r[0][j] + a.y() * abs_r[1][j] + a.z() * abs_r[2][j];
      const float tj = t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j];
      if (std::fabs(tj) > ra + b[j]) return false;
    }
    // Axis a_i × b_j. With i1, i2 the other two axes of A (cyclic) and j1, j2 those of B, the
    // projections reduce to entries of r (|a_i1 · (a_i × b_j)| = |r[i2][j]|, …).
    for (int i = 0; i < 3; ++i) {
      const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
      for (int j = 0; j < 3; ++j) {
        const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        const float ra = a[i1] * abs_r[i2][j] + a[i2] * abs_r[i1][j];
        const float rb = b[j1] * abs_r[i][j2] + b[j2] * abs_r[i][j1];
        const float tl = t[i2] * r[i1][j] - t[i1] * r[i2][j];
        if (std::fabs(tl) > ra + rb) return false;
      }
    }
    return true;
  }

  /// Rotation + translation of the centre.
  Mat44 orientation;
  /// Half extents along the box's local axes (m), ≥ 0.
  Vec3 half_extents;

 private:
  static constexpr float k_parallel_epsilon = 1.0e-6f;
};

}  // namespace atl
