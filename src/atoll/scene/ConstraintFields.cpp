// The constraint keys every type shares (scene/ConstraintFields.h): the common table
// (FieldTable<ConstraintSettings>), the spring and motor objects, and reading, writing and
// comparing scene constraints through the type tables of scene/constraints/.

#include "atoll/scene/ConstraintFields.h"

#include <cmath>
#include <limits>

#include "atoll/scene/SceneParser.h"

namespace atl {

using namespace scene_json;

namespace fields {

namespace {

using C = ConstraintSettings;
using Steps = Integer<uint32_t, 0, k_max_solver_steps>;

struct SpringModeNames {
  static constexpr const char* what = "spring mode";
  static constexpr std::pair<const char*, SpringMode> names[] = {
      {"frequency_and_damping", SpringMode::FrequencyAndDamping},
      {"stiffness_and_damping", SpringMode::StiffnessAndDamping},
      {"mass_normalized_stiffness_and_damping", SpringMode::MassNormalizedStiffnessAndDamping}};
};

// The scene names of the constraint types a file may give (Vehicle and User1–4 are not).
struct ConstraintTypeNames {
  static constexpr const char* what = "constraint type";
  static constexpr std::pair<const char*, ConstraintSubType> names[] = {
      {"fixed", ConstraintSubType::Fixed},
      {"point", ConstraintSubType::Point},
      {"distance", ConstraintSubType::Distance},
      {"hinge", ConstraintSubType::Hinge},
      {"slider", ConstraintSubType::Slider},
      {"cone", ConstraintSubType::Cone},
      {"swing_twist", ConstraintSubType::SwingTwist},
      {"six_dof", ConstraintSubType::SixDOF},
      {"path", ConstraintSubType::Path},
      {"pulley", ConstraintSubType::Pulley},
      {"gear", ConstraintSubType::Gear},
      {"rack_and_pinion", ConstraintSubType::RackAndPinion}};
};

}  // namespace

// The common keys (besides name, type, body1 and body2, which ConstraintDesc holds).
template <>
std::span<const Field<C>> FieldTable<C>::fields() {
  static const Field<C> k[] = {
      field<Bool, &C::enabled>("enabled"),
      field<Integer<uint32_t, 0, std::numeric_limits<uint32_t>::max()>, &C::priority>("priority"),
      field<Steps, &C::velocity_steps_override>("velocity_steps"),
      field<Steps, &C::position_steps_override>("position_steps"),
      field<NonNegative, &C::break_impulse>("break_impulse", "N·s"),
      field<NonNegative, &C::break_angular_impulse>("break_angular_impulse", "N·m·s"),
  };
  return k;
}

template <>
std::span<const Field<SpringSettings>> FieldTable<SpringSettings>::fields() {
  using S = SpringSettings;
  static const Field<S> k[] = {
      field<Enum<SpringModeNames>, &S::mode>("mode"),
      field<NonNegative, &S::frequency>("frequency", "Hz"),
      field<NonNegative, &S::stiffness>("stiffness"),
      field<NonNegative, &S::damping>("damping"),
  };
  return k;
}
// A key of the other modes is an error, not silently unused.
template <>
void FieldTable<SpringSettings>::check(const SpringSettings& spring, const Json& object,
                                       const std::string& path) {
  const bool frequency_mode = spring.mode == SpringMode::FrequencyAndDamping;
  if (frequency_mode && object.contains("stiffness"))
    fail(member_path(path, "stiffness"),
         "only for the stiffness modes (mode is " + std::string(to_string(spring.mode)) + ")");
  if (!frequency_mode && object.contains("frequency"))
    fail(member_path(path, "frequency"), "only for mode frequency_and_damping (mode is " +
                                             std::string(to_string(spring.mode)) + ")");
}

template <>
std::span<const Field<SceneMotor>> FieldTable<SceneMotor>::fields() {
  using M = SceneMotor;
  using S = MotorSettings;
  constexpr auto s = &M::settings;
  static const Field<M> k[] = {
      field<Enum<MotorStateNames>, &M::state>("state"),
      field<Real, &M::target_velocity>("target_velocity", "rad/s or m/s"),
      field<Real, &M::target_position>("target_position", "rad or m"),
      field<Object<SpringSettings>, s, &S::spring>("spring"),
      field<Real, s, &S::min_force_limit>("min_force_limit", "N"),
      field<Real, s, &S::max_force_limit>("max_force_limit", "N"),
      field<Real, s, &S::min_torque_limit>("min_torque_limit", "N·m"),
      field<Real, s, &S::max_torque_limit>("max_torque_limit", "N·m"),
  };
  return k;
}
template <>
void FieldTable<SceneMotor>::check(const SceneMotor& motor, const Json&, const std::string& path) {
  if (motor.settings.min_force_limit > motor.settings.max_force_limit)
    fail(member_path(path, "min_force_limit"),
         "must be <= max_force_limit (" + number_text(motor.settings.max_force_limit) + "), got " +
             number_text(motor.settings.min_force_limit));
  if (motor.settings.min_torque_limit > motor.settings.max_torque_limit)
    fail(member_path(path, "min_torque_limit"),
         "must be <= max_torque_limit (" + number_text(motor.settings.max_torque_limit) +
             "), got " + number_text(motor.settings.min_torque_limit));
}

const ConstraintType* find_constraint_type(ConstraintSubType type) {
  for (const ConstraintType* t : constraint_types())
    if (t->type == type) return t;
  return nullptr;
}

Vec3 derived_perpendicular(const Vec3& axis) {
  const Vec3 a = axis.normalized();
  Vec3 n = Vec3(1.0f, 0.0f, 0.0f) - a * a.x();
  if (n.length_sq() < 1.0e-6f) n = Vec3(0.0f, 1.0f, 0.0f) - a * a.y();
  return n.normalized();
}

void check_single_motor_event(ConstraintSubType type, const EventDesc& event,
                              const std::string& path) {
  const std::string what = "a " + std::string(to_string(type)) + " constraint";
  if (!event.motor.empty())
    fail(member_path(path, "motor"), what + " has one motor (leave out motor)");
  if (event.target_orientation)
    fail(member_path(path, "target_orientation"), what + "'s motor has no target_orientation");
  if (event.target_angular_velocity)
    fail(member_path(path, "target_angular_velocity"),
         what + "'s motor has no target_angular_velocity");
}

void ConstraintReference::read(std::string& v, const Json& j, const std::string& p,
                               SceneParser& parser) {
  std::string name = read_name(j, p);
  parser.expect_constraint(name, p);
  v = std::move(name);
}

Json write_constraint(const ConstraintDesc& constraint) {
  Json out = Json::object();
  out["name"] = constraint.name;
  out["type"] = to_string(constraint.type);
  out["body1"] = constraint.body1;
  out["body2"] = constraint.body2;
  const ConstraintType* type = find_constraint_type(constraint.type);
  ATOLL_ASSERT(type != nullptr && constraint.settings != nullptr, "unsupported constraint");
  ConstraintTypeData& data = *constraint.settings;
  const Json common = write_object(type->common(data));
  for (auto it = common.begin(); it != common.end(); ++it) out[it.key()] = it.value();
  const Json keys = type->write(data);
  for (auto it = keys.begin(); it != keys.end(); ++it) out[it.key()] = it.value();
  return out;
}

}  // namespace fields

bool operator==(const ConstraintDesc& a, const ConstraintDesc& b) {
  if (a.name != b.name || a.type != b.type || a.body1 != b.body1 || a.body2 != b.body2)
    return false;
  if (a.settings == nullptr || b.settings == nullptr)
    return a.settings == nullptr && b.settings == nullptr;
  const fields::ConstraintType* type = fields::find_constraint_type(a.type);
  if (type == nullptr) return false;
  return fields::equal_objects(type->common(*a.settings), type->common(*b.settings)) &&
         type->equal(*a.settings, *b.settings);
}

// ---------------------------------------------------------------------------------------------
// reading

void SceneParser::expect_constraint(const std::string& name, const std::string& path) const {
  if (find_constraint(name) == nullptr)
    fail(path,
         "unknown constraint " + quote(name) + " (a constraint may name only those before it)");
}

void SceneParser::read_constraint_body(std::string& body, const Json& value,
                                       const std::string& path) const {
  std::string name = read_name(value, path);
  if (name != k_scene_world) expect_body(name, path);
  body = std::move(name);
}

bool SceneParser::parse_constraint_field(ConstraintDesc& constraint, std::string_view key,
                                         const Json& value, const std::string& path) {
  const fields::ConstraintType& type = *fields::find_constraint_type(constraint.type);
  if (key == "body1") {
    read_constraint_body(constraint.body1, value, path);
    return true;
  }
  if (key == "body2") {
    read_constraint_body(constraint.body2, value, path);
    return true;
  }
  if (const auto* f = fields::find_field<ConstraintSettings>(key)) {
    const char* type_name = to_string(constraint.type);
    if (key == "break_impulse" && !type.linear_part)
      fail(path, "a " + std::string(type_name) + " constraint has no linear part to break");
    if (key == "break_angular_impulse" && !type.angular_part)
      fail(path, "a " + std::string(type_name) + " constraint has no angular part to break");
    f->read(type.common(*constraint.settings), value, path, *this);
    return true;
  }
  return type.read_key(*constraint.settings, key, value, path, *this);
}

void SceneParser::check_constraint(const ConstraintDesc& constraint,
                                   const std::string& path) const {
  if (constraint.body1 == k_scene_world && constraint.body2 == k_scene_world)
    fail(member_path(path, "body2"), "body1 and body2 are both the world");
  if (constraint.body1 == constraint.body2)
    fail(member_path(path, "body2"), "the same body as body1 (" + quote(constraint.body1) + ")");
}

void SceneParser::parse_constraint(const Json& object, const std::string& path) {
  expect_object(object, path);
  ConstraintDesc constraint;
  // The type decides which other keys belong, so it is read first.
  const std::string type_path = member_path(path, "type");
  fields::Enum<fields::ConstraintTypeNames>::read(constraint.type, require(object, path, "type"),
                                                  type_path, *this);
  const fields::ConstraintType* type = fields::find_constraint_type(constraint.type);
  if (type == nullptr)
    fail(type_path, "constraint type " + quote(to_string(constraint.type)) +
                        " is not supported in scene files yet");
  constraint.settings = type->make();
  for (auto it = object.begin(); it != object.end(); ++it) {
    const std::string member = member_path(path, it.key());
    if (it.key() == "type") continue;
    if (it.key() == "name") {
      constraint.name = read_name(it.value(), member);
      if (find_constraint(constraint.name) != nullptr)
        fail(member, "duplicate constraint name " + quote(constraint.name));
      continue;
    }
    if (!parse_constraint_field(constraint, it.key(), it.value(), member))
      fail(member, "unknown key for a " + std::string(to_string(constraint.type)) + " constraint");
  }
  require(object, path, "name");
  require(object, path, "body1");
  require(object, path, "body2");
  check_constraint(constraint, path);
  type->complete(*constraint.settings, object, path);
  constraint_index_.emplace(constraint.name, scene_.constraints.size());
  scene_.constraints.push_back(std::move(constraint));
}

void SceneParser::set_constraint_field(const std::string& name, const std::string& field,
                                       const Json& value, const std::string& path) {
  ConstraintDesc* constraint = find_constraint(name);
  if (constraint == nullptr) fail(path, "unknown constraint " + quote(name));
  // "motor_settings.state" sets one key of a nested object: read as {"state": value} into it.
  const size_t dot = field.find('.');
  const std::string key = field.substr(0, dot);
  Json nested = value;
  if (dot != std::string::npos) {
    std::string rest = field.substr(dot + 1);
    for (size_t end = rest.rfind('.'); end != std::string::npos; end = rest.rfind('.')) {
      nested = Json::object({{rest.substr(end + 1), std::move(nested)}});
      rest.resize(end);
    }
    nested = Json::object({{rest, std::move(nested)}});
  }
  const std::string key_path = "constraints." + name + "." + key;
  if (key == "name" || key == "type") fail(path, "a constraint's " + key + " cannot be changed");
  if (!parse_constraint_field(*constraint, key, nested, key_path)) fail(path, "unknown key");
  const std::string constraint_path = "constraints." + name;
  check_constraint(*constraint, constraint_path);
  fields::find_constraint_type(constraint->type)->check(*constraint->settings, constraint_path);
}

// ---------------------------------------------------------------------------------------------
// documentation

std::vector<FieldDoc> constraint_common_field_docs() {
  std::vector<FieldDoc> rows;
  const auto add = [&rows](const char* key, const char* type, const char* range) {
    FieldDoc doc;
    doc.key = key;
    doc.type = type;
    doc.range = range;
    doc.required = true;
    rows.push_back(doc);
  };
  add("name", "string", "non-empty");
  add("type", "string", "");
  add("body1", "body name", "");
  add("body2", "body name", "");
  fields::describe_object<ConstraintSettings>("", rows);
  return rows;
}

std::vector<std::pair<std::string, std::vector<FieldDoc>>> constraint_field_docs() {
  std::vector<std::pair<std::string, std::vector<FieldDoc>>> out;
  for (const fields::ConstraintType* type : fields::constraint_types()) {
    std::vector<FieldDoc> rows;
    type->describe(rows);
    out.emplace_back(to_string(type->type), std::move(rows));
  }
  return out;
}

}  // namespace atl
