#pragma once
// 4-vector of floats in a 16-byte SIMD register (matrix columns, homogeneous points, planes).

#include <cmath>
#include <ostream>
#include <type_traits>

#include "atoll/math/Vec3.h"

namespace atl {

class alignas(16) Vec4 {
 public:
  // Built in a register when SSE is on (as Vec3's constructors, which say why).
  constexpr Vec4() : f_{0.0f, 0.0f, 0.0f, 0.0f} {}
  constexpr Vec4(float x, float y, float z, float w) {
#if ATOLL_USE_SSE
    if (!std::is_constant_evaluated()) {
      _mm_store_ps(f_, _mm_set_ps(w, z, y, x));
      return;
    }
#endif
    f_[0] = x;
    f_[1] = y;
    f_[2] = z;
    f_[3] = w;
  }
  Vec4(const Vec3& v, float w) {
#if ATOLL_USE_SSE
    _mm_store_ps(f_, _mm_insert_ps(v.simd(), _mm_set_ss(w), 0x30));
#else
    f_[0] = v.x();
    f_[1] = v.y();
    f_[2] = v.z();
    f_[3] = w;
#endif
  }

  static constexpr Vec4 zero() { return Vec4(); }
  static constexpr Vec4 replicate(float v) {
#if ATOLL_USE_SSE
    if (!std::is_constant_evaluated()) return Vec4(_mm_set1_ps(v));
#endif
    return Vec4(v, v, v, v);
  }

  constexpr float x() const { return f_[0]; }
  constexpr float y() const { return f_[1]; }
  constexpr float z() const { return f_[2]; }
  constexpr float w() const { return f_[3]; }
  constexpr float operator[](int i) const { return f_[i]; }
  void set_component(int i, float v) { f_[i] = v; }
  Vec3 xyz() const {
#if ATOLL_USE_SSE
    const __m128 v = simd();
    return Vec3(_mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 2, 1, 0)));
#else
    return Vec3(f_[0], f_[1], f_[2]);
#endif
  }
  const float* data() const { return f_; }

#if ATOLL_USE_SSE
  explicit Vec4(__m128 m) { _mm_store_ps(f_, m); }
  __m128 simd() const { return _mm_load_ps(f_); }
#endif

  friend Vec4 operator+(const Vec4& a, const Vec4& b) {
#if ATOLL_USE_SSE
    return Vec4(_mm_add_ps(a.simd(), b.simd()));
#else
    return Vec4(a.f_[0] + b.f_[0], a.f_[1] + b.f_[1], a.f_[2] + b.f_[2], a.f_[3] + b.f_[3]);
#endif
  }
  friend Vec4 operator-(const Vec4& a, const Vec4& b) {
#if ATOLL_USE_SSE
    return Vec4(_mm_sub_ps(a.simd(), b.simd()));
#else
    return Vec4(a.f_[0] - b.f_[0], a.f_[1] - b.f_[1], a.f_[2] - b.f_[2], a.f_[3] - b.f_[3]);
#endif
  }
  friend Vec4 operator*(const Vec4& a, const Vec4& b) {
#if ATOLL_USE_SSE
    return Vec4(_mm_mul_ps(a.simd(), b.simd()));
#else
    return Vec4(a.f_[0] * b.f_[0], a.f_[1] * b.f_[1], a.f_[2] * b.f_[2], a.f_[3] * b.f_[3]);
#endif
  }
  friend Vec4 operator/(const Vec4& a, const Vec4& b) {
#if ATOLL_USE_SSE
    return Vec4(_mm_div_ps(a.simd(), b.simd()));
#else
    return Vec4(a.f_[0] / b.f_[0], a.f_[1] / b.f_[1], a.f_[2] / b.f_[2], a.f_[3] / b.f_[3]);
#endif
  }
  friend Vec4 operator*(const Vec4& a, float s) { return a * replicate(s); }
  friend Vec4 operator*(float s, const Vec4& a) { return a * replicate(s); }
  friend Vec4 operator/(const Vec4& a, float s) { return a / replicate(s); }
  Vec4 operator-() const { return Vec4() - *this; }
  Vec4& operator+=(const Vec4& b) { return *this = *this + b; }
  Vec4& operator-=(const Vec4& b) { return *this = *this - b; }
  Vec4& operator*=(float s) { return *this = *this * s; }
  bool operator==(const Vec4& b) const {
    return f_[0] == b.f_[0] && f_[1] == b.f_[1] && f_[2] == b.f_[2] && f_[3] == b.f_[3];
  }

  /// Dot product, summed as ((x + y) + z) + w on every path.
  float dot(const Vec4& b) const {
    const Vec4 p = *this * b;
    return ((p.f_[0] + p.f_[1]) + p.f_[2]) + p.f_[3];
  }
  float length_sq() const { return dot(*this); }
  float length() const { return std::sqrt(length_sq()); }
  Vec4 normalized() const { return *this / length(); }
  bool is_normalized(float tolerance = 1.0e-4f) const {
    return std::fabs(length_sq() - 1.0f) <= tolerance;
  }
  bool is_close(const Vec4& b, float max_dist_sq = 1.0e-12f) const {
    return (b - *this).length_sq() <= max_dist_sq;
  }
  bool is_finite() const {
    return std::isfinite(f_[0]) && std::isfinite(f_[1]) && std::isfinite(f_[2]) &&
           std::isfinite(f_[3]);
  }
  Vec4 abs() const {
    return Vec4(std::fabs(f_[0]), std::fabs(f_[1]), std::fabs(f_[2]), std::fabs(f_[3]));
  }

 private:
  float f_[4];
};

static_assert(sizeof(Vec4) == 16);

inline std::ostream& operator<<(std::ostream& os, const Vec4& v) {
  return os << '(' << v.x() << ", " << v.y() << ", " << v.z() << ", " << v.w() << ')';
}

}  // namespace atl
