#pragma once
// A constraint motor (seed 003 §2.3): drives one degree of freedom towards a target velocity,
// a target position, or both, through its own spring and within force and torque limits. The
// motor's state (Off / Velocity / Position / PositionAndVelocity) and its targets live in the
// constraint, as in Jolt; MotorSettings holds what does not change while it runs.
//
// A position motor whose spring is hard (frequency 0) is a rigid motor: it drives the error to
// zero within one step, as far as its limits allow. In Jolt it never moves (LAWS.md B2).

#include <cstdint>
#include <string_view>

#include "atoll/constraint/SpringSettings.h"
#include "atoll/math/Math.h"

namespace atl {

/// What a motor drives.
enum class MotorState : uint8_t {
  /// No motor force.
  Off = 0,
  /// Drives the velocity (m/s or rad/s) to the target velocity.
  Velocity = 1,
  /// Drives the position (m or rad) to the target position through the motor's spring.
  Position = 2,
  /// Both: the spring pulls to the target position while its damper drives to the target velocity.
  PositionAndVelocity = 3,
};

/// Name of a motor state ("off", "velocity", "position", "position_and_velocity").
const char* to_string(MotorState state);

struct MotorSettings {
  /// The spring of a position motor; default 2 Hz, critically damped. Frequency 0 = rigid motor.
  SpringSettings spring = SpringSettings::frequency_and_damping(2.0f, 1.0f);
  /// Lowest force (N) a linear motor applies; default −∞ (unlimited).
  float min_force_limit = -k_float_max;
  /// Highest force (N) a linear motor applies; default +∞ (unlimited).
  float max_force_limit = k_float_max;
  /// Lowest torque (N·m) an angular motor applies; default −∞ (unlimited).
  float min_torque_limit = -k_float_max;
  /// Highest torque (N·m) an angular motor applies; default +∞ (unlimited).
  float max_torque_limit = k_float_max;

  /// Sets the force limits to [−limit, limit] (N).
  void set_force_limit(float limit) {
    min_force_limit = -limit;
    max_force_limit = limit;
  }
  /// Sets the torque limits to [−limit, limit] (N·m).
  void set_torque_limit(float limit) {
    min_torque_limit = -limit;
    max_torque_limit = limit;
  }

  /// Checks the spring and the limits (no NaN, min ≤ max); the error names `path`.field.
  Status validate(std::string_view path = "MotorSettings") const;

  bool operator==(const MotorSettings&) const = default;
};

}  // namespace atl
