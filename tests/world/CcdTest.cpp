// Stage 10 (LinearCast CCD) beyond the laws of LAWS.md §E: what the sweep sees (layers, the
// contact listener's validation, sensors, slow relative motion), two CCD bodies meeting head on,
// a mesh floor that must not hide a wall, and the stage's timing and determinism.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "atoll/collision/broadphase/BroadPhaseLayerTable.h"
#include "atoll/collision/broadphase/ObjectLayerPairTable.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/shape/TriangleMeshShape.h"
#include "atoll/state/StateHash.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {
namespace ccd_test {
namespace {

constexpr float k_dt = 1.0f / 60.0f;

Ref<Shape> plate_shape() {
  BoxShapeSettings settings;
  settings.half_extent = Vec3(0.01f, 2.0f, 2.0f);
  settings.convex_radius = 0.0f;
  return settings.create().value();
}

Ref<Shape> ball_shape(float radius = 0.1f) {
  SphereShapeSettings settings;
  settings.radius = radius;
  return settings.create().value();
}

// A static plate 20 mm thick at x = 0, and LinearCast spheres of radius 0.1 m flying along x
// without gravity (each starts where its discrete steps would skip the plate).
struct PlateWorld {
  explicit PlateWorld(const PhysicsSystemSettings& settings = {},
                      std::optional<ObjectLayer> plate_layer = std::nullopt)
      : system(settings) {
    PhysicsSettings physics;
    physics.gravity = Vec3();
    EXPECT_TRUE(system.set_settings(physics).ok());
    plate =
        bodies()
            .create_and_add_body({plate_shape(), Vec3(), Quat(), MotionType::Static, plate_layer},
                                 Activation::DontActivate)
            .value();
  }
  BodyInterface& bodies() { return system.body_interface(); }
  BodyID add_ball(const Vec3& position, const Vec3& velocity,
                  std::optional<ObjectLayer> layer = std::nullopt) {
    BodyCreationSettings s(ball_shape(), position, Quat(), MotionType::Dynamic, layer);
    s.linear_velocity = velocity;
    s.motion_quality = MotionQuality::LinearCast;
    s.linear_damping = 0.0f;
    return bodies().create_and_add_body(s, Activation::Activate).value();
  }
  float x(BodyID id) { return bodies().position(id).value().x(); }
  // Steps `n` times; the total CCD hits.
  uint32_t run(int n) {
    uint32_t hits = 0;
    for (int i = 0; i < n; ++i) hits += system.update(k_dt).value().num_ccd_hits;
    return hits;
  }

  PhysicsSystem system;
  BodyID plate;
};

TEST(Ccd, TheStageIsTimedLikeTheOthers) {
  EXPECT_STREQ(stage_name(Stage::ccd), "ccd");
  EXPECT_EQ(static_cast<int>(Stage::ccd), static_cast<int>(Stage::integrate_positions) + 1);
  PlateWorld world;
  world.add_ball(Vec3(-1.55f, 0, 0), Vec3(60, 0, 0));
  const UpdateResult result = world.system.update(k_dt).value();
  EXPECT_EQ(result.num_ccd_bodies, 1u);
  EXPECT_GT(result.stage_ms[static_cast<int>(Stage::ccd)], 0.0);
}

class RejectAll : public ContactListener {
 public:
  ValidateResult on_contact_validate(const Body&, const Body&) override {
    ++calls;
    return ValidateResult::Reject;
  }
  int calls = 0;
};

TEST(Ccd, APairTheListenerRejectsDoesNotStopTheBody) {
  PlateWorld world;
  RejectAll listener;
  world.system.set_contact_listener(&listener);
  const BodyID ball = world.add_ball(Vec3(-1.55f, 0, 0), Vec3(60, 0, 0));
  EXPECT_EQ(world.run(5), 0u);
  EXPECT_GT(listener.calls, 0);
  EXPECT_NEAR(world.x(ball), 3.45f, 1e-4f);
}

TEST(Ccd, LayersThatDoNotCollideAreNotSwept) {
  // Layer 0: static, layer 1: collides with 0, layer 2: collides with nothing static.
  BroadPhaseLayerTable mapping(3, 2);
  ASSERT_TRUE(mapping.set(0, 0).ok());
  ASSERT_TRUE(mapping.set(1, 1).ok());
  ASSERT_TRUE(mapping.set(2, 1).ok());
  ObjectLayerPairTable pairs(3);
  ASSERT_TRUE(pairs.enable(0, 1).ok());
  ASSERT_TRUE(pairs.enable(1, 1).ok());
  ASSERT_TRUE(pairs.enable(2, 2).ok());
  const ObjectVsBroadPhaseLayerTable object_vs_bp(mapping, 3, pairs);
  PhysicsSystemSettings settings;
  settings.broadphase_layers = &mapping;
  settings.object_vs_broadphase_filter = &object_vs_bp;
  settings.object_layer_pair_filter = &pairs;
  PlateWorld world(settings, ObjectLayer{0});
  const BodyID stopped = world.add_ball(Vec3(-1.55f, 0, 0), Vec3(60, 0, 0), ObjectLayer{1});
  const BodyID ghost = world.add_ball(Vec3(-1.55f, 1, 0), Vec3(60, 0, 0), ObjectLayer{2});
  EXPECT_EQ(world.run(5), 1u);
  EXPECT_LT(world.x(stopped), 0.0f);
  EXPECT_NEAR(world.x(ghost), 3.45f, 1e-4f);
}

TEST(Ccd, TwoLinearCastBodiesHeadOnStopAtTheirMeeting) {
  // 60 m/s each, 2 m per step relative: the discrete samples (gap 0.9 m, then swapped) miss each
  // other. The lower ID is swept relative to the other and stops 10 mm in (its own share of the
  // 20 mm allowed); the other stops where they meet.
  for (MotionQuality quality : {MotionQuality::Discrete, MotionQuality::LinearCast}) {
    PlateWorld world;
    const BodyID a = world.add_ball(Vec3(-1.55f, 3, 0), Vec3(60, 0, 0));
    const BodyID b = world.add_ball(Vec3(1.55f, 3, 0), Vec3(-60, 0, 0));
    ASSERT_TRUE(world.bodies().set_motion_quality(a, quality).ok());
    ASSERT_TRUE(world.bodies().set_motion_quality(b, quality).ok());
    world.system.update(k_dt).value();
    const UpdateResult meet = world.system.update(k_dt).value();
    if (quality == MotionQuality::Discrete) {
      EXPECT_GT(world.x(a), world.x(b)) << "discrete bodies pass through each other";
      continue;
    }
    EXPECT_EQ(meet.num_ccd_bodies, 2u);
    EXPECT_EQ(meet.num_ccd_hits, 1u);
    EXPECT_NEAR(world.x(a), -0.09f, 2e-4f);
    EXPECT_NEAR(world.x(b), 0.1f, 2e-4f);
    // The next step's contact stops both (equal masses, no restitution).
    world.run(3);
    EXPECT_LT(world.x(a), world.x(b));
    EXPECT_NEAR(world.bodies().linear_velocity(a).value().x(), 0.0f, 1e-3f);
    EXPECT_NEAR(world.bodies().linear_velocity(b).value().x(), 0.0f, 1e-3f);
  }
}

TEST(Ccd, BodiesMovingTogetherAreNotSweptAgainstEachOther) {
  // A body in front moving at the same velocity: the relative motion is below the threshold,
  // so the follower is not stopped by it (the pair is left to the discrete contacts).
  PlateWorld world;
  const BodyID leader = world.add_ball(Vec3(-10.0f, 3, 0), Vec3(-30, 0, 0));
  const BodyID follower = world.add_ball(Vec3(-9.7f, 3, 0), Vec3(-30, 0, 0));
  EXPECT_EQ(world.run(10), 0u);
  EXPECT_NEAR(world.x(follower) - world.x(leader), 0.3f, 1e-4f);
}

TEST(Ccd, AMeshFloorTheBodySlidesOnDoesNotHideAWall) {
  // One static mesh: a floor and a wall at x = 3. A LinearCast ball resting 10 mm deep in the
  // floor moves along it at 100 m/s (the cast touches the floor at fraction 0 every step); the
  // wall must still stop it.
  TriangleMeshShapeSettings mesh;
  for (const Float3& v :
       {Float3{-20, 0, -20}, Float3{-20, 0, 20}, Float3{20, 0, 20}, Float3{20, 0, -20},
        Float3{3, 0, -20}, Float3{3, 0, 20}, Float3{3, 5, -20}, Float3{3, 5, 20}})
    mesh.vertices.push_back(v);
  mesh.triangles = {{{0, 1, 2}, 0}, {{0, 2, 3}, 0}, {{4, 5, 6}, 0}, {{6, 5, 7}, 0}};
  PhysicsSystem system;
  BodyInterface& bodies = system.body_interface();
  ASSERT_TRUE(bodies
                  .create_and_add_body({mesh.create().value(), Vec3(), Quat(), MotionType::Static},
                                       Activation::DontActivate)
                  .ok());
  BodyCreationSettings s(ball_shape(0.5f), Vec3(-10, 0.49f, 0), Quat(), MotionType::Dynamic);
  s.linear_velocity = Vec3(100, 0, 0);
  s.motion_quality = MotionQuality::LinearCast;
  s.friction = 0.0f;
  const BodyID ball = bodies.create_and_add_body(s, Activation::Activate).value();
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(system.update(k_dt).ok());
  EXPECT_LT(bodies.position(ball).value().x(), 3.0f);
  EXPECT_GT(bodies.position(ball).value().y(), 0.0f);
}

TEST(Ccd, ManyBulletsAreHeldAndTheRunIsReproducible) {
  // Bullets from both sides into the plate and into each other, created in two orders: none
  // crosses, and each order gives the same state twice. The bullets overlap in y, so the
  // impacts throw some of them sideways at up to 25 m/s, along the plate and past its edge
  // (|y| > 2 m); a bullet is checked in every step, and may only reach the far side past an edge.
  const auto run = [](bool reversed) {
    PlateWorld world;
    std::vector<std::pair<Vec3, Vec3>> specs;
    for (int i = 0; i < 8; ++i) {
      const float y = 0.05f * static_cast<float>(i);
      specs.push_back({Vec3(-1.55f - 0.3f * static_cast<float>(i), y, 0), Vec3(60, 0, 0)});
      specs.push_back({Vec3(1.55f + 0.2f * static_cast<float>(i), y + 0.02f, 0), Vec3(-50, 0, 0)});
    }
    std::vector<BodyID> ids(specs.size());
    for (size_t k = 0; k < specs.size(); ++k) {
      const size_t i = reversed ? specs.size() - 1 - k : k;
      ids[i] = world.add_ball(specs[i].first, specs[i].second);
    }
    for (int step = 0; step < 40; ++step) {
      world.run(1);
      for (size_t i = 0; i < ids.size(); ++i) {
        const Vec3 p = world.bodies().position(ids[i]).value();
        const bool beside_plate = std::fabs(p.y()) < 2.1f && std::fabs(p.z()) < 2.1f;
        if (beside_plate) {
          EXPECT_LT(p.x() * (i % 2 == 0 ? 1.0f : -1.0f), 0.0f)
              << "bullet " << i << " step " << step << " y " << p.y();
        }
      }
    }
    return state_hash(world.system.bodies());
  };
  for (bool reversed : {false, true}) EXPECT_EQ(run(reversed), run(reversed)) << reversed;
}

}  // namespace
}  // namespace ccd_test
}  // namespace atl
