// The seven constraint types after the first five in a running scene (issue 8 §3): each keeps
// its constraint and reports its parts' total_lambda in the summary; gear and rack_and_pinion
// keep their ratios; set_motor events drive swing_twist's and six_dof's motors.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "atoll/run/SceneWorld.h"
#include "atoll/scene/ConstraintFields.h"
#include "atoll/scene/SceneReader.h"

namespace atl {
namespace run_constraint_types_test {
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

// The constraint's parts as "name:components" in order, e.g. "position:3 rotation:1".
std::string parts(const RunSummary& s, const std::string& name) {
  for (const ConstraintSnapshot& c : s.constraints)
    if (c.name == name) {
      std::string text;
      for (const auto& [part, values] : c.total_lambda) {
        if (!text.empty()) text += ' ';
        text += part;
        text += ':';
        text += std::to_string(values.size());
      }
      return text;
    }
  ADD_FAILURE() << "no constraint " << name;
  return "";
}

const std::vector<float>& lambda(const RunSummary& s, const std::string& name,
                                 const std::string& part) {
  for (const ConstraintSnapshot& c : s.constraints)
    if (c.name == name)
      for (const auto& [p, values] : c.total_lambda)
        if (p == part) return values;
  ADD_FAILURE() << "no part " << part << " of " << name;
  static const std::vector<float> none(3, 0.0f);
  return none;
}

// Two bodies a (box) and b (sphere, 2 kg), gravity `gravity`, no damping, no sleeping.
std::string scene(const std::string& constraints, const std::string& events, int steps,
                  const char* gravity = "[0, 0, 0]", const char* extra_bodies = "") {
  return std::string(R"({"settings": {"steps": )") + std::to_string(steps) + R"(, "gravity": )" +
         gravity + R"(},
    "bodies": [
      {"name": "a", "shape": {"type": "box", "half_extent": [0.5, 0.1, 0.1]}, "mass": 1,
       "position": [0, 1, 0], "linear_damping": 0, "angular_damping": 0,
       "allow_sleeping": false},
      {"name": "b", "shape": {"type": "sphere", "radius": 0.1}, "mass": 2,
       "position": [2, 1, 0], "linear_damping": 0, "angular_damping": 0,
       "allow_sleeping": false})" +
         extra_bodies + R"(],
    "constraints": [)" +
         constraints + R"(],
    "events": [)" +
         events + "]}";
}

TEST(RunConstraintTypes, ConeHoldsItsPointAndReportsItsWeight) {
  // b hangs 1 m below a world point on a cone (half angle 0.3 about -y), gravity -10.
  const RunSummary s = run(scene(
      R"({"name": "c", "type": "cone", "body1": "world", "body2": "b", "point": [2, 2, 0],
          "twist_axis": [0, -1, 0], "half_cone_angle": 0.3})",
      "", 120, "[0, -10, 0]"));
  EXPECT_EQ(parts(s, "c"), "position:3 rotation:1");
  const std::vector<float>& p = lambda(s, "c", "position");
  // 2 kg · 10 m/s² / 60 Hz = 0.33333 N·s upwards.
  EXPECT_NEAR(p[1], 2.0f * 10.0f / 60.0f, 0.3333f * 0.01f);  // reads 0.3333333
  EXPECT_NEAR(body(s, "b").position.y(), 1.0f, 1e-3f);       // reads 1
}

TEST(RunConstraintTypes, SwingTwistMotorsFollowSetMotorEvents) {
  // a on a swing_twist at its centre, twist axis +x, swing locked, twist free. At step 10 the
  // twist motor turns it at 1.5 rad/s about x (velocity), and the summary reports the parts.
  const std::string joint =
      R"({"name": "st", "type": "swing_twist", "body1": "world", "body2": "a",
          "position": [0, 1, 0], "twist_axis": [1, 0, 0], "twist_min_angle": -3.1415927,
          "twist_max_angle": 3.1415927})";
  const RunSummary s = run(scene(joint, R"({"step": 10, "action": "set_motor", "constraint": "st",
      "motor": "twist", "state": "velocity", "target_angular_velocity": [1.5, 0, 0]})",
                                 60));
  EXPECT_EQ(parts(s, "st"), "position:3 swing:1 twist:1 motor:3");
  EXPECT_NEAR(body(s, "a").angular_velocity.x(), 1.5f, 1e-3f);       // reads 1.5
  EXPECT_NEAR(body(s, "a").angular_velocity.length(), 1.5f, 1e-3f);  // reads 1.5
  // A position motor to a twist of 0.5 rad (the file's target, a 2 Hz critically damped spring
  // for 5 s): the body's rotation is that twist.
  // [sin 0.25, 0, 0, cos 0.25]: 0.5 rad about x.
  const std::string target = "[0.24740396, 0, 0, 0.96891242]";
  const RunSummary turned =
      run(scene(joint.substr(0, joint.size() - 1) +
                    R"(, "twist_motor_settings": {"state": "position", "target_orientation": )" +
                    target + "}}",
                "", 300));
  const Quat q = body(turned, "a").rotation;
  EXPECT_NEAR(2.0f * std::atan2(q.x(), q.w()), 0.5f, 1e-3f);  // reads 0.49999988
  // The swing motor alone (motor "swing") leaves the twist motor off: nothing turns.
  const RunSummary swing_only = run(scene(joint, R"({"step": 0, "action": "set_motor",
      "constraint": "st", "motor": "swing", "state": "velocity",
      "target_angular_velocity": [1.5, 0, 0]})",
                                          60));
  EXPECT_NEAR(body(swing_only, "a").angular_velocity.length(), 0.0f, 1e-4f);  // reads 0
}

TEST(RunConstraintTypes, SixDOFMotorsPerAxisFollowSetMotorEvents) {
  // b on a six_dof to the world: translation x and z fixed, y free; rotations x and y fixed,
  // z free. Events give translation_y a position motor to +0.5 m and rotation_z a velocity
  // motor at 2 rad/s.
  const RunSummary s = run(scene(
      R"({"name": "six", "type": "six_dof", "body1": "world", "body2": "b",
          "position": [2, 1, 0],
          "limit_min": [0, -3.4028235e38, 0, 0, 0, -3.1415927],
          "limit_max": [0, 3.4028235e38, 0, 0, 0, 3.1415927]})",
      R"({"step": 0, "action": "set_motor", "constraint": "six", "motor": "translation_y",
          "state": "position", "target_position": 0.5},
         {"step": 0, "action": "set_motor", "constraint": "six", "motor": "rotation_z",
          "state": "velocity", "target_angular_velocity": [0, 0, 2]})",
      300));
  EXPECT_EQ(parts(s, "six"), "position:3 rotation:3 motor_translation:3 motor_rotation:3");
  const BodySnapshot& b = body(s, "b");
  EXPECT_NEAR(b.position.y(), 1.5f, 1e-3f);          // reads 1.4999998
  EXPECT_NEAR(b.position.x(), 2.0f, 1e-3f);          // reads 2
  EXPECT_NEAR(b.angular_velocity.z(), 2.0f, 1e-3f);  // reads 2
  EXPECT_NEAR(std::hypot(b.angular_velocity.x(), b.angular_velocity.y()), 0.0f, 1e-3f);  // 0
}

TEST(RunConstraintTypes, PathMotorMovesAlongTheFilesSpline) {
  // b on a straight 2 m path from the world (fraction 0 at x = 2, 1 at x = 4); a position
  // motor to fraction 0.5 brings it to x = 3.
  const RunSummary s = run(scene(
      R"({"name": "track", "type": "path", "body1": "world", "body2": "b",
          "path": {"points": [{"position": [2, 1, 0], "tangent": [2, 0, 0]},
                              {"position": [4, 1, 0], "tangent": [2, 0, 0]}]},
          "position_motor_settings": {"state": "position", "target_position": 0.5}})",
      "", 300));
  EXPECT_EQ(parts(s, "track"), "position:2 limits:1 motor:1 rotation:3");
  EXPECT_NEAR(body(s, "b").position.x(), 3.0f, 1e-3f);  // reads 2.9999995
  EXPECT_NEAR(body(s, "b").position.y(), 1.0f, 1e-3f);  // reads 1
}

TEST(RunConstraintTypes, PulleyKeepsItsRopeLength) {
  // a (1 kg) under pulley (0, 3, 0), b (2 kg) under (2, 3, 0): the rope (2 + 2 m at creation)
  // keeps its length while b sinks and a rises.
  const RunSummary s = run(scene(
      R"({"name": "lift", "type": "pulley", "body1": "a", "body2": "b",
          "body_point1": [0, 1, 0], "fixed_point1": [0, 3, 0], "body_point2": [2, 1, 0],
          "fixed_point2": [2, 3, 0]})",
      "", 60, "[0, -10, 0]"));
  EXPECT_EQ(parts(s, "lift"), "position:1");
  const float length = (Vec3(0, 3, 0) - body(s, "a").position).length() +
                       (Vec3(2, 3, 0) - body(s, "b").position).length();
  EXPECT_NEAR(length, 4.0f, 1e-3f);                   // reads 4
  EXPECT_LT(body(s, "b").position.y(), 0.9f);         // reads -0.694
  EXPECT_LT(lambda(s, "lift", "position")[0], 0.0f);  // pulls: reads -0.2222
}

// a and c on world hinges about z; `coupling` couples them; a turns at 1 rad/s from step 0.
std::string two_wheels(const std::string& coupling, const char* c_joint) {
  return scene(std::string(R"({"name": "h1", "type": "hinge", "body1": "world", "body2": "a",
                    "point": [0, 1, 0], "hinge_axis": [0, 0, 1]},)") +
                   c_joint + "," + coupling,
               R"({"step": 0, "action": "set_angular_velocity", "body": "a",
                   "angular_velocity": [0, 0, 1]})",
               120, "[0, 0, 0]",
               R"(, {"name": "c", "shape": {"type": "box", "half_extent": [0.3, 0.3, 0.1]},
                   "mass": 1, "position": [4, 1, 0], "linear_damping": 0,
                   "angular_damping": 0, "allow_sleeping": false})");
}

TEST(RunConstraintTypes, GearKeepsItsRatio) {
  const RunSummary s = run(two_wheels(
      R"({"name": "g", "type": "gear", "body1": "a", "body2": "c", "hinge_axis": [0, 0, 1],
          "ratio": 2, "constraint1": "h1", "constraint2": "h2"})",
      R"({"name": "h2", "type": "hinge", "body1": "world", "body2": "c", "point": [4, 1, 0],
          "hinge_axis": [0, 0, 1]})"));
  EXPECT_EQ(parts(s, "g"), "gear:1");
  const float w1 = body(s, "a").angular_velocity.z(), w2 = body(s, "c").angular_velocity.z();
  // ω1 + 2·ω2 = 0 within 1 %.
  EXPECT_GT(std::fabs(w1), 0.1f);                            // reads 0.852459
  EXPECT_NEAR(w1 + 2.0f * w2, 0.0f, 0.01f * std::fabs(w1));  // reads 0 (ω2 -0.4262295)
}

TEST(RunConstraintTypes, RackAndPinionKeepsItsRatio) {
  const RunSummary s = run(two_wheels(
      R"({"name": "r", "type": "rack_and_pinion", "body1": "a", "body2": "c",
          "hinge_axis": [0, 0, 1], "slider_axis": [1, 0, 0], "ratio": 4, "constraint1": "h1",
          "constraint2": "rail"})",
      R"({"name": "rail", "type": "slider", "body1": "world", "body2": "c",
          "slider_axis": [1, 0, 0]})"));
  EXPECT_EQ(parts(s, "r"), "rack_and_pinion:1");
  const float w1 = body(s, "a").angular_velocity.z(), v2 = body(s, "c").linear_velocity.x();
  // ω1 − 4·v2 = 0 within 1 %.
  EXPECT_GT(std::fabs(w1), 0.1f);                            // reads 0.5810056
  EXPECT_NEAR(w1 - 4.0f * v2, 0.0f, 0.01f * std::fabs(w1));  // reads 0 (v2 0.1452514)
}

TEST(RunConstraintTypes, AnchorsAreTheAttachmentPointsInEachBodysFrame) {
  // The recordings' attachment points: a at (0, 1, 0), b at (2, 1, 0), both unrotated.
  const std::string text = scene(
      R"({"name": "st", "type": "swing_twist", "body1": "a", "body2": "b",
          "position": [1, 1, 0]},
         {"name": "six", "type": "six_dof", "body1": "world", "body2": "b",
          "position": [2, 2, 0]},
         {"name": "lift", "type": "pulley", "body1": "a", "body2": "b",
          "body_point1": [0, 1.5, 0], "fixed_point1": [0, 3, 0], "body_point2": [2, 1.5, 0],
          "fixed_point2": [2, 3, 0]},
         {"name": "track", "type": "path", "body1": "a", "body2": "b",
          "path": {"points": [{"position": [2, 0, 0]}, {"position": [3, 0, 0]}]}})",
      "", 1);
  Result<SceneDescription> description = read_scene_text(text, "t.json");
  ASSERT_TRUE(description.ok()) << description.error().message();
  Result<std::unique_ptr<SceneWorld>> world = SceneWorld::create(*description, "t.json");
  ASSERT_TRUE(world.ok()) << world.error().message();
  const auto anchors = [&](const char* name) {
    const Ref<Constraint> c = (*world)->constraint(name);
    return fields::find_constraint_type(c->sub_type())->anchors(*c);
  };
  const auto near = [](const Vec3& v, const Vec3& expected) {
    return (v - expected).length() < 1e-5f;
  };
  EXPECT_TRUE(near(anchors("st").first, Vec3(1, 0, 0)));
  EXPECT_TRUE(near(anchors("st").second, Vec3(-1, 0, 0)));
  EXPECT_TRUE(near(anchors("six").first, Vec3(2, 2, 0)));  // the world: world space
  EXPECT_TRUE(near(anchors("six").second, Vec3(0, 1, 0)));
  EXPECT_TRUE(near(anchors("lift").first, Vec3(0, 0.5f, 0)));
  EXPECT_TRUE(near(anchors("lift").second, Vec3(0, 0.5f, 0)));
  // The path's point at fraction 0 is (2, 0, 0) in a's frame; b's anchor is its centre.
  EXPECT_TRUE(near(anchors("track").first, Vec3(2, 0, 0)));
  EXPECT_TRUE(near(anchors("track").second, Vec3()));
}

}  // namespace
}  // namespace run_constraint_types_test
}  // namespace atl
