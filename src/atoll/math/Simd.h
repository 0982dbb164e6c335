#pragma once
// The one place that decides which SIMD instructions the math types use. ATOLL_USE_SSE is set
// when the compiler targets SSE4.1 (the configure-time ATOLL_SIMD level adds -msse4.1/-mavx2).
// Every SIMD path performs the same IEEE operations in the same order as the scalar path (no
// approximate reciprocals, horizontal sums in a fixed order), so that with FMA contraction off
// both give bit-identical results.

#if defined(__SSE4_1__) && !defined(ATOLL_FORCE_SCALAR)
#define ATOLL_USE_SSE 1
#include <smmintrin.h>
#else
#define ATOLL_USE_SSE 0
#endif

#if defined(__AVX2__) && ATOLL_USE_SSE
#define ATOLL_USE_AVX2 1
#include <immintrin.h>
#else
#define ATOLL_USE_AVX2 0
#endif

namespace atl {
/// Name of the SIMD level compiled into the math types: "AVX2", "SSE4.1" or "scalar".
inline const char* simd_level_name() {
#if ATOLL_USE_AVX2
  return "AVX2";
#elif ATOLL_USE_SSE
  return "SSE4.1";
#else
  return "scalar";
#endif
}
}  // namespace atl
