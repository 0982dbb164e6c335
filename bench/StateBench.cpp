// The cost of a saved state (issue 10: "report bytes per body and µs per save/restore for the
// pyramid"): Jolt's Pyramid (1240 boxes) after 60 steps, when the pyramid has fallen into one
// pile with ~8 500 contacts, saved whole and restored into the same world. Counters: bytes of
// the state, bytes per body. The same for a rollback snapshot, which holds the body set too.

#include <benchmark/benchmark.h>

#include <memory>

#include "atoll/run/SceneWorld.h"
#include "atoll/scene/BuiltinScenes.h"
#include "atoll/scene/SceneReader.h"

namespace atl {
namespace state_bench {

std::unique_ptr<SceneWorld> pyramid_after(int steps) {
  const SceneDescription scene = read_scene_text(*builtin_scene_text("pyramid"), "pyramid").value();
  std::unique_ptr<SceneWorld> world = SceneWorld::create(scene, "pyramid").value();
  for (int step = 0; step < steps; ++step) (void)world->system().update(scene.dt);
  return world;
}

void BM_SaveStatePyramid(benchmark::State& state) {
  std::unique_ptr<SceneWorld> world = pyramid_after(60);
  StateRecorder recorder;
  for (auto _ : state) {
    (void)world->system().save_state(recorder);
    benchmark::DoNotOptimize(recorder.data().data());
  }
  state.counters["bytes"] = static_cast<double>(recorder.data().size());
  state.counters["bytes_per_body"] =
      static_cast<double>(recorder.data().size()) / world->system().bodies().num_bodies();
}
BENCHMARK(BM_SaveStatePyramid)->Unit(benchmark::kMicrosecond);

void BM_RestoreStatePyramid(benchmark::State& state) {
  std::unique_ptr<SceneWorld> world = pyramid_after(60);
  StateRecorder recorder;
  (void)world->system().save_state(recorder);
  for (auto _ : state) benchmark::DoNotOptimize(world->system().restore_state(recorder).ok());
  state.counters["bytes"] = static_cast<double>(recorder.data().size());
}
BENCHMARK(BM_RestoreStatePyramid)->Unit(benchmark::kMicrosecond);

void BM_ValidateStatePyramid(benchmark::State& state) {
  std::unique_ptr<SceneWorld> world = pyramid_after(60);
  StateRecorder recorder;
  (void)world->system().save_state(recorder);
  recorder.set_validating(true);
  for (auto _ : state) benchmark::DoNotOptimize(world->system().restore_state(recorder).ok());
}
BENCHMARK(BM_ValidateStatePyramid)->Unit(benchmark::kMicrosecond);

// Rollback snapshots (state/WorldSnapshot.h): the whole world with its body set. Saved into
// the same snapshot again and again (a ring of snapshots reuses its buffers).
void BM_SaveSnapshotPyramid(benchmark::State& state) {
  std::unique_ptr<SceneWorld> world = pyramid_after(60);
  WorldSnapshot snapshot;
  for (auto _ : state) {
    (void)world->system().save_snapshot(snapshot);
    benchmark::DoNotOptimize(&snapshot);
  }
  state.counters["bytes"] = static_cast<double>(snapshot.bytes());
  state.counters["bytes_per_body"] =
      static_cast<double>(snapshot.bytes()) / world->system().bodies().num_bodies();
}
BENCHMARK(BM_SaveSnapshotPyramid)->Unit(benchmark::kMicrosecond);

void BM_RestoreSnapshotPyramid(benchmark::State& state) {
  std::unique_ptr<SceneWorld> world = pyramid_after(60);
  WorldSnapshot snapshot;
  (void)world->system().save_snapshot(snapshot);
  for (auto _ : state) benchmark::DoNotOptimize(world->system().restore_snapshot(snapshot).ok());
}
BENCHMARK(BM_RestoreSnapshotPyramid)->Unit(benchmark::kMicrosecond);

}  // namespace state_bench
}  // namespace atl
