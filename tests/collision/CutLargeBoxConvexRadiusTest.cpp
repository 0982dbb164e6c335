// Regression: cutting a large box down to the region near the other shape (cut_large_box,
// collision/narrowphase/ShapeInstance.h) made a box thinner than its convex radius.
// Symptom: the shapes fuzz target aborted in BoxShape's constructor ("convex radius must be in
// [0, min half extent]"; input: tests/fuzz/corpus/shapes/crash_cut_large_box_convex_radius);
// builds without asserts collided an invalid box.
// Expected: every cut box has half extents of at least its convex radius, and still covers the
// part of the large box near the other shape.
// Cause: a cut side was kept 2·margin long, not 2·max(margin, convex radius); and far from the
// box's centre the cut's hi − lo rounds by up to an ulp of the half extent.

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <random>

#include "atoll/collision/narrowphase/ShapeInstance.h"
#include "atoll/shape/BoxShape.h"

namespace atl {
namespace cut_large_box_convex_radius_test {

struct Cut {
  bool cut = false;
  std::optional<BoxShape> shape;
  ShapeInstance instance;
};

// Cuts `box` (at the origin) down to `near`; in place (the instance points at the shape).
void cut(const BoxShape& box, const AABox& near, float margin, Cut& result) {
  ShapeInstance large;
  large.shape = &box;
  large.transform = Mat44::identity();
  result.cut = cut_large_box(large, near, margin, result.shape, result.instance);
}

TEST(CutLargeBox, ACutSideIsAtLeastTwiceTheConvexRadiusLong) {
  // A rounded floor (convex radius 0.5 m, larger than the margin) and a 10 cm box on it: the
  // region near the small box is 14 cm wide, the cut box must be 1 m wide.
  const BoxShape floor(Vec3(2.0e4f, 1.0f, 2.0e4f), 0.5f);
  const AABox near(Vec3(99.95f, 1.0f, 99.95f), Vec3(100.05f, 1.1f, 100.05f));
  Cut c;
  cut(floor, near, 0.02f, c);
  ASSERT_TRUE(c.cut);
  const Vec3 half = c.shape->half_extent();
  EXPECT_GE(half.min_component(), 0.5f);
  EXPECT_EQ(half.y(), 1.0f) << "the thin axis is not cut";
  // The cut box still holds the region near the small box.
  const AABox bounds = c.shape->local_bounds().transformed(c.instance.transform);
  EXPECT_LE(bounds.min.x(), near.min.x());
  EXPECT_GE(bounds.max.x(), near.max.x());
  EXPECT_LE(bounds.min.z(), near.min.z());
  EXPECT_GE(bounds.max.z(), near.max.z());
}

TEST(CutLargeBox, EveryCutFitsItsConvexRadiusAtAnyDistanceFromTheCentre) {
  // Regions near the box's faces and corners, from 1e4 to 3e5 m from its centre, with convex
  // radii and margins from 0 to their largest: no cut box is thinner than its convex radius.
  std::mt19937 random(7);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  int cuts = 0;
  for (int i = 0; i < 20000; ++i) {
    const float extent = 1.0e4f * std::pow(30.0f, unit(random));
    const Vec3 half(extent, 0.5f + 2.0f * unit(random), extent * (0.5f + unit(random)));
    const float radius = half.min_component() * unit(random) * unit(random);
    const BoxShape box(half, radius);
    const float margin = 0.1f * unit(random);
    const float size = 0.01f + 0.5f * unit(random);
    // Near a face or beyond it, anywhere along the others.
    const Vec3 at((2.0f * unit(random) - 1.0f) * half.x() * 1.001f, half.y() + 0.01f,
                  (2.0f * unit(random) - 1.0f) * half.z() * 1.001f);
    Cut c;
    cut(box, AABox(at, at + Vec3::replicate(size)), margin, c);
    if (!c.cut) continue;
    ++cuts;
    ASSERT_GE(c.shape->half_extent().min_component(), radius)
        << "half " << half.x() << ", radius " << radius << ", margin " << margin << ", at "
        << at.x() << ", " << at.z();
  }
  EXPECT_GT(cuts, 10000);
}

}  // namespace cut_large_box_convex_radius_test
}  // namespace atl
