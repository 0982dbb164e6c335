// Reading scene files: what a valid file turns into, and the exact one-line message for each
// kind of bad input (DESIGN.md §4: the messages are part of the CLI contract).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "atoll/scene/SceneReader.h"

namespace atl {
namespace scene_reader_test {
namespace {

std::string error_of(std::string_view text) {
  const Result<SceneDescription> scene = read_scene_text(text, "x.json");
  return scene.ok() ? "<no error>" : scene.error().message();
}

SceneDescription read_ok(std::string_view text) {
  Result<SceneDescription> scene = read_scene_text(text, "x.json");
  EXPECT_TRUE(scene.ok()) << (scene.ok() ? "" : scene.error().message());
  return scene.ok() ? std::move(scene).value() : SceneDescription();
}

TEST(SceneReader, EmptyObjectIsTheDefaultScene) {
  const SceneDescription scene = read_ok("{}");
  EXPECT_EQ(scene, SceneDescription());
  EXPECT_EQ(scene.dt, 1.0f / 60.0f);
  EXPECT_EQ(scene.steps, 600);
  EXPECT_EQ(scene.collision_steps, 1);
  EXPECT_TRUE(scene.bodies.empty());
}

TEST(SceneReader, ReadsSettingsOnTopOfTheDefaults) {
  const SceneDescription scene = read_ok(R"({"settings": {
      "dt": 0.01, "steps": 100, "collision_steps": 2, "gravity": [0, -1, 0],
      "velocity_steps": 4, "baumgarte": 0.5, "warm_start": false}})");
  EXPECT_EQ(scene.dt, 0.01f);
  EXPECT_EQ(scene.steps, 100);
  EXPECT_EQ(scene.collision_steps, 2);
  EXPECT_EQ(scene.physics.gravity, Vec3(0, -1, 0));
  EXPECT_EQ(scene.physics.velocity_steps, 4);
  EXPECT_EQ(scene.physics.baumgarte, 0.5f);
  EXPECT_FALSE(scene.physics.warm_start);
  // Untouched settings keep PhysicsSettings' defaults.
  EXPECT_EQ(scene.physics.position_steps, PhysicsSettings().position_steps);
  EXPECT_EQ(scene.physics.penetration_slop, PhysicsSettings().penetration_slop);
}

TEST(SceneReader, ReadsEveryBodyField) {
  const SceneDescription scene = read_ok(R"({
    "shapes": {"crate": {"type": "box", "half_extent": [0.5, 0.5, 0.5], "convex_radius": 0.05}},
    "bodies": [
      {"name": "floor", "shape": {"type": "box", "half_extent": [50, 1, 50]},
       "position": [0, -1, 0], "motion": "static"},
      {"name": "b0", "shape": "crate", "position": [1, 2, 3], "rotation": [0, 0.6, 0, 0.8],
       "motion": "kinematic", "mass": 2.5, "friction": 0.5, "restitution": 0.25,
       "linear_velocity": [1, 0, 0], "angular_velocity": [0, 2, 0],
       "motion_quality": "linear_cast", "allow_sleeping": false, "sensor": true,
       "sensor_detects_static": true,
       "gravity_factor": -0.5, "linear_damping": 0.1, "angular_damping": 0.2,
       "max_linear_velocity": 100, "max_angular_velocity": 10, "object_layer": 3,
       "allowed_dofs": ["tx", "ty", "rz"]},
      {"name": "b1", "shape": "crate", "allowed_dofs": "all"}
    ]})");
  ASSERT_EQ(scene.bodies.size(), 3u);
  const BodyDesc& floor = scene.bodies[0];
  EXPECT_EQ(floor.settings.motion_type, MotionType::Static);
  ASSERT_NE(floor.shape.definition, nullptr);
  EXPECT_EQ(std::get<BoxShapeSettings>(floor.shape.definition->settings).half_extent,
            Vec3(50, 1, 50));
  EXPECT_EQ(floor.settings.friction, BodyCreationSettings().friction);  // the engine default

  const BodyDesc& b = scene.bodies[1];
  EXPECT_EQ(b.shape.name, "crate");
  EXPECT_EQ(b.settings.position, Vec3(1, 2, 3));
  EXPECT_EQ(b.settings.rotation, Quat(0, 0.6f, 0, 0.8f));
  EXPECT_EQ(b.settings.motion_type, MotionType::Kinematic);
  EXPECT_EQ(b.settings.override_mass, 2.5f);
  EXPECT_EQ(b.settings.friction, 0.5f);
  EXPECT_EQ(b.settings.restitution, 0.25f);
  EXPECT_EQ(b.settings.linear_velocity, Vec3(1, 0, 0));
  EXPECT_EQ(b.settings.angular_velocity, Vec3(0, 2, 0));
  EXPECT_EQ(b.settings.motion_quality, MotionQuality::LinearCast);
  EXPECT_EQ(b.settings.allow_sleeping, false);
  EXPECT_EQ(b.settings.is_sensor, true);
  EXPECT_EQ(b.settings.sensor_detects_static, true);
  EXPECT_EQ(b.settings.gravity_factor, -0.5f);
  EXPECT_EQ(b.settings.linear_damping, 0.1f);
  EXPECT_EQ(b.settings.angular_damping, 0.2f);
  EXPECT_EQ(b.settings.max_linear_velocity, 100.0f);
  EXPECT_EQ(b.settings.max_angular_velocity, 10.0f);
  EXPECT_EQ(b.settings.object_layer, ObjectLayer(3));
  EXPECT_EQ(b.settings.allowed_dofs, AllowedDOFs::Plane2D);
  EXPECT_EQ(scene.bodies[2].settings.allowed_dofs, AllowedDOFs::All);
  EXPECT_EQ(scene.bodies[2].settings.motion_type,
            MotionType::Dynamic);  // the scene format's default
}

TEST(SceneReader, ReadsEveryShapeType) {
  const SceneDescription scene = read_ok(R"({"shapes": {
    "box": {"type": "box", "half_extent": [1, 2, 3], "density": 500},
    "sphere": {"type": "sphere", "radius": 0.5},
    "capsule": {"type": "capsule", "half_height": 1, "radius": 0.25},
    "cylinder": {"type": "cylinder", "half_height": 1, "radius": 0.5, "convex_radius": 0.05},
    "hull": {"type": "convex_hull", "points": [[0,0,0], [1,0,0], [0,1,0], [0,0,1]],
             "convex_radius": 0.01},
    "mesh": {"type": "mesh", "vertices": [[0,0,0], [1,0,0], [0,0,1]], "triangles": [[0, 2, 1]]},
    "field": {"type": "heightfield", "sample_count": 2, "heights": [0, 1, 2, 3],
              "offset": [-1, 0, -1], "scale": [2, 1, 2]},
    "compound": {"type": "compound", "children": [
        {"shape": "box", "position": [0, 1, 0]},
        {"shape": {"type": "sphere", "radius": 1}, "rotation": [0, 0, 1, 0]}]},
    "moved": {"type": "rotated_translated", "shape": "capsule", "position": [1, 0, 0],
              "rotation": [0.70710678, 0, 0, 0.70710678]},
    "scaled": {"type": "scaled", "shape": "box", "scale": [1, -2, 1]},
    "offset": {"type": "offset_center_of_mass", "shape": "sphere", "offset": [0, -0.25, 0]}
  }})");
  ASSERT_EQ(scene.shapes.size(), 11u);
  const char* expected[] = {"box",
                            "sphere",
                            "capsule",
                            "cylinder",
                            "convex_hull",
                            "mesh",
                            "heightfield",
                            "compound",
                            "rotated_translated",
                            "scaled",
                            "offset_center_of_mass"};
  for (size_t i = 0; i < 11; ++i)
    EXPECT_EQ(scene_shape_type_name(scene.shapes[i].shape), std::string(expected[i]));
  EXPECT_EQ(std::get<BoxShapeSettings>(scene.shapes[0].shape.settings).density, 500.0f);
  EXPECT_EQ(std::get<BoxShapeSettings>(scene.shapes[0].shape.settings).convex_radius,
            BoxShapeSettings().convex_radius);
  EXPECT_EQ(std::get<HeightFieldShapeSettings>(scene.shapes[6].shape.settings).heights.size(), 4u);
  const auto& compound = std::get<CompoundShapeParts>(scene.shapes[7].shape.settings);
  ASSERT_EQ(compound.children.size(), 2u);
  EXPECT_EQ(compound.children[0].shape.name, "box");
  EXPECT_EQ(compound.children[1].settings.rotation, Quat(0, 0, 1, 0));
  EXPECT_EQ(std::get<WithShape<ScaledShapeSettings>>(scene.shapes[9].shape.settings).settings.scale,
            Vec3(1, -2, 1));

  // Bounds: the scaled box is mirrored in y, the rotated capsule lies along z.
  EXPECT_EQ(scene_shape_bounds(scene, scene.shapes[9].shape).min, Vec3(-1, -4, -3));
  const AABox moved = scene_shape_bounds(scene, scene.shapes[8].shape);
  EXPECT_NEAR(moved.max.z(), 1.25f, 1e-5f);
  EXPECT_NEAR(moved.max.x(), 1.25f, 1e-5f);
  EXPECT_EQ(scene_shape_bounds(scene, scene.shapes[6].shape).max, Vec3(1, 3, 1));
}

TEST(SceneReader, ReadsEventsAndProbes) {
  const SceneDescription scene = read_ok(R"({
    "bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}}],
    "events": [
      {"step": 150, "action": "add_force", "body": "a", "force": [10, 0, 0]},
      {"step": 2, "action": "set_motion_quality", "body": "a", "value": "linear_cast"},
      {"step": 3, "action": "set_motion_type", "body": "a", "value": "kinematic"},
      {"step": 4, "action": "move_kinematic", "body": "a", "position": [1, 2, 3],
       "rotation": [0, 0, 0, 1]},
      {"step": 500, "action": "activate", "body": "a"}],
    "probes": [{"name": "wall", "type": "plane_crossing", "axis": "x", "value": 0.5},
               {"name": "floor", "type": "plane_crossing", "axis": "y", "value": 0,
                "bodies": ["a"]}]})");
  ASSERT_EQ(scene.events.size(), 5u);
  EXPECT_EQ(scene.events[0].step, 150);
  EXPECT_EQ(scene.events[0].action, SceneAction::AddForce);
  EXPECT_EQ(scene.events[0].vector, Vec3(10, 0, 0));
  EXPECT_EQ(scene.events[1].motion_quality, MotionQuality::LinearCast);
  EXPECT_EQ(scene.events[2].motion_type, MotionType::Kinematic);
  EXPECT_EQ(scene.events[3].vector, Vec3(1, 2, 3));
  EXPECT_EQ(scene.events[3].rotation, Quat::identity());
  EXPECT_EQ(scene.events[4].action, SceneAction::Activate);
  ASSERT_EQ(scene.probes.size(), 2u);
  EXPECT_EQ(scene.probes[0].axis, 0);
  EXPECT_EQ(scene.probes[0].value, 0.5f);
  EXPECT_TRUE(scene.probes[0].bodies.empty());
  EXPECT_EQ(scene.probes[1].axis, 1);
  EXPECT_EQ(scene.probes[1].bodies, std::vector<std::string>{"a"});
}

TEST(SceneReader, NormalizesNearlyUnitRotations) {
  const SceneDescription scene = read_ok(
      R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1},
                      "rotation": [0, 0, 0, 1.0009]}]})");
  EXPECT_EQ(scene.bodies[0].settings.rotation, Quat::identity());
}

TEST(SceneReader, AcceptsCommentsAndIntegralFloatsAsIntegers) {
  const SceneDescription scene = read_ok(R"({
    // comments are allowed
    "settings": {"velocity_steps": 1e1, "position_steps": 3.0} /* block comment */ })");
  EXPECT_EQ(scene.physics.velocity_steps, 10);
  EXPECT_EQ(scene.physics.position_steps, 3);
}

TEST(SceneReader, EmptyConstraintsArrayIsAccepted) {
  EXPECT_EQ(error_of(R"({"constraints": []})"), "<no error>");
}

struct BadInput {
  const char* text;
  const char* message;
};

// One line per kind of bad input: the text and the exact message.
const BadInput k_bad_inputs[] = {
    // Syntax: line and column of the offending byte.
    {"{\n  \"settings\": {\n    \"dt\": ,\n  }\n}",
     "x.json: line 3, column 11: syntax error: while parsing value - unexpected ','; expected "
     "'[', '{', or a literal"},
    {"",
     "x.json: line 1, column 1: syntax error: while parsing value - unexpected end of input; "
     "expected '[', '{', or a literal"},
    {"[1, 2]", "x.json: expected an object, got [1,2]"},
    // Unknown keys, everywhere.
    {R"({"setings": {}})", "x.json: setings: unknown key"},
    {R"({"settings": {"velocity_step": 4}})", "x.json: settings.velocity_step: unknown key"},
    {R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}},
                    {"name": "b", "shape": {"type": "sphere", "radius": 1}},
                    {"name": "c", "shape": {"type": "sphere", "radius": 1}, "frcition": 1}]})",
     "x.json: bodies[2].frcition: unknown key"},
    {R"({"shapes": {"s": {"type": "sphere", "radius": 1, "half_extent": [1, 1, 1]}}})",
     "x.json: shapes.s.half_extent: unknown key"},
    {R"({"bodies": [{"name": "a", "shape": {"type": "compound", "children": [
         {"shape": {"type": "sphere", "radius": 1}, "offset": [0, 0, 0]}]}}]})",
     "x.json: bodies[0].shape.children[0].offset: unknown key"},
    // Duplicate keys would otherwise silently keep the last value.
    {R"({"settings": {"dt": 0.1, "dt": 0.2}})", "x.json: settings.dt: duplicate key"},
    // Wrong types.
    {R"({"settings": {"velocity_steps": "ten"}})",
     "x.json: settings.velocity_steps: expected an integer, got \"ten\""},
    {R"({"settings": {"velocity_steps": 2.5}})",
     "x.json: settings.velocity_steps: expected an integer, got 2.5"},
    {R"({"settings": {"warm_start": 1}})",
     "x.json: settings.warm_start: expected true or false, got 1"},
    {R"({"settings": {"gravity": [0, -9.81]}})",
     "x.json: settings.gravity: expected an array of 3 numbers [x, y, z], got [0,-9.81]"},
    {R"({"settings": {"gravity": [0, "down", 0]}})",
     "x.json: settings.gravity[1]: expected a number, got \"down\""},
    {R"({"settings": []})", "x.json: settings: expected an object, got []"},
    {R"({"bodies": {}})", "x.json: bodies: expected an array, got {}"},
    {R"({"bodies": [{"name": 5, "shape": "x"}]})",
     "x.json: bodies[0].name: expected a string, got 5"},
    {R"({"bodies": [{"name": "a", "shape": 5}]})",
     "x.json: bodies[0].shape: expected a shape name or a shape object, got 5"},
    // Non-finite numbers: beyond double range (1e999) and beyond float range (1e300).
    {R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}, "mass": 1e999}]})",
     "x.json: bodies[0].mass: must be a finite float, got 1e999"},
    {R"({"settings": {"gravity": [0, 1e999, 0]}})",
     "x.json: settings.gravity[1]: must be a finite float, got 1e999"},
    {R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}, "friction": 1e300}]})",
     "x.json: bodies[0].friction: must be a finite float, got 1e+300"},
    // Ranges.
    {R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}, "mass": -1}]})",
     "x.json: bodies[0].mass: must be > 0, got -1"},
    {R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}, "restitution": 1.5}]})",
     "x.json: bodies[0].restitution: must be in [0, 1], got 1.5"},
    {R"({"settings": {"velocity_steps": 0}})",
     "x.json: settings.velocity_steps: must be >= 1, got 0"},
    {R"({"settings": {"baumgarte": -0.1}})",
     "x.json: settings.baumgarte: must be in [0, 1], got -0.1"},
    {R"({"settings": {"dt": 0}})", "x.json: settings.dt: must be > 0, got 0"},
    {R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}, "object_layer": 70000}]})",
     "x.json: bodies[0].object_layer: must be in [0, 65535], got 70000"},
    // Degenerate shapes.
    {R"({"shapes": {"crate": {"type": "box", "half_extent": [1, 0, 1]}}})",
     "x.json: shapes.crate.half_extent[1]: must be > 0, got 0"},
    {R"({"shapes": {"crate": {"type": "box", "half_extent": [0.5, 0.5, 0.5], "convex_radius": 0.6}}})",
     "x.json: shapes.crate.convex_radius: must be <= the smallest half extent (0.5), got 0.6"},
    {R"({"shapes": {"ball": {"type": "sphere", "radius": -2}}})",
     "x.json: shapes.ball.radius: must be > 0, got -2"},
    {R"({"shapes": {"ball": {"type": "sphere"}}})",
     "x.json: shapes.ball.radius: required key missing"},
    {R"({"shapes": {"hull": {"type": "convex_hull", "points": [[0,0,0], [1,0,0]]}}})",
     "x.json: shapes.hull.points: a convex hull needs at least 3 points, got 2"},
    {R"({"shapes": {"m": {"type": "mesh", "triangles": [[0, 1, 3]], "vertices": [[0,0,0], [1,0,0], [0,0,1]]}}})",
     "x.json: shapes.m.triangles[0][2]: must be < 3 (the number of vertices), got 3"},
    {R"({"shapes": {"h": {"type": "heightfield", "sample_count": 3, "heights": [0, 0, 0, 0]}}})",
     "x.json: shapes.h.heights: expected 9 heights (sample_count squared), got 4"},
    {R"({"shapes": {"s": {"type": "scaled", "shape": {"type": "sphere", "radius": 1}, "scale": [1, 0, 1]}}})",
     "x.json: shapes.s.scale[1]: must not be 0"},
    {R"({"shapes": {"c": {"type": "compound", "children": []}}})",
     "x.json: shapes.c.children: a compound needs at least one child"},
    // Rotations.
    {R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}, "rotation": [0, 0, 0, 2]}]})",
     "x.json: bodies[0].rotation: must be a unit quaternion [x, y, z, w], its length is 2"},
    {R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}, "rotation": [0, 0, 1]}]})",
     "x.json: bodies[0].rotation: expected a quaternion [x, y, z, w], got [0,0,1]"},
    // Names and references.
    {R"({"shapes": {"crate": {"type": "box", "half_extent": [1, 1, 1]}},
         "bodies": [{"name": "a", "shape": "crate"}, {"name": "b", "shape": "crate"},
                    {"name": "c", "shape": "crate"}, {"name": "d", "shape": "crat"}]})",
     "x.json: bodies[3].shape: unknown shape \"crat\""},
    {R"({"shapes": {"a": {"type": "scaled", "shape": "b", "scale": [1, 1, 1]},
                    "b": {"type": "sphere", "radius": 1}}})",
     "x.json: shapes.a.shape: unknown shape \"b\""},
    {R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}},
                    {"name": "a", "shape": {"type": "sphere", "radius": 1}}]})",
     "x.json: bodies[1].name: duplicate body name \"a\""},
    {R"({"bodies": [{"name": "", "shape": {"type": "sphere", "radius": 1}}]})",
     "x.json: bodies[0].name: must not be empty"},
    {R"({"bodies": [{"shape": {"type": "sphere", "radius": 1}}]})",
     "x.json: bodies[0].name: required key missing"},
    {R"({"bodies": [{"name": "a"}]})", "x.json: bodies[0].shape: required key missing"},
    // Unknown types and enumerations.
    {R"({"shapes": {"s": {"type": "boxx"}}})",
     "x.json: shapes.s.type: unknown shape type \"boxx\" (expected box, sphere, capsule, "
     "cylinder, convex_hull, mesh, heightfield, compound, rotated_translated, scaled or "
     "offset_center_of_mass)"},
    {R"({"generators": [{"type": "stak"}]})",
     "x.json: generators[0].type: unknown generator type \"stak\" (expected stack, pyramid, grid, "
     "pile, jolt_pyramid, chain, ragdoll, swarm or wave_mesh)"},
    {R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}, "motion": "dynamc"}]})",
     "x.json: bodies[0].motion: unknown motion \"dynamc\" (expected static, kinematic or dynamic)"},
    {R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}, "allowed_dofs": ["tx", "tq"]}]})",
     "x.json: bodies[0].allowed_dofs[1]: unknown degree of freedom \"tq\" (expected tx, ty, tz, "
     "rx, ry or rz)"},
    {R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}, "allowed_dofs": []}]})",
     "x.json: bodies[0].allowed_dofs: must allow at least one degree of freedom"},
    // Checks between fields.
    {R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}, "mass": 1, "motion": "static"}]})",
     "x.json: bodies[0].mass: a static body has no mass"},
    {R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}, "motion": "static",
                     "linear_velocity": [1, 0, 0]}]})",
     "x.json: bodies[0].linear_velocity: a static body cannot move"},
    // Events.
    {R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}}],
         "events": [{"step": 1, "action": "add_force", "body": "b", "force": [1, 0, 0]}]})",
     "x.json: events[0].body: unknown body \"b\""},
    {R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}}],
         "events": [{"step": 1, "action": "add_forse", "body": "a"}]})",
     "x.json: events[0].action: unknown action \"add_forse\" (expected add_force, add_impulse, "
     "add_torque, add_angular_impulse, set_linear_velocity, set_angular_velocity, "
     "set_motion_quality, set_motion_type, activate, deactivate, remove, move_kinematic, "
     "set_motor, enable..."},
    {R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}}],
         "events": [{"step": 1, "action": "add_impulse", "body": "a", "force": [1, 0, 0]}]})",
     "x.json: events[0].force: unknown key for action add_impulse"},
    {R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}}],
         "events": [{"step": 1, "action": "add_torque", "body": "a"}]})",
     "x.json: events[0].torque: required key missing"},
    {R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}}],
         "events": [{"step": -1, "action": "remove", "body": "a"}]})",
     "x.json: events[0].step: must be >= 0, got -1"},
    // Probes.
    {R"({"probes": [{"name": "p", "type": "plane_crossing", "axis": "w", "value": 0}]})",
     "x.json: probes[0].axis: unknown axis \"w\" (expected x, y or z)"},
    {R"({"probes": [{"name": "p", "type": "plane_crossing", "axis": "x", "value": 0,
                     "bodies": ["ghost"]}]})",
     "x.json: probes[0].bodies[0]: unknown body \"ghost\""},
    {R"({"probes": [{"name": "p", "type": "plane", "axis": "x", "value": 0}]})",
     "x.json: probes[0].type: unknown probe type \"plane\" (expected plane_crossing)"},
    // Limits (issue 7 items 18-19). Gravity -1e30 used to end as bodies at rest in mid-air;
    // a document nested 100 000 deep crashed; a 10 MB unknown key gave a 10 MB line.
    {R"({"settings": {"gravity": [0, -1e30, 0]}})",
     "x.json: settings.gravity: each component must be within ±100000 m/s², got (0, -1e+30, "
     "0)"},
    {R"({"bodies": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]})",
     "x.json: ...][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]"
     "[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]: "
     "nested deeper than 64 arrays and objects"},
    {R"({"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz": 1})",
     "x.json: abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghi...: unknown key"},
    // Constraint types the scene format does not support yet (tests/scene/
    // SceneConstraintTest.cpp has every constraint error).
    {R"({"constraints": [{"type": "cone", "body1": "a", "body2": "b"}]})",
     "x.json: constraints[0].body1: unknown body \"a\""},
};

TEST(SceneReader, BadInputGivesExactlyTheExpectedOneLineMessage) {
  for (const BadInput& bad : k_bad_inputs) {
    const std::string message = error_of(bad.text);
    EXPECT_EQ(message, bad.message) << "input: " << bad.text;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(SceneReader, SyntaxErrorPositionMatchesNlohmanns) {
  // The column is computed from the byte offset; nlohmann's own message must agree.
  const char* text = "{\n  \"settings\": {\n    \"dt\": ,\n  }\n}";
  try {
    const nlohmann::json parsed = nlohmann::json::parse(text);
    FAIL() << "parse should throw, got " << parsed.dump();
  } catch (const nlohmann::json::parse_error& e) {
    EXPECT_NE(std::string(e.what()).find("line 3, column 11"), std::string::npos) << e.what();
  }
}

TEST(SceneReader, ReadsFilesAndNamesThemInErrors) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::filesystem::path good = dir / "atoll_scene_reader_good.json";
  const std::filesystem::path bad = dir / "atoll_scene_reader_bad.json";
  std::ofstream(good) << R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}}]})";
  std::ofstream(bad) << R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 0}}]})";
  const Result<SceneDescription> ok = read_scene_file(good);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->bodies.size(), 1u);
  const Result<SceneDescription> failed = read_scene_file(bad);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().message(),
            bad.string() + ": bodies[0].shape.radius: must be > 0, got 0");
  const Result<SceneDescription> missing = read_scene_file(dir / "atoll_no_such_scene.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message(), (dir / "atoll_no_such_scene.json").string() +
                                           ": cannot open: No such file or directory");
  std::filesystem::remove(good);
  std::filesystem::remove(bad);
}

}  // namespace
}  // namespace scene_reader_test
}  // namespace atl
