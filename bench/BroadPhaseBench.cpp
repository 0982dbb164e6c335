// Broadphase micro-benchmarks: 10 000 unit boxes in a 25 × 16 × 25 grid, touching their
// neighbours (so every box pairs with up to 26 others through the fat margin), on a static floor.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "atoll/collision/broadphase/BroadPhase.h"
#include "atoll/collision/broadphase/DefaultLayers.h"
#include "atoll/core/Random.h"

namespace atl {
namespace {

constexpr int k_grid_x = 25;
constexpr int k_grid_y = 16;
constexpr int k_grid_z = 25;
constexpr uint32_t k_floor = k_grid_x * k_grid_y * k_grid_z;  // body index of the floor

AABox grid_box(uint32_t index) {
  const int x = static_cast<int>(index % k_grid_x);
  const int y = static_cast<int>(index / k_grid_x % k_grid_y);
  const int z = static_cast<int>(index / (k_grid_x * k_grid_y));
  const Vec3 center(static_cast<float>(x), 0.5f + static_cast<float>(y), static_cast<float>(z));
  return AABox::from_center(center, Vec3::replicate(0.5f));
}

// The grid's boxes on the moving layer plus the floor on the non-moving layer; `active` holds
// every `active_stride`-th box.
struct Grid {
  explicit Grid(uint32_t active_stride)
      : broadphase(BroadPhase::create(layers, layers, layers).value()) {
    for (uint32_t i = 0; i < k_floor; ++i) {
      (void)broadphase.add(i, layers::k_moving, grid_box(i)).value();
      if (i % active_stride == 0) active.push_back(i);
    }
    const AABox floor(Vec3(-50.0f, -1.0f, -50.0f), Vec3(50.0f, 0.0f, 50.0f));
    (void)broadphase.add(k_floor, layers::k_non_moving, floor).value();
  }

  DefaultLayers layers;
  BroadPhase broadphase;
  std::vector<uint32_t> active;
  std::vector<BodyPair> pairs;
};

void find_pairs_grid(benchmark::State& state) {
  Grid grid(static_cast<uint32_t>(state.range(0)));
  if (state.range(1) != 0) grid.broadphase.optimize();
  for (auto _ : state) {
    (void)grid.broadphase.find_pairs(grid.active, grid.pairs).value();
    benchmark::DoNotOptimize(grid.pairs.data());
  }
  state.counters["active"] = static_cast<double>(grid.active.size());
  state.counters["pairs"] = static_cast<double>(grid.pairs.size());
}
// Arguments: every n-th box is awake (1 = all 10 000, 2 = half); 1 = trees optimized first.
BENCHMARK(find_pairs_grid)
    ->Name("BroadPhase/find_pairs_grid_10k")
    ->ArgNames({"stride", "optimized"})
    ->Args({1, 0})
    ->Args({2, 0})
    ->Args({1, 1})
    ->Unit(benchmark::kMillisecond);

// One broadphase step: every box jitters a few mm as resting bodies do (inside its fat box),
// one in 64 jumps by 10 cm (re-inserted), then the pairs are found.
void update_and_find_pairs_grid(benchmark::State& state) {
  Grid grid(1);
  Random rng(1);
  std::vector<Vec3> offsets(1024);
  for (Vec3& o : offsets) {
    o = Vec3(rng.uniform(-0.005f, 0.005f), rng.uniform(-0.005f, 0.005f),
             rng.uniform(-0.005f, 0.005f));
  }
  uint32_t frame = 0;
  int64_t reinserts = 0;
  for (auto _ : state) {
    for (const uint32_t i : grid.active) {
      Vec3 offset = offsets[(i + frame) & 1023];
      if ((i + frame) % 64 == 0) offset += Vec3(0.1f, 0.0f, 0.0f);
      reinserts += grid.broadphase.update(i, grid_box(i).translated(offset), offset).value();
    }
    (void)grid.broadphase.find_pairs(grid.active, grid.pairs).value();
    benchmark::DoNotOptimize(grid.pairs.data());
    ++frame;
  }
  state.counters["reinserts/step"] =
      benchmark::Counter(static_cast<double>(reinserts), benchmark::Counter::kAvgIterations);
  state.counters["pairs"] = static_cast<double>(grid.pairs.size());
}
BENCHMARK(update_and_find_pairs_grid)
    ->Name("BroadPhase/update_and_find_pairs_grid_10k")
    ->Unit(benchmark::kMillisecond);

// Building the trees from scratch: 10 000 insertions.
void build_grid(benchmark::State& state) {
  for (auto _ : state) {
    Grid grid(1);
    benchmark::DoNotOptimize(grid.broadphase.size());
  }
}
BENCHMARK(build_grid)->Name("BroadPhase/build_grid_10k")->Unit(benchmark::kMillisecond);

// 10 000 random rays through the grid, closest candidate each.
void cast_rays_grid(benchmark::State& state) {
  Grid grid(1);
  Random rng(2);
  const ObjectLayerFilter all;
  ClosestHitBroadPhaseCollector collector;
  for (auto _ : state) {
    for (int r = 0; r < 10000; ++r) {
      const Vec3 origin(rng.uniform(-5.0f, 30.0f), 20.0f, rng.uniform(-5.0f, 30.0f));
      const Vec3 direction(rng.uniform(-10.0f, 10.0f), -30.0f, rng.uniform(-10.0f, 10.0f));
      collector.reset();
      (void)grid.broadphase.cast_ray(origin, direction, all, collector).value();
      benchmark::DoNotOptimize(collector.has_hit());
    }
  }
}
BENCHMARK(cast_rays_grid)->Name("BroadPhase/cast_rays_10k")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace atl
