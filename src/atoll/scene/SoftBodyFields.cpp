// The field tables of the soft bodies (scene/FieldTable.h): the keys every soft body has (name,
// pinned, attach, friction, linear_damping), one table per type (rope, cloth, pressure_ball,
// mesh), and building the engine's SoftBodySettings from them, so that a soft body the engine
// would refuse is refused when the file is read, at the key that caused it.

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "atoll/scene/FieldTable.h"
#include "atoll/scene/SceneParser.h"
#include "atoll/scene/SceneSoftBodies.h"
#include "atoll/softbody/SoftBodyGenerators.h"

namespace atl {

using namespace scene_json;

namespace fields {

namespace {

using Rope = SoftRopeDesc;
using Cloth = SoftClothDesc;
using Ball = SoftPressureBallDesc;
using MeshDesc = SoftMeshDesc;
using Common = SoftBodyCommonDesc;

constexpr RealRange k_vertex_radius_range{0.0f, SoftBodySettings::k_max_vertex_radius, "[0, 100]"};

// The scene names of the soft body types, in the order of SoftBodyDesc::type's alternatives.
struct SoftBodyTypeNames {
  static constexpr const char* what = "soft body type";
  static constexpr std::pair<const char*, size_t> names[] = {
      {"rope", 0}, {"cloth", 1}, {"pressure_ball", 2}, {"mesh", 3}};
};

// The vertex selectors, each with what it selects (docs/scene-format.md repeats the list).
constexpr const char* k_selectors[] = {"first",      "last",       "corners",
                                       "edge_min_x", "edge_max_x", "edge_min_y",
                                       "edge_max_y", "edge_min_z", "edge_max_z"};

/// A vertex index or a selector name.
struct VertexSelection : Plain<SoftVertexSelection> {
  static constexpr const char* kind = "vertex index or selector";
  static void read(SoftVertexSelection& v, const Json& j, const std::string& p, SceneParser&) {
    if (j.is_string()) {
      const std::string name = j.get<std::string>();
      std::string expected;
      for (const char* selector : k_selectors) {
        if (name == selector) {
          v = {name, 0};
          return;
        }
        expected += expected.empty() ? "" : ", ";
        expected += selector;
      }
      fail(p, "unknown vertex selector " + describe(j) + " (expected a vertex index or " +
                  expected + ")");
    }
    if (!j.is_number())
      fail(p, "expected a vertex index or a selector such as \"first\", got " + describe(j));
    v = {"", static_cast<uint32_t>(read_int(j, p, 0, std::numeric_limits<uint32_t>::max()))};
  }
  static Json write(const SoftVertexSelection& v, const SoftVertexSelection&) {
    return v.selector.empty() ? Json(v.index) : Json(v.selector);
  }
};

/// "pinned": a list of vertex indices and selectors, or one selector alone ("corners").
struct VertexSelections : List<VertexSelection> {
  static inline const std::string kind = "array of vertex indices or selectors, or a selector";
  static void read(Value& v, const Json& j, const std::string& p, SceneParser& parser) {
    if (j.is_string()) {
      SoftVertexSelection one;
      VertexSelection::read(one, j, p, parser);
      v = {one};
      return;
    }
    List<VertexSelection>::read(v, j, p, parser);
  }
};

/// Vertex indices of an edge or a face.
template <size_t N>
struct Indices : Plain<std::array<uint32_t, N>> {
  static constexpr const char* kinds = N == 2 ? "[i, j]" : "[i, j, k]";
  static void read(std::array<uint32_t, N>& v, const Json& j, const std::string& p, SceneParser&) {
    if (!j.is_array() || j.size() != N)
      fail(p, "expected " + std::to_string(N) + " vertex indices, got " + describe(j));
    for (size_t k = 0; k < N; ++k)
      v[k] = static_cast<uint32_t>(
          read_int(j[k], element_path(p, k), 0, std::numeric_limits<uint32_t>::max()));
  }
  static Json write(const std::array<uint32_t, N>& v, const std::array<uint32_t, N>&) {
    Json out = Json::array();
    for (uint32_t index : v) out.push_back(index);
    return out;
  }
};

/// The size of each element of a list agrees with `count` (inverse_masses: one per vertex).
void check_count(const Json& object, const std::string& path, const char* key, size_t size,
                 size_t count, const char* what) {
  if (size != 0 && size != count)
    fail(member_path(path, key), "expected one value per vertex (" + std::to_string(count) + " " +
                                     what + "), got " + std::to_string(size) +
                                     (object.contains(key) ? "" : " (set by --set)"));
}

}  // namespace

template <>
std::span<const Field<Rope>> FieldTable<Rope>::fields() {
  static const Field<Rope> k[] = {
      field<Vector, &Rope::from>("from", "m", Presence::Required),
      field<Vector, &Rope::to>("to", "m", Presence::Required),
      field<Integer<uint32_t, 1, (1 << 20) - 1>, &Rope::segments>("segments"),
      field<Positive, &Rope::common, &Common::mass>("mass", "kg"),
      field<NonNegative, &Rope::common, &Common::compliance>("compliance", "s²/kg"),
      field<NonNegative, &Rope::bend_compliance>("bend_compliance", "s²/kg"),
      field<RealIn<k_vertex_radius_range>, &Rope::common, &Common::vertex_radius>("radius", "m"),
  };
  return k;
}

template <>
std::span<const Field<Cloth>> FieldTable<Cloth>::fields() {
  static const Field<Cloth> k[] = {
      field<Vector, &Cloth::center>("center", "m", Presence::Required),
      field<Array<Positive, 2>, &Cloth::size>("size", "m"),
      field<Array<Integer<uint32_t, 2, 4096>, 2>, &Cloth::resolution>("resolution"),
      field<Positive, &Cloth::common, &Common::mass>("mass", "kg"),
      field<NonNegative, &Cloth::common, &Common::compliance>("compliance", "s²/kg"),
      field<NonNegative, &Cloth::bend_compliance>("bend_compliance", "s²/(kg·m²)"),
      field<Bool, &Cloth::long_range_attachments>("long_range_attachments"),
      field<RealIn<k_vertex_radius_range>, &Cloth::common, &Common::vertex_radius>("vertex_radius",
                                                                                   "m"),
  };
  return k;
}

template <>
std::span<const Field<Ball>> FieldTable<Ball>::fields() {
  static const Field<Ball> k[] = {
      field<Vector, &Ball::center>("center", "m", Presence::Required),
      field<Positive, &Ball::radius>("radius", "m"),
      field<Integer<uint32_t, 0, 5>, &Ball::subdivisions>("subdivisions"),
      field<Positive, &Ball::common, &Common::mass>("mass", "kg"),
      field<Positive, &Ball::pressure>("pressure"),
      field<NonNegative, &Ball::common, &Common::compliance>("compliance", "s²/kg"),
      field<RealIn<k_vertex_radius_range>, &Ball::common, &Common::vertex_radius>("vertex_radius",
                                                                                  "m"),
  };
  return k;
}

template <>
std::span<const Field<MeshDesc>> FieldTable<MeshDesc>::fields() {
  static const Field<MeshDesc> k[] = {
      field<List<Vector>, &MeshDesc::vertices>("vertices", "m", Presence::Required),
      field<List<Indices<2>>, &MeshDesc::edges>("edges"),
      field<List<Indices<3>>, &MeshDesc::faces>("faces"),
      field<List<NonNegative>, &MeshDesc::inverse_masses>("inverse_masses", "1/kg"),
      field<Positive, &MeshDesc::common, &Common::mass>("mass", "kg"),
      field<NonNegative, &MeshDesc::common, &Common::compliance>("compliance", "s²/kg"),
      field<Optional<NonNegative>, &MeshDesc::bend_compliance>("bend_compliance", "s²/(kg·m²)"),
      field<Optional<Positive>, &MeshDesc::pressure>("pressure"),
      field<RealIn<k_vertex_radius_range>, &MeshDesc::common, &Common::vertex_radius>(
          "vertex_radius", "m"),
  };
  return k;
}
template <>
void FieldTable<MeshDesc>::check(const MeshDesc& mesh, const Json& object,
                                 const std::string& path) {
  if (mesh.vertices.empty()) fail(member_path(path, "vertices"), "needs at least one vertex");
  if (mesh.edges.empty() && mesh.faces.empty()) fail(path, "a mesh needs edges or faces");
  check_count(object, path, "inverse_masses", mesh.inverse_masses.size(), mesh.vertices.size(),
              "vertices");
  const auto check_indices = [&](const char* key, const auto& list) {
    for (size_t i = 0; i < list.size(); ++i)
      for (size_t k = 0; k < list[i].size(); ++k)
        if (list[i][k] >= mesh.vertices.size())
          fail(element_path(element_path(member_path(path, key), i), k),
               "vertex " + std::to_string(list[i][k]) + " out of range (" +
                   std::to_string(mesh.vertices.size()) + " vertices)");
  };
  check_indices("edges", mesh.edges);
  check_indices("faces", mesh.faces);
  if (mesh.bend_compliance && mesh.faces.empty())
    fail(member_path(path, "bend_compliance"), "bends need faces");
  if (mesh.pressure && mesh.faces.empty())
    fail(member_path(path, "pressure"), "a volume needs faces (a closed surface)");
}

template <>
std::span<const Field<SoftBodyAttachDesc>> FieldTable<SoftBodyAttachDesc>::fields() {
  using A = SoftBodyAttachDesc;
  static const Field<A> k[] = {
      field<VertexSelection, &A::vertex>("vertex", "", Presence::Required),
      field<BodyReference, &A::body>("body", "", Presence::Required),
  };
  return k;
}

template <>
std::span<const Field<SoftBodyDesc>> FieldTable<SoftBodyDesc>::fields() {
  using S = SoftBodyDesc;
  static const Field<S> k[] = {
      field<Name, &S::name>("name", "", Presence::Required),
      field<VertexSelections, &S::pinned>("pinned"),
      field<List<Object<SoftBodyAttachDesc>>, &S::attach>("attach"),
      field<NonNegative, &S::friction>("friction"),
      field<NonNegative, &S::linear_damping>("linear_damping", "1/s"),
  };
  return k;
}

namespace {

// The type's field of that key, as a reader of the whole soft body.
bool read_type_key(SoftBodyDesc& desc, std::string_view key, const Json& value,
                   const std::string& path, SceneParser& parser) {
  return std::visit(
      [&](auto& type) {
        using T = std::decay_t<decltype(type)>;
        const Field<T>* f = find_field<T>(key);
        if (f == nullptr) return false;
        f->read(type, value, path, parser);
        return true;
      },
      desc.type);
}

void check_type(const SoftBodyDesc& desc, const Json& object, const std::string& path) {
  std::visit(
      [&](const auto& type) {
        using T = std::decay_t<decltype(type)>;
        FieldTable<T>::check(type, object, path);
      },
      desc.type);
}

// The vertices `selection` names among `positions`, in increasing order.
std::vector<uint32_t> resolve(const SoftVertexSelection& selection,
                              const std::vector<SoftBodyVertex>& vertices,
                              const std::string& path) {
  const uint32_t n = uint32_t(vertices.size());
  if (selection.selector.empty()) {
    if (selection.index >= n)
      fail(path, "vertex " + std::to_string(selection.index) + " out of range (" +
                     std::to_string(n) + " vertices)");
    return {selection.index};
  }
  if (selection.selector == "first") return {0};
  if (selection.selector == "last") return {n - 1};
  Vec3 low = vertices[0].position, high = low;
  for (const SoftBodyVertex& v : vertices) {
    low = Vec3::min(low, v.position);
    high = Vec3::max(high, v.position);
  }
  std::vector<uint32_t> out;
  if (selection.selector == "corners") {
    // Per corner of the bounds seen from above (x, z), the vertex nearest to it (the lower
    // index on a tie): a cloth's four corners.
    for (const auto& [x, z] : {std::pair(low.x(), low.z()), std::pair(high.x(), low.z()),
                               std::pair(low.x(), high.z()), std::pair(high.x(), high.z())}) {
      uint32_t best = 0;
      float best_distance = std::numeric_limits<float>::infinity();
      for (uint32_t i = 0; i < n; ++i) {
        const float dx = vertices[i].position.x() - x, dz = vertices[i].position.z() - z;
        const float d = dx * dx + dz * dz;
        if (d < best_distance) {
          best_distance = d;
          best = i;
        }
      }
      out.push_back(best);
    }
  } else {
    // edge_min_x … edge_max_z: the vertices at that side of the bounds, within a millionth of
    // the body's largest extent (a generated row lies exactly there).
    const int axis = selection.selector.back() - 'x';
    const bool at_min = selection.selector.compare(0, 8, "edge_min") == 0;
    const Vec3 extent = high - low;
    const float tolerance =
        1.0e-6f * std::max(std::max(extent.x(), extent.y()), std::max(extent.z(), 1.0e-3f));
    for (uint32_t i = 0; i < n; ++i) {
      const float c = vertices[i].position[axis];
      if (at_min ? c <= low[axis] + tolerance : c >= high[axis] - tolerance) out.push_back(i);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// A generator's error "TYPE: FIELD: problem" at the key FIELD of `path`.
[[noreturn]] void fail_generator(const Error& error, const std::string& path) {
  const std::string_view message = error.message();
  const size_t first = message.find(": ");
  const size_t second = first == std::string_view::npos ? first : message.find(": ", first + 2);
  if (second == std::string_view::npos) fail(path, std::string(message));
  fail(path + "." + std::string(message.substr(first + 2, second - first - 2)),
       std::string(message.substr(second + 2)));
}

Ref<SoftBodySettings> generate(const SoftBodyDesc& desc, const std::string& path) {
  Result<Ref<SoftBodySettings>> made = std::visit(
      [&](const auto& t) -> Result<Ref<SoftBodySettings>> {
        using T = std::decay_t<decltype(t)>;
        const Common& c = t.common;
        if constexpr (std::is_same_v<T, Rope>) {
          return make_rope(t.from, t.to, t.segments, c.mass, c.compliance, t.bend_compliance,
                           c.vertex_radius);
        } else if constexpr (std::is_same_v<T, Cloth>) {
          return make_cloth(t.center, t.size[0], t.size[1], t.resolution[0], t.resolution[1],
                            c.mass, c.compliance, t.bend_compliance);
        } else if constexpr (std::is_same_v<T, Ball>) {
          return make_pressure_ball(t.center, t.radius, t.subdivisions, c.mass, t.pressure,
                                    c.compliance);
        } else {
          Ref<SoftBodySettings> s = new SoftBodySettings();
          const float shared = float(t.vertices.size()) / c.mass;
          for (size_t i = 0; i < t.vertices.size(); ++i) {
            SoftBodyVertex v;
            v.position = t.vertices[i];
            v.inverse_mass = t.inverse_masses.empty() ? shared : t.inverse_masses[i];
            s->vertices.push_back(v);
          }
          for (const auto& f : t.faces) s->faces.push_back({f[0], f[1], f[2]});
          for (const auto& e : t.edges) s->edges.push_back({{e[0], e[1]}, 0.0f, c.compliance});
          if (t.edges.empty()) s->create_edges_from_faces(c.compliance);
          if (t.bend_compliance) s->create_bends_from_faces(*t.bend_compliance);
          if (t.pressure) {
            s->keep_volume = true;
            s->pressure = *t.pressure;
          }
          s->compute_rest_values();
          return s;
        }
      },
      desc.type);
  if (!made) fail_generator(made.error(), path);
  Ref<SoftBodySettings> settings = *made;
  // The generators leave the radius at SoftBodySettings' default; the file's wins.
  std::visit([&](const auto& t) { settings->vertex_radius = t.common.vertex_radius; }, desc.type);
  return settings;
}

}  // namespace

}  // namespace fields

SceneSoftBody build_soft_body_at(const SoftBodyDesc& desc, const std::string& path) {
  using fields::resolve;
  Ref<SoftBodySettings> settings = fields::generate(desc, path);
  std::vector<SoftBodyVertex>& vertices = settings->vertices;
  const std::string pinned_path = member_path(path, "pinned");
  for (size_t i = 0; i < desc.pinned.size(); ++i)
    for (uint32_t v : resolve(desc.pinned[i], vertices, element_path(pinned_path, i)))
      vertices[v].inverse_mass = 0.0f;
  if (const SoftClothDesc* cloth = std::get_if<SoftClothDesc>(&desc.type);
      cloth != nullptr && cloth->long_range_attachments)
    settings->create_long_range_attachments();
  settings->friction = desc.friction;
  settings->linear_damping = desc.linear_damping;
  if (const Status valid = settings->validate(); !valid.ok()) fail(path, valid.error().message());
  SceneSoftBody out;
  std::vector<uint8_t> tied(vertices.size(), 0);
  const std::string attach_path = member_path(path, "attach");
  for (size_t i = 0; i < desc.attach.size(); ++i) {
    const std::string p = member_path(element_path(attach_path, i), "vertex");
    for (uint32_t v : resolve(desc.attach[i].vertex, vertices, p)) {
      if (vertices[v].inverse_mass == 0.0f)
        fail(p, "vertex " + std::to_string(v) + " is pinned; only a free vertex can be attached");
      if (tied[v] != 0) fail(p, "vertex " + std::to_string(v) + " is attached twice");
      tied[v] = 1;
      out.ties.emplace_back(v, desc.attach[i].body);
    }
  }
  out.settings = std::move(settings);
  return out;
}

Result<SceneSoftBody> build_scene_soft_body(const SoftBodyDesc& desc) {
  try {
    return build_soft_body_at(desc, "soft_bodies." + desc.name);
  } catch (const PathError& error) {
    return Error(error.path + ": " + error.message);
  }
}

int64_t scene_soft_body_vertices(const SoftBodyDesc& desc) {
  return std::visit(
      [](const auto& t) -> int64_t {
        using T = std::decay_t<decltype(t)>;
        if constexpr (std::is_same_v<T, SoftRopeDesc>) {
          return int64_t{t.segments} + 1;
        } else if constexpr (std::is_same_v<T, SoftClothDesc>) {
          return int64_t{t.resolution[0]} * t.resolution[1];
        } else if constexpr (std::is_same_v<T, SoftPressureBallDesc>) {
          // An icosahedron subdivided s times: 10 · 4^s + 2.
          return 10 * (int64_t{1} << (2 * t.subdivisions)) + 2;
        } else {
          return static_cast<int64_t>(t.vertices.size());
        }
      },
      desc.type);
}

const char* scene_soft_body_type_name(const SoftBodyDesc& desc) {
  return fields::SoftBodyTypeNames::names[desc.type.index()].first;
}

bool operator==(const SoftBodyDesc& a, const SoftBodyDesc& b) {
  if (a.type.index() != b.type.index() || !fields::equal_objects(a, b)) return false;
  return std::visit(
      [&](const auto& type) {
        using T = std::decay_t<decltype(type)>;
        return fields::equal_objects(type, std::get<T>(b.type));
      },
      a.type);
}

namespace fields {

Json write_soft_body(const SoftBodyDesc& desc) {
  const Json common = write_object(desc);
  Json out = Json::object();
  out["name"] = desc.name;
  out["type"] = scene_soft_body_type_name(desc);
  std::visit(
      [&](const auto& type) {
        const Json keys = write_object(type);
        for (auto it = keys.begin(); it != keys.end(); ++it) out[it.key()] = it.value();
      },
      desc.type);
  for (auto it = common.begin(); it != common.end(); ++it) out[it.key()] = it.value();
  return out;
}

}  // namespace fields

void SceneParser::add_soft_body_vertices(int64_t before, int64_t after, const std::string& path) {
  const int64_t total = soft_body_vertices_ - before + after;
  if (total > k_max_soft_body_vertices)
    fail(path, "the soft bodies hold at most " + std::to_string(k_max_soft_body_vertices) +
                   " vertices in all, this one would bring them to " + std::to_string(total));
  soft_body_vertices_ = total;
}

void SceneParser::parse_soft_body(const Json& object, const std::string& path) {
  expect_object(object, path);
  SoftBodyDesc desc;
  size_t type = 0;
  fields::Enum<fields::SoftBodyTypeNames>::read(type, require(object, path, "type"),
                                                member_path(path, "type"), *this);
  using Variant = decltype(SoftBodyDesc::type);
  static const Variant k_defaults[] = {
      Variant(std::in_place_index<0>), Variant(std::in_place_index<1>),
      Variant(std::in_place_index<2>), Variant(std::in_place_index<3>)};
  static_assert(std::size(k_defaults) == std::variant_size_v<Variant>);
  desc.type = k_defaults[type];
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (it.key() == "type") continue;
    const std::string member = member_path(path, it.key());
    if (const fields::Field<SoftBodyDesc>* f = fields::find_field<SoftBodyDesc>(it.key()))
      f->read(desc, it.value(), member, *this);
    else if (!fields::read_type_key(desc, it.key(), it.value(), member, *this))
      fail(member, "unknown key for a " + std::string(scene_soft_body_type_name(desc)));
  }
  for (const fields::Field<SoftBodyDesc>& f : fields::FieldTable<SoftBodyDesc>::fields())
    if (f.presence == fields::Presence::Required) require(object, path, f.name);
  std::visit(
      [&](const auto& t) {
        using T = std::decay_t<decltype(t)>;
        for (const fields::Field<T>& f : fields::FieldTable<T>::fields())
          if (f.presence == fields::Presence::Required) require(object, path, f.name);
      },
      desc.type);
  fields::check_type(desc, object, path);
  if (scene_.find_soft_body(desc.name) != nullptr)
    fail(member_path(path, "name"), "duplicate soft body name " + quote(desc.name));
  add_soft_body_vertices(0, scene_soft_body_vertices(desc), path);
  build_soft_body_at(desc, path);  // refuses what the engine would refuse, at its key
  scene_.soft_bodies.push_back(std::move(desc));
}

void SceneParser::set_soft_body_field(const std::string& name, const std::string& field,
                                      const Json& value, const std::string& path) {
  SoftBodyDesc* desc = scene_.find_soft_body(name);
  if (desc == nullptr) fail(path, "unknown soft body " + quote(name));
  if (field == "name" || field == "type")
    fail(path, "a soft body's " + field + " cannot be changed");
  const int64_t vertices_before = scene_soft_body_vertices(*desc);
  if (const fields::Field<SoftBodyDesc>* f = fields::find_field<SoftBodyDesc>(field))
    f->read(*desc, value, path, *this);
  else if (!fields::read_type_key(*desc, field, value, path, *this))
    fail(path, "unknown key for a " + std::string(scene_soft_body_type_name(*desc)));
  // Errors between keys name them under the soft body, as the file's would.
  const std::string base = "soft_bodies." + name;
  fields::check_type(*desc, Json::object(), base);
  add_soft_body_vertices(vertices_before, scene_soft_body_vertices(*desc), path);
  build_soft_body_at(*desc, base);
}

std::vector<FieldDoc> soft_body_common_field_docs() {
  std::vector<FieldDoc> rows;
  fields::describe_object<SoftBodyDesc>("", rows);
  return rows;
}

std::vector<std::pair<std::string, std::vector<FieldDoc>>> soft_body_field_docs() {
  using Variant = decltype(SoftBodyDesc::type);
  std::vector<std::pair<std::string, std::vector<FieldDoc>>> out;
  const auto add = [&]<size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          std::vector<FieldDoc> rows;
          fields::describe_object<std::variant_alternative_t<I, Variant>>("", rows);
          out.emplace_back(fields::SoftBodyTypeNames::names[I].first, std::move(rows));
        }(),
        ...);
  };
  add(std::make_index_sequence<std::variant_size_v<Variant>>());
  return out;
}

}  // namespace atl
