#include "atoll/geometry/OrientedBox.h"

#include <gtest/gtest.h>

#include "atoll/geometry/GJK.h"
#include "geometry/ConvexTestUtil.h"

namespace atl {
namespace oriented_box_test {
namespace {

using test::Box;
using test::random_rotation;
using test::random_vec;

TEST(OrientedBox, OverlapsAABoxAlongFaceAxes) {
  const AABox box(Vec3(-1, -1, -1), Vec3(1, 1, 1));
  const Quat turn = Quat::rotation(Vec3::axis_z(), 0.25f * k_pi);
  // Turned 45°: reaches √2·0.5 from its centre along x.
  EXPECT_TRUE(
      OrientedBox(Mat44::rotation_translation(turn, Vec3(1.7f, 0, 0)), Vec3(0.5f, 0.5f, 0.5f))
          .overlaps(box));
  EXPECT_FALSE(
      OrientedBox(Mat44::rotation_translation(turn, Vec3(1.75f, 0, 0)), Vec3(0.5f, 0.5f, 0.5f))
          .overlaps(box));
  // Touching faces count as overlapping.
  EXPECT_TRUE(
      OrientedBox(Mat44::translation(Vec3(0, 1.5f, 0)), Vec3(0.5f, 0.5f, 0.5f)).overlaps(box));
  // Built from a transformed AABox.
  const OrientedBox moved(Mat44::translation(Vec3(3, 0, 0)),
                          AABox(Vec3(-2.5f, 0, 0), Vec3(-1.5f, 1, 1)));
  EXPECT_TRUE(moved.overlaps(box));
  EXPECT_FALSE(
      OrientedBox(Mat44::translation(Vec3(3.1f, 0, 0)), AABox(Vec3(-2, 0, 0), Vec3(-1, 1, 1)))
          .overlaps(box));
}

TEST(OrientedBox, SeparatedOnlyByAnEdgeEdgeAxis) {
  // Two unit boxes with crossing edges (A's edge along z at x = √2, B's along y at x = c - √2):
  // every face axis overlaps, only the axis z × y = -x separates.
  const Quat a_turn = Quat::rotation(Vec3::axis_z(), 0.25f * k_pi);
  const Quat b_turn = Quat::rotation(Vec3::axis_y(), 0.25f * k_pi);
  const OrientedBox a(Mat44::rotation(a_turn), Vec3(1, 1, 1));
  const float s2 = std::sqrt(2.0f);
  const OrientedBox separated(Mat44::rotation_translation(b_turn, Vec3(2 * s2 + 0.01f, 0, 0)),
                              Vec3(1, 1, 1));
  const OrientedBox overlapping(Mat44::rotation_translation(b_turn, Vec3(2 * s2 - 0.01f, 0, 0)),
                                Vec3(1, 1, 1));
  EXPECT_FALSE(a.overlaps(separated));
  EXPECT_FALSE(separated.overlaps(a));
  EXPECT_TRUE(a.overlaps(overlapping));
  EXPECT_TRUE(overlapping.overlaps(a));
}

TEST(OrientedBox, RandomPairsAgreeWithGJK) {
  Random random(2024);
  GJKClosestPoint gjk;
  int overlapping = 0, separated = 0;
  for (int i = 0; i < 10000; ++i) {
    const Box a{Mat44::rotation_translation(random_rotation(random), random_vec(random, -2, 2)),
                random_vec(random, 0.05f, 1.5f)};
    const Box b{Mat44::rotation_translation(random_rotation(random), random_vec(random, -2, 2)),
                random_vec(random, 0.05f, 1.5f)};
    const AABoxConvex a_local = a.local(), b_local = b.local();
    const TransformedConvex a_shape(a.transform, a_local), b_shape(b.transform, b_local);
    Vec3 v = Vec3::zero(), pa, pb;
    const float distance =
        std::sqrt(gjk.closest_points(a_shape, b_shape, 1e-5f, k_float_max, v, pa, pb));
    Vec3 axis;
    const double depth = test::box_box_sat_depth(a, b, axis);
    if (distance == 0.0f && depth < 1e-3) continue;  // touching: ambiguous
    if (distance > 0.0f && distance < 1e-3f) continue;
    const bool expected = distance == 0.0f;
    (expected ? overlapping : separated)++;
    ASSERT_EQ(OrientedBox(a.transform, a.half).overlaps(OrientedBox(b.transform, b.half)), expected)
        << i;
  }
  EXPECT_GT(overlapping, 1000);
  EXPECT_GT(separated, 1000);
}

}  // namespace
}  // namespace oriented_box_test
}  // namespace atl
