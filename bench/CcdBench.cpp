// The cost of LinearCast CCD (LAWS.md E6, seed 004 E9): the built-in scene "bullets" — 100
// spheres of radius 10 mm flying at 40 m/s into a 20 mm plate — with every sphere Discrete
// (all tunnel) or LinearCast (all held). Jolt's reading is 0.0670 vs 0.1456 ms/step (×2.2).
//
// Two lengths: the scene's 120 steps (after the hit the two runs do different work: held
// spheres rest against the plate, lost ones fly on), and its first 3 steps, the approach, where
// both runs fly the same spheres the same way and differ only by the casts. Items are steps, so
// items/s compare the cost per step. The world is rebuilt outside the timed region.

#include <benchmark/benchmark.h>

#include <memory>

#include "atoll/run/SceneWorld.h"
#include "atoll/scene/BuiltinScenes.h"
#include "atoll/scene/SceneReader.h"

namespace atl {
namespace {

void BM_Bullets(benchmark::State& state) {
  const MotionQuality quality =
      state.range(0) != 0 ? MotionQuality::LinearCast : MotionQuality::Discrete;
  const int steps = static_cast<int>(state.range(1));
  const SceneDescription scene = read_scene_text(*builtin_scene_text("bullets"), "bullets").value();
  int held = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::unique_ptr<SceneWorld> world = SceneWorld::create(scene, "bullets").value();
    BodyInterface& bodies = world->system().body_interface();
    for (BodyID id : world->body_ids())
      if (bodies.motion_type(id).value() == MotionType::Dynamic)
        (void)bodies.set_motion_quality(id, quality);
    state.ResumeTiming();
    for (int step = 0; step < steps; ++step)
      (void)world->system().update(scene.dt, scene.collision_steps);
    state.PauseTiming();
    held = 0;
    for (BodyID id : world->body_ids()) {
      const float x = bodies.position(id).value().x();
      held += bodies.motion_type(id).value() == MotionType::Dynamic && x < 0.0f ? 1 : 0;
    }
    world.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * steps);
  state.counters["held"] = held;
}
BENCHMARK(BM_Bullets)
    ->ArgNames({"linear_cast", "steps"})
    ->Args({0, 3})
    ->Args({1, 3})
    ->Args({0, 120})
    ->Args({1, 120})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace atl
