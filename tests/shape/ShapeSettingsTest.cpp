// Every settings validation error: the message names the field and the problem, and no shape
// is created (decorators leave their inner shape's reference count untouched).

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "ShapeTestUtil.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/CapsuleShape.h"
#include "atoll/shape/CylinderShape.h"
#include "atoll/shape/OffsetCenterOfMassShape.h"
#include "atoll/shape/RotatedTranslatedShape.h"
#include "atoll/shape/ScaledShape.h"
#include "atoll/shape/SphereShape.h"

namespace atl {
namespace shape_settings_test {
namespace {

constexpr float k_nan = std::numeric_limits<float>::quiet_NaN();
constexpr float k_inf = std::numeric_limits<float>::infinity();

::testing::AssertionResult fails_with(const Result<Ref<Shape>>& result,
                                      const std::string& message) {
  if (result.ok()) return ::testing::AssertionFailure() << "created a shape";
  if (result.error().message() != message)
    return ::testing::AssertionFailure()
           << "message \"" << result.error().message() << "\"\n   expected \"" << message << "\"";
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult fails_starting_with(const Result<Ref<Shape>>& result,
                                               const std::string& prefix) {
  if (result.ok()) return ::testing::AssertionFailure() << "created a shape";
  if (std::string(result.error().message()).rfind(prefix, 0) != 0)
    return ::testing::AssertionFailure() << "message \"" << result.error().message()
                                         << "\"\n   expected prefix \"" << prefix << "\"";
  return ::testing::AssertionSuccess();
}

TEST(ShapeSettings, Sphere) {
  EXPECT_TRUE(fails_with(SphereShapeSettings{0.0f}.create(),
                         "SphereShapeSettings.radius: must be > 0, got 0"));
  EXPECT_TRUE(fails_with(SphereShapeSettings{-1.5f}.create(),
                         "SphereShapeSettings.radius: must be > 0, got -1.5"));
  EXPECT_TRUE(fails_with(SphereShapeSettings{k_nan}.create(),
                         "SphereShapeSettings.radius: must be finite, got nan"));
  EXPECT_TRUE(fails_with(SphereShapeSettings{1.0f, 0.0f}.create(),
                         "SphereShapeSettings.density: must be > 0, got 0"));
  Result<Ref<Shape>> ok = SphereShapeSettings{0.5f, 200.0f}.create();
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok.value()->sub_type(), ShapeSubType::Sphere);
  EXPECT_EQ(static_cast<const SphereShape&>(*ok.value()).radius(), 0.5f);
  EXPECT_EQ(static_cast<const SphereShape&>(*ok.value()).density(), 200.0f);
}

TEST(ShapeSettings, Box) {
  EXPECT_TRUE(fails_with(BoxShapeSettings{Vec3(1, -1, 1)}.create(),
                         "BoxShapeSettings.half_extent.y: must be > 0, got -1"));
  EXPECT_TRUE(fails_with(BoxShapeSettings{Vec3(0, 1, 1)}.create(),
                         "BoxShapeSettings.half_extent.x: must be > 0, got 0"));
  EXPECT_TRUE(fails_with(BoxShapeSettings{Vec3(1, 1, k_nan)}.create(),
                         "BoxShapeSettings.half_extent.z: must be finite, got nan"));
  EXPECT_TRUE(fails_with(BoxShapeSettings{Vec3(1, 1, 1), -0.1f}.create(),
                         "BoxShapeSettings.convex_radius: must be >= 0, got -0.1"));
  EXPECT_TRUE(fails_with(BoxShapeSettings{Vec3(1, 1, 1), 0.05f, -k_inf}.create(),
                         "BoxShapeSettings.density: must be finite, got -inf"));
  // A convex radius larger than the smallest half extent is clamped to it.
  Result<Ref<Shape>> thin = BoxShapeSettings{Vec3(1, 0.02f, 1)}.create();
  ASSERT_TRUE(thin.ok());
  EXPECT_EQ(static_cast<const BoxShape&>(*thin.value()).convex_radius(), 0.02f);
  EXPECT_EQ(static_cast<const BoxShape&>(*thin.value()).half_extent(), Vec3(1, 0.02f, 1));
}

TEST(ShapeSettings, Capsule) {
  EXPECT_TRUE(fails_with(CapsuleShapeSettings{0.0f, 1.0f}.create(),
                         "CapsuleShapeSettings.half_height_of_cylinder: must be > 0, got 0"));
  EXPECT_TRUE(fails_with(CapsuleShapeSettings{1.0f, k_nan}.create(),
                         "CapsuleShapeSettings.radius: must be finite, got nan"));
  EXPECT_TRUE(fails_with(CapsuleShapeSettings{1.0f, -0.25f}.create(),
                         "CapsuleShapeSettings.radius: must be > 0, got -0.25"));
  EXPECT_TRUE(fails_with(CapsuleShapeSettings{1.0f, 0.5f, -3.0f}.create(),
                         "CapsuleShapeSettings.density: must be > 0, got -3"));
  EXPECT_TRUE((CapsuleShapeSettings{1.0f, 0.5f}.create().ok()));
}

TEST(ShapeSettings, Cylinder) {
  EXPECT_TRUE(fails_with(CylinderShapeSettings{-1.0f, 1.0f}.create(),
                         "CylinderShapeSettings.half_height: must be > 0, got -1"));
  EXPECT_TRUE(fails_with(CylinderShapeSettings{1.0f, k_inf}.create(),
                         "CylinderShapeSettings.radius: must be finite, got inf"));
  EXPECT_TRUE(fails_with(CylinderShapeSettings{1.0f, 1.0f, -0.01f}.create(),
                         "CylinderShapeSettings.convex_radius: must be >= 0, got -0.01"));
  EXPECT_TRUE(fails_with(CylinderShapeSettings{1.0f, 1.0f, 0.05f, 0.0f}.create(),
                         "CylinderShapeSettings.density: must be > 0, got 0"));
  Result<Ref<Shape>> flat = CylinderShapeSettings{0.01f, 1.0f}.create();
  ASSERT_TRUE(flat.ok());
  EXPECT_EQ(static_cast<const CylinderShape&>(*flat.value()).convex_radius(), 0.01f);
}

TEST(ShapeSettings, ConvexHull) {
  ConvexHullShapeSettings settings;
  settings.points = {Vec3(0, 0, 0), Vec3(1, 0, 0)};
  // The builder's own messages, prefixed with the settings' name.
  EXPECT_TRUE(
      fails_with(settings.create(),
                 "ConvexHullShapeSettings.points: need ≥ 3 points spanning a plane, got 2"));
  settings.points = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0), Vec3(3, 0, 0)};
  EXPECT_TRUE(fails_starting_with(settings.create(),
                                  "ConvexHullShapeSettings.points: all 4 points are collinear"));
  // Coplanar points build a flat hull (see ShapeMass / CollideConvex for its behaviour).
  settings.points = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 0, 1), Vec3(1, 0, 1), Vec3(0.5f, 0, 2)};
  EXPECT_TRUE(settings.create().ok());
  settings.points = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, k_nan, 0), Vec3(0, 0, 1)};
  EXPECT_TRUE(
      fails_starting_with(settings.create(), "ConvexHullShapeSettings.points[2]: must be finite"));
  settings.points = test::box_corners(Vec3(1, 1, 1));
  settings.max_convex_radius = -1.0f;
  EXPECT_TRUE(fails_with(settings.create(),
                         "ConvexHullShapeSettings.max_convex_radius: must be >= 0, got -1"));
  settings.max_convex_radius = 0.05f;
  settings.hull_tolerance = 0.0f;
  EXPECT_TRUE(
      fails_with(settings.create(), "ConvexHullShapeSettings.hull_tolerance: must be > 0, got 0"));
  settings.hull_tolerance = 1e-3f;
  settings.max_error_convex_radius = k_nan;
  EXPECT_TRUE(
      fails_with(settings.create(),
                 "ConvexHullShapeSettings.max_error_convex_radius: must be finite, got nan"));
  settings.max_error_convex_radius = 0.05f;
  settings.density = -1.0f;
  EXPECT_TRUE(
      fails_with(settings.create(), "ConvexHullShapeSettings.density: must be > 0, got -1"));
  settings.density = 1000.0f;
  EXPECT_TRUE(settings.create().ok());
}

TEST(ShapeSettings, RotatedTranslated) {
  const Ref<Shape> inner = make_ref<SphereShape>(1.0f);
  const uint32_t refs = inner->ref_count();
  EXPECT_TRUE(fails_with(RotatedTranslatedShapeSettings{nullptr, Vec3(), Quat()}.create(),
                         "RotatedTranslatedShapeSettings.inner: must not be null"));
  EXPECT_TRUE(fails_with(RotatedTranslatedShapeSettings{inner, Vec3(k_nan, 0, 0), Quat()}.create(),
                         "RotatedTranslatedShapeSettings.position.x: must be finite, got nan"));
  EXPECT_TRUE(fails_with(
      RotatedTranslatedShapeSettings{inner, Vec3(), Quat(0, 0, 0, 2)}.create(),
      "RotatedTranslatedShapeSettings.rotation: must be a unit quaternion, got length 2"));
  EXPECT_TRUE(
      fails_with(RotatedTranslatedShapeSettings{inner, Vec3(), Quat(0, k_inf, 0, 1)}.create(),
                 "RotatedTranslatedShapeSettings.rotation: must be finite, got (0, inf, 0, 1)"));
  EXPECT_EQ(inner->ref_count(), refs);
  // Slightly off unit length is accepted and renormalized.
  Result<Ref<Shape>> ok =
      RotatedTranslatedShapeSettings{inner, Vec3(1, 2, 3), Quat(0, 0, 0, 1.00002f)}.create();
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(inner->ref_count(), refs + 1);
  EXPECT_EQ(static_cast<const RotatedTranslatedShape&>(*ok.value()).rotation(), Quat());
  EXPECT_EQ(static_cast<const RotatedTranslatedShape&>(*ok.value()).inner(), inner);
}

TEST(ShapeSettings, Scaled) {
  const Ref<Shape> sphere = make_ref<SphereShape>(1.0f);
  const Ref<Shape> capsule = make_ref<CapsuleShape>(1.0f, 0.5f);
  const Ref<Shape> cylinder = make_ref<CylinderShape>(1.0f, 0.5f);
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(1, 1, 1));
  const Ref<Shape> tilted_box =
      make_ref<RotatedTranslatedShape>(box, Vec3(), Quat::rotation(Vec3::axis_z(), 0.3f));
  const uint32_t sphere_refs = sphere->ref_count();
  EXPECT_TRUE(fails_with(ScaledShapeSettings{nullptr, Vec3(1, 1, 1)}.create(),
                         "ScaledShapeSettings.inner: must not be null"));
  EXPECT_TRUE(fails_with(ScaledShapeSettings{sphere, Vec3(1, 0, 1)}.create(),
                         "ScaledShapeSettings.scale.y: must be non-zero, got 0"));
  EXPECT_TRUE(fails_with(ScaledShapeSettings{sphere, Vec3(1, 1, k_nan)}.create(),
                         "ScaledShapeSettings.scale.z: must be finite, got nan"));
  EXPECT_TRUE(fails_with(ScaledShapeSettings{sphere, Vec3(1, 2, 1)}.create(),
                         "ScaledShapeSettings.scale: (1, 2, 1) is not valid for the inner sphere "
                         "shape, which needs |x| = |y| = |z|"));
  EXPECT_EQ(sphere->ref_count(), sphere_refs);
  EXPECT_TRUE(fails_with(ScaledShapeSettings{capsule, Vec3(2, 2, 1)}.create(),
                         "ScaledShapeSettings.scale: (2, 2, 1) is not valid for the inner capsule "
                         "shape, which needs |x| = |y| = |z|"));
  EXPECT_TRUE(fails_with(ScaledShapeSettings{cylinder, Vec3(1, 1, 2)}.create(),
                         "ScaledShapeSettings.scale: (1, 1, 2) is not valid for the inner cylinder "
                         "shape, which needs |x| = |z|"));
  EXPECT_TRUE(fails_starting_with(ScaledShapeSettings{tilted_box, Vec3(1, 2, 1)}.create(),
                                  "ScaledShapeSettings.scale: (1, 2, 1) is not valid for the "
                                  "inner rotated_translated shape, which needs a uniform scale"));
  // Nested decorators report the rule of the shape that decides.
  EXPECT_TRUE(fails_with(
      ScaledShapeSettings{make_ref<ScaledShape>(cylinder, Vec3(2, 1, 2)), Vec3(1, 1, 2)}.create(),
      "ScaledShapeSettings.scale: (1, 1, 2) is not valid for the inner scaled shape, which needs "
      "|x| = |z|"));
  // What each shape does accept.
  EXPECT_TRUE((ScaledShapeSettings{sphere, Vec3(-2, 2, 2)}.create().ok()));
  EXPECT_TRUE((ScaledShapeSettings{capsule, Vec3(0.5f, -0.5f, 0.5f)}.create().ok()));
  EXPECT_TRUE((ScaledShapeSettings{cylinder, Vec3(2, 5, -2)}.create().ok()));
  EXPECT_TRUE((ScaledShapeSettings{box, Vec3(1, -2, 3)}.create().ok()));
  EXPECT_TRUE(
      (ScaledShapeSettings{test::make_hull(test::box_corners(Vec3(1, 1, 1))), Vec3(1, -2, 3)}
           .create()
           .ok()));
  EXPECT_TRUE((ScaledShapeSettings{tilted_box, Vec3(-3, -3, -3)}.create().ok()));
}

TEST(ShapeSettings, OffsetCenterOfMass) {
  const Ref<Shape> inner = make_ref<BoxShape>(Vec3(1, 1, 1));
  const uint32_t refs = inner->ref_count();
  EXPECT_TRUE(fails_with(OffsetCenterOfMassShapeSettings{nullptr, Vec3()}.create(),
                         "OffsetCenterOfMassShapeSettings.inner: must not be null"));
  EXPECT_TRUE(fails_with(OffsetCenterOfMassShapeSettings{inner, Vec3(0, 0, -k_inf)}.create(),
                         "OffsetCenterOfMassShapeSettings.offset.z: must be finite, got -inf"));
  EXPECT_EQ(inner->ref_count(), refs);
  EXPECT_TRUE((OffsetCenterOfMassShapeSettings{inner, Vec3(0, -0.5f, 0)}.create().ok()));
}

TEST(ShapeSettings, SubTypeNames) {
  EXPECT_STREQ(shape_sub_type_name(ShapeSubType::Sphere), "sphere");
  EXPECT_STREQ(shape_sub_type_name(ShapeSubType::Box), "box");
  EXPECT_STREQ(shape_sub_type_name(ShapeSubType::Capsule), "capsule");
  EXPECT_STREQ(shape_sub_type_name(ShapeSubType::Cylinder), "cylinder");
  EXPECT_STREQ(shape_sub_type_name(ShapeSubType::ConvexHull), "convex_hull");
  EXPECT_STREQ(shape_sub_type_name(ShapeSubType::TriangleMesh), "mesh");
  EXPECT_STREQ(shape_sub_type_name(ShapeSubType::HeightField), "heightfield");
  EXPECT_STREQ(shape_sub_type_name(ShapeSubType::StaticCompound), "compound");
  EXPECT_STREQ(shape_sub_type_name(ShapeSubType::RotatedTranslated), "rotated_translated");
  EXPECT_STREQ(shape_sub_type_name(ShapeSubType::Scaled), "scaled");
  EXPECT_STREQ(shape_sub_type_name(ShapeSubType::OffsetCenterOfMass), "offset_center_of_mass");
  const Ref<Shape> sphere = make_ref<SphereShape>(1.0f);
  EXPECT_EQ(sphere->type(), ShapeType::Convex);
  EXPECT_EQ(ScaledShape(sphere, Vec3(2, 2, 2)).type(), ShapeType::Decorated);
}

}  // namespace
}  // namespace shape_settings_test
}  // namespace atl
