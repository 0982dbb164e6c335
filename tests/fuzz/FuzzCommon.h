#pragma once
// What the fuzz targets share: a reader that turns the fuzz bytes into parameters, and the
// checks every target makes (a failed check aborts, which libFuzzer and the replay main report
// as a crash with the input that caused it).
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "atoll/core/Result.h"
#include "atoll/math/Quat.h"
#include "atoll/math/Vec3.h"
#include "atoll/shape/Validation.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl::fuzz {

/// Aborts with `what` when `condition` is false.
inline void check(bool condition, const std::string& what) {
  if (condition) return;
  std::fprintf(stderr, "fuzz check failed: %s\n", what.c_str());
  std::abort();
}

/// A rejection must carry a message; `call` names the call in the failure.
template <class T>
bool accepted(const Result<T>& result, const char* call) {
  if (!result.ok())
    check(std::strlen(result.error().message()) > 0, std::string(call) + ": empty error message");
  return result.ok();
}

inline bool finite(const Vec3& v) {
  return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}
inline bool finite(const Quat& q) {
  return std::isfinite(q.x()) && std::isfinite(q.y()) && std::isfinite(q.z()) &&
         std::isfinite(q.w());
}

/// Every body of `system` that the engine has not quarantined has a finite pose and velocity.
inline void check_world_finite(const PhysicsSystem& system) {
  system.bodies().for_each_body([&](const Body& body) {
    if (body.is_soft_body()) {
      const SoftBody* soft = system.soft_body(body.id());
      check(soft != nullptr, "soft body index " + std::to_string(body.id().index()) +
                                 ": its body lives, its vertices are gone");
      for (const Vec3& p : soft->positions())
        check(finite(p), "soft body index " + std::to_string(body.id().index()) +
                             ": a vertex position is not finite");
    }
    if (body.is_quarantined()) return;
    check(finite(body.position()) && finite(body.rotation()) && finite(body.linear_velocity()) &&
              finite(body.angular_velocity()),
          "body index " + std::to_string(body.id().index()) + " (motion type " +
              std::to_string(int(body.motion_type())) + (body.is_active() ? ", active" : "") +
              (body.is_added() ? ", added" : "") + "): position " + format_vec3(body.position()) +
              ", rotation " +
              format_vec3(Vec3(body.rotation().x(), body.rotation().y(), body.rotation().z())) +
              " w " + format_float(body.rotation().w()) + ", linear velocity " +
              format_vec3(body.linear_velocity()) + ", angular velocity " +
              format_vec3(body.angular_velocity()) + ": not finite, and not quarantined");
  });
}

/// Reads parameters from the fuzz bytes front to back; past the end every read gives 0, so any
/// input decodes to something.
class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  /// True when every byte has been read.
  bool empty() const { return pos_ >= size_; }
  /// Bytes not read yet.
  size_t remaining() const { return empty() ? 0 : size_ - pos_; }

  uint8_t u8() { return empty() ? 0 : data_[pos_++]; }
  uint16_t u16() { return uint16_t(u8() | (u8() << 8)); }
  uint32_t u32() { return uint32_t(u16()) | (uint32_t(u16()) << 16); }
  bool boolean() { return (u8() & 1) != 0; }
  /// A number in [0, n) (n > 0).
  uint32_t below(uint32_t n) { return n <= 256 ? u8() % n : u32() % n; }

  /// Any float: mostly moderate values on a few scales, sometimes a special one (0, ±∞, NaN,
  /// ±FLT_MAX, a denormal, ±1e30), sometimes raw bits.
  float real() {
    const uint8_t kind = u8();
    switch (kind % 32) {
      case 0:
        return std::numeric_limits<float>::quiet_NaN();
      case 1:
        return (kind & 32) ? std::numeric_limits<float>::infinity()
                           : -std::numeric_limits<float>::infinity();
      case 2:
        return (kind & 32) ? std::numeric_limits<float>::max() : -std::numeric_limits<float>::max();
      case 3:
        return (kind & 32) ? 1.0e30f : -1.0e30f;
      case 4:
        return std::numeric_limits<float>::denorm_min();
      case 5:
        return (kind & 32) ? 0.0f : -0.0f;
      case 6:
        return std::bit_cast<float>(u32());
      default: {
        // A 16-bit fraction times a scale 1e-4 … 1e4.
        const float scales[] = {1.0e-4f, 1.0e-2f, 1.0f, 1.0f, 1.0f, 10.0f, 100.0f, 1.0e4f};
        return float(int16_t(u16())) / 4096.0f * scales[(kind >> 5) & 7];
      }
    }
  }
  /// A float in [lo, hi] (never special).
  float in_range(float lo, float hi) { return lo + (hi - lo) * float(u16()) / 65535.0f; }
  Vec3 vec3() {
    const float x = real(), y = real();
    return Vec3(x, y, real());
  }
  /// A vector of moderate components in [-range, range].
  Vec3 moderate_vec3(float range) {
    const float x = in_range(-range, range), y = in_range(-range, range);
    return Vec3(x, y, in_range(-range, range));
  }
  /// Mostly a unit quaternion (from 4 moderate components), sometimes any 4 floats.
  Quat quat() {
    if (u8() % 8 == 0) {
      const float x = real(), y = real(), z = real();
      return Quat(x, y, z, real());
    }
    const float x = in_range(-1, 1), y = in_range(-1, 1), z = in_range(-1, 1), w = in_range(-1, 1);
    const float length = std::sqrt(x * x + y * y + z * z + w * w);
    if (!(length > 1.0e-3f)) return Quat::identity();
    return Quat(x / length, y / length, z / length, w / length);
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

}  // namespace atl::fuzz
