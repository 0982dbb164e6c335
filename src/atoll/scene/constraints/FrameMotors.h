#pragma once
// Internal to scene/constraints/: the motor objects of swing_twist and six_dof, whose motors
// drive an orientation and an angular velocity (and, for six_dof's translation axes, a position
// and a velocity along the axis). The engine keeps one target orientation and one target
// angular velocity per constraint; the motor objects that give them must agree
// (shared_target).

#include <optional>
#include <span>
#include <string>

#include "atoll/scene/ConstraintFields.h"

namespace atl::fields {

/// A swing_twist motor ("swing_motor_settings", "twist_motor_settings").
struct SceneOrientationMotor {
  /// Spring and torque limits; defaults MotorSettings' own (2 Hz, damping 1, unlimited).
  MotorSettings settings;
  /// Initial state (default off).
  MotorState state = MotorState::Off;
  /// Target rotation of constraint space 2 in constraint space 1 (unit; default identity).
  Quat target_orientation;
  /// Target angular velocity of body 2 relative to body 1 (rad/s, constraint space 1;
  /// default 0).
  Vec3 target_angular_velocity;
};

/// One six_dof axis motor (an element of "motor_settings").
struct SceneAxisMotor {
  /// Spring and force (translation) or torque (rotation) limits; MotorSettings' defaults.
  MotorSettings settings;
  /// Initial state (default off).
  MotorState state = MotorState::Off;
  /// Translation axes: target velocity along the axis (m/s; default 0).
  float target_velocity = 0.0f;
  /// Translation axes: target position along the axis (m; default 0).
  float target_position = 0.0f;
  /// Rotation axes: target rotation of frame 2 in frame 1 (unit; default identity).
  Quat target_orientation;
  /// Rotation axes: target angular velocity of body 2 relative to body 1 (rad/s, frame 2's
  /// axes; default 0).
  Vec3 target_angular_velocity;
};

template <>
void FieldTable<SceneOrientationMotor>::check(const SceneOrientationMotor&, const Json&,
                                              const std::string&);
template <>
void FieldTable<SceneAxisMotor>::check(const SceneAxisMotor&, const Json&, const std::string&);

/// One motor object's value of a target the constraint holds once.
template <class V>
struct TargetSource {
  /// The value the object gives (its default when it gives none).
  const V& value;
  /// The JSON path of the key (for the error).
  std::string path;
};

/// The constraint's target from the motor objects that give it (those whose value differs from
/// `default_value`): all of them must give the same; the default when none does. Fails at the
/// second object that gives another value.
template <class V>
V shared_target(std::span<const TargetSource<V>> sources, const V& default_value) {
  const TargetSource<V>* first = nullptr;
  for (const TargetSource<V>& source : sources) {
    if (source.value == default_value) continue;
    if (first == nullptr) {
      first = &source;
      continue;
    }
    if (!(source.value == first->value))
      scene_json::fail(source.path, "must equal " + first->path +
                                        " (the constraint has one such target) or be left out");
  }
  return first != nullptr ? first->value : default_value;
}

}  // namespace atl::fields
