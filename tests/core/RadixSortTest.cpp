// radix_sort: ascending by key, stable, for any key width up to 64 bits; the broadphase relies
// on it giving exactly the comparison sort's order.

#include "atoll/core/RadixSort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace atl {
namespace radix_sort_test {
namespace {

struct Item {
  uint64_t key;
  uint32_t original;  // position before sorting, to check stability
};

std::vector<Item> random_items(size_t n, uint32_t key_bits, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Item> items(n);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t value = rng();
    items[i] = {key_bits >= 64 ? value : value & ((uint64_t{1} << key_bits) - 1),
                static_cast<uint32_t>(i)};
  }
  return items;
}

TEST(RadixSort, MatchesAStableComparisonSortForEveryKeyWidth) {
  for (uint32_t key_bits : {1u, 5u, 11u, 12u, 22u, 33u, 63u, 64u}) {
    for (size_t n : {size_t{2}, size_t{3}, size_t{100}, size_t{5000}}) {
      std::vector<Item> items =
          random_items(n, key_bits, key_bits * 1000 + static_cast<uint32_t>(n));
      std::vector<Item> expected = items;
      std::stable_sort(expected.begin(), expected.end(),
                       [](const Item& x, const Item& y) { return x.key < y.key; });
      std::vector<Item> scratch;
      radix_sort(items, scratch, key_bits, [](const Item& item) { return item.key; });
      ASSERT_EQ(items.size(), expected.size());
      for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(items[i].key, expected[i].key) << "bits " << key_bits << " n " << n << " i " << i;
        ASSERT_EQ(items[i].original, expected[i].original)
            << "not stable: bits " << key_bits << " n " << n << " i " << i;
      }
    }
  }
}

TEST(RadixSort, LeavesShortListsAndZeroWidthKeysAsTheyAre) {
  std::vector<Item> scratch;
  std::vector<Item> empty;
  radix_sort(empty, scratch, 8, [](const Item& item) { return item.key; });
  EXPECT_TRUE(empty.empty());
  std::vector<Item> one{{7, 0}};
  radix_sort(one, scratch, 8, [](const Item& item) { return item.key; });
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].key, 7u);
  // With no key bits every key is 0: the order is kept.
  std::vector<Item> zeros{{0, 0}, {0, 1}, {0, 2}};
  radix_sort(zeros, scratch, 0, [](const Item& item) { return item.key; });
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(zeros[i].original, i);
}

}  // namespace
}  // namespace radix_sort_test
}  // namespace atl
