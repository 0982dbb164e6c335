// The path constraint of the scene format (scene/ConstraintFields.h): a point of body 2 slides
// along a Hermite spline fixed to body 1, given in the file as its points; rotation modes,
// friction and a position motor along the path.

#include <string>
#include <vector>

#include "atoll/constraint/PathConstraint.h"
#include "atoll/constraint/PathConstraintPath.h"
#include "atoll/scene/ConstraintFields.h"

namespace atl::fields {

namespace {

using HermitePoint = PathConstraintPathHermite::Point;

/// The file's "path": the points of the Hermite spline and whether it loops.
struct ScenePath {
  std::vector<HermitePoint> points;
  bool looping = false;
};

struct PathDesc final : ConstraintData<PathDesc> {
  /// The engine's settings (path and position_motor_settings unused: built from the members
  /// below).
  PathConstraintSettings settings;
  /// "path".
  ScenePath path;
  /// position_motor_settings with its state and targets (target_position: a path fraction).
  SceneMotor motor;
};

struct RotationTypeNames {
  static constexpr const char* what = "rotation_constraint_type";
  static constexpr std::pair<const char*, PathRotationConstraintType> names[] = {
      {"free", PathRotationConstraintType::Free},
      {"constrain_around_tangent", PathRotationConstraintType::ConstrainAroundTangent},
      {"constrain_around_normal", PathRotationConstraintType::ConstrainAroundNormal},
      {"constrain_around_binormal", PathRotationConstraintType::ConstrainAroundBinormal},
      {"constrain_to_path", PathRotationConstraintType::ConstrainToPath},
      {"fully_constrained", PathRotationConstraintType::FullyConstrained}};
};

Ref<const PathConstraintPath> make_path(const ScenePath& path) {
  return Ref<const PathConstraintPath>(new PathConstraintPathHermite(path.points, path.looping));
}

struct PathBehaviour {
  static constexpr ConstraintSubType type = ConstraintSubType::Path;
  static constexpr bool linear_part = true, angular_part = true, motor = true;
  // Body 1: where body 2's point is on the path now (body 1's frame); body 2: its centre of
  // mass (the engine does not expose the point fixed in body 2).
  static std::pair<Vec3, Vec3> anchors(const Constraint& c) {
    const auto& joint = static_cast<const PathConstraint&>(c);
    const PathConstraintSettings s = joint.settings();
    const Vec3 on_path = joint.path().frame(joint.path_fraction()).position;
    return {s.path_position + s.path_rotation * on_path, Vec3()};
  }
  static void complete(PathDesc&, const Json&) {}
  static Result<Ref<Constraint>> create(const PathDesc& d, const ConstraintBuild& b) {
    PathConstraintSettings s = d.settings;
    s.path = make_path(d.path);
    s.position_motor_settings = d.motor.settings;
    Result<Ref<Constraint>> made = s.create(b.bodies, b.body1, b.body2);
    if (!made) return made;
    auto& joint = static_cast<PathConstraint&>(**made);
    joint.set_motor_state(d.motor.state);
    if (Status ok = joint.set_target_velocity(d.motor.target_velocity); !ok) return ok.error();
    if (Status ok = joint.set_target_path_fraction(d.motor.target_position); !ok) return ok.error();
    return made;
  }
  static Status set_motor(Constraint& c, const EventDesc& e) {
    auto& joint = static_cast<PathConstraint&>(c);
    if (e.motor_state) joint.set_motor_state(*e.motor_state);
    if (e.target_velocity)
      if (Status ok = joint.set_target_velocity(*e.target_velocity); !ok) return ok;
    if (e.target_position)
      if (Status ok = joint.set_target_path_fraction(*e.target_position); !ok) return ok;
    return Ok{};
  }
  static void total_lambda(const Constraint& c, LambdaParts& parts) {
    const auto& joint = static_cast<const PathConstraint&>(c);
    add_lambda(parts, "position", joint.total_lambda_position());
    add_lambda(parts, "limits", joint.total_lambda_position_limits());
    add_lambda(parts, "motor", joint.total_lambda_motor());
    add_lambda(parts, "rotation", joint.total_lambda_rotation());
  }
};

}  // namespace

template <>
std::span<const Field<HermitePoint>> FieldTable<HermitePoint>::fields() {
  using P = HermitePoint;
  static const Field<P> k[] = {
      field<Vector, &P::position>("position", "m", Presence::Required),
      field<Direction, &P::tangent>("tangent", "m"),
      field<Direction, &P::normal>("normal"),
  };
  return k;
}

template <>
std::span<const Field<ScenePath>> FieldTable<ScenePath>::fields() {
  static const Field<ScenePath> k[] = {
      field<List<Object<HermitePoint>>, &ScenePath::points>("points", "", Presence::Required),
      field<Bool, &ScenePath::looping>("looping"),
  };
  return k;
}
// The spline's own rules (two points or more, normals not along their tangents).
template <>
void FieldTable<ScenePath>::check(const ScenePath& path, const Json&, const std::string& where) {
  const Status ok = PathConstraintPathHermite(path.points, path.looping).validate(where);
  if (ok) return;
  const std::string message(ok.error().message());
  const size_t colon = message.find(": ");
  if (colon == std::string::npos) scene_json::fail(where, message);
  scene_json::fail(message.substr(0, colon), message.substr(colon + 2));
}

template <>
std::span<const Field<PathDesc>> FieldTable<PathDesc>::fields() {
  using S = PathConstraintSettings;
  constexpr auto k_settings = &PathDesc::settings;
  static const Field<PathDesc> k[] = {
      field<Object<ScenePath>, &PathDesc::path>("path", "", Presence::Required),
      field<Vector, k_settings, &S::path_position>("path_position", "m"),
      field<Rotation, k_settings, &S::path_rotation>("path_rotation"),
      field<NonNegative, k_settings, &S::path_fraction>("path_fraction"),
      field<Enum<RotationTypeNames>, k_settings, &S::rotation_constraint_type>(
          "rotation_constraint_type"),
      field<NonNegative, k_settings, &S::max_friction_force>("max_friction_force", "N"),
      field<Object<SceneMotor>, &PathDesc::motor>("position_motor_settings"),
  };
  return k;
}
template <>
void FieldTable<PathDesc>::check(const PathDesc& d, const Json& object, const std::string& path) {
  // "path" is required (the table's Required is for nested objects; a constraint's type keys
  // are read one by one). --set (object empty) keeps the path read before.
  if (d.path.points.empty() && !object.contains("path"))
    scene_json::fail(scene_json::member_path(path, "path"), "required key missing");
  if (d.path.points.size() < 2) return;
  const float max_fraction =
      PathConstraintPathHermite(d.path.points, d.path.looping).max_fraction();
  if (d.settings.path_fraction > max_fraction)
    scene_json::fail(scene_json::member_path(path, "path_fraction"),
                     "must be <= the path's largest fraction (" +
                         scene_json::number_text(max_fraction) + "), got " +
                         scene_json::number_text(d.settings.path_fraction));
}

const ConstraintType& path_constraint_type() { return constraint_type<PathDesc, PathBehaviour>(); }

}  // namespace atl::fields
