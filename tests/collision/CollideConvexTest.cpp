// collide_shapes between convex shapes: manifolds against closed-form answers.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "CollideTestUtil.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/CapsuleShape.h"
#include "atoll/shape/ConvexHullShape.h"
#include "atoll/shape/CylinderShape.h"
#include "atoll/shape/SphereShape.h"

namespace atl::test {
namespace collide_convex_test {
namespace {

constexpr float k_depth = 0.01f;
const Vec3 k_down(0, -1, 0);

// A 10 × 1 × 10 floor whose top face is the plane y = 0.
Ref<Shape> floor_box() { return make_ref<BoxShape>(Vec3(5, 0.5f, 5)); }
Mat44 floor_transform() { return Mat44::translation(Vec3(0, -0.5f, 0)); }

// The corners (on y = 0) of a box's bottom face of half extent (hx, hz), rotated by `angle`
// about y and centred at (cx, cz).
std::vector<Vec3> bottom_corners(float hx, float hz, float angle, float cx, float cz, float y) {
  std::vector<Vec3> corners;
  const Quat q = Quat::rotation(Vec3::axis_y(), angle);
  for (const auto& [sx, sz] : {std::pair{1, 1}, {-1, 1}, {-1, -1}, {1, -1}})
    corners.push_back(Vec3(cx, y, cz) + q * Vec3(sx * hx, 0, sz * hz));
  return corners;
}

TEST(CollideConvex, BoxRestingOnBoxGivesTheFourCornersOfTheOverlap) {
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(1, 0.5f, 1.5f));
  const Mat44 transform = Mat44::translation(Vec3(0.7f, 0.5f - k_depth, -1.2f));
  const auto manifolds = collide_all(*box, transform, *floor_box(), floor_transform());
  ASSERT_EQ(manifolds.size(), 1u);
  const ContactManifold& m = manifolds[0];
  EXPECT_TRUE(vec_near(m.normal, k_down, 1e-5f));
  EXPECT_NEAR(m.penetration_depth, k_depth, 1e-4f);
  EXPECT_TRUE(same_points(m.points_on_2, bottom_corners(1, 1.5f, 0, 0.7f, -1.2f, 0), 1e-4f));
  EXPECT_TRUE(same_points(m.points_on_1, bottom_corners(1, 1.5f, 0, 0.7f, -1.2f, -k_depth), 1e-4f));
  EXPECT_TRUE(m.sub_shape_id1.is_empty());
  EXPECT_TRUE(m.sub_shape_id2.is_empty());
}

TEST(CollideConvex, BoxOverhangingTheEdgeGivesTheOverlapRectangle) {
  // The box hangs over the floor's +x edge (x = 5): only x ≤ 5 of its bottom is supported.
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(1, 0.5f, 1));
  const auto manifolds = collide_all(*box, Mat44::translation(Vec3(4.5f, 0.5f - k_depth, 0)),
                                     *floor_box(), floor_transform());
  ASSERT_EQ(manifolds.size(), 1u);
  const std::vector<Vec3> expected = {Vec3(5, 0, 1), Vec3(3.5f, 0, 1), Vec3(3.5f, 0, -1),
                                      Vec3(5, 0, -1)};
  EXPECT_TRUE(same_points(manifolds[0].points_on_2, expected, 1e-4f));
}

TEST(CollideConvex, RotatedBoxOnBiggerBoxGivesItsRotatedCorners) {
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(1, 0.5f, 1));
  const float angle = 0.25f * k_pi;
  const Mat44 transform = Mat44::rotation_translation(Quat::rotation(Vec3::axis_y(), angle),
                                                      Vec3(1, 0.5f - k_depth, 2));
  const auto manifolds = collide_all(*box, transform, *floor_box(), floor_transform());
  ASSERT_EQ(manifolds.size(), 1u);
  EXPECT_TRUE(vec_near(manifolds[0].normal, k_down, 1e-5f));
  EXPECT_NEAR(manifolds[0].penetration_depth, k_depth, 1e-4f);
  EXPECT_TRUE(same_points(manifolds[0].points_on_2, bottom_corners(1, 1, angle, 1, 2, 0), 1e-4f));
}

TEST(CollideConvex, SphereOnBoxGivesOnePoint) {
  const Ref<Shape> sphere = make_ref<SphereShape>(0.5f);
  const auto manifolds = collide_all(*sphere, Mat44::translation(Vec3(0.3f, 0.5f - k_depth, 0.2f)),
                                     *floor_box(), floor_transform());
  ASSERT_EQ(manifolds.size(), 1u);
  const ContactManifold& m = manifolds[0];
  EXPECT_TRUE(vec_near(m.normal, k_down, 1e-5f));
  EXPECT_NEAR(m.penetration_depth, k_depth, 1e-5f);
  EXPECT_TRUE(same_points(m.points_on_1, {Vec3(0.3f, -k_depth, 0.2f)}, 1e-5f));
  EXPECT_TRUE(same_points(m.points_on_2, {Vec3(0.3f, 0, 0.2f)}, 1e-5f));
}

TEST(CollideConvex, SphereOnSphereMatchesTheClosedForm) {
  const Ref<Shape> a = make_ref<SphereShape>(0.5f);
  const Ref<Shape> b = make_ref<SphereShape>(0.25f);
  const Vec3 offset = Vec3(0.3f, 0.4f, 0.2f);  // |offset| = 0.5385 < 0.75
  const auto manifolds = collide_all(*a, Mat44::translation(Vec3(1, 2, 3)), *b,
                                     Mat44::translation(Vec3(1, 2, 3) + offset));
  ASSERT_EQ(manifolds.size(), 1u);
  const Vec3 n = offset.normalized();
  EXPECT_TRUE(vec_near(manifolds[0].normal, n, 1e-5f));
  EXPECT_NEAR(manifolds[0].penetration_depth, 0.75f - offset.length(), 1e-5f);
  EXPECT_TRUE(same_points(manifolds[0].points_on_1, {Vec3(1, 2, 3) + n * 0.5f}, 1e-5f));
  EXPECT_TRUE(same_points(manifolds[0].points_on_2, {Vec3(1, 2, 3) + offset - n * 0.25f}, 1e-5f));
}

TEST(CollideConvex, CapsuleLyingOnBoxGivesTwoPoints) {
  const Ref<Shape> capsule = make_ref<CapsuleShape>(1.0f, 0.3f);
  // Lying along x: the capsule's y axis turned onto x.
  const Mat44 transform = Mat44::rotation_translation(Quat::rotation(Vec3::axis_z(), k_half_pi),
                                                      Vec3(0.5f, 0.3f - k_depth, 0.25f));
  const auto manifolds = collide_all(*capsule, transform, *floor_box(), floor_transform());
  ASSERT_EQ(manifolds.size(), 1u);
  EXPECT_TRUE(vec_near(manifolds[0].normal, k_down, 1e-5f));
  EXPECT_NEAR(manifolds[0].penetration_depth, k_depth, 1e-4f);
  EXPECT_TRUE(
      same_points(manifolds[0].points_on_2, {Vec3(-0.5f, 0, 0.25f), Vec3(1.5f, 0, 0.25f)}, 1e-4f));
  EXPECT_TRUE(same_points(manifolds[0].points_on_1,
                          {Vec3(-0.5f, -k_depth, 0.25f), Vec3(1.5f, -k_depth, 0.25f)}, 1e-4f));
}

TEST(CollideConvex, BoxLyingOnCapsuleGivesTwoPointsToo) {
  // Edge (capsule side line) vs face, the other way round: the box is shape 1.
  const Ref<Shape> capsule = make_ref<CapsuleShape>(1.0f, 0.3f);
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(2, 0.5f, 2));
  const Mat44 capsule_transform =
      Mat44::rotation_translation(Quat::rotation(Vec3::axis_z(), k_half_pi), Vec3::zero());
  const auto manifolds = collide_all(*box, Mat44::translation(Vec3(0, 0.8f - k_depth, 0)), *capsule,
                                     capsule_transform);
  ASSERT_EQ(manifolds.size(), 1u);
  EXPECT_TRUE(vec_near(manifolds[0].normal, k_down, 1e-5f));
  EXPECT_TRUE(same_points(manifolds[0].points_on_2, {Vec3(-1, 0.3f, 0), Vec3(1, 0.3f, 0)}, 1e-4f));
}

TEST(CollideConvex, CylinderStandingOnBoxGivesFourPointsOnItsRim) {
  const float radius = 0.4f;
  const Ref<Shape> cylinder = make_ref<CylinderShape>(0.5f, radius);
  const Vec3 center(0.2f, 0.5f - k_depth, -0.1f);
  const auto manifolds =
      collide_all(*cylinder, Mat44::translation(center), *floor_box(), floor_transform());
  ASSERT_EQ(manifolds.size(), 1u);
  const ContactManifold& m = manifolds[0];
  EXPECT_TRUE(vec_near(m.normal, k_down, 1e-5f));
  EXPECT_NEAR(m.penetration_depth, k_depth, 1e-4f);
  ASSERT_EQ(m.points_on_2.size(), 4u);
  for (const Vec3& p : m.points_on_2) {
    EXPECT_NEAR(p.y(), 0.0f, 1e-4f);
    EXPECT_NEAR((p - Vec3(center.x(), 0, center.z())).length(), radius, 1e-3f);
  }
  // The reduction keeps a wide quadrilateral: at least 90 % of the inscribed square 2r².
  // A quadrilateral's area is half the cross product of its diagonals; the convex order of
  // the four points (they are on a circle) gives the largest.
  const auto& p = m.points_on_2;
  const auto diagonal_area2 = [&](int a, int b, int c, int d) {
    return std::fabs((p[c] - p[a]).cross(p[d] - p[b]).y());
  };
  const float area2 = std::fmax(diagonal_area2(0, 1, 2, 3),
                                std::fmax(diagonal_area2(0, 1, 3, 2), diagonal_area2(0, 2, 1, 3)));
  EXPECT_GE(0.5f * area2, 0.9f * 2 * radius * radius);
}

TEST(CollideConvex, HullOnHullGivesTheFaceCorners) {
  ConvexHullShapeSettings cube;
  for (float x : {-0.5f, 0.5f})
    for (float y : {-0.5f, 0.5f})
      for (float z : {-0.5f, 0.5f}) cube.points.push_back(Vec3(x, y, z));
  // A wedge: a triangular prism with a flat 4 × 4 bottom face and its ridge on top.
  ConvexHullShapeSettings wedge;
  for (float z : {-2.0f, 2.0f}) {
    wedge.points.push_back(Vec3(-2, -1, z));
    wedge.points.push_back(Vec3(2, -1, z));
    wedge.points.push_back(Vec3(0, 1, z));
  }
  const Ref<Shape> a = cube.create().value();
  const Ref<Shape> b = wedge.create().value();
  // Cube upside down on the wedge's flat bottom face: the wedge is above, pressing down.
  const auto manifolds = collide_all(*b, Mat44::translation(Vec3(0, 1.5f - k_depth, 0)), *a,
                                     Mat44::translation(Vec3(0.2f, 0, 0.3f)));
  ASSERT_EQ(manifolds.size(), 1u);
  EXPECT_TRUE(vec_near(manifolds[0].normal, k_down, 1e-4f));
  EXPECT_NEAR(manifolds[0].penetration_depth, k_depth, 1e-4f);
  std::vector<Vec3> top;
  for (const auto& [x, z] : {std::pair{0.5f, 0.5f}, {-0.5f, 0.5f}, {-0.5f, -0.5f}, {0.5f, -0.5f}})
    top.push_back(Vec3(0.2f + x, 0.5f, 0.3f + z));
  EXPECT_TRUE(same_points(manifolds[0].points_on_2, top, 1e-4f));
}

TEST(CollideConvex, SeparationWithinMaxSeparationGivesNegativePenetration) {
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(0.5f, 0.5f, 0.5f));
  const float gap = 0.05f;
  const Mat44 transform = Mat44::translation(Vec3(0, 0.5f + gap, 0));
  CollideShapeSettings settings;
  settings.max_separation_distance = 0.1f;
  const auto manifolds = collide_all(*box, transform, *floor_box(), floor_transform(), settings);
  ASSERT_EQ(manifolds.size(), 1u);
  EXPECT_TRUE(vec_near(manifolds[0].normal, k_down, 1e-5f));
  EXPECT_NEAR(manifolds[0].penetration_depth, -gap, 1e-4f);
  EXPECT_TRUE(
      same_points(manifolds[0].points_on_1, bottom_corners(0.5f, 0.5f, 0, 0, 0, gap), 1e-4f));
  EXPECT_TRUE(same_points(manifolds[0].points_on_2, bottom_corners(0.5f, 0.5f, 0, 0, 0, 0), 1e-4f));

  const Ref<Shape> sphere = make_ref<SphereShape>(0.5f);
  const auto spheres = collide_all(*sphere, transform, *floor_box(), floor_transform(), settings);
  ASSERT_EQ(spheres.size(), 1u);
  EXPECT_NEAR(spheres[0].penetration_depth, -gap, 1e-5f);
  EXPECT_TRUE(same_points(spheres[0].points_on_1, {Vec3(0, gap, 0)}, 1e-5f));
}

TEST(CollideConvex, SeparationBeyondMaxSeparationGivesNothing) {
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(0.5f, 0.5f, 0.5f));
  const Ref<Shape> sphere = make_ref<SphereShape>(0.5f);
  CollideShapeSettings settings;
  settings.max_separation_distance = 0.02f;
  const Mat44 transform = Mat44::translation(Vec3(0, 0.5f + 0.05f, 0));
  EXPECT_TRUE(collide_all(*box, transform, *floor_box(), floor_transform(), settings).empty());
  EXPECT_TRUE(collide_all(*sphere, transform, *floor_box(), floor_transform(), settings).empty());
  EXPECT_TRUE(collide_all(*box, transform, *floor_box(), floor_transform()).empty());
}

TEST(CollideConvex, CollectFacesOffGivesTheDeepestPointOnly) {
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(1, 0.5f, 1));
  CollideShapeSettings settings;
  settings.collect_faces = false;
  const auto manifolds = collide_all(*box, Mat44::translation(Vec3(0, 0.5f - k_depth, 0)),
                                     *floor_box(), floor_transform(), settings);
  ASSERT_EQ(manifolds.size(), 1u);
  ASSERT_EQ(manifolds[0].points_on_1.size(), 1u);
  EXPECT_NEAR(manifolds[0].points_on_1[0].y(), -k_depth, 1e-4f);
  EXPECT_NEAR(manifolds[0].points_on_2[0].y(), 0, 1e-4f);
}

// Every manifold of (b, a) is the flipped manifold of (a, b).
void expect_swap_symmetry(const Shape& a, const Mat44& ta, const Shape& b, const Mat44& tb) {
  const auto forward = collide_all(a, ta, b, tb);
  const auto backward = collide_all(b, tb, a, ta);
  ASSERT_EQ(forward.size(), backward.size());
  for (size_t i = 0; i < forward.size(); ++i) {
    const ContactManifold& f = forward[i];
    const ContactManifold& r = backward[i];
    EXPECT_TRUE(vec_near(r.normal, -f.normal, 1e-4f));
    EXPECT_NEAR(r.penetration_depth, f.penetration_depth, 1e-4f);
    EXPECT_EQ(r.sub_shape_id1, f.sub_shape_id2);
    EXPECT_EQ(r.sub_shape_id2, f.sub_shape_id1);
    std::vector<Vec3> f1(f.points_on_1.begin(), f.points_on_1.end());
    std::vector<Vec3> f2(f.points_on_2.begin(), f.points_on_2.end());
    EXPECT_TRUE(same_points(r.points_on_2, f1, 1e-3f));
    EXPECT_TRUE(same_points(r.points_on_1, f2, 1e-3f));
  }
}

TEST(CollideConvex, SwappingTheShapesFlipsTheManifold) {
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(1, 0.5f, 1.5f));
  const Ref<Shape> sphere = make_ref<SphereShape>(0.5f);
  const Ref<Shape> capsule = make_ref<CapsuleShape>(1.0f, 0.3f);
  const Mat44 lying = Mat44::rotation_translation(Quat::rotation(Vec3::axis_z(), k_half_pi),
                                                  Vec3(0.5f, 0.3f - k_depth, 0.25f));
  expect_swap_symmetry(*box, Mat44::translation(Vec3(0.7f, 0.5f - k_depth, -1.2f)), *floor_box(),
                       floor_transform());
  expect_swap_symmetry(*sphere, Mat44::translation(Vec3(0.3f, 0.45f, 0.2f)), *floor_box(),
                       floor_transform());
  expect_swap_symmetry(*capsule, lying, *floor_box(), floor_transform());
  expect_swap_symmetry(*sphere, Mat44::translation(Vec3(0.2f, 0.3f, 0)), *box,
                       Mat44::translation(Vec3(0, -0.3f, 0)));
}

TEST(CollideConvex, ClosestContactCollectorKeepsTheDeepest) {
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(0.5f, 0.5f, 0.5f));
  ClosestContactCollector collector;
  const Mat44 floor = floor_transform();
  ASSERT_TRUE(collide_shapes(*box, Mat44::translation(Vec3(0, 0.45f, 0)), *floor_box(), floor, {},
                             collector)
                  .ok());
  ASSERT_TRUE(collide_shapes(*box, Mat44::translation(Vec3(0, 0.40f, 0)), *floor_box(), floor, {},
                             collector)
                  .ok());
  ASSERT_TRUE(collide_shapes(*box, Mat44::translation(Vec3(0, 0.48f, 0)), *floor_box(), floor, {},
                             collector)
                  .ok());
  ASSERT_TRUE(collector.has_hit);
  EXPECT_NEAR(collector.closest.penetration_depth, 0.1f, 1e-4f);
  EXPECT_NEAR(collector.early_out_fraction(), -0.1f, 1e-4f);
  EXPECT_FALSE(collector.should_early_out());
}

TEST(CollideConvex, ForcedEarlyOutReportsNothing) {
  class StopAfterFirst final : public ContactCollector {
   public:
    void add(const ContactManifold&) override {
      ++count;
      force_early_out();
    }
    int count = 0;
  };
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(0.5f, 0.5f, 0.5f));
  StopAfterFirst collector;
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(collide_shapes(*box, Mat44::translation(Vec3(0, 0.45f, 0)), *floor_box(),
                               floor_transform(), {}, collector)
                    .ok());
  EXPECT_EQ(collector.count, 1);
  EXPECT_TRUE(collector.should_early_out());
}

TEST(CollideConvex, InvalidInputIsRejectedWithTheFieldName) {
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(0.5f, 0.5f, 0.5f));
  AllContactsCollector collector;
  CollideShapeSettings settings;
  settings.max_separation_distance = -1;
  Status status = collide_shapes(*box, Mat44(), *box, Mat44(), settings, collector);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(std::string(status.error().message()),
            "CollideShapeSettings.max_separation_distance: must be >= 0, got -1")
      << status.error().message();

  settings = {};
  settings.active_edge_cos = 2;
  status = collide_shapes(*box, Mat44(), *box, Mat44(), settings, collector);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(std::string(status.error().message()).find("CollideShapeSettings.active_edge_cos"),
            std::string::npos);

  status = collide_shapes(*box, Mat44::translation(Vec3(k_float_max * 2, 0, 0)), *box, Mat44(), {},
                          collector);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(std::string(status.error().message()).find("collide_shapes.transform_a"),
            std::string::npos);

  status = collide_shapes(*box, Mat44(), *box, Mat44::scale(Vec3(2, 2, 2)), {}, collector);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(std::string(status.error().message()).find("collide_shapes.transform_b"),
            std::string::npos);
  EXPECT_TRUE(collector.manifolds.empty());
}

// Regression: a large max_separation_distance spoiled deep penetrations. Symptom: a sphere
// whose centre was inside a box, at a separation of 100 m, reported depth 10.909 instead of
// 11, and from 500 m negative depths down to −340. Measured here before the fix (worst error
// over the cases below): 6.7e-5 m at 0 m, 4.8e-5 m at 1 m, 0.75 m at 100 m, 14.5 m at 500 m
// (negative depths where +3 m was right). Cause: shape 1 was grown by the separation for the whole
// query, so when the cores overlapped, EPA expanded a polytope around a sphere of radius 101 or 501
// m, whose tolerance and round-off scale with that size. Fix: the growth serves only GJK's path
// (cores apart, where it is exact); when the cores overlap, EPA measures the real shapes, whose
// depth does not depend on the separation. Reading now: the same depths at every separation, within
// EPA's tolerance (≤ 2e-4 m of the closed form).
TEST(CollideConvex, DeepPenetrationDepthDoesNotDependOnMaxSeparation) {
  const Ref<Shape> small_box = make_ref<BoxShape>(Vec3(1, 1, 1));
  const Ref<Shape> grid = flat_grid(10).create().value();
  for (const float separation : {0.0f, 1.0f, 100.0f, 500.0f}) {
    CollideShapeSettings settings;
    settings.max_separation_distance = separation;
    Random random(17);
    float worst = 0.0f;
    for (int i = 0; i < 200; ++i) {
      const Vec3 half(random.uniform(1, 20), random.uniform(1, 20), random.uniform(1, 20));
      const float radius = random.uniform(0.1f, 3);
      const Ref<Shape> box = make_ref<BoxShape>(half);
      const Ref<Shape> sphere = make_ref<SphereShape>(radius);
      const Vec3 c =
          0.9f * Vec3(random.uniform(-half.x(), half.x()), random.uniform(-half.y(), half.y()),
                      random.uniform(-half.z(), half.z()));
      // The exact depth: sphere centre inside the box → radius + distance to the nearest face.
      const float expected =
          radius + std::min({half.x() - std::fabs(c.x()), half.y() - std::fabs(c.y()),
                             half.z() - std::fabs(c.z())});
      const auto as_first = collide_all(*sphere, Mat44::translation(c), *box, Mat44(), settings);
      const auto as_second = collide_all(*box, Mat44(), *sphere, Mat44::translation(c), settings);
      ASSERT_EQ(as_first.size(), 1u) << separation << " " << i;
      ASSERT_EQ(as_second.size(), 1u) << separation << " " << i;
      worst = std::max(worst, std::fabs(as_first[0].penetration_depth - expected));
      worst = std::max(worst, std::fabs(as_second[0].penetration_depth - expected));
    }
    // A box whose core cuts a flat mesh: depth = half height − height of the centre.
    const float height = 0.3f;
    const auto on_mesh = collide_all(*small_box, Mat44::translation(Vec3(5.2f, height, 4.9f)),
                                     *grid, Mat44(), settings);
    ASSERT_FALSE(on_mesh.empty()) << separation;
    for (const ContactManifold& m : on_mesh) {
      EXPECT_TRUE(vec_near(m.normal, k_down, 1e-4f)) << separation;
      worst = std::max(worst, std::fabs(m.penetration_depth - (1.0f - height)));
    }
    EXPECT_LE(worst, 2e-4f) << "max_separation_distance " << separation;
  }
}

// Regression (see LargeFloorLawsTest.cpp): a box resting 1 cm deep on a floor box of half
// extent 3e5 m got no contact (a float resolves the floor's support points to 3 cm). Cause and
// fix: boxes larger than 1e4 m are cut down to the part near the other shape before GJK/EPA.
// Reading now: the same four corners and depth as on a 10 m floor, either shape first.
TEST(CollideConvex, BoxOnHugeFloorBoxGivesTheFourCorners) {
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(1, 0.5f, 1.5f));
  for (const float h : {3.0e5f, 1.0e6f}) {
    const Ref<Shape> floor = make_ref<BoxShape>(Vec3(h, 0.5f, h));
    const Mat44 transform = Mat44::translation(Vec3(0.7f, 0.5f - k_depth, -1.2f));
    const auto manifolds = collide_all(*box, transform, *floor, floor_transform());
    ASSERT_EQ(manifolds.size(), 1u) << h;
    EXPECT_TRUE(vec_near(manifolds[0].normal, k_down, 1e-5f));
    EXPECT_NEAR(manifolds[0].penetration_depth, k_depth, 1e-4f);
    EXPECT_TRUE(
        same_points(manifolds[0].points_on_2, bottom_corners(1, 1.5f, 0, 0.7f, -1.2f, 0), 1e-4f));
    const auto flipped = collide_all(*floor, floor_transform(), *box, transform);
    ASSERT_EQ(flipped.size(), 1u) << h;
    EXPECT_TRUE(vec_near(flipped[0].normal, -k_down, 1e-5f));
    EXPECT_NEAR(flipped[0].penetration_depth, k_depth, 1e-4f);
    EXPECT_TRUE(
        same_points(flipped[0].points_on_1, bottom_corners(1, 1.5f, 0, 0.7f, -1.2f, 0), 1e-4f));
  }
}

// Issue 7 item 11: a flat convex hull (a 2D rectangle, convex radius 0.05) collides as a plate
// 0.1 m thick whose outline is the rectangle, corners rounded by r: lying on the floor it gives
// the four corners of its flat bottom face (the rectangle inset by r, ±0.95 × ±1.95), a sphere
// on it one point, both with the closed-form depth.
TEST(CollideConvex, FlatHullPlateOnBoxGivesItsFourCorners) {
  ConvexHullShapeSettings settings;
  settings.points = {Vec3(-1, 0, -2), Vec3(1, 0, -2), Vec3(1, 0, 2), Vec3(-1, 0, 2)};
  settings.max_convex_radius = 0.05f;
  const Ref<Shape> plate = settings.create().value();
  const Mat44 transform = Mat44::translation(Vec3(0.5f, 0.05f - k_depth, 0.3f));
  const auto manifolds = collide_all(*plate, transform, *floor_box(), floor_transform());
  ASSERT_EQ(manifolds.size(), 1u);
  EXPECT_TRUE(vec_near(manifolds[0].normal, k_down, 1e-5f));
  EXPECT_NEAR(manifolds[0].penetration_depth, k_depth, 1e-4f);
  EXPECT_TRUE(
      same_points(manifolds[0].points_on_2, bottom_corners(0.95f, 1.95f, 0, 0.5f, 0.3f, 0), 1e-4f));

  const Ref<Shape> sphere = make_ref<SphereShape>(0.5f);
  const auto on_plate =
      collide_all(*sphere, Mat44::translation(Vec3(0.3f, 0.55f - k_depth, 0.2f)), *plate, Mat44());
  ASSERT_EQ(on_plate.size(), 1u);
  EXPECT_TRUE(vec_near(on_plate[0].normal, k_down, 1e-4f));
  EXPECT_NEAR(on_plate[0].penetration_depth, k_depth, 1e-4f);
  EXPECT_TRUE(same_points(on_plate[0].points_on_2, {Vec3(0.3f, 0.05f, 0.2f)}, 1e-4f));
}

}  // namespace
}  // namespace collide_convex_test
}  // namespace atl::test
