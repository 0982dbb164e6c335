#pragma once
// Software prefetch for loops that visit large records through an index list (the solver's
// constraints in island or split order): the hardware prefetcher follows addresses that advance
// by a stride, not the order of a list, so without a hint each record costs a memory round trip.
// And for loops that store into lines another core has touched (prefetch_for_write).

#include <cstddef>
#include <cstdint>
#include <utility>

namespace atl {

/// Bytes per cache line on the targets Atoll builds for (x86-64, AArch64).
inline constexpr size_t k_cache_line = 64;

namespace detail {
// Calls `one(address)` for every cache line of the `Bytes` bytes at `p`, whatever their
// alignment: once every line from `p` and once at the last byte, a fixed run with no loop.
template <size_t Bytes, class One, size_t... Line>
[[gnu::always_inline]] inline void for_each_line(const char* p, One one,
                                                 std::index_sequence<Line...>) {
  (one(p + Line * k_cache_line), ...);
  one(p + Bytes - 1);
}
template <class T, class One>
[[gnu::always_inline]] inline void for_each_line_of(const T* p, One one) {
  constexpr size_t lines = (sizeof(T) + k_cache_line - 1) / k_cache_line;
  for_each_line<sizeof(T)>(reinterpret_cast<const char*>(p), one,
                           std::make_index_sequence<lines>{});
}
struct ReadPrefetch {
  [[gnu::always_inline]] void operator()(const char* p) const {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p, 0, 3);
#else
    (void)p;
#endif
  }
};
}  // namespace detail

/// Asks the memory system to bring the object at `p` towards the cache (a hint only: it changes
/// no value and never faults), to be read: also what a loop will write, where the line may be
/// one that both cores read (a static body's solver entry; prefetch_for_write would take it from
/// the other core). A fixed run of prefetch instructions, one every cache line from `p` and one
/// at its last byte, reaches every line the object touches whatever its alignment, with no loop
/// (in the contact solver the loop form cost 72 of the 230 instructions spent per contact and
/// iteration outside the parts).
template <class T>
[[gnu::always_inline]] inline void prefetch_object(const T* p) {
  detail::for_each_line_of(p, detail::ReadPrefetch{});
}

/// Asks for the cache line holding `p` with the intent to write it (x86 PREFETCHW; a NOP on
/// x86 processors without it, AArch64's store prefetch). For a loop that stores, in order, into
/// lines another core has read or written since this core last held them (a serial pass over
/// what the workers filled, a worker's share of what the caller read): each such store waits
/// until the other core gives the line up, and while it waits the stores behind it fill the
/// store buffer and stall the loop. The hardware prefetcher brings such lines in to be read
/// only. Issued far enough ahead (a few hundred cycles of the loop's work), the requests
/// overlap. Measured on 2 cores whose cache-line round trip is ~400 ns: storing into lines the
/// other core had read cost 8 ns a line, 0.4 into lines of its own; the narrow phase's ordered
/// pass on 2 threads took 2.3 times as long as on one before its stores were prefetched.
[[gnu::always_inline]] inline void prefetch_for_write(const void* p) {
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
  // The instruction, not __builtin_prefetch(p, 1): without -mprfchw that emits a read prefetch.
  __asm__ volatile("prefetchw %0" : : "m"(*static_cast<const char*>(p)));
#elif defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p, 1, 3);
#else
  (void)p;
#endif
}

/// prefetch_for_write for every line of `*p` (the same run of lines as prefetch_object).
template <class T>
[[gnu::always_inline]] inline void prefetch_object_for_write(const T* p) {
  struct WritePrefetch {
    [[gnu::always_inline]] void operator()(const char* line) const { prefetch_for_write(line); }
  };
  detail::for_each_line_of(p, WritePrefetch{});
}

}  // namespace atl
