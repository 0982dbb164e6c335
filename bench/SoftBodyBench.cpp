// The cost of soft bodies (issue 11: "a 64×64 cloth: steps/s in the note"): a 64 × 64 cloth
// (4 096 vertices, 12 033 edges, 11 781 dihedral bends) falling onto a static sphere of 1 m, in
// a PhysicsSystem with the default soft_body_substeps and soft_body_iterations (4 × 4), timed
// per update of 1/60 s once it touches the sphere. And the same cloth stepped alone (no world,
// no colliders): the XPBD solve itself.

#include <benchmark/benchmark.h>

#include <memory>

#include "atoll/shape/SphereShape.h"
#include "atoll/softbody/SoftBodyGenerators.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {
namespace soft_body_bench {

Ref<SoftBodySettings> cloth_64() {
  return make_cloth(Vec3(0, 1.2f, 0), 3.0f, 3.0f, 64, 64, 2.0f, 1.0e-6f, 1.0e-3f).value_or_throw();
}

void BM_ClothOnSphere64(benchmark::State& state) {
  PhysicsSystem system;
  BodyCreationSettings sphere(new SphereShape(1.0f), Vec3::zero(), Quat(), MotionType::Static);
  (void)system.body_interface().create_and_add_body(sphere, Activation::DontActivate);
  SoftBodyCreationSettings cloth;
  cloth.settings = cloth_64();
  const BodyID id = system.body_interface().create_soft_body(cloth).value_or_throw();
  (void)system.body_interface().add_body(id, Activation::Activate);
  for (int i = 0; i < 30; ++i) (void)system.update(1.0f / 60.0f);
  for (auto _ : state) benchmark::DoNotOptimize(system.update(1.0f / 60.0f).ok());
  state.counters["vertices"] = system.soft_body(id)->vertex_count();
  state.counters["contacts"] = system.soft_body(id)->num_contacts();
  state.counters["steps_per_s"] =
      benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ClothOnSphere64)->Unit(benchmark::kMillisecond);

void BM_ClothSolveOnly64(benchmark::State& state) {
  std::unique_ptr<SoftBody> body = SoftBody::create(cloth_64()).value_or_throw();
  const SoftBodyStepSettings step;
  for (auto _ : state) benchmark::DoNotOptimize(body->step(1.0f / 60.0f, step).ok());
  state.counters["steps_per_s"] =
      benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ClothSolveOnly64)->Unit(benchmark::kMillisecond);

}  // namespace soft_body_bench
}  // namespace atl
