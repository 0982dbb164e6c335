// The run summary's JSON for many bodies: linear in the body count (the complexity fit reports
// O(N)); it was quadratic once (tests/run/RunSummaryTest.cpp says how).

#include <benchmark/benchmark.h>

#include <string>

#include "atoll/run/SceneWorld.h"

namespace atl {
namespace run_summary_bench {

void BM_SummaryJson(benchmark::State& state) {
  RunSummary summary;
  for (int64_t i = 0; i < state.range(0); ++i)
    summary.bodies.emplace_back("body" + std::to_string(i), BodySnapshot{});
  for (auto _ : state) {
    const std::string text = summary_to_json(summary);
    benchmark::DoNotOptimize(text.data());
  }
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_SummaryJson)
    ->Name("RunSummary/json")
    ->Arg(10000)
    ->Arg(40000)
    ->Arg(160000)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);

}  // namespace run_summary_bench
}  // namespace atl
