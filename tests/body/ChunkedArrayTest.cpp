#include <gtest/gtest.h>

#include <vector>

#include "atoll/body/ChunkedArray.h"

namespace atl {
namespace chunked_array_test {
namespace {

struct Tracked {
  explicit Tracked(int v, int* live_count) : value(v), live(live_count) { ++*live; }
  Tracked(Tracked&& other) noexcept : value(other.value), live(other.live) { ++*live; }
  ~Tracked() { --*live; }
  int value;
  int* live;
};

TEST(ChunkedArray, ElementsKeepTheirAddressAcrossChunks) {
  int live = 0;
  {
    ChunkedArray<Tracked, 4> array;
    std::vector<const Tracked*> addresses;
    for (int i = 0; i < 19; ++i) addresses.push_back(&array.emplace_back(i, &live));
    EXPECT_EQ(array.size(), 19u);
    EXPECT_EQ(live, 19);
    for (uint32_t i = 0; i < array.size(); ++i) {
      EXPECT_EQ(&array[i], addresses[i]);
      EXPECT_EQ(array[i].value, int(i));
    }
    array.clear();
    EXPECT_EQ(live, 0);
    EXPECT_TRUE(array.empty());
    array.emplace_back(7, &live);
    EXPECT_EQ(array[0].value, 7);
  }
  EXPECT_EQ(live, 0);  // the destructor destroys what is left
}

}  // namespace
}  // namespace chunked_array_test
}  // namespace atl
