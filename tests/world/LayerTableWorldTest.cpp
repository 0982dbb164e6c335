// The object layer pair table edited between steps takes effect at the next step, although the
// broadphase keeps the last step's pairs of bodies that did not move (BroadPhase::
// find_step_pairs checks the filters' answers for the layers present at every step).

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "atoll/collision/broadphase/BroadPhaseLayerTable.h"
#include "atoll/collision/broadphase/ObjectLayerPairTable.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/softbody/SoftBodyGenerators.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {
namespace layer_table_world_test {
namespace {

constexpr float k_dt = 1.0f / 60.0f;

// Layer 0 static (broadphase layer 0); layers 1 and 2 moving (broadphase layer 1), both
// colliding with the static layer at first.
struct World {
  World() : mapping(3, 2), pairs(3) {
    EXPECT_TRUE(mapping.set(0, 0).ok());
    EXPECT_TRUE(mapping.set(1, 1).ok());
    EXPECT_TRUE(mapping.set(2, 1).ok());
    EXPECT_TRUE(pairs.enable(0, 1).ok());
    EXPECT_TRUE(pairs.enable(0, 2).ok());
    // Which broadphase layers each object layer may look into: the static tree for both moving
    // layers, whatever the pair table says later.
    all_trees = std::make_unique<ObjectVsBroadPhaseLayerTable>(mapping, 3, everything);
    PhysicsSystemSettings settings;
    settings.broadphase_layers = &mapping;
    settings.object_vs_broadphase_filter = all_trees.get();
    settings.object_layer_pair_filter = &pairs;
    system = std::make_unique<PhysicsSystem>(settings);
    PhysicsSettings physics;
    physics.allow_sleeping = false;
    EXPECT_TRUE(system->set_settings(physics).ok());
    floor_shape = BoxShapeSettings{Vec3(10, 1, 10)}.create().value();
    box_shape = BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value();
    BodyCreationSettings floor{floor_shape, Vec3(0, -1, 0), Quat(), MotionType::Static};
    floor.object_layer = 0;
    EXPECT_TRUE(bodies().create_and_add_body(floor, Activation::DontActivate).ok());
  }
  BodyInterface& bodies() { return system->body_interface(); }
  BodyID add_box(const Vec3& position, ObjectLayer layer) {
    BodyCreationSettings settings{box_shape, position, Quat(), MotionType::Dynamic};
    settings.object_layer = layer;
    return bodies().create_and_add_body(settings, Activation::Activate).value();
  }
  float y(BodyID id) { return bodies().position(id).value().y(); }
  void run(int steps) {
    for (int i = 0; i < steps; ++i) ASSERT_TRUE(system->update(k_dt).ok());
  }

  // Every pair of object layers collides.
  struct Everything final : ObjectLayerPairFilter {
    bool should_collide(ObjectLayer, ObjectLayer) const override { return true; }
  } everything;
  BroadPhaseLayerTable mapping;
  ObjectLayerPairTable pairs;
  std::unique_ptr<ObjectVsBroadPhaseLayerTable> all_trees;
  std::unique_ptr<PhysicsSystem> system;
  Ref<Shape> floor_shape, box_shape;
};

// Two boxes rest on the floor, neither leaving its fat box. Disabling layer 1 against the
// static layer drops the layer-1 box through the floor from the next step on; the layer-2 box
// stays. Enabled again, the floor catches a third box of layer 1.
TEST(LayerTableWorld, APairTableEditedBetweenStepsTakesEffectAtTheNextStep) {
  World world;
  const BodyID one = world.add_box(Vec3(-3, 0.5f, 0), 1);
  const BodyID two = world.add_box(Vec3(3, 0.5f, 0), 2);
  world.run(30);
  ASSERT_NEAR(world.y(one), 0.5f, 0.01f);
  ASSERT_NEAR(world.y(two), 0.5f, 0.01f);

  ASSERT_TRUE(world.pairs.disable(0, 1).ok());
  world.run(1);
  // One step of free fall from rest: v = g·dt, moved v·dt.
  EXPECT_LT(world.y(one), 0.5f - 0.5f * 9.81f * k_dt * k_dt);
  world.run(30);
  EXPECT_LT(world.y(one), 0.0f);
  EXPECT_NEAR(world.y(two), 0.5f, 0.01f);

  ASSERT_TRUE(world.pairs.enable(0, 1).ok());
  const BodyID three = world.add_box(Vec3(0, 0.5f, 0), 1);
  world.run(30);
  EXPECT_NEAR(world.y(three), 0.5f, 0.01f);
  EXPECT_NEAR(world.y(two), 0.5f, 0.01f);
}

// A body on an object layer that the world's mapping puts in no broadphase tree could not be
// added: add_body ended the process (an assertion) or, for set_object_layer, the broadphase kept
// the old layer while the body had the new one. Now every call that puts a body on a layer asks
// the world first, and refuses with the layer's name, changing nothing.
TEST(LayerTableWorld, ALayerThatMapsToNoBroadphaseLayerIsRefusedByName) {
  World world;
  const BodyID box = world.add_box(Vec3(0, 0.5f, 0), 1);
  const uint32_t bodies_before = world.system->bodies().num_bodies();
  // Layer 3 is past the mapping's three layers: it maps to k_invalid_broadphase_layer.
  const std::string refused =
      "object_layer: object layer 3 maps to broadphase layer 255, but there are 2";
  BodyCreationSettings settings{world.box_shape, Vec3(2, 0.5f, 0), Quat(), MotionType::Dynamic};
  settings.object_layer = 3;
  const Result<BodyID> created = world.bodies().create_body(settings);
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.error().message(), "BodyInterface::create_body: " + refused);
  const Result<BodyID> added = world.bodies().create_and_add_body(settings, Activation::Activate);
  ASSERT_FALSE(added.ok());
  EXPECT_EQ(added.error().message(), "BodyInterface::create_and_add_body: " + refused);
  SoftBodyCreationSettings cloth;
  cloth.settings = make_cloth(Vec3(0, 3, 0), 1, 1, 4, 4, 0.5f, 0, 0).value_or_throw();
  cloth.object_layer = 3;
  const Result<BodyID> soft = world.bodies().create_and_add_soft_body(cloth, Activation::Activate);
  ASSERT_FALSE(soft.ok());
  EXPECT_EQ(soft.error().message(), "BodyInterface::create_soft_body: " + refused);
  EXPECT_EQ(world.system->bodies().num_bodies(), bodies_before);

  const Status moved = world.bodies().set_object_layer(box, 3);
  ASSERT_FALSE(moved.ok());
  EXPECT_EQ(moved.error().message(), "BodyInterface::set_object_layer: " + refused);
  EXPECT_EQ(world.bodies().object_layer(box).value(), 1);
  // A layer the mapping has is taken, by the body and its broadphase entry alike.
  ASSERT_TRUE(world.bodies().set_object_layer(box, 2).ok());
  EXPECT_EQ(world.system->broadphase().object_layer(box.index()), 2);
  world.run(30);
  EXPECT_NEAR(world.y(box), 0.5f, 0.01f);
}

}  // namespace
}  // namespace layer_table_world_test
}  // namespace atl
