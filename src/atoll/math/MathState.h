#pragma once
// The math types as fields of a saved state (core/StateStream.h): their floats, in order.

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

}  // namespace atl
