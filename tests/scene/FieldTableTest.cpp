// The field-table mechanism (scene/FieldTable.h) takes the shapes of value that constraint
// settings need (issue 8 §3) without anything new: a spring inside a motor inside a joint, a
// six_dof-style 6-array, an enum by name (space: world|local), vectors and quaternions, bodies
// by name, and "point stands for point1 and point2". A joint-like settings type declared here
// is read, written back, compared and described through one table per type, with the reader's
// one-line messages.

#include <gtest/gtest.h>

#include "atoll/scene/FieldTable.h"
#include "atoll/scene/SceneParser.h"
#include "atoll/scene/SceneReader.h"

namespace atl {
namespace joint_test {

enum class Space { World, Local };
enum class SpringMode { FrequencyAndDamping, StiffnessAndDamping };

struct Spring {
  SpringMode mode = SpringMode::FrequencyAndDamping;
  float frequency = 0.0f;
  float damping = 0.0f;
  float stiffness = 0.0f;
};

struct Motor {
  // A motor's spring defaults to 2 Hz, critically damped (a spring elsewhere to hard).
  Spring spring{SpringMode::FrequencyAndDamping, 2.0f, 1.0f, 0.0f};
  float max_force_limit = 1.0e30f;
};

struct Joint {
  std::string body1, body2;
  Space space = Space::World;
  Vec3 point1, point2;
  Quat rotation;
  Motor motor;
  std::array<float, 6> limit_min{-1.0e30f, -1.0e30f, -1.0e30f, -1.0e30f, -1.0e30f, -1.0e30f};
};

struct SpaceNames {
  static constexpr const char* what = "space";
  static constexpr std::pair<const char*, Space> names[] = {{"world", Space::World},
                                                            {"local", Space::Local}};
};

struct SpringModeNames {
  static constexpr const char* what = "spring mode";
  static constexpr std::pair<const char*, SpringMode> names[] = {
      {"frequency_and_damping", SpringMode::FrequencyAndDamping},
      {"stiffness_and_damping", SpringMode::StiffnessAndDamping}};
};

}  // namespace joint_test

namespace fields {

using joint_test::Joint;
using joint_test::Motor;
using joint_test::Spring;

template <>
std::span<const Field<Spring>> FieldTable<Spring>::fields() {
  static const Field<Spring> k[] = {
      field<Enum<joint_test::SpringModeNames>, &Spring::mode>("mode"),
      field<NonNegative, &Spring::frequency>("frequency", "Hz"),
      field<NonNegative, &Spring::damping>("damping"),
      field<NonNegative, &Spring::stiffness>("stiffness", "N/m"),
  };
  return k;
}

template <>
std::span<const Field<Motor>> FieldTable<Motor>::fields() {
  static const Field<Motor> k[] = {
      field<Object<Spring>, &Motor::spring>("spring"),
      field<NonNegative, &Motor::max_force_limit>("max_force_limit", "N"),
  };
  return k;
}

template <>
std::span<const Field<Joint>> FieldTable<Joint>::fields() {
  static const Field<Joint> k[] = {
      field<BodyReference, &Joint::body1>("body1", "", Presence::Required),
      field<BodyReference, &Joint::body2>("body2", "", Presence::Required),
      field<Enum<joint_test::SpaceNames>, &Joint::space>("space"),
      alias<Vector, &Joint::point1, &Joint::point2>("point", "m"),
      field<Vector, &Joint::point1>("point1", "m"),
      field<Vector, &Joint::point2>("point2", "m"),
      field<Rotation, &Joint::rotation>("rotation"),
      field<Object<Motor>, &Joint::motor>("motor"),
      field<Array<Real, 6>, &Joint::limit_min>("limit_min", "m or rad"),
  };
  return k;
}

template <>
void FieldTable<Joint>::check(const Joint& joint, const Json&, const std::string& path) {
  if (joint.body1 == joint.body2)
    scene_json::fail(scene_json::member_path(path, "body2"), "must differ from body1");
}

}  // namespace fields

namespace field_table_test {
namespace {

using joint_test::Joint;

SceneDescription two_bodies() {
  Result<SceneDescription> scene = read_scene_text(R"({"bodies": [
      {"name": "a", "shape": {"type": "sphere", "radius": 1}},
      {"name": "b", "shape": {"type": "sphere", "radius": 1}, "position": [0, 3, 0]}]})",
                                                   "t.json");
  EXPECT_TRUE(scene.ok());
  return scene.ok() ? std::move(scene).value() : SceneDescription();
}

// Reads `text` as a Joint at path "j"; the error message, or "" on success.
std::string read_joint(Joint& joint, std::string_view text) {
  SceneDescription scene = two_bodies();
  SceneParser parser(scene);
  try {
    fields::read_object(joint, scene_json::parse(text), "j", parser);
  } catch (const scene_json::PathError& error) {
    return error.path + ": " + error.message;
  }
  return "";
}

TEST(FieldTable, NestedObjectsArraysEnumsAliasesAndReferencesRead) {
  Joint joint;
  ASSERT_EQ(read_joint(joint, R"({"body1": "a", "body2": "b", "space": "local",
      "point": [1, 2, 3], "rotation": [0, 0.6, 0, 0.8],
      "motor": {"spring": {"damping": 0.5}, "max_force_limit": 10},
      "limit_min": [-1, -2, -3, -4, -5, -6]})"),
            "");
  EXPECT_EQ(joint.body1, "a");
  EXPECT_EQ(joint.body2, "b");
  EXPECT_EQ(joint.space, joint_test::Space::Local);
  // "point" stands for both.
  EXPECT_EQ(joint.point1, Vec3(1, 2, 3));
  EXPECT_EQ(joint.point2, Vec3(1, 2, 3));
  EXPECT_EQ(joint.rotation, Quat(0, 0.6f, 0, 0.8f));
  // A partly given spring keeps the motor's defaults for the keys it leaves out.
  EXPECT_EQ(joint.motor.spring.frequency, 2.0f);
  EXPECT_EQ(joint.motor.spring.damping, 0.5f);
  EXPECT_EQ(joint.motor.max_force_limit, 10.0f);
  EXPECT_EQ(joint.limit_min[5], -6.0f);
}

TEST(FieldTable, WrittenObjectsReadBackEqualAndAliasesAreNotWritten) {
  Joint joint;
  ASSERT_EQ(read_joint(joint, R"({"body1": "a", "body2": "b", "point": [1, 2, 3],
      "motor": {"spring": {"mode": "stiffness_and_damping", "stiffness": 100}},
      "limit_min": [0, 0, 0, -1, -1, -1]})"),
            "");
  const scene_json::Json written = fields::write_object(joint);
  EXPECT_FALSE(written.contains("point"));
  EXPECT_FALSE(written.contains("space"));  // the default is left out
  EXPECT_EQ(scene_json::compact_text(written["motor"]["spring"]),
            R"({"mode": "stiffness_and_damping", "stiffness": 100})");
  Joint again;
  ASSERT_EQ(read_joint(again, written.dump()), "");
  EXPECT_TRUE(fields::equal_objects(joint, again));
  again.motor.spring.stiffness = 99.0f;
  EXPECT_FALSE(fields::equal_objects(joint, again));
}

TEST(FieldTable, BadValuesAreNamedByTheirFullPath) {
  Joint joint;
  EXPECT_EQ(read_joint(joint, R"({"body1": "a", "body2": "c"})"), "j.body2: unknown body \"c\"");
  EXPECT_EQ(read_joint(joint, R"({"body1": "a", "body2": "a"})"),
            "j.body2: must differ from body1");
  EXPECT_EQ(read_joint(joint, R"({"body1": "a"})"), "j.body2: required key missing");
  EXPECT_EQ(read_joint(joint, R"({"body1": "a", "body2": "b", "space": "global"})"),
            "j.space: unknown space \"global\" (expected world or local)");
  EXPECT_EQ(read_joint(joint, R"({"body1": "a", "body2": "b", "limit_min": [1, 2]})"),
            "j.limit_min: expected an array of 6 values, got [1,2]");
  EXPECT_EQ(read_joint(joint, R"({"body1": "a", "body2": "b", "motor": {"spring": {"mode": 1}}})"),
            "j.motor.spring.mode: expected a string, got 1");
  EXPECT_EQ(
      read_joint(joint, R"({"body1": "a", "body2": "b", "motor": {"spring": {"damping": -1}}})"),
      "j.motor.spring.damping: must be >= 0, got -1");
  EXPECT_EQ(read_joint(joint, R"({"body1": "a", "body2": "b", "motor": {"sprung": {}}})"),
            "j.motor.sprung: unknown key");
}

TEST(FieldTable, DocumentationRowsNameNestedKeysWithUnitsAndDefaults) {
  std::vector<FieldDoc> rows;
  fields::describe_object<Joint>("", rows);
  std::vector<std::string> keys;
  for (const FieldDoc& row : rows) keys.push_back(row.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"body1", "body2", "space", "point", "point1", "point2",
                                            "rotation", "motor", "motor.spring",
                                            "motor.spring.mode", "motor.spring.frequency",
                                            "motor.spring.damping", "motor.spring.stiffness",
                                            "motor.max_force_limit", "limit_min"}));
  EXPECT_TRUE(rows[0].required);
  EXPECT_EQ(rows[0].type, "body name");
  EXPECT_EQ(rows[2].range, "`world`, `local`");
  EXPECT_EQ(rows[2].default_value, "\"world\"");
  EXPECT_TRUE(rows[3].alias);
  EXPECT_EQ(rows[3].type, "[x, y, z], m");
  EXPECT_EQ(rows[10].type, "real, Hz");
  EXPECT_EQ(rows[10].default_value, "2");  // the motor's spring default, not a bare spring's
  EXPECT_EQ(rows[14].type, "array of 6 reals, m or rad");
}

}  // namespace
}  // namespace field_table_test
}  // namespace atl
