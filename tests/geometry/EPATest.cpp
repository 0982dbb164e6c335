#include "atoll/geometry/EPA.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "geometry/ConvexTestUtil.h"

namespace atl {
namespace epa_test {
namespace {

using test::Box;
using test::expect_vec_near;
using test::random_rotation;
using test::random_vec;

constexpr float k_collision_tolerance = 1.0e-4f;
constexpr float k_penetration_tolerance = 1.0e-4f;
const float k_sqrt2 = std::sqrt(2.0f);
const float k_sqrt3 = std::sqrt(3.0f);

struct Penetration {
  EPAPenetrationDepth::Status status;
  Vec3 axis, point_a, point_b;
  float depth() const { return (point_a - point_b).dot(axis); }
};

/// Penetration of the cores `a`, `b` grown by their radii.
template <class A, class B>
Penetration penetrate(const A& a, float radius_a, const B& b, float radius_b) {
  EPAPenetrationDepth epa;
  const AddConvexRadius<A> a_full(a, radius_a);
  const AddConvexRadius<B> b_full(b, radius_b);
  Penetration r;
  r.axis = Vec3::zero();
  r.status =
      epa.get_penetration_depth(a, a_full, radius_a, b, b_full, radius_b, k_collision_tolerance,
                                k_penetration_tolerance, r.axis, r.point_a, r.point_b);
  return r;
}

/// Checks a penetration against the analytic depth and axis (A to B), within 1e-4.
void expect_penetration(const Penetration& r, float depth, const Vec3& axis) {
  ASSERT_EQ(r.status, EPAPenetrationDepth::Status::Colliding);
  EXPECT_NEAR(r.depth(), depth, 1e-4f);
  EXPECT_NEAR(r.axis.length(), 1.0f, 1e-5f);
  expect_vec_near(r.axis, axis, 1e-4f);
  // point_a - point_b = depth·axis.
  expect_vec_near(r.point_a - r.point_b, r.axis * r.depth(), 1e-4f);
}

TEST(EPAPenetration, SphereSphereAsPointsWithRadius) {
  const PointConvex a{Vec3(0, 0, 0)};
  const PointConvex b{Vec3(1.2f, 0.9f, 0)};  // 1.5 apart, radii 1 + 0.8: depth 0.3
  const Penetration r = penetrate(a, 1.0f, b, 0.8f);
  const Vec3 n = Vec3(1.2f, 0.9f, 0) / 1.5f;
  expect_penetration(r, 0.3f, n);
  expect_vec_near(r.point_a, n, 1e-4f);
  expect_vec_near(r.point_b, Vec3(1.2f, 0.9f, 0) - n * 0.8f, 1e-4f);
}

TEST(EPAPenetration, SphereSphereCoresOverlapRunsEPAOnCurvedShapes) {
  // Curved cores (no point core + radius): EPA approximates A - B by a polytope. The depth is
  // within the tolerance; the axis only to about sqrt(2·tolerance / curvature radius).
  const SphereConvex a{Vec3(0, 0, 0), 1.0f};
  const SphereConvex b{Vec3(0.6f, -0.8f, 0.0f), 0.5f};  // 1 apart: depth 0.5
  const Penetration r = penetrate(a, 0.0f, b, 0.0f);
  ASSERT_EQ(r.status, EPAPenetrationDepth::Status::Colliding);
  EXPECT_NEAR(r.depth(), 0.5f, 1e-4f);
  expect_vec_near(r.axis, Vec3(0.6f, -0.8f, 0), 1e-2f);
  // Concentric: every direction is equally deep, so EPA refines the whole sphere and runs out of
  // points (128) first; the depth is a few percent short, never deeper than the truth.
  const SphereConvex c{Vec3(0, 0, 0), 0.5f};
  const Penetration concentric = penetrate(a, 0.0f, c, 0.0f);
  ASSERT_EQ(concentric.status, EPAPenetrationDepth::Status::Colliding);
  EXPECT_LE(concentric.depth(), 1.5f + 1e-4f);
  EXPECT_GT(concentric.depth(), 1.4f);
}

TEST(EPAPenetration, BoxBoxFaceContact) {
  const AABoxConvex unit{AABox(Vec3(-1, -1, -1), Vec3(1, 1, 1))};
  const TransformedConvex b(
      Mat44::rotation_translation(Quat::rotation(Vec3::axis_x(), 0.3f), Vec3(1.9f, 0.3f, -0.2f)),
      unit);
  expect_penetration(penetrate(unit, 0.0f, b, 0.0f), 0.1f, Vec3(1, 0, 0));
  // With convex radius: cores of half extent 0.95 grown by 0.05, cores touching → EPA.
  const AABoxConvex core{AABox(Vec3::replicate(-0.95f), Vec3::replicate(0.95f))};
  const TransformedConvex b_core(Mat44::translation(Vec3(1.9f, 0.3f, -0.2f)), core);
  expect_penetration(penetrate(core, 0.05f, b_core, 0.05f), 0.1f, Vec3(1, 0, 0));
  // Cores 0.05 apart: GJK alone, points on the grown surfaces.
  const TransformedConvex b_near(Mat44::translation(Vec3(1.95f, 0.3f, -0.2f)), core);
  const Penetration r = penetrate(core, 0.05f, b_near, 0.05f);
  expect_penetration(r, 0.05f, Vec3(1, 0, 0));
  EXPECT_NEAR(r.point_a.x(), 1.0f, 1e-4f);
  EXPECT_NEAR(r.point_b.x(), 0.95f, 1e-4f);
  // Farther than the radii: not colliding.
  const TransformedConvex b_far(Mat44::translation(Vec3(2.05f, 0.3f, -0.2f)), core);
  EXPECT_EQ(penetrate(core, 0.05f, b_far, 0.05f).status, EPAPenetrationDepth::Status::NotColliding);
}

TEST(EPAPenetration, BoxBoxEdgeEdgeAndVertexFace) {
  const AABoxConvex unit{AABox(Vec3(-1, -1, -1), Vec3(1, 1, 1))};
  {
    // A's edge along z at x = √2 crosses B's edge along y at x = c - √2.
    const TransformedConvex a(Mat44::rotation(Quat::rotation(Vec3::axis_z(), 0.25f * k_pi)), unit);
    const TransformedConvex b(
        Mat44::rotation_translation(Quat::rotation(Vec3::axis_y(), 0.25f * k_pi),
                                    Vec3(2 * k_sqrt2 - 0.1f, 0, 0)),
        unit);
    const Penetration r = penetrate(a, 0.0f, b, 0.0f);
    expect_penetration(r, 0.1f, Vec3(1, 0, 0));
    expect_vec_near(r.point_a, Vec3(k_sqrt2, 0, 0), 1e-3f);
  }
  {
    // A's corner turned onto +x (at √3) pokes 0.1 into B's face.
    const Quat q = Quat::from_to(Vec3(1, 1, 1).normalized(), Vec3::axis_x());
    const TransformedConvex a(Mat44::rotation(q), unit);
    const TransformedConvex b(Mat44::translation(Vec3(k_sqrt3 + 0.9f, 0.2f, -0.1f)), unit);
    const Penetration r = penetrate(a, 0.0f, b, 0.0f);
    expect_penetration(r, 0.1f, Vec3(1, 0, 0));
    expect_vec_near(r.point_a, Vec3(k_sqrt3, 0, 0), 1e-3f);
  }
}

TEST(EPAPenetration, CapsuleBox) {
  const AABoxConvex box{AABox(Vec3(-1, -1, -1), Vec3(1, 1, 1))};
  {
    // Horizontal segment 0.2 above the top face, radius 0.3: GJK path, depth 0.1 downwards.
    const Vec3 segment[2] = {Vec3(-0.5f, 1.2f, 0), Vec3(0.5f, 1.2f, 0)};
    const PolygonConvex capsule{segment};
    expect_penetration(penetrate(capsule, 0.3f, box, 0.0f), 0.1f, Vec3(0, -1, 0));
  }
  {
    // Segment 0.1 inside the box: cores overlap, EPA on the rounded capsule. Depth 0.1 + 0.3.
    const Vec3 segment[2] = {Vec3(-0.5f, 0.9f, 0.2f), Vec3(0.5f, 0.9f, 0.2f)};
    const PolygonConvex capsule{segment};
    expect_penetration(penetrate(capsule, 0.3f, box, 0.0f), 0.4f, Vec3(0, -1, 0));
  }
  {
    // Vertical capsule whose lower cap centre is 0.1 inside, offset from the face centre.
    const Vec3 segment[2] = {Vec3(0.3f, 0.9f, -0.4f), Vec3(0.3f, 2.0f, -0.4f)};
    const PolygonConvex capsule{segment};
    expect_penetration(penetrate(capsule, 0.3f, box, 0.0f), 0.4f, Vec3(0, -1, 0));
  }
}

TEST(EPAPenetration, HullHullFromPointClouds) {
  // Octahedron (vertex at +x) turned about x, against a box of half extent 2 given as corners.
  const Vec3 octahedron[6] = {Vec3(1, 0, 0),  Vec3(-1, 0, 0), Vec3(0, 1, 0),
                              Vec3(0, -1, 0), Vec3(0, 0, 1),  Vec3(0, 0, -1)};
  std::vector<Vec3> box_corners;
  for (int i = 0; i < 8; ++i)
    box_corners.push_back(Vec3(i & 1 ? 2.0f : -2.0f, i & 2 ? 2.0f : -2.0f, i & 4 ? 2.0f : -2.0f));
  const PolygonConvex octa_points{octahedron};
  const PolygonConvex box_points{box_corners};
  const TransformedConvex a(
      Mat44::rotation_translation(Quat::rotation(Vec3::axis_x(), 0.4f), Vec3(0.5f, 0.2f, 0.1f)),
      octa_points);
  const TransformedConvex b(
      Mat44::rotation_translation(Quat::rotation(Vec3::axis_x(), 1.1f), Vec3(0.5f + 2.9f, 0, 0)),
      box_points);
  const Penetration r = penetrate(a, 0.0f, b, 0.0f);
  expect_penetration(r, 0.1f, Vec3(1, 0, 0));
  expect_vec_near(r.point_a, Vec3(1.5f, 0.2f, 0.1f), 1e-3f);
}

TEST(EPAPenetration, PointInsideBoxAndDegenerateInputs) {
  const AABoxConvex box{AABox(Vec3(-1, -2, -3), Vec3(1, 2, 3))};
  // A zero-size shape inside: depth to the nearest face (x = 1, 0.3 away).
  const PointConvex point{Vec3(0.7f, 0.5f, 1.0f)};
  expect_penetration(penetrate(point, 0.0f, box, 0.0f), 0.3f, Vec3(-1, 0, 0));
  // Two overlapping coplanar triangles: A - B is flat, there is no depth to find.
  const TriangleConvex t0{Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(0, 2, 0)};
  const TriangleConvex t1{Vec3(0.5f, 0.5f, 0), Vec3(2.5f, 0.5f, 0), Vec3(0.5f, 2.5f, 0)};
  EXPECT_EQ(penetrate(t0, 0.0f, t1, 0.0f).status, EPAPenetrationDepth::Status::NotColliding);
  // Coincident points: no volume either.
  EXPECT_EQ(penetrate(point, 0.0f, point, 0.0f).status, EPAPenetrationDepth::Status::NotColliding);
  // Boxes exactly touching face to face: a contact of depth 0, or none.
  const AABoxConvex unit{AABox(Vec3(-1, -1, -1), Vec3(1, 1, 1))};
  const TransformedConvex touching(Mat44::translation(Vec3(2, 0.5f, 0.3f)), unit);
  const Penetration r = penetrate(unit, 0.0f, touching, 0.0f);
  if (r.status == EPAPenetrationDepth::Status::Colliding) {
    EXPECT_NEAR(r.depth(), 0.0f, 1e-4f);
    expect_vec_near(r.axis, Vec3(1, 0, 0), 1e-3f);
  }
}

/// Distance of A moved by `offset` from B by GJK (0 when they overlap).
template <class A, class B>
float distance_after_move(const A& a, const Vec3& offset, const B& b) {
  const TransformedConvex moved(Mat44::translation(offset), a);
  GJKClosestPoint gjk;
  Vec3 v = offset, pa, pb;
  return std::sqrt(gjk.closest_points(moved, b, 1e-5f, k_float_max, v, pa, pb));
}

TEST(EPAPenetration, RandomBoxBoxMatchesSeparatingAxisDepth) {
  // Property: EPA depth = SAT depth (exact for boxes); moving A back by depth along the axis
  // leaves the boxes touching: separated by at most 1e-4 after a further 1e-4, and still
  // overlapping 1e-4 short of it.
  Random random(4242);
  int checked = 0;
  for (int i = 0; i < 10000; ++i) {
    const Box a{Mat44::rotation_translation(random_rotation(random), random_vec(random, -1, 1)),
                random_vec(random, 0.1f, 1.5f)};
    const float reach = (a.half.length() + 1.0f) * random.uniform(0.0f, 1.0f);
    const Box b{Mat44::rotation_translation(
                    random_rotation(random),
                    a.transform.translation() + random_vec(random, -1, 1).normalized() * reach),
                random_vec(random, 0.1f, 1.5f)};
    Vec3 sat_axis;
    const double sat_depth = test::box_box_sat_depth(a, b, sat_axis);
    if (sat_depth < 1e-3) continue;  // separated or grazing
    ++checked;
    const AABoxConvex a_local = a.local(), b_local = b.local();
    const TransformedConvex a_shape(a.transform, a_local);
    const TransformedConvex b_shape(b.transform, b_local);
    const Penetration r = penetrate(a_shape, 0.0f, b_shape, 0.0f);
    ASSERT_EQ(r.status, EPAPenetrationDepth::Status::Colliding) << i;
    ASSERT_NEAR(r.depth(), sat_depth, 1e-4) << i;
    const float separated = distance_after_move(a_shape, -r.axis * (r.depth() + 1e-4f), b_shape);
    ASSERT_GT(separated, 0.0f) << i;
    ASSERT_LE(separated, 2e-4f) << i;
    ASSERT_EQ(distance_after_move(a_shape, -r.axis * (r.depth() - 1e-4f), b_shape), 0.0f) << i;
  }
  EXPECT_GT(checked, 5000);
}

TEST(EPAPenetration, RandomSphereBoxMatchesAnalyticDepth) {
  // Sphere as a point core plus radius (GJK path when the centre is outside, EPA inside).
  Random random(777);
  int inside = 0, outside = 0;
  for (int i = 0; i < 10000; ++i) {
    const Box box{Mat44::rotation_translation(random_rotation(random), random_vec(random, -1, 1)),
                  random_vec(random, 0.1f, 1.5f)};
    const float radius = random.uniform(0.05f, 1.0f);
    const Vec3 center = box.transform * (random_vec(random, -1.3f, 1.3f) * box.half);
    const Vec3 local = box.transform.inversed_rotation_translation() * center;
    double expected;
    const double outside_distance = test::point_box_distance(box, center);
    if (outside_distance > 0.0) {
      expected = radius - outside_distance;
    } else {
      double to_face = 1e30;
      for (int k = 0; k < 3; ++k)
        to_face = std::min(to_face, static_cast<double>(box.half[k] - std::fabs(local[k])));
      expected = radius + to_face;
    }
    if (std::fabs(expected) < 1e-3) continue;
    const AABoxConvex box_local = box.local();
    const TransformedConvex box_shape(box.transform, box_local);
    const PointConvex core{center};
    const Penetration r = penetrate(core, radius, box_shape, 0.0f);
    if (expected < 0.0) {
      ASSERT_EQ(r.status, EPAPenetrationDepth::Status::NotColliding) << i;
      continue;
    }
    ASSERT_EQ(r.status, EPAPenetrationDepth::Status::Colliding) << i;
    ASSERT_NEAR(r.depth(), expected, 1e-4) << i;
    (outside_distance > 0.0 ? outside : inside)++;
  }
  EXPECT_GT(inside, 1000);
  EXPECT_GT(outside, 1000);
}

TEST(EPAPenetration, RandomCurvedSphereBoxMatchesAnalyticDepth) {
  // The sphere as a curved support with no radius: EPA must converge on a curved surface.
  Random random(31);
  for (int i = 0; i < 2000; ++i) {
    const Box box{Mat44::rotation_translation(random_rotation(random), random_vec(random, -1, 1)),
                  random_vec(random, 0.2f, 1.5f)};
    const SphereConvex sphere{box.transform * (random_vec(random, -1.2f, 1.2f) * box.half),
                              random.uniform(0.1f, 1.0f)};
    const double outside_distance = test::point_box_distance(box, sphere.center);
    if (outside_distance >= sphere.radius - 1e-3) continue;
    double expected = sphere.radius - outside_distance;
    if (outside_distance == 0.0) {
      const Vec3 local = box.transform.inversed_rotation_translation() * sphere.center;
      double to_face = 1e30;
      for (int k = 0; k < 3; ++k)
        to_face = std::min(to_face, static_cast<double>(box.half[k] - std::fabs(local[k])));
      expected = sphere.radius + to_face;
    }
    const AABoxConvex box_local = box.local();
    const TransformedConvex box_shape(box.transform, box_local);
    const Penetration r = penetrate(sphere, 0.0f, box_shape, 0.0f);
    ASSERT_EQ(r.status, EPAPenetrationDepth::Status::Colliding) << i;
    ASSERT_NEAR(r.depth(), expected, 1e-4) << i;
  }
}

TEST(EPAPenetration, RandomHullsWithRadiiSeparateAlongTheAxis) {
  // Property for point-cloud hulls (some flat, some a single point) with and without convex
  // radius: moving A back by depth + 2e-4 along the axis separates them by at most 5e-4, and
  // moving it by depth - 2e-4 does not.
  Random random(99);
  int colliding = 0;
  for (int i = 0; i < 3000; ++i) {
    std::vector<Vec3> points_a, points_b;
    const int count_a = random.uniform_int(1, 20), count_b = random.uniform_int(1, 20);
    const float flatness = random.next_float() < 0.2f ? 0.0f : 1.0f;
    for (int k = 0; k < count_a; ++k)
      points_a.push_back(random_vec(random, -1, 1) * Vec3(1, 1, flatness));
    for (int k = 0; k < count_b; ++k) points_b.push_back(random_vec(random, -1, 1));
    const PolygonConvex cloud_a{points_a}, cloud_b{points_b};
    const TransformedConvex a(
        Mat44::rotation_translation(random_rotation(random), random_vec(random, -0.7f, 0.7f)),
        cloud_a);
    const TransformedConvex b(
        Mat44::rotation_translation(random_rotation(random), random_vec(random, -0.7f, 0.7f)),
        cloud_b);
    const float radius_a = random.next_float() < 0.5f ? 0.0f : random.uniform(0.0f, 0.3f);
    const float radius_b = random.next_float() < 0.5f ? 0.0f : random.uniform(0.0f, 0.3f);
    const Penetration r = penetrate(a, radius_a, b, radius_b);
    if (r.status != EPAPenetrationDepth::Status::Colliding || r.depth() < 3e-4f) continue;
    ++colliding;
    const AddConvexRadius a_full(a, radius_a);
    const AddConvexRadius b_full(b, radius_b);
    const float separated = distance_after_move(a_full, -r.axis * (r.depth() + 2e-4f), b_full);
    ASSERT_GT(separated, 0.0f) << i;
    ASSERT_LE(separated, 5e-4f) << i;
    ASSERT_EQ(distance_after_move(a_full, -r.axis * (r.depth() - 2e-4f), b_full), 0.0f) << i;
  }
  EXPECT_GT(colliding, 1500);
}

TEST(EPACastShape, StartingInsideFallsBackToPenetration) {
  const AABoxConvex box{AABox(Vec3(-1, -1, -1), Vec3(1, 1, 1))};
  const PointConvex center{Vec3::zero()};
  EPAPenetrationDepth epa;
  Vec3 pa, pb, axis;
  // Centre 0.2 inside the -x face, radius 0.5: depth 0.7 along +x.
  float lambda = 1.0f;
  ASSERT_TRUE(epa.cast_shape(Mat44::translation(Vec3(-0.8f, 0, 0)), Vec3(10, 0, 0),
                             k_collision_tolerance, k_penetration_tolerance, center, box, 0.5f,
                             0.0f, false, lambda, pa, pb, axis));
  EXPECT_EQ(lambda, 0.0f);
  expect_vec_near(axis, Vec3(1, 0, 0), 1e-4f);
  expect_vec_near(pa, Vec3(-0.3f, 0, 0), 1e-4f);
  expect_vec_near(pb, Vec3(-1, 0, 0), 1e-4f);
  // Only the radii overlap (0.2): the deepest point on request.
  lambda = 1.0f;
  ASSERT_TRUE(epa.cast_shape(Mat44::translation(Vec3(-1.3f, 0, 0)), Vec3(10, 0, 0),
                             k_collision_tolerance, k_penetration_tolerance, center, box, 0.5f,
                             0.0f, true, lambda, pa, pb, axis));
  EXPECT_EQ(lambda, 0.0f);
  expect_vec_near(axis, Vec3(1, 0, 0), 1e-4f);
  EXPECT_NEAR((pa - pb).dot(axis), 0.2f, 1e-4f);
  // Not overlapping at the start: GJK's time of impact (centre reaches -1.5 after 3.5 of 10).
  lambda = 1.0f;
  ASSERT_TRUE(epa.cast_shape(Mat44::translation(Vec3(-5, 0.2f, 0)), Vec3(10, 0, 0),
                             k_collision_tolerance, k_penetration_tolerance, center, box, 0.5f,
                             0.0f, true, lambda, pa, pb, axis));
  EXPECT_NEAR(lambda, 0.35f, 1e-4f);
  EXPECT_GT(axis.normalized().x(), 0.9999f);
  lambda = 1.0f;
  EXPECT_FALSE(epa.cast_shape(Mat44::translation(Vec3(-5, 2, 0)), Vec3(10, 0, 0),
                              k_collision_tolerance, k_penetration_tolerance, center, box, 0.5f,
                              0.0f, true, lambda, pa, pb, axis));
}

}  // namespace
}  // namespace epa_test
}  // namespace atl
