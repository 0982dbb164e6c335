#include "atoll/geometry/GJK.h"

#include <gtest/gtest.h>

#include <cmath>

#include "atoll/geometry/RayIntersections.h"
#include "geometry/ConvexTestUtil.h"

namespace atl {
namespace gjk_test {
namespace {

using test::Box;
using test::expect_vec_near;
using test::random_rotation;
using test::random_vec;

constexpr float k_tolerance = 1.0e-4f;
const float k_sqrt2 = std::sqrt(2.0f);
const float k_sqrt3 = std::sqrt(3.0f);

/// Distance of A and B by GJK, or -1 when GJK reports overlap.
template <class A, class B>
float gjk_distance(const A& a, const B& b, Vec3* out_a = nullptr, Vec3* out_b = nullptr,
                   Vec3* out_v = nullptr) {
  GJKClosestPoint gjk;
  Vec3 v = Vec3::zero(), pa, pb;
  const float dist_sq = gjk.closest_points(a, b, k_tolerance, k_float_max, v, pa, pb);
  if (out_a) *out_a = pa;
  if (out_b) *out_b = pb;
  if (out_v) *out_v = v;
  return std::sqrt(dist_sq);
}

/// Smallest value of the convex function f on [0, 1] (ternary search).
template <class F>
double minimum_on_unit_interval(const F& f, double* out_argmin = nullptr) {
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 200; ++i) {
    const double m1 = lo + (hi - lo) / 3.0, m2 = hi - (hi - lo) / 3.0;
    if (f(m1) < f(m2))
      hi = m2;
    else
      lo = m1;
  }
  const double argmin = 0.5 * (lo + hi);
  if (out_argmin) *out_argmin = argmin;
  return f(argmin);
}

TEST(GJKClosestPoints, SphereSphere) {
  const SphereConvex a{Vec3(0, 0, 0), 1.0f};
  const SphereConvex b{Vec3(2, 2, 1), 0.5f};
  Vec3 pa, pb, v;
  EXPECT_NEAR(gjk_distance(a, b, &pa, &pb, &v), 1.5f, k_tolerance);
  // On curved surfaces the distance converges quadratically faster than the points: a distance
  // within 1e-4 allows the points to slide by about sqrt(2·1e-4·r).
  const Vec3 dir = Vec3(2, 2, 1) / 3.0f;
  expect_vec_near(pa, dir, 1e-2f);
  expect_vec_near(pb, Vec3(2, 2, 1) - dir * 0.5f, 1e-2f);
  EXPECT_NEAR((pa - a.center).length(), 1.0f, 1e-4f);
  EXPECT_NEAR((pb - b.center).length(), 0.5f, 1e-4f);
  // io_v = point_b - point_a: from A to B, length = distance.
  expect_vec_near(v, pb - pa, 1e-5f);
}

TEST(GJKClosestPoints, BoxBoxFaceEdgeAndVertex) {
  const AABoxConvex unit{AABox(Vec3(-1, -1, -1), Vec3(1, 1, 1))};
  const AABoxConvex half{AABox(Vec3(-0.5f, -0.5f, -0.5f), Vec3(0.5f, 0.5f, 0.5f))};
  {
    // Face-face, B turned about the face normal: distance 3 - 1 - 0.5.
    const TransformedConvex b(
        Mat44::rotation_translation(Quat::rotation(Vec3::axis_x(), 0.7f), Vec3(3, 0.2f, -0.1f)),
        half);
    Vec3 pa, pb;
    EXPECT_NEAR(gjk_distance(unit, b, &pa, &pb), 1.5f, k_tolerance);
    EXPECT_NEAR(pa.x(), 1.0f, 1e-4f);
    EXPECT_NEAR(pb.x(), 2.5f, 1e-4f);
  }
  {
    // Edge-edge: A's edge along z at x = √2, B's edge along y at x = c - √2.
    const TransformedConvex a(Mat44::rotation(Quat::rotation(Vec3::axis_z(), 0.25f * k_pi)), unit);
    const TransformedConvex b(
        Mat44::rotation_translation(Quat::rotation(Vec3::axis_y(), 0.25f * k_pi),
                                    Vec3(2 * k_sqrt2 + 0.3f, 0, 0)),
        unit);
    Vec3 pa, pb;
    EXPECT_NEAR(gjk_distance(a, b, &pa, &pb), 0.3f, k_tolerance);
    expect_vec_near(pa, Vec3(k_sqrt2, 0, 0), 1e-3f);
    expect_vec_near(pb, Vec3(k_sqrt2 + 0.3f, 0, 0), 1e-3f);
  }
  {
    // Vertex-face: A's corner (1, 1, 1) turned onto +x, at x = √3.
    const Quat q = Quat::from_to(Vec3(1, 1, 1).normalized(), Vec3::axis_x());
    const TransformedConvex a(Mat44::rotation(q), unit);
    const TransformedConvex b(Mat44::translation(Vec3(k_sqrt3 + 1.25f, 0.3f, 0.1f)), unit);
    Vec3 pa, pb;
    EXPECT_NEAR(gjk_distance(a, b, &pa, &pb), 0.25f, k_tolerance);
    expect_vec_near(pa, Vec3(k_sqrt3, 0, 0), 1e-3f);
    expect_vec_near(pb, Vec3(k_sqrt3 + 0.25f, 0, 0), 1e-3f);
  }
}

TEST(GJKClosestPoints, PointsAndPointVersusShapes) {
  const PointConvex p0{Vec3(1, 2, 3)};
  const PointConvex p1{Vec3(1, 2, 7)};
  EXPECT_NEAR(gjk_distance(p0, p1), 4.0f, k_tolerance);
  // The same point twice: overlap.
  GJKClosestPoint gjk;
  Vec3 v(1, 0, 0), pa, pb;
  EXPECT_EQ(gjk.closest_points(p0, p0, k_tolerance, k_float_max, v, pa, pb), 0.0f);
  EXPECT_EQ(v, Vec3::zero());
  // Point against a box corner region: distance to (1, 1, 1) from (2, 3, 1).
  const AABoxConvex box{AABox(Vec3(-1, -1, -1), Vec3(1, 1, 1))};
  EXPECT_NEAR(gjk_distance(PointConvex{Vec3(2, 3, 1)}, box), std::sqrt(5.0f), k_tolerance);
  // Zero-size box (a point) against a triangle's face.
  const TriangleConvex triangle{Vec3(0, 0, 0), Vec3(4, 0, 0), Vec3(0, 4, 0)};
  const AABoxConvex dot{AABox(Vec3(1, 1, 2), Vec3(1, 1, 2))};
  EXPECT_NEAR(gjk_distance(triangle, dot), 2.0f, k_tolerance);
}

TEST(GJKClosestPoints, OverlapReturnsZeroAndFarReturnsMax) {
  const SphereConvex a{Vec3(0, 0, 0), 1.0f};
  const SphereConvex b{Vec3(1.5f, 0, 0), 1.0f};
  GJKClosestPoint gjk;
  Vec3 v = Vec3::zero(), pa, pb;
  EXPECT_EQ(gjk.closest_points(a, b, k_tolerance, k_float_max, v, pa, pb), 0.0f);
  EXPECT_EQ(v, Vec3::zero());
  // 1.5 apart, but only distances up to 1 are wanted.
  const SphereConvex c{Vec3(0, 3.5f, 0), 1.0f};
  v = Vec3::zero();
  EXPECT_EQ(gjk.closest_points(a, c, k_tolerance, 1.0f, v, pa, pb), k_float_max);
  // The returned axis separates by more than 1: A - C lies that far behind it.
  const MinkowskiDifference a_minus_c(a, c);
  EXPECT_LT(v.dot(a_minus_c.get_support(v)) / v.length(), -1.0f);
  v = Vec3::zero();
  EXPECT_NEAR(std::sqrt(gjk.closest_points(a, c, k_tolerance, 4.0f, v, pa, pb)), 1.5f, 1e-4f);
}

TEST(GJKClosestPoints, RandomSegmentPairsMatchBruteForce) {
  // Capsule cores: segment-segment distance, including (nearly) parallel and zero-length ones.
  Random random(8);
  GJKClosestPoint gjk;
  for (int i = 0; i < 3000; ++i) {
    Vec3 s0[2] = {random_vec(random, -2, 2), random_vec(random, -2, 2)};
    Vec3 s1[2] = {random_vec(random, -2, 2), random_vec(random, -2, 2)};
    if (i % 3 == 1) s1[1] = s1[0] + (s0[1] - s0[0]) * random.uniform(-1, 1);  // parallel
    if (i % 7 == 2) s0[1] = s0[0];                                            // a point
    const PolygonConvex a{s0}, b{s1};
    // Distance from a point of segment 0 to segment 1 is convex along segment 0.
    const double expected = minimum_on_unit_interval([&](double t) {
      const Vec3 p = s0[0] + (s0[1] - s0[0]) * static_cast<float>(t);
      return static_cast<double>((closest_point_on_segment(p, s1[0], s1[1]) - p).length());
    });
    Vec3 v = Vec3::zero(), pa, pb;
    const float distance = std::sqrt(gjk.closest_points(a, b, k_tolerance, k_float_max, v, pa, pb));
    ASSERT_NEAR(distance, expected > k_tolerance ? expected : 0.0, 1e-4) << i;
  }
}

TEST(GJKIntersects, OverlapSeparationAndTouching) {
  const AABoxConvex a{AABox(Vec3(-1, -1, -1), Vec3(1, 1, 1))};
  GJKClosestPoint gjk;
  Vec3 v = Vec3::zero();
  const TransformedConvex overlapping(Mat44::translation(Vec3(1.5f, 0.5f, 0)), a);
  EXPECT_TRUE(gjk.intersects(a, overlapping, k_tolerance, v));
  const TransformedConvex separated(Mat44::translation(Vec3(2.5f, 0.5f, 0)), a);
  v = Vec3::zero();
  EXPECT_FALSE(gjk.intersects(a, separated, k_tolerance, v));
  EXPECT_GT(v.normalized().x(), 0.9f);  // separating axis from A to B
  const TransformedConvex touching(Mat44::translation(Vec3(2.0f, 0.3f, 0.2f)), a);
  v = Vec3::zero();
  EXPECT_TRUE(gjk.intersects(a, touching, k_tolerance, v));
  const TransformedConvex within_tolerance(Mat44::translation(Vec3(2.00005f, 0.3f, 0.2f)), a);
  v = Vec3::zero();
  EXPECT_TRUE(gjk.intersects(a, within_tolerance, k_tolerance, v));
  const TransformedConvex beyond_tolerance(Mat44::translation(Vec3(2.0003f, 0.3f, 0.2f)), a);
  v = Vec3::zero();
  EXPECT_FALSE(gjk.intersects(a, beyond_tolerance, k_tolerance, v));
  // Deep overlap ends on a simplex whose points are A - B support points.
  v = Vec3::zero();
  ASSERT_TRUE(gjk.intersects(a, overlapping, k_tolerance, v));
  const GJKClosestPoint::Simplex& s = gjk.simplex();
  ASSERT_GE(s.count, 1);
  for (int i = 0; i < s.count; ++i) expect_vec_near(s.y[i], s.p[i] - s.q[i], 1e-6f);
}

TEST(GJKIntersects, AgreesWithSphereDistanceOnRandomPairs) {
  Random random(21);
  GJKClosestPoint gjk;
  for (int i = 0; i < 2000; ++i) {
    const SphereConvex a{random_vec(random, -2, 2), random.uniform(0.1f, 1.5f)};
    const SphereConvex b{random_vec(random, -2, 2), random.uniform(0.1f, 1.5f)};
    const float gap = (a.center - b.center).length() - a.radius - b.radius;
    if (std::fabs(gap) < 1e-3f) continue;
    Vec3 v = random_vec(random, -1, 1);
    EXPECT_EQ(gjk.intersects(a, b, k_tolerance, v), gap < 0.0f) << i << " gap " << gap;
  }
}

TEST(GJKClosestPoints, RandomSphereBoxMatchesAnalyticDistance) {
  // Property: GJK distance = analytic point-box distance minus the radius, clamped at 0.
  Random random(1234);
  GJKClosestPoint gjk;
  int separated = 0;
  for (int i = 0; i < 10000; ++i) {
    const Box box{Mat44::rotation_translation(random_rotation(random), random_vec(random, -1, 1)),
                  random_vec(random, 0.05f, 2.0f)};
    const AABoxConvex local = box.local();
    const TransformedConvex box_shape(box.transform, local);
    const SphereConvex sphere{random_vec(random, -4, 4), random.uniform(0.0f, 1.5f)};
    const double expected =
        std::max(0.0, test::point_box_distance(box, sphere.center) - sphere.radius);
    Vec3 v = random_vec(random, -1, 1), pa, pb;
    const float dist_sq =
        gjk.closest_points(sphere, box_shape, k_tolerance, k_float_max, v, pa, pb);
    ASSERT_NEAR(std::sqrt(dist_sq), expected, 1e-4) << "config " << i;
    if (dist_sq > 0.0f) {
      ++separated;
      // The witness points are on the shapes and as far apart as the distance.
      ASSERT_NEAR((pa - pb).length(), std::sqrt(dist_sq), 1e-4f) << i;
      ASSERT_NEAR((pa - sphere.center).length(), sphere.radius, 1e-3f) << i;
      ASSERT_LT(test::point_box_distance(box, pb), 1e-3) << i;
    }
  }
  EXPECT_GT(separated, 5000);
}

TEST(GJKCastRay, MatchesAnalyticSphereAndBox) {
  Random random(5);
  GJKClosestPoint gjk;
  int sphere_hits = 0, box_hits = 0, clear_misses = 0;
  for (int i = 0; i < 2000; ++i) {
    // Rays aimed near the unit cube around the origin, reaching 0.5 to 2 times as far.
    const Vec3 origin = random_vec(random, -5, 5);
    const Vec3 direction = (random_vec(random, -1.5f, 1.5f) - origin) * random.uniform(0.5f, 2.0f);
    const auto point_at = [&](double t) { return origin + direction * static_cast<float>(t); };

    const SphereConvex sphere{random_vec(random, -1, 1), random.uniform(0.2f, 2.0f)};
    const float expected_sphere = ray_sphere(origin, direction, sphere.center, sphere.radius);
    float lambda = 1.0f;
    const bool sphere_hit = gjk.cast_ray(origin, direction, k_tolerance, sphere, lambda);
    const double sphere_gap = minimum_on_unit_interval(
        [&](double t) { return (point_at(t) - sphere.center).length() - sphere.radius; });
    if (expected_sphere <= 1.0f) {
      ++sphere_hits;
      ASSERT_TRUE(sphere_hit) << i;
      ASSERT_NEAR(lambda, expected_sphere, 1e-3f) << i;
    } else if (sphere_gap > 1e-3) {
      // Rays passing within the tolerance are ambiguous; clear misses must miss.
      ASSERT_FALSE(sphere_hit) << i;
    }

    const Vec3 half = random_vec(random, 0.2f, 2.0f);
    const Box box{Mat44::identity(), half};
    const AABoxConvex local = box.local();
    const float expected_box = ray_aabox(origin, direction, -half, half);
    lambda = 1.0f;
    const bool box_hit = gjk.cast_ray(origin, direction, k_tolerance, local, lambda);
    const double box_gap = minimum_on_unit_interval(
        [&](double t) { return test::point_box_distance(box, point_at(t)); });
    if (expected_box <= 1.0f) {
      ++box_hits;
      ASSERT_TRUE(box_hit) << i;
      ASSERT_NEAR(lambda, expected_box, 1e-3f) << i;
    } else if (box_gap > 1e-3) {
      ++clear_misses;
      ASSERT_FALSE(box_hit) << i;
    }
  }
  EXPECT_GT(sphere_hits, 200);
  EXPECT_GT(box_hits, 200);
  EXPECT_GT(clear_misses, 200);
}

TEST(GJKCastRay, InsideStartMissAndLambdaLimit) {
  GJKClosestPoint gjk;
  const SphereConvex sphere{Vec3(0, 0, 0), 1.0f};
  float lambda = 1.0f;
  EXPECT_TRUE(gjk.cast_ray(Vec3(0.2f, 0.1f, 0), Vec3(5, 0, 0), k_tolerance, sphere, lambda));
  EXPECT_EQ(lambda, 0.0f);
  lambda = 1.0f;
  EXPECT_FALSE(gjk.cast_ray(Vec3(-5, 0, 0), Vec3(-5, 0, 0), k_tolerance, sphere, lambda));
  EXPECT_FALSE(gjk.cast_ray(Vec3(-5, 1.5f, 0), Vec3(10, 0, 0), k_tolerance, sphere, lambda));
  // Hit at 0.4 but only [0, 0.3] is asked for.
  lambda = 0.3f;
  EXPECT_FALSE(gjk.cast_ray(Vec3(-5, 0, 0), Vec3(10, 0, 0), k_tolerance, sphere, lambda));
  EXPECT_EQ(lambda, 0.3f);
  // A point target: only a ray through it hits.
  const PointConvex point{Vec3(1, 1, 1)};
  lambda = 1.0f;
  EXPECT_TRUE(gjk.cast_ray(Vec3(-1, -1, -1), Vec3(4, 4, 4), k_tolerance, point, lambda));
  EXPECT_NEAR(lambda, 0.5f, 1e-4f);
  lambda = 1.0f;
  EXPECT_FALSE(gjk.cast_ray(Vec3(-1, -1, -0.9f), Vec3(4, 4, 4), k_tolerance, point, lambda));
}

/// Time of impact of a sphere (centre start + t·direction, t ∈ [0, 1]) against a box, by
/// bisection on the convex function t ↦ distance(centre(t), box) - radius; -1 for no hit.
double brute_force_sphere_box_toi(const Box& box, const Vec3& start, const Vec3& direction,
                                  float radius) {
  const auto gap = [&](double t) {
    return test::point_box_distance(box, start + direction * static_cast<float>(t)) - radius;
  };
  if (gap(0.0) <= 0.0) return 0.0;
  double closest;
  if (minimum_on_unit_interval(gap, &closest) > 0.0) return -1.0;
  // The first touch lies between the start and the closest approach.
  double lo = 0.0, hi = closest;
  for (int i = 0; i < 100; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (gap(mid) > 0.0)
      lo = mid;
    else
      hi = mid;
  }
  return hi;
}

TEST(GJKCastShape, SphereAgainstBoxFaceEdgeAndCorner) {
  const AABoxConvex box{AABox(Vec3(-1, -1, -1), Vec3(1, 1, 1))};
  const PointConvex center{Vec3::zero()};
  const SphereConvex ball{Vec3::zero(), 0.5f};
  struct Case {
    Vec3 start, direction;
    float expected;
    Vec3 contact;
  };
  const Case cases[] = {
      // Face: centre reaches x = -1.5 after 3.5 of 10.
      {Vec3(-5, 0.3f, 0.2f), Vec3(10, 0, 0), 0.35f, Vec3(-1, 0.3f, 0.2f)},
      // Edge along z at (-1, -1): centre stops 0.5 short along the diagonal.
      {Vec3(-5, -5, 0.4f), Vec3(10, 10, 0), (4 * k_sqrt2 - 0.5f) / (10 * k_sqrt2),
       Vec3(-1, -1, 0.4f)},
      // Corner (-1, -1, -1).
      {Vec3(-5, -5, -5), Vec3(10, 10, 10), (4 * k_sqrt3 - 0.5f) / (10 * k_sqrt3), Vec3(-1, -1, -1)},
  };
  for (const Case& k : cases) {
    GJKClosestPoint gjk;
    // The sphere as a point core with a convex radius...
    float lambda = 1.0f;
    Vec3 pa, pb, axis;
    ASSERT_TRUE(gjk.cast_shape(Mat44::translation(k.start), k.direction, k_tolerance, center, box,
                               0.5f, 0.0f, lambda, pa, pb, axis));
    EXPECT_NEAR(lambda, k.expected, 1e-4f);
    expect_vec_near(pa, k.contact, 1e-3f);
    expect_vec_near(pb, k.contact, 1e-3f);
    EXPECT_GT(axis.normalized().dot(k.direction.normalized()), 0.999f);
    // ...and as a sphere support with no radius.
    lambda = 1.0f;
    ASSERT_TRUE(gjk.cast_shape(Mat44::translation(k.start), k.direction, k_tolerance, ball, box,
                               0.0f, 0.0f, lambda, pa, pb, axis));
    EXPECT_NEAR(lambda, k.expected, 1e-4f);
    expect_vec_near(pa, k.contact, 1e-3f);
  }
}

TEST(GJKCastShape, MissesStartsInsideAndRespectsLimit) {
  const AABoxConvex box{AABox(Vec3(-1, -1, -1), Vec3(1, 1, 1))};
  const PointConvex center{Vec3::zero()};
  GJKClosestPoint gjk;
  Vec3 pa, pb, axis;
  float lambda = 1.0f;
  EXPECT_FALSE(gjk.cast_shape(Mat44::translation(Vec3(-5, 1.6f, 0)), Vec3(10, 0, 0), k_tolerance,
                              center, box, 0.5f, 0.0f, lambda, pa, pb, axis));
  lambda = 0.3f;
  EXPECT_FALSE(gjk.cast_shape(Mat44::translation(Vec3(-5, 0, 0)), Vec3(10, 0, 0), k_tolerance,
                              center, box, 0.5f, 0.0f, lambda, pa, pb, axis));
  // Radii overlapping at the start: hit at 0 with the axis between the cores.
  lambda = 1.0f;
  ASSERT_TRUE(gjk.cast_shape(Mat44::translation(Vec3(-1.3f, 0, 0)), Vec3(10, 0, 0), k_tolerance,
                             center, box, 0.5f, 0.0f, lambda, pa, pb, axis));
  EXPECT_EQ(lambda, 0.0f);
  EXPECT_GT(axis.normalized().x(), 0.999f);
  // Cores overlapping at the start: hit at 0, no axis (EPA's job).
  lambda = 1.0f;
  ASSERT_TRUE(gjk.cast_shape(Mat44::translation(Vec3(-0.5f, 0, 0)), Vec3(10, 0, 0), k_tolerance,
                             center, box, 0.5f, 0.0f, lambda, pa, pb, axis));
  EXPECT_EQ(lambda, 0.0f);
  EXPECT_LT(axis.length(), k_tolerance);
}

TEST(GJKCastShape, RandomSphereCastsMatchBruteForceTimeOfImpact) {
  Random random(99);
  GJKClosestPoint gjk;
  const PointConvex center{Vec3::zero()};
  int hits = 0;
  for (int i = 0; i < 2000; ++i) {
    const Box box{Mat44::rotation_translation(random_rotation(random), random_vec(random, -1, 1)),
                  random_vec(random, 0.1f, 1.5f)};
    const AABoxConvex local = box.local();
    const TransformedConvex box_shape(box.transform, local);
    const Vec3 start = random_vec(random, -5, 5);
    const Vec3 direction = random_vec(random, -1, 1) * 3.0f - start;
    const float radius = random.uniform(0.05f, 1.0f);
    const double expected = brute_force_sphere_box_toi(box, start, direction, radius);
    float lambda = 1.0f;
    Vec3 pa, pb, axis;
    const bool hit = gjk.cast_shape(Mat44::translation(start), direction, k_tolerance, center,
                                    box_shape, radius, 0.0f, lambda, pa, pb, axis);
    if (expected < 0.0) continue;  // misses near the rim are ambiguous within the tolerance
    ++hits;
    ASSERT_TRUE(hit) << i;
    // The cast stops where the shapes come within the tolerance: never past the true time of
    // impact, and (along a grazing path it may be well before it) within tolerance there.
    ASSERT_LE(lambda, expected + 1e-6) << i;
    const Vec3 center_at_hit = start + direction * lambda;
    ASSERT_LE(test::point_box_distance(box, center_at_hit) - radius, 1.1e-4) << i;
    if (lambda > 0.0f) {
      // Contact on the box surface, at the sphere's surface.
      EXPECT_LT(test::point_box_distance(box, pb), 1e-3) << i;
      EXPECT_NEAR((pa - (start + direction * lambda)).length(), radius, 1e-3f) << i;
    }
  }
  EXPECT_GT(hits, 500);
}

}  // namespace
}  // namespace gjk_test
}  // namespace atl
