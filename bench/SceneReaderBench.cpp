// Reading a scene whose generator makes side × side spheres joined by point constraints (named,
// so that every name is checked against the others): linear in the constraint count (the
// complexity fit reports O(N)); it was quadratic once
// (tests/scene/SceneReaderConstraintNameLookupTest.cpp).

#include <benchmark/benchmark.h>

#include <sstream>
#include <string>

#include "atoll/scene/SceneReader.h"

namespace atl {
namespace scene_reader_bench {

void BM_ReadJoinedGrid(benchmark::State& state) {
  const int64_t side = state.range(0);
  std::ostringstream text;
  text << R"({"generators": [{"type": "grid", "name": "g", "shape": {"type": "sphere",)"
       << R"( "radius": 0.4}, "counts": [)" << side << ", " << side
       << R"(, 1], "spacing": [1, 1, 1], "base": [0, 0, 0], "constraint": {"type": "point"},)"
       << R"( "anchor": "top"}]})";
  const std::string scene = text.str();
  for (auto _ : state) {
    Result<SceneDescription> read = read_scene_text(scene, "grid.json");
    benchmark::DoNotOptimize(read.ok());
  }
  state.SetComplexityN(side * side);
}
BENCHMARK(BM_ReadJoinedGrid)
    ->Name("SceneReader/joined_grid")
    ->Arg(50)
    ->Arg(100)
    ->Arg(200)
    ->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);

}  // namespace scene_reader_bench
}  // namespace atl
