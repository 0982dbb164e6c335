// Constraints in scene files (issue 8 §3): every key of every supported type reads, writes and
// reads back to an equal description; shortcuts, derived normals and nested defaults; --set;
// and the exact one-line message of every kind of bad constraint input.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "atoll/scene/ConstraintFields.h"
#include "atoll/scene/SceneParser.h"
#include "atoll/scene/SceneReader.h"
#include "atoll/scene/SceneWriter.h"

namespace atl {

// What the types still to come need from the tables, on a test-only settings type: gear's and
// rack_and_pinion's constraint1/constraint2 (earlier constraints by name) and six_dof's
// per-axis numbers and motor objects (6-arrays).
namespace coupling_test {
struct Coupling {
  std::string constraint1, constraint2;
  std::array<float, 6> limit_min{-1, -1, -1, -1, -1, -1};
  std::array<SceneMotor, 6> motor_settings;
};
}  // namespace coupling_test

namespace fields {
template <>
std::span<const Field<coupling_test::Coupling>> FieldTable<coupling_test::Coupling>::fields() {
  using C = coupling_test::Coupling;
  static const Field<C> k[] = {
      field<ConstraintReference, &C::constraint1>("constraint1", "", Presence::Required),
      field<ConstraintReference, &C::constraint2>("constraint2", "", Presence::Required),
      field<Array<Real, 6>, &C::limit_min>("limit_min", "m or rad"),
      field<Array<Object<SceneMotor>, 6>, &C::motor_settings>("motor_settings"),
  };
  return k;
}
}  // namespace fields

namespace scene_constraint_test {
namespace {

constexpr const char* k_bodies = R"(
  "bodies": [
    {"name": "a", "shape": {"type": "box", "half_extent": [0.5, 0.5, 0.5]}, "position": [0, 2, 0]},
    {"name": "b", "shape": {"type": "sphere", "radius": 0.25}, "position": [1, 2, 0]},
    {"name": "c", "shape": {"type": "sphere", "radius": 0.25}, "position": [2, 2, 0]}
  ])";

std::string scene_with(const std::string& constraints, const std::string& events = "") {
  std::string text = "{";
  text += k_bodies;
  text += R"(, "constraints": [)";
  text += constraints;
  text += "]";
  if (!events.empty()) {
    text += R"(, "events": [)";
    text += events;
    text += "]";
  }
  text += "}";
  return text;
}

std::string error_of(const std::string& text) {
  const Result<SceneDescription> scene = read_scene_text(text, "x.json");
  return scene.ok() ? "<no error>" : scene.error().message();
}

SceneDescription read_ok(const std::string& text) {
  Result<SceneDescription> scene = read_scene_text(text, "x.json");
  EXPECT_TRUE(scene.ok()) << (scene.ok() ? "" : scene.error().message());
  return scene.ok() ? std::move(scene).value() : SceneDescription();
}

// Every key of every supported type, none at its default.
const char* const k_every_key[] = {
    R"({"name": "weld", "type": "fixed", "body1": "a", "body2": "b", "enabled": false,
        "priority": 3, "velocity_steps": 12, "position_steps": 4, "break_impulse": 50,
        "break_angular_impulse": 20, "space": "local", "point1": [0.5, 0, 0],
        "point2": [-0.25, 0, 0], "relative_rotation": [0, 0.6, 0, 0.8]})",
    R"({"name": "ball", "type": "point", "body1": "world", "body2": "b", "priority": 1,
        "break_impulse": 5, "space": "world", "point1": [1, 3, 0], "point2": [1, 2.5, 0]})",
    R"({"name": "rope", "type": "distance", "body1": "b", "body2": "c", "point1": [1, 2, 0],
        "point2": [2, 2, 0], "min_distance": 0.5, "max_distance": 1.5,
        "limits_spring_settings": {"mode": "stiffness_and_damping", "stiffness": 100,
                                   "damping": 3}})",
    R"({"name": "door", "type": "hinge", "body1": "world", "body2": "a", "point1": [0, 2, 0],
        "point2": [0, 2, 0.1], "hinge_axis1": [0, 0, 1], "hinge_axis2": [0, 0, 2],
        "normal_axis1": [0, 1, 0], "normal_axis2": [0, -1, 0], "limits_min": -1,
        "limits_max": 2, "limits_spring_settings": {"frequency": 4, "damping": 0.5},
        "max_friction_torque": 2, "break_angular_impulse": 7,
        "motor_settings": {"state": "position", "target_velocity": 0.5, "target_position": 0.3,
                           "spring": {"mode": "mass_normalized_stiffness_and_damping",
                                      "stiffness": 30, "damping": 2},
                           "min_force_limit": -10, "max_force_limit": 10,
                           "min_torque_limit": -5, "max_torque_limit": 6}})",
    R"({"name": "rail", "type": "slider", "body1": "a", "body2": "c", "space": "local",
        "point1": [0, 0, 0], "point2": [0.1, 0, 0], "slider_axis1": [0, 1, 0],
        "relative_rotation": [0, 0, 0.6, 0.8], "limits_min": -0.5, "limits_max": 0.75,
        "limits_spring_settings": {"frequency": 2}, "max_friction_force": 4,
        "motor_settings": {"state": "velocity", "target_velocity": -1,
                           "max_force_limit": 100}})",
};

std::string all_types() {
  std::string list;
  for (const char* c : k_every_key) {
    if (!list.empty()) list += ',';
    list += c;
  }
  return list;
}

TEST(SceneConstraints, EveryKeyOfEveryTypeRoundTrips) {
  const SceneDescription scene = read_ok(scene_with(all_types()));
  ASSERT_EQ(scene.constraints.size(), 5u);
  const std::string text = write_scene_json(scene);
  const SceneDescription again = read_ok(text);
  EXPECT_EQ(again, scene);
  EXPECT_EQ(write_scene_json(again), text);
  // Every key given is written back (none is at its default).
  for (const char* key :
       {"\"enabled\"", "\"priority\"", "\"velocity_steps\"", "\"position_steps\"",
        "\"break_impulse\"", "\"break_angular_impulse\"", "\"space\"", "\"relative_rotation\"",
        "\"min_distance\"", "\"max_distance\"", "\"stiffness\"", "\"normal_axis2\"",
        "\"limits_min\"", "\"max_friction_torque\"", "\"target_position\"", "\"min_torque_limit\"",
        "\"slider_axis1\"", "\"max_friction_force\"", "\"mass_normalized_stiffness_and_damping\""})
    EXPECT_NE(text.find(key), std::string::npos) << key;
  // A changed value makes the scenes differ, key by key of the nested motor too.
  for (const char* set :
       {"constraints.door.motor_settings.spring.damping=2.5", "constraints.rail.limits_max=1",
        "constraints.weld.priority=4", "constraints.rope.body1=a",
        "constraints.ball.motor_settings.state=off"}) {
    SceneDescription changed = scene;
    const Status ok = apply_override(changed, set);
    if (std::string(set).find("ball") != std::string::npos) {
      // A point constraint has no motor.
      ASSERT_FALSE(ok.ok());
      EXPECT_EQ(std::string(ok.error().message()),
                "--set: constraints.ball.motor_settings.state: unknown key");
      continue;
    }
    ASSERT_TRUE(ok.ok()) << set << ": " << ok.error().message();
    EXPECT_NE(changed, scene) << set;
  }
}

TEST(SceneConstraints, ShortcutsDerivedNormalsAndNestedDefaults) {
  const SceneDescription scene = read_ok(scene_with(
      R"({"name": "h", "type": "hinge", "body1": "world", "body2": "a", "point": [0, 2, 0],
          "hinge_axis": [1, 0, 0], "motor_settings": {"spring": {"damping": 0.3}},
          "limits_spring_settings": {"damping": 0.3}},
         {"name": "s", "type": "slider", "body1": "a", "body2": "b", "slider_axis": [0, 0, 3]})"));
  const std::string text = write_scene_json(scene);
  // point → point1 and point2, hinge_axis → both axes; the normal axes derived ⟂ the hinge
  // axis (+y, as +x is the axis), written out so that the file reads back the same.
  for (const char* key : {R"("point1": [0, 2, 0],)", R"("point2": [0, 2, 0],)",
                          R"("hinge_axis1": [1, 0, 0],)", R"("hinge_axis2": [1, 0, 0],)",
                          R"("normal_axis1": [0, 1, 0],)", R"("normal_axis2": [0, 1, 0],)"})
    EXPECT_NE(text.find(key), std::string::npos) << key << "\n" << text;
  EXPECT_NE(text.find(R"("slider_axis1": [0, 0, 3])"), std::string::npos);
  // A partial spring inside a motor keeps the motor's 2 Hz (only damping differs); elsewhere
  // the rest is hard (frequency 0, not written).
  EXPECT_NE(text.find(R"("motor_settings": {"spring": {"damping": 0.3}})"), std::string::npos);
  EXPECT_NE(text.find(R"("limits_spring_settings": {"damping": 0.3})"), std::string::npos);
  EXPECT_EQ(read_ok(text), scene);
  // Given normals are kept as they are.
  const SceneDescription given = read_ok(scene_with(
      R"({"name": "h", "type": "hinge", "body1": "world", "body2": "a", "hinge_axis": [1, 0, 0],
          "normal_axis": [0, 0, 1]})"));
  EXPECT_NE(write_scene_json(given).find(R"("normal_axis1": [0, 0, 1],)"), std::string::npos);
  EXPECT_NE(write_scene_json(given).find(R"("normal_axis2": [0, 0, 1])"), std::string::npos);
  // A default hinge (axis +y) keeps the default normal +x: nothing written.
  const SceneDescription plain =
      read_ok(scene_with(R"({"name": "h", "type": "hinge", "body1": "world", "body2": "a"})"));
  EXPECT_EQ(write_scene_json(plain).find("normal_axis"), std::string::npos);
}

TEST(SceneConstraints, ConstraintEventsRoundTrip) {
  const SceneDescription scene = read_ok(scene_with(
      R"({"name": "door", "type": "hinge", "body1": "world", "body2": "a"},
         {"name": "ball", "type": "point", "body1": "a", "body2": "b"})",
      R"({"step": 3, "action": "set_motor", "constraint": "door", "state": "velocity",
          "target_velocity": 2},
         {"step": 4, "action": "set_motor", "constraint": "door", "target_position": -0.5},
         {"step": 5, "action": "disable_constraint", "constraint": "ball"},
         {"step": 6, "action": "enable_constraint", "constraint": "ball"},
         {"step": 7, "action": "add_force", "body": "b", "force": [1, 0, 0], "steps": 10},
         {"step": 8, "action": "add_torque", "body": "b", "torque": [0, 1, 0], "steps": 2})"));
  ASSERT_EQ(scene.events.size(), 6u);
  EXPECT_EQ(scene.events[0].action, SceneAction::SetMotor);
  EXPECT_EQ(scene.events[0].motor_state, MotorState::Velocity);
  EXPECT_EQ(scene.events[0].target_velocity, 2.0f);
  EXPECT_FALSE(scene.events[0].target_position.has_value());
  EXPECT_EQ(scene.events[1].target_position, -0.5f);
  EXPECT_EQ(scene.events[2].action, SceneAction::DisableConstraint);
  EXPECT_EQ(scene.events[3].constraint, "ball");
  EXPECT_EQ(scene.events[4].steps, 10);
  EXPECT_EQ(scene.events[5].steps, 2);
  EXPECT_EQ(read_ok(write_scene_json(scene)), scene);
}

TEST(SceneConstraints, SetChangesOneKeyAndLeavesTheSceneUnchangedOnError) {
  SceneDescription scene = read_ok(scene_with(
      R"({"name": "my.door", "type": "hinge", "body1": "world", "body2": "a"},
         {"name": "my", "type": "point", "body1": "a", "body2": "b"})"));
  const SceneDescription before = scene;
  // The longest matching name wins ("my.door", not "my" with key "door.limits_max").
  ASSERT_TRUE(apply_override(scene, "constraints.my.door.limits_max=1").ok());
  ASSERT_TRUE(apply_override(scene, "constraints.my.door.motor_settings.state=velocity").ok());
  ASSERT_TRUE(apply_override(scene, "constraints.my.enabled=false").ok());
  EXPECT_NE(write_scene_json(scene).find(R"("motor_settings": {"state": "velocity"})"),
            std::string::npos);
  EXPECT_NE(write_scene_json(scene).find(R"("limits_max": 1)"), std::string::npos);
  EXPECT_NE(write_scene_json(scene).find(R"("enabled": false)"), std::string::npos);
  scene = before;
  const std::pair<const char*, const char*> k_bad[] = {
      {"constraints.nope.enabled=false",
       "--set: constraints.nope.enabled: unknown constraint "
       "\"nope\""},
      {"constraints.my", "--set: \"constraints.my\": expected KEY=VALUE"},
      {"constraints.my=1", "--set: constraints.my: expected constraints.NAME.FIELD"},
      {"constraints.my.frobnicate=1", "--set: constraints.my.frobnicate: unknown key"},
      {"constraints.my.name=x",
       "--set: constraints.my.name: a constraint's name cannot be "
       "changed"},
      {"constraints.my.type=hinge",
       "--set: constraints.my.type: a constraint's type cannot be "
       "changed"},
      {"constraints.my.body2=a", "--set: constraints.my.body2: the same body as body1 (\"a\")"},
      {"constraints.my.break_angular_impulse=1",
       "--set: constraints.my.break_angular_impulse: a point constraint has no angular part to "
       "break"},
      {"constraints.my.door.hinge_axis1=[0,0,0]",
       "--set: constraints.my.door.hinge_axis1: must not be zero"},
      {"constraints.my.door.hinge_axis1=[1,0,0]",
       "--set: constraints.my.door.normal_axis1: must be perpendicular to hinge_axis1"},
      {R"(constraints.my.door.motor_settings={"min_torque_limit": 5, "max_torque_limit": 4})",
       "--set: constraints.my.door.motor_settings.min_torque_limit: must be <= "
       "max_torque_limit (4), got 5"},
  };
  for (const auto& [set, message] : k_bad) {
    const Status status = apply_override(scene, set);
    ASSERT_FALSE(status.ok()) << set << write_scene_json(scene);
    EXPECT_EQ(std::string(status.error().message()), message);
    EXPECT_EQ(scene, before) << set;
  }
}

struct BadConstraint {
  std::string constraints;
  std::string events;
  std::string message;
};

TEST(SceneConstraints, BadInputGivesExactlyTheExpectedOneLineMessage) {
  const std::string door = R"({"name": "door", "type": "hinge", "body1": "world", "body2": "a"})";
  const std::string ball = R"({"name": "ball", "type": "point", "body1": "a", "body2": "b"})";
  const auto hinge = [](const std::string& keys) {
    return R"({"name": "h", "type": "hinge", "body1": "world", "body2": "a", )" + keys + "}";
  };
  const BadConstraint k_bad[] = {
      {R"({"name": "h", "body1": "a", "body2": "b"})", "",
       "constraints[0].type: required key missing"},
      {R"({"name": "h", "type": "wheel", "body1": "a", "body2": "b"})", "",
       "constraints[0].type: unknown constraint type \"wheel\" (expected fixed, point, distance, "
       "hinge, slider, cone, swing_twist, six_dof, path, pulley, gear or rack_and_pinion)"},
      {R"({"type": "point", "body1": "a", "body2": "b"})", "",
       "constraints[0].name: required key missing"},
      {R"({"name": "p", "type": "point", "body2": "b"})", "",
       "constraints[0].body1: required key missing"},
      {R"({"name": "p", "type": "point", "body1": "b"})", "",
       "constraints[0].body2: required key missing"},
      {R"({"name": "", "type": "point", "body1": "a", "body2": "b"})", "",
       "constraints[0].name: must not be empty"},
      {ball + "," + ball, "", "constraints[1].name: duplicate constraint name \"ball\""},
      {R"({"name": "p", "type": "point", "body1": "a", "body2": "z"})", "",
       "constraints[0].body2: unknown body \"z\""},
      {R"({"name": "p", "type": "point", "body1": "a", "body2": "a"})", "",
       "constraints[0].body2: the same body as body1 (\"a\")"},
      {R"({"name": "p", "type": "point", "body1": "world", "body2": "world"})", "",
       "constraints[0].body2: body1 and body2 are both the world"},
      {R"({"name": "p", "type": "point", "body1": "a", "body2": "b", "hinge_axis": [0, 1, 0]})", "",
       "constraints[0].hinge_axis: unknown key for a point constraint"},
      {R"({"name": "p", "type": "point", "body1": "a", "body2": "b", "break_angular_impulse": 1})",
       "", "constraints[0].break_angular_impulse: a point constraint has no angular part to break"},
      {R"({"name": "p", "type": "point", "body1": "a", "body2": "b", "break_impulse": -1})", "",
       "constraints[0].break_impulse: must be >= 0, got -1"},
      {R"({"name": "p", "type": "point", "body1": "a", "body2": "b", "space": "body"})", "",
       "constraints[0].space: unknown space \"body\" (expected world or local)"},
      {R"({"name": "p", "type": "point", "body1": "a", "body2": "b", "priority": -1})", "",
       "constraints[0].priority: must be >= 0, got -1"},
      {R"({"name": "p", "type": "point", "body1": "a", "body2": "b", "enabled": 1})", "",
       "constraints[0].enabled: expected true or false, got 1"},
      {ball + "," + door + "," + hinge(R"("hinge_axis1": [0, 0, 0])"), "",
       "constraints[2].hinge_axis1: must not be zero"},
      {hinge(R"("normal_axis": [0, 1, 0])"), "",
       "constraints[0].normal_axis1: must be perpendicular to hinge_axis1"},
      {hinge(R"("limits_min": 0.5)"), "", "constraints[0].limits_min: must be in [-π, 0], got 0.5"},
      {hinge(R"("limits_max": 4)"), "", "constraints[0].limits_max: must be in [0, π], got 4"},
      {hinge(R"("max_friction_torque": -2)"), "",
       "constraints[0].max_friction_torque: must be >= 0, got -2"},
      {hinge(R"("motor_settings": {"state": "fast"})"), "",
       "constraints[0].motor_settings.state: unknown motor state \"fast\" (expected off, "
       "velocity, position or position_and_velocity)"},
      {hinge(R"("motor_settings": {"torque": 1})"), "",
       "constraints[0].motor_settings.torque: unknown key"},
      {hinge(R"("motor_settings": {"min_force_limit": 2, "max_force_limit": 1})"), "",
       "constraints[0].motor_settings.min_force_limit: must be <= max_force_limit (1), got 2"},
      {hinge(R"("motor_settings": {"spring": {"stiffness": 3}})"), "",
       "constraints[0].motor_settings.spring.stiffness: only for the stiffness modes (mode is "
       "frequency_and_damping)"},
      {hinge(R"("limits_spring_settings": {"mode": "stiffness_and_damping", "frequency": 3})"), "",
       "constraints[0].limits_spring_settings.frequency: only for mode frequency_and_damping "
       "(mode is stiffness_and_damping)"},
      {hinge(R"("limits_spring_settings": {"mode": "soft"})"), "",
       "constraints[0].limits_spring_settings.mode: unknown spring mode \"soft\" (expected "
       "frequency_and_damping, stiffness_and_damping or mass_normalized_stiffness_and_damping)"},
      {hinge(R"("limits_spring_settings": {"damping": -1})"), "",
       "constraints[0].limits_spring_settings.damping: must be >= 0, got -1"},
      {R"({"name": "s", "type": "slider", "body1": "a", "body2": "b", "limits_min": 1})", "",
       "constraints[0].limits_min: must be ≤ 0, got 1"},
      {R"({"name": "s", "type": "slider", "body1": "a", "body2": "b", "slider_axis": [0, 0, 0]})",
       "", "constraints[0].slider_axis: must not be zero"},
      {R"({"name": "d", "type": "distance", "body1": "a", "body2": "b", "min_distance": -2})", "",
       "constraints[0].min_distance: must be >= 0, or -1 for the distance at creation, got -2"},
      {R"({"name": "d", "type": "distance", "body1": "a", "body2": "b", "min_distance": 2,
           "max_distance": 1})",
       "", "constraints[0].max_distance: must be >= min_distance (2), got 1"},
      {R"({"name": "f", "type": "fixed", "body1": "a", "body2": "b", "relative_rotation": [0, 0, 0, 2]})",
       "",
       "constraints[0].relative_rotation: must be a unit quaternion [x, y, z, w], its length is 2"},
      // Events on constraints.
      {door, R"({"step": 1, "action": "set_motor", "constraint": "nope", "state": "off"})",
       "events[0].constraint: unknown constraint \"nope\" (a constraint may name only those "
       "before it)"},
      {ball, R"({"step": 1, "action": "set_motor", "constraint": "ball", "state": "off"})",
       "events[0].constraint: \"ball\" is a point constraint, which has no motor"},
      {door, R"({"step": 1, "action": "set_motor", "constraint": "door"})",
       "events[0]: set_motor needs state, target_velocity, target_position, target_orientation or "
       "target_angular_velocity"},
      {door, R"({"step": 1, "action": "set_motor", "constraint": "door", "state": "on"})",
       "events[0].state: unknown motor state \"on\" (expected off, velocity, position or "
       "position_and_velocity)"},
      {door, R"({"step": 1, "action": "enable_constraint", "body": "a"})",
       "events[0].body: unknown key for action enable_constraint"},
      {door, R"({"step": 1, "action": "disable_constraint"})",
       "events[0].constraint: required key missing"},
      {door, R"({"step": 1, "action": "add_force", "body": "a", "force": [1, 0, 0], "steps": 0})",
       "events[0].steps: must be >= 1, got 0"},
      {door,
       R"({"step": 1, "action": "add_impulse", "body": "a", "impulse": [1, 0, 0], "steps": 2})",
       "events[0].steps: unknown key for action add_impulse"},
  };
  for (const BadConstraint& bad : k_bad) {
    const std::string message = error_of(scene_with(bad.constraints, bad.events));
    EXPECT_EQ(message, "x.json: " + bad.message) << bad.constraints << " " << bad.events;
  }
}

TEST(SceneConstraints, TablesNameEarlierConstraintsAndHoldArraysOfMotors) {
  SceneDescription scene = read_ok(scene_with(
      R"({"name": "door", "type": "hinge", "body1": "world", "body2": "a"},
         {"name": "rail", "type": "slider", "body1": "world", "body2": "b"})"));
  SceneParser parser(scene);
  const auto read = [&](coupling_test::Coupling& c, const std::string& text) -> std::string {
    try {
      fields::read_object(c, scene_json::parse(text), "constraints[2]", parser);
    } catch (const scene_json::PathError& error) {
      return error.path + ": " + error.message;
    }
    return "";
  };
  coupling_test::Coupling c;
  ASSERT_EQ(read(c, R"({"constraint1": "door", "constraint2": "rail",
                        "limit_min": [0, -1, -2, -3, -4, -5],
                        "motor_settings": [{"state": "velocity", "target_velocity": 2}, {}, {},
                                           {}, {}, {"spring": {"frequency": 5}}]})"),
            "");
  EXPECT_EQ(c.constraint1, "door");
  EXPECT_EQ(c.constraint2, "rail");
  EXPECT_EQ(c.limit_min[5], -5.0f);
  EXPECT_EQ(c.motor_settings[0].state, MotorState::Velocity);
  EXPECT_EQ(c.motor_settings[0].target_velocity, 2.0f);
  EXPECT_EQ(c.motor_settings[1].state, MotorState::Off);
  // A partial spring in a motor of the array keeps the motor's damping 1.
  EXPECT_EQ(c.motor_settings[5].settings.spring.frequency, 5.0f);
  EXPECT_EQ(c.motor_settings[5].settings.spring.damping, 1.0f);
  // Written and read back equal; only what differs from the defaults is written.
  const scene_json::Json written = fields::write_object(c);
  EXPECT_EQ(scene_json::compact_text(written["motor_settings"][5]),
            R"({"spring": {"frequency": 5}})");
  coupling_test::Coupling again;
  ASSERT_EQ(read(again, scene_json::compact_text(written)), "");
  EXPECT_TRUE(fields::equal_objects(again, c));
  // A constraint not (yet) defined, a wrong array length, a bad motor in the array.
  coupling_test::Coupling bad;
  EXPECT_EQ(read(bad, R"({"constraint1": "gear", "constraint2": "rail"})"),
            "constraints[2].constraint1: unknown constraint \"gear\" (a constraint may name "
            "only those before it)");
  EXPECT_EQ(read(bad, R"({"constraint1": "door", "constraint2": "rail", "limit_min": [1, 2]})"),
            "constraints[2].limit_min: expected an array of 6 values, got [1,2]");
  EXPECT_EQ(read(bad, R"({"constraint1": "door", "constraint2": "rail",
                          "motor_settings": [{}, {}, {"state": "on"}, {}, {}, {}]})"),
            "constraints[2].motor_settings[2].state: unknown motor state \"on\" (expected off, "
            "velocity, position or position_and_velocity)");
  // Documented as per-axis rows.
  std::vector<FieldDoc> rows;
  fields::describe_object<coupling_test::Coupling>("", rows);
  ASSERT_GE(rows.size(), 5u);
  EXPECT_EQ(rows[2].type, "array of 6 reals, m or rad");
  EXPECT_EQ(rows[4].key, "motor_settings[].state");
}

TEST(SceneConstraints, WorldIsAReservedBodyName) {
  EXPECT_EQ(
      error_of(R"({"bodies": [{"name": "world", "shape": {"type": "sphere", "radius": 1}}]})"),
      "x.json: bodies[0].name: \"world\" is reserved for the fixed world of constraints; "
      "choose another name");
}

}  // namespace
}  // namespace scene_constraint_test
}  // namespace atl
