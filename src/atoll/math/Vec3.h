#pragma once
// 3-vector of floats in a 16-byte SIMD register. The fourth lane mirrors z so that lane-wise
// operations (division, sqrt) never produce NaN or infinity in the unused lane.

#include <cmath>
#include <ostream>
#include <type_traits>

#include "atoll/core/Assert.h"
#include "atoll/math/Float3.h"
#include "atoll/math/Math.h"
#include "atoll/math/Simd.h"

namespace atl {

/// std::fmax(x, y) without the library call, with glibc's result on x86-64 for every input
/// (the larger; y when they compare equal, as +0 and -0; the other one when one is NaN).
inline float fmax_inline(float x, float y) { return (x > y || y != y) ? x : y; }
/// std::fmin(x, y) likewise.
inline float fmin_inline(float x, float y) { return (x < y || y != y) ? x : y; }

class alignas(16) Vec3 {
 public:
  // The constructors from floats build the register directly when SSE is on: filled lane by
  // lane, the compiler assembled the vector in integer registers and memory, and the load that
  // followed waited for the stores (a store-forwarding stall in every `v * s`).
  /// Zero vector.
  constexpr Vec3() : f_{0.0f, 0.0f, 0.0f, 0.0f} {}
  constexpr Vec3(float x, float y, float z) {
#if ATOLL_USE_SSE
    if (!std::is_constant_evaluated()) {
      _mm_store_ps(f_, _mm_set_ps(z, z, y, x));
      return;
    }
#endif
    f_[0] = x;
    f_[1] = y;
    f_[2] = f_[3] = z;
  }
  explicit Vec3(const Float3& f) {
#if ATOLL_USE_SSE
    // (x, y) as one 8-byte load, then z into both upper lanes. Through __m128i, which may alias
    // anything: loaded as a double, GCC moved the load ahead of the stores to the floats.
    const __m128 xy = _mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(&f.x)));
    const __m128 z = _mm_load_ss(&f.z);
    _mm_store_ps(f_, _mm_movelh_ps(xy, _mm_shuffle_ps(z, z, _MM_SHUFFLE(0, 0, 0, 0))));
#else
    f_[0] = f.x;
    f_[1] = f.y;
    f_[2] = f_[3] = f.z;
#endif
  }

  static constexpr Vec3 zero() { return Vec3(); }
  static constexpr Vec3 replicate(float v) {
#if ATOLL_USE_SSE
    if (!std::is_constant_evaluated()) return Vec3(_mm_set1_ps(v));
#endif
    return Vec3(v, v, v);
  }
  static constexpr Vec3 axis_x() { return Vec3(1, 0, 0); }
  static constexpr Vec3 axis_y() { return Vec3(0, 1, 0); }
  static constexpr Vec3 axis_z() { return Vec3(0, 0, 1); }
  static Vec3 nan() { return replicate(std::numeric_limits<float>::quiet_NaN()); }

  constexpr float x() const { return f_[0]; }
  constexpr float y() const { return f_[1]; }
  constexpr float z() const { return f_[2]; }
  constexpr float operator[](int i) const { return f_[i]; }
  void set_x(float v) { f_[0] = v; }
  void set_y(float v) { f_[1] = v; }
  void set_z(float v) { f_[2] = f_[3] = v; }
  void set_component(int i, float v) {
    f_[i] = v;
    f_[3] = f_[2];
  }
  Float3 to_float3() const { return {f_[0], f_[1], f_[2]}; }
  const float* data() const { return f_; }

#if ATOLL_USE_SSE
  explicit Vec3(__m128 m) { _mm_store_ps(f_, m); }
  __m128 simd() const { return _mm_load_ps(f_); }
#endif

  friend Vec3 operator+(const Vec3& a, const Vec3& b) {
#if ATOLL_USE_SSE
    return Vec3(_mm_add_ps(a.simd(), b.simd()));
#else
    return Vec3(a.f_[0] + b.f_[0], a.f_[1] + b.f_[1], a.f_[2] + b.f_[2]);
#endif
  }
  friend Vec3 operator-(const Vec3& a, const Vec3& b) {
#if ATOLL_USE_SSE
    return Vec3(_mm_sub_ps(a.simd(), b.simd()));
#else
    return Vec3(a.f_[0] - b.f_[0], a.f_[1] - b.f_[1], a.f_[2] - b.f_[2]);
#endif
  }
  /// Lane-wise product.
  friend Vec3 operator*(const Vec3& a, const Vec3& b) {
#if ATOLL_USE_SSE
    return Vec3(_mm_mul_ps(a.simd(), b.simd()));
#else
    return Vec3(a.f_[0] * b.f_[0], a.f_[1] * b.f_[1], a.f_[2] * b.f_[2]);
#endif
  }
  /// Lane-wise quotient.
  friend Vec3 operator/(const Vec3& a, const Vec3& b) {
#if ATOLL_USE_SSE
    return Vec3(_mm_div_ps(a.simd(), b.simd()));
#else
    return Vec3(a.f_[0] / b.f_[0], a.f_[1] / b.f_[1], a.f_[2] / b.f_[2]);
#endif
  }
  friend Vec3 operator*(const Vec3& a, float s) { return a * replicate(s); }
  friend Vec3 operator*(float s, const Vec3& a) { return a * replicate(s); }
  friend Vec3 operator/(const Vec3& a, float s) { return a / replicate(s); }
  Vec3 operator-() const { return Vec3() - *this; }
  Vec3& operator+=(const Vec3& b) { return *this = *this + b; }
  Vec3& operator-=(const Vec3& b) { return *this = *this - b; }
  Vec3& operator*=(const Vec3& b) { return *this = *this * b; }
  Vec3& operator*=(float s) { return *this = *this * s; }
  Vec3& operator/=(float s) { return *this = *this / s; }
  bool operator==(const Vec3& b) const {
    return f_[0] == b.f_[0] && f_[1] == b.f_[1] && f_[2] == b.f_[2];
  }

  /// Dot product, summed as (x + y) + z on every path.
  float dot(const Vec3& b) const {
    const Vec3 p = *this * b;
    return (p.f_[0] + p.f_[1]) + p.f_[2];
  }
  Vec3 cross(const Vec3& b) const {
#if ATOLL_USE_SSE
    const __m128 a0 = simd();
    const __m128 b0 = b.simd();
    const __m128 a_yzx = _mm_shuffle_ps(a0, a0, _MM_SHUFFLE(3, 0, 2, 1));
    const __m128 b_yzx = _mm_shuffle_ps(b0, b0, _MM_SHUFFLE(3, 0, 2, 1));
    const __m128 c = _mm_sub_ps(_mm_mul_ps(a0, b_yzx), _mm_mul_ps(a_yzx, b0));
    Vec3 r(_mm_shuffle_ps(c, c, _MM_SHUFFLE(3, 0, 2, 1)));
    r.f_[3] = r.f_[2];
    return r;
#else
    return Vec3(f_[1] * b.f_[2] - f_[2] * b.f_[1], f_[2] * b.f_[0] - f_[0] * b.f_[2],
                f_[0] * b.f_[1] - f_[1] * b.f_[0]);
#endif
  }
  float length_sq() const { return dot(*this); }
  float length() const { return std::sqrt(length_sq()); }
  /// Unit vector; asserts a non-zero length.
  Vec3 normalized() const {
    const float len = length();
    ATOLL_ASSERT(len > 0.0f);
    return *this / len;
  }
  /// Unit vector, or `fallback` when the length is (almost) zero.
  Vec3 normalized_or(const Vec3& fallback) const {
    const float len_sq = length_sq();
    return len_sq > 1.0e-20f ? *this / std::sqrt(len_sq) : fallback;
  }
  bool is_normalized(float tolerance = 1.0e-4f) const {
    return std::fabs(length_sq() - 1.0f) <= tolerance;
  }
  bool is_near_zero(float max_dist_sq = 1.0e-12f) const { return length_sq() <= max_dist_sq; }
  bool is_close(const Vec3& b, float max_dist_sq = 1.0e-12f) const {
    return (b - *this).length_sq() <= max_dist_sq;
  }
  bool is_finite() const {
    return std::isfinite(f_[0]) && std::isfinite(f_[1]) && std::isfinite(f_[2]);
  }
  bool is_nan() const { return std::isnan(f_[0]) || std::isnan(f_[1]) || std::isnan(f_[2]); }

  Vec3 abs() const {
#if ATOLL_USE_SSE
    return Vec3(_mm_andnot_ps(_mm_set1_ps(-0.0f), simd()));
#else
    return Vec3(std::fabs(f_[0]), std::fabs(f_[1]), std::fabs(f_[2]));
#endif
  }
  Vec3 reciprocal() const { return replicate(1.0f) / *this; }
  Vec3 sqrt() const {
#if ATOLL_USE_SSE
    return Vec3(_mm_sqrt_ps(simd()));
#else
    return Vec3(std::sqrt(f_[0]), std::sqrt(f_[1]), std::sqrt(f_[2]));
#endif
  }
  /// Per-lane -1 or +1 (sign bit based, so -0 gives -1).
  Vec3 sign_vector() const {
    return Vec3(std::signbit(f_[0]) ? -1.0f : 1.0f, std::signbit(f_[1]) ? -1.0f : 1.0f,
                std::signbit(f_[2]) ? -1.0f : 1.0f);
  }
  /// Smallest / largest component, as std::fmin / std::fmax (a NaN component is ignored unless
  /// all are NaN), written out: the library calls cost contact setup a fifth of its time.
  float min_component() const { return fmin_inline(fmin_inline(f_[0], f_[1]), f_[2]); }
  float max_component() const { return fmax_inline(fmax_inline(f_[0], f_[1]), f_[2]); }
  /// Index of the smallest / largest component (first one on ties).
  int min_component_index() const {
    return f_[0] <= f_[1] ? (f_[0] <= f_[2] ? 0 : 2) : (f_[1] <= f_[2] ? 1 : 2);
  }
  int max_component_index() const {
    return f_[0] >= f_[1] ? (f_[0] >= f_[2] ? 0 : 2) : (f_[1] >= f_[2] ? 1 : 2);
  }
  /// Some unit vector perpendicular to this one (which must be normalized).
  Vec3 normalized_perpendicular() const {
    if (std::fabs(f_[0]) > std::fabs(f_[1])) {
      const float len = std::sqrt(f_[0] * f_[0] + f_[2] * f_[2]);
      return Vec3(f_[2], 0.0f, -f_[0]) / len;
    }
    const float len = std::sqrt(f_[1] * f_[1] + f_[2] * f_[2]);
    return Vec3(0.0f, f_[2], -f_[1]) / len;
  }

  static Vec3 min(const Vec3& a, const Vec3& b) {
#if ATOLL_USE_SSE
    return Vec3(_mm_min_ps(a.simd(), b.simd()));
#else
    return Vec3(a.f_[0] < b.f_[0] ? a.f_[0] : b.f_[0], a.f_[1] < b.f_[1] ? a.f_[1] : b.f_[1],
                a.f_[2] < b.f_[2] ? a.f_[2] : b.f_[2]);
#endif
  }
  static Vec3 max(const Vec3& a, const Vec3& b) {
#if ATOLL_USE_SSE
    return Vec3(_mm_max_ps(a.simd(), b.simd()));
#else
    return Vec3(a.f_[0] > b.f_[0] ? a.f_[0] : b.f_[0], a.f_[1] > b.f_[1] ? a.f_[1] : b.f_[1],
                a.f_[2] > b.f_[2] ? a.f_[2] : b.f_[2]);
#endif
  }
  static Vec3 clamp(const Vec3& v, const Vec3& lo, const Vec3& hi) { return max(min(v, hi), lo); }
  /// a + (b - a)·t.
  static Vec3 lerp(const Vec3& a, const Vec3& b, float t) { return a + (b - a) * t; }

 private:
  float f_[4];
};

static_assert(sizeof(Vec3) == 16);

inline float dot(const Vec3& a, const Vec3& b) { return a.dot(b); }
inline Vec3 cross(const Vec3& a, const Vec3& b) { return a.cross(b); }

inline std::ostream& operator<<(std::ostream& os, const Vec3& v) {
  return os << '(' << v.x() << ", " << v.y() << ", " << v.z() << ')';
}

}  // namespace atl
