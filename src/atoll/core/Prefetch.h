#pragma once
// Software prefetch for loops that visit large records through an index list (the solver's
// constraints in island or split order): the hardware prefetcher follows addresses that advance
// by a stride, not the order of a list, so without a hint each record costs a memory round trip.

#include <cstddef>
#include <cstdint>
#include <utility>

namespace atl {

/// Bytes per cache line on the targets Atoll builds for (x86-64, AArch64).
inline constexpr size_t k_cache_line = 64;

namespace detail {
template <size_t Bytes, size_t... Line>
[[gnu::always_inline]] inline void prefetch_lines(const char* p, std::index_sequence<Line...>) {
#if defined(__GNUC__) || defined(__clang__)
  (__builtin_prefetch(p + Line * k_cache_line, 1, 3), ...);
  __builtin_prefetch(p + Bytes - 1, 1, 3);
#else
  (void)p;
#endif
}
}  // namespace detail

/// Asks the memory system to bring the object at `p` towards the cache for reading and writing
/// (a hint only: it changes no value and never faults). A fixed run of prefetch instructions,
/// one every cache line from `p` and one at its last byte, reaches every line the object
/// touches whatever its alignment, with no loop (in the contact solver the loop form cost 72 of the
/// 230 instructions spent per contact and iteration outside the parts).
template <class T>
[[gnu::always_inline]] inline void prefetch_object(const T* p) {
  constexpr size_t lines = (sizeof(T) + k_cache_line - 1) / k_cache_line;
  detail::prefetch_lines<sizeof(T)>(reinterpret_cast<const char*>(p),
                                    std::make_index_sequence<lines>{});
}

}  // namespace atl
