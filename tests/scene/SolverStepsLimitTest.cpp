// Velocity and position iterations are bounded (k_max_solver_steps, 10000): the multi-threaded
// solve of a large island keeps some bytes per iteration and split, so `--set
// velocity_steps=1000000` took 2.2 GB in one step of the pyramid and 1e8 ended the process
// (std::bad_alloc); a constraint's velocity_steps override reached the same solve. The scene
// file, --set, PhysicsSettings and the constraint's settings and setters refuse more, naming
// the key.

#include <gtest/gtest.h>

#include <string>

#include "atoll/constraint/DistanceConstraint.h"
#include "atoll/scene/SceneReader.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {
namespace solver_steps_limit_test {
namespace {

constexpr char k_scene[] = R"({
  "bodies": [{"name": "a", "shape": {"type": "box", "half_extent": [0.5, 0.5, 0.5]},
              "position": [0, 3, 0]}],
  "constraints": [{"name": "rope", "type": "distance", "body1": "world", "body2": "a",
                   "point1": [0, 5, 0], "point2": [0, 3, 0]}]})";

std::string error_of(SceneDescription& scene, std::string_view assignment) {
  const Status status = apply_override(scene, assignment);
  return status.ok() ? "<no error>" : status.error().message();
}

TEST(SolverStepsLimit, SettingsRefuseMoreIterationsThanTheLimit) {
  PhysicsSystem system;
  PhysicsSettings settings = system.settings();
  settings.velocity_steps = 1000000000;
  Status set = system.set_settings(settings);
  ASSERT_FALSE(set.ok());
  EXPECT_STREQ(set.error().message(),
               "PhysicsSettings.velocity_steps: must be <= 10000, got 1000000000");
  settings.velocity_steps = 10000;
  settings.position_steps = 10001;
  set = system.set_settings(settings);
  ASSERT_FALSE(set.ok());
  EXPECT_STREQ(set.error().message(),
               "PhysicsSettings.position_steps: must be <= 10000, got 10001");
  EXPECT_EQ(system.settings().velocity_steps, PhysicsSettings().velocity_steps);
  settings.position_steps = 10000;
  EXPECT_TRUE(system.set_settings(settings).ok());
}

TEST(SolverStepsLimit, SetAndTheSceneFileRefuseMoreIterationsThanTheLimit) {
  SceneDescription scene = read_scene_text(k_scene, "s.json").value_or_throw();
  const SceneDescription before = scene;
  EXPECT_EQ(error_of(scene, "velocity_steps=1000000000"),
            "--set: velocity_steps: must be <= 10000, got 1000000000");
  EXPECT_EQ(error_of(scene, "constraints.rope.velocity_steps=10001"),
            "--set: constraints.rope.velocity_steps: must be in [0, 10000], got 10001");
  EXPECT_EQ(scene, before);
  EXPECT_EQ(error_of(scene, "constraints.rope.position_steps=10000"), "<no error>");

  std::string text = k_scene;
  text.replace(text.find("\"point1\""), 0, "\"velocity_steps\": 2000000000, ");
  const Result<SceneDescription> read = read_scene_text(text, "s.json");
  ASSERT_FALSE(read.ok());
  EXPECT_STREQ(read.error().message(),
               "s.json: constraints[0].velocity_steps: must be in [0, 10000], got 2000000000");
}

TEST(SolverStepsLimit, AConstraintRefusesAnOverrideAboveTheLimit) {
  PhysicsSystem system;
  const Ref<Shape> box = BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value_or_throw();
  const BodyID body = system.body_interface()
                          .create_and_add_body({box, Vec3(0, 3, 0), Quat(), MotionType::Dynamic},
                                               Activation::Activate)
                          .value_or_throw();
  DistanceConstraintSettings s;
  s.point1 = Vec3(0, 5, 0);
  s.point2 = Vec3(0, 3, 0);
  s.common.velocity_steps_override = 268435454;
  const Result<Ref<Constraint>> refused =
      s.create(system.body_interface(), Constraint::k_world, body);
  ASSERT_FALSE(refused.ok());
  EXPECT_STREQ(refused.error().message(),
               "DistanceConstraintSettings.velocity_steps_override: must be <= 10000 (0 = the "
               "global setting), got 268435454");
  s.common.velocity_steps_override = 10000;
  const Ref<Constraint> rope =
      s.create(system.body_interface(), Constraint::k_world, body).value_or_throw();

  const Status set = rope->set_velocity_steps_override(10001);
  ASSERT_FALSE(set.ok());
  EXPECT_STREQ(set.error().message(),
               "Constraint::set_velocity_steps_override.steps: must be <= 10000 (0 = the global "
               "setting), got 10001");
  EXPECT_EQ(rope->velocity_steps_override(), 10000u);
  EXPECT_FALSE(rope->set_position_steps_override(4000000000u).ok());
  EXPECT_EQ(rope->position_steps_override(), 0u);
  EXPECT_TRUE(rope->set_position_steps_override(3).ok());
  EXPECT_EQ(rope->position_steps_override(), 3u);
}

}  // namespace
}  // namespace solver_steps_limit_test
}  // namespace atl
