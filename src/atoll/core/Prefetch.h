#pragma once
// Software prefetch for loops that visit large records through an index list (the solver's
// constraints in island or split order): the hardware prefetcher follows addresses that advance
// by a stride, not the order of a list, so without a hint each record costs a memory round trip.

#include <cstddef>
#include <cstdint>

namespace atl {

/// Bytes per cache line on the targets Atoll builds for (x86-64, AArch64).
inline constexpr size_t k_cache_line = 64;

/// Asks the memory system to bring [p, p + bytes) towards the cache for reading and writing.
/// A hint only: it changes no value and never faults.
[[gnu::always_inline]] inline void prefetch_range(const void* p, size_t bytes) {
#if defined(__GNUC__) || defined(__clang__)
  const uintptr_t first = reinterpret_cast<uintptr_t>(p) & ~(uintptr_t{k_cache_line} - 1);
  const uintptr_t end = reinterpret_cast<uintptr_t>(p) + bytes;
  for (uintptr_t line = first; line < end; line += k_cache_line)
    __builtin_prefetch(reinterpret_cast<const void*>(line), 1, 3);
#else
  (void)p;
  (void)bytes;
#endif
}

}  // namespace atl
