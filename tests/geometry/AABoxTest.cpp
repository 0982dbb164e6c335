#include "atoll/geometry/AABox.h"

#include <gtest/gtest.h>

#include "geometry/ConvexTestUtil.h"

namespace atl {
namespace aa_box_test {
namespace {

using test::random_rotation;
using test::random_vec;

TEST(AABox, RayFraction) {
  const AABox box(Vec3(-1, -2, -3), Vec3(1, 2, 3));
  EXPECT_NEAR(box.ray_fraction(Vec3(-5, 0, 0), Vec3(1, 0, 0).reciprocal()), 4.0f, 1e-6f);
  EXPECT_NEAR(box.ray_fraction(Vec3(0, 5, 0), Vec3(0, -0.5f, 0).reciprocal()), 6.0f, 1e-6f);
  // Inside: 0.
  EXPECT_EQ(box.ray_fraction(Vec3(0.5f, 0, 0), Vec3(1, 1, 1).reciprocal()), 0.0f);
  // Parallel outside a slab, pointing away, and beyond max_fraction: miss.
  EXPECT_EQ(box.ray_fraction(Vec3(-5, 2.5f, 0), Vec3(1, 0, 0).reciprocal()), k_float_max);
  EXPECT_EQ(box.ray_fraction(Vec3(-5, 0, 0), Vec3(-1, 0, 0).reciprocal()), k_float_max);
  EXPECT_EQ(box.ray_fraction(Vec3(-5, 0, 0), Vec3(1, 0, 0).reciprocal(), 3.9f), k_float_max);
  EXPECT_NEAR(box.ray_fraction(Vec3(-5, 0, 0), Vec3(1, 0, 0).reciprocal(), 4.1f), 4.0f, 1e-6f);
}

TEST(AABox, TransformedBoundsTheTransformedCorners) {
  Random random(3);
  for (int i = 0; i < 1000; ++i) {
    const AABox box(random_vec(random, -2, 0), random_vec(random, 0, 2));
    const Mat44 m = Mat44::rotation_translation(random_rotation(random), random_vec(random, -5, 5));
    const AABox t = box.transformed(m);
    AABox expected;
    for (int c = 0; c < 8; ++c) {
      const Vec3 corner(c & 1 ? box.max.x() : box.min.x(), c & 2 ? box.max.y() : box.min.y(),
                        c & 4 ? box.max.z() : box.min.z());
      expected.encapsulate(m * corner);
    }
    // Arvo's bounds are exactly the corners' bounds (up to rounding).
    ASSERT_TRUE(t.min.is_close(expected.min, 1e-9f)) << i;
    ASSERT_TRUE(t.max.is_close(expected.max, 1e-9f)) << i;
  }
}

TEST(AABox, EncapsulateGrowsFromEmpty) {
  AABox box;
  EXPECT_FALSE(box.is_valid());
  box.encapsulate(Vec3(1, 2, 3));
  EXPECT_TRUE(box.is_valid());
  EXPECT_EQ(box.min, Vec3(1, 2, 3));
  EXPECT_EQ(box.max, Vec3(1, 2, 3));
  box.encapsulate(Vec3(-1, 5, 0));
  EXPECT_EQ(box.min, Vec3(-1, 2, 0));
  EXPECT_EQ(box.max, Vec3(1, 5, 3));
  box.encapsulate(AABox(Vec3(0, 0, 0), Vec3(0.5f, 0.5f, 10)));
  EXPECT_EQ(box.min, Vec3(-1, 0, 0));
  EXPECT_EQ(box.max, Vec3(1, 5, 10));
  // An empty box encapsulated changes nothing.
  box.encapsulate(AABox());
  EXPECT_EQ(box.min, Vec3(-1, 0, 0));
  EXPECT_EQ(box.max, Vec3(1, 5, 10));
}

}  // namespace
}  // namespace aa_box_test
}  // namespace atl
