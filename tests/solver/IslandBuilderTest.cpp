#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "atoll/solver/IslandBuilder.h"

namespace atl {
namespace island_builder_test {
namespace {

TEST(IslandBuilder, StaticBodiesDoNotJoinIslands) {
  // 0: static floor; 1-2 touch, 3-4 touch, both pairs rest on the floor; 5 is alone.
  const std::vector<uint8_t> movable{0, 1, 1, 1, 1, 1};
  IslandBuilder builder;
  builder.begin(movable);
  const std::vector<uint32_t> a{1, 0, 3, 0, 0}, b{2, 1, 4, 3, 2};
  for (size_t k = 0; k < a.size(); ++k) builder.link(a[k], b[k]);
  builder.finish(a, b);
  ASSERT_EQ(builder.num_islands(), 3u);
  // Largest first: {1,2} with items 0,1,4 (3 items), {3,4} with items 2,3, then {5}. Items
  // against the static floor come after those between movable bodies.
  EXPECT_EQ(std::vector<uint32_t>(builder.island_bodies(0).begin(), builder.island_bodies(0).end()),
            (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(std::vector<uint32_t>(builder.island_items(0).begin(), builder.island_items(0).end()),
            (std::vector<uint32_t>{0, 1, 4}));  // 0 is 1–2; 1 and 4 touch the floor
  EXPECT_EQ(std::vector<uint32_t>(builder.island_items(1).begin(), builder.island_items(1).end()),
            (std::vector<uint32_t>{2, 3}));
  EXPECT_EQ(builder.island_bodies(2).size(), 1u);
  EXPECT_EQ(builder.island_bodies(2)[0], 5u);
  EXPECT_EQ(builder.island_of_body(0), IslandBuilder::k_no_island);
  EXPECT_EQ(builder.island_of_body(4), 1u);
}

TEST(IslandBuilder, ResultDoesNotDependOnLinkOrder) {
  const std::vector<uint8_t> movable(10, 1);
  const std::vector<uint32_t> a{0, 2, 4, 6, 1, 8}, b{1, 3, 5, 7, 2, 9};
  IslandBuilder forward, backward;
  forward.begin(movable);
  backward.begin(movable);
  for (size_t k = 0; k < a.size(); ++k) forward.link(a[k], b[k]);
  for (size_t k = a.size(); k-- > 0;) backward.link(b[k], a[k]);
  forward.finish(a, b);
  backward.finish(a, b);
  ASSERT_EQ(forward.num_islands(), backward.num_islands());
  for (uint32_t i = 0; i < forward.num_islands(); ++i) {
    EXPECT_TRUE(std::equal(forward.island_bodies(i).begin(), forward.island_bodies(i).end(),
                           backward.island_bodies(i).begin(), backward.island_bodies(i).end()));
    EXPECT_TRUE(std::equal(forward.island_items(i).begin(), forward.island_items(i).end(),
                           backward.island_items(i).begin(), backward.island_items(i).end()));
  }
}

// Islands come largest first (by items), ties by their lowest body, whatever the counts: many
// small islands with equal counts, islands without items (bodies alone), and one with more items
// than a single counting pass of the sort covers.
TEST(IslandBuilder, IslandsByItemsLargestFirstTiesByLowestBody) {
  std::mt19937 random(11);
  std::vector<uint8_t> movable;
  std::vector<uint32_t> a, b;
  // (items, lowest body) of every island, as built.
  std::vector<std::pair<uint32_t, uint32_t>> expected;
  for (uint32_t island = 0; island < 300; ++island) {
    const uint32_t first = static_cast<uint32_t>(movable.size());
    const uint32_t kind = island % 3;
    if (kind == 0) {  // a body alone: no items
      movable.push_back(1);
      expected.emplace_back(0, first);
      continue;
    }
    movable.insert(movable.end(), {1, 1});
    const uint32_t items = island == 151 ? 3000 : 1 + random() % 6;
    a.insert(a.end(), items, first);
    expected.emplace_back(items, first);
  }
  // In shuffled order; each item joins an island's first body with the one after it.
  std::shuffle(a.begin(), a.end(), random);
  for (uint32_t x : a) b.push_back(x + 1);
  IslandBuilder builder;
  builder.begin(movable);
  for (size_t k = 0; k < a.size(); ++k) builder.link(a[k], b[k]);
  builder.finish(a, b);
  std::sort(expected.begin(), expected.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first > y.first : x.second < y.second;
  });
  ASSERT_EQ(builder.num_islands(), expected.size());
  for (uint32_t r = 0; r < builder.num_islands(); ++r) {
    EXPECT_EQ(builder.island_items(r).size(), expected[r].first) << "island " << r;
    EXPECT_EQ(builder.island_bodies(r)[0], expected[r].second) << "island " << r;
  }
}

}  // namespace
}  // namespace island_builder_test
}  // namespace atl
