#pragma once
// A seeded random generator that produces the same sequence on every platform and standard
// library. (std::uniform_real_distribution is implementation-defined, so scene generators and
// property tests use these helpers on top of the fully specified std::mt19937.)

#include <cstdint>
#include <random>

namespace atl {

class Random {
 public:
  /// std::mt19937's default seed, as Jolt's samples use.
  static constexpr uint32_t k_default_seed = 5489u;

  explicit Random(uint32_t seed = k_default_seed) : engine_(seed) {}

  /// Next raw 32-bit value of the Mersenne twister (specified by the C++ standard).
  uint32_t next_u32() { return static_cast<uint32_t>(engine_()); }
  /// Uniform float in [0, 1): 24 random bits, exact on every platform.
  float next_float() { return static_cast<float>(next_u32() >> 8) * (1.0f / 16777216.0f); }
  /// Uniform float in [lo, hi).
  float uniform(float lo, float hi) { return lo + (hi - lo) * next_float(); }
  /// Uniform integer in [lo, hi] (inclusive), by rejection so that it is unbiased.
  int32_t uniform_int(int32_t lo, int32_t hi) {
    const uint32_t range = static_cast<uint32_t>(hi - lo) + 1u;
    if (range == 0) return static_cast<int32_t>(next_u32());
    const uint32_t limit = UINT32_MAX - UINT32_MAX % range;
    uint32_t value;
    do value = next_u32();
    while (value >= limit);
    return lo + static_cast<int32_t>(value % range);
  }
  /// The underlying engine, for code that must reproduce std::mt19937 sequences exactly.
  std::mt19937& engine() { return engine_; }

 private:
  std::mt19937 engine_;
};

}  // namespace atl
