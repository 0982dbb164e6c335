#pragma once
// Eight floats computed as one: the lanes of the wide contact solver
// (constraint/parts/ContactLanes.h), which solves eight contacts that share no moving body at
// once, as Box2D v3 solves the contacts of one graph colour in SIMD lanes. With AVX2 a Lanes is
// one 256-bit register; otherwise an array of eight floats.
//
// Every operation is element-wise IEEE arithmetic (no approximate reciprocal or square root), so
// a lane's result depends only on that lane's inputs: the same contact gives the same bits in
// whichever lane, and next to whichever neighbours, it is solved.

#include <cmath>
#include <cstdint>
#include <cstring>

#include "atoll/math/Simd.h"

namespace atl {

/// Per-lane booleans (all bits set = true) from comparisons of Lanes.
struct LaneMask {
#if ATOLL_USE_AVX2
  __m256 v;
  friend LaneMask operator&(LaneMask a, LaneMask b) { return {_mm256_and_ps(a.v, b.v)}; }
  friend LaneMask operator|(LaneMask a, LaneMask b) { return {_mm256_or_ps(a.v, b.v)}; }
  /// a and not b.
  friend LaneMask and_not(LaneMask a, LaneMask b) { return {_mm256_andnot_ps(b.v, a.v)}; }
  /// Bit i set when lane i is true.
  uint32_t bits() const { return static_cast<uint32_t>(_mm256_movemask_ps(v)); }
  static LaneMask none() { return {_mm256_setzero_ps()}; }
  /// Lane i true when bit i of `bits` is set.
  static LaneMask from_bits(uint32_t bits) {
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    const __m256i set = _mm256_and_si256(_mm256_set1_epi32(static_cast<int>(bits)), bit);
    return {_mm256_castsi256_ps(_mm256_cmpeq_epi32(set, bit))};
  }
#else
  int32_t v[8];
  friend LaneMask operator&(LaneMask a, LaneMask b) {
    LaneMask r;
    for (int i = 0; i < 8; ++i) r.v[i] = a.v[i] & b.v[i];
    return r;
  }
  friend LaneMask operator|(LaneMask a, LaneMask b) {
    LaneMask r;
    for (int i = 0; i < 8; ++i) r.v[i] = a.v[i] | b.v[i];
    return r;
  }
  friend LaneMask and_not(LaneMask a, LaneMask b) {
    LaneMask r;
    for (int i = 0; i < 8; ++i) r.v[i] = a.v[i] & ~b.v[i];
    return r;
  }
  uint32_t bits() const {
    uint32_t r = 0;
    for (int i = 0; i < 8; ++i) r |= (v[i] != 0 ? 1u : 0u) << i;
    return r;
  }
  static LaneMask none() { return LaneMask{}; }
  static LaneMask from_bits(uint32_t bits) {
    LaneMask r;
    for (int i = 0; i < 8; ++i) r.v[i] = (bits >> i & 1u) != 0 ? -1 : 0;
    return r;
  }
#endif
  /// True when any lane is true.
  bool any() const { return bits() != 0; }
};

/// Eight floats.
struct Lanes {
  static constexpr uint32_t k_width = 8;
#if ATOLL_USE_AVX2
  __m256 v;

  static Lanes load(const float* p) { return {_mm256_load_ps(p)}; }
  void store(float* p) const { _mm256_store_ps(p, v); }
  static Lanes broadcast(float x) { return {_mm256_set1_ps(x)}; }
  static Lanes zero() { return {_mm256_setzero_ps()}; }

  friend Lanes operator+(Lanes a, Lanes b) { return {_mm256_add_ps(a.v, b.v)}; }
  friend Lanes operator-(Lanes a, Lanes b) { return {_mm256_sub_ps(a.v, b.v)}; }
  friend Lanes operator*(Lanes a, Lanes b) { return {_mm256_mul_ps(a.v, b.v)}; }
  friend Lanes operator/(Lanes a, Lanes b) { return {_mm256_div_ps(a.v, b.v)}; }
  friend Lanes min(Lanes a, Lanes b) { return {_mm256_min_ps(a.v, b.v)}; }
  friend Lanes max(Lanes a, Lanes b) { return {_mm256_max_ps(a.v, b.v)}; }
  friend Lanes sqrt(Lanes a) { return {_mm256_sqrt_ps(a.v)}; }
  friend Lanes abs(Lanes a) { return {_mm256_andnot_ps(_mm256_set1_ps(-0.0f), a.v)}; }
  friend LaneMask operator<(Lanes a, Lanes b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_LT_OQ)}; }
  friend LaneMask operator<=(Lanes a, Lanes b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_LE_OQ)}; }
  friend LaneMask operator>(Lanes a, Lanes b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_GT_OQ)}; }
  friend LaneMask operator>=(Lanes a, Lanes b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_GE_OQ)}; }
  friend LaneMask operator==(Lanes a, Lanes b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_EQ_OQ)}; }
  friend LaneMask operator!=(Lanes a, Lanes b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_NEQ_UQ)}; }
  /// Lane-wise `mask ? a : b`.
  friend Lanes select(LaneMask mask, Lanes a, Lanes b) {
    return {_mm256_blendv_ps(b.v, a.v, mask.v)};
  }
#else
  float v[8];

  static Lanes load(const float* p) {
    Lanes r;
    std::memcpy(r.v, p, sizeof(r.v));
    return r;
  }
  void store(float* p) const { std::memcpy(p, v, sizeof(v)); }
  static Lanes broadcast(float x) {
    Lanes r;
    for (float& e : r.v) e = x;
    return r;
  }
  static Lanes zero() { return broadcast(0.0f); }

  template <class F>
  static Lanes map(Lanes a, Lanes b, F f) {
    Lanes r;
    for (int i = 0; i < 8; ++i) r.v[i] = f(a.v[i], b.v[i]);
    return r;
  }
  template <class F>
  static LaneMask compare(Lanes a, Lanes b, F f) {
    LaneMask r;
    for (int i = 0; i < 8; ++i) r.v[i] = f(a.v[i], b.v[i]) ? -1 : 0;
    return r;
  }
  friend Lanes operator+(Lanes a, Lanes b) {
    return map(a, b, [](float x, float y) { return x + y; });
  }
  friend Lanes operator-(Lanes a, Lanes b) {
    return map(a, b, [](float x, float y) { return x - y; });
  }
  friend Lanes operator*(Lanes a, Lanes b) {
    return map(a, b, [](float x, float y) { return x * y; });
  }
  friend Lanes operator/(Lanes a, Lanes b) {
    return map(a, b, [](float x, float y) { return x / y; });
  }
  // As the SSE instructions: the second operand when either is NaN.
  friend Lanes min(Lanes a, Lanes b) {
    return map(a, b, [](float x, float y) { return x < y ? x : y; });
  }
  friend Lanes max(Lanes a, Lanes b) {
    return map(a, b, [](float x, float y) { return x > y ? x : y; });
  }
  friend Lanes sqrt(Lanes a) {
    return map(a, a, [](float x, float) { return std::sqrt(x); });
  }
  friend Lanes abs(Lanes a) {
    return map(a, a, [](float x, float) { return std::fabs(x); });
  }
  friend LaneMask operator<(Lanes a, Lanes b) {
    return compare(a, b, [](float x, float y) { return x < y; });
  }
  friend LaneMask operator<=(Lanes a, Lanes b) {
    return compare(a, b, [](float x, float y) { return x <= y; });
  }
  friend LaneMask operator>(Lanes a, Lanes b) {
    return compare(a, b, [](float x, float y) { return x > y; });
  }
  friend LaneMask operator>=(Lanes a, Lanes b) {
    return compare(a, b, [](float x, float y) { return x >= y; });
  }
  friend LaneMask operator==(Lanes a, Lanes b) {
    return compare(a, b, [](float x, float y) { return x == y; });
  }
  friend LaneMask operator!=(Lanes a, Lanes b) {
    return compare(a, b, [](float x, float y) { return x != y; });
  }
  friend Lanes select(LaneMask mask, Lanes a, Lanes b) {
    Lanes r;
    for (int i = 0; i < 8; ++i) r.v[i] = mask.v[i] != 0 ? a.v[i] : b.v[i];
    return r;
  }
#endif
  Lanes& operator+=(Lanes b) { return *this = *this + b; }
  Lanes& operator-=(Lanes b) { return *this = *this - b; }
  Lanes& operator*=(Lanes b) { return *this = *this * b; }
  /// Lanes that hold a finite number (not NaN, not ±∞).
  friend LaneMask is_finite(Lanes a) { return abs(a) <= broadcast(3.402823466e+38f); }
  /// Lanes that hold NaN or ±∞.
  friend LaneMask is_not_finite(Lanes a) {
#if ATOLL_USE_AVX2
    return {_mm256_cmp_ps(abs(a).v, _mm256_set1_ps(3.402823466e+38f), _CMP_NLE_UQ)};
#else
    return compare(a, a, [](float x, float) { return !(std::fabs(x) <= 3.402823466e+38f); });
#endif
  }
};

/// Eight 3-vectors, one per lane, as three Lanes.
struct Lanes3 {
  Lanes x, y, z;

  friend Lanes3 operator+(const Lanes3& a, const Lanes3& b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
  }
  friend Lanes3 operator-(const Lanes3& a, const Lanes3& b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
  }
  friend Lanes3 operator*(const Lanes3& a, Lanes s) { return {a.x * s, a.y * s, a.z * s}; }
  Lanes3& operator+=(const Lanes3& b) { return *this = *this + b; }
  Lanes3& operator-=(const Lanes3& b) { return *this = *this - b; }
  /// Lane-wise dot product, summed x, y, z in that order.
  friend Lanes dot(const Lanes3& a, const Lanes3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
};

/// Storage of a Lanes (32-byte aligned), for the solver's packed data.
struct alignas(32) LaneFloats {
  float v[Lanes::k_width] = {};
  Lanes get() const { return Lanes::load(v); }
  void set(Lanes x) { x.store(v); }
};

/// Storage of a Lanes3.
struct LaneFloat3s {
  LaneFloats x, y, z;
  Lanes3 get() const { return {x.get(), y.get(), z.get()}; }
  void set(const Lanes3& a) {
    x.set(a.x);
    y.set(a.y);
    z.set(a.z);
  }
  /// Writes lane `i` from a 3-vector with components [0], [1], [2].
  template <class V>
  void set_lane(uint32_t i, const V& a) {
    x.v[i] = a[0];
    y.v[i] = a[1];
    z.v[i] = a[2];
  }
};

}  // namespace atl
