#pragma once
// Helpers for the constraint types' visit_type_state (Constraint::visit_state): the fields a
// user sets at run time — motor states, targets, limits — which have rules a saved state must
// keep beyond the one every walked number keeps (finite: visit_finite in math/MathState.h, which
// the solver parts' accumulated impulses use too). Restoring a value that breaks them (a saved
// state corrupted, or not from this world) fails the stream with a message naming the field and
// leaves the field as it was.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "atoll/constraint/MotorSettings.h"
#include "atoll/core/Result.h"
#include "atoll/core/StateStream.h"
#include "atoll/math/MathState.h"

namespace atl {

/// `count` motor states walked as `name`, one unsigned integer each (MotorState's value).
/// Restoring a value that is no motor state fails the stream ("<name>[i]: saved 7, not a motor
/// state (0 … 3)") and leaves all `count` alone.
void visit_motor_states(StateStream& s, const char* name, MotorState* states, uint32_t count);

/// A rotation (a motor's target orientation; a unit quaternion): restoring one that is not
/// finite or whose length is not 1 within 10⁻³ fails the stream and leaves `value` alone.
void visit_rotation(StateStream& s, const char* name, Quat& value);

/// A setting the user changes through a setter that checks it (limits, a friction force): its
/// N floats `values` (the setting as it is now) are walked, float i as `names[i]` (one float
/// each); when restoring, the saved values are passed to `set` (a callable taking the array and
/// returning Status), whose error fails the stream with "restoring <names[0]>: <error>" — the
/// setter has changed nothing then.
template <size_t N, class Set>
void visit_setting(StateStream& s, const std::array<const char*, N>& names,
                   std::array<float, N> values, Set&& set) {
  for (size_t i = 0; i < N; ++i) s.floats(names[i], &values[i], 1);
  if (!s.restoring() || !s.ok()) return;
  const Status status = set(values);
  if (!status) s.fail(std::string("restoring ") + names[0] + ": " + status.error().message());
}

}  // namespace atl
