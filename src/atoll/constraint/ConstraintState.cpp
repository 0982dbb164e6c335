#include "atoll/constraint/ConstraintState.h"

#include <cmath>

namespace atl {

void visit_motor_states(StateStream& s, const char* name, MotorState* states, uint32_t count) {
  constexpr uint32_t k_max_state = static_cast<uint32_t>(MotorState::PositionAndVelocity);
  constexpr uint32_t k_max_count = 8;
  uint32_t values[k_max_count];
  if (count > k_max_count) {
    s.fail(std::string(name) + ": " + std::to_string(count) + " motor states, at most " +
           std::to_string(k_max_count));
    return;
  }
  for (uint32_t i = 0; i < count; ++i) values[i] = static_cast<uint32_t>(states[i]);
  s.u32s(name, values, count);
  if (!s.restoring() || !s.ok()) return;
  for (uint32_t i = 0; i < count; ++i)
    if (values[i] > k_max_state) {
      const std::string field =
          count == 1 ? name : std::string(name) + "[" + std::to_string(i) + "]";
      s.fail(field + ": saved " + std::to_string(values[i]) + ", not a motor state (0 … " +
             std::to_string(k_max_state) + ")");
      return;
    }
  for (uint32_t i = 0; i < count; ++i) states[i] = static_cast<MotorState>(values[i]);
}

void visit_target(StateStream& s, const char* name, float& value) {
  float v = value;
  s.floats(name, &v, 1);
  if (!s.restoring() || !s.ok()) return;
  if (!std::isfinite(v)) {
    s.fail(std::string(name) + ": saved " + std::to_string(v) + ", must be finite");
    return;
  }
  value = v;
}

void visit_target(StateStream& s, const char* name, Vec3& value) {
  Vec3 v = value;
  visit_state(s, name, v);
  if (!s.restoring() || !s.ok()) return;
  if (!v.is_finite()) {
    s.fail(std::string(name) + ": saved a vector that is not finite");
    return;
  }
  value = v;
}

void visit_target(StateStream& s, const char* name, Quat& value) {
  Quat q = value;
  visit_state(s, name, q);
  if (!s.restoring() || !s.ok()) return;
  if (!q.is_finite() || std::fabs(q.length() - 1.0f) > 1.0e-3f) {
    s.fail(std::string(name) + ": saved a quaternion that is not a finite unit quaternion");
    return;
  }
  value = q;
}

}  // namespace atl
