// --set KEY=VALUE overrides: settings keys and bodies.NAME.FIELD, with the reader's checks and
// messages (source "--set"), leaving the scene unchanged on error.

#include <gtest/gtest.h>

#include "atoll/scene/SceneReader.h"

namespace atl {
namespace scene_override_test {
namespace {

SceneDescription demo_scene() {
  Result<SceneDescription> scene = read_scene_text(R"({
    "shapes": {"crate": {"type": "box", "half_extent": [0.5, 0.5, 0.5]},
               "ball": {"type": "sphere", "radius": 0.5}},
    "bodies": [{"name": "floor", "shape": {"type": "box", "half_extent": [10, 1, 10]},
                "position": [0, -1, 0], "motion": "static"},
               {"name": "b0", "shape": "crate", "position": [0, 3, 0]}],
    "generators": [{"type": "stack", "name": "s", "shape": "crate", "count": 5,
                    "base": [2, 0.5, 0]}]})",
                                                   "o.json");
  EXPECT_TRUE(scene.ok()) << (scene.ok() ? "" : scene.error().message());
  return scene.ok() ? std::move(scene).value() : SceneDescription();
}

std::string error_of(SceneDescription& scene, std::string_view assignment) {
  const Status status = apply_override(scene, assignment);
  return status.ok() ? "<no error>" : status.error().message();
}

TEST(SceneOverride, SetsSettings) {
  SceneDescription scene = demo_scene();
  ASSERT_TRUE(apply_override(scene, "velocity_steps=4").ok());
  EXPECT_EQ(scene.physics.velocity_steps, 4);
  ASSERT_TRUE(apply_override(scene, "gravity=[0,-1,0]").ok());
  EXPECT_EQ(scene.physics.gravity, Vec3(0, -1, 0));
  ASSERT_TRUE(apply_override(scene, "settings.baumgarte=0.5").ok());
  EXPECT_EQ(scene.physics.baumgarte, 0.5f);
  ASSERT_TRUE(apply_override(scene, "allow_sleeping=false").ok());
  EXPECT_FALSE(scene.physics.allow_sleeping);
  ASSERT_TRUE(apply_override(scene, "dt=0.01").ok());
  EXPECT_EQ(scene.dt, 0.01f);
  ASSERT_TRUE(apply_override(scene, "steps=100").ok());
  EXPECT_EQ(scene.steps, 100);
  ASSERT_TRUE(apply_override(scene, "collision_steps=2").ok());
  EXPECT_EQ(scene.collision_steps, 2);
}

TEST(SceneOverride, SetsBodyFieldsIncludingGeneratedBodies) {
  SceneDescription scene = demo_scene();
  ASSERT_TRUE(apply_override(scene, "bodies.s3.friction=0.9").ok());
  EXPECT_EQ(scene.find_body("s3")->settings.friction, 0.9f);
  EXPECT_EQ(scene.find_body("s2")->settings.friction, BodyCreationSettings().friction);
  ASSERT_TRUE(apply_override(scene, "bodies.b0.position=[1, 2, 3]").ok());
  EXPECT_EQ(scene.find_body("b0")->settings.position, Vec3(1, 2, 3));
  // A bare word is taken as a string.
  ASSERT_TRUE(apply_override(scene, "bodies.b0.motion_quality=linear_cast").ok());
  EXPECT_EQ(scene.find_body("b0")->settings.motion_quality, MotionQuality::LinearCast);
  ASSERT_TRUE(apply_override(scene, "bodies.b0.shape=ball").ok());
  EXPECT_EQ(scene.find_body("b0")->shape.name, "ball");
  ASSERT_TRUE(apply_override(scene, R"(bodies.b0.shape={"type": "sphere", "radius": 2})").ok());
  EXPECT_EQ(std::get<SphereShapeSettings>(scene.find_body("b0")->shape.definition->settings).radius,
            2.0f);
  ASSERT_TRUE(apply_override(scene, "bodies.floor.motion=dynamic").ok());
  EXPECT_EQ(scene.find_body("floor")->settings.motion_type, MotionType::Dynamic);
}

TEST(SceneOverride, BadOverridesGiveOneLineMessagesAndChangeNothing) {
  SceneDescription scene = demo_scene();
  const SceneDescription before = scene;
  EXPECT_EQ(error_of(scene, "velocity_steps=ten"),
            "--set: velocity_steps: expected an integer, got \"ten\"");
  EXPECT_EQ(error_of(scene, "settings.velocity_steps=0"),
            "--set: settings.velocity_steps: must be >= 1, got 0");
  EXPECT_EQ(error_of(scene, "gravity=[0,-1]"),
            "--set: gravity: expected an array of 3 numbers [x, y, z], got [0,-1]");
  EXPECT_EQ(error_of(scene, "velocity_stepz=4"), "--set: velocity_stepz: unknown key");
  EXPECT_EQ(error_of(scene, "velocity_steps"), "--set: \"velocity_steps\": expected KEY=VALUE");
  EXPECT_EQ(error_of(scene, "=4"), "--set: \"=4\": expected KEY=VALUE");
  EXPECT_EQ(error_of(scene, "bodies.b0.mass=-1"), "--set: bodies.b0.mass: must be > 0, got -1");
  EXPECT_EQ(error_of(scene, "bodies.b0.mass=1e999"),
            "--set: bodies.b0.mass: must be a finite float, got 1e999");
  EXPECT_EQ(error_of(scene, "bodies.b0.frcition=1"), "--set: bodies.b0.frcition: unknown key");
  EXPECT_EQ(error_of(scene, "bodies.s9.mass=1"), "--set: bodies.s9.mass: unknown body \"s9\"");
  EXPECT_EQ(error_of(scene, "bodies.b0=1"), "--set: bodies.b0: expected bodies.NAME.FIELD");
  EXPECT_EQ(error_of(scene, "bodies.b0.name=b1"),
            "--set: bodies.b0.name: a body's name cannot be changed");
  EXPECT_EQ(error_of(scene, "bodies.b0.shape=crat"),
            "--set: bodies.b0.shape: unknown shape \"crat\"");
  EXPECT_EQ(error_of(scene, "bodies.b0.motion=stationary"),
            "--set: bodies.b0.motion: unknown motion \"stationary\" (expected static, kinematic "
            "or dynamic)");
  EXPECT_EQ(error_of(scene, "bodies.floor.mass=5"),
            "--set: bodies.floor.mass: a static body has no mass");
  EXPECT_EQ(error_of(scene, "bodies.b0.rotation=[0,0,0,3]"),
            "--set: bodies.b0.rotation: must be a unit quaternion [x, y, z, w], its length is 3");
  EXPECT_EQ(scene, before);
}

}  // namespace
}  // namespace scene_override_test
}  // namespace atl
