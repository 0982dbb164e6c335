#include "atoll/scene/SceneWriter.h"

#include <type_traits>

#include "atoll/scene/ConstraintFields.h"
#include "atoll/scene/FieldTable.h"
#include "atoll/scene/PhysicsSettingFields.h"
#include "atoll/scene/SceneJson.h"

namespace atl {

using scene_json::compact_text;
using scene_json::Json;
using scene_json::quat;
using scene_json::real;
using scene_json::vec3;

namespace {

Json event_json(const EventDesc& event) {
  Json out = Json::object();
  out["step"] = event.step;
  out["action"] = scene_action_name(event.action);
  if (scene_action_on_constraint(event.action))
    out["constraint"] = event.constraint;
  else
    out["body"] = event.body;
  if (event.steps != 1) out["steps"] = event.steps;
  if (event.motor_state) out["state"] = to_string(*event.motor_state);
  if (event.target_velocity) out["target_velocity"] = real(*event.target_velocity);
  if (event.target_position) out["target_position"] = real(*event.target_position);
  if (!event.motor.empty()) out["motor"] = event.motor;
  if (event.target_orientation) out["target_orientation"] = quat(*event.target_orientation);
  if (event.target_angular_velocity)
    out["target_angular_velocity"] = vec3(*event.target_angular_velocity);
  if (const char* key = scene_action_vector_key(event.action)) out[key] = vec3(event.vector);
  if (event.rotation) out["rotation"] = quat(*event.rotation);
  if (event.action == SceneAction::SetMotionQuality)
    out["value"] = motion_quality_name(event.motion_quality);
  if (event.action == SceneAction::SetMotionType)
    out["value"] = motion_type_name(event.motion_type);
  return out;
}

Json settings_json(const SceneDescription& scene) {
  Json out = Json::object();
  out["dt"] = real(scene.dt);
  out["steps"] = scene.steps;
  out["collision_steps"] = scene.collision_steps;
  // The fields that differ from PhysicsSettings' defaults, in table order.
  const Json physics = fields::write_object(scene.physics);
  for (auto it = physics.begin(); it != physics.end(); ++it) out[it.key()] = it.value();
  return out;
}

// Layout: a value goes on one line when it fits in k_width columns (the document itself never
// does); otherwise objects and arrays of containers put one member per line, and arrays of
// numbers fill lines.
constexpr size_t k_width = 100;

void write(std::string& out, const Json& value, size_t indent, size_t column,
           bool one_line_if_fits = true) {
  std::string text = compact_text(value);
  if ((one_line_if_fits && column + text.size() <= k_width) || !value.is_structured() ||
      value.empty()) {
    out += text;
    return;
  }
  const std::string inner(indent + 2, ' ');
  if (value.is_array()) {
    bool all_scalars = true;
    for (const Json& element : value) all_scalars = all_scalars && !element.is_structured();
    out += "[\n";
    out += inner;
    size_t line = inner.size();
    for (size_t i = 0; i < value.size(); ++i) {
      const bool last = i + 1 == value.size();
      if (all_scalars) {
        std::string element = compact_text(value[i]);
        if (!last) element += ',';
        if (line > inner.size() && line + 1 + element.size() > k_width) {
          out += '\n';
          out += inner;
          line = inner.size();
        } else if (line > inner.size()) {
          out += ' ';
          ++line;
        }
        out += element;
        line += element.size();
      } else {
        if (i > 0) out += inner;
        write(out, value[i], indent + 2, inner.size());
        out += last ? "" : ",\n";
      }
    }
    out += '\n';
    out.append(indent, ' ');
    out += ']';
    return;
  }
  out += "{\n";
  for (auto it = value.begin(); it != value.end(); ++it) {
    std::string key = Json(it.key()).dump();
    key += ": ";
    out += inner;
    out += key;
    write(out, it.value(), indent + 2, inner.size() + key.size());
    out += std::next(it) == value.end() ? "\n" : ",\n";
  }
  out.append(indent, ' ');
  out += '}';
}

}  // namespace

std::string write_scene_json(const SceneDescription& scene) {
  Json root = Json::object();
  if (!scene.description.empty()) root["description"] = scene.description;
  root["settings"] = settings_json(scene);
  if (!scene.shapes.empty()) {
    Json shapes = Json::object();
    for (const NamedShape& shape : scene.shapes)
      shapes[shape.name] = fields::write_shape(shape.shape);
    root["shapes"] = std::move(shapes);
  }
  Json bodies = Json::array();
  for (const BodyDesc& body : scene.bodies) bodies.push_back(fields::write_body(body));
  root["bodies"] = std::move(bodies);
  if (!scene.constraints.empty()) {
    Json constraints = Json::array();
    for (const ConstraintDesc& constraint : scene.constraints)
      constraints.push_back(fields::write_constraint(constraint));
    root["constraints"] = std::move(constraints);
  }
  if (!scene.soft_bodies.empty()) {
    Json soft_bodies = Json::array();
    for (const SoftBodyDesc& soft_body : scene.soft_bodies)
      soft_bodies.push_back(fields::write_soft_body(soft_body));
    root["soft_bodies"] = std::move(soft_bodies);
  }
  if (!scene.events.empty()) {
    Json events = Json::array();
    for (const EventDesc& event : scene.events) events.push_back(event_json(event));
    root["events"] = std::move(events);
  }
  if (!scene.probes.empty()) {
    Json probes = Json::array();
    for (const ProbeDesc& probe : scene.probes) {
      Json p = Json::object();
      p["name"] = probe.name;
      p["type"] = "plane_crossing";
      p["axis"] = std::string(1, char('x' + probe.axis));
      p["value"] = real(probe.value);
      if (!probe.bodies.empty()) p["bodies"] = probe.bodies;
      probes.push_back(std::move(p));
    }
    root["probes"] = std::move(probes);
  }
  std::string out;
  write(out, root, 0, 0, /*one_line_if_fits=*/false);
  return out + "\n";
}

}  // namespace atl
