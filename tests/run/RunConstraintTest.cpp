// Constraints in a scene run (issue 8 §3): set_motor, enable/disable and repeated-force events,
// and the summary's per-constraint enabled, broken_at_step and total_lambda.

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "atoll/run/SceneWorld.h"
#include "atoll/scene/SceneReader.h"

namespace atl {
namespace run_constraint_test {
namespace {

RunSummary run(const std::string& text) {
  Result<SceneDescription> scene = read_scene_text(text, "t.json");
  EXPECT_TRUE(scene.ok()) << (scene.ok() ? "" : scene.error().message());
  if (!scene) return {};
  Result<std::unique_ptr<SceneWorld>> world = SceneWorld::create(*scene, "t.json");
  EXPECT_TRUE(world.ok()) << (world.ok() ? "" : world.error().message());
  if (!world) return {};
  Result<RunSummary> summary = run_scene(**world, RunOptions{}, "t.json");
  EXPECT_TRUE(summary.ok()) << (summary.ok() ? "" : summary.error().message());
  return summary ? *summary : RunSummary{};
}

const BodySnapshot& body(const RunSummary& s, const std::string& name) {
  for (const auto& [n, snapshot] : s.bodies)
    if (n == name) return snapshot;
  ADD_FAILURE() << "no body " << name;
  static const BodySnapshot none;
  return none;
}

const ConstraintSnapshot& constraint(const RunSummary& s, const std::string& name) {
  for (const ConstraintSnapshot& c : s.constraints)
    if (c.name == name) return c;
  ADD_FAILURE() << "no constraint " << name;
  static const ConstraintSnapshot none;
  return none;
}

// A 2 kg ball hanging 1 m below a world point, gravity off unless `gravity` says otherwise.
std::string hanging_ball(const std::string& constraint_keys, const std::string& events, int steps,
                         const char* gravity = "[0, 0, 0]") {
  return std::string(R"({"settings": {"steps": )") + std::to_string(steps) + R"(, "gravity": )" +
         gravity + R"(},
    "bodies": [{"name": "ball", "shape": {"type": "sphere", "radius": 0.1}, "mass": 2,
                "position": [0, 1, 0], "linear_damping": 0, "angular_damping": 0,
                "allow_sleeping": false}],
    "constraints": [{"name": "rope", "type": "point", "body1": "world", "body2": "ball",
                     "point1": [0, 2, 0], "point2": [0, 2, 0])" +
         constraint_keys + R"(}],
    "events": [)" +
         events + "]}";
}

TEST(RunConstraints, BrokenAtStepIsTheStepWhoseImpulseExceededTheThreshold) {
  // A 5 N·s impulse away from the point at step 20: the point part must cancel it (about
  // 5 N·s) and breaks (threshold 1 N·s); a hanging ball at rest needs none.
  const std::string kick = R"({"step": 20, "action": "add_impulse", "body": "ball",
                               "impulse": [0, -5, 0]})";
  const RunSummary broken = run(hanging_ball(R"(, "break_impulse": 1)", kick, 30));
  const ConstraintSnapshot& rope = constraint(broken, "rope");
  EXPECT_FALSE(rope.enabled);
  EXPECT_EQ(rope.broken_at_step, 20);
  // The breaking step's impulse was applied (the constraint is disabled after that step): the
  // kick was cancelled, the ball is at rest where it was, now free.
  EXPECT_NEAR(body(broken, "ball").linear_velocity.y(), 0.0f, 1e-3f);
  // The JSON: broken_at_step a number, the point part's lambda three components.
  const nlohmann::json j = nlohmann::json::parse(summary_to_json(broken));
  EXPECT_EQ(j["constraints"]["rope"]["broken_at_step"], 20);
  EXPECT_EQ(j["constraints"]["rope"]["enabled"], false);
  EXPECT_EQ(j["constraints"]["rope"]["total_lambda"]["position"].size(), 3u);

  // Stopped and enabled again the next step: broken_at_step is back to null and it holds.
  const RunSummary again =
      run(hanging_ball(R"(, "break_impulse": 1)",
                       kick + R"(, {"step": 21, "action": "set_linear_velocity", "body": "ball",
                   "linear_velocity": [0, 0, 0]},
                  {"step": 21, "action": "enable_constraint", "constraint": "rope"})",
                       60));
  EXPECT_TRUE(constraint(again, "rope").enabled);
  EXPECT_EQ(constraint(again, "rope").broken_at_step, -1);
  EXPECT_TRUE(nlohmann::json::parse(summary_to_json(again))["constraints"]["rope"]["broken_at_step"]
                  .is_null());
  // Unbroken without a threshold.
  const RunSummary strong = run(hanging_ball("", kick, 30));
  EXPECT_TRUE(constraint(strong, "rope").enabled);
  EXPECT_EQ(constraint(strong, "rope").broken_at_step, -1);
}

TEST(RunConstraints, DisableAndEnableEvents) {
  // Under gravity: disabled at step 10 the ball falls freely; enabled at step 20 it is caught.
  const RunSummary falls =
      run(hanging_ball("", R"({"step": 10, "action": "disable_constraint", "constraint": "rope"})",
                       20, "[0, -10, 0]"));
  EXPECT_FALSE(constraint(falls, "rope").enabled);
  // 10 free steps of 1/60 s at 10 m/s²: 1.667 m/s down.
  EXPECT_NEAR(body(falls, "ball").linear_velocity.y(), -10.0f * 10.0f / 60.0f, 1e-3f);
  const RunSummary held =
      run(hanging_ball("", R"({"step": 10, "action": "disable_constraint", "constraint": "rope"},
             {"step": 20, "action": "enable_constraint", "constraint": "rope"})",
                       120, "[0, -10, 0]"));
  EXPECT_TRUE(constraint(held, "rope").enabled);
  // Hanging again, within 1 cm of its rope length (Baumgarte pulls it back).
  EXPECT_NEAR((body(held, "ball").position - Vec3(0, 2, 0)).length(), 1.0f, 0.01f);
}

TEST(RunConstraints, TotalLambdaOfAHangingBallIsItsWeightTimesDt) {
  const RunSummary s = run(hanging_ball("", "", 120, "[0, -10, 0]"));
  const ConstraintSnapshot& rope = constraint(s, "rope");
  ASSERT_EQ(rope.total_lambda.size(), 1u);
  EXPECT_EQ(rope.total_lambda[0].first, "position");
  ASSERT_EQ(rope.total_lambda[0].second.size(), 3u);
  const Vec3 lambda(rope.total_lambda[0].second[0], rope.total_lambda[0].second[1],
                    rope.total_lambda[0].second[2]);
  // 2 kg · 10 m/s² · 1/60 s = 0.3333 N·s.
  EXPECT_NEAR(lambda.length(), 2.0f * 10.0f / 60.0f, 0.3333f * 0.01f);
}

TEST(RunConstraints, SetMotorEventsDriveAHingeMotor) {
  // A door on a vertical hinge, gravity off; its velocity motor spins it at 2 rad/s, then a
  // set_motor event at step 30 reverses it to -1 rad/s, and one at 60 switches it off.
  const std::string scene_text = R"({"settings": {"steps": 50, "gravity": [0, 0, 0]},
    "bodies": [{"name": "door", "shape": {"type": "box", "half_extent": [0.5, 1, 0.05]},
                "position": [0.5, 1, 0], "angular_damping": 0, "linear_damping": 0}],
    "constraints": [{"name": "hinge", "type": "hinge", "body1": "world", "body2": "door",
                     "point": [0, 1, 0], "hinge_axis": [0, 1, 0],
                     "motor_settings": {"state": "velocity", "target_velocity": 2}}],
    "events": [{"step": 30, "action": "set_motor", "constraint": "hinge",
                "target_velocity": -1}]})";
  const RunSummary s = run(scene_text);
  EXPECT_NEAR(body(s, "door").angular_velocity.y(), -1.0f, 1e-3f);
  // Motor part: the impulse that holds the target against nothing, near 0 in the last step.
  const ConstraintSnapshot& hinge = constraint(s, "hinge");
  ASSERT_EQ(hinge.total_lambda.size(), 4u);
  EXPECT_EQ(hinge.total_lambda[1].first, "rotation");
  EXPECT_EQ(hinge.total_lambda[1].second.size(), 2u);
  EXPECT_EQ(hinge.total_lambda[2].first, "limits");
  EXPECT_EQ(hinge.total_lambda[3].first, "motor");
  // Before the event: 2 rad/s.
  std::string early = scene_text;
  early.replace(early.find(R"("steps": 50)"), 11, R"("steps": 25)");
  EXPECT_NEAR(body(run(early), "door").angular_velocity.y(), 2.0f, 1e-3f);
  // Switched off with a limit-free hinge: it keeps turning at the last speed.
  std::string off = scene_text;
  off.replace(off.find(R"("target_velocity": -1})"), 22,
              R"("target_velocity": -1}, {"step": 40, "action": "set_motor",
                 "constraint": "hinge", "state": "off"})");
  EXPECT_NEAR(body(run(off), "door").angular_velocity.y(), -1.0f, 2e-3f);  // reads -1.00102
}

TEST(RunConstraints, AddForceWithStepsAppliesOnThatManyConsecutiveSteps) {
  const std::string text = R"({"settings": {"steps": 30, "gravity": [0, 0, 0]},
    "bodies": [{"name": "b", "shape": {"type": "sphere", "radius": 0.1}, "mass": 2,
                "linear_damping": 0, "angular_damping": 0, "allow_sleeping": false}],
    "events": [{"step": 5, "action": "add_force", "body": "b", "force": [4, 0, 0],
                "steps": 10},
               {"step": 5, "action": "add_torque", "body": "b", "torque": [0, 0.001, 0],
                "steps": 3}]})";
  const RunSummary s = run(text);
  // 4 N for 10 steps of 1/60 s on 2 kg: 0.3333 m/s.
  EXPECT_NEAR(body(s, "b").linear_velocity.x(), 4.0f * 10.0f / 60.0f / 2.0f, 1e-5f);
  // Torque 0.001 N·m for 3 steps on I = 0.4 · 2 · 0.01 = 0.008 kg·m²: 0.00625 rad/s.
  EXPECT_NEAR(body(s, "b").angular_velocity.y(), 0.001f * 3.0f / 60.0f / 0.008f, 1e-5f);
}

}  // namespace
}  // namespace run_constraint_test
}  // namespace atl
