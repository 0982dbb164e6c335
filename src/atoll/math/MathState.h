#pragma once
// The math types as fields of a saved state (core/StateStream.h): their floats, in order.

#include <cmath>
#include <cstdint>
#include <string>

#include "atoll/core/Assert.h"
#include "atoll/core/StateStream.h"
#include "atoll/math/Float3.h"
#include "atoll/math/Quat.h"
#include "atoll/math/Vec3.h"

namespace atl {

inline void visit_state(StateStream& s, const char* name, float& value) {
  s.floats(name, &value, 1);
}

inline void visit_state(StateStream& s, const char* name, Vec3& value) {
  float f[3] = {value.x(), value.y(), value.z()};
  s.floats(name, f, 3);
  if (s.restoring()) value = Vec3(f[0], f[1], f[2]);
}

inline void visit_state(StateStream& s, const char* name, Float3& value) {
  float f[3] = {value.x, value.y, value.z};
  s.floats(name, f, 3);
  if (s.restoring()) value = Float3{f[0], f[1], f[2]};
}

inline void visit_state(StateStream& s, const char* name, Quat& value) {
  float f[4] = {value.x(), value.y(), value.z(), value.w()};
  s.floats(name, f, 4);
  if (s.restoring()) value = Quat(f[0], f[1], f[2], f[3]);
}

/// `count` (≤ 4) floats that a step can only leave finite (an accumulated impulse, a joint's
/// angle, a motor target), walked as `name`. Restoring a value that is not finite (a hand-made
/// or damaged state) fails the stream with "<name>: saved nan, must be finite" (a component gets
/// .x .y .z .w when count > 1) and leaves all `count` alone.
inline void visit_finite(StateStream& s, const char* name, float* values, uint32_t count) {
  ATOLL_ASSERT(count <= 4, "visit_finite walks at most 4 floats");
  float read[4];
  for (uint32_t i = 0; i < count; ++i) read[i] = values[i];
  s.floats(name, read, count);
  if (!s.restoring() || !s.ok()) return;
  for (uint32_t i = 0; i < count; ++i)
    if (!std::isfinite(read[i])) {
      std::string field(name);
      if (count > 1) field += std::string(".") + "xyzw"[i];
      s.fail(field + ": saved " + std::to_string(read[i]) + ", must be finite");
      return;
    }
  for (uint32_t i = 0; i < count; ++i) values[i] = read[i];
}

inline void visit_finite(StateStream& s, const char* name, float& value) {
  visit_finite(s, name, &value, 1);
}

inline void visit_finite(StateStream& s, const char* name, Vec3& value) {
  float f[3] = {value.x(), value.y(), value.z()};
  visit_finite(s, name, f, 3);
  if (s.restoring() && s.ok()) value = Vec3(f[0], f[1], f[2]);
}

}  // namespace atl
