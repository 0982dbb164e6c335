#include "atoll/scene/SceneReader.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <type_traits>

#include "atoll/scene/ConstraintFields.h"
#include "atoll/scene/FieldTable.h"
#include "atoll/scene/PhysicsSettingFields.h"
#include "atoll/scene/SceneParser.h"
#include "atoll/scene/SceneSoftBodies.h"

namespace atl {

using namespace scene_json;

namespace {

constexpr int64_t k_max_int = std::numeric_limits<int32_t>::max();

// Calls handler(key, value, path) for each member of `object` in file order; a member the
// handler does not know (returns false) fails as "unknown key", so nothing is silently ignored.
template <class Handler>
void read_members(const Json& object, const std::string& path, Handler&& handler) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    const std::string member = member_path(path, it.key());
    if (!handler(std::string_view(it.key()), it.value(), member)) fail(member, "unknown key");
  }
}

// Required keys are checked after the members, so that a misspelt key is reported as unknown
// rather than as the required key being missing.
void require_keys(const Json& object, const std::string& path,
                  std::initializer_list<std::string_view> keys) {
  for (std::string_view key : keys) require(object, path, key);
}

std::string quote_name(const std::string& text) { return Json(text).dump(); }

// The path keeps its end (the part that names the field) and the message its start, each cut
// to a length that keeps the line readable whatever the file holds (a syntax error quotes the
// last token read, which can be megabytes long).
std::string error_line(std::string_view source, const PathError& error) {
  constexpr size_t k_max_path = 160, k_max_message = 240;
  std::string line(source);
  line += ": ";
  if (error.path.size() > k_max_path) {
    line += "...";
    line += error.path.substr(error.path.size() - (k_max_path - 3));
    line += ": ";
  } else if (!error.path.empty()) {
    line += error.path + ": ";
  }
  if (error.message.size() > k_max_message) {
    line += error.message.substr(0, k_max_message - 3);
    line += "...";
  } else {
    line += error.message;
  }
  return line;
}

}  // namespace

SceneParser::SceneParser(SceneDescription& scene) : scene_(scene) {
  for (size_t i = 0; i < scene_.bodies.size(); ++i) body_index_.emplace(scene_.bodies[i].name, i);
  for (size_t i = 0; i < scene_.constraints.size(); ++i)
    constraint_index_.emplace(scene_.constraints[i].name, i);
  for (const SoftBodyDesc& soft_body : scene_.soft_bodies)
    soft_body_vertices_ += scene_soft_body_vertices(soft_body);
}

ConstraintDesc* SceneParser::find_constraint(std::string_view name) const {
  const auto it = constraint_index_.find(name);
  return it == constraint_index_.end() ? nullptr : &scene_.constraints[it->second];
}

void SceneParser::parse_document(const Json& root) {
  expect_object(root, "");
  read_members(root, "", [](std::string_view key, const Json&, const std::string&) {
    return key == "description" || key == "settings" || key == "shapes" || key == "bodies" ||
           key == "generators" || key == "constraints" || key == "soft_bodies" || key == "events" ||
           key == "probes";
  });
  if (const auto it = root.find("description"); it != root.end())
    scene_.description = read_string(*it, "description");
  if (const auto it = root.find("settings"); it != root.end()) parse_settings(*it, "settings");
  if (const auto it = root.find("shapes"); it != root.end()) parse_shapes(*it, "shapes");
  if (const auto it = root.find("bodies"); it != root.end()) parse_bodies(*it, "bodies");
  if (const auto it = root.find("generators"); it != root.end()) {
    expect_array(*it, "generators");
    for (size_t i = 0; i < it->size(); ++i)
      parse_generator((*it)[i], element_path("generators", i));
  }
  if (const auto it = root.find("constraints"); it != root.end()) {
    expect_array(*it, "constraints");
    for (size_t i = 0; i < it->size(); ++i)
      parse_constraint((*it)[i], element_path("constraints", i));
  }
  if (const auto it = root.find("soft_bodies"); it != root.end()) {
    expect_array(*it, "soft_bodies");
    for (size_t i = 0; i < it->size(); ++i)
      parse_soft_body((*it)[i], element_path("soft_bodies", i));
  }
  if (const auto it = root.find("events"); it != root.end()) {
    expect_array(*it, "events");
    for (size_t i = 0; i < it->size(); ++i) parse_event((*it)[i], element_path("events", i));
  }
  if (const auto it = root.find("probes"); it != root.end()) {
    expect_array(*it, "probes");
    for (size_t i = 0; i < it->size(); ++i) parse_probe((*it)[i], element_path("probes", i));
  }
}

// ---------------------------------------------------------------------------------------------
// settings

void SceneParser::parse_settings(const Json& settings, const std::string& path) {
  expect_object(settings, path);
  read_members(settings, path, [&](std::string_view key, const Json& value, const std::string& p) {
    return parse_setting(key, value, p);
  });
}

bool SceneParser::parse_setting(std::string_view key, const Json& value, const std::string& path) {
  if (key == "dt") {
    scene_.dt = read_positive(value, path);
    return true;
  }
  if (key == "steps") {
    scene_.steps = static_cast<int>(read_int(value, path, 1, k_max_int));
    return true;
  }
  if (key == "collision_steps") {
    scene_.collision_steps = static_cast<int>(read_int(value, path, 1, k_max_int));
    return true;
  }
  if (const fields::Field<PhysicsSettings>* field = fields::find_field<PhysicsSettings>(key)) {
    PhysicsSettings changed = scene_.physics;
    field->read(changed, value, path, *this);
    // The valid ranges are PhysicsSettings' own; its message names the C++ field, which is the
    // JSON key.
    if (const Status valid = changed.validate(); !valid.ok()) {
      std::string message = valid.error().message();
      const std::string prefix = "PhysicsSettings." + std::string(key) + ": ";
      if (message.rfind(prefix, 0) == 0) message.erase(0, prefix.size());
      fail(path, message);
    }
    scene_.physics = changed;
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// shapes

void SceneParser::parse_shapes(const Json& shapes, const std::string& path) {
  expect_object(shapes, path);
  for (auto it = shapes.begin(); it != shapes.end(); ++it) {
    const std::string p = member_path(path, it.key());
    if (it.key().empty()) fail(p, "a shape name must not be empty");
    // Added only once parsed, so that a shape cannot use itself or a later shape (no cycles).
    SceneShape shape = parse_shape(it.value(), p);
    scene_.shapes.push_back({it.key(), std::move(shape)});
  }
}

ShapeRef SceneParser::parse_shape_ref(const Json& value, const std::string& path) {
  ShapeRef ref;
  if (value.is_string()) {
    ref.name = value.get<std::string>();
    if (scene_.find_shape(ref.name) == nullptr) fail(path, "unknown shape " + quote_name(ref.name));
  } else if (value.is_object()) {
    ref.definition = std::make_shared<const SceneShape>(parse_shape(value, path));
  } else {
    fail(path, "expected a shape name or a shape object, got " + describe(value));
  }
  return ref;
}

// ---------------------------------------------------------------------------------------------
// bodies

void SceneParser::parse_bodies(const Json& bodies, const std::string& path) {
  expect_array(bodies, path);
  for (size_t i = 0; i < bodies.size(); ++i) {
    const std::string p = element_path(path, i);
    const Json& object = bodies[i];
    expect_object(object, p);
    BodyDesc body;
    parse_body(body, object, p);
    add_body(std::move(body), member_path(p, "name"));
  }
}

void SceneParser::add_body(BodyDesc body, const std::string& path) {
  if (body.name == k_scene_world)
    fail(path, "\"world\" is reserved for the fixed world of constraints; choose another name");
  if (!body_index_.emplace(body.name, scene_.bodies.size()).second)
    fail(path, "duplicate body name " + quote_name(body.name));
  scene_.bodies.push_back(std::move(body));
}

void SceneParser::expect_body(const std::string& name, const std::string& path) const {
  if (body_index_.find(name) == body_index_.end()) fail(path, "unknown body " + quote_name(name));
}

// ---------------------------------------------------------------------------------------------
// events and probes

void SceneParser::parse_event(const Json& event, const std::string& path) {
  expect_object(event, path);
  EventDesc desc;
  // The action decides which other keys belong, so it is read first.
  desc.action =
      read_enum<SceneAction>(require(event, path, "action"), member_path(path, "action"), "action",
                             {{"add_force", SceneAction::AddForce},
                              {"add_impulse", SceneAction::AddImpulse},
                              {"add_torque", SceneAction::AddTorque},
                              {"add_angular_impulse", SceneAction::AddAngularImpulse},
                              {"set_linear_velocity", SceneAction::SetLinearVelocity},
                              {"set_angular_velocity", SceneAction::SetAngularVelocity},
                              {"set_motion_quality", SceneAction::SetMotionQuality},
                              {"set_motion_type", SceneAction::SetMotionType},
                              {"activate", SceneAction::Activate},
                              {"deactivate", SceneAction::Deactivate},
                              {"remove", SceneAction::Remove},
                              {"move_kinematic", SceneAction::MoveKinematic},
                              {"set_motor", SceneAction::SetMotor},
                              {"enable_constraint", SceneAction::EnableConstraint},
                              {"disable_constraint", SceneAction::DisableConstraint}});
  const char* vector_key = scene_action_vector_key(desc.action);
  const bool has_value =
      desc.action == SceneAction::SetMotionQuality || desc.action == SceneAction::SetMotionType;
  const std::string action_name = event.at("action").get<std::string>();
  const bool on_constraint = scene_action_on_constraint(desc.action);
  const bool repeatable =
      desc.action == SceneAction::AddForce || desc.action == SceneAction::AddTorque;
  for (auto it = event.begin(); it != event.end(); ++it) {
    const std::string& key = it.key();
    const Json& v = it.value();
    const std::string p = member_path(path, key);
    if (key == "action") continue;
    if (key == "step") {
      desc.step = static_cast<int>(read_int(v, p, 0, k_max_int));
    } else if (key == "body" && !on_constraint) {
      desc.body = read_name(v, p);
      expect_body(desc.body, p);
    } else if (key == "constraint" && on_constraint) {
      desc.constraint = read_name(v, p);
      expect_constraint(desc.constraint, p);
      if (desc.action == SceneAction::SetMotor) {
        const ConstraintDesc& constraint = *find_constraint(desc.constraint);
        if (!fields::find_constraint_type(constraint.type)->motor)
          fail(p, quote_name(desc.constraint) + " is a " + to_string(constraint.type) +
                      " constraint, which has no motor");
      }
    } else if (repeatable && key == "steps") {
      desc.steps = static_cast<int>(read_int(v, p, 1, k_max_int));
    } else if (desc.action == SceneAction::SetMotor && key == "state") {
      MotorState state{};
      fields::Enum<fields::MotorStateNames>::read(state, v, p, *this);
      desc.motor_state = state;
    } else if (desc.action == SceneAction::SetMotor && key == "target_velocity") {
      desc.target_velocity = read_float(v, p);
    } else if (desc.action == SceneAction::SetMotor && key == "target_position") {
      desc.target_position = read_float(v, p);
    } else if (desc.action == SceneAction::SetMotor && key == "motor") {
      desc.motor = read_name(v, p);
    } else if (desc.action == SceneAction::SetMotor && key == "target_orientation") {
      desc.target_orientation = read_rotation(v, p);
    } else if (desc.action == SceneAction::SetMotor && key == "target_angular_velocity") {
      desc.target_angular_velocity = read_vec3(v, p);
    } else if (vector_key != nullptr && key == vector_key) {
      desc.vector = read_vec3(v, p);
    } else if (desc.action == SceneAction::MoveKinematic && key == "rotation") {
      desc.rotation = read_rotation(v, p);
    } else if (has_value && key == "value") {
      if (desc.action == SceneAction::SetMotionQuality)
        fields::Enum<fields::MotionQualityNames>::read(desc.motion_quality, v, p, *this);
      else
        fields::Enum<fields::MotionTypeNames>::read(desc.motion_type, v, p, *this);
    } else {
      fail(p, "unknown key for action " + action_name);
    }
  }
  require_keys(event, path, {"step", on_constraint ? "constraint" : "body"});
  if (desc.action == SceneAction::SetMotor && !desc.motor_state && !desc.target_velocity &&
      !desc.target_position && !desc.target_orientation && !desc.target_angular_velocity)
    fail(path,
         "set_motor needs state, target_velocity, target_position, target_orientation or "
         "target_angular_velocity");
  // The constraint's type decides which motors and targets it has.
  if (desc.action == SceneAction::SetMotor)
    fields::find_constraint_type(find_constraint(desc.constraint)->type)->check_event(desc, path);
  if (vector_key != nullptr) require(event, path, vector_key);
  if (has_value) require(event, path, "value");
  scene_.events.push_back(std::move(desc));
}

void SceneParser::parse_probe(const Json& probe, const std::string& path) {
  expect_object(probe, path);
  ProbeDesc desc;
  read_members(probe, path, [&](std::string_view key, const Json& v, const std::string& p) {
    if (key == "name") {
      desc.name = read_name(v, p);
      for (const ProbeDesc& other : scene_.probes)
        if (other.name == desc.name) fail(p, "duplicate probe name " + quote_name(desc.name));
    } else if (key == "type") {
      read_enum<int>(v, p, "probe type", {{"plane_crossing", 0}});
    } else if (key == "axis") {
      desc.axis = read_enum<int>(v, p, "axis", {{"x", 0}, {"y", 1}, {"z", 2}});
    } else if (key == "value") {
      desc.value = read_float(v, p);
    } else if (key == "bodies") {
      expect_array(v, p);
      for (size_t i = 0; i < v.size(); ++i) {
        const std::string b = element_path(p, i);
        std::string name = read_name(v[i], b);
        expect_body(name, b);
        for (const std::string& other : desc.bodies)
          if (other == name) fail(b, "duplicate body " + quote_name(name));
        desc.bodies.push_back(std::move(name));
      }
    } else {
      return false;
    }
    return true;
  });
  require_keys(probe, path, {"name", "type", "axis", "value"});
  scene_.probes.push_back(std::move(desc));
}

// ---------------------------------------------------------------------------------------------
// API

Result<SceneDescription> read_scene_text(std::string_view text, std::string_view source_name) {
  try {
    SceneDescription scene;
    SceneParser(scene).parse_document(scene_json::parse(text));
    // Bodies are added one by one (generators make thousands): give back what growing the
    // list left over (the pyramid's 1241 bodies held room for 2048, 0.2 MB more).
    scene.bodies.shrink_to_fit();
    return scene;
  } catch (const PathError& error) {
    return Error(error_line(source_name, error));
  }
}

Result<SceneDescription> read_scene_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Error(path.string() + ": cannot open: " + std::strerror(errno));
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) return Error(path.string() + ": cannot read: " + std::strerror(errno));
  return read_scene_text(text.str(), path.string());
}

Status apply_override(SceneDescription& scene, std::string_view assignment) {
  const size_t equals = assignment.find('=');
  const std::string key(assignment.substr(0, equals));
  if (equals == std::string_view::npos || key.empty())
    return Error("--set: " + quote_name(std::string(assignment)) + ": expected KEY=VALUE");
  const std::string_view text = assignment.substr(equals + 1);
  try {
    Json value;
    try {
      value = scene_json::parse(text);
    } catch (const PathError& error) {
      if (!error.syntax) throw PathError{key, error.message};
      value = Json(std::string(text));  // not JSON: a bare word such as static or linear_cast
    }
    // Parsed into a copy, so that a failed override leaves the scene as it was.
    SceneDescription changed = scene;
    SceneParser parser(changed);
    constexpr std::string_view k_bodies = "bodies.";
    constexpr std::string_view k_settings = "settings.";
    constexpr std::string_view k_constraints = "constraints.";
    constexpr std::string_view k_soft_bodies = "soft_bodies.";
    if (key.rfind(k_soft_bodies, 0) == 0) {
      const std::string rest = key.substr(k_soft_bodies.size());
      // Split at the last dot: field names have none, soft body names might.
      const size_t dot = rest.rfind('.');
      if (dot == std::string::npos || dot == 0 || dot + 1 == rest.size())
        fail(key, "expected soft_bodies.NAME.FIELD");
      parser.set_soft_body_field(rest.substr(0, dot), rest.substr(dot + 1), value, key);
    } else if (key.rfind(k_constraints, 0) == 0) {
      // NAME is the longest constraint name followed by a dot (names may hold dots; the field
      // may be nested: constraints.door.motor_settings.state).
      const std::string rest = key.substr(k_constraints.size());
      std::string name, field;
      for (const ConstraintDesc& constraint : changed.constraints)
        if (constraint.name.size() > name.size() && rest.size() > constraint.name.size() + 1 &&
            rest.compare(0, constraint.name.size(), constraint.name) == 0 &&
            rest[constraint.name.size()] == '.') {
          name = constraint.name;
          field = rest.substr(name.size() + 1);
        }
      if (name.empty()) {
        const size_t dot = rest.find('.');
        if (dot == std::string::npos || dot == 0 || dot + 1 == rest.size())
          fail(key, "expected constraints.NAME.FIELD");
        fail(key, "unknown constraint " + quote_name(rest.substr(0, dot)));
      }
      parser.set_constraint_field(name, field, value, key);
    } else if (key.rfind(k_bodies, 0) == 0) {
      const std::string rest = key.substr(k_bodies.size());
      // Split at the last dot: field names have none, body names might.
      const size_t dot = rest.rfind('.');
      if (dot == std::string::npos || dot == 0 || dot + 1 == rest.size())
        fail(key, "expected bodies.NAME.FIELD");
      const std::string name = rest.substr(0, dot);
      const std::string field = rest.substr(dot + 1);
      if (field == "name") fail(key, "a body's name cannot be changed");
      if (name == "*") {
        // Every body (a scene with 100 spheres needed 100 flags to make them all discrete).
        for (BodyDesc& body : changed.bodies) {
          if (!parser.parse_body_field(body, field, value, key)) fail(key, "unknown key");
          parser.check_body(body, "bodies." + body.name);
        }
      } else {
        BodyDesc* body = changed.find_body(name);
        if (body == nullptr) fail(key, "unknown body " + quote_name(name));
        if (!parser.parse_body_field(*body, field, value, key)) fail(key, "unknown key");
        parser.check_body(*body, "bodies." + name);
      }
    } else {
      const std::string setting =
          key.rfind(k_settings, 0) == 0 ? key.substr(k_settings.size()) : key;
      if (!parser.parse_setting(setting, value, key)) fail(key, "unknown key");
    }
    scene = std::move(changed);
    return Ok{};
  } catch (const PathError& error) {
    return Error(error_line("--set", error));
  }
}

}  // namespace atl
