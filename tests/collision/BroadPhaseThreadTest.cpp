#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "atoll/collision/broadphase/BroadPhase.h"
#include "atoll/collision/broadphase/DefaultLayers.h"
#include "atoll/core/Random.h"
#include "atoll/core/ThreadPool.h"

namespace atl {
namespace broad_phase_thread_test {
namespace {

// Every fifth body static, the others moving.
ObjectLayer layer_of(uint32_t i) { return i % 5 == 0 ? layers::k_non_moving : layers::k_moving; }

// A box of half extents 0.2–2 m centred within `range` of the origin on every axis.
AABox random_box(Random& rng, float range) {
  const Vec3 centre(rng.uniform(-range, range), rng.uniform(-range, range),
                    rng.uniform(-range, range));
  const Vec3 half(rng.uniform(0.2f, 2.0f), rng.uniform(0.2f, 2.0f), rng.uniform(0.2f, 2.0f));
  return AABox::from_center(centre, half);
}

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
    const ObjectLayer layer = layer_of(i);
    ASSERT_TRUE(bp.add(i, layer, random_box(rng, 12.0f)).ok());
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

// find_step_pairs' queries of the changed bodies shared among 2, 3 and 8 workers (hundreds of
// bodies leave their boxes each step, several ranges of queries) find the pairs of find_pairs.
TEST(BroadPhaseThreads, FindStepPairsIsTheSameForAnyNumberOfWorkers) {
  const DefaultLayers layers;
  constexpr uint32_t k_count = 3000;
  std::vector<std::unique_ptr<ThreadPool>> pools;
  for (const uint32_t workers : {2u, 3u, 8u}) pools.push_back(ThreadPool::create(workers).value());
  std::vector<BroadPhase> shared;
  for (size_t p = 0; p < pools.size(); ++p)
    shared.push_back(BroadPhase::create(layers, layers, layers).value());
  Random rng(4242);
  std::vector<AABox> tight(k_count);
  std::vector<uint32_t> moving;
  for (uint32_t i = 0; i < k_count; ++i) {
    tight[i] = random_box(rng, 25.0f);
    for (BroadPhase& bp : shared) ASSERT_TRUE(bp.add(i, layer_of(i), tight[i]).ok());
    if (layer_of(i) == layers::k_moving) moving.push_back(i);
  }
  const auto bounds_of = [&](uint32_t i, AABox& box, Vec3& displacement) {
    box = tight[i];
    displacement = Vec3::zero();
  };
  uint32_t reused = 0;
  for (int step = 0; step < 6; ++step) {
    // One moving body in ten leaves its box.
    for (const uint32_t i : moving)
      if (rng.next_u32() % 10 == 0) tight[i] = tight[i].translated(Vec3(0.5f, 0.0f, -0.3f));
    std::vector<BodyPair> expected;
    for (size_t p = 0; p < pools.size(); ++p) {
      SCOPED_TRACE(pools[p]->num_workers());
      ASSERT_TRUE(shared[p].update_many(moving, bounds_of).ok());
      if (p == 0) {
        ASSERT_TRUE(shared[p].find_pairs(moving, expected).ok());
      }
      std::vector<BodyPair> pairs;
      ASSERT_TRUE(shared[p].find_step_pairs(moving, pairs, pools[p].get()).ok());
      EXPECT_EQ(pairs, expected) << "step " << step;
      reused += shared[p].reused_step_pairs() ? 1 : 0;
    }
  }
  // Every call but each broadphase's first.
  EXPECT_EQ(reused, 5u * 3u);
}

// update_many with its bodies checked on 2, 3 and 8 workers leaves the boxes (and the pairs) of
// the check on the caller — with few bodies leaving their boxes (re-inserted) and with all of
// them (the trees rebuilt) — and a bad body in any share is the error of the first one in the
// list, with nothing changed.
TEST(BroadPhaseThreads, UpdateManyIsTheSameForAnyNumberOfWorkers) {
  const DefaultLayers layers;
  constexpr uint32_t k_count = 5000;  // several shares of k_body_share
  static_assert(k_count >= 4 * k_body_share);
  std::vector<std::unique_ptr<ThreadPool>> pools;
  for (const uint32_t workers : {2u, 3u, 8u}) pools.push_back(ThreadPool::create(workers).value());
  BroadPhase caller = BroadPhase::create(layers, layers, layers).value();
  std::vector<BroadPhase> shared;
  for (size_t p = 0; p < pools.size(); ++p)
    shared.push_back(BroadPhase::create(layers, layers, layers).value());
  Random rng(77);
  std::vector<AABox> tight(k_count);
  std::vector<Vec3> velocity(k_count);
  std::vector<uint32_t> moving;
  for (uint32_t i = 0; i < k_count; ++i) {
    const ObjectLayer layer = layer_of(i);
    tight[i] = random_box(rng, 30.0f);
    ASSERT_TRUE(caller.add(i, layer, tight[i]).ok());
    for (BroadPhase& bp : shared) ASSERT_TRUE(bp.add(i, layer, tight[i]).ok());
    if (layer == layers::k_moving) moving.push_back(i);
  }
  const float dt = 1.0f / 60.0f;
  const auto bounds_of = [&](uint32_t i, AABox& box, Vec3& displacement) {
    box = tight[i];
    displacement = velocity[i] * dt;
  };
  for (int step = 0; step < 4; ++step) {
    // Slow bodies, one in ten fast, for two steps; then all fast.
    for (uint32_t i : moving) {
      const float speed = step >= 2 ? 200.0f : i % 10 == 1 ? 3.0f : 0.2f;
      velocity[i] =
          Vec3(rng.uniform(-speed, speed), rng.uniform(-speed, speed), rng.uniform(-speed, speed));
      tight[i] = tight[i].translated(velocity[i] * dt);
    }
    const Result<uint32_t> expected = caller.update_many(moving, bounds_of);
    ASSERT_TRUE(expected.ok());
    ASSERT_GT(*expected, 100u);
    std::vector<BodyPair> pairs;
    ASSERT_TRUE(caller.find_pairs(moving, pairs).ok());
    for (size_t p = 0; p < pools.size(); ++p) {
      SCOPED_TRACE(pools[p]->num_workers());
      const Result<uint32_t> moved = shared[p].update_many(moving, bounds_of, pools[p].get());
      ASSERT_TRUE(moved.ok());
      EXPECT_EQ(*moved, *expected) << "step " << step;
      for (uint32_t i = 0; i < k_count; ++i)
        ASSERT_EQ(shared[p].fat_box(i), caller.fat_box(i)) << "step " << step << " body " << i;
      std::vector<BodyPair> shared_pairs;
      ASSERT_TRUE(shared[p].find_pairs(moving, shared_pairs).ok());
      EXPECT_EQ(shared_pairs, pairs) << "step " << step;
    }
  }
  // Two bad bodies, in different shares: the error names the first in the list, and no box
  // changes (the good bodies before it would have moved).
  const uint32_t first_bad = moving[moving.size() / 2 + 7];
  const uint32_t second_bad = moving[moving.size() - 3];
  const auto bad_bounds = [&](uint32_t i, AABox& box, Vec3& displacement) {
    box = tight[i].translated(Vec3(50, 0, 0));
    displacement = Vec3::zero();
    if (i == first_bad) displacement = Vec3(std::numeric_limits<float>::quiet_NaN(), 0, 0);
    if (i == second_bad) box = AABox(Vec3(1, 1, 1), Vec3(0, 0, 0));  // min above max
  };
  const Result<uint32_t> expected = caller.update_many(moving, bad_bounds);
  ASSERT_FALSE(expected.ok());
  EXPECT_NE(std::string(expected.error().message()).find("predicted_displacement"),
            std::string::npos)
      << expected.error().message();
  for (size_t p = 0; p < pools.size(); ++p) {
    SCOPED_TRACE(pools[p]->num_workers());
    const AABox before = shared[p].fat_box(moving[0]);
    const Result<uint32_t> bad = shared[p].update_many(moving, bad_bounds, pools[p].get());
    ASSERT_FALSE(bad.ok());
    EXPECT_STREQ(bad.error().message(), expected.error().message());
    EXPECT_EQ(shared[p].fat_box(moving[0]), before);
    ASSERT_TRUE(shared[p].validate().ok());
  }
}

}  // namespace
}  // namespace broad_phase_thread_test
}  // namespace atl
