#pragma once
// Shared helpers for the GJK / EPA tests: random poses and closed-form answers for boxes.

#include <gtest/gtest.h>

#include <cmath>

#include "atoll/core/Random.h"
#include "atoll/geometry/ConvexSupport.h"

namespace atl::test {

inline void expect_vec_near(const Vec3& actual, const Vec3& expected, float eps) {
  EXPECT_NEAR(actual.x(), expected.x(), eps) << actual << " vs " << expected;
  EXPECT_NEAR(actual.y(), expected.y(), eps) << actual << " vs " << expected;
  EXPECT_NEAR(actual.z(), expected.z(), eps) << actual << " vs " << expected;
}

inline Vec3 random_vec(Random& random, float lo, float hi) {
  return Vec3(random.uniform(lo, hi), random.uniform(lo, hi), random.uniform(lo, hi));
}

inline Quat random_rotation(Random& random) {
  Vec3 axis;
  do axis = random_vec(random, -1, 1);
  while (axis.length_sq() < 0.01f || axis.length_sq() > 1.0f);
  return Quat::rotation(axis.normalized(), random.uniform(-k_pi, k_pi));
}

/// A box of half extent `half` placed by `transform`, as GJK sees it.
struct Box {
  Mat44 transform;
  Vec3 half;
  AABoxConvex local() const { return AABoxConvex{AABox(-half, half)}; }
};

/// Distance from p to the box (0 inside), in double for a reference answer.
inline double point_box_distance(const Box& box, const Vec3& p) {
  const Vec3 local = box.transform.inversed_rotation_translation() * p;
  double sum = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double excess = std::fabs(static_cast<double>(local[i])) - box.half[i];
    if (excess > 0.0) sum += excess * excess;
  }
  return std::sqrt(sum);
}

/// Penetration depth of two boxes by the separating axis theorem: the smallest overlap over the
/// 15 candidate axes (exact for polyhedra). Negative when separated along some axis. `out_axis`
/// is the unit axis from A to B.
inline double box_box_sat_depth(const Box& a, const Box& b, Vec3& out_axis) {
  const Vec3 d = b.transform.translation() - a.transform.translation();
  Vec3 axes[15];
  int n = 0;
  for (int i = 0; i < 3; ++i) axes[n++] = a.transform.column3(i);
  for (int i = 0; i < 3; ++i) axes[n++] = b.transform.column3(i);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Vec3 c = a.transform.column3(i).cross(b.transform.column3(j));
      if (c.length_sq() > 1e-6f) axes[n++] = c.normalized();
    }
  double best = 1e30;
  for (int k = 0; k < n; ++k) {
    const Vec3& axis = axes[k];
    double ra = 0.0, rb = 0.0;
    for (int i = 0; i < 3; ++i) {
      ra += a.half[i] * std::fabs(static_cast<double>(a.transform.column3(i).dot(axis)));
      rb += b.half[i] * std::fabs(static_cast<double>(b.transform.column3(i).dot(axis)));
    }
    const double along = d.dot(axis);
    const double overlap = ra + rb - std::fabs(along);
    if (overlap < best) {
      best = overlap;
      out_axis = along >= 0.0 ? axis : -axis;
    }
  }
  return best;
}

}  // namespace atl::test
