// The tables of the swing_twist and six_dof motor objects (scene/constraints/FrameMotors.h).

#include "atoll/scene/constraints/FrameMotors.h"

namespace atl::fields {

namespace {

void check_motor_limits(const MotorSettings& s, const std::string& path) {
  using scene_json::number_text;
  if (s.min_force_limit > s.max_force_limit)
    scene_json::fail(scene_json::member_path(path, "min_force_limit"),
                     "must be <= max_force_limit (" + number_text(s.max_force_limit) + "), got " +
                         number_text(s.min_force_limit));
  if (s.min_torque_limit > s.max_torque_limit)
    scene_json::fail(scene_json::member_path(path, "min_torque_limit"),
                     "must be <= max_torque_limit (" + number_text(s.max_torque_limit) + "), got " +
                         number_text(s.min_torque_limit));
}

}  // namespace

template <>
std::span<const Field<SceneOrientationMotor>> FieldTable<SceneOrientationMotor>::fields() {
  using M = SceneOrientationMotor;
  using S = MotorSettings;
  constexpr auto s = &M::settings;
  static const Field<M> k[] = {
      field<Enum<MotorStateNames>, &M::state>("state"),
      field<Rotation, &M::target_orientation>("target_orientation"),
      field<Vector, &M::target_angular_velocity>("target_angular_velocity", "rad/s"),
      field<Object<SpringSettings>, s, &S::spring>("spring"),
      field<Real, s, &S::min_torque_limit>("min_torque_limit", "N·m"),
      field<Real, s, &S::max_torque_limit>("max_torque_limit", "N·m"),
  };
  return k;
}
template <>
void FieldTable<SceneOrientationMotor>::check(const SceneOrientationMotor& motor, const Json&,
                                              const std::string& path) {
  check_motor_limits(motor.settings, path);
}

template <>
std::span<const Field<SceneAxisMotor>> FieldTable<SceneAxisMotor>::fields() {
  using M = SceneAxisMotor;
  using S = MotorSettings;
  constexpr auto s = &M::settings;
  static const Field<M> k[] = {
      field<Enum<MotorStateNames>, &M::state>("state"),
      field<Real, &M::target_velocity>("target_velocity", "m/s"),
      field<Real, &M::target_position>("target_position", "m"),
      field<Rotation, &M::target_orientation>("target_orientation"),
      field<Vector, &M::target_angular_velocity>("target_angular_velocity", "rad/s"),
      field<Object<SpringSettings>, s, &S::spring>("spring"),
      field<Real, s, &S::min_force_limit>("min_force_limit", "N"),
      field<Real, s, &S::max_force_limit>("max_force_limit", "N"),
      field<Real, s, &S::min_torque_limit>("min_torque_limit", "N·m"),
      field<Real, s, &S::max_torque_limit>("max_torque_limit", "N·m"),
  };
  return k;
}
template <>
void FieldTable<SceneAxisMotor>::check(const SceneAxisMotor& motor, const Json&,
                                       const std::string& path) {
  check_motor_limits(motor.settings, path);
}

}  // namespace atl::fields
