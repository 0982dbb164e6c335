// The seven constraint types after the first five in scene files (issue 8 §3): cone,
// swing_twist, six_dof, path, pulley, gear and rack_and_pinion — every key reads, writes and
// reads back to an equal description; shortcuts and derived axes; the coupled constraints of
// gear and rack_and_pinion; set_motor events with several motors and orientation targets; and
// the exact one-line message of each kind of bad input.

#include <gtest/gtest.h>

#include <string>

#include "atoll/scene/SceneReader.h"
#include "atoll/scene/SceneWriter.h"

namespace atl {
namespace scene_constraint_types_test {
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
  text += R"(, "constraints": [)" + constraints + "]";
  if (!events.empty()) text += R"(, "events": [)" + events + "]";
  return text + "}";
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

// Every key of every one of the seven types, none at its default.
const char* const k_every_key[] = {
    R"({"name": "cone", "type": "cone", "body1": "a", "body2": "b", "break_impulse": 3,
        "break_angular_impulse": 2, "space": "local", "point1": [0.5, 0, 0],
        "point2": [-0.25, 0, 0], "twist_axis1": [0, 1, 0], "twist_axis2": [0, 0, 1],
        "half_cone_angle": 0.5})",
    R"({"name": "shoulder", "type": "swing_twist", "body1": "world", "body2": "a",
        "position1": [0, 2.5, 0], "position2": [0, 2.5, 0.01], "twist_axis1": [0, -1, 0],
        "twist_axis2": [0, -1, 0], "plane_axis1": [1, 0, 0], "plane_axis2": [0, 0, 1],
        "normal_half_cone_angle": 0.6, "plane_half_cone_angle": 0.4, "twist_min_angle": -0.3,
        "twist_max_angle": 0.2, "max_friction_torque": 1.5,
        "swing_motor_settings": {"state": "position", "target_orientation": [0, 0, 0.6, 0.8],
                                 "spring": {"frequency": 5}, "min_torque_limit": -10,
                                 "max_torque_limit": 10},
        "twist_motor_settings": {"state": "velocity", "target_angular_velocity": [0.5, 0, 0],
                                 "spring": {"damping": 0.5}}})",
    R"({"name": "six", "type": "six_dof", "body1": "a", "body2": "c", "space": "local",
        "position1": [1, 0, 0], "position2": [-1, 0, 0], "axis_x1": [0, 1, 0],
        "axis_y1": [0, 0, 1], "axis_x2": [0, 0, 1], "axis_y2": [1, 0, 0],
        "limit_min": [0, -0.5, -1, 0, -0.3, -0.2], "limit_max": [0, 0.5, 1, 0, 0.3, 0.2],
        "limits_spring_settings": [{}, {"frequency": 3}, {"mode": "stiffness_and_damping",
                                                          "stiffness": 40}],
        "max_friction": [0, 1, 2, 0, 0.5, 0.25], "swing_type": "pyramid",
        "motor_settings": [{}, {"state": "position", "target_position": 0.25,
                                "max_force_limit": 100},
                           {"state": "velocity", "target_velocity": -0.5}, {},
                           {"state": "position", "target_orientation": [0, 0.2, 0, 0.9797959]},
                           {"target_orientation": [0, 0.2, 0, 0.9797959],
                            "target_angular_velocity": [0, 0, 1],
                            "spring": {"frequency": 1}}]})",
    R"({"name": "track", "type": "path", "body1": "world", "body2": "b",
        "path": {"points": [{"position": [0, 2, 0], "tangent": [1, 0, 0], "normal": [0, 1, 0]},
                            {"position": [1, 2, 0], "tangent": [1, 0, 0], "normal": [0, 1, 0]},
                            {"position": [2, 2.5, 0]}],
                 "looping": true},
        "path_position": [0, 0, 0.5], "path_rotation": [0, 0.6, 0, 0.8], "path_fraction": 1,
        "rotation_constraint_type": "constrain_to_path", "max_friction_force": 2,
        "position_motor_settings": {"state": "position", "target_position": 1.5,
                                    "target_velocity": 0.25, "max_force_limit": 50}})",
    R"({"name": "lift", "type": "pulley", "body1": "b", "body2": "c", "space": "local",
        "body_point1": [0, 0.25, 0], "fixed_point1": [1, 4, 0], "body_point2": [0, 0.25, 0],
        "fixed_point2": [2, 4, 0], "ratio": 2, "min_length": 1, "max_length": 6,
        "break_impulse": 9})",
    R"({"name": "h1", "type": "hinge", "body1": "world", "body2": "b", "point": [1, 2, 0],
        "hinge_axis": [0, 0, 1]})",
    R"({"name": "h2", "type": "hinge", "body1": "world", "body2": "c", "point": [2, 2, 0],
        "hinge_axis": [0, 0, 1]})",
    R"({"name": "rail", "type": "slider", "body1": "world", "body2": "c",
        "slider_axis": [1, 0, 0]})",
    R"({"name": "gears", "type": "gear", "body1": "b", "body2": "c", "space": "local",
        "hinge_axis1": [0, 0, 1], "hinge_axis2": [0, 0, -1], "ratio": 2, "constraint1": "h1",
        "constraint2": "h2", "break_angular_impulse": 4})",
    R"({"name": "rack", "type": "rack_and_pinion", "body1": "b", "body2": "c",
        "hinge_axis": [0, 0, 1], "slider_axis": [2, 0, 0], "ratio": 4, "constraint1": "h1",
        "constraint2": "rail", "break_impulse": 5, "break_angular_impulse": 6})",
};

std::string all_types() {
  std::string list;
  for (const char* c : k_every_key) {
    if (!list.empty()) list += ',';
    list += c;
  }
  return list;
}

TEST(SceneConstraintTypes, EveryKeyOfEveryTypeRoundTrips) {
  const SceneDescription scene = read_ok(scene_with(all_types()));
  ASSERT_EQ(scene.constraints.size(), 10u);
  const std::string text = write_scene_json(scene);
  const SceneDescription again = read_ok(text);
  EXPECT_EQ(again, scene);
  EXPECT_EQ(write_scene_json(again), text);
  // Every key given is written back (none is at its default).
  for (const char* key : {"\"half_cone_angle\"",
                          "\"twist_axis2\"",
                          "\"plane_axis2\"",
                          "\"normal_half_cone_angle\"",
                          "\"plane_half_cone_angle\"",
                          "\"twist_min_angle\"",
                          "\"twist_max_angle\"",
                          "\"swing_motor_settings\"",
                          "\"twist_motor_settings\"",
                          "\"target_orientation\"",
                          "\"target_angular_velocity\"",
                          "\"axis_y2\"",
                          "\"limit_min\"",
                          "\"limit_max\"",
                          "\"max_friction\"",
                          "\"swing_type\"",
                          "\"looping\"",
                          "\"path_position\"",
                          "\"path_rotation\"",
                          "\"path_fraction\"",
                          "\"constrain_to_path\"",
                          "\"max_friction_force\"",
                          "\"position_motor_settings\"",
                          "\"fixed_point2\"",
                          "\"body_point2\"",
                          "\"min_length\"",
                          "\"max_length\"",
                          "\"constraint1\"",
                          "\"constraint2\"",
                          "\"slider_axis\"",
                          "\"hinge_axis\""})
    EXPECT_NE(text.find(key), std::string::npos) << key;
  // A changed value makes the scenes differ, key by key, nested ones too.
  for (const char* set :
       {"constraints.cone.half_cone_angle=0.25", "constraints.shoulder.twist_max_angle=0.1",
        "constraints.shoulder.twist_motor_settings.state=off",
        "constraints.six.limit_max=[0, 0.5, 1, 0, 0.3, 0.25]", "constraints.six.swing_type=cone",
        "constraints.track.path_fraction=0.5", "constraints.track.rotation_constraint_type=free",
        "constraints.lift.ratio=1", "constraints.gears.ratio=3", "constraints.gears.constraint2=h1",
        "constraints.rack.ratio=-4"}) {
    SceneDescription changed = scene;
    const Status ok = apply_override(changed, set);
    ASSERT_TRUE(ok.ok()) << set << ": " << ok.error().message();
    EXPECT_NE(changed, scene) << set;
  }
}

TEST(SceneConstraintTypes, ShortcutsDerivedAxesAndDefaults) {
  const SceneDescription scene = read_ok(scene_with(
      R"({"name": "st", "type": "swing_twist", "body1": "world", "body2": "a",
          "position": [0, 2, 0], "twist_axis": [0, 1, 0]},
         {"name": "six", "type": "six_dof", "body1": "a", "body2": "b", "position": [1, 2, 0],
          "axis_x": [0, 0, 1], "axis_y": [0, 1, 0]},
         {"name": "c", "type": "cone", "body1": "a", "body2": "b", "point": [1, 2, 0],
          "twist_axis": [0, 1, 0]},
         {"name": "g", "type": "gear", "body1": "a", "body2": "b", "hinge_axis": [0, 1, 0]})"));
  const std::string text = write_scene_json(scene);
  // The plane axes derived ⟂ the twist axis +y: +x.
  for (const char* key :
       {R"("position1": [0, 2, 0],)", R"("position2": [0, 2, 0],)", R"("twist_axis1": [0, 1, 0],)",
        R"("twist_axis2": [0, 1, 0],)", R"("plane_axis1": [1, 0, 0],)",
        R"("plane_axis2": [1, 0, 0])", R"("axis_x1": [0, 0, 1],)", R"("axis_y2": [0, 1, 0])",
        R"("point1": [1, 2, 0],)", R"("hinge_axis1": [0, 1, 0],)", R"("hinge_axis2": [0, 1, 0])"})
    EXPECT_NE(text.find(key), std::string::npos) << key << "\n" << text;
  EXPECT_EQ(read_ok(text), scene);
  // Nothing but the required keys: nothing else written but the derived axes (always written,
  // as they depend on other keys: a default +y would read back derived from the twist axis).
  const SceneDescription plain = read_ok(scene_with(
      R"({"name": "st", "type": "swing_twist", "body1": "world", "body2": "a"},
         {"name": "six", "type": "six_dof", "body1": "world", "body2": "b"},
         {"name": "p", "type": "pulley", "body1": "a", "body2": "b"})"));
  const std::string plain_text = write_scene_json(plain);
  for (const char* key : {"twist_axis", "axis_x", "limit_min", "motor_settings", "ratio"})
    EXPECT_EQ(plain_text.find(key), std::string::npos) << key;
  for (const char* key : {R"("plane_axis1": [0, 1, 0])", R"("axis_y2": [0, 1, 0])"})
    EXPECT_NE(plain_text.find(key), std::string::npos) << key;
}

TEST(SceneConstraintTypes, SetMotorEventsWithSeveralMotorsRoundTrip) {
  const SceneDescription scene = read_ok(scene_with(
      R"({"name": "st", "type": "swing_twist", "body1": "world", "body2": "a"},
         {"name": "six", "type": "six_dof", "body1": "world", "body2": "b"},
         {"name": "track", "type": "path", "body1": "world", "body2": "b",
          "path": {"points": [{"position": [0, 0, 0]}, {"position": [1, 0, 0]}]}})",
      R"({"step": 1, "action": "set_motor", "constraint": "st", "motor": "swing",
          "state": "position", "target_orientation": [0, 0, 0.6, 0.8]},
         {"step": 2, "action": "set_motor", "constraint": "st",
          "target_angular_velocity": [1, 0, 0]},
         {"step": 3, "action": "set_motor", "constraint": "six", "motor": "translation_y",
          "state": "position", "target_position": 0.5},
         {"step": 4, "action": "set_motor", "constraint": "six", "motor": "rotation_z",
          "state": "velocity", "target_angular_velocity": [0, 0, 2]},
         {"step": 5, "action": "set_motor", "constraint": "track", "target_position": 0.5})"));
  ASSERT_EQ(scene.events.size(), 5u);
  EXPECT_EQ(scene.events[0].motor, "swing");
  EXPECT_EQ(scene.events[0].target_orientation, Quat(0.0f, 0.0f, 0.6f, 0.8f));
  EXPECT_EQ(scene.events[1].target_angular_velocity, Vec3(1.0f, 0.0f, 0.0f));
  EXPECT_EQ(scene.events[2].motor, "translation_y");
  EXPECT_EQ(scene.events[2].target_position, 0.5f);
  EXPECT_EQ(read_ok(write_scene_json(scene)), scene);
}

struct Bad {
  std::string constraints;
  std::string events;
  std::string message;
};

TEST(SceneConstraintTypes, BadInputGivesExactlyTheExpectedOneLineMessage) {
  const auto of = [](const char* type, const std::string& keys) {
    return std::string(R"({"name": "j", "type": ")") + type + R"(", "body1": "a", "body2": "b")" +
           (keys.empty() ? "" : ", " + keys) + "}";
  };
  const std::string h1 =
      R"({"name": "h1", "type": "hinge", "body1": "world", "body2": "a", "hinge_axis": [0, 0, 1]})";
  const std::string s1 = R"({"name": "s1", "type": "slider", "body1": "world", "body2": "b"})";
  const std::string path2 =
      R"("path": {"points": [{"position": [0, 0, 0]}, {"position": [1, 0, 0]}]})";
  const Bad k_bad[] = {
      // cone
      {of("cone", R"("half_cone_angle": 4)"), "",
       "constraints[0].half_cone_angle: must be in [0, π], got 4"},
      {of("cone", R"("twist_axis": [0, 0, 0])"), "", "constraints[0].twist_axis: must not be zero"},
      {of("cone", R"("normal_axis1": [0, 1, 0])"), "",
       "constraints[0].normal_axis1: unknown key for a cone constraint"},
      // swing_twist
      {of("swing_twist", R"("plane_axis": [1, 0, 0])"), "",
       "constraints[0].plane_axis1: must be perpendicular to twist_axis1"},
      {of("swing_twist", R"("twist_min_angle": -4)"), "",
       "constraints[0].twist_min_angle: must be in [-π, π], got -4"},
      {of("swing_twist", R"("twist_min_angle": 0.5, "twist_max_angle": 0.25)"), "",
       "constraints[0].twist_max_angle: must be >= twist_min_angle (0.5), got 0.25"},
      {of("swing_twist", R"("normal_half_cone_angle": -0.1)"), "",
       "constraints[0].normal_half_cone_angle: must be in [0, π], got -0.1"},
      {of("swing_twist", R"("swing_motor_settings": {"target_velocity": 1})"), "",
       "constraints[0].swing_motor_settings.target_velocity: unknown key"},
      {of("swing_twist", R"("twist_motor_settings": {"target_orientation": [0, 0, 0, 2]})"), "",
       "constraints[0].twist_motor_settings.target_orientation: must be a unit quaternion [x, y, "
       "z, w], its length is 2"},
      {of("swing_twist", R"("swing_motor_settings": {"target_orientation": [0, 0, 0.6, 0.8]},
                            "twist_motor_settings": {"target_orientation": [0.6, 0, 0, 0.8]})"),
       "",
       "constraints[0].twist_motor_settings.target_orientation: must equal "
       "constraints[0].swing_motor_settings.target_orientation (the constraint has one such "
       "target) or be left out"},
      {of("swing_twist", R"("twist_motor_settings": {"min_torque_limit": 1,
                                                     "max_torque_limit": 0})"),
       "",
       "constraints[0].twist_motor_settings.min_torque_limit: must be <= max_torque_limit (0), "
       "got 1"},
      // six_dof
      {of("six_dof", R"("limit_min": [0, 0, 0])"), "",
       "constraints[0].limit_min: expected an array of 6 values, got [0,0,0]"},
      {of("six_dof", R"("limit_min": [0, 0, 0, 0, 0, 0.5], "limit_max": [0, 0, 0, 0, 0, 0.25])"),
       "", "constraints[0].limit_max[5]: must be >= limit_min[5] (0.5), got 0.25"},
      {of("six_dof", R"("max_friction": [0, 0, -1, 0, 0, 0])"), "",
       "constraints[0].max_friction[2]: must be >= 0, got -1"},
      {of("six_dof", R"("swing_type": "cube")"), "",
       "constraints[0].swing_type: unknown swing type \"cube\" (expected cone or pyramid)"},
      {of("six_dof", R"("axis_y": [1, 0, 0])"), "",
       "constraints[0].axis_y1: must be perpendicular to axis_x1"},
      {of("six_dof", R"("motor_settings": [{"target_orientation": [0, 0, 0.6, 0.8]}, {}, {}, {},
                                           {}, {}])"),
       "",
       "constraints[0].motor_settings[0].target_orientation: only for the rotation axes "
       "(motor_settings[3..5])"},
      {of("six_dof", R"("motor_settings": [{}, {}, {}, {"target_position": 1}, {}, {}])"), "",
       "constraints[0].motor_settings[3].target_position: only for the translation axes "
       "(motor_settings[0..2])"},
      {of("six_dof", R"("motor_settings": [{}, {}, {}, {"target_angular_velocity": [1, 0, 0]},
                                           {}, {"target_angular_velocity": [0, 1, 0]}])"),
       "",
       "constraints[0].motor_settings[5].target_angular_velocity: must equal "
       "constraints[0].motor_settings[3].target_angular_velocity (the constraint has one such "
       "target) or be left out"},
      {of("six_dof", R"("limits_spring_settings": [{}, {}, {"mode": "x"}])"), "",
       "constraints[0].limits_spring_settings[2].mode: unknown spring mode \"x\" (expected "
       "frequency_and_damping, stiffness_and_damping or mass_normalized_stiffness_and_damping)"},
      // path
      {of("path", ""), "", "constraints[0].path: required key missing"},
      {of("path", R"("path": {"points": [{"position": [0, 0, 0]}]})"), "",
       "constraints[0].path.points: needs at least 2 points, got 1"},
      {of("path", R"("path": {"points": [{"position": [0, 0, 0]}, {"tangent": [1, 0, 0]}]})"), "",
       "constraints[0].path.points[1].position: required key missing"},
      {of("path", R"("path": {"points": [{"position": [0, 0, 0], "normal": [2, 0, 0]},
                                        {"position": [1, 0, 0]}]})"),
       "", "constraints[0].path.points[0].normal: must not be parallel to the tangent"},
      {of("path", path2 + R"(, "path_fraction": 3)"), "",
       "constraints[0].path_fraction: must be <= the path's largest fraction (1), got 3"},
      {of("path", path2 + R"(, "rotation_constraint_type": "locked")"), "",
       "constraints[0].rotation_constraint_type: unknown rotation_constraint_type \"locked\" "
       "(expected free, constrain_around_tangent, constrain_around_normal, "
       "constrain_around_binormal, constrain_to_path or fully_constrained)"},
      {of("path", path2 + R"(, "max_friction_force": -1)"), "",
       "constraints[0].max_friction_force: must be >= 0, got -1"},
      // pulley
      {of("pulley", R"("ratio": 0)"), "", "constraints[0].ratio: must be > 0, got 0"},
      {of("pulley", R"("min_length": -3)"), "",
       "constraints[0].min_length: must be >= 0, or -1 for the length at creation, got -3"},
      {of("pulley", R"("min_length": 3, "max_length": 2)"), "",
       "constraints[0].max_length: must be >= min_length (3), got 2"},
      {of("pulley", R"("break_angular_impulse": 1)"), "",
       "constraints[0].break_angular_impulse: a pulley constraint has no angular part to break"},
      // gear
      {of("gear", R"("break_impulse": 1)"), "",
       "constraints[0].break_impulse: a gear constraint has no linear part to break"},
      {of("gear", R"("ratio": 0)"), "", "constraints[0].ratio: must not be 0"},
      {of("gear", R"("constraint1": "h1", "constraint2": "h1")"), "",
       "constraints[0].constraint1: unknown constraint \"h1\" (a constraint may name only those "
       "before it)"},
      {of("gear", R"("constraint1": "j2", "constraint2": "h1")") + "," + h1, "",
       "constraints[0].constraint1: unknown constraint \"j2\" (a constraint may name only those "
       "before it)"},
      {h1 + "," + of("gear", R"("constraint1": "h1")"), "",
       "constraints[1].constraint2: required key missing (constraint1 and constraint2 are given "
       "together)"},
      {h1 + "," + of("gear", R"("motor_settings": {})"), "",
       "constraints[1].motor_settings: unknown key for a gear constraint"},
      // rack_and_pinion
      {h1 + "," + s1 + "," + of("rack_and_pinion", R"("slider_axis": [0, 0, 0])"), "",
       "constraints[2].slider_axis: must not be zero"},
      {h1 + "," + s1 + "," + of("rack_and_pinion", R"("hinge_axis1": [0, 0, 1])"), "",
       "constraints[2].hinge_axis1: unknown key for a rack_and_pinion constraint"},
      // set_motor events
      {of("swing_twist", ""), R"({"step": 1, "action": "set_motor", "constraint": "j",
                                  "motor": "elbow", "state": "off"})",
       "events[0].motor: unknown swing_twist motor \"elbow\" (expected swing or twist)"},
      {of("swing_twist", ""), R"({"step": 1, "action": "set_motor", "constraint": "j",
                                  "target_velocity": 1})",
       "events[0].target_velocity: a swing_twist motor has target_angular_velocity, not "
       "target_velocity"},
      {of("six_dof", ""), R"({"step": 1, "action": "set_motor", "constraint": "j",
                              "motor": "rotation_w", "state": "off"})",
       "events[0].motor: unknown six_dof motor \"rotation_w\" (expected translation_x, "
       "translation_y, translation_z, rotation_x, rotation_y or rotation_z)"},
      {of("six_dof", ""), R"({"step": 1, "action": "set_motor", "constraint": "j",
                              "motor": "rotation_x", "target_position": 1})",
       "events[0].target_position: needs motor: a translation axis (translation_x, "
       "translation_y or translation_z)"},
      {of("six_dof", ""), R"({"step": 1, "action": "set_motor", "constraint": "j",
                              "target_orientation": [0, 0, 1, 1]})",
       "events[0].target_orientation: must be a unit quaternion [x, y, z, w], its length is "
       "1.4142135"},
      {h1, R"({"step": 1, "action": "set_motor", "constraint": "h1",
              "target_orientation": [0, 0, 0, 1]})",
       "events[0].target_orientation: a hinge constraint's motor has no target_orientation"},
      {h1, R"({"step": 1, "action": "set_motor", "constraint": "h1", "motor": "swing",
              "state": "off"})",
       "events[0].motor: a hinge constraint has one motor (leave out motor)"},
      {h1 + "," + of("gear", ""), R"({"step": 1, "action": "set_motor", "constraint": "j",
                                      "state": "off"})",
       "events[0].constraint: \"j\" is a gear constraint, which has no motor"},
  };
  for (const Bad& bad : k_bad) {
    const std::string message = error_of(scene_with(bad.constraints, bad.events));
    EXPECT_EQ(message, "x.json: " + bad.message) << bad.constraints << " " << bad.events;
  }
}

TEST(SceneConstraintTypes, SetLeavesTheSceneUnchangedOnError) {
  SceneDescription scene = read_ok(scene_with(
      R"({"name": "h1", "type": "hinge", "body1": "world", "body2": "a"},
         {"name": "st", "type": "swing_twist", "body1": "world", "body2": "b",
          "swing_motor_settings": {"target_orientation": [0, 0, 0.6, 0.8]}},
         {"name": "g", "type": "gear", "body1": "a", "body2": "b"})"));
  const SceneDescription before = scene;
  const std::pair<const char*, const char*> k_bad[] = {
      {"constraints.st.twist_motor_settings.target_orientation=[0.6, 0, 0, 0.8]",
       "--set: constraints.st.twist_motor_settings.target_orientation: must equal "
       "constraints.st.swing_motor_settings.target_orientation (the constraint has one such "
       "target) or be left out"},
      {"constraints.st.twist_max_angle=-0.5",
       "--set: constraints.st.twist_max_angle: must be >= twist_min_angle (0), got -0.5"},
      {"constraints.g.constraint1=nope",
       "--set: constraints.g.constraint1: unknown constraint \"nope\" (a constraint may name "
       "only those before it)"},
      {"constraints.g.constraint1=h1",
       "--set: constraints.g.constraint2: required key missing (constraint1 and constraint2 "
       "are given together)"},
  };
  for (const auto& [set, message] : k_bad) {
    const Status status = apply_override(scene, set);
    ASSERT_FALSE(status.ok()) << set;
    EXPECT_EQ(std::string(status.error().message()), message);
    EXPECT_EQ(scene, before) << set;
  }
}

TEST(SceneConstraintTypes, FreeLimitsRoundTripThroughTheLargestFloat) {
  // One six_dof axis fixed, the rest free: the writer writes the free ones as ±3.4028235e+38,
  // the shortest form of the largest float, which reads back as that float.
  const SceneDescription scene = read_ok(scene_with(
      R"({"name": "six", "type": "six_dof", "body1": "world", "body2": "b",
          "limit_min": [0, -3.4028235e38, -3.4028235e38, -3.4028235e38, -3.4028235e38,
                        -3.4028235e38],
          "limit_max": [0, 3.4028235e38, 3.4028235e38, 3.4028235e38, 3.4028235e38,
                        3.4028235e38]})"));
  const std::string text = write_scene_json(scene);
  EXPECT_NE(text.find("-3.4028235e+38"), std::string::npos) << text;
  EXPECT_EQ(read_ok(text), scene);
  // Beyond half a float step above it is still out of range.
  EXPECT_EQ(error_of(scene_with(R"({"name": "six", "type": "six_dof", "body1": "world",
                                    "body2": "b", "limit_max": [0, 0, 0, 0, 0, 3.4028236e38]})")),
            "x.json: constraints[0].limit_max[5]: must be a finite float, got 3.4028236e+38");
}

}  // namespace
}  // namespace scene_constraint_types_test
}  // namespace atl
