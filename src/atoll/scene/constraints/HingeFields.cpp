// The hinge constraint of the scene format (scene/ConstraintFields.h): a revolute joint with
// limits, friction and a motor.

#include <cmath>

#include "atoll/constraint/HingeConstraint.h"
#include "atoll/scene/ConstraintFields.h"

namespace atl::fields {

namespace {

struct HingeDesc final : ConstraintData<HingeDesc> {
  /// The engine's settings (its motor_settings unused: `motor` holds them).
  HingeConstraintSettings settings;
  /// motor_settings with its state and targets.
  SceneMotor motor;
};

constexpr RealRange k_hinge_min_range{-k_pi, 0.0f, "[-π, 0]"};
constexpr RealRange k_hinge_max_range{0.0f, k_pi, "[0, π]"};

struct HingeBehaviour {
  using Engine = HingeConstraint;
  static constexpr ConstraintSubType type = ConstraintSubType::Hinge;
  static constexpr bool linear_part = true, angular_part = true, motor = true;
  // A normal axis the file does not give is derived perpendicular to its hinge axis.
  static void complete(HingeDesc& d, const Json& object) {
    const bool both = object.contains("normal_axis");
    if (!both && !object.contains("normal_axis1"))
      d.settings.normal_axis1 = derived_perpendicular(d.settings.hinge_axis1);
    if (!both && !object.contains("normal_axis2"))
      d.settings.normal_axis2 = derived_perpendicular(d.settings.hinge_axis2);
  }
  static Result<Ref<Constraint>> create(const HingeDesc& d, const ConstraintBuild& b) {
    HingeConstraintSettings s = d.settings;
    s.motor_settings = d.motor.settings;
    Result<Ref<Constraint>> made = s.create(b.bodies, b.body1, b.body2);
    if (!made) return made;
    auto& hinge = static_cast<HingeConstraint&>(**made);
    hinge.set_motor_state(d.motor.state);
    if (Status ok = hinge.set_target_angular_velocity(d.motor.target_velocity); !ok)
      return ok.error();
    if (Status ok = hinge.set_target_angle(d.motor.target_position); !ok) return ok.error();
    return made;
  }
  static Status set_motor(Constraint& c, const EventDesc& e) {
    auto& hinge = static_cast<HingeConstraint&>(c);
    if (e.motor_state) hinge.set_motor_state(*e.motor_state);
    if (e.target_velocity)
      if (Status ok = hinge.set_target_angular_velocity(*e.target_velocity); !ok) return ok;
    if (e.target_position)
      if (Status ok = hinge.set_target_angle(*e.target_position); !ok) return ok;
    return Ok{};
  }
  static void total_lambda(const Constraint& c, LambdaParts& parts) {
    const auto& hinge = static_cast<const HingeConstraint&>(c);
    add_lambda(parts, "position", hinge.total_lambda_position());
    add_lambda(parts, "rotation", hinge.total_lambda_rotation());
    add_lambda(parts, "limits", hinge.total_lambda_rotation_limits());
    add_lambda(parts, "motor", hinge.total_lambda_motor());
  }
};

}  // namespace

template <>
std::span<const Field<HingeDesc>> FieldTable<HingeDesc>::fields() {
  using S = HingeConstraintSettings;
  constexpr auto k_settings = &HingeDesc::settings;
  static const Field<HingeDesc> k[] = {
      field<Enum<SpaceNames>, k_settings, &S::space>("space"),
      field<Vector, k_settings, &S::point1>("point1", "m"),
      field<Vector, k_settings, &S::point2>("point2", "m"),
      alias<Vector, Chain<k_settings, &S::point1>, Chain<k_settings, &S::point2>>("point", "m"),
      field<Direction, k_settings, &S::hinge_axis1>("hinge_axis1"),
      field<Direction, k_settings, &S::hinge_axis2>("hinge_axis2"),
      alias<Direction, Chain<k_settings, &S::hinge_axis1>, Chain<k_settings, &S::hinge_axis2>>(
          "hinge_axis"),
      field<Direction, k_settings, &S::normal_axis1>("normal_axis1"),
      field<Direction, k_settings, &S::normal_axis2>("normal_axis2"),
      alias<Direction, Chain<k_settings, &S::normal_axis1>, Chain<k_settings, &S::normal_axis2>>(
          "normal_axis"),
      field<RealIn<k_hinge_min_range>, k_settings, &S::limits_min>("limits_min", "rad"),
      field<RealIn<k_hinge_max_range>, k_settings, &S::limits_max>("limits_max", "rad"),
      field<Object<SpringSettings>, k_settings, &S::limits_spring_settings>(
          "limits_spring_settings"),
      field<NonNegative, k_settings, &S::max_friction_torque>("max_friction_torque", "N·m"),
      field<Object<SceneMotor>, &HingeDesc::motor>("motor_settings"),
  };
  return k;
}
template <>
void FieldTable<HingeDesc>::check(const HingeDesc& d, const Json&, const std::string& path) {
  const HingeConstraintSettings& s = d.settings;
  if (std::fabs(s.hinge_axis1.normalized().dot(s.normal_axis1.normalized())) > 1.0e-3f)
    scene_json::fail(scene_json::member_path(path, "normal_axis1"),
                     "must be perpendicular to hinge_axis1");
  if (std::fabs(s.hinge_axis2.normalized().dot(s.normal_axis2.normalized())) > 1.0e-3f)
    scene_json::fail(scene_json::member_path(path, "normal_axis2"),
                     "must be perpendicular to hinge_axis2");
}

const ConstraintType& hinge_constraint_type() {
  return constraint_type<HingeDesc, HingeBehaviour>();
}

}  // namespace atl::fields
