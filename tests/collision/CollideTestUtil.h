#pragma once
// Helpers shared by the narrow-phase tests: running collide_shapes into a vector, comparing
// point sets, and building simple meshes.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "atoll/collision/narrowphase/CollideShapes.h"
#include "atoll/core/Random.h"
#include "atoll/shape/TriangleMeshShape.h"

namespace atl::test {

/// Every manifold of collide_shapes(a, b); fails the test when the call is rejected.
inline std::vector<ContactManifold> collide_all(const Shape& a, const Mat44& transform_a,
                                                const Shape& b, const Mat44& transform_b,
                                                const CollideShapeSettings& settings = {}) {
  AllContactsCollector collector;
  const Status status = collide_shapes(a, transform_a, b, transform_b, settings, collector);
  EXPECT_TRUE(status.ok()) << (status.ok() ? "" : status.error().message());
  return collector.manifolds;
}

/// True when `actual` and `expected` hold the same points (any order) within `tolerance` (m).
template <class Points>
::testing::AssertionResult same_points(const Points& actual, const std::vector<Vec3>& expected,
                                       float tolerance) {
  if (actual.size() != expected.size())
    return ::testing::AssertionFailure()
           << actual.size() << " points, expected " << expected.size();
  std::vector<bool> matched(expected.size(), false);
  for (const Vec3& p : actual) {
    bool found = false;
    for (size_t i = 0; i < expected.size() && !found; ++i) {
      if (!matched[i] && (p - expected[i]).length() <= tolerance) {
        matched[i] = true;
        found = true;
      }
    }
    if (!found) return ::testing::AssertionFailure() << "unexpected point " << p;
  }
  return ::testing::AssertionSuccess();
}

/// True when a and b are within `tolerance` (m or unitless) of each other.
inline ::testing::AssertionResult vec_near(const Vec3& a, const Vec3& b, float tolerance) {
  if ((a - b).length() <= tolerance) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << a << " vs expected " << b;
}

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

/// Appends quad p00 p10 p11 p01 as two triangles whose front face is (p10 - p00) × (p01 - p00).
inline void add_quad(TriangleMeshShapeSettings& settings, const Vec3& p00, const Vec3& p10,
                     const Vec3& p11, const Vec3& p01) {
  const auto base = static_cast<uint32_t>(settings.vertices.size());
  for (const Vec3& p : {p00, p10, p11, p01}) settings.vertices.push_back(p.to_float3());
  settings.triangles.push_back({{base, base + 1, base + 2}, 0});
  settings.triangles.push_back({{base, base + 2, base + 3}, 0});
}

/// A flat n × n grid of 1 m cells in the y = 0 plane from (0, 0, 0) to (n, 0, n), front face
/// +y, with shared vertices (so that its internal edges are inactive).
inline TriangleMeshShapeSettings flat_grid(uint32_t n) {
  TriangleMeshShapeSettings settings;
  for (uint32_t j = 0; j <= n; ++j)
    for (uint32_t i = 0; i <= n; ++i)
      settings.vertices.push_back({static_cast<float>(i), 0.0f, static_cast<float>(j)});
  const auto vertex = [n](uint32_t i, uint32_t j) { return j * (n + 1) + i; };
  for (uint32_t j = 0; j < n; ++j) {
    for (uint32_t i = 0; i < n; ++i) {
      settings.triangles.push_back({{vertex(i, j), vertex(i, j + 1), vertex(i + 1, j + 1)}, 0});
      settings.triangles.push_back({{vertex(i, j), vertex(i + 1, j + 1), vertex(i + 1, j)}, 0});
    }
  }
  return settings;
}

}  // namespace atl::test
