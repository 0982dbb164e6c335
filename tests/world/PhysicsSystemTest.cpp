// The world's own contract: contact events, caps that report instead of dropping silently,
// and bad arguments that change nothing.

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "atoll/core/ThreadPool.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/state/StateHash.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {
namespace physics_system_test {
namespace {

constexpr float k_dt = 1.0f / 60.0f;

struct World {
  explicit World(const PhysicsSystemSettings& settings = {}) : system(settings) {
    floor_shape = BoxShapeSettings{Vec3(10, 1, 10)}.create().value();
    box_shape = BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value();
    floor = system.body_interface()
                .create_and_add_body({floor_shape, Vec3(0, -1, 0), Quat(), MotionType::Static},
                                     Activation::DontActivate)
                .value();
  }
  BodyID add_box(const Vec3& position) {
    return system.body_interface()
        .create_and_add_body({box_shape, position, Quat(), MotionType::Dynamic},
                             Activation::Activate)
        .value();
  }
  PhysicsSystem system;
  Ref<Shape> floor_shape, box_shape;
  BodyID floor;
};

// Records events; in the after-step callback it also changes the world, which is allowed there.
class Recorder : public ContactListener {
 public:
  explicit Recorder(World& world) : world_(world) {}
  void on_contact_added(const Body&, const Body&, const ContactManifold&,
                        ContactSettings& settings) override {
    ++added_during_step;
    settings.combined_restitution = 0.0f;
  }
  void on_contact_events(std::span<const ContactEvent> events) override {
    for (const ContactEvent& e : events) types.push_back(e.type);
    if (!spawned && !events.empty()) {
      spawned = world_.add_box(Vec3(5, 3, 0)).is_valid();
    }
  }
  World& world_;
  int added_during_step = 0;
  bool spawned = false;
  std::vector<ContactEventType> types;
};

TEST(PhysicsSystem, ContactEventsAreBufferedAndTheWorldMayChangeInThem) {
  World world;
  const BodyID box = world.add_box(Vec3(0, 0.5f, 0));
  Recorder recorder(world);
  world.system.set_contact_listener(&recorder);
  ASSERT_TRUE(world.system.update(k_dt).ok());
  EXPECT_EQ(recorder.added_during_step, 1);
  ASSERT_EQ(recorder.types.size(), 1u);
  EXPECT_EQ(recorder.types[0], ContactEventType::Added);
  EXPECT_TRUE(recorder.spawned);  // a body created from inside the callback
  EXPECT_EQ(world.system.bodies().num_bodies(), 3u);
  ASSERT_TRUE(world.system.update(k_dt).ok());
  EXPECT_EQ(recorder.types.back(), ContactEventType::Persisted);
  // Lift the box away: the contact is reported removed.
  ASSERT_TRUE(world.system.body_interface().set_position(box, Vec3(0, 5, 0)).ok());
  ASSERT_TRUE(world.system.update(k_dt).ok());
  EXPECT_EQ(recorder.types.back(), ContactEventType::Removed);
}

// A listener that writes a NaN friction (or a negative mass scale) into a contact: the contact
// keeps its default settings, update() says which field and which bodies, and the simulation
// stays finite and identical to a run without the listener.
class PoisoningListener : public ContactListener {
 public:
  void on_contact_added(const Body&, const Body&, const ContactManifold&,
                        ContactSettings& settings) override {
    settings.combined_friction = std::numeric_limits<float>::quiet_NaN();
  }
  void on_contact_persisted(const Body&, const Body&, const ContactManifold&,
                            ContactSettings& settings) override {
    settings.mass_scales.inv_mass2 = -1.0f;
  }
};

TEST(PhysicsSystem, InvalidListenerContactSettingsAreReportedAndNotUsed) {
  World poisoned, clean;
  const BodyID box = poisoned.add_box(Vec3(0, 0.5f, 0));
  clean.add_box(Vec3(0, 0.5f, 0));
  PoisoningListener listener;
  poisoned.system.set_contact_listener(&listener);

  Result<UpdateResult> first = poisoned.system.update(k_dt);
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(clean.system.update(k_dt).ok());
  EXPECT_TRUE(first->has(UpdateError::invalid_contact_settings));
  EXPECT_EQ(first->rejected_contact_settings, 1u);
  EXPECT_EQ(first->rejected_settings_body1, box);
  EXPECT_EQ(first->rejected_settings_body2, poisoned.floor);
  EXPECT_EQ(first->to_string(),
            "ContactListener::on_contact_added set ContactSettings.combined_friction "
            "= nan for bodies " +
                std::to_string(box.value()) + " and " + std::to_string(poisoned.floor.value()) +
                " (must be finite and >= 0; 1 contact(s) kept their default settings)");
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(clean.system.update(k_dt).ok());
    Result<UpdateResult> later = poisoned.system.update(k_dt);
    ASSERT_TRUE(later.ok());
    // The box rests on the floor: when the narrow phase runs again (the body-pair cache reuses
    // the settings of the last narrow phase, i.e. the defaults), the contact persists.
    if (!later->ok()) {
      EXPECT_EQ(later->rejected_settings_field, "mass_scales.inv_mass2 = -1") << later->to_string();
    }
  }
  EXPECT_EQ(state_hash(poisoned.system.bodies()), state_hash(clean.system.bodies()));
}

TEST(PhysicsSystem, BadUpdateArgumentsChangeNothing) {
  World world;
  world.add_box(Vec3(0, 2, 0));
  const uint64_t before = state_hash(world.system.bodies());
  Result<UpdateResult> r = world.system.update(0.0f);
  ASSERT_FALSE(r.ok());
  EXPECT_STREQ(r.error().message(),
               "PhysicsSystem::update: dt: must be finite and > 0, got 0.000000");
  r = world.system.update(k_dt, 0);
  ASSERT_FALSE(r.ok());
  EXPECT_STREQ(r.error().message(), "PhysicsSystem::update: collision_steps: must be >= 1, got 0");
  EXPECT_EQ(state_hash(world.system.bodies()), before);
  EXPECT_EQ(world.system.step_count(), 0u);
}

// A game's own job system that reports a worker count the step cannot use: every per-worker
// list is sized by num_workers(), so 0 would index an empty list and a huge count would allocate
// per-worker scratch for threads that do not exist.
class ReportingJobSystem final : public JobSystem {
 public:
  explicit ReportingJobSystem(uint32_t workers) : workers_(workers) {}
  uint32_t num_workers() const override { return workers_; }
  void run(TaskFunction task, uint32_t count, uint32_t min_range, void* context) override {
    ++runs;
    InlineJobSystem().run(task, count, min_range, context);
  }
  int runs = 0;

 private:
  uint32_t workers_;
};

TEST(PhysicsSystem, AJobSystemWithoutWorkersOrWithTooManyChangesNothing) {
  const auto add_column = [](World& w) {
    for (int i = 0; i < 40; ++i) w.add_box(Vec3(0.0f, 0.5f + static_cast<float>(i), 0.0f));
  };
  World world;
  add_column(world);
  const uint64_t before = state_hash(world.system.bodies());
  ReportingJobSystem none(0);
  Result<UpdateResult> r = world.system.update(k_dt, 1, &none);
  ASSERT_FALSE(r.ok());
  EXPECT_STREQ(r.error().message(),
               "PhysicsSystem::update: jobs: num_workers() must be in [1, 256], got 0");
  ReportingJobSystem many(257);
  r = world.system.update(k_dt, 1, &many);
  ASSERT_FALSE(r.ok());
  EXPECT_STREQ(r.error().message(),
               "PhysicsSystem::update: jobs: num_workers() must be in [1, 256], got 257");
  EXPECT_EQ(none.runs + many.runs, 0);
  EXPECT_EQ(state_hash(world.system.bodies()), before);
  EXPECT_EQ(world.system.step_count(), 0u);
  // The most it accepts works, and gives the bits one thread gives.
  World alone;
  add_column(alone);
  ReportingJobSystem most(256);
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(world.system.update(k_dt, 1, &most).ok());
    ASSERT_TRUE(alone.system.update(k_dt).ok());
  }
  EXPECT_GT(most.runs, 0);
  EXPECT_EQ(state_hash(world.system.bodies()), state_hash(alone.system.bodies()));
}

TEST(PhysicsSystem, InvalidSettingsAreRejectedWhole) {
  World world;
  PhysicsSettings settings;
  settings.velocity_steps = 0;
  const Status s = world.system.set_settings(settings);
  ASSERT_FALSE(s.ok());
  EXPECT_STREQ(s.error().message(), "PhysicsSettings.velocity_steps: must be >= 1, got 0");
  EXPECT_EQ(world.system.settings().velocity_steps, 10);
  settings = PhysicsSettings{};
  settings.baumgarte = 2.0f;
  EXPECT_FALSE(world.system.set_settings(settings).ok());
  EXPECT_EQ(world.system.settings().baumgarte, 0.2f);
}

// Settings that would do nothing are refused until they work (issue 8 §1), with a message that
// says why, and change nothing.
TEST(PhysicsSystem, SettingsThatDoNothingAreRefused) {
  World world;
  // The large-island splitter works now (LargeIslandSplitter, issue 9): on by default (Jolt's
  // default), and both values are accepted.
  EXPECT_TRUE(PhysicsSettings{}.use_large_island_splitter);
  PhysicsSettings settings;
  settings.use_large_island_splitter = false;
  EXPECT_TRUE(world.system.set_settings(settings).ok());
  EXPECT_FALSE(world.system.settings().use_large_island_splitter);
  settings = PhysicsSettings{};
  settings.deterministic_simulation = false;
  settings.velocity_steps = 3;
  Status s = world.system.set_settings(settings);
  ASSERT_FALSE(s.ok());
  EXPECT_STREQ(
      s.error().message(),
      "PhysicsSettings.deterministic_simulation: every stage gives the same bits for any "
      "thread count at no cost, so there is no faster non-deterministic step; must be true");
  EXPECT_EQ(world.system.settings().velocity_steps, 10);
}

// Symptom (before): the broadphase's fat margin was fixed at the default speculative contact
// distance (0.02 m) when the world was built, so after set_settings raised
// speculative_contact_distance to 0.5 m a box hovering 0.3 m above the floor got no body pair
// and no speculative contact (num_body_pairs 0) and fell onto the floor without one. Cause:
// set_settings did not tell the broadphase. Fix: set_settings sets the broadphase's fat margin
// (BroadPhase::set_fat_margin grows every stored box by the difference). After: the pair and
// its speculative contact exist from the first step.
TEST(PhysicsSystem, BroadphaseMarginFollowsTheSpeculativeContactDistance) {
  World world;
  const BodyID box = world.add_box(Vec3(0, 0.8f, 0));  // 0.3 m above the floor
  PhysicsSettings settings;
  settings.gravity = Vec3::zero();
  settings.speculative_contact_distance = 0.5f;
  ASSERT_TRUE(world.system.set_settings(settings).ok());
  EXPECT_EQ(world.system.broadphase().settings().fat_margin, 0.5f);
  Result<UpdateResult> r = world.system.update(k_dt);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->num_body_pairs, 1u);
  EXPECT_TRUE(world.system.were_bodies_in_contact(box, world.floor).value());
  // Back to a small distance: the margin shrinks with it, and the pair goes.
  settings.speculative_contact_distance = 0.01f;
  ASSERT_TRUE(world.system.set_settings(settings).ok());
  EXPECT_EQ(world.system.broadphase().settings().fat_margin, 0.01f);
  ASSERT_TRUE(world.system.update(k_dt).ok());
  EXPECT_FALSE(world.system.were_bodies_in_contact(box, world.floor).value());
}

TEST(PhysicsSystem, PairCapIsReportedNotSilent) {
  PhysicsSystemSettings caps;
  caps.max_body_pairs = 2;
  World world(caps);
  for (int i = 0; i < 4; ++i) world.add_box(Vec3(2.0f * i, 0.5f, 0));
  Result<UpdateResult> r = world.system.update(k_dt);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->ok());
  EXPECT_EQ(r->errors, static_cast<uint32_t>(UpdateError::body_pair_cap_reached));
  EXPECT_EQ(r->skipped_body_pairs, 2u);
  EXPECT_TRUE(r->first_skipped_pair_body1.is_valid());
  EXPECT_EQ(r->to_string(),
            "PhysicsSystemSettings.max_body_pairs (2) reached: 2 body pairs were not collided (the "
            "first: bodies " +
                std::to_string(r->first_skipped_pair_body1.value()) + " and " +
                std::to_string(r->first_skipped_pair_body2.value()) + ")");
  EXPECT_EQ(r->num_body_pairs, 2u);
}

TEST(PhysicsSystem, ManifoldCapIsReportedAsAFlagWithTheFirstPairLeftOut) {
  PhysicsSystemSettings caps;
  caps.max_contact_manifolds = 1;
  World world(caps);
  (void)world.add_box(Vec3(0, 0.5f, 0));
  const BodyID second = world.add_box(Vec3(3, 0.5f, 0));
  (void)world.add_box(Vec3(6, 0.5f, 0));
  Result<UpdateResult> r = world.system.update(k_dt);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->errors, static_cast<uint32_t>(UpdateError::manifold_cap_reached));
  EXPECT_TRUE(r->has(UpdateError::manifold_cap_reached));
  EXPECT_FALSE(r->has(UpdateError::body_pair_cap_reached));
  EXPECT_EQ(r->num_manifolds, 1u);
  EXPECT_EQ(r->skipped_manifolds, 2u);
  // Pairs are collided in body order: the first box's contact is solved, the second's is the
  // first left out (listener order: the dynamic box first).
  EXPECT_EQ(r->first_skipped_manifold_body1, second);
  EXPECT_EQ(r->first_skipped_manifold_body2, world.floor);
  EXPECT_EQ(r->to_string(),
            "PhysicsSystemSettings.max_contact_manifolds (1) reached: 2 contact manifolds were not "
            "solved (the first: bodies " +
                std::to_string(second.value()) + " and " + std::to_string(world.floor.value()) +
                ")");
}

TEST(PhysicsSystem, ForcesActForOneUpdateOfAllItsCollisionStepsOnAnyNumberOfThreads) {
  // Enough bodies that the per-body stages, the force clearing after an update among them, run
  // in two and three shares (k_body_share 1 024), each body far from the others, without gravity
  // or damping: a force of F N on a body of m kg gives it F/m·dt in an update of any number of
  // collision steps, and nothing in the next one.
  constexpr int k_side = 16;
  constexpr int k_layers = 10;  // 2 560 bodies
  const Ref<Shape> box = BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value();
  for (const uint32_t workers : {1u, 2u, 3u}) {
    PhysicsSystem system;
    PhysicsSettings settings = system.settings();
    settings.gravity = Vec3::zero();
    ASSERT_TRUE(system.set_settings(settings).ok());
    std::vector<BodyID> ids;
    for (int i = 0; i < k_side * k_side * k_layers; ++i) {
      BodyCreationSettings body{box,
                                Vec3(3.0f * static_cast<float>(i % k_side),
                                     3.0f * static_cast<float>(i / (k_side * k_side)),
                                     3.0f * static_cast<float>(i / k_side % k_side)),
                                Quat(), MotionType::Dynamic};
      body.linear_damping = 0.0f;
      body.override_mass = 2.0f;
      ids.push_back(
          system.body_interface().create_and_add_body(body, Activation::Activate).value());
    }
    for (const BodyID id : ids)
      ASSERT_TRUE(system.body_interface().add_force(id, Vec3(4.0f, 0.0f, 0.0f)).ok());
    std::unique_ptr<ThreadPool> pool = ThreadPool::create(workers).value();
    ASSERT_TRUE(system.update(k_dt, 2, pool.get()).ok());
    // 4 N / 2 kg over two half steps.
    const float expected = 2.0f * k_dt;
    for (const BodyID id : ids)
      ASSERT_NEAR(system.body_interface().linear_velocity(id)->x(), expected, 1.0e-6f)
          << workers << " workers, body " << id.value();
    ASSERT_TRUE(system.update(k_dt, 2, pool.get()).ok());
    for (const BodyID id : ids)
      ASSERT_NEAR(system.body_interface().linear_velocity(id)->x(), expected, 1.0e-6f)
          << workers << " workers, body " << id.value() << ": the force outlived its update";
  }
}

TEST(PhysicsSystem, RestingBoxFallsAsleepAndAPushWakesIt) {
  World world;
  const BodyID box = world.add_box(Vec3(0, 0.5f, 0));
  int steps = 0;
  while (world.system.bodies().num_active_bodies() > 0 && steps < 600) {
    ASSERT_TRUE(world.system.update(k_dt).ok());
    ++steps;
  }
  EXPECT_LT(steps, 600);
  ASSERT_TRUE(world.system.body_interface().add_impulse(box, Vec3(1, 0, 0)).ok());
  EXPECT_TRUE(world.system.body_interface().is_active(box).value());
}

}  // namespace
}  // namespace physics_system_test
}  // namespace atl
