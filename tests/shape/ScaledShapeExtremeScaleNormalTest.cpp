// Regression (found by tests/fuzz's shapes target): a ScaledShape's surface normal was
// (inner normal / scale).normalized() in float, so a valid but extreme scale (any finite non-zero
// component is valid) overflowed it to infinity (scale 1e-40) or underflowed it to zero (1e30),
// and the normal of a ray hit came out NaN.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "atoll/shape/BoxShape.h"
#include "atoll/shape/ScaledShape.h"

namespace atl {
namespace scaled_shape_extreme_scale_normal_test {

// A box of half extent 1 scaled by `scale`; the normal of its +x face at a point on it.
Vec3 plus_x_normal(const Vec3& scale) {
  const ScaledShape shape(make_ref<BoxShape>(Vec3(1, 1, 1), 0.0f), scale);
  return shape.surface_normal(SubShapeID(), Vec3(scale.x(), 0.2f * scale.y(), 0.3f * scale.z()));
}

TEST(ScaledShapeExtremeScaleNormal, TinyScaleGivesAFiniteUnitNormal) {
  // (1, 0, 0) / 1e-40 overflowed float.
  const Vec3 normal = plus_x_normal(Vec3(1.0e-40f, 1, 1));
  EXPECT_EQ(normal, Vec3(1, 0, 0)) << normal.x() << " " << normal.y() << " " << normal.z();
}

TEST(ScaledShapeExtremeScaleNormal, HugeScaleGivesAFiniteUnitNormal) {
  // (1, 0, 0) / 1e30 is finite, but its squared length underflowed float to 0.
  const Vec3 normal = plus_x_normal(Vec3(1.0e30f, 1.0e30f, 1.0e30f));
  EXPECT_EQ(normal, Vec3(1, 0, 0)) << normal.x() << " " << normal.y() << " " << normal.z();
}

TEST(ScaledShapeExtremeScaleNormal, RayHitOnAThinBoxHasAFiniteNormal) {
  const ScaledShape shape(make_ref<BoxShape>(Vec3(1, 1, 1), 0.0f), Vec3(1, 1.0e-40f, 1));
  RayCastResult hit;
  ASSERT_TRUE(
      shape.cast_ray(RayCast{Vec3(0.1f, 1, 0.2f), Vec3(0, -2, 0)}, SubShapeIDCreator(), hit));
  const Vec3 normal = shape.surface_normal(hit.sub_shape_id, Vec3(0.1f, 1.0e-40f, 0.2f));
  EXPECT_EQ(normal, Vec3(0, 1, 0)) << normal.x() << " " << normal.y() << " " << normal.z();
}

TEST(ScaledShapeExtremeScaleNormal, OrdinaryScaleTiltsTheNormalAsBefore) {
  // The +x face: (1, 0, 0) / (2, 0.5, 1), normalized.
  const ScaledShape shape(make_ref<BoxShape>(Vec3(1, 1, 1), 0.0f), Vec3(2, 0.5f, 1));
  const Vec3 normal = shape.surface_normal(SubShapeID(), Vec3(2, 0.2f, 0.3f));
  EXPECT_NEAR(normal.x(), 1.0f, 1.0e-6f);
  EXPECT_NEAR(normal.length(), 1.0f, 1.0e-6f);
}

TEST(ScaledShapeExtremeScaleNormal, AScaleThatOverflowsTheBoundsIsRefused) {
  // Also found by the shapes target: a 1e30 scale on a 1e10 m box gave infinite bounds.
  const Result<Ref<Shape>> shape =
      ScaledShapeSettings{make_ref<BoxShape>(Vec3(1.0e10f, 1, 1), 0.0f), Vec3(1.0e30f, 1, 1)}
          .create();
  ASSERT_FALSE(shape.ok());
  EXPECT_EQ(std::string(shape.error().message()),
            "ScaledShapeSettings.scale: (1e+30, 1, 1) makes the inner shape's bounds overflow "
            "float");
}

}  // namespace scaled_shape_extreme_scale_normal_test
}  // namespace atl
