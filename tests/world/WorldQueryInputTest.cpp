// Regression: WorldQuery::collide_shape and cast_shape checked most of their input only against
// the bodies their bounds found. A scaled transform, or cast settings with a negative
// tolerance, were refused next to a body and returned "no hit" in empty space; and bounds that
// overflowed float were refused in the name of WorldQuery::collide_aabox, which the user did
// not call. Now every input is checked first, by the call's name.

#include <gtest/gtest.h>

#include <string>

#include "atoll/shape/BoxShape.h"
#include "atoll/world/WorldQuery.h"

namespace atl {
namespace world_query_input_test {
namespace {

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

Ref<Shape> cube() { return BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value(); }

// The same query in an empty world and next to a body must give the same error.
struct Worlds {
  Worlds() {
    EXPECT_TRUE(near.body_interface()
                    .create_and_add_body(
                        BodyCreationSettings(cube(), Vec3(), Quat::identity(), MotionType::Static),
                        Activation::DontActivate)
                    .ok());
  }
  PhysicsSystem empty, near;
};

TEST(WorldQueryInput, CollideShapeRefusesAScaledTransformInEmptySpaceToo) {
  Worlds worlds;
  Mat44 scaled = Mat44::identity();
  scaled.set(0, 0, 2.0f);
  for (PhysicsSystem* system : {&worlds.empty, &worlds.near}) {
    const auto hits = WorldQuery(*system).collide_shape(*cube(), scaled);
    ASSERT_FALSE(hits.ok());
    EXPECT_EQ(std::string(hits.error().message()),
              "WorldQuery::collide_shape: transform: must be a rotation and translation, but "
              "column 0 has length 2 (use a ScaledShape for scale)");
  }
}

TEST(WorldQueryInput, CastShapeRefusesBadSettingsAndStartInEmptySpaceToo) {
  Worlds worlds;
  ShapeCastSettings negative;
  negative.collision_tolerance = -1.0f;
  Mat44 sheared = Mat44::identity();
  sheared.set(0, 1, 0.5f);
  for (PhysicsSystem* system : {&worlds.empty, &worlds.near}) {
    const WorldQuery query(*system);
    const auto bad_settings =
        query.cast_shape(*cube(), Mat44::translation(Vec3(-3, 0, 0)), Vec3(6, 0, 0), negative);
    ASSERT_FALSE(bad_settings.ok());
    EXPECT_TRUE(starts_with(bad_settings.error().message(),
                            "WorldQuery::cast_shape: ShapeCastSettings.collision_tolerance: "))
        << bad_settings.error().message();
    const auto bad_start = query.cast_shape(*cube(), sheared, Vec3(0, 1, 0));
    ASSERT_FALSE(bad_start.ok());
    EXPECT_TRUE(starts_with(bad_start.error().message(),
                            "WorldQuery::cast_shape: start: must be a rotation and translation"))
        << bad_start.error().message();
  }
}

TEST(WorldQueryInput, BoundsThatOverflowAreRefusedByTheCallThatMadeThem) {
  PhysicsSystem system;
  const WorldQuery query(system);
  const auto cast =
      query.cast_shape(*cube(), Mat44::translation(Vec3(3.0e38f, 0, 0)), Vec3(3.0e38f, 0, 0));
  ASSERT_FALSE(cast.ok());
  EXPECT_TRUE(starts_with(cast.error().message(),
                          "WorldQuery::cast_shape: displacement: the shape's bounds there "
                          "overflow float, got "))
      << cast.error().message();
  const Ref<Shape> huge = BoxShapeSettings{Vec3::replicate(1.0e38f)}.create().value();
  const auto at_edge = query.cast_shape(*huge, Mat44::translation(Vec3(3.0e38f, 0, 0)), Vec3());
  ASSERT_FALSE(at_edge.ok());
  EXPECT_TRUE(starts_with(at_edge.error().message(), "WorldQuery::cast_shape: start: "))
      << at_edge.error().message();
  CollideShapeSettings far_reach;
  far_reach.max_separation_distance = 3.0e38f;
  const auto collide =
      query.collide_shape(*cube(), Mat44::translation(Vec3(1.0e38f, 0, 0)), far_reach);
  ASSERT_FALSE(collide.ok());
  EXPECT_TRUE(starts_with(collide.error().message(),
                          "WorldQuery::collide_shape: transform: the shape's bounds there "
                          "overflow float, got "))
      << collide.error().message();
}

}  // namespace
}  // namespace world_query_input_test
}  // namespace atl
