#include "atoll/scene/SceneWriter.h"

#include <type_traits>

#include "atoll/scene/PhysicsSettingFields.h"
#include "atoll/scene/SceneJson.h"

namespace atl {

using scene_json::compact_text;
using scene_json::Json;
using scene_json::quat;
using scene_json::real;
using scene_json::vec3;

namespace {

bool is_identity(const Quat& q) { return q == Quat::identity(); }

Json shape_json(const ShapeDesc& shape);

Json ref_json(const ShapeRef& ref) {
  return ref.definition != nullptr ? shape_json(*ref.definition) : Json(ref.name);
}

void put_optional(Json& object, const char* key, const std::optional<float>& value) {
  if (value) object[key] = real(*value);
}

Json shape_json(const ShapeDesc& shape) {
  Json out = Json::object();
  out["type"] = shape_desc_type_name(shape);
  std::visit(
      [&](const auto& params) {
        using T = std::decay_t<decltype(params)>;
        if constexpr (std::is_same_v<T, SphereShapeDesc>) {
          out["radius"] = real(params.radius);
          put_optional(out, "density", params.density);
        } else if constexpr (std::is_same_v<T, BoxShapeDesc>) {
          out["half_extent"] = vec3(params.half_extent);
          put_optional(out, "convex_radius", params.convex_radius);
          put_optional(out, "density", params.density);
        } else if constexpr (std::is_same_v<T, CapsuleShapeDesc>) {
          out["half_height"] = real(params.half_height);
          out["radius"] = real(params.radius);
          put_optional(out, "density", params.density);
        } else if constexpr (std::is_same_v<T, CylinderShapeDesc>) {
          out["half_height"] = real(params.half_height);
          out["radius"] = real(params.radius);
          put_optional(out, "convex_radius", params.convex_radius);
          put_optional(out, "density", params.density);
        } else if constexpr (std::is_same_v<T, ConvexHullShapeDesc>) {
          Json points = Json::array();
          for (const Vec3& p : params.points) points.push_back(vec3(p));
          out["points"] = std::move(points);
          put_optional(out, "convex_radius", params.convex_radius);
          put_optional(out, "density", params.density);
        } else if constexpr (std::is_same_v<T, MeshShapeDesc>) {
          Json vertices = Json::array();
          for (const Vec3& v : params.vertices) vertices.push_back(vec3(v));
          Json triangles = Json::array();
          for (const auto& t : params.triangles)
            triangles.push_back(Json::array({t[0], t[1], t[2]}));
          out["vertices"] = std::move(vertices);
          out["triangles"] = std::move(triangles);
        } else if constexpr (std::is_same_v<T, HeightFieldShapeDesc>) {
          out["sample_count"] = params.sample_count;
          Json heights = Json::array();
          for (float h : params.heights) heights.push_back(real(h));
          out["heights"] = std::move(heights);
          if (!(params.offset == Vec3())) out["offset"] = vec3(params.offset);
          if (!(params.scale == Vec3::replicate(1.0f))) out["scale"] = vec3(params.scale);
        } else if constexpr (std::is_same_v<T, CompoundShapeDesc>) {
          Json children = Json::array();
          for (const CompoundChildDesc& child : params.children) {
            Json c = Json::object();
            c["shape"] = ref_json(child.shape);
            c["position"] = vec3(child.position);
            if (!is_identity(child.rotation)) c["rotation"] = quat(child.rotation);
            children.push_back(std::move(c));
          }
          out["children"] = std::move(children);
        } else if constexpr (std::is_same_v<T, RotatedTranslatedShapeDesc>) {
          out["shape"] = ref_json(params.shape);
          out["position"] = vec3(params.position);
          if (!is_identity(params.rotation)) out["rotation"] = quat(params.rotation);
        } else if constexpr (std::is_same_v<T, ScaledShapeDesc>) {
          out["shape"] = ref_json(params.shape);
          out["scale"] = vec3(params.scale);
        } else {
          static_assert(std::is_same_v<T, OffsetCenterOfMassShapeDesc>);
          out["shape"] = ref_json(params.shape);
          out["offset"] = vec3(params.offset);
        }
      },
      shape.params);
  return out;
}

Json allowed_dofs_json(AllowedDOFs dofs) {
  if (dofs == AllowedDOFs::All) return "all";
  if (dofs == AllowedDOFs::Plane2D) return "plane_xy";
  static constexpr std::pair<const char*, AllowedDOFs> k_flags[] = {
      {"tx", AllowedDOFs::TranslationX}, {"ty", AllowedDOFs::TranslationY},
      {"tz", AllowedDOFs::TranslationZ}, {"rx", AllowedDOFs::RotationX},
      {"ry", AllowedDOFs::RotationY},    {"rz", AllowedDOFs::RotationZ}};
  Json list = Json::array();
  for (const auto& [name, flag] : k_flags)
    if (has_dofs(dofs, flag)) list.push_back(name);
  return list;
}

Json body_json(const BodyDesc& body) {
  Json out = Json::object();
  out["name"] = body.name;
  out["shape"] = ref_json(body.shape);
  out["position"] = vec3(body.position);
  if (!is_identity(body.rotation)) out["rotation"] = quat(body.rotation);
  out["motion"] = motion_type_name(body.motion);
  put_optional(out, "mass", body.mass);
  put_optional(out, "friction", body.friction);
  put_optional(out, "restitution", body.restitution);
  if (body.linear_velocity) out["linear_velocity"] = vec3(*body.linear_velocity);
  if (body.angular_velocity) out["angular_velocity"] = vec3(*body.angular_velocity);
  if (body.motion_quality) out["motion_quality"] = motion_quality_name(*body.motion_quality);
  if (body.allow_sleeping) out["allow_sleeping"] = *body.allow_sleeping;
  if (body.sensor) out["sensor"] = *body.sensor;
  if (body.sensor_detects_static) out["sensor_detects_static"] = *body.sensor_detects_static;
  put_optional(out, "gravity_factor", body.gravity_factor);
  put_optional(out, "linear_damping", body.linear_damping);
  put_optional(out, "angular_damping", body.angular_damping);
  put_optional(out, "max_linear_velocity", body.max_linear_velocity);
  put_optional(out, "max_angular_velocity", body.max_angular_velocity);
  if (body.object_layer) out["object_layer"] = *body.object_layer;
  if (body.allowed_dofs) out["allowed_dofs"] = allowed_dofs_json(*body.allowed_dofs);
  return out;
}

Json event_json(const EventDesc& event) {
  Json out = Json::object();
  out["step"] = event.step;
  out["action"] = scene_action_name(event.action);
  out["body"] = event.body;
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
  const PhysicsSettings defaults;
  for (const PhysicsSettingField& field : physics_setting_fields()) {
    if (same_setting(field, scene.physics, defaults)) continue;
    std::visit(
        [&](auto member) {
          const auto& value = scene.physics.*member;
          using T = std::decay_t<decltype(value)>;
          if constexpr (std::is_same_v<T, Vec3>)
            out[field.name] = vec3(value);
          else if constexpr (std::is_same_v<T, float>)
            out[field.name] = real(value);
          else
            out[field.name] = value;
        },
        field.member);
  }
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
    for (const NamedShapeDesc& shape : scene.shapes) shapes[shape.name] = shape_json(shape.shape);
    root["shapes"] = std::move(shapes);
  }
  Json bodies = Json::array();
  for (const BodyDesc& body : scene.bodies) bodies.push_back(body_json(body));
  root["bodies"] = std::move(bodies);
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
