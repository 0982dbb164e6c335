#pragma once
// How soft a constraint row is (seed 003 §2.1). Three modes, each with its own fields: a
// frequency (Hz) with a damping ratio, an absolute stiffness (N/m or N·m/rad) with a damping
// coefficient (N·s/m or N·m·s/rad), or a stiffness and damping per unit effective mass (1/s²
// and 1/s). Frequency and mass-normalized stiffness give the same motion for any mass;
// absolute stiffness does not (LAWS.md D3). Unlike Jolt, frequency and stiffness are separate
// members (Jolt stores them in one union, so switching the mode silently keeps the number, and
// HasStiffness() reads the frequency, README "Differences from Jolt").
//
// A spring without stiffness (frequency ≤ 0 in frequency mode, stiffness ≤ 0 in the stiffness
// modes) is hard: the row is solved as a rigid constraint with Baumgarte position correction,
// and the damping is ignored.

#include <cstdint>
#include <string_view>

#include "atoll/core/Result.h"

namespace atl {

/// Which fields of SpringSettings describe the spring.
enum class SpringMode : uint8_t {
  /// `frequency` (Hz) and `damping` (ratio, 1 = critical).
  FrequencyAndDamping = 0,
  /// `stiffness` (N/m, N·m/rad) and `damping` (N·s/m, N·m·s/rad).
  StiffnessAndDamping = 1,
  /// `stiffness` (1/s²) and `damping` (1/s), both per unit effective mass.
  MassNormalizedStiffnessAndDamping = 2,
};

/// Name of a spring mode ("frequency_and_damping", …).
const char* to_string(SpringMode mode);

struct SpringSettings {
  /// Which fields are used; default frequency and damping.
  SpringMode mode = SpringMode::FrequencyAndDamping;
  /// Oscillation frequency (Hz) in FrequencyAndDamping mode; ≤ 0 = hard. Default 0.
  float frequency = 0.0f;
  /// Stiffness in the two stiffness modes (N/m or N·m/rad; 1/s² mass-normalized); ≤ 0 = hard.
  float stiffness = 0.0f;
  /// Damping: ratio (frequency mode), N·s/m or N·m·s/rad (stiffness), 1/s (mass-normalized).
  float damping = 0.0f;

  /// A spring of `frequency` Hz with damping ratio `damping`.
  static SpringSettings frequency_and_damping(float frequency, float damping) {
    return {SpringMode::FrequencyAndDamping, frequency, 0.0f, damping};
  }
  /// A spring of absolute `stiffness` and damping coefficient `damping`.
  static SpringSettings stiffness_and_damping(float stiffness, float damping) {
    return {SpringMode::StiffnessAndDamping, 0.0f, stiffness, damping};
  }
  /// A spring of `stiffness` and `damping` per unit effective mass.
  static SpringSettings mass_normalized_stiffness_and_damping(float stiffness, float damping) {
    return {SpringMode::MassNormalizedStiffnessAndDamping, 0.0f, stiffness, damping};
  }

  /// True when the spring is soft: stiffness > 0 in a stiffness mode, frequency > 0 otherwise.
  bool has_stiffness() const {
    return mode == SpringMode::FrequencyAndDamping ? frequency > 0.0f : stiffness > 0.0f;
  }

  /// Checks every field (finite, ≥ 0, a known mode); the error names `path`.field.
  Status validate(std::string_view path = "SpringSettings") const;

  bool operator==(const SpringSettings&) const = default;
};

}  // namespace atl
