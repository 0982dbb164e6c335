#pragma once
// The floating-point environment the step computes in: round to nearest, denormals kept (no
// flush-to-zero, no denormals-are-zero), every exception masked — the processor's default. A
// game that turns on flush-to-zero for its own code, on the thread that calls update() or on its
// job system's workers, would otherwise change the step's bits (a denormal flushed to 0 and one
// kept are different numbers), and a saved state replayed elsewhere would part from the
// original. PhysicsSystem::update and every range of a parallel stage (JobSystem.h) run under
// this guard, which puts back the caller's environment on the way out.
//
// On x86-64 the environment of SSE arithmetic is the MXCSR register; elsewhere (no SSE) the
// guard does nothing and the platform's default is assumed.

#include <cstdint>

#if defined(__SSE2__) || defined(_M_X64)
#include <xmmintrin.h>
#define ATOLL_HAS_MXCSR 1
#else
#define ATOLL_HAS_MXCSR 0
#endif

namespace atl {

class ScopedDefaultFloatEnvironment {
 public:
#if ATOLL_HAS_MXCSR
  /// MXCSR with every exception masked, round to nearest, FTZ and DAZ off.
  static constexpr uint32_t k_default_mxcsr = 0x1f80u;
  /// MXCSR's sticky exception flags (bits 0–5): status, not control.
  static constexpr uint32_t k_status_flags = 0x3fu;
  ScopedDefaultFloatEnvironment() : saved_(_mm_getcsr()) {
    if (changes()) _mm_setcsr(k_default_mxcsr);
  }
  ~ScopedDefaultFloatEnvironment() {
    if (changes()) _mm_setcsr(saved_);
  }

 private:
  bool changes() const { return (saved_ & ~k_status_flags) != k_default_mxcsr; }
  uint32_t saved_;
#else
  ScopedDefaultFloatEnvironment() = default;
#endif

 public:
  ScopedDefaultFloatEnvironment(const ScopedDefaultFloatEnvironment&) = delete;
  ScopedDefaultFloatEnvironment& operator=(const ScopedDefaultFloatEnvironment&) = delete;
};

}  // namespace atl
