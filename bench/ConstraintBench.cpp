// The cost of constraints (LAWS.md D8, seed 003 §8.5): a horizontal chain of `links` boxes
// joined by hinges, the first to the world, falling and swinging under gravity with the engine's
// defaults except sleeping off. The links share one collision group that never collides with
// itself, so the step's cost is the constraints' (and the per-body stages'), not contacts'.
// Items are hinge-steps: items/s compare the cost per hinge per step across chain lengths
// (D8 says it is linear: the same for 10 and 400 links); the counter ns_per_hinge_step is the
// same figure inverted. Jolt's reading on its machine: about 0.5 µs per hinge per step. The world
// is built outside the timed region.

#include <benchmark/benchmark.h>

#include <memory>

#include "atoll/collision/CollisionGroup.h"
#include "atoll/constraint/HingeConstraint.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {
namespace {

// Bodies of one group never collide with each other.
class NoSelfCollision final : public GroupFilter {
 public:
  bool can_collide(const CollisionGroup& a, const CollisionGroup& b) const override {
    return a.group_id() != b.group_id();
  }
};

// Builds the chain: links 0.4 m long, 0.5 m apart along x, hinged about z in the gaps.
void build_chain(PhysicsSystem& system, int links) {
  BodyInterface& bodies = system.body_interface();
  BoxShapeSettings shape;
  shape.half_extent = Vec3(0.2f, 0.05f, 0.05f);
  const Ref<Shape> box = shape.create().value_or_throw();
  const Ref<const GroupFilter> filter(new NoSelfCollision());
  BodyID previous = Constraint::k_world;
  for (int i = 0; i < links; ++i) {
    const float x = 0.25f + 0.5f * static_cast<float>(i);
    BodyCreationSettings s(box, Vec3(x, 10.0f, 0.0f), Quat(), MotionType::Dynamic);
    s.collision_group = CollisionGroup(filter, 0, static_cast<CollisionGroup::SubGroupID>(i));
    const BodyID link = bodies.create_and_add_body(s, Activation::Activate).value_or_throw();
    HingeConstraintSettings hinge;
    hinge.point1 = hinge.point2 = Vec3(x - 0.25f, 10.0f, 0.0f);
    hinge.hinge_axis1 = hinge.hinge_axis2 = Vec3(0.0f, 0.0f, 1.0f);
    hinge.normal_axis1 = hinge.normal_axis2 = Vec3(1.0f, 0.0f, 0.0f);
    const Ref<Constraint> c = hinge.create(bodies, previous, link).value_or_throw();
    (void)system.add_constraint(c);
    previous = link;
  }
}

void BM_HingeChain(benchmark::State& state) {
  const int links = static_cast<int>(state.range(0));
  constexpr int k_steps = 60;
  for (auto _ : state) {
    state.PauseTiming();
    auto system = std::make_unique<PhysicsSystem>();
    PhysicsSettings settings;
    settings.allow_sleeping = false;
    (void)system->set_settings(settings);
    build_chain(*system, links);
    state.ResumeTiming();
    for (int step = 0; step < k_steps; ++step) (void)system->update(1.0f / 60.0f, 1);
    state.PauseTiming();
    system.reset();
    state.ResumeTiming();
  }
  const double hinge_steps = static_cast<double>(state.iterations()) * k_steps * links;
  state.SetItemsProcessed(static_cast<int64_t>(hinge_steps));
  state.counters["ns_per_hinge_step"] = benchmark::Counter(
      hinge_steps * 1e-9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

BENCHMARK(BM_HingeChain)
    ->ArgName("links")
    ->Arg(10)
    ->Arg(25)
    ->Arg(50)
    ->Arg(100)
    ->Arg(200)
    ->Arg(400)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace atl
