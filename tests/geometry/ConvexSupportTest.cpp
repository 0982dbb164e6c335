#include "atoll/geometry/ConvexSupport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <type_traits>

#include "atoll/geometry/EPA.h"
#include "atoll/geometry/RayIntersections.h"
#include "geometry/ConvexTestUtil.h"

namespace atl {
namespace convex_support_test {
namespace {

using test::expect_vec_near;

// The wrappers hold references: binding a temporary must not compile.
static_assert(
    !std::is_constructible_v<TransformedConvex<AABoxConvex>, const Mat44&, AABoxConvex&&>);
static_assert(
    std::is_constructible_v<TransformedConvex<AABoxConvex>, const Mat44&, const AABoxConvex&>);
static_assert(!std::is_constructible_v<AddConvexRadius<SphereConvex>, SphereConvex&&, float>);
static_assert(SupportObject<MinkowskiDifference<PointConvex, TriangleConvex>>);
static_assert(!SupportObject<Vec3>);

constexpr float k_eps = 1.0e-5f;

TEST(ConvexSupport, PrimitiveSupports) {
  expect_vec_near(PointConvex{Vec3(1, 2, 3)}.get_support(Vec3(-1, 0, 0)), Vec3(1, 2, 3), 0.0f);
  const SphereConvex sphere{Vec3(1, 0, 0), 2.0f};
  expect_vec_near(sphere.get_support(Vec3(0, 0, -5)), Vec3(1, 0, -2), k_eps);
  expect_vec_near(sphere.get_support(Vec3::zero()), Vec3(1, 0, 0), 0.0f);
  const AABoxConvex box{AABox(Vec3(-1, -2, -3), Vec3(1, 2, 3))};
  expect_vec_near(box.get_support(Vec3(1, -1, 1)), Vec3(1, -2, 3), 0.0f);
  const TriangleConvex triangle{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
  expect_vec_near(triangle.get_support(Vec3(1, 0.5f, 0)), Vec3(1, 0, 0), 0.0f);
  // Ties go to the first vertex.
  expect_vec_near(triangle.get_support(Vec3(0, 0, 1)), Vec3(0, 0, 0), 0.0f);
  const Vec3 points[4] = {Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(2, 0, 1), Vec3(-1, 3, 0)};
  const PolygonConvex polygon{points};
  expect_vec_near(polygon.get_support(Vec3(1, 0, 0)), Vec3(2, 0, 0), 0.0f);
  expect_vec_near(polygon.get_support(Vec3(0, 1, 0)), Vec3(-1, 3, 0), 0.0f);
}

TEST(ConvexSupport, TransformedHandlesRotationTranslationAndScale) {
  const AABoxConvex box{AABox(Vec3(-1, -1, -1), Vec3(1, 1, 1))};
  // Rotated 90° about z and moved: local +x becomes +y.
  const TransformedConvex rotated(
      Mat44::rotation_translation(Quat::rotation(Vec3::axis_z(), 0.5f * k_pi), Vec3(5, 0, 0)), box);
  const Vec3 s = rotated.get_support(Vec3(1, 2, 3));
  expect_vec_near(s, Vec3(6, 1, 1), 1e-5f);
  // Non-uniform scale: the support of a scaled sphere (an ellipsoid) is exact.
  const SphereConvex unit{Vec3::zero(), 1.0f};
  const TransformedConvex ellipsoid(Mat44::scale(Vec3(3, 1, 1)), unit);
  // Along (1, 1, 0) the ellipsoid x²/9 + y² = 1 is touched where the normal (x/9, y) ∥ (1, 1).
  expect_vec_near(ellipsoid.get_support(Vec3(1, 1, 0)),
                  Vec3(9.0f / std::sqrt(10.0f), 1.0f / std::sqrt(10.0f), 0), 1e-5f);
}

TEST(ConvexSupport, AddConvexRadiusAndMinkowskiDifference) {
  const PointConvex point{Vec3(1, 1, 1)};
  const AddConvexRadius grown(point, 0.5f);
  expect_vec_near(grown.get_support(Vec3(0, 3, 0)), Vec3(1, 1.5f, 1), k_eps);
  expect_vec_near(grown.get_support(Vec3::zero()), Vec3(1, 1, 1), 0.0f);
  const AABoxConvex box{AABox(Vec3(-1, -1, -1), Vec3(1, 1, 1))};
  const MinkowskiDifference difference(grown, box);
  // (1, 1.5, 1) - (-1, -1, -1) along +y with the box's support against it.
  expect_vec_near(difference.get_support(Vec3(0, 1, 0)), Vec3(1 - 1, 1.5f + 1, 1 - 1), k_eps);
}

TEST(ConvexSupport, NaNInputsTerminateWithoutAHit) {
  // Inputs are validated at the API edge; here only termination and no garbage hit matter.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const SphereConvex bad{Vec3(nan, 0, 0), 1.0f};
  const SphereConvex good{Vec3(0, 0, 0), 1.0f};
  GJKClosestPoint gjk;
  Vec3 v = Vec3::zero(), pa, pb;
  (void)gjk.closest_points(bad, good, 1e-4f, k_float_max, v, pa, pb);
  v = Vec3::zero();
  (void)gjk.intersects(bad, good, 1e-4f, v);
  EPAPenetrationDepth epa;
  const AddConvexRadius<SphereConvex> bad_full(bad, 0.0f), good_full(good, 0.0f);
  v = Vec3::zero();
  EXPECT_EQ(epa.get_penetration_depth(bad, bad_full, 0.0f, good, good_full, 0.0f, 1e-4f, 1e-4f, v,
                                      pa, pb),
            EPAPenetrationDepth::Status::NotColliding);
  const Vec3 nan_origin(nan, 0, 0);
  EXPECT_EQ(ray_sphere(nan_origin, Vec3(1, 0, 0), Vec3::zero(), 1.0f), k_float_max);
  EXPECT_EQ(ray_aabox(nan_origin, Vec3(1, 0, 0), Vec3(-1, -1, -1), Vec3(1, 1, 1)), k_float_max);
  EXPECT_EQ(ray_capsule(nan_origin, Vec3(1, 0, 0), 1.0f, 0.5f), k_float_max);
  EXPECT_EQ(ray_cylinder(nan_origin, Vec3(1, 0, 0), 1.0f, 0.5f), k_float_max);
  EXPECT_EQ(ray_triangle(nan_origin, Vec3(1, 0, 0), Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)),
            k_float_max);
}

}  // namespace
}  // namespace convex_support_test
}  // namespace atl
