// The swing_twist constraint of the scene format (scene/ConstraintFields.h): a shoulder or hip
// joint with a swing cone, a twist range, friction and two motors (swing and twist) that share
// one target orientation and angular velocity.

#include <array>
#include <cmath>

#include "atoll/constraint/SwingTwistConstraint.h"
#include "atoll/scene/constraints/FrameMotors.h"

namespace atl::fields {

namespace {

struct SwingTwistDesc final : ConstraintData<SwingTwistDesc> {
  /// The engine's settings (its motor settings unused: the two motors below hold them).
  SwingTwistConstraintSettings settings;
  /// swing_motor_settings with its state and targets.
  SceneOrientationMotor swing_motor;
  /// twist_motor_settings with its state and targets.
  SceneOrientationMotor twist_motor;
};

constexpr RealRange k_swing_twist_half_range{0.0f, k_pi, "[0, π]"};
constexpr RealRange k_twist_range{-k_pi, k_pi, "[-π, π]"};

// The constraint's one target orientation and angular velocity, from the motors that give them
// (`path`: the constraint's).
Quat target_orientation(const SwingTwistDesc& d, const std::string& path) {
  const std::array<TargetSource<Quat>, 2> sources{{
      {d.swing_motor.target_orientation,
       scene_json::member_path(path, "swing_motor_settings.target_orientation")},
      {d.twist_motor.target_orientation,
       scene_json::member_path(path, "twist_motor_settings.target_orientation")},
  }};
  return shared_target<Quat>(sources, Quat());
}
Vec3 target_angular_velocity(const SwingTwistDesc& d, const std::string& path) {
  const std::array<TargetSource<Vec3>, 2> sources{{
      {d.swing_motor.target_angular_velocity,
       scene_json::member_path(path, "swing_motor_settings.target_angular_velocity")},
      {d.twist_motor.target_angular_velocity,
       scene_json::member_path(path, "twist_motor_settings.target_angular_velocity")},
  }};
  return shared_target<Vec3>(sources, Vec3());
}

struct SwingTwistBehaviour {
  static constexpr ConstraintSubType type = ConstraintSubType::SwingTwist;
  static constexpr bool linear_part = true, angular_part = true, motor = true;
  static std::pair<Vec3, Vec3> anchors(const Constraint& c) {
    const SwingTwistConstraintSettings s = static_cast<const SwingTwistConstraint&>(c).settings();
    return {s.position1, s.position2};
  }
  // A plane axis the file does not give is derived perpendicular to its twist axis (so the
  // plane axes are always written: a default +y left out would read back derived).
  static void complete(SwingTwistDesc& d, const Json& object) {
    const bool both = object.contains("plane_axis");
    if (!both && !object.contains("plane_axis1"))
      d.settings.plane_axis1 = derived_perpendicular(d.settings.twist_axis1);
    if (!both && !object.contains("plane_axis2"))
      d.settings.plane_axis2 = derived_perpendicular(d.settings.twist_axis2);
  }
  static Result<Ref<Constraint>> create(const SwingTwistDesc& d, const ConstraintBuild& b) {
    SwingTwistConstraintSettings s = d.settings;
    s.swing_motor_settings = d.swing_motor.settings;
    s.twist_motor_settings = d.twist_motor.settings;
    Result<Ref<Constraint>> made = s.create(b.bodies, b.body1, b.body2);
    if (!made) return made;
    auto& joint = static_cast<SwingTwistConstraint&>(**made);
    joint.set_swing_motor_state(d.swing_motor.state);
    joint.set_twist_motor_state(d.twist_motor.state);
    // The scene was checked when read: the motors agree on their targets.
    if (Status ok = joint.set_target_orientation_cs(target_orientation(d, "")); !ok)
      return ok.error();
    if (Status ok = joint.set_target_angular_velocity_cs(target_angular_velocity(d, "")); !ok)
      return ok.error();
    return made;
  }
  static void check_event(const EventDesc& e, const std::string& path) {
    if (!e.motor.empty() && e.motor != "swing" && e.motor != "twist")
      scene_json::fail(scene_json::member_path(path, "motor"),
                       "unknown swing_twist motor \"" + e.motor + "\" (expected swing or twist)");
    if (e.target_velocity)
      scene_json::fail(scene_json::member_path(path, "target_velocity"),
                       "a swing_twist motor has target_angular_velocity, not target_velocity");
    if (e.target_position)
      scene_json::fail(scene_json::member_path(path, "target_position"),
                       "a swing_twist motor has target_orientation, not target_position");
  }
  static Status set_motor(Constraint& c, const EventDesc& e) {
    auto& joint = static_cast<SwingTwistConstraint&>(c);
    if (e.target_orientation)
      if (Status ok = joint.set_target_orientation_cs(*e.target_orientation); !ok) return ok;
    if (e.target_angular_velocity)
      if (Status ok = joint.set_target_angular_velocity_cs(*e.target_angular_velocity); !ok)
        return ok;
    if (e.motor_state) {
      if (e.motor != "twist") joint.set_swing_motor_state(*e.motor_state);
      if (e.motor != "swing") joint.set_twist_motor_state(*e.motor_state);
    }
    return Ok{};
  }
  static void total_lambda(const Constraint& c, LambdaParts& parts) {
    const auto& joint = static_cast<const SwingTwistConstraint&>(c);
    add_lambda(parts, "position", joint.total_lambda_position());
    add_lambda(parts, "swing", joint.total_lambda_swing());
    add_lambda(parts, "twist", joint.total_lambda_twist());
    add_lambda(parts, "motor", joint.total_lambda_motor());
  }
};

}  // namespace

template <>
std::span<const Field<SwingTwistDesc>> FieldTable<SwingTwistDesc>::fields() {
  using S = SwingTwistConstraintSettings;
  constexpr auto k_settings = &SwingTwistDesc::settings;
  using Half = RealIn<k_swing_twist_half_range>;
  using Twist = RealIn<k_twist_range>;
  static const Field<SwingTwistDesc> k[] = {
      field<Enum<SpaceNames>, k_settings, &S::space>("space"),
      field<Vector, k_settings, &S::position1>("position1", "m"),
      field<Vector, k_settings, &S::position2>("position2", "m"),
      alias<Vector, Chain<k_settings, &S::position1>, Chain<k_settings, &S::position2>>("position",
                                                                                        "m"),
      field<Direction, k_settings, &S::twist_axis1>("twist_axis1"),
      field<Direction, k_settings, &S::twist_axis2>("twist_axis2"),
      alias<Direction, Chain<k_settings, &S::twist_axis1>, Chain<k_settings, &S::twist_axis2>>(
          "twist_axis"),
      field<Direction, k_settings, &S::plane_axis1>("plane_axis1", "", Presence::Always),
      field<Direction, k_settings, &S::plane_axis2>("plane_axis2", "", Presence::Always),
      alias<Direction, Chain<k_settings, &S::plane_axis1>, Chain<k_settings, &S::plane_axis2>>(
          "plane_axis"),
      field<Half, k_settings, &S::normal_half_cone_angle>("normal_half_cone_angle", "rad"),
      field<Half, k_settings, &S::plane_half_cone_angle>("plane_half_cone_angle", "rad"),
      field<Twist, k_settings, &S::twist_min_angle>("twist_min_angle", "rad"),
      field<Twist, k_settings, &S::twist_max_angle>("twist_max_angle", "rad"),
      field<NonNegative, k_settings, &S::max_friction_torque>("max_friction_torque", "N·m"),
      field<Object<SceneOrientationMotor>, &SwingTwistDesc::swing_motor>("swing_motor_settings"),
      field<Object<SceneOrientationMotor>, &SwingTwistDesc::twist_motor>("twist_motor_settings"),
  };
  return k;
}
template <>
void FieldTable<SwingTwistDesc>::check(const SwingTwistDesc& d, const Json&,
                                       const std::string& path) {
  const SwingTwistConstraintSettings& s = d.settings;
  if (std::fabs(s.twist_axis1.normalized().dot(s.plane_axis1.normalized())) > 1.0e-3f)
    scene_json::fail(scene_json::member_path(path, "plane_axis1"),
                     "must be perpendicular to twist_axis1");
  if (std::fabs(s.twist_axis2.normalized().dot(s.plane_axis2.normalized())) > 1.0e-3f)
    scene_json::fail(scene_json::member_path(path, "plane_axis2"),
                     "must be perpendicular to twist_axis2");
  if (s.twist_min_angle > s.twist_max_angle)
    scene_json::fail(scene_json::member_path(path, "twist_max_angle"),
                     "must be >= twist_min_angle (" + scene_json::number_text(s.twist_min_angle) +
                         "), got " + scene_json::number_text(s.twist_max_angle));
  target_orientation(d, path);
  target_angular_velocity(d, path);
}

const ConstraintType& swing_twist_constraint_type() {
  return constraint_type<SwingTwistDesc, SwingTwistBehaviour>();
}

}  // namespace atl::fields
