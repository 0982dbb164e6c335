// ConvexHullBuilder build times. The target: 10 000 random points well under a second.

#include <benchmark/benchmark.h>

#include <vector>

#include "atoll/core/Random.h"
#include "atoll/geometry/ConvexHullBuilder.h"

namespace atl {
namespace {

std::vector<Vec3> points_in_sphere(int count) {
  Random random(42);
  std::vector<Vec3> points;
  while (static_cast<int>(points.size()) < count) {
    const Vec3 p(random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1));
    if (p.length_sq() <= 1.0f) points.push_back(p);
  }
  return points;
}

std::vector<Vec3> points_on_sphere(int count) {
  std::vector<Vec3> points = points_in_sphere(count);
  for (Vec3& p : points) p = p.normalized_or(Vec3::axis_x());
  return points;
}

std::vector<Vec3> points_in_box(int count) {
  Random random(7);
  std::vector<Vec3> points;
  for (int i = 0; i < count; ++i)
    points.emplace_back(random.uniform(-2, 2), random.uniform(-1, 1), random.uniform(-0.5f, 0.5f));
  return points;
}

void run(benchmark::State& state, const std::vector<Vec3>& points) {
  size_t faces = 0;
  for (auto _ : state) {
    Result<ConvexHull> hull = ConvexHullBuilder::build(points);
    if (!hull.ok()) {
      state.SkipWithError(hull.error().message());
      return;
    }
    faces = hull->faces.size();
    benchmark::DoNotOptimize(hull);
  }
  state.counters["faces"] = static_cast<double>(faces);
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(points.size()));
}

void BM_ConvexHullInSphere(benchmark::State& state) {
  run(state, points_in_sphere(static_cast<int>(state.range(0))));
}
void BM_ConvexHullOnSphere(benchmark::State& state) {
  run(state, points_on_sphere(static_cast<int>(state.range(0))));
}
void BM_ConvexHullInBox(benchmark::State& state) {
  run(state, points_in_box(static_cast<int>(state.range(0))));
}

BENCHMARK(BM_ConvexHullInSphere)->Arg(100)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ConvexHullOnSphere)->Arg(100)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ConvexHullInBox)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace atl
