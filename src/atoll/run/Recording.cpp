#include "atoll/run/Recording.h"

#include <bit>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>

#include "atoll/scene/SceneJson.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/CapsuleShape.h"
#include "atoll/shape/ConvexHullShape.h"
#include "atoll/shape/CylinderShape.h"
#include "atoll/shape/HeightFieldShape.h"
#include "atoll/shape/RotatedTranslatedShape.h"
#include "atoll/shape/ScaledShape.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/shape/StaticCompoundShape.h"
#include "atoll/shape/TriangleMeshShape.h"

namespace atl {

using scene_json::Json;

namespace {

constexpr size_t k_preamble_bytes = 16;
constexpr size_t k_floats_per_body = 7;  // x, y, z, qx, qy, qz, qw

// The leaf types a part can have, in the order the reader tries their names.
constexpr ShapeSubType k_part_types[] = {ShapeSubType::Sphere,     ShapeSubType::Box,
                                         ShapeSubType::Capsule,    ShapeSubType::Cylinder,
                                         ShapeSubType::ConvexHull, ShapeSubType::TriangleMesh,
                                         ShapeSubType::HeightField};

// --- Little-endian encoding (explicit, so that the file is the same on any host) -------------

void put_u32(unsigned char* out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<unsigned char>(value >> (8 * i));
}

void put_f32(unsigned char* out, float value) { put_u32(out, std::bit_cast<uint32_t>(value)); }

uint32_t get_u32(const unsigned char* in) {
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value |= uint32_t(in[i]) << (8 * i);
  return value;
}

float get_f32(const unsigned char* in) { return std::bit_cast<float>(get_u32(in)); }

// --- Shapes as parts --------------------------------------------------------------------------

bool is_uniform(const Vec3& scale) { return scale.x() == scale.y() && scale.y() == scale.z(); }

// Appends the parts of `shape` placed at (position, rotation, scale) in the body's shape space.
void add_parts(const Shape& shape, const Vec3& position, const Quat& rotation, const Vec3& scale,
               std::vector<RecordedPart>& out) {
  // A child placed at (p, R) inside a space scaled by S lands at S·p, and S·R = R·S' with
  // S' = diag(Rᵀ·S·R): shapes only accept scales for which that matrix is diagonal
  // (Shape::is_valid_scale). A uniform scale passes unchanged, free of rounding.
  const auto place = [&](const Shape& child, const Vec3& p, const Quat& r, const Vec3& s_child) {
    add_parts(child, position + rotation * (scale * p), (rotation * r).normalized(), s_child, out);
  };
  switch (shape.sub_type()) {
    case ShapeSubType::RotatedTranslated: {
      const auto& rt = static_cast<const RotatedTranslatedShape&>(shape);
      place(*rt.inner(), rt.position(), rt.rotation(),
            is_uniform(scale) ? scale : rt.inner_scale(scale));
      return;
    }
    case ShapeSubType::Scaled: {
      const auto& scaled = static_cast<const ScaledShape&>(shape);
      add_parts(*scaled.inner(), position, rotation, scale * scaled.scale(), out);
      return;
    }
    case ShapeSubType::OffsetCenterOfMass:
      // Moves the centre of mass only; the geometry stays.
      add_parts(*static_cast<const DecoratedShape&>(shape).inner(), position, rotation, scale, out);
      return;
    case ShapeSubType::StaticCompound: {
      const auto& compound = static_cast<const StaticCompoundShape&>(shape);
      for (uint32_t i = 0; i < compound.num_children(); ++i) {
        const StaticCompoundShape::Child& child = compound.child(i);
        place(*child.shape, child.position, child.rotation,
              is_uniform(scale) ? scale : compound.child_scale(i, scale));
      }
      return;
    }
    default:
      break;
  }

  RecordedPart& part = out.emplace_back();
  part.type = shape.sub_type();
  part.position = position;
  part.rotation = rotation;
  part.scale = scale;
  switch (shape.sub_type()) {
    case ShapeSubType::Sphere:
      part.radius = static_cast<const SphereShape&>(shape).radius();
      break;
    case ShapeSubType::Box: {
      const auto& box = static_cast<const BoxShape&>(shape);
      part.half_extent = box.half_extent();
      part.convex_radius = box.convex_radius();
      break;
    }
    case ShapeSubType::Capsule: {
      const auto& capsule = static_cast<const CapsuleShape&>(shape);
      part.half_height = capsule.half_height_of_cylinder();
      part.radius = capsule.radius();
      break;
    }
    case ShapeSubType::Cylinder: {
      const auto& cylinder = static_cast<const CylinderShape&>(shape);
      part.half_height = cylinder.half_height();
      part.radius = cylinder.radius();
      part.convex_radius = cylinder.convex_radius();
      break;
    }
    case ShapeSubType::ConvexHull: {
      const auto& hull = static_cast<const ConvexHullShape&>(shape);
      for (const Vec3& v : hull.vertices())
        part.vertices.insert(part.vertices.end(), {v.x(), v.y(), v.z()});
      // Faces are convex polygons: a fan from their first vertex keeps the winding.
      for (const ConvexHull::Face& face : hull.faces())
        for (uint32_t k = 2; k < face.num_indices; ++k)
          part.triangles.insert(
              part.triangles.end(),
              {hull.face_indices()[face.first_index], hull.face_indices()[face.first_index + k - 1],
               hull.face_indices()[face.first_index + k]});
      part.convex_radius = hull.convex_radius();
      break;
    }
    case ShapeSubType::TriangleMesh: {
      const auto& mesh = static_cast<const TriangleMeshShape&>(shape);
      for (const Float3& v : mesh.vertices())
        part.vertices.insert(part.vertices.end(), {v.x, v.y, v.z});
      for (const IndexedTriangle& t : mesh.triangles())
        part.triangles.insert(part.triangles.end(), {t.idx[0], t.idx[1], t.idx[2]});
      break;
    }
    case ShapeSubType::HeightField: {
      // Sample (x, z) is at offset + spacing ⊙ (x, h, z): the offset and the spacing fold into
      // the placement, so that a viewer draws the plain grid (x, h, z).
      const auto& field = static_cast<const HeightFieldShape&>(shape);
      part.position = position + rotation * (scale * field.offset());
      part.scale = scale * field.scale();
      part.sample_count = field.sample_count();
      part.heights.reserve(size_t(field.sample_count()) * field.sample_count());
      for (uint32_t z = 0; z < field.sample_count(); ++z)
        for (uint32_t x = 0; x < field.sample_count(); ++x)
          part.heights.push_back(field.height(x, z));
      break;
    }
    default:
      ATOLL_ASSERT(false, "every shape type is a decorator, a compound or a leaf");
  }
}

Json part_json(const RecordedPart& part) {
  using scene_json::quat;
  using scene_json::real;
  using scene_json::vec3;
  Json out = Json::object();
  out["type"] = shape_sub_type_name(part.type);
  out["position"] = vec3(part.position);
  out["rotation"] = quat(part.rotation);
  out["scale"] = vec3(part.scale);
  switch (part.type) {
    case ShapeSubType::Sphere:
      out["radius"] = real(part.radius);
      break;
    case ShapeSubType::Box:
      out["half_extent"] = vec3(part.half_extent);
      out["convex_radius"] = real(part.convex_radius);
      break;
    case ShapeSubType::Capsule:
      out["half_height"] = real(part.half_height);
      out["radius"] = real(part.radius);
      break;
    case ShapeSubType::Cylinder:
      out["half_height"] = real(part.half_height);
      out["radius"] = real(part.radius);
      out["convex_radius"] = real(part.convex_radius);
      break;
    case ShapeSubType::ConvexHull:
    case ShapeSubType::TriangleMesh: {
      Json vertices = Json::array();
      for (float v : part.vertices) vertices.push_back(real(v));
      out["vertices"] = std::move(vertices);
      out["triangles"] = part.triangles;
      if (part.type == ShapeSubType::ConvexHull) out["convex_radius"] = real(part.convex_radius);
      break;
    }
    case ShapeSubType::HeightField: {
      out["sample_count"] = part.sample_count;
      Json heights = Json::array();
      for (float h : part.heights)
        heights.push_back(h == HeightFieldShape::k_no_collision ? Json(nullptr) : real(h));
      out["heights"] = std::move(heights);
      break;
    }
    default:
      break;
  }
  return out;
}

Json soft_body_json(const RecordedSoftBody& soft) {
  Json edges = Json::array();
  for (const std::array<uint32_t, 2>& e : soft.edges) edges.push_back(Json::array({e[0], e[1]}));
  Json faces = Json::array();
  for (const std::array<uint32_t, 3>& f : soft.faces)
    faces.push_back(Json::array({f[0], f[1], f[2]}));
  return Json::object({{"name", soft.name},
                       {"vertex_count", soft.vertex_count},
                       {"vertex_radius", scene_json::real(soft.vertex_radius)},
                       {"edges", std::move(edges)},
                       {"faces", std::move(faces)}});
}

std::string header_text(const RecordingHeader& header) {
  Json root = Json::object();
  root["source"] = header.source;
  root["dt"] = scene_json::real(header.dt);
  root["steps"] = header.steps;
  Json shapes = Json::array();
  for (const RecordedShape& shape : header.shapes) {
    Json parts = Json::array();
    for (const RecordedPart& part : shape.parts) parts.push_back(part_json(part));
    shapes.push_back(Json::object({{"parts", std::move(parts)}}));
  }
  root["shapes"] = std::move(shapes);
  Json bodies = Json::array();
  for (const RecordedBody& body : header.bodies)
    bodies.push_back(Json::object({{"name", body.name},
                                   {"motion", motion_type_name(body.motion_type)},
                                   {"shape", body.shape}}));
  root["bodies"] = std::move(bodies);
  if (!header.constraints.empty()) {
    Json constraints = Json::array();
    for (const RecordedConstraint& c : header.constraints)
      constraints.push_back(Json::object({{"name", c.name},
                                          {"type", c.type},
                                          {"body1", c.body1},
                                          {"body2", c.body2},
                                          {"point1", scene_json::vec3(c.point1)},
                                          {"point2", scene_json::vec3(c.point2)}}));
    root["constraints"] = std::move(constraints);
  }
  // Like the constraints, only when there are some: a recording without soft bodies has the
  // header (and the frames) of version 2.
  if (!header.soft_bodies.empty()) {
    Json soft_bodies = Json::array();
    for (const RecordedSoftBody& soft : header.soft_bodies)
      soft_bodies.push_back(soft_body_json(soft));
    root["soft_bodies"] = std::move(soft_bodies);
  }
  Json stats = Json::array();
  for (const std::string& name : header.stats) stats.push_back(name);
  root["stats"] = std::move(stats);
  root["contacts"] = header.contacts;
  if (header.contacts) root["max_contacts_per_frame"] = header.max_contacts_per_frame;
  std::string text = scene_json::compact_text(root);
  // Spaces up to a multiple of 4 bytes, so that the frames that follow are aligned for a
  // Float32Array view.
  text.append((4 - (k_preamble_bytes + text.size()) % 4) % 4, ' ');
  return text;
}

std::string system_error_text() { return std::strerror(errno); }

// --- Reading the header -----------------------------------------------------------------------

using scene_json::element_path;
using scene_json::member_path;
using scene_json::require;

RecordedPart read_part(const Json& value, const std::string& path) {
  scene_json::expect_object(value, path);
  RecordedPart part;
  const Json& type = require(value, path, "type");
  const std::string name = scene_json::read_string(type, member_path(path, "type"));
  bool known = false;
  for (ShapeSubType t : k_part_types) {
    if (name == shape_sub_type_name(t)) {
      part.type = t;
      known = true;
    }
  }
  if (!known)
    scene_json::fail(member_path(path, "type"), "unknown part type " + scene_json::describe(type));
  const auto field = [&](std::string_view key) -> std::pair<const Json&, std::string> {
    return {require(value, path, key), member_path(path, key)};
  };
  const auto read_float_field = [&](std::string_view key) {
    auto [json, at] = field(key);
    return scene_json::read_float(json, at);
  };
  {
    auto [json, at] = field("position");
    part.position = scene_json::read_vec3(json, at);
  }
  {
    auto [json, at] = field("rotation");
    part.rotation = scene_json::read_rotation(json, at);
  }
  {
    auto [json, at] = field("scale");
    part.scale = scene_json::read_vec3(json, at);
  }
  switch (part.type) {
    case ShapeSubType::Sphere:
      part.radius = read_float_field("radius");
      break;
    case ShapeSubType::Box: {
      auto [json, at] = field("half_extent");
      part.half_extent = scene_json::read_vec3(json, at);
      part.convex_radius = read_float_field("convex_radius");
      break;
    }
    case ShapeSubType::Capsule:
      part.half_height = read_float_field("half_height");
      part.radius = read_float_field("radius");
      break;
    case ShapeSubType::Cylinder:
      part.half_height = read_float_field("half_height");
      part.radius = read_float_field("radius");
      part.convex_radius = read_float_field("convex_radius");
      break;
    case ShapeSubType::ConvexHull:
    case ShapeSubType::TriangleMesh: {
      auto [vertices, vertices_at] = field("vertices");
      scene_json::expect_array(vertices, vertices_at);
      if (vertices.size() % 3 != 0)
        scene_json::fail(vertices_at, "expected x, y, z triples, got " +
                                          std::to_string(vertices.size()) + " numbers");
      for (size_t i = 0; i < vertices.size(); ++i)
        part.vertices.push_back(scene_json::read_float(vertices[i], element_path(vertices_at, i)));
      auto [triangles, triangles_at] = field("triangles");
      scene_json::expect_array(triangles, triangles_at);
      if (triangles.size() % 3 != 0)
        scene_json::fail(triangles_at, "expected index triples, got " +
                                           std::to_string(triangles.size()) + " indices");
      const int64_t max_index = int64_t(part.vertices.size() / 3) - 1;
      for (size_t i = 0; i < triangles.size(); ++i)
        part.triangles.push_back(uint32_t(
            scene_json::read_int(triangles[i], element_path(triangles_at, i), 0, max_index)));
      if (part.type == ShapeSubType::ConvexHull)
        part.convex_radius = read_float_field("convex_radius");
      break;
    }
    case ShapeSubType::HeightField: {
      auto [count, count_at] = field("sample_count");
      part.sample_count = uint32_t(scene_json::read_int(count, count_at, 2, 32768));
      auto [heights, heights_at] = field("heights");
      scene_json::expect_array(heights, heights_at);
      const size_t expected = size_t(part.sample_count) * part.sample_count;
      if (heights.size() != expected)
        scene_json::fail(heights_at, "expected sample_count² = " + std::to_string(expected) +
                                         " heights, got " + std::to_string(heights.size()));
      for (size_t i = 0; i < heights.size(); ++i)
        part.heights.push_back(
            heights[i].is_null() ? HeightFieldShape::k_no_collision
                                 : scene_json::read_float(heights[i], element_path(heights_at, i)));
      break;
    }
    default:
      break;
  }
  return part;
}

// `count` vertex indices at `path` (an edge's pair, a face's triple), each < vertex_count.
template <size_t count>
std::array<uint32_t, count> read_indices(const Json& value, const std::string& path,
                                         uint32_t vertex_count) {
  scene_json::expect_array(value, path);
  if (value.size() != count)
    scene_json::fail(path, "expected " + std::to_string(count) + " vertex indices, got " +
                               scene_json::describe(value));
  std::array<uint32_t, count> out{};
  for (size_t i = 0; i < count; ++i)
    out[i] = uint32_t(
        scene_json::read_int(value[i], element_path(path, i), 0, int64_t(vertex_count) - 1));
  return out;
}

RecordedSoftBody read_soft_body(const Json& object, const std::string& at) {
  scene_json::expect_object(object, at);
  RecordedSoftBody soft;
  soft.name = scene_json::read_name(require(object, at, "name"), member_path(at, "name"));
  // Any count a uint32 holds is read; read_recording then checks it against the file's size.
  soft.vertex_count = uint32_t(scene_json::read_int(
      require(object, at, "vertex_count"), member_path(at, "vertex_count"), 1, UINT32_MAX));
  soft.vertex_radius = scene_json::read_non_negative(require(object, at, "vertex_radius"),
                                                     member_path(at, "vertex_radius"));
  const Json& edges = require(object, at, "edges");
  const std::string edges_at = member_path(at, "edges");
  scene_json::expect_array(edges, edges_at);
  for (size_t i = 0; i < edges.size(); ++i)
    soft.edges.push_back(read_indices<2>(edges[i], element_path(edges_at, i), soft.vertex_count));
  const Json& faces = require(object, at, "faces");
  const std::string faces_at = member_path(at, "faces");
  scene_json::expect_array(faces, faces_at);
  for (size_t i = 0; i < faces.size(); ++i)
    soft.faces.push_back(read_indices<3>(faces[i], element_path(faces_at, i), soft.vertex_count));
  return soft;
}

RecordingHeader read_header(const Json& root, uint32_t version) {
  const std::string path = "header";
  scene_json::expect_object(root, path);
  RecordingHeader header;
  header.source = scene_json::read_string(require(root, path, "source"), "header.source");
  header.dt = scene_json::read_positive(require(root, path, "dt"), "header.dt");
  header.steps = int(scene_json::read_int(require(root, path, "steps"), "header.steps", 0,
                                          std::numeric_limits<int>::max() - 1));
  const Json& shapes = require(root, path, "shapes");
  scene_json::expect_array(shapes, "header.shapes");
  for (size_t s = 0; s < shapes.size(); ++s) {
    const std::string shape_path = element_path("header.shapes", s);
    scene_json::expect_object(shapes[s], shape_path);
    const Json& parts = require(shapes[s], shape_path, "parts");
    const std::string parts_path = member_path(shape_path, "parts");
    scene_json::expect_array(parts, parts_path);
    RecordedShape& shape = header.shapes.emplace_back();
    for (size_t p = 0; p < parts.size(); ++p)
      shape.parts.push_back(read_part(parts[p], element_path(parts_path, p)));
  }
  const Json& bodies = require(root, path, "bodies");
  scene_json::expect_array(bodies, "header.bodies");
  for (size_t b = 0; b < bodies.size(); ++b) {
    const std::string body_path = element_path("header.bodies", b);
    scene_json::expect_object(bodies[b], body_path);
    RecordedBody& body = header.bodies.emplace_back();
    body.name = scene_json::read_name(require(bodies[b], body_path, "name"),
                                      member_path(body_path, "name"));
    body.motion_type = scene_json::read_enum<MotionType>(require(bodies[b], body_path, "motion"),
                                                         member_path(body_path, "motion"), "motion",
                                                         {{"static", MotionType::Static},
                                                          {"kinematic", MotionType::Kinematic},
                                                          {"dynamic", MotionType::Dynamic}});
    body.shape = uint32_t(scene_json::read_int(require(bodies[b], body_path, "shape"),
                                               member_path(body_path, "shape"), 0,
                                               int64_t(header.shapes.size()) - 1));
  }
  if (const auto it = root.find("constraints"); it != root.end()) {
    scene_json::expect_array(*it, "header.constraints");
    const int64_t last_body = int64_t(header.bodies.size()) - 1;
    for (size_t c = 0; c < it->size(); ++c) {
      const std::string at = element_path("header.constraints", c);
      const Json& object = (*it)[c];
      scene_json::expect_object(object, at);
      RecordedConstraint& constraint = header.constraints.emplace_back();
      constraint.name = scene_json::read_name(require(object, at, "name"), member_path(at, "name"));
      constraint.type = scene_json::read_name(require(object, at, "type"), member_path(at, "type"));
      constraint.body1 = int(scene_json::read_int(require(object, at, "body1"),
                                                  member_path(at, "body1"), -1, last_body));
      constraint.body2 = int(scene_json::read_int(require(object, at, "body2"),
                                                  member_path(at, "body2"), -1, last_body));
      constraint.point1 =
          scene_json::read_vec3(require(object, at, "point1"), member_path(at, "point1"));
      constraint.point2 =
          scene_json::read_vec3(require(object, at, "point2"), member_path(at, "point2"));
    }
  }
  if (version >= 2) {
    const Json& stats = require(root, path, "stats");
    scene_json::expect_array(stats, "header.stats");
    for (size_t i = 0; i < stats.size(); ++i)
      header.stats.push_back(scene_json::read_name(stats[i], element_path("header.stats", i)));
    const Json& contacts = require(root, path, "contacts");
    if (!contacts.is_boolean())
      scene_json::fail("header.contacts",
                       "expected true or false, got " + scene_json::describe(contacts));
    header.contacts = contacts.get<bool>();
    if (header.contacts)
      header.max_contacts_per_frame =
          uint32_t(scene_json::read_int(require(root, path, "max_contacts_per_frame"),
                                        "header.max_contacts_per_frame", 0, int64_t(UINT32_MAX)));
  }
  // Before version 3 the frames have no soft bodies, whatever the header says.
  if (const auto it = root.find("soft_bodies"); version >= 3 && it != root.end()) {
    scene_json::expect_array(*it, "header.soft_bodies");
    for (size_t i = 0; i < it->size(); ++i)
      header.soft_bodies.push_back(read_soft_body((*it)[i], element_path("header.soft_bodies", i)));
  }
  return header;
}

// Kinetic energy (J) of a body: ½·m·v² + ½·ωᵀ·I·ω (0 for static bodies and infinite mass).
double kinetic_energy(const Body& body) {
  const MotionProperties* motion = body.motion_properties();
  if (motion == nullptr || body.motion_type() != MotionType::Dynamic) return 0.0;
  double energy = 0.0;
  if (motion->inverse_mass() > 0.0f)
    energy += 0.5 * double(body.linear_velocity().length_sq()) / double(motion->inverse_mass());
  // ω in principal-axis space: I = diag(1 / inverse_inertia_diagonal) there.
  const Vec3 w =
      (body.rotation() * motion->inertia_rotation()).conjugated() * body.angular_velocity();
  const Vec3& inv_inertia = motion->inverse_inertia_diagonal();
  for (int axis = 0; axis < 3; ++axis)
    if (inv_inertia[axis] > 0.0f)
      energy += 0.5 * double(w[axis]) * double(w[axis]) / double(inv_inertia[axis]);
  return energy;
}

// Vertices of all the soft bodies: at most 2^32 − 1 each, and fewer soft bodies than header
// bytes, so the sum fits 64 bits.
uint64_t total_vertices(const RecordingHeader& header) {
  uint64_t sum = 0;
  for (const RecordedSoftBody& soft : header.soft_bodies) sum += soft.vertex_count;
  return sum;
}

}  // namespace

RecordedShape describe_shape(const Shape& shape) {
  RecordedShape out;
  add_parts(shape, Vec3::zero(), Quat::identity(), Vec3::replicate(1.0f), out.parts);
  return out;
}

// --- Writer -----------------------------------------------------------------------------------

Result<std::unique_ptr<RecordingWriter>> RecordingWriter::create(
    const std::filesystem::path& path, const BodyManager& bodies, std::span<const BodyID> ids,
    std::span<const std::string> names, float dt, int steps, std::string_view source,
    std::span<const RecordedConstraint> constraints, const RecordingOptions& options,
    std::span<const RecordedSoftBody> soft_bodies) {
  ATOLL_ASSERT(ids.size() == names.size(), "one name per body");
  ATOLL_ASSERT(steps >= 0 && dt > 0.0f);
  RecordingHeader header;
  header.source = source;
  header.dt = dt;
  header.steps = steps;
  std::map<const Shape*, uint32_t> shape_index;  // lookup only: the order is the bodies'
  for (size_t i = 0; i < ids.size(); ++i) {
    const Body* body = bodies.get(ids[i]);
    if (body == nullptr)
      return Error(path.string() + ": cannot record body \"" + names[i] + "\": it does not exist");
    auto [it, inserted] = shape_index.emplace(body->shape().get(), uint32_t(header.shapes.size()));
    if (inserted) header.shapes.push_back(describe_shape(*body->shape()));
    header.bodies.push_back({names[i], body->motion_type(), it->second});
  }
  header.constraints.assign(constraints.begin(), constraints.end());
  for (const char* name : k_recording_stat_names) header.stats.emplace_back(name);
  for (int s = 0; s < k_num_stages; ++s)
    header.stats.push_back(std::string("ms_") + stage_name(static_cast<Stage>(s)));
  header.contacts = options.contacts;
  header.max_contacts_per_frame = options.contacts ? options.max_contacts_per_frame : 0;
  header.soft_bodies.assign(soft_bodies.begin(), soft_bodies.end());

  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return Error(path.string() + ": cannot write: is a directory");
  std::unique_ptr<RecordingWriter> writer(new RecordingWriter());
  writer->path_ = path;
  writer->temp_path_ = path;
  writer->temp_path_ += ".partial";
  writer->file_ = std::fopen(writer->temp_path_.c_str(), "wb");
  if (writer->file_ == nullptr)
    return Error(path.string() + ": cannot write: " + system_error_text());
  if (options.contacts) {
    writer->contacts_path_ = path;
    writer->contacts_path_ += ".contacts.partial";
    writer->contacts_file_ = std::fopen(writer->contacts_path_.c_str(), "w+b");
    if (writer->contacts_file_ == nullptr) {
      const std::string reason = system_error_text();
      writer->discard();
      return Error(path.string() + ": cannot write: " + reason);
    }
  }
  writer->options_ = options;
  writer->ids_.assign(ids.begin(), ids.end());
  writer->num_constraints_ = constraints.size();
  for (const RecordedSoftBody& soft : soft_bodies) {
    ATOLL_ASSERT(soft.vertex_count > 0, "a soft body has vertices");
    writer->soft_vertex_counts_.push_back(soft.vertex_count);
  }
  writer->expected_frames_ = steps + 1;
  writer->frame_.assign(
      Recording::frame_bytes_v2(ids.size(), constraints.size(), header.stats.size()) +
          Recording::soft_body_section_bytes(soft_bodies.size(), total_vertices(header)),
      0);

  const std::string text = header_text(header);
  unsigned char preamble[k_preamble_bytes];
  std::memcpy(preamble, k_recording_magic, sizeof(k_recording_magic));
  put_u32(preamble + 8, k_recording_version);
  put_u32(preamble + 12, uint32_t(text.size()));
  std::fwrite(preamble, 1, sizeof(preamble), writer->file_);
  std::fwrite(text.data(), 1, text.size(), writer->file_);
  return writer;
}

RecordingWriter::~RecordingWriter() { discard(); }

void RecordingWriter::discard() {
  std::error_code ec;
  if (contacts_file_ != nullptr) {
    std::fclose(contacts_file_);
    contacts_file_ = nullptr;
    std::filesystem::remove(contacts_path_, ec);
  }
  if (file_ == nullptr) return;
  std::fclose(file_);
  file_ = nullptr;
  std::filesystem::remove(temp_path_, ec);
}

void RecordingWriter::add_frame(const BodyManager& bodies) { add_frame(bodies, {}); }

void RecordingWriter::add_frame(const BodyManager& bodies, const RecordingFrameInfo& info) {
  ++frames_;
  if (file_ == nullptr) return;
  const size_t n = ids_.size();
  unsigned char* poses = frame_.data();
  unsigned char* flags = frame_.data() + n * k_floats_per_body * 4;
  unsigned char* constraint_flags = flags + n;
  // States are known when given for exactly the recorded constraints (a recording may leave the
  // world's constraints out).
  const bool known_states = info.constraint_flags.size() == num_constraints_;
  for (size_t c = 0; c < num_constraints_; ++c)
    constraint_flags[c] = known_states ? info.constraint_flags[c] : 0;
  double energy = 0.0;
  uint32_t active = 0;
  for (size_t i = 0; i < n; ++i) {
    const Body* body = bodies.get(ids_[i]);
    // A destroyed body: flags 0 (not in the simulation), identity pose.
    const Vec3 p = body != nullptr ? body->position() : Vec3::zero();
    const Quat q = body != nullptr ? body->rotation() : Quat::identity();
    const float values[k_floats_per_body] = {p.x(), p.y(), p.z(), q.x(), q.y(), q.z(), q.w()};
    for (size_t k = 0; k < k_floats_per_body; ++k)
      put_f32(poses + (i * k_floats_per_body + k) * 4, values[k]);
    uint8_t f = 0;
    if (body != nullptr) {
      if (body->is_active()) f |= k_recording_active;
      if (body->is_added()) f |= k_recording_added;
      if (body->is_quarantined()) f |= k_recording_quarantined;
      f |= uint8_t(uint8_t(body->motion_type()) << k_recording_motion_type_shift);
      if (body->is_added()) energy += kinetic_energy(*body);
      if (body->is_added() && body->is_active()) ++active;
    }
    flags[i] = f;
  }
  const size_t num_stats = k_recording_num_base_stats + k_num_stages;
  // The version-2 part of the frame ends with the figures and the contact index; the soft
  // bodies follow it.
  const size_t v2_bytes = Recording::frame_bytes_v2(n, num_constraints_, num_stats);
  unsigned char* stats = frame_.data() + v2_bytes - k_recording_contact_index_bytes - num_stats * 4;
  put_f32(stats, float(energy));
  put_f32(stats + 4, info.max_penetration);
  put_f32(stats + 8, float(active));
  put_f32(stats + 12, float(info.num_contacts));
  for (int s = 0; s < k_num_stages; ++s)
    put_f32(stats + (k_recording_num_base_stats + size_t(s)) * 4, float(info.stage_ms[size_t(s)]));
  uint32_t kept = 0;
  if (contacts_file_ != nullptr) {
    kept = uint32_t(std::min<size_t>(info.contacts.size(), options_.max_contacts_per_frame));
    unsigned char record[k_recording_contact_bytes];
    for (uint32_t c = 0; c < kept; ++c) {
      const RecordedContact& contact = info.contacts[c];
      const float values[7] = {contact.point.x(),  contact.point.y(),  contact.point.z(),
                               contact.normal.x(), contact.normal.y(), contact.normal.z(),
                               contact.penetration};
      for (size_t k = 0; k < 7; ++k) put_f32(record + k * 4, values[k]);
      std::fwrite(record, 1, sizeof(record), contacts_file_);
    }
  }
  unsigned char* index = frame_.data() + v2_bytes - k_recording_contact_index_bytes;
  put_u32(index, uint32_t(num_contacts_));
  put_u32(index + 4, kept);
  num_contacts_ += kept;
  // Soft bodies: the flags bytes, zero padding (left as the frame was made), the positions.
  const size_t num_soft = soft_vertex_counts_.size();
  unsigned char* soft_flags = frame_.data() + v2_bytes;
  unsigned char* vertex = soft_flags + (num_soft + 3) / 4 * 4;
  const bool known_soft = info.soft_bodies.size() == num_soft;
  for (size_t j = 0; j < num_soft; ++j) {
    const uint32_t count = soft_vertex_counts_[j];
    const RecordingSoftBodyFrame* given = known_soft ? &info.soft_bodies[j] : nullptr;
    ATOLL_ASSERT(given == nullptr || given->positions.empty() || given->positions.size() == count,
                 "a soft body's positions are one per recorded vertex, or none");
    const bool present = given != nullptr && given->positions.size() == count;
    soft_flags[j] =
        present
            ? uint8_t(given->flags & (k_recording_soft_body_active | k_recording_soft_body_added))
            : 0;
    for (uint32_t v = 0; v < count; ++v, vertex += k_recording_vertex_bytes) {
      const Vec3 p = present ? given->positions[v] : Vec3::zero();
      put_f32(vertex, p.x());
      put_f32(vertex + 4, p.y());
      put_f32(vertex + 8, p.z());
    }
  }
  std::fwrite(frame_.data(), 1, frame_.size(), file_);
}

Status RecordingWriter::finish() {
  if (file_ == nullptr) return Error(path_.string() + ": recording already finished");
  if (frames_ != expected_frames_) {
    discard();
    return Error(path_.string() + ": recording has " + std::to_string(frames_) +
                 " frames, expected steps + 1 = " + std::to_string(expected_frames_));
  }
  if (num_contacts_ > UINT32_MAX) {
    discard();
    return Error(path_.string() + ": cannot write: " + std::to_string(num_contacts_) +
                 " contacts, more than a recording indexes (2^32 - 1); lower "
                 "max_contacts_per_frame");
  }
  // The contacts follow the frames.
  bool copied = true;
  if (contacts_file_ != nullptr) {
    copied = std::fflush(contacts_file_) == 0 && std::fseek(contacts_file_, 0, SEEK_SET) == 0;
    char buffer[1 << 16];
    size_t got = 0;
    while (copied && (got = std::fread(buffer, 1, sizeof(buffer), contacts_file_)) > 0)
      copied = std::fwrite(buffer, 1, got, file_) == got;
    copied = copied && std::ferror(contacts_file_) == 0;
    std::fclose(contacts_file_);
    contacts_file_ = nullptr;
    std::error_code ignored;
    std::filesystem::remove(contacts_path_, ignored);
  }
  const bool written = copied && std::ferror(file_) == 0;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  std::error_code ec;
  if (!written || !closed) {
    std::filesystem::remove(temp_path_, ec);
    return Error(path_.string() + ": cannot write: " + system_error_text());
  }
  std::filesystem::rename(temp_path_, path_, ec);
  if (ec) {
    std::filesystem::remove(temp_path_, ec);
    return Error(path_.string() + ": cannot write: " + ec.message());
  }
  return Ok{};
}

// --- Reader -----------------------------------------------------------------------------------

size_t Recording::frame_bytes(size_t num_bodies) {
  const size_t bytes = num_bodies * (k_floats_per_body * 4 + 1);
  return (bytes + 3) / 4 * 4;
}

size_t Recording::frame_bytes_v2(size_t num_bodies, size_t num_constraints, size_t num_stats) {
  const size_t flags_end = num_bodies * (k_floats_per_body * 4 + 1) + num_constraints;
  return (flags_end + 3) / 4 * 4 + 4 * num_stats + k_recording_contact_index_bytes;
}

size_t Recording::soft_body_section_bytes(size_t num_soft_bodies, size_t num_vertices) {
  if (num_soft_bodies == 0) return 0;
  return (num_soft_bodies + 3) / 4 * 4 + k_recording_vertex_bytes * num_vertices;
}

size_t Recording::bytes_per_frame() const {
  if (version == 1) return frame_bytes(header.bodies.size());
  const size_t v2 =
      frame_bytes_v2(header.bodies.size(), header.constraints.size(), header.stats.size());
  if (version == 2) return v2;
  return v2 + soft_body_section_bytes(header.soft_bodies.size(), size_t(total_vertices(header)));
}

size_t Recording::stats_offset() const {
  const size_t flags_end =
      header.bodies.size() * (k_floats_per_body * 4 + 1) + header.constraints.size();
  return (flags_end + 3) / 4 * 4;
}

size_t Recording::contact_index_offset() const { return stats_offset() + 4 * header.stats.size(); }

size_t Recording::soft_body_flags_offset() const {
  return contact_index_offset() + k_recording_contact_index_bytes;
}

size_t Recording::soft_body_positions_offset(size_t soft) const {
  ATOLL_ASSERT(soft < header.soft_bodies.size());
  size_t before = 0;
  for (size_t j = 0; j < soft; ++j) before += header.soft_bodies[j].vertex_count;
  return soft_body_flags_offset() + (header.soft_bodies.size() + 3) / 4 * 4 +
         k_recording_vertex_bytes * before;
}

size_t Recording::num_frames() const { return size_t(header.steps) + 1; }

std::vector<float> Recording::stats(size_t frame) const {
  ATOLL_ASSERT(frame < num_frames());
  std::vector<float> out;
  if (version == 1) return out;
  const unsigned char* first = frame_data.data() + frame * bytes_per_frame() + stats_offset();
  for (size_t i = 0; i < header.stats.size(); ++i) out.push_back(get_f32(first + 4 * i));
  return out;
}

uint8_t Recording::constraint_flags(size_t frame, size_t constraint) const {
  ATOLL_ASSERT(frame < num_frames() && constraint < header.constraints.size());
  if (version == 1) return 0;
  const size_t n = header.bodies.size();
  return frame_data[frame * bytes_per_frame() + n * (k_floats_per_body * 4 + 1) + constraint];
}

std::vector<RecordedContact> Recording::contacts(size_t frame) const {
  ATOLL_ASSERT(frame < num_frames());
  std::vector<RecordedContact> out;
  if (version == 1) return out;
  const unsigned char* index =
      frame_data.data() + frame * bytes_per_frame() + contact_index_offset();
  const size_t first = get_u32(index), count = get_u32(index + 4);
  for (size_t c = 0; c < count; ++c) {
    const unsigned char* record = contact_data.data() + (first + c) * k_recording_contact_bytes;
    RecordedContact& contact = out.emplace_back();
    contact.point = Vec3(get_f32(record), get_f32(record + 4), get_f32(record + 8));
    contact.normal = Vec3(get_f32(record + 12), get_f32(record + 16), get_f32(record + 20));
    contact.penetration = get_f32(record + 24);
  }
  return out;
}

RecordedSoftBodyState Recording::soft_body_state(size_t frame, size_t soft) const {
  ATOLL_ASSERT(frame < num_frames() && soft < header.soft_bodies.size());
  const unsigned char* base = frame_data.data() + frame * bytes_per_frame();
  RecordedSoftBodyState state;
  state.flags = base[soft_body_flags_offset() + soft];
  const unsigned char* vertex = base + soft_body_positions_offset(soft);
  state.positions.reserve(header.soft_bodies[soft].vertex_count);
  for (uint32_t v = 0; v < header.soft_bodies[soft].vertex_count;
       ++v, vertex += k_recording_vertex_bytes)
    state.positions.emplace_back(get_f32(vertex), get_f32(vertex + 4), get_f32(vertex + 8));
  return state;
}

RecordedBodyState Recording::state(size_t frame, size_t body) const {
  const size_t n = header.bodies.size();
  ATOLL_ASSERT(frame < num_frames() && body < n);
  const unsigned char* base = frame_data.data() + frame * bytes_per_frame();
  const unsigned char* pose = base + body * k_floats_per_body * 4;
  RecordedBodyState state;
  state.position = Vec3(get_f32(pose), get_f32(pose + 4), get_f32(pose + 8));
  state.rotation =
      Quat(get_f32(pose + 12), get_f32(pose + 16), get_f32(pose + 20), get_f32(pose + 24));
  state.flags = base[n * k_floats_per_body * 4 + body];
  return state;
}

namespace {

// What is wrong with the soft bodies' flags bytes of frame k, or "": each has bits 0–1 only and
// the padding after them is zero; anything else is a frame that was overwritten or shifted.
std::string soft_body_flags_problem(const Recording& recording, size_t k) {
  const size_t num_soft = recording.header.soft_bodies.size();
  const unsigned char* flags = recording.frame_data.data() + k * recording.bytes_per_frame() +
                               recording.soft_body_flags_offset();
  constexpr uint8_t k_known = k_recording_soft_body_active | k_recording_soft_body_added;
  for (size_t j = 0; j < num_soft; ++j)
    if ((flags[j] & ~k_known) != 0)
      return "soft body " + std::to_string(j) + " (" +
             scene_json::quote(recording.header.soft_bodies[j].name) + "): flags byte " +
             std::to_string(flags[j]) + " has bits other than 0 and 1";
  for (size_t j = num_soft; j < (num_soft + 3) / 4 * 4; ++j)
    if (flags[j] != 0)
      return "soft body flags padding byte " + std::to_string(j - num_soft) + " is " +
             std::to_string(flags[j]) + ", not 0";
  return {};
}

}  // namespace

Result<Recording> read_recording(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error(name + ": cannot open file");
  const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                         std::istreambuf_iterator<char>());
  if (bytes.size() < k_preamble_bytes ||
      std::memcmp(bytes.data(), k_recording_magic, sizeof(k_recording_magic)) != 0)
    return Error(name + ": not an Atoll recording (no ATOLLREC magic)");
  const uint32_t version = get_u32(bytes.data() + 8);
  if (version < k_recording_oldest_version || version > k_recording_version)
    return Error(name + ": recording format version " + std::to_string(version) +
                 ", this build reads versions " + std::to_string(k_recording_oldest_version) +
                 " to " + std::to_string(k_recording_version));
  const size_t header_bytes = get_u32(bytes.data() + 12);
  if (header_bytes > bytes.size() - k_preamble_bytes)
    return Error(name + ": truncated: the header claims " + std::to_string(header_bytes) +
                 " bytes, the file has " + std::to_string(bytes.size() - k_preamble_bytes));

  Recording recording;
  recording.version = version;
  try {
    const Json root = scene_json::parse(std::string_view(
        reinterpret_cast<const char*>(bytes.data()) + k_preamble_bytes, header_bytes));
    recording.header = read_header(root, version);
  } catch (const scene_json::PathError& e) {
    return Error(name + ": " + (e.syntax ? "header " : "") + e.path + ": " + e.message);
  }
  if (version >= 2 && recording.header.stats.size() < k_recording_num_base_stats)
    return Error(name + ": header.stats: expected at least " +
                 std::to_string(k_recording_num_base_stats) + " names, got " +
                 std::to_string(recording.header.stats.size()));
  const size_t frames_begin = k_preamble_bytes + header_bytes;
  const size_t available = bytes.size() - frames_begin;
  // The soft bodies' vertex counts are numbers of the header: a few bytes may claim 2^32 − 1
  // vertices. Every frame holds 12 bytes per vertex, so counts the file cannot hold even once
  // are refused before any size is computed from them.
  const uint64_t vertices = total_vertices(recording.header);
  const size_t num_soft = recording.header.soft_bodies.size();
  if (vertices > available / k_recording_vertex_bytes)
    return Error(name + ": header.soft_bodies: " + std::to_string(vertices) +
                 " vertices in all need " + std::to_string(vertices * k_recording_vertex_bytes) +
                 " bytes per frame, the file has " + std::to_string(available) +
                 " bytes of frames: the file is truncated or damaged");
  const size_t frame_size = recording.bytes_per_frame();
  const std::string shape =
      " (" + std::to_string(recording.num_frames()) + " frames of " +
      std::to_string(recording.header.bodies.size()) + " bodies" +
      (num_soft == 0 ? std::string()
                     : " and " + std::to_string(num_soft) + " soft bodies of " +
                           std::to_string(vertices) + " vertices") +
      ")";
  // steps (< 2^31) frames of frame_size bytes may exceed what a size holds: such a file is
  // refused like any other that is too short.
  if (frame_size != 0 && recording.num_frames() > std::numeric_limits<size_t>::max() / frame_size)
    return Error(name + ": " + std::to_string(available) + " bytes of frames, expected " +
                 std::to_string(recording.num_frames()) + " frames of " +
                 std::to_string(frame_size) + " bytes, more than a file holds" + shape);
  const size_t expected = recording.num_frames() * frame_size;
  if (version == 1 ? available != expected : available < expected)
    return Error(name + ": " + std::to_string(available) + " bytes of frames, expected " +
                 std::to_string(expected) + shape);
  recording.frame_data.assign(bytes.begin() + std::ptrdiff_t(frames_begin),
                              bytes.begin() + std::ptrdiff_t(frames_begin + expected));
  if (version >= 2) {
    // The contact index: frame k's contacts follow frame k − 1's, and the section after the
    // frames holds exactly all of them.
    uint64_t next = 0;
    const size_t index_at = recording.contact_index_offset();
    for (size_t k = 0; k < recording.num_frames(); ++k) {
      const unsigned char* index = recording.frame_data.data() + k * frame_size + index_at;
      const uint32_t first = get_u32(index), count = get_u32(index + 4);
      if (first != next || (!recording.header.contacts && count != 0))
        return Error(name + ": frame " + std::to_string(k) + ": contact index " +
                     std::to_string(first) + " + " + std::to_string(count) + ", expected " +
                     std::to_string(next) +
                     (recording.header.contacts ? " + any" : " + 0 (no contacts recorded)") +
                     ": the file is damaged");
      next += count;
      if (std::string problem = soft_body_flags_problem(recording, k); !problem.empty())
        return Error(name + ": frame " + std::to_string(k) + ": " + problem +
                     ": the file is damaged");
    }
    const size_t contact_bytes = bytes.size() - frames_begin - expected;
    if (contact_bytes != next * k_recording_contact_bytes)
      return Error(name + ": " + std::to_string(contact_bytes) + " bytes of contacts, expected " +
                   std::to_string(next * k_recording_contact_bytes) + " (" + std::to_string(next) +
                   " contacts): the file is truncated or damaged");
    recording.contact_data.assign(bytes.begin() + std::ptrdiff_t(frames_begin + expected),
                                  bytes.end());
  }
  return recording;
}

}  // namespace atl
