// Regression: the default object layer follows the motion type (BodyCreationSettings::
// object_layer unset: layers::k_non_moving for static bodies, layers::k_moving otherwise), but
// only at creation. A body created static and made dynamic by set_motion_type stayed on
// k_non_moving, which the default layers do not collide with the static layer: it fell through
// the floor without a word (y = -17 m after 2 s). Now a default layer follows set_motion_type
// too; a layer the user chose (in the settings or with set_object_layer) stays.

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "atoll/collision/broadphase/BroadPhaseLayerTable.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {
namespace motion_type_default_layer_test {
namespace {

constexpr float k_dt = 1.0f / 60.0f;

struct World {
  World() {
    floor_shape = BoxShapeSettings{Vec3(10, 1, 10)}.create().value();
    box_shape = BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value();
    EXPECT_TRUE(bodies()
                    .create_and_add_body(BodyCreationSettings(floor_shape, Vec3(0, -1, 0), Quat(),
                                                              MotionType::Static),
                                         Activation::DontActivate)
                    .ok());
  }
  BodyInterface& bodies() { return system.body_interface(); }
  BodyID add_box(const Vec3& position, MotionType type,
                 std::optional<ObjectLayer> layer = std::nullopt) {
    return bodies()
        .create_and_add_body(BodyCreationSettings(box_shape, position, Quat(), type, layer),
                             Activation::Activate)
        .value();
  }
  float y(BodyID id) { return bodies().position(id).value().y(); }
  void run(int steps) {
    for (int i = 0; i < steps; ++i) ASSERT_TRUE(system.update(k_dt).ok());
  }

  PhysicsSystem system;
  Ref<Shape> floor_shape, box_shape;
};

TEST(MotionTypeDefaultLayer, AStaticBodyMadeDynamicMovesToTheMovingLayerAndLandsOnTheFloor) {
  World world;
  const BodyID box = world.add_box(Vec3(0, 2, 0), MotionType::Static);
  ASSERT_EQ(world.bodies().object_layer(box).value(), layers::k_non_moving);
  ASSERT_TRUE(world.bodies().set_motion_type(box, MotionType::Dynamic).ok());
  EXPECT_EQ(world.bodies().object_layer(box).value(), layers::k_moving);
  EXPECT_EQ(world.system.broadphase().object_layer(box.index()), layers::k_moving);
  world.run(120);
  EXPECT_NEAR(world.y(box), 0.5f, 0.03f);
  // And back: static again, on the static layer (static bodies do not collide with each other).
  ASSERT_TRUE(world.bodies().set_motion_type(box, MotionType::Static).ok());
  EXPECT_EQ(world.bodies().object_layer(box).value(), layers::k_non_moving);
  EXPECT_EQ(world.system.broadphase().object_layer(box.index()), layers::k_non_moving);
  EXPECT_TRUE(world.system.broadphase().validate().ok());
}

TEST(MotionTypeDefaultLayer, AKinematicBodyKeepsTheMovingLayer) {
  World world;
  const BodyID box = world.add_box(Vec3(0, 2, 0), MotionType::Kinematic);
  ASSERT_TRUE(world.bodies().set_motion_type(box, MotionType::Dynamic).ok());
  EXPECT_EQ(world.bodies().object_layer(box).value(), layers::k_moving);
}

TEST(MotionTypeDefaultLayer, ALayerGivenInTheSettingsStays) {
  World world;
  const BodyID box = world.add_box(Vec3(0, 2, 0), MotionType::Static, layers::k_non_moving);
  ASSERT_TRUE(world.bodies().set_motion_type(box, MotionType::Dynamic).ok());
  EXPECT_EQ(world.bodies().object_layer(box).value(), layers::k_non_moving);
  EXPECT_EQ(world.system.broadphase().object_layer(box.index()), layers::k_non_moving);
}

TEST(MotionTypeDefaultLayer, ALayerChosenWithSetObjectLayerStaysEvenIfItWasTheDefault) {
  World world;
  const BodyID box = world.add_box(Vec3(0, 2, 0), MotionType::Static);
  ASSERT_TRUE(world.bodies().set_object_layer(box, layers::k_non_moving).ok());
  ASSERT_TRUE(world.bodies().set_motion_type(box, MotionType::Dynamic).ok());
  EXPECT_EQ(world.bodies().object_layer(box).value(), layers::k_non_moving);
}

TEST(MotionTypeDefaultLayer, ARemovedBodyTakesTheLayerIntoTheBroadphaseWhenAdded) {
  World world;
  const BodyID box = world.add_box(Vec3(0, 2, 0), MotionType::Static);
  ASSERT_TRUE(world.bodies().remove_body(box).ok());
  ASSERT_TRUE(world.bodies().set_motion_type(box, MotionType::Dynamic).ok());
  EXPECT_EQ(world.bodies().object_layer(box).value(), layers::k_moving);
  ASSERT_TRUE(world.bodies().add_body(box, Activation::Activate).ok());
  EXPECT_EQ(world.system.broadphase().object_layer(box.index()), layers::k_moving);
  world.run(120);
  EXPECT_NEAR(world.y(box), 0.5f, 0.03f);
}

TEST(MotionTypeDefaultLayer, ADefaultLayerTheWorldDoesNotMapIsRefusedAndNothingChanges) {
  // Only the static layer has a broadphase tree.
  BroadPhaseLayerTable mapping(1, 1);
  ASSERT_TRUE(mapping.set(layers::k_non_moving, 0).ok());
  PhysicsSystemSettings settings;
  settings.broadphase_layers = &mapping;
  PhysicsSystem system(settings);
  BodyInterface& bodies = system.body_interface();
  const BodyID box =
      bodies
          .create_and_add_body(
              BodyCreationSettings(BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value(),
                                   Vec3(0, 2, 0), Quat(), MotionType::Static),
              Activation::DontActivate)
          .value();
  const Status changed = bodies.set_motion_type(box, MotionType::Dynamic);
  ASSERT_FALSE(changed.ok());
  EXPECT_EQ(std::string(changed.error().message()),
            "BodyInterface::set_motion_type: motion_type: the body's object layer is the default "
            "one, which follows the motion type, but the default layer of a dynamic body: object "
            "layer 1 maps to broadphase layer 255, but there are 1 (choose a layer with "
            "set_object_layer first)");
  EXPECT_EQ(bodies.motion_type(box).value(), MotionType::Static);
  EXPECT_EQ(bodies.object_layer(box).value(), layers::k_non_moving);
  EXPECT_TRUE(system.broadphase().validate().ok());
}

}  // namespace
}  // namespace motion_type_default_layer_test
}  // namespace atl
