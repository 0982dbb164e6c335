// The object layer pair table edited between steps takes effect at the next step, although the
// broadphase keeps the last step's pairs of bodies that did not move (BroadPhase::
// find_step_pairs checks the filters' answers for the layers present at every step).

#include <gtest/gtest.h>

#include <memory>

#include "atoll/collision/broadphase/BroadPhaseLayerTable.h"
#include "atoll/collision/broadphase/ObjectLayerPairTable.h"
#include "atoll/shape/BoxShape.h"
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

}  // namespace
}  // namespace layer_table_world_test
}  // namespace atl
