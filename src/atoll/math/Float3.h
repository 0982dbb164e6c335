#pragma once
// Compact 12-byte storage for a 3-vector (arrays, file formats). Convert to Vec3 to compute.

namespace atl {

/// Three packed floats, no padding, no alignment requirement.
struct Float3 {
  float x = 0.0f;
  float y = 0.0f;
  float z = 0.0f;

  bool operator==(const Float3&) const = default;
  float operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
};
static_assert(sizeof(Float3) == 12);

}  // namespace atl
