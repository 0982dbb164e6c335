#include <gtest/gtest.h>

#include <cmath>

#include "atoll/core/Random.h"
#include "atoll/geometry/RayIntersections.h"

namespace atl {
namespace ray_intersections_test {
namespace {

constexpr float k_eps = 1.0e-5f;

TEST(RaySphere, HitFromOutsideReturnsEntryFraction) {
  // Sphere of radius 1 at (5, 0, 0); ray along +x from the origin enters at x = 4.
  EXPECT_NEAR(ray_sphere(Vec3::zero(), Vec3(1, 0, 0), Vec3(5, 0, 0), 1.0f), 4.0f, k_eps);
  // Unnormalized direction: the fraction scales inversely.
  EXPECT_NEAR(ray_sphere(Vec3::zero(), Vec3(2, 0, 0), Vec3(5, 0, 0), 1.0f), 2.0f, k_eps);
  // Off-axis: entry where x² + 0.6² = 1 → x = 5 - 0.8.
  EXPECT_NEAR(ray_sphere(Vec3(0, 0.6f, 0), Vec3(1, 0, 0), Vec3(5, 0, 0), 1.0f), 4.2f, k_eps);
}

TEST(RaySphere, MissesBehindBesideAndParallel) {
  EXPECT_EQ(ray_sphere(Vec3::zero(), Vec3(-1, 0, 0), Vec3(5, 0, 0), 1.0f), k_float_max);
  EXPECT_EQ(ray_sphere(Vec3(0, 1.01f, 0), Vec3(1, 0, 0), Vec3(5, 0, 0), 1.0f), k_float_max);
  EXPECT_EQ(ray_sphere(Vec3::zero(), Vec3::zero(), Vec3(5, 0, 0), 1.0f), k_float_max);
}

TEST(RaySphere, GrazingRayTouchesAtTangentPoint) {
  // Discriminant exactly 0 in float: tangent at (0, 1, 0).
  EXPECT_NEAR(ray_sphere(Vec3(-5, 1, 0), Vec3(1, 0, 0), Vec3::zero(), 1.0f), 5.0f, k_eps);
}

TEST(RaySphere, InsideStartReturnsZero) {
  EXPECT_EQ(ray_sphere(Vec3(0.5f, 0, 0), Vec3(1, 0, 0), Vec3::zero(), 1.0f), 0.0f);
  EXPECT_EQ(ray_sphere(Vec3(0.5f, 0, 0), Vec3::zero(), Vec3::zero(), 1.0f), 0.0f);
}

TEST(RayAABox, HitsEachFaceFromOutside) {
  const Vec3 lo(-1, -2, -3), hi(1, 2, 3);
  EXPECT_NEAR(ray_aabox(Vec3(-5, 0, 0), Vec3(1, 0, 0), lo, hi), 4.0f, k_eps);
  EXPECT_NEAR(ray_aabox(Vec3(5, 0, 0), Vec3(-2, 0, 0), lo, hi), 2.0f, k_eps);
  EXPECT_NEAR(ray_aabox(Vec3(0, 10, 0), Vec3(0, -1, 0), lo, hi), 8.0f, k_eps);
  EXPECT_NEAR(ray_aabox(Vec3(0, 0, -10), Vec3(0, 0, 1), lo, hi), 7.0f, k_eps);
  // Diagonal into the corner region: enters through x = -1 at t = 2 (y = -4 + 2 = -2).
  EXPECT_NEAR(ray_aabox(Vec3(-3, -4, 0), Vec3(1, 1, 0), lo, hi), 2.0f, k_eps);
}

TEST(RayAABox, MissesParallelOutsideAndBehind) {
  const Vec3 lo(-1, -1, -1), hi(1, 1, 1);
  EXPECT_EQ(ray_aabox(Vec3(-5, 1.5f, 0), Vec3(1, 0, 0), lo, hi), k_float_max);
  EXPECT_EQ(ray_aabox(Vec3(-5, 0, 0), Vec3(-1, 0, 0), lo, hi), k_float_max);
  EXPECT_EQ(ray_aabox(Vec3(-3, -4, 0), Vec3(1, 0.2f, 0), lo, hi), k_float_max);
}

TEST(RayAABox, GrazingAlongAFaceHits) {
  // Travelling in the plane y = 1 of the top face: inside the closed slab.
  EXPECT_NEAR(ray_aabox(Vec3(-5, 1, 0), Vec3(1, 0, 0), Vec3(-1, -1, -1), Vec3(1, 1, 1)), 4.0f,
              k_eps);
}

TEST(RayAABox, InsideStartReturnsZero) {
  EXPECT_EQ(ray_aabox(Vec3(0.2f, 0.1f, 0), Vec3(1, 2, 3), Vec3(-1, -1, -1), Vec3(1, 1, 1)), 0.0f);
  EXPECT_EQ(ray_aabox(Vec3::zero(), Vec3::zero(), Vec3(-1, -1, -1), Vec3(1, 1, 1)), 0.0f);
}

TEST(RayCapsule, HitsSideAndCaps) {
  // Half height 1, radius 0.5.
  EXPECT_NEAR(ray_capsule(Vec3(-5, 0.3f, 0), Vec3(1, 0, 0), 1.0f, 0.5f), 4.5f, k_eps);
  // From above along the axis: top of the cap at y = 1.5.
  EXPECT_NEAR(ray_capsule(Vec3(0, 5, 0), Vec3(0, -1, 0), 1.0f, 0.5f), 3.5f, k_eps);
  // From below, offset 0.3 from the axis: cap sphere at y = -1, entry y = -1 - 0.4.
  EXPECT_NEAR(ray_capsule(Vec3(0.3f, -5, 0), Vec3(0, 1, 0), 1.0f, 0.5f), 3.6f, k_eps);
  // Horizontal ray at y = 1.3 hits the top sphere: x² + 0.3² = 0.25 → x = -0.4.
  EXPECT_NEAR(ray_capsule(Vec3(-5, 1.3f, 0), Vec3(1, 0, 0), 1.0f, 0.5f), 4.6f, k_eps);
}

TEST(RayCapsule, MissesGrazesAndStartsInside) {
  EXPECT_EQ(ray_capsule(Vec3(-5, 1.6f, 0), Vec3(1, 0, 0), 1.0f, 0.5f), k_float_max);
  EXPECT_EQ(ray_capsule(Vec3(0.6f, -5, 0), Vec3(0, 1, 0), 1.0f, 0.5f), k_float_max);
  EXPECT_EQ(ray_capsule(Vec3(-5, 0, 0), Vec3(-1, 0, 0), 1.0f, 0.5f), k_float_max);
  // Grazing the side: tangent plane z = 0.5.
  EXPECT_NEAR(ray_capsule(Vec3(-5, 0, 0.5f), Vec3(1, 0, 0), 1.0f, 0.5f), 5.0f, k_eps);
  EXPECT_EQ(ray_capsule(Vec3(0.1f, 1.2f, 0), Vec3(1, 0, 0), 1.0f, 0.5f), 0.0f);
  // Zero half height is a sphere.
  EXPECT_NEAR(ray_capsule(Vec3(-5, 0, 0), Vec3(1, 0, 0), 0.0f, 0.5f), 4.5f, k_eps);
}

TEST(RayCylinder, HitsSideAndFlatCaps) {
  EXPECT_NEAR(ray_cylinder(Vec3(-5, 0.9f, 0), Vec3(1, 0, 0), 1.0f, 0.5f), 4.5f, k_eps);
  EXPECT_NEAR(ray_cylinder(Vec3(0.45f, 5, 0), Vec3(0, -1, 0), 1.0f, 0.5f), 4.0f, k_eps);
  EXPECT_NEAR(ray_cylinder(Vec3(0, -3, 0), Vec3(0, 2, 0), 1.0f, 0.5f), 1.0f, k_eps);
  // Oblique into the top cap: from (-1, 3, 0) along (1, -2, 0) reaches y = 1 at t = 1, x = 0.
  EXPECT_NEAR(ray_cylinder(Vec3(-1, 3, 0), Vec3(1, -2, 0), 1.0f, 0.5f), 1.0f, k_eps);
}

TEST(RayCylinder, MissesGrazesAndStartsInside) {
  // Above the flat cap where a capsule would have been hit.
  EXPECT_EQ(ray_cylinder(Vec3(-5, 1.2f, 0), Vec3(1, 0, 0), 1.0f, 0.5f), k_float_max);
  // Parallel to the axis outside the radius.
  EXPECT_EQ(ray_cylinder(Vec3(0.6f, -5, 0), Vec3(0, 1, 0), 1.0f, 0.5f), k_float_max);
  EXPECT_EQ(ray_cylinder(Vec3(-5, 0, 0), Vec3(-1, 0, 0), 1.0f, 0.5f), k_float_max);
  // Grazing along the top cap plane hits the rim.
  EXPECT_NEAR(ray_cylinder(Vec3(-5, 1, 0), Vec3(1, 0, 0), 1.0f, 0.5f), 4.5f, k_eps);
  EXPECT_EQ(ray_cylinder(Vec3(0.1f, 0.9f, 0.1f), Vec3(0, 1, 0), 1.0f, 0.5f), 0.0f);
  EXPECT_EQ(ray_cylinder(Vec3(0.1f, 0.9f, 0.1f), Vec3::zero(), 1.0f, 0.5f), 0.0f);
}

TEST(RayTriangle, HitsFromBothSides) {
  const Vec3 a(0, 0, 0), b(2, 0, 0), c(0, 2, 0);
  EXPECT_NEAR(ray_triangle(Vec3(0.5f, 0.5f, 3), Vec3(0, 0, -1), a, b, c), 3.0f, k_eps);
  EXPECT_NEAR(ray_triangle(Vec3(0.5f, 0.5f, -3), Vec3(0, 0, 2), a, b, c), 1.5f, k_eps);
  // Oblique: from (2, 2, 1) along (-1, -1, -1) hits (1, 1, 0), on the hypotenuse.
  EXPECT_NEAR(ray_triangle(Vec3(2, 2, 1), Vec3(-1, -1, -1), a, b, c), 1.0f, k_eps);
  // Origin on the triangle.
  EXPECT_NEAR(ray_triangle(Vec3(0.5f, 0.5f, 0), Vec3(0, 0, 1), a, b, c), 0.0f, k_eps);
}

TEST(RayTriangle, MissesOutsideBehindParallelAndDegenerate) {
  const Vec3 a(0, 0, 0), b(2, 0, 0), c(0, 2, 0);
  EXPECT_EQ(ray_triangle(Vec3(1.5f, 1.5f, 3), Vec3(0, 0, -1), a, b, c), k_float_max);
  EXPECT_EQ(ray_triangle(Vec3(-0.1f, 0.5f, 3), Vec3(0, 0, -1), a, b, c), k_float_max);
  EXPECT_EQ(ray_triangle(Vec3(0.5f, 0.5f, 3), Vec3(0, 0, 1), a, b, c), k_float_max);
  EXPECT_EQ(ray_triangle(Vec3(-1, 0.5f, 0), Vec3(1, 0, 0), a, b, c), k_float_max);
  EXPECT_EQ(ray_triangle(Vec3(0.5f, 0.5f, 1), Vec3(1, 0, 0), a, b, c), k_float_max);
  EXPECT_EQ(ray_triangle(Vec3(1, 0, 3), Vec3(0, 0, -1), a, b, Vec3(4, 0, 0)), k_float_max);
  EXPECT_EQ(ray_triangle(Vec3(0.5f, 0.5f, 3), Vec3::zero(), a, b, c), k_float_max);
}

TEST(RayTriangle, RandomHitsLandOnThePlaneInsideTheTriangle) {
  Random random(11);
  for (int i = 0; i < 2000; ++i) {
    const Vec3 a(random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1));
    const Vec3 b(random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1));
    const Vec3 c(random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1));
    const float u = random.uniform(0.05f, 0.9f);
    const float v = random.uniform(0.05f, 0.95f - u);
    const Vec3 target = a + (b - a) * u + (c - a) * v;
    const Vec3 origin(random.uniform(-3, 3), random.uniform(-3, 3), random.uniform(-3, 3));
    const Vec3 normal = (b - a).cross(c - a).normalized_or(Vec3::axis_z());
    const Vec3 to_target = target - origin;
    // Skip nearly parallel rays, where the hit is ill-conditioned.
    if (std::fabs(to_target.normalized_or(Vec3::axis_x()).dot(normal)) < 0.05f) continue;
    EXPECT_NEAR(ray_triangle(origin, to_target, a, b, c), 1.0f, 1e-3f) << i;
  }
}

TEST(RaySegmentCapsule, MatchesTheYAxisCapsuleTurnedAnyWay) {
  // The Y-axis capsule of ray_capsule, and the same capsule and ray turned and moved: the same
  // fractions (within float rounding).
  Random random(23);
  int hits = 0;
  for (int i = 0; i < 4000; ++i) {
    const float half_height = random.uniform(0.0f, 1.5f);
    const float radius = random.uniform(0.05f, 1.0f);
    const Vec3 origin(random.uniform(-4, 4), random.uniform(-4, 4), random.uniform(-4, 4));
    // Aimed near the capsule, so that about half the rays hit.
    const Vec3 aim(random.uniform(-1, 1), random.uniform(-2, 2), random.uniform(-1, 1));
    const Vec3 direction = (aim - origin) * 1.5f;
    const float expected = ray_capsule(origin, direction, half_height, radius);
    const Vec3 top(0.0f, half_height, 0.0f);
    // A turn about a random axis and a move.
    const Vec3 axis = Vec3(random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1))
                          .normalized_or(Vec3::axis_x());
    const float angle = random.uniform(-3.0f, 3.0f);
    const auto turn = [&](const Vec3& p) {
      // Rodrigues' rotation formula.
      const float c = std::cos(angle), s = std::sin(angle);
      return p * c + axis.cross(p) * s + axis * (axis.dot(p) * (1.0f - c));
    };
    const Vec3 shift(random.uniform(-10, 10), random.uniform(-10, 10), random.uniform(-10, 10));
    const float turned = ray_segment_capsule(turn(origin) + shift, turn(direction),
                                             turn(-top) + shift, turn(top) + shift, radius);
    const float upright = ray_segment_capsule(origin, direction, -top, top, radius);
    if (expected == k_float_max) {
      EXPECT_EQ(upright, k_float_max) << i;
      // Turned, a ray grazing the capsule may round either way.
      if (turned != k_float_max) {
        EXPECT_GT(turned, 0.0f) << i;
      }
      continue;
    }
    ++hits;
    EXPECT_NEAR(upright, expected, 1e-4f) << i;
    EXPECT_NEAR(turned, expected, 1e-3f) << i;
  }
  EXPECT_GT(hits, 1500);
}

TEST(RaySegmentCapsule, EndsSideInsideAndMisses) {
  const Vec3 a(1, 1, 1), b(3, 1, 1);
  // Across the side, at x = 2: the surface at y = 1.5.
  EXPECT_NEAR(ray_segment_capsule(Vec3(2, 5, 1), Vec3(0, -1, 0), a, b, 0.5f), 3.5f, k_eps);
  // Along the axis into the end sphere at a.
  EXPECT_NEAR(ray_segment_capsule(Vec3(-2, 1, 1), Vec3(1, 0, 0), a, b, 0.5f), 2.5f, k_eps);
  // From inside, and beyond the end caps' reach.
  EXPECT_EQ(ray_segment_capsule(Vec3(2.9f, 1.2f, 1), Vec3(0, 1, 0), a, b, 0.5f), 0.0f);
  EXPECT_EQ(ray_segment_capsule(Vec3(3.6f, 5, 1), Vec3(0, -1, 0), a, b, 0.5f), k_float_max);
  // Parallel to the axis inside the infinite cylinder but past the end, going away.
  EXPECT_EQ(ray_segment_capsule(Vec3(4, 1, 1), Vec3(1, 0, 0), a, b, 0.5f), k_float_max);
  // a = b: a sphere.
  EXPECT_NEAR(ray_segment_capsule(Vec3(1, 5, 1), Vec3(0, -1, 0), a, a, 0.5f), 3.5f, k_eps);
}

}  // namespace
}  // namespace ray_intersections_test
}  // namespace atl
