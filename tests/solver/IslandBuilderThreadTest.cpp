// IslandBuilder::link_concurrent on several threads gives the islands of link() one by one.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "BackwardsJobSystem.h"
#include "atoll/core/JobSystem.h"
#include "atoll/core/ThreadPool.h"
#include "atoll/solver/IslandBuilder.h"

namespace atl {
namespace island_builder_thread_test {
namespace {

struct Graph {
  std::vector<uint8_t> movable;
  std::vector<uint32_t> a, b;
};

// `bodies` bodies (one in seven immovable) and `edges` links, most between nearby bodies (long
// chains that many threads extend at once), some anywhere.
Graph random_graph(uint32_t bodies, uint32_t edges, uint32_t seed) {
  std::mt19937 random(seed);
  Graph g;
  g.movable.resize(bodies);
  for (uint32_t i = 0; i < bodies; ++i) g.movable[i] = i % 7 == 3 ? 0 : 1;
  std::uniform_int_distribution<uint32_t> any(0, bodies - 1);
  std::uniform_int_distribution<uint32_t> near(1, 4);
  for (uint32_t e = 0; e < edges; ++e) {
    const uint32_t x = any(random);
    const uint32_t y = e % 5 == 0 ? any(random) : std::min(bodies - 1, x + near(random));
    g.a.push_back(x);
    g.b.push_back(y);
  }
  return g;
}

void expect_same_islands(const IslandBuilder& expected, const IslandBuilder& actual,
                         const std::string& label) {
  ASSERT_EQ(expected.num_islands(), actual.num_islands()) << label;
  for (uint32_t i = 0; i < expected.num_islands(); ++i) {
    EXPECT_TRUE(std::ranges::equal(expected.island_bodies(i), actual.island_bodies(i)))
        << label << ", island " << i;
    EXPECT_TRUE(std::ranges::equal(expected.island_items(i), actual.island_items(i)))
        << label << ", island " << i;
  }
}

TEST(IslandBuilderThreads, ConcurrentLinksGiveTheIslandsOfSerialLinks) {
  for (const uint32_t seed : {1u, 2u, 3u}) {
    // Few links (many islands) and many (a few large ones).
    for (const uint32_t edges : {300u, 3000u, 20000u}) {
      const Graph g = random_graph(2000, edges, seed);
      IslandBuilder serial;
      serial.begin(g.movable);
      for (size_t k = 0; k < g.a.size(); ++k) serial.link(g.a[k], g.b[k]);
      serial.finish(g.a, g.b);
      // 20 000 links join every movable body into one island.
      if (edges <= 3000) {
        EXPECT_GT(serial.num_islands(), 1u);
      }

      const auto check = [&](JobSystem& jobs, const std::string& label) {
        IslandBuilder concurrent;
        concurrent.begin(g.movable);
        parallel_for(jobs, static_cast<uint32_t>(g.a.size()), 7,
                     [&](uint32_t begin, uint32_t end, uint32_t) {
                       for (uint32_t k = begin; k < end; ++k)
                         concurrent.link_concurrent(g.a[k], g.b[k]);
                     });
        concurrent.finish(g.a, g.b);
        expect_same_islands(
            serial, concurrent,
            label + ", seed " + std::to_string(seed) + ", " + std::to_string(edges) + " links");
      };
      BackwardsJobSystem backwards(3);
      check(backwards, "backwards");
      for (const uint32_t workers : {2u, 4u, 8u}) {
        auto pool = ThreadPool::create(workers);
        ASSERT_TRUE(pool.ok());
        check(*pool.value(), std::to_string(workers) + " workers");
      }
    }
  }
}

}  // namespace
}  // namespace island_builder_thread_test
}  // namespace atl
