#include "atoll/world/WorldQuery.h"

#include <gtest/gtest.h>

#include "atoll/shape/BoxShape.h"
#include "atoll/shape/SphereShape.h"

namespace atl {
namespace world_query_test {
namespace {

// A floor (top at y = 0) and a 1 m box resting on it at x = 0 (top at y = 1).
struct Scene {
  Scene() {
    Ref<Shape> floor_shape = BoxShapeSettings{Vec3(10, 1, 10)}.create().value();
    Ref<Shape> box_shape = BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value();
    floor = system.body_interface()
                .create_and_add_body({floor_shape, Vec3(0, -1, 0), Quat(), MotionType::Static},
                                     Activation::DontActivate)
                .value();
    box = system.body_interface()
              .create_and_add_body({box_shape, Vec3(0, 0.5f, 0), Quat(), MotionType::Dynamic},
                                   Activation::DontActivate)
              .value();
  }
  PhysicsSystem system;
  BodyID floor, box;
};

TEST(WorldQuery, RayHitsTheClosestBodyFirst) {
  Scene scene;
  const WorldQuery query(scene.system);
  // From y = 3 straight down 4 m: the box top (y = 1) at 2/4, the floor top (y = 0) at 3/4.
  auto closest = query.cast_ray(Vec3(0, 3, 0), Vec3(0, -4, 0));
  ASSERT_TRUE(closest.ok());
  ASSERT_TRUE(closest->has_value());
  EXPECT_EQ((*closest)->body, scene.box);
  EXPECT_NEAR((*closest)->fraction, 0.5f, 1e-5f);
  auto all = query.cast_ray_all(Vec3(0, 3, 0), Vec3(0, -4, 0));
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[1].body, scene.floor);
  EXPECT_NEAR((*all)[1].fraction, 0.75f, 1e-5f);
  // Too short to reach anything; and sideways past everything.
  EXPECT_FALSE(query.cast_ray(Vec3(0, 3, 0), Vec3(0, -1, 0))->has_value());
  EXPECT_FALSE(query.cast_ray(Vec3(0, 3, 0), Vec3(5, 0, 0))->has_value());
}

TEST(WorldQuery, FiltersHideBodies) {
  Scene scene;
  const WorldQuery query(scene.system);
  QueryFilter filter;
  const BodyID box = scene.box;
  filter.bodies = [box](const Body& body) { return body.id() != box; };
  auto closest = query.cast_ray(Vec3(0, 3, 0), Vec3(0, -4, 0), filter);
  ASSERT_TRUE(closest.ok() && closest->has_value());
  EXPECT_EQ((*closest)->body, scene.floor);
}

TEST(WorldQuery, PointAndBoxOverlap) {
  Scene scene;
  const WorldQuery query(scene.system);
  auto inside = query.collide_point(Vec3(0.2f, 0.5f, -0.2f));
  ASSERT_TRUE(inside.ok());
  ASSERT_EQ(inside->size(), 1u);
  EXPECT_EQ((*inside)[0], scene.box);
  EXPECT_TRUE(query.collide_point(Vec3(3, 0.5f, 0))->empty());
  auto overlapping = query.collide_aabox(AABox(Vec3(-0.1f, -0.5f, -0.1f), Vec3(0.1f, 0.1f, 0.1f)));
  ASSERT_TRUE(overlapping.ok());
  EXPECT_EQ(overlapping->size(), 2u);
  EXPECT_FALSE(query.collide_point(Vec3(NAN, 0, 0)).ok());
}

TEST(WorldQuery, ShapeOverlapAndShapeCast) {
  Scene scene;
  const WorldQuery query(scene.system);
  Ref<Shape> ball = SphereShapeSettings{0.25f}.create().value();
  // A ball sunk 5 cm into the box's top face.
  auto hits = query.collide_shape(*ball, Mat44::translation(Vec3(0, 1.2f, 0)));
  ASSERT_TRUE(hits.ok());
  ASSERT_EQ(hits->size(), 1u);
  EXPECT_EQ((*hits)[0].body, scene.box);
  EXPECT_NEAR((*hits)[0].manifold.penetration_depth, 0.05f, 1e-3f);
  // Dropping it from y = 3 by 4 m: it touches the box top when its centre reaches 1.25 m.
  auto cast = query.cast_shape(*ball, Mat44::translation(Vec3(0, 3, 0)), Vec3(0, -4, 0));
  ASSERT_TRUE(cast.ok());
  ASSERT_TRUE(cast->has_value());
  EXPECT_EQ((*cast)->body, scene.box);
  EXPECT_NEAR((*cast)->result.fraction, (3.0f - 1.25f) / 4.0f, 1e-3f);
}

}  // namespace
}  // namespace world_query_test
}  // namespace atl
