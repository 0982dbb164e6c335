// The field tables of the shapes (scene/FieldTable.h), and reading, writing and comparing shape
// definitions through them.

#include <limits>

#include "atoll/scene/FieldTable.h"
#include "atoll/scene/SceneParser.h"

namespace atl {

using namespace scene_json;

namespace fields {

namespace {

/// A mesh triangle as [i, j, k] (its material index stays the default).
struct Triangle {
  using Value = IndexedTriangle;
  static constexpr const char* kinds = "[i, j, k]";
  static std::string range() { return ""; }
  static bool equal(const IndexedTriangle& a, const IndexedTriangle& b) {
    return a.idx[0] == b.idx[0] && a.idx[1] == b.idx[1] && a.idx[2] == b.idx[2] &&
           a.material_index == b.material_index;
  }
  static void nested(const IndexedTriangle&, const std::string&, std::vector<FieldDoc>&) {}
  static void read(IndexedTriangle& v, const Json& j, const std::string& p, SceneParser&) {
    if (!j.is_array() || j.size() != 3) fail(p, "expected 3 vertex indices, got " + describe(j));
    for (size_t k = 0; k < 3; ++k)
      v.idx[k] = static_cast<uint32_t>(read_int(j[k], element_path(p, k), 0, UINT32_MAX));
  }
  static Json write(const IndexedTriangle& v, const IndexedTriangle&) {
    return Json::array({v.idx[0], v.idx[1], v.idx[2]});
  }
};

constexpr Presence k_required = Presence::Required;
constexpr Presence k_always = Presence::Always;

using Sphere = SphereShapeSettings;
using Box = BoxShapeSettings;
using Capsule = CapsuleShapeSettings;
using Cylinder = CylinderShapeSettings;
using Hull = ConvexHullShapeSettings;
using Mesh = TriangleMeshShapeSettings;
using Field_ = HeightFieldShapeSettings;
using Child = WithShape<StaticCompoundShapeSettings::Child>;
using RotatedTranslated = WithShape<RotatedTranslatedShapeSettings>;
using Scaled = WithShape<ScaledShapeSettings>;
using OffsetCom = WithShape<OffsetCenterOfMassShapeSettings>;

// The scene names of the shape types, in ShapeSubType order (the variant's).
struct ShapeTypeNames {
  static constexpr const char* what = "shape type";
  static constexpr std::pair<const char*, ShapeSubType> names[] = {
      {"box", ShapeSubType::Box},
      {"sphere", ShapeSubType::Sphere},
      {"capsule", ShapeSubType::Capsule},
      {"cylinder", ShapeSubType::Cylinder},
      {"convex_hull", ShapeSubType::ConvexHull},
      {"mesh", ShapeSubType::TriangleMesh},
      {"heightfield", ShapeSubType::HeightField},
      {"compound", ShapeSubType::StaticCompound},
      {"rotated_translated", ShapeSubType::RotatedTranslated},
      {"scaled", ShapeSubType::Scaled},
      {"offset_center_of_mass", ShapeSubType::OffsetCenterOfMass}};
};

// A check that a value is at most `limit`, when the file gave it.
void check_at_most(const Json& object, const std::string& path, const char* key, float value,
                   float limit, const std::string& what) {
  if (object.contains(key) && value > limit)
    fail(member_path(path, key),
         "must be <= " + what + " (" + number_text(limit) + "), got " + number_text(value));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// the tables

template <>
std::span<const Field<Sphere>> FieldTable<Sphere>::fields() {
  static const Field<Sphere> k[] = {
      field<Positive, &Sphere::radius>("radius", "m", k_required),
      field<Positive, &Sphere::density>("density", "kg/m³"),
  };
  return k;
}

template <>
std::span<const Field<Box>> FieldTable<Box>::fields() {
  static const Field<Box> k[] = {
      field<PositiveVector, &Box::half_extent>("half_extent", "m", k_required),
      field<NonNegative, &Box::convex_radius>("convex_radius", "m"),
      field<Positive, &Box::density>("density", "kg/m³"),
  };
  return k;
}
template <>
void FieldTable<Box>::check(const Box& box, const Json& object, const std::string& path) {
  const Vec3& h = box.half_extent;
  check_at_most(object, path, "convex_radius", box.convex_radius,
                std::min(std::min(h.x(), h.y()), h.z()), "the smallest half extent");
}

template <>
std::span<const Field<Capsule>> FieldTable<Capsule>::fields() {
  static const Field<Capsule> k[] = {
      field<Positive, &Capsule::half_height_of_cylinder>("half_height", "m", k_required),
      field<Positive, &Capsule::radius>("radius", "m", k_required),
      field<Positive, &Capsule::density>("density", "kg/m³"),
  };
  return k;
}

template <>
std::span<const Field<Cylinder>> FieldTable<Cylinder>::fields() {
  static const Field<Cylinder> k[] = {
      field<Positive, &Cylinder::half_height>("half_height", "m", k_required),
      field<Positive, &Cylinder::radius>("radius", "m", k_required),
      field<NonNegative, &Cylinder::convex_radius>("convex_radius", "m"),
      field<Positive, &Cylinder::density>("density", "kg/m³"),
  };
  return k;
}
template <>
void FieldTable<Cylinder>::check(const Cylinder& cylinder, const Json& object,
                                 const std::string& path) {
  check_at_most(object, path, "convex_radius", cylinder.convex_radius,
                std::min(cylinder.half_height, cylinder.radius), "half_height and radius");
}

template <>
std::span<const Field<Hull>> FieldTable<Hull>::fields() {
  static const Field<Hull> k[] = {
      field<List<Vector>, &Hull::points>("points", "m", k_required),
      field<NonNegative, &Hull::max_convex_radius>("convex_radius", "m"),
      field<Positive, &Hull::density>("density", "kg/m³"),
  };
  return k;
}
template <>
void FieldTable<Hull>::check(const Hull& hull, const Json&, const std::string& path) {
  if (hull.points.size() < 3)
    fail(member_path(path, "points"),
         "a convex hull needs at least 3 points, got " + std::to_string(hull.points.size()));
}

template <>
std::span<const Field<Mesh>> FieldTable<Mesh>::fields() {
  static const Field<Mesh> k[] = {
      field<List<Point>, &Mesh::vertices>("vertices", "m", k_required),
      field<List<Triangle>, &Mesh::triangles>("triangles", "", k_required),
  };
  return k;
}
template <>
void FieldTable<Mesh>::check(const Mesh& mesh, const Json&, const std::string& path) {
  const std::string triangles = member_path(path, "triangles");
  if (mesh.triangles.empty()) fail(triangles, "a mesh needs at least one triangle");
  for (size_t i = 0; i < mesh.triangles.size(); ++i)
    for (size_t k = 0; k < 3; ++k)
      if (mesh.triangles[i].idx[k] >= mesh.vertices.size())
        fail(element_path(element_path(triangles, i), k),
             "must be < " + std::to_string(mesh.vertices.size()) +
                 " (the number of vertices), got " + std::to_string(mesh.triangles[i].idx[k]));
}

template <>
std::span<const Field<Field_>> FieldTable<Field_>::fields() {
  static const Field<Field_> k[] = {
      field<Integer<uint32_t, 2, 1 << 14>, &Field_::sample_count>("sample_count", "", k_required),
      field<List<Real>, &Field_::heights>("heights", "", k_required),
      field<Vector, &Field_::offset>("offset", "m"),
      field<PositiveVector, &Field_::scale>("scale"),
  };
  return k;
}
template <>
void FieldTable<Field_>::check(const Field_& field, const Json&, const std::string& path) {
  const size_t expected = size_t(field.sample_count) * field.sample_count;
  if (field.heights.size() != expected)
    fail(member_path(path, "heights"), "expected " + std::to_string(expected) +
                                           " heights (sample_count squared), got " +
                                           std::to_string(field.heights.size()));
}

template <>
std::span<const Field<Child>> FieldTable<Child>::fields() {
  static const Field<Child> k[] = {
      field<ShapeReference, &Child::shape>("shape", "", k_required),
      field<Vector, &Child::settings, &StaticCompoundShapeSettings::Child::position>("position",
                                                                                     "m", k_always),
      field<Rotation, &Child::settings, &StaticCompoundShapeSettings::Child::rotation>("rotation"),
  };
  return k;
}

template <>
std::span<const Field<CompoundShapeParts>> FieldTable<CompoundShapeParts>::fields() {
  static const Field<CompoundShapeParts> k[] = {
      field<List<Object<Child>>, &CompoundShapeParts::children>("children", "", k_required),
  };
  return k;
}
template <>
void FieldTable<CompoundShapeParts>::check(const CompoundShapeParts& compound, const Json&,
                                           const std::string& path) {
  if (compound.children.empty())
    fail(member_path(path, "children"), "a compound needs at least one child");
}

template <>
std::span<const Field<RotatedTranslated>> FieldTable<RotatedTranslated>::fields() {
  static const Field<RotatedTranslated> k[] = {
      field<ShapeReference, &RotatedTranslated::shape>("shape", "", k_required),
      field<Vector, &RotatedTranslated::settings, &RotatedTranslatedShapeSettings::position>(
          "position", "m", k_always),
      field<Rotation, &RotatedTranslated::settings, &RotatedTranslatedShapeSettings::rotation>(
          "rotation"),
  };
  return k;
}

template <>
std::span<const Field<Scaled>> FieldTable<Scaled>::fields() {
  static const Field<Scaled> k[] = {
      field<ShapeReference, &Scaled::shape>("shape", "", k_required),
      field<NonZeroVector, &Scaled::settings, &ScaledShapeSettings::scale>("scale", "", k_required),
  };
  return k;
}

template <>
std::span<const Field<OffsetCom>> FieldTable<OffsetCom>::fields() {
  static const Field<OffsetCom> k[] = {
      field<ShapeReference, &OffsetCom::shape>("shape", "", k_required),
      field<Vector, &OffsetCom::settings, &OffsetCenterOfMassShapeSettings::offset>("offset", "m",
                                                                                    k_required),
  };
  return k;
}

// ---------------------------------------------------------------------------------------------
// shapes through the tables

void ShapeReference::read(ShapeRef& v, const Json& j, const std::string& p, SceneParser& parser) {
  v = parser.parse_shape_ref(j, p);
}

Json ShapeReference::write(const ShapeRef& v, const ShapeRef&) {
  return v.definition != nullptr ? write_shape(*v.definition) : Json(v.name);
}

Json write_shape(const SceneShape& shape) {
  Json out = Json::object();
  out["type"] = scene_shape_type_name(shape);
  std::visit(
      [&](const auto& settings) {
        const Json keys = write_object(settings);
        for (auto it = keys.begin(); it != keys.end(); ++it) out[it.key()] = it.value();
      },
      shape.settings);
  return out;
}

namespace {

// The default settings of shape type `index` (a ShapeSubType).
template <size_t... I>
SceneShape default_shape(size_t index, std::index_sequence<I...>) {
  using Variant = decltype(SceneShape::settings);
  static const Variant k_defaults[] = {Variant(std::in_place_index<I>)...};
  return SceneShape{k_defaults[index]};
}

}  // namespace

}  // namespace fields

SceneShape SceneParser::parse_shape(const Json& value, const std::string& path) {
  expect_object(value, path);
  ShapeSubType type{};
  fields::Enum<fields::ShapeTypeNames>::read(type, require(value, path, "type"),
                                             member_path(path, "type"), *this);
  using Variant = decltype(SceneShape::settings);
  SceneShape shape =
      fields::default_shape(size_t(type), std::make_index_sequence<std::variant_size_v<Variant>>());
  std::visit([&](auto& settings) { fields::read_object(settings, value, path, *this, "type"); },
             shape.settings);
  return shape;
}

bool operator==(const SceneShape& a, const SceneShape& b) {
  if (a.settings.index() != b.settings.index()) return false;
  return std::visit(
      [&](const auto& settings) {
        using T = std::decay_t<decltype(settings)>;
        return fields::equal_objects(settings, std::get<T>(b.settings));
      },
      a.settings);
}

std::vector<std::pair<std::string, std::vector<FieldDoc>>> shape_field_docs() {
  using Variant = decltype(SceneShape::settings);
  std::vector<std::pair<std::string, std::vector<FieldDoc>>> out;
  const auto add = [&]<size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          std::vector<FieldDoc> rows;
          fields::describe_object<std::variant_alternative_t<I, Variant>>("", rows);
          out.emplace_back(shape_sub_type_name(ShapeSubType(I)), std::move(rows));
        }(),
        ...);
  };
  add(std::make_index_sequence<std::variant_size_v<Variant>>());
  return out;
}

}  // namespace atl
