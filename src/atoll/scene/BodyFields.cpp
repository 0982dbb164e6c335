// The body field table (scene/FieldTable.h): the scene-only keys (name, shape) and the
// BodyCreationSettings fields a file may give; reading, writing and comparing bodies through it.

#include <limits>

#include "atoll/scene/FieldTable.h"
#include "atoll/scene/SceneParser.h"

namespace atl {

using namespace scene_json;

namespace fields {

namespace {

struct DofNames {
  static constexpr const char* what = "degree of freedom";
  static constexpr std::pair<const char*, AllowedDOFs> names[] = {
      {"tx", AllowedDOFs::TranslationX}, {"ty", AllowedDOFs::TranslationY},
      {"tz", AllowedDOFs::TranslationZ}, {"rx", AllowedDOFs::RotationX},
      {"ry", AllowedDOFs::RotationY},    {"rz", AllowedDOFs::RotationZ}};
};

struct DofSetNames {
  static constexpr const char* what = "allowed_dofs";
  static constexpr std::pair<const char*, AllowedDOFs> names[] = {
      {"all", AllowedDOFs::All}, {"plane_xy", AllowedDOFs::Plane2D}};
};

/// "all", "plane_xy" or a list of degrees of freedom.
struct Dofs : Plain<AllowedDOFs> {
  static constexpr const char* kind = "`\"all\"`, `\"plane_xy\"` or a list";
  static std::string range() { return "at least one, no repeats"; }
  static void read(AllowedDOFs& v, const Json& j, const std::string& p, SceneParser& parser) {
    if (j.is_string()) return Enum<DofSetNames>::read(v, j, p, parser);
    if (!j.is_array())
      fail(p, "expected \"all\", \"plane_xy\" or a list such as [\"tx\", \"ty\", \"rz\"], got " +
                  describe(j));
    AllowedDOFs dofs = AllowedDOFs::None;
    for (size_t i = 0; i < j.size(); ++i) {
      const std::string element = element_path(p, i);
      AllowedDOFs flag = AllowedDOFs::None;
      Enum<DofNames>::read(flag, j[i], element, parser);
      if (has_dofs(dofs, flag)) fail(element, "duplicate degree of freedom " + describe(j[i]));
      dofs = dofs | flag;
    }
    if (dofs == AllowedDOFs::None) fail(p, "must allow at least one degree of freedom");
    v = dofs;
  }
  static Json write(AllowedDOFs dofs, AllowedDOFs) {
    for (const auto& [name, value] : DofSetNames::names)
      if (dofs == value) return name;
    Json list = Json::array();
    for (const auto& [name, flag] : DofNames::names)
      if (has_dofs(dofs, flag)) list.push_back(name);
    return list;
  }
};

}  // namespace

template <>
std::span<const Field<BodyDesc>> FieldTable<BodyDesc>::fields() {
  using B = BodyDesc;
  using S = BodyCreationSettings;
  constexpr auto k_settings = &B::settings;
  static const Field<B> k[] = {
      field<Name, &B::name>("name", "", Presence::Required),
      field<ShapeReference, &B::shape>("shape", "", Presence::Required),
      field<Vector, k_settings, &S::position>("position", "m", Presence::Always),
      field<Rotation, k_settings, &S::rotation>("rotation"),
      field<Enum<MotionTypeNames>, k_settings, &S::motion_type>("motion", "", Presence::Always),
      field<Optional<Positive>, k_settings, &S::override_mass>("mass", "kg"),
      field<NonNegative, k_settings, &S::friction>("friction"),
      field<UnitInterval, k_settings, &S::restitution>("restitution"),
      field<NonNegative, k_settings, &S::rolling_resistance>("rolling_resistance", "m"),
      field<NonNegative, k_settings, &S::torsional_friction>("torsional_friction", "m"),
      field<Vector, k_settings, &S::linear_velocity>("linear_velocity", "m/s"),
      field<Vector, k_settings, &S::angular_velocity>("angular_velocity", "rad/s"),
      field<Enum<MotionQualityNames>, k_settings, &S::motion_quality>("motion_quality"),
      field<Bool, k_settings, &S::allow_sleeping>("allow_sleeping"),
      field<Bool, k_settings, &S::is_sensor>("sensor"),
      field<Bool, k_settings, &S::sensor_detects_static>("sensor_detects_static"),
      field<Real, k_settings, &S::gravity_factor>("gravity_factor"),
      field<NonNegative, k_settings, &S::linear_damping>("linear_damping", "1/s"),
      field<NonNegative, k_settings, &S::angular_damping>("angular_damping", "1/s"),
      field<Positive, k_settings, &S::max_linear_velocity>("max_linear_velocity", "m/s"),
      field<Positive, k_settings, &S::max_angular_velocity>("max_angular_velocity", "rad/s"),
      field<Optional<Integer<ObjectLayer, 0, std::numeric_limits<ObjectLayer>::max()>>, k_settings,
            &S::object_layer>("object_layer"),
      field<Dofs, k_settings, &S::allowed_dofs>("allowed_dofs"),
      field<Optional<Integer<uint32_t, 0, std::numeric_limits<uint32_t>::max() - 1>>,
            &B::collision_group>("collision_group"),
  };
  return k;
}

// A static body has no mass and does not move.
template <>
void FieldTable<BodyDesc>::check(const BodyDesc& body, const Json&, const std::string& path) {
  const BodyCreationSettings& s = body.settings;
  if (s.motion_type != MotionType::Static) return;
  if (s.override_mass) fail(member_path(path, "mass"), "a static body has no mass");
  if (!(s.linear_velocity == Vec3()))
    fail(member_path(path, "linear_velocity"), "a static body cannot move");
  if (!(s.angular_velocity == Vec3()))
    fail(member_path(path, "angular_velocity"), "a static body cannot move");
}

Json write_body(const BodyDesc& body) { return write_object(body); }

void BodyReference::read(std::string& v, const Json& j, const std::string& p, SceneParser& parser) {
  std::string name = read_name(j, p);
  parser.expect_body(name, p);
  v = std::move(name);
}

}  // namespace fields

bool operator==(const BodyDesc& a, const BodyDesc& b) { return fields::equal_objects(a, b); }

bool SceneParser::parse_body_field(BodyDesc& body, std::string_view key, const Json& value,
                                   const std::string& path) {
  const fields::Field<BodyDesc>* field = fields::find_field<BodyDesc>(key);
  if (field == nullptr) return false;
  field->read(body, value, path, *this);
  return true;
}

void SceneParser::check_body(const BodyDesc& body, const std::string& path) const {
  fields::FieldTable<BodyDesc>::check(body, Json::object(), path);
}

void SceneParser::parse_body(BodyDesc& body, const Json& object, const std::string& path) {
  fields::read_object(body, object, path, *this);
}

std::vector<FieldDoc> body_field_docs() {
  std::vector<FieldDoc> rows;
  fields::describe_object<BodyDesc>("", rows);
  return rows;
}

}  // namespace atl
