#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "atoll/collision/broadphase/BroadPhase.h"
#include "atoll/collision/broadphase/DefaultLayers.h"
#include "atoll/core/Random.h"
#include "atoll/core/ThreadPool.h"

namespace atl {
namespace {

// find_pairs shared among 2, 3 and 8 workers — the tree walk (most bodies active) and the
// per-body queries (few active) — finds the very pairs, in the very order, of one thread.
// Run under ThreadSanitizer with the other thread tests.
TEST(BroadPhaseThreads, FindPairsIsTheSameForAnyNumberOfWorkers) {
  const DefaultLayers layers;
  BroadPhase bp = BroadPhase::create(layers, layers, layers).value();
  Random rng(321);
  constexpr uint32_t k_count = 1500;
  std::vector<uint32_t> moving;
  for (uint32_t i = 0; i < k_count; ++i) {
    const ObjectLayer layer = i % 5 == 0 ? layers::k_non_moving : layers::k_moving;
    const Vec3 centre(rng.uniform(-12.0f, 12.0f), rng.uniform(-12.0f, 12.0f),
                      rng.uniform(-12.0f, 12.0f));
    const Vec3 half(rng.uniform(0.2f, 2.0f), rng.uniform(0.2f, 2.0f), rng.uniform(0.2f, 2.0f));
    ASSERT_TRUE(bp.add(i, layer, AABox::from_center(centre, half)).ok());
    if (layer == layers::k_moving) moving.push_back(i);
  }
  std::vector<std::unique_ptr<ThreadPool>> pools;
  for (const uint32_t workers : {2u, 3u, 8u}) pools.push_back(ThreadPool::create(workers).value());
  for (const uint32_t percent : {10u, 100u}) {  // queries, then the walk
    std::vector<uint32_t> active;
    for (uint32_t i : moving)
      if (rng.next_u32() % 100 < percent) active.push_back(i);
    std::vector<BodyPair> one;
    ASSERT_TRUE(bp.find_pairs(active, one).ok());
    // Measured: 821 pairs at 10 %, 5919 at 100 %.
    ASSERT_GT(one.size(), percent == 100 ? 4000u : 500u);
    for (const std::unique_ptr<ThreadPool>& pool : pools) {
      std::vector<BodyPair> shared{{1u, 2u}};  // replaced, not appended to
      ASSERT_TRUE(bp.find_pairs(active, shared, pool.get()).ok());
      EXPECT_EQ(shared, one) << percent << " % active, " << pool->num_workers() << " workers";
    }
  }
}

}  // namespace
}  // namespace atl
