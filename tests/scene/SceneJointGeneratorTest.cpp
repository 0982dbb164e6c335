// Generators that make constraints (issue 8 §3): chain, ragdoll and grid with a constraint —
// body and constraint counts, names, where the joints sit, limits, collision groups, errors.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "atoll/scene/ConstraintFields.h"
#include "atoll/scene/SceneReader.h"

namespace atl {
namespace scene_joint_generator_test {
namespace {

using Json = scene_json::Json;

SceneDescription read_ok(const std::string& text) {
  Result<SceneDescription> scene = read_scene_text(text, "g.json");
  EXPECT_TRUE(scene.ok()) << (scene.ok() ? "" : scene.error().message());
  return scene.ok() ? std::move(scene).value() : SceneDescription();
}

std::string error_of(const std::string& text) {
  const Result<SceneDescription> scene = read_scene_text(text, "g.json");
  return scene.ok() ? "<no error>" : scene.error().message();
}

std::string scene_with(const std::string& generators, const std::string& constraints = "") {
  return R"({"shapes": {"link": {"type": "box", "half_extent": [0.2, 0.05, 0.05]}},
      "bodies": [{"name": "floor", "motion": "static",
      "shape": {"type": "box", "half_extent": [10, 1, 10]}, "position": [0, -1, 0]}],
      "generators": [)" +
         generators + R"(], "constraints": [)" + constraints + "]}";
}

// A constraint as the writer writes it (world-space points and axes, limits).
Json written(const SceneDescription& scene, const std::string& name) {
  const ConstraintDesc* c = scene.find_constraint(name);
  EXPECT_NE(c, nullptr) << name;
  return c != nullptr ? fields::write_constraint(*c) : Json::object();
}

// PREFIX + index (appended: GCC 12's -Wrestrict misfires on "c" + std::to_string(i)).
std::string indexed(const char* prefix, int i) {
  return std::string(prefix).append(std::to_string(i));
}

Vec3 vec(const Json& j) { return Vec3(j[0].get<float>(), j[1].get<float>(), j[2].get<float>()); }

TEST(SceneJointGenerators, ChainMakesLinksAndOneJointPerLinkFromTheWorld) {
  const SceneDescription scene = read_ok(scene_with(
      R"({"type": "chain", "name": "c", "shape": "link", "count": 4, "base": [1, 5, 0],
          "direction": [2, 0, 0], "spacing": 0.5, "friction": 0.3,
          "constraint": {"type": "hinge", "hinge_axis": [0, 0, 1], "limits_min": -1,
                         "limits_max": 0.5}})"));
  ASSERT_EQ(scene.bodies.size(), 1u + 4u);
  ASSERT_EQ(scene.constraints.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    const BodyDesc& link = *scene.find_body(indexed("c", i));
    EXPECT_EQ(link.settings.position, Vec3(1.0f + 0.5f * float(i), 5.0f, 0.0f));
    EXPECT_EQ(link.settings.friction, 0.3f);
    // One group of their own: the floor has none, so the first free group is 0.
    EXPECT_EQ(link.collision_group, 0u);
    const ConstraintDesc& joint = scene.constraints[size_t(i)];
    EXPECT_EQ(joint.name, indexed("c_joint", i));
    EXPECT_EQ(joint.type, ConstraintSubType::Hinge);
    EXPECT_EQ(joint.body1, i == 0 ? "world" : indexed("c", i - 1));
    EXPECT_EQ(joint.body2, indexed("c", i));
    // Halfway between the centres; joint 0 half a spacing before link 0.
    const Json j = written(scene, joint.name);
    const Vec3 expected(0.75f + 0.5f * float(i), 5.0f, 0.0f);
    EXPECT_TRUE(vec(j["point1"]).is_close(expected, 1e-12f)) << j.dump();
    EXPECT_TRUE(vec(j["point2"]).is_close(expected, 1e-12f)) << j.dump();
    EXPECT_EQ(vec(j["hinge_axis1"]), Vec3(0, 0, 1));
    EXPECT_EQ(j["limits_min"].get<float>(), -1.0f);
    EXPECT_EQ(j["limits_max"].get<float>(), 0.5f);
  }
  EXPECT_FALSE(scene.bodies[0].collision_group.has_value());
}

TEST(SceneJointGenerators, FreeDistanceChainJoinsCentresAndFileConstraintsMayNameItsJoints) {
  const SceneDescription scene = read_ok(scene_with(
      R"({"type": "chain", "name": "d", "shape": "link", "count": 3, "base": [0, 2, 0],
          "spacing": 0.4, "anchor": "free", "self_collision": true,
          "constraint": {"type": "distance", "break_impulse": 50}},
         {"type": "chain", "name": "e", "shape": "link", "count": 2, "base": [3, 2, 0],
          "spacing": 0.4, "constraint": {"type": "point"}})",
      R"({"name": "tie", "type": "point", "body1": "d2", "body2": "e1", "point": [0, 0, 0]})"));
  ASSERT_EQ(scene.constraints.size(), 2u + 2u + 1u);
  EXPECT_EQ(scene.find_constraint("d_joint0"), nullptr);
  const Json j = written(scene, "d_joint2");
  EXPECT_EQ(j["body1"], "d1");
  EXPECT_EQ(j["body2"], "d2");
  // Direction defaults to down: the ends are the two centres.
  EXPECT_TRUE(vec(j["point1"]).is_close(Vec3(0, 1.6f, 0), 1e-12f)) << j.dump();
  EXPECT_TRUE(vec(j["point2"]).is_close(Vec3(0, 1.2f, 0), 1e-12f)) << j.dump();
  EXPECT_EQ(j["break_impulse"].get<float>(), 50.0f);
  // self_collision: no group; the next chain takes group 0.
  EXPECT_FALSE(scene.find_body("d0")->collision_group.has_value());
  EXPECT_EQ(scene.find_body("e0")->collision_group, 0u);
  EXPECT_EQ(scene.constraints.back().name, "tie");
}

TEST(SceneJointGenerators, GridJoinsNeighboursAndTheTopLayerToTheWorld) {
  const SceneDescription scene = read_ok(scene_with(
      R"({"type": "grid", "name": "g", "shape": {"type": "sphere", "radius": 0.2},
          "counts": [3, 2, 1], "spacing": [1, 1, 1], "base": [0, 1, 0],
          "constraint": {"type": "point"}, "anchor": "top", "collision_group": 7})"));
  ASSERT_EQ(scene.bodies.size(), 1u + 6u);
  // +x: 2 per row × 2 rows; +y: 3; top row to the world: 3.
  EXPECT_EQ(scene.constraints.size(), 4u + 3u + 3u);
  const Json x = written(scene, "g_x1");
  EXPECT_EQ(x["body1"], "g1");
  EXPECT_EQ(x["body2"], "g2");
  EXPECT_TRUE(vec(x["point1"]).is_close(Vec3(1.5f, 1, 0), 1e-12f));
  const Json y = written(scene, "g_y2");
  EXPECT_EQ(y["body2"], "g5");
  EXPECT_TRUE(vec(y["point1"]).is_close(Vec3(2, 1.5f, 0), 1e-12f));
  const Json top = written(scene, "g_top4");
  EXPECT_EQ(top["body1"], "world");
  EXPECT_EQ(top["body2"], "g4");
  EXPECT_TRUE(vec(top["point1"]).is_close(Vec3(1, 2.5f, 0), 1e-12f));
  EXPECT_EQ(scene.find_constraint("g_top1"), nullptr);  // bottom row
  EXPECT_EQ(scene.find_constraint("g_x2"), nullptr);    // no +x neighbour
  for (size_t i = 1; i < scene.bodies.size(); ++i) EXPECT_EQ(scene.bodies[i].collision_group, 7u);
  // A grid without a constraint makes no constraints and no group.
  const SceneDescription plain = read_ok(scene_with(
      R"({"type": "grid", "name": "g", "shape": "link", "counts": [2, 2, 2],
          "spacing": [1, 1, 1], "base": [0, 1, 0]})"));
  EXPECT_TRUE(plain.constraints.empty());
  EXPECT_FALSE(plain.bodies[1].collision_group.has_value());
}

TEST(SceneJointGenerators, RagdollIsTwelveCapsulesAndElevenLimitedJoints) {
  const SceneDescription scene = read_ok(scene_with(
      R"({"type": "ragdoll", "name": "a", "position": [0, 0, 0]},
         {"type": "ragdoll", "name": "b", "position": [5, 1, 0], "scale": 2,
          "rotation": [0, 0.70710678, 0, 0.70710678], "friction": 0.9})"));
  ASSERT_EQ(scene.bodies.size(), 1u + 24u);
  ASSERT_EQ(scene.constraints.size(), 22u);
  float mass_a = 0.0f, mass_b = 0.0f, top_a = 0.0f, bottom_a = 1e9f;
  for (size_t i = 1; i < scene.bodies.size(); ++i) {
    const BodyDesc& part = scene.bodies[i];
    const bool in_a = i <= 12;
    EXPECT_EQ(part.collision_group, in_a ? 0u : 1u) << part.name;
    const auto& capsule = std::get<CapsuleShapeSettings>(scene.resolve(part.shape)->settings);
    (in_a ? mass_a : mass_b) += *part.settings.override_mass;
    if (in_a) {
      // Vertical parts' extent (the horizontal trunk parts lie inside these bounds).
      top_a = std::max(
          top_a, part.settings.position.y() + capsule.half_height_of_cylinder + capsule.radius);
      bottom_a = std::min(
          bottom_a, part.settings.position.y() - capsule.half_height_of_cylinder - capsule.radius);
    } else {
      EXPECT_EQ(part.settings.friction, 0.9f);
    }
  }
  EXPECT_NEAR(mass_a, 70.0f, 1e-3f);
  EXPECT_NEAR(mass_b, 560.0f, 1e-2f);  // 70 kg × 2³
  EXPECT_NEAR(top_a, 1.80f, 1e-5f);    // 1.8 m tall, standing on y = 0
  EXPECT_NEAR(bottom_a, 0.0f, 1e-5f);
  for (const char* part :
       {"pelvis", "abdomen", "chest", "head", "left_upper_arm", "left_forearm", "right_upper_arm",
        "right_forearm", "left_thigh", "left_shin", "right_thigh", "right_shin"}) {
    EXPECT_NE(scene.find_body(std::string("a_") + part), nullptr) << part;
    EXPECT_NE(scene.find_body(std::string("b_") + part), nullptr) << part;
  }
  // Scaled by 2, turned 90° about y (left, +x, becomes −z), moved to [5, 1, 0].
  EXPECT_TRUE(scene.find_body("b_head")->settings.position.is_close(Vec3(5, 1 + 3.32f, 0), 1e-10f));
  EXPECT_TRUE(
      scene.find_body("b_left_thigh")->settings.position.is_close(Vec3(5, 2.4f, -0.2f), 1e-10f));

  const Json knee = written(scene, "a_left_knee");
  EXPECT_EQ(knee["type"], "hinge");
  EXPECT_EQ(knee["body1"], "a_left_thigh");
  EXPECT_EQ(knee["body2"], "a_left_shin");
  EXPECT_EQ(knee["limits_min"].get<float>(), 0.0f);
  EXPECT_EQ(knee["limits_max"].get<float>(), 2.4f);
  EXPECT_EQ(written(scene, "b_right_elbow")["limits_max"].get<float>(), 2.6f);
  const Json hip = written(scene, "b_left_hip");
  EXPECT_EQ(hip["type"], "swing_twist");
  EXPECT_EQ(hip["body1"], "b_pelvis");
  EXPECT_TRUE(vec(hip["position1"]).is_close(Vec3(5, 2.8f, -0.2f), 1e-10f)) << hip.dump();
  EXPECT_TRUE(vec(hip["twist_axis1"]).is_close(Vec3(0, -1, 0), 1e-12f)) << hip.dump();
  EXPECT_EQ(hip["normal_half_cone_angle"].get<float>(), 1.2f);
  EXPECT_EQ(hip["plane_half_cone_angle"].get<float>(), 0.6f);
  EXPECT_EQ(hip["twist_min_angle"].get<float>(), -0.5f);
  EXPECT_EQ(hip["twist_max_angle"].get<float>(), 0.5f);
  for (const char* joint :
       {"lower_back", "upper_back", "neck", "left_shoulder", "left_elbow", "right_shoulder",
        "right_elbow", "left_hip", "left_knee", "right_hip", "right_knee"})
    EXPECT_NE(scene.find_constraint(std::string("a_") + joint), nullptr) << joint;
}

TEST(SceneJointGenerators, Errors) {
  const std::string chain = R"({"type": "chain", "name": "c", "shape": "link", "count": 3,
      "base": [0, 2, 0], "spacing": 0.5, )";
  EXPECT_EQ(error_of(scene_with(chain + R"("constraint": {"type": "hinge", "point": [0, 0, 0],
                                  "hinge_axis": [0, 0, 1]}})")),
            "g.json: generators[0].constraint.point: set by the generator, which places its "
            "joints");
  EXPECT_EQ(error_of(scene_with(chain + R"("constraint": {"type": "gear"}})")),
            "g.json: generators[0].constraint.type: unknown generated constraint type \"gear\" "
            "(expected fixed, point, distance, hinge, slider, cone, swing_twist or six_dof)");
  EXPECT_EQ(error_of(scene_with(chain + R"("constraint": {"type": "hinge",
                                  "hinge_axis": [0, 0, 0]}})")),
            "g.json: generators[0].constraint.hinge_axis: must not be zero");
  EXPECT_EQ(error_of(scene_with(chain + R"("constraint": {"type": "point"},
                                  "self_collision": true, "collision_group": 2})")),
            "g.json: generators[0].collision_group: conflicts with self_collision");
  EXPECT_EQ(error_of(scene_with(chain + R"("constraint": {"type": "point"}, "anchor": "top"})")),
            "g.json: generators[0].anchor: unknown anchor \"top\" (expected world or free)");
  EXPECT_EQ(error_of(scene_with(R"({"type": "chain", "name": "c", "shape": "link", "count": 3,
                                    "base": [0, 2, 0], "spacing": 0.5})")),
            "g.json: generators[0].constraint: required key missing");
  EXPECT_EQ(error_of(scene_with(R"({"type": "grid", "name": "g", "shape": "link",
                                    "counts": [2, 1, 1], "spacing": [1, 1, 1], "base": [0, 0, 0],
                                    "anchor": "top"})")),
            "g.json: generators[0].anchor: needs a constraint");
  EXPECT_EQ(error_of(scene_with(R"({"type": "ragdoll", "name": "r", "position": [0, 0, 0],
                                    "shape": "link"})")),
            "g.json: generators[0].shape: not allowed in a ragdoll, which makes its own capsules");
  EXPECT_EQ(error_of(scene_with(R"({"type": "ragdoll", "name": "r", "scale": 0,
                                    "position": [0, 0, 0]})")),
            "g.json: generators[0].scale: must be > 0, got 0");
  EXPECT_EQ(error_of(scene_with(R"({"type": "ragdoll", "name": "r"})")),
            "g.json: generators[0].position: required key missing");
  // A generated constraint name already taken.
  EXPECT_EQ(error_of(scene_with(R"({"type": "ragdoll", "name": "r", "position": [0, 0, 0]},
                                   {"type": "chain", "name": "r_left", "shape": "link",
                                    "count": 1, "base": [3, 2, 0], "spacing": 0.5,
                                    "constraint": {"type": "point"}},
                                   {"type": "chain", "name": "r_left", "shape": "link",
                                    "count": 1, "base": [5, 2, 0], "spacing": 0.5,
                                    "constraint": {"type": "point"}})")),
            "g.json: generators[2].name: duplicate body name \"r_left0\"");
  EXPECT_EQ(error_of(scene_with(R"({"type": "chain", "name": "c", "shape": "link", "count": 1,
                              "base": [3, 2, 0], "spacing": 0.5, "constraint": {"type": "point"}})",
                                R"({"name": "c_joint0", "type": "point", "body1": "world",
                              "body2": "c0", "point": [0, 0, 0]})")),
            "g.json: constraints[0].name: duplicate constraint name \"c_joint0\"");
}

}  // namespace
}  // namespace scene_joint_generator_test
}  // namespace atl
