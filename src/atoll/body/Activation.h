#pragma once
// Whether an operation on a body should wake it up.

#include <cstdint>

namespace atl {

/// Whether a call that adds or changes a body also activates (wakes) it.
enum class Activation : uint8_t {
  /// Wake the body (and keep it awake) so the change takes effect in the next step.
  Activate,
  /// Leave the body's sleep state as it is.
  DontActivate,
};

}  // namespace atl
