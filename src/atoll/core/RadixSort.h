#pragma once
// A stable least-significant-digit radix sort for items ordered by an unsigned integer key of a
// known bit width: a few counting passes instead of a comparison sort's n·log n comparisons. The
// broadphase sorts each step's body pairs with it (the pyramid's 9000 pairs took 2.8 % of its step
// in quick_sort). The result is the ascending key order, the same on every platform.

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace atl {

/// Sorts `items` by `key(item)` ascending, keeping the order of equal keys. Every key must be
/// below 2^key_bits (key_bits ≤ 64); `scratch` is the second buffer (resized, contents lost).
template <class T, class Key>
void radix_sort(std::vector<T>& items, std::vector<T>& scratch, uint32_t key_bits, Key&& key) {
  constexpr uint32_t k_max_digit_bits = 11;  // 2048 counters: 8 KB, in the L1 cache
  if (items.size() < 2 || key_bits == 0) return;
  const uint32_t passes = (key_bits + k_max_digit_bits - 1) / k_max_digit_bits;
  const uint32_t digit_bits = (key_bits + passes - 1) / passes;
  const uint64_t mask = (uint64_t{1} << digit_bits) - 1;
  scratch.resize(items.size());
  std::vector<T>* from = &items;
  std::vector<T>* to = &scratch;
  std::array<uint32_t, size_t{1} << k_max_digit_bits> count;
  for (uint32_t pass = 0; pass < passes; ++pass) {
    const uint32_t shift = pass * digit_bits;
    std::fill(count.begin(), count.begin() + static_cast<ptrdiff_t>(mask + 1), 0u);
    for (const T& item : *from) ++count[(static_cast<uint64_t>(key(item)) >> shift) & mask];
    uint32_t sum = 0;
    for (uint64_t d = 0; d <= mask; ++d) sum += std::exchange(count[d], sum);
    for (const T& item : *from)
      (*to)[count[(static_cast<uint64_t>(key(item)) >> shift) & mask]++] = item;
    std::swap(from, to);
  }
  if (from != &items) items.swap(scratch);
}

}  // namespace atl
