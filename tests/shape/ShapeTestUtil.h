#pragma once
// Helpers shared by the shape tests: random directions and rotations, relative comparisons and
// brute-force references computed independently of the shape code under test.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "atoll/core/Random.h"
#include "atoll/shape/ConvexHullShape.h"
#include "atoll/shape/MassProperties.h"

namespace atl::test {

/// Uniformly distributed unit vector.
inline Vec3 random_unit_vector(Random& random) {
  for (;;) {
    const Vec3 v(random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1));
    const float len_sq = v.length_sq();
    if (len_sq > 1.0e-4f && len_sq <= 1.0f) return v / std::sqrt(len_sq);
  }
}

/// Uniformly distributed rotation.
inline Quat random_rotation(Random& random) {
  return Quat::rotation(random_unit_vector(random), random.uniform(-k_pi, k_pi));
}

/// |actual − expected| ≤ tolerance·max(|expected|, floor).
inline ::testing::AssertionResult near_relative(double actual, double expected, double tolerance,
                                                double floor = 1.0e-6) {
  const double error = std::fabs(actual - expected);
  if (error <= tolerance * std::fmax(std::fabs(expected), floor))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << actual << " vs expected " << expected << " (relative "
                                       << error / std::fmax(std::fabs(expected), floor) << ")";
}

/// Every element of the upper 3×3 within `tolerance` of the largest element of `expected`.
inline ::testing::AssertionResult inertia_near(const Mat44& actual, const Mat44& expected,
                                               double tolerance = 1.0e-4) {
  double scale = 0.0;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) scale = std::fmax(scale, std::fabs(expected(r, c)));
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      if (std::fabs(actual(r, c) - expected(r, c)) > tolerance * scale)
        return ::testing::AssertionFailure()
               << "element (" << r << ", " << c << "): " << actual(r, c) << " vs expected "
               << expected(r, c) << "\nactual " << actual << "\nexpected " << expected;
  return ::testing::AssertionSuccess();
}

/// Diagonal inertia tensor.
inline Mat44 diagonal_inertia(double x, double y, double z) {
  Mat44 m = Mat44::zero();
  m.set(0, 0, static_cast<float>(x));
  m.set(1, 1, static_cast<float>(y));
  m.set(2, 2, static_cast<float>(z));
  return m;
}

/// The 8 corners of the box [-h, h].
inline std::vector<Vec3> box_corners(const Vec3& h) {
  std::vector<Vec3> corners;
  for (int i = 0; i < 8; ++i)
    corners.emplace_back((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(),
                         (i & 4) ? h.z() : -h.z());
  return corners;
}

/// Builds a ConvexHullShape from points, failing the test when the settings are rejected.
inline Ref<ConvexHullShape> make_hull(const std::vector<Vec3>& points,
                                      float max_convex_radius = 0.05f) {
  ConvexHullShapeSettings settings;
  settings.points = points;
  settings.max_convex_radius = max_convex_radius;
  Result<Ref<Shape>> result = settings.create();
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message());
  if (!result.ok()) return nullptr;
  return Ref<ConvexHullShape>(static_cast<ConvexHullShape*>(result.value().get()));
}

/// Fraction of the first hit of a ray against a set of triangles (either side), by brute force.
inline float ray_triangles(const Vec3& origin, const Vec3& direction,
                           const std::vector<Vec3>& triangles) {
  float best = k_float_max;
  for (size_t i = 0; i + 2 < triangles.size(); i += 3) {
    // Möller–Trumbore, written out here so that the reference does not share code with the
    // shapes.
    const Vec3 e1 = triangles[i + 1] - triangles[i], e2 = triangles[i + 2] - triangles[i];
    const Vec3 p = direction.cross(e2);
    const float det = e1.dot(p);
    if (std::fabs(det) < 1.0e-12f) continue;
    const Vec3 s = origin - triangles[i];
    const float u = s.dot(p) / det;
    const Vec3 q = s.cross(e1);
    const float v = direction.dot(q) / det;
    if (u < 0.0f || v < 0.0f || u + v > 1.0f) continue;
    const float t = e2.dot(q) / det;
    if (t >= 0.0f && t < best) best = t;
  }
  return best;
}

}  // namespace atl::test
