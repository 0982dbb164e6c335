// Face clipping and manifold reduction (ManifoldBuilder.h) on hand-made faces.

#include <gtest/gtest.h>

#include <cmath>

#include "CollideTestUtil.h"
#include "atoll/collision/narrowphase/ManifoldBuilder.h"

namespace atl::test {
namespace manifold_builder_test {
namespace {

const Vec3 k_down(0, -1, 0);  // contact normal from shape 1 (above) to shape 2 (below)

// Square of half size h at height y, centred at (cx, cz), in either winding.
SupportingFace square(float h, float y, float cx = 0, float cz = 0, bool reverse = false) {
  SupportingFace face;
  const float corners[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
  for (int i = 0; i < 4; ++i) {
    const int k = reverse ? 3 - i : i;
    face.push_back(Vec3(cx + corners[k][0] * h, y, cz + corners[k][1] * h));
  }
  return face;
}

TEST(ManifoldBuilder, SmallSquareOnBigSquareGivesTheSmallCorners) {
  // Shape 1's bottom face at y = -0.01 (it sinks 1 cm), shape 2's top face at y = 0.
  for (bool reverse : {false, true}) {
    ContactPoints points;
    manifold_between_faces(Vec3(0, -0.01f, 0), Vec3(0, 0, 0), k_down, 1e-3f,
                           square(0.5f, -0.01f, 0, 0, reverse), square(3, 0, 0, 0, !reverse),
                           points);
    ASSERT_EQ(points.size(), 4u);
    std::vector<Vec3> expected_2, expected_1;
    for (const Vec3& c : square(0.5f, 0)) expected_2.push_back(c);
    for (const Vec3& c : square(0.5f, -0.01f)) expected_1.push_back(c);
    EXPECT_TRUE(same_points(points.on_2, expected_2, 1e-6f));
    EXPECT_TRUE(same_points(points.on_1, expected_1, 1e-6f));
  }
}

TEST(ManifoldBuilder, OverlapOfTwoShiftedSquaresIsTheirIntersection) {
  ContactPoints points;
  manifold_between_faces(Vec3(), Vec3(), k_down, 1e-3f, square(1, 0), square(1, 0, 1.5f, 0.5f),
                         points);
  EXPECT_TRUE(same_points(
      points.on_2, {Vec3(0.5f, 0, 1), Vec3(1, 0, 1), Vec3(1, 0, -0.5f), Vec3(0.5f, 0, -0.5f)},
      1e-6f));
}

TEST(ManifoldBuilder, EdgeOnPolygonAndPolygonOnEdgeGiveTheSegment) {
  SupportingFace edge;
  edge.push_back(Vec3(-2, 0, 0.3f));
  edge.push_back(Vec3(2, 0, 0.3f));
  ContactPoints edge_first, polygon_first;
  // A 2 m long edge lying across a 1 × 1 square: clipped to the square.
  manifold_between_faces(Vec3(), Vec3(), k_down, 1e-3f, edge, square(0.5f, 0), edge_first);
  EXPECT_TRUE(same_points(edge_first.on_2, {Vec3(-0.5f, 0, 0.3f), Vec3(0.5f, 0, 0.3f)}, 1e-6f));
  manifold_between_faces(Vec3(), Vec3(), -k_down, 1e-3f, square(0.5f, 0), edge, polygon_first);
  EXPECT_TRUE(same_points(polygon_first.on_2, {Vec3(-0.5f, 0, 0.3f), Vec3(0.5f, 0, 0.3f)}, 1e-6f));
}

TEST(ManifoldBuilder, ParallelEdgesOverlapCrossingEdgesTouchOnce) {
  SupportingFace a, parallel, crossing;
  a.push_back(Vec3(-1, 0, 0));
  a.push_back(Vec3(1, 0, 0));
  parallel.push_back(Vec3(0.5f, -0.001f, 0));
  parallel.push_back(Vec3(3, -0.001f, 0));
  crossing.push_back(Vec3(0, -0.001f, -1));
  crossing.push_back(Vec3(0, -0.001f, 1));
  ContactPoints overlap, touch;
  manifold_between_faces(Vec3(), Vec3(), k_down, 1e-3f, a, parallel, overlap);
  EXPECT_TRUE(same_points(overlap.on_2, {Vec3(0.5f, -0.001f, 0), Vec3(1, -0.001f, 0)}, 1e-6f));
  manifold_between_faces(Vec3(0, 0, 0), Vec3(0, -0.001f, 0), k_down, 1e-3f, a, crossing, touch);
  EXPECT_TRUE(same_points(touch.on_2, {Vec3(0, -0.001f, 0)}, 1e-6f));
}

TEST(ManifoldBuilder, PointsTooFarInFrontAreDroppedAndTheDeepestPairRemains) {
  // Shape 2's face 2 cm below shape 1's face: beyond the 1 mm allowed, so the given pair is
  // all that remains.
  ContactPoints points;
  manifold_between_faces(Vec3(0.1f, 0, 0), Vec3(0.1f, -0.02f, 0), k_down, 1e-3f, square(1, 0),
                         square(1, -0.02f), points);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points.on_1[0], Vec3(0.1f, 0, 0));
  // A tilted face 2: only its corners within range survive.
  SupportingFace tilted;
  for (const Vec3& c : square(1, 0)) tilted.push_back(c + Vec3(0, 0.01f * c.x() - 0.01f, 0));
  ContactPoints some;
  manifold_between_faces(Vec3(), Vec3(), k_down, 1e-3f, square(1, 0), tilted, some);
  EXPECT_EQ(some.size(), 2u);
  for (const Vec3& p : some.on_2) EXPECT_NEAR(p.x(), 1.0f, 1e-5f);
}

TEST(ManifoldBuilder, ReductionKeepsTheDeepestAndTheWidestQuad) {
  // 16 points on a circle in the contact plane y = 0, point 5 the deepest.
  ContactPoints points;
  for (int i = 0; i < 16; ++i) {
    const float angle = k_two_pi * static_cast<float>(i) / 16;
    const Vec3 p(atl::cos(angle), 0, atl::sin(angle));
    const float depth = i == 5 ? 0.02f : 0.01f;
    points.push_back(p + Vec3(0, -depth, 0), p);
  }
  ContactPoints reduced = points;
  reduce_manifold(reduced, k_down);
  ASSERT_EQ(reduced.size(), 4u);
  EXPECT_EQ(reduced.on_2[0], points.on_2[5]);
  // The farthest from point 5 is its antipode (13); the widest quad is a square.
  EXPECT_EQ(reduced.on_2[1], points.on_2[13]);
  EXPECT_NEAR((reduced.on_2[2] - reduced.on_2[3]).length(), 2.0f, 1e-5f);
  EXPECT_NEAR((reduced.on_2[3] - reduced.on_2[2]).dot(reduced.on_2[1] - reduced.on_2[0]), 0.0f,
              1e-5f);
  // Deterministic: the same input gives the same output.
  ContactPoints again = points;
  reduce_manifold(again, k_down);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(again.on_1[i], reduced.on_1[i]);
}

TEST(ManifoldBuilder, EquallyDeepPointsKeepTheOutline) {
  // A 3 × 3 grid of equally deep points: the reduction keeps the four outer corners.
  ContactPoints points;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Vec3 p(static_cast<float>(i), 0, static_cast<float>(j));
      points.push_back(p + Vec3(0, -0.01f, 0), p);
    }
  reduce_manifold(points, k_down);
  EXPECT_TRUE(same_points(points.on_2, {Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(0, 0, 2), Vec3(2, 0, 2)},
                          1e-6f));
}

TEST(ManifoldBuilder, FourOrFewerPointsAreKept) {
  ContactPoints points;
  points.push_back(Vec3(0, -1, 0), Vec3(0, 0, 0));
  points.push_back(Vec3(1, -1, 0), Vec3(1, 0, 0));
  points.push_back(Vec3(1, -1, 0), Vec3(1, 0, 0));
  reduce_manifold(points, k_down);
  EXPECT_EQ(points.size(), 3u);
}

}  // namespace
}  // namespace manifold_builder_test
}  // namespace atl::test
