// The six_dof constraint of the scene format (scene/ConstraintFields.h): each translation and
// rotation of frame 2 relative to frame 1 fixed, free or limited, with friction and a motor per
// axis (6-arrays in the order translation_x, translation_y, translation_z, rotation_x,
// rotation_y, rotation_z).

#include <array>
#include <cmath>
#include <string>

#include "atoll/constraint/SixDOFConstraint.h"
#include "atoll/scene/constraints/FrameMotors.h"

namespace atl::fields {

namespace {

struct SixDOFDesc final : ConstraintData<SixDOFDesc> {
  /// The engine's settings (its motor_settings unused: `motors` holds them).
  SixDOFConstraintSettings settings;
  /// motor_settings: one motor per axis with its state and targets.
  std::array<SceneAxisMotor, SixDOFConstraintSettings::k_num_axes> motors{};
};

constexpr int k_axes = SixDOFConstraintSettings::k_num_axes;

/// The axis names of set_motor's "motor" key, in axis order.
constexpr const char* k_axis_names[k_axes] = {"translation_x", "translation_y", "translation_z",
                                              "rotation_x",    "rotation_y",    "rotation_z"};

struct SwingTypeNames {
  static constexpr const char* what = "swing type";
  static constexpr std::pair<const char*, SwingType> names[] = {{"cone", SwingType::Cone},
                                                                {"pyramid", SwingType::Pyramid}};
};

std::string motor_path(const std::string& path, int axis, const char* key) {
  return scene_json::member_path(
      scene_json::element_path(scene_json::member_path(path, "motor_settings"), size_t(axis)), key);
}

// The one target orientation and angular velocity, from the rotation motors that give them.
Quat target_orientation(const SixDOFDesc& d, const std::string& path) {
  const std::array<TargetSource<Quat>, 3> sources{{
      {d.motors[3].target_orientation, motor_path(path, 3, "target_orientation")},
      {d.motors[4].target_orientation, motor_path(path, 4, "target_orientation")},
      {d.motors[5].target_orientation, motor_path(path, 5, "target_orientation")},
  }};
  return shared_target<Quat>(sources, Quat());
}
Vec3 target_angular_velocity(const SixDOFDesc& d, const std::string& path) {
  const std::array<TargetSource<Vec3>, 3> sources{{
      {d.motors[3].target_angular_velocity, motor_path(path, 3, "target_angular_velocity")},
      {d.motors[4].target_angular_velocity, motor_path(path, 4, "target_angular_velocity")},
      {d.motors[5].target_angular_velocity, motor_path(path, 5, "target_angular_velocity")},
  }};
  return shared_target<Vec3>(sources, Vec3());
}

int axis_of(const std::string& name) {
  for (int i = 0; i < k_axes; ++i)
    if (name == k_axis_names[i]) return i;
  return -1;
}

// `v` with component `axis` (0..2) replaced by `value`.
Vec3 with_component(const Vec3& v, int axis, float value) {
  float c[3] = {v.x(), v.y(), v.z()};
  c[axis] = value;
  return Vec3(c[0], c[1], c[2]);
}

struct SixDOFBehaviour {
  static constexpr ConstraintSubType type = ConstraintSubType::SixDOF;
  static constexpr bool linear_part = true, angular_part = true, motor = true;
  static std::pair<Vec3, Vec3> anchors(const Constraint& c) {
    const SixDOFConstraintSettings s = static_cast<const SixDOFConstraint&>(c).settings();
    return {s.position1, s.position2};
  }
  // A Y axis the file does not give is derived perpendicular to its X axis (so the Y axes are
  // always written: a default +y left out would read back derived).
  static void complete(SixDOFDesc& d, const Json& object) {
    const bool both = object.contains("axis_y");
    if (!both && !object.contains("axis_y1"))
      d.settings.axis_y1 = derived_perpendicular(d.settings.axis_x1);
    if (!both && !object.contains("axis_y2"))
      d.settings.axis_y2 = derived_perpendicular(d.settings.axis_x2);
  }
  static Result<Ref<Constraint>> create(const SixDOFDesc& d, const ConstraintBuild& b) {
    SixDOFConstraintSettings s = d.settings;
    for (int i = 0; i < k_axes; ++i) s.motor_settings[size_t(i)] = d.motors[size_t(i)].settings;
    const Vec3 velocity(d.motors[0].target_velocity, d.motors[1].target_velocity,
                        d.motors[2].target_velocity);
    const Vec3 position(d.motors[0].target_position, d.motors[1].target_position,
                        d.motors[2].target_position);
    Result<Ref<Constraint>> made = s.create(b.bodies, b.body1, b.body2);
    if (!made) return made;
    auto& joint = static_cast<SixDOFConstraint&>(**made);
    for (int i = 0; i < k_axes; ++i)
      joint.set_motor_state(static_cast<SixDOFConstraintSettings::Axis>(i),
                            d.motors[size_t(i)].state);
    if (Status ok = joint.set_target_velocity_cs(velocity); !ok) return ok.error();
    if (Status ok = joint.set_target_position_cs(position); !ok) return ok.error();
    // The scene was checked when read: the rotation motors agree on their targets.
    if (Status ok = joint.set_target_orientation_cs(target_orientation(d, "")); !ok)
      return ok.error();
    if (Status ok = joint.set_target_angular_velocity_cs(target_angular_velocity(d, "")); !ok)
      return ok.error();
    return made;
  }
  static void check_event(const EventDesc& e, const std::string& path) {
    const int axis = e.motor.empty() ? -1 : axis_of(e.motor);
    if (!e.motor.empty() && axis < 0)
      scene_json::fail(scene_json::member_path(path, "motor"),
                       "unknown six_dof motor \"" + e.motor +
                           "\" (expected translation_x, translation_y, translation_z, "
                           "rotation_x, rotation_y or rotation_z)");
    for (const auto& [given, key] : {std::pair{e.target_velocity.has_value(), "target_velocity"},
                                     std::pair{e.target_position.has_value(), "target_position"}})
      if (given && (axis < 0 || axis >= 3))
        scene_json::fail(scene_json::member_path(path, key),
                         std::string("needs motor: a translation axis (translation_x, "
                                     "translation_y or translation_z)"));
  }
  static Status set_motor(Constraint& c, const EventDesc& e) {
    auto& joint = static_cast<SixDOFConstraint&>(c);
    const int axis = e.motor.empty() ? -1 : axis_of(e.motor);
    if (e.target_velocity)
      if (Status ok = joint.set_target_velocity_cs(
              with_component(joint.target_velocity_cs(), axis, *e.target_velocity));
          !ok)
        return ok;
    if (e.target_position)
      if (Status ok = joint.set_target_position_cs(
              with_component(joint.target_position_cs(), axis, *e.target_position));
          !ok)
        return ok;
    if (e.target_orientation)
      if (Status ok = joint.set_target_orientation_cs(*e.target_orientation); !ok) return ok;
    if (e.target_angular_velocity)
      if (Status ok = joint.set_target_angular_velocity_cs(*e.target_angular_velocity); !ok)
        return ok;
    if (e.motor_state)
      for (int i = 0; i < k_axes; ++i)
        if (axis < 0 || axis == i)
          joint.set_motor_state(static_cast<SixDOFConstraintSettings::Axis>(i), *e.motor_state);
    return Ok{};
  }
  static void total_lambda(const Constraint& c, LambdaParts& parts) {
    const auto& joint = static_cast<const SixDOFConstraint&>(c);
    add_lambda(parts, "position", joint.total_lambda_position());
    add_lambda(parts, "rotation", joint.total_lambda_rotation());
    add_lambda(parts, "motor_translation", joint.total_lambda_motor_translation());
    add_lambda(parts, "motor_rotation", joint.total_lambda_motor_rotation());
  }
};

}  // namespace

template <>
std::span<const Field<SixDOFDesc>> FieldTable<SixDOFDesc>::fields() {
  using S = SixDOFConstraintSettings;
  constexpr auto k_settings = &SixDOFDesc::settings;
  static const Field<SixDOFDesc> k[] = {
      field<Enum<SpaceNames>, k_settings, &S::space>("space"),
      field<Vector, k_settings, &S::position1>("position1", "m"),
      field<Vector, k_settings, &S::position2>("position2", "m"),
      alias<Vector, Chain<k_settings, &S::position1>, Chain<k_settings, &S::position2>>("position",
                                                                                        "m"),
      field<Direction, k_settings, &S::axis_x1>("axis_x1"),
      field<Direction, k_settings, &S::axis_y1>("axis_y1", "", Presence::Always),
      field<Direction, k_settings, &S::axis_x2>("axis_x2"),
      field<Direction, k_settings, &S::axis_y2>("axis_y2", "", Presence::Always),
      alias<Direction, Chain<k_settings, &S::axis_x1>, Chain<k_settings, &S::axis_x2>>("axis_x"),
      alias<Direction, Chain<k_settings, &S::axis_y1>, Chain<k_settings, &S::axis_y2>>("axis_y"),
      field<Array<Real, 6>, k_settings, &S::limit_min>("limit_min", "m or rad"),
      field<Array<Real, 6>, k_settings, &S::limit_max>("limit_max", "m or rad"),
      field<Array<Object<SpringSettings>, 3>, k_settings, &S::limits_spring_settings>(
          "limits_spring_settings"),
      field<Array<NonNegative, 6>, k_settings, &S::max_friction>("max_friction", "N or N·m"),
      field<Enum<SwingTypeNames>, k_settings, &S::swing_type>("swing_type"),
      field<Array<Object<SceneAxisMotor>, 6>, &SixDOFDesc::motors>("motor_settings"),
  };
  return k;
}
template <>
void FieldTable<SixDOFDesc>::check(const SixDOFDesc& d, const Json&, const std::string& path) {
  const SixDOFConstraintSettings& s = d.settings;
  if (std::fabs(s.axis_x1.normalized().dot(s.axis_y1.normalized())) > 1.0e-3f)
    scene_json::fail(scene_json::member_path(path, "axis_y1"), "must be perpendicular to axis_x1");
  if (std::fabs(s.axis_x2.normalized().dot(s.axis_y2.normalized())) > 1.0e-3f)
    scene_json::fail(scene_json::member_path(path, "axis_y2"), "must be perpendicular to axis_x2");
  for (size_t i = 0; i < size_t(k_axes); ++i)
    if (s.limit_min[i] > s.limit_max[i])
      scene_json::fail(scene_json::element_path(scene_json::member_path(path, "limit_max"), i),
                       "must be >= limit_min[" + std::to_string(i) + "] (" +
                           scene_json::number_text(s.limit_min[i]) + "), got " +
                           scene_json::number_text(s.limit_max[i]));
  // Each target belongs to the axes that use it.
  for (int i = 0; i < k_axes; ++i) {
    const SceneAxisMotor& m = d.motors[size_t(i)];
    const bool translation = i < 3;
    const auto refuse = [&](bool given, const char* key, const char* kind) {
      if (given)
        scene_json::fail(motor_path(path, i, key), std::string("only for the ") + kind +
                                                       " axes (motor_settings[" +
                                                       (translation ? "3..5" : "0..2") + "])");
    };
    if (translation) {
      refuse(!(m.target_orientation == Quat()), "target_orientation", "rotation");
      refuse(!(m.target_angular_velocity == Vec3()), "target_angular_velocity", "rotation");
    } else {
      refuse(m.target_velocity != 0.0f, "target_velocity", "translation");
      refuse(m.target_position != 0.0f, "target_position", "translation");
    }
  }
  target_orientation(d, path);
  target_angular_velocity(d, path);
}

const ConstraintType& six_dof_constraint_type() {
  return constraint_type<SixDOFDesc, SixDOFBehaviour>();
}

}  // namespace atl::fields
