#pragma once
// How carefully a moving body's motion is checked for tunnelling.

#include <cstdint>

namespace atl {

/// Collision detection quality of a moving body. Values are stable: they are serialized.
enum class MotionQuality : uint8_t {
  /// Position integrated directly; fast bodies may tunnel through thin geometry.
  Discrete = 0,
  /// When a body moves more than linear_cast_threshold × inner radius in a step, its shape is
  /// cast along the displacement (continuous collision detection, no rotation).
  LinearCast = 1,
};

/// Lower-case name ("discrete", "linear_cast"), as used in scene files and errors.
constexpr const char* motion_quality_name(MotionQuality quality) {
  switch (quality) {
    case MotionQuality::Discrete:
      return "discrete";
    case MotionQuality::LinearCast:
      return "linear_cast";
  }
  return "invalid";
}

}  // namespace atl
