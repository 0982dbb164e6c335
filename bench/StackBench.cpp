// The cost of the direct stack solve (issue 7 item 16, tests/laws/StackingStressLawsTest.cpp):
// a tower of `boxes` boxes of 1 m, 1 kg on a static floor, and a 1000 kg box on a 1 kg box,
// stepped with the engine's defaults except sleeping off (a sleeping stack costs nothing), with
// the stack solve on (the default thresholds) or off (both thresholds 0: the contact-wise
// solver alone). Items are steps, so items/s compare the cost per step; the counter
// top_offset_mm says what the run bought (how far the top box ended from its start). The world
// is built outside the timed region.

#include <benchmark/benchmark.h>

#include <memory>

#include "atoll/shape/BoxShape.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {
namespace {

PhysicsSettings settings_for(bool stack_solve) {
  PhysicsSettings settings;
  settings.allow_sleeping = false;
  if (!stack_solve) {
    settings.stack_solve_min_bodies = 0;
    settings.stack_solve_min_mass_ratio = 0.0f;
  }
  return settings;
}

Ref<Shape> box_shape(const Vec3& half_extent) {
  BoxShapeSettings shape;
  shape.half_extent = half_extent;
  return shape.create().value_or_throw();
}

// Builds the floor and a tower of boxes with the given masses, bottom first; returns the top.
BodyID build(PhysicsSystem& system, std::initializer_list<float> masses, int repeat) {
  BodyInterface& bodies = system.body_interface();
  (void)bodies.create_and_add_body(
      BodyCreationSettings(box_shape(Vec3(50.0f, 1.0f, 50.0f)), Vec3(0.0f, -1.0f, 0.0f), Quat(),
                           MotionType::Static),
      Activation::DontActivate);
  const Ref<Shape> box = box_shape(Vec3(0.5f, 0.5f, 0.5f));
  BodyID top;
  int level = 0;
  for (int r = 0; r < repeat; ++r)
    for (float mass : masses) {
      BodyCreationSettings s(box, Vec3(0.0f, 0.5f + static_cast<float>(level++), 0.0f), Quat(),
                             MotionType::Dynamic);
      s.override_mass = mass;
      top = bodies.create_and_add_body(s, Activation::Activate).value_or_throw();
    }
  return top;
}

void run(benchmark::State& state, std::initializer_list<float> masses, int repeat) {
  const bool stack_solve = state.range(0) != 0;
  constexpr int k_steps = 120;
  float offset = 0.0f;
  for (auto _ : state) {
    state.PauseTiming();
    auto system = std::make_unique<PhysicsSystem>();
    (void)system->set_settings(settings_for(stack_solve));
    const BodyID top = build(*system, masses, repeat);
    const Vec3 start = system->body_interface().position(top).value();
    state.ResumeTiming();
    for (int step = 0; step < k_steps; ++step) (void)system->update(1.0f / 60.0f, 1);
    state.PauseTiming();
    offset = (system->body_interface().position(top).value() - start).length();
    system.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * k_steps);
  state.counters["top_offset_mm"] = offset * 1000.0f;
}

void BM_Tower50(benchmark::State& state) { run(state, {1.0f}, 50); }
void BM_Tower40(benchmark::State& state) { run(state, {1.0f}, 40); }
void BM_HeavyOnLight(benchmark::State& state) { run(state, {1.0f, 1000.0f}, 1); }

BENCHMARK(BM_Tower50)->ArgName("stack_solve")->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Tower40)->ArgName("stack_solve")->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_HeavyOnLight)->ArgName("stack_solve")->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace atl
