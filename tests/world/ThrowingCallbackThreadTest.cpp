// User code that throws inside the step on a worker thread (a layer filter: the broadphase and
// the narrow phase call it on every worker). Inline, the exception leaves update(); on a
// ThreadPool it used to end the process (std::terminate on the background thread). Now it
// leaves update() on the calling thread as well, the pool stays usable, and a snapshot taken
// before the update restores a world that goes on bit for bit as one that never threw.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "atoll/collision/broadphase/BroadPhaseLayerTable.h"
#include "atoll/core/ThreadPool.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/softbody/SoftBodyGenerators.h"
#include "atoll/state/StateRecorder.h"
#include "atoll/state/WorldSnapshot.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {
namespace throwing_callback_thread_test {
namespace {

constexpr float k_dt = 1.0f / 60.0f;

// Everything collides but two static bodies; once armed, throws when called on any thread but
// the one that armed it. On the arming thread an armed filter waits, up to 20 ms a call and 10 s
// in all, for a worker to have thrown: held in its range, the caller leaves the run's other
// ranges to the background worker, however late a loaded machine wakes it. (The step's first
// calls, a serial check of the filter's answers, wait their 20 ms each in vain.)
class ThrowingFilter final : public ObjectLayerPairFilter {
 public:
  bool should_collide(ObjectLayer a, ObjectLayer b) const override {
    if (armed_.load(std::memory_order_relaxed)) {
      if (std::this_thread::get_id() != armer_) {
        threw_.store(true, std::memory_order_relaxed);
        throw std::runtime_error("filter: refused on a worker");
      }
      const auto until =
          std::min(deadline_, std::chrono::steady_clock::now() + std::chrono::milliseconds(20));
      while (!threw_.load(std::memory_order_relaxed) && std::chrono::steady_clock::now() < until)
        std::this_thread::yield();
    }
    return a != layers::k_non_moving || b != layers::k_non_moving;
  }
  void arm(bool armed) {
    armer_ = std::this_thread::get_id();
    deadline_ = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    armed_.store(armed, std::memory_order_relaxed);
  }
  bool threw() const { return threw_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> armed_{false};
  mutable std::atomic<bool> threw_{false};
  std::thread::id armer_;
  std::chrono::steady_clock::time_point deadline_;
};

// 2 500 spheres in touching rows sunk 5 cm into a floor (pushed out, they move for a few steps):
// thousands of pairs, shared among the workers.
std::unique_ptr<PhysicsSystem> make_world(const ObjectLayerPairFilter& filter) {
  PhysicsSystemSettings settings;
  settings.object_layer_pair_filter = &filter;
  auto system = std::make_unique<PhysicsSystem>(settings);
  BodyInterface& bodies = system->body_interface();
  const Ref<Shape> floor = BoxShapeSettings{Vec3(40, 1, 40)}.create().value();
  EXPECT_TRUE(bodies
                  .create_and_add_body({floor, Vec3(0, -1, 0), Quat(), MotionType::Static},
                                       Activation::DontActivate)
                  .ok());
  const Ref<Shape> ball = SphereShapeSettings{0.5f}.create().value();
  for (int x = 0; x < 50; ++x)
    for (int z = 0; z < 50; ++z)
      EXPECT_TRUE(bodies
                      .create_and_add_body(
                          {ball, Vec3(x - 25.0f, 0.45f, z - 25.0f), Quat(), MotionType::Dynamic},
                          Activation::Activate)
                      .ok());
  return system;
}

// Throws, while armed, from the callbacks it is made with (a mask of Callback bits), and counts
// their calls.
class ThrowingListener final : public ContactListener {
 public:
  enum Callback : unsigned { validate = 1, added = 2, persisted = 4, events = 8 };
  explicit ThrowingListener(unsigned callbacks) : callbacks_(callbacks) {}
  ValidateResult on_contact_validate(const Body&, const Body&) override {
    called(validate);
    return ValidateResult::Accept;
  }
  void on_contact_added(const Body&, const Body&, const ContactManifold&,
                        ContactSettings&) override {
    called(added);
  }
  void on_contact_persisted(const Body&, const Body&, const ContactManifold&,
                            ContactSettings&) override {
    called(persisted);
  }
  void on_contact_events(std::span<const ContactEvent>) override { called(events); }
  bool armed = false;
  int calls = 0;

 private:
  void called(Callback callback) {
    if ((callbacks_ & callback) == 0) return;
    ++calls;
    if (armed) throw std::runtime_error("listener: refused");
  }
  unsigned callbacks_;
};

// Each case runs inline and on a pool of two workers.
struct InlineAndPool {
  std::unique_ptr<ThreadPool> pool = ThreadPool::create(2).value();
  std::array<JobSystem*, 2> jobs() const { return {nullptr, pool.get()}; }
};

// The twin that never throws, stepped `steps` times on `jobs`.
uint64_t twin_hash(JobSystem* jobs, int steps) {
  ThrowingFilter filter;
  std::unique_ptr<PhysicsSystem> twin = make_world(filter);
  for (int step = 0; step < steps; ++step) EXPECT_TRUE(twin->update(k_dt, 1, jobs).ok());
  return twin->state_hash();
}

TEST(ThrowingCallback, AFiltersExceptionOnAWorkerLeavesUpdateAndASnapshotRestoresTheWorld) {
  Result<std::unique_ptr<ThreadPool>> pool = ThreadPool::create(2);
  ASSERT_TRUE(pool.ok());
  JobSystem* jobs = pool->get();
  // The first step searches the whole broadphase, on every worker; the armed filter holds the
  // caller in its range until the background worker has thrown in another (should it not come
  // within the filter's deadline, the step is taken again).
  ThrowingFilter filter;
  std::unique_ptr<PhysicsSystem> world = make_world(filter);
  WorldSnapshot snapshot;
  EXPECT_TRUE(world->save_snapshot(snapshot).ok());
  for (int attempt = 0; attempt < 3 && !filter.threw(); ++attempt) {
    ASSERT_TRUE(world->restore_snapshot(snapshot).ok());
    filter.arm(true);
    try {
      (void)world->update(k_dt, 1, jobs);
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "filter: refused on a worker");
    }
    filter.arm(false);
  }
  ASSERT_TRUE(filter.threw()) << "the filter never ran on the background worker";
  // The step lock was let go, the pool runs on, and the snapshot puts the world back (the
  // broadphase's marks of the interrupted pair search are gone).
  ASSERT_TRUE(world->restore_snapshot(snapshot).ok());
  for (int step = 0; step < 10; ++step) ASSERT_TRUE(world->update(k_dt, 1, jobs).ok());
  EXPECT_EQ(world->state_hash(), twin_hash(jobs, 10));
}

TEST(ThrowingCallback, AListenersExceptionLeavesUpdateAndASnapshotRestoresTheWorld) {
  const InlineAndPool systems;
  using L = ThrowingListener;
  // The same bits on any job system: one twin for every case.
  const uint64_t twin = twin_hash(nullptr, 10);
  for (JobSystem* jobs : systems.jobs())
    for (const L::Callback where : {L::validate, L::added, L::persisted, L::events}) {
      const std::string label = std::string(jobs == nullptr ? "inline" : "pool") + ", callback " +
                                std::to_string(static_cast<int>(where));
      ThrowingFilter filter;
      ThrowingListener listener(where);
      std::unique_ptr<PhysicsSystem> world = make_world(filter);
      world->set_contact_listener(&listener);
      // New contacts come in the first step, persisted ones (recomputed as they move) after.
      const int before = where == L::validate || where == L::added ? 0 : 3;
      for (int step = 0; step < before; ++step)
        ASSERT_TRUE(world->update(k_dt, 1, jobs).ok()) << label;
      WorldSnapshot snapshot;
      EXPECT_TRUE(world->save_snapshot(snapshot).ok());
      listener.armed = true;
      EXPECT_THROW((void)world->update(k_dt, 1, jobs), std::runtime_error) << label;
      listener.armed = false;
      // The events come after the steps: that throw leaves a whole step, and the world goes on
      // as it is, with the twin's bits.
      EXPECT_EQ(world->is_interrupted(), where != L::events) << label;
      if (where == L::events) {
        for (int step = before + 1; step < 10; ++step)
          ASSERT_TRUE(world->update(k_dt, 1, jobs).ok()) << label;
        EXPECT_EQ(world->state_hash(), twin) << label;
      }
      ASSERT_TRUE(world->restore_snapshot(snapshot).ok()) << label;
      EXPECT_FALSE(world->is_interrupted()) << label;
      for (int step = before; step < 10; ++step)
        ASSERT_TRUE(world->update(k_dt, 1, jobs).ok()) << label;
      world->set_contact_listener(nullptr);
      EXPECT_EQ(world->state_hash(), twin) << label;
    }
}

// A world an exception left part-way through a step refuses to step or be saved (it used to step
// on from there, and a save recorded the half-stepped world) until a restore of a whole world.
TEST(ThrowingCallback, AnInterruptedWorldRefusesToStepOrBeSavedUntilAWholeWorldIsRestored) {
  const uint64_t twin = twin_hash(nullptr, 10);
  ThrowingFilter filter;
  ThrowingListener listener(ThrowingListener::added);
  std::unique_ptr<PhysicsSystem> world = make_world(filter);
  world->set_contact_listener(&listener);
  StateRecorder whole, bodies_only;
  ASSERT_TRUE(world->save_state(whole).ok());
  ASSERT_TRUE(world->save_state(bodies_only, StateParts::bodies).ok());
  WorldSnapshot snapshot;
  ASSERT_TRUE(world->save_snapshot(snapshot).ok());
  listener.armed = true;
  EXPECT_THROW((void)world->update(k_dt), std::runtime_error);
  listener.armed = false;
  ASSERT_TRUE(world->is_interrupted());

  const auto expect_refused = [](const Status& status, const std::string& call) {
    ASSERT_FALSE(status.ok()) << call;
    EXPECT_EQ(std::string(status.error().message())
                  .rfind(call + ": the world is part-way through a step", 0),
              0u)
        << status.error().message();
  };
  const uint64_t interrupted_hash = world->state_hash();
  const Result<UpdateResult> update = world->update(k_dt);
  ASSERT_FALSE(update.ok());
  expect_refused(update.error(), "PhysicsSystem::update");
  EXPECT_EQ(world->state_hash(), interrupted_hash);  // not stepped
  EXPECT_EQ(world->step_count(), 0u);
  StateRecorder refused = whole;
  expect_refused(world->save_state(refused), "PhysicsSystem::save_state");
  EXPECT_EQ(refused.data(), whole.data());  // left as it was
  expect_refused(world->save_snapshot(snapshot), "PhysicsSystem::save_snapshot");

  // A state of the bodies alone leaves the contact cache and the constraints mid-step.
  ASSERT_TRUE(world->restore_state(bodies_only).ok());
  EXPECT_TRUE(world->is_interrupted());
  // A validating recorder compares and restores nothing.
  StateRecorder validating = whole;
  validating.set_validating(true);
  (void)world->restore_state(validating);
  EXPECT_TRUE(world->is_interrupted());
  // A state of every part puts back the whole world saved before.
  ASSERT_TRUE(world->restore_state(whole).ok());
  EXPECT_FALSE(world->is_interrupted());
  for (int step = 0; step < 10; ++step) ASSERT_TRUE(world->update(k_dt).ok());
  EXPECT_EQ(world->state_hash(), twin);
  // And so does the snapshot (which the refused save left as it was).
  ASSERT_TRUE(world->restore_snapshot(snapshot).ok());
  listener.armed = true;
  EXPECT_THROW((void)world->update(k_dt), std::runtime_error);
  listener.armed = false;
  ASSERT_TRUE(world->is_interrupted());
  ASSERT_TRUE(world->restore_snapshot(snapshot).ok());
  EXPECT_FALSE(world->is_interrupted());
  for (int step = 0; step < 10; ++step) ASSERT_TRUE(world->update(k_dt).ok());
  EXPECT_EQ(world->state_hash(), twin);
}

// A stack of three crates that falls asleep (by step 30), and a ball dropped on it from 8 m that
// wakes it (at step 78; it sleeps again by step 125).
struct WakeScene {
  PhysicsSystem system;
  BodyID top;
  WakeScene() {
    BodyInterface& bodies = system.body_interface();
    const Ref<Shape> floor = BoxShapeSettings{Vec3(10, 1, 10)}.create().value();
    const Ref<Shape> crate = BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value();
    const Ref<Shape> ball = SphereShapeSettings{0.3f}.create().value();
    EXPECT_TRUE(bodies
                    .create_and_add_body({floor, Vec3(0, -1, 0), Quat(), MotionType::Static},
                                         Activation::DontActivate)
                    .ok());
    for (int i = 0; i < 3; ++i)
      top = bodies
                .create_and_add_body({crate, Vec3(0, 0.5f + i, 0), Quat(), MotionType::Dynamic},
                                     Activation::Activate)
                .value();
    EXPECT_TRUE(bodies
                    .create_and_add_body({ball, Vec3(0.1f, 11, 0), Quat(), MotionType::Dynamic},
                                         Activation::Activate)
                    .ok());
  }
  bool top_awake() { return system.body_interface().body(top).value()->is_active(); }
};

// The narrow phase marks the bodies whose pairs it has found or queued to wake; a throw used to
// leave the marks on, and a restored world whose stack slept then never woke it: the ball came
// to rest on a stack that stayed asleep.
TEST(ThrowingCallback, AThrowInTheNarrowPhaseLeavesNoMarkThatKeepsARestoredBodyAsleep) {
  const InlineAndPool systems;
  for (JobSystem* jobs : systems.jobs()) {
    SCOPED_TRACE(jobs == nullptr ? "inline" : "pool");
    constexpr int k_steps = 150;
    WakeScene twin;
    int woke_at = -1;
    for (int step = 0; step < k_steps; ++step) {
      if (step == 60) {
        EXPECT_FALSE(twin.top_awake());  // the stack sleeps
      }
      ASSERT_TRUE(twin.system.update(k_dt, 1, jobs).ok());
      if (woke_at < 0 && step >= 60 && twin.top_awake()) woke_at = step;
    }
    ASSERT_GT(woke_at, 60);  // the ball woke it

    WakeScene world;
    ThrowingListener listener(ThrowingListener::validate | ThrowingListener::added |
                              ThrowingListener::persisted);
    world.system.set_contact_listener(&listener);
    for (int step = 0; step < 60; ++step) ASSERT_TRUE(world.system.update(k_dt, 1, jobs).ok());
    WorldSnapshot asleep;
    EXPECT_TRUE(world.system.save_snapshot(asleep).ok());
    // On to the step after the ball woke the stack, whose narrow phase throws.
    for (int step = 60; step <= woke_at; ++step)
      ASSERT_TRUE(world.system.update(k_dt, 1, jobs).ok());
    ASSERT_TRUE(world.top_awake());
    listener.armed = true;
    EXPECT_THROW((void)world.system.update(k_dt, 1, jobs), std::runtime_error);
    listener.armed = false;
    ASSERT_TRUE(world.system.restore_snapshot(asleep).ok());
    for (int step = 60; step < k_steps; ++step) {
      ASSERT_TRUE(world.system.update(k_dt, 1, jobs).ok());
      if (step == woke_at) {
        EXPECT_TRUE(world.top_awake());  // the ball wakes it again
      }
    }
    EXPECT_EQ(world.system.state_hash(), twin.system.state_hash());
  }
}

// A LinearCast ball at 60 m/s (1 m a step) and a plate 20 mm thick at x = 0: the ball's cast hits
// the plate in the second step, and that hit goes through the listener (validate, then added:
// the narrow phase, with the ball 0.45 m away, adds no contact).
struct CcdScene {
  PhysicsSystem system;
  CcdScene() {
    PhysicsSettings physics;
    physics.gravity = Vec3();
    EXPECT_TRUE(system.set_settings(physics).ok());
    BodyInterface& bodies = system.body_interface();
    const Ref<Shape> plate = BoxShapeSettings{Vec3(0.01f, 2, 2), 0.0f}.create().value();
    EXPECT_TRUE(bodies
                    .create_and_add_body({plate, Vec3(), Quat(), MotionType::Static},
                                         Activation::DontActivate)
                    .ok());
    BodyCreationSettings ball(SphereShapeSettings{0.1f}.create().value(), Vec3(-1.55f, 0, 0),
                              Quat(), MotionType::Dynamic);
    ball.linear_velocity = Vec3(60, 0, 0);
    ball.motion_quality = MotionQuality::LinearCast;
    EXPECT_TRUE(bodies.create_and_add_body(ball, Activation::Activate).ok());
  }
};

TEST(ThrowingCallback, AThrowFromACcdHitLeavesUpdateAndASnapshotRestoresTheWorld) {
  const InlineAndPool systems;
  for (JobSystem* jobs : systems.jobs()) {
    SCOPED_TRACE(jobs == nullptr ? "inline" : "pool");
    CcdScene twin;
    uint32_t twin_hits = 0;
    for (int step = 0; step < 5; ++step)
      twin_hits += twin.system.update(k_dt, 1, jobs).value().num_ccd_hits;
    ASSERT_EQ(twin_hits, 1u);

    CcdScene world;
    ThrowingListener listener(ThrowingListener::added);
    world.system.set_contact_listener(&listener);
    WorldSnapshot start;
    EXPECT_TRUE(world.system.save_snapshot(start).ok());
    listener.armed = true;
    ASSERT_TRUE(world.system.update(k_dt, 1, jobs).ok());  // the cast does not reach the plate
    EXPECT_EQ(listener.calls, 0);
    EXPECT_THROW((void)world.system.update(k_dt, 1, jobs), std::runtime_error);
    EXPECT_EQ(listener.calls, 1);
    listener.armed = false;
    ASSERT_TRUE(world.system.restore_snapshot(start).ok());
    uint32_t hits = 0;
    for (int step = 0; step < 5; ++step)
      hits += world.system.update(k_dt, 1, jobs).value().num_ccd_hits;
    EXPECT_EQ(hits, 1u);
    EXPECT_EQ(world.system.state_hash(), twin.system.state_hash());
  }
}

// Three cloths falling onto a floor, and a ball far from them. The soft-body stage, the last of
// a step, asks the layer filter (on every worker, a soft body to a worker) which rigid bodies
// near each cloth its vertices collide with. Armed, the filter throws at the step's last call,
// which is that stage's (the earlier stages ask it about the cloths' layer too).
constexpr ObjectLayer k_cloth_layer = 2;
class CountingFilter final : public ObjectLayerPairFilter {
 public:
  bool should_collide(ObjectLayer a, ObjectLayer b) const override {
    if (calls.fetch_add(1) + 1 == throw_at) throw std::runtime_error("filter: refused a cloth");
    return a != layers::k_non_moving || b != layers::k_non_moving;
  }
  mutable std::atomic<int> calls{0};
  int throw_at = 0;  // 0: never
};

struct ClothScene {
  CountingFilter filter;
  // Layer 0 in the static tree, layers 1 and 2 in the moving one; every layer looks into both.
  BroadPhaseLayerTable mapping{3, 2};
  std::unique_ptr<ObjectVsBroadPhaseLayerTable> trees;
  std::unique_ptr<PhysicsSystem> system;
  BodyID ball;
  ClothScene() {
    EXPECT_TRUE(mapping.set(0, 0).ok());
    EXPECT_TRUE(mapping.set(1, 1).ok());
    EXPECT_TRUE(mapping.set(k_cloth_layer, 1).ok());
    struct Everything final : ObjectLayerPairFilter {
      bool should_collide(ObjectLayer, ObjectLayer) const override { return true; }
    } everything;
    trees = std::make_unique<ObjectVsBroadPhaseLayerTable>(mapping, 3, everything);
    PhysicsSystemSettings settings;
    settings.broadphase_layers = &mapping;
    settings.object_vs_broadphase_filter = trees.get();
    settings.object_layer_pair_filter = &filter;
    system = std::make_unique<PhysicsSystem>(settings);
    BodyInterface& bodies = system->body_interface();
    const Ref<Shape> floor = BoxShapeSettings{Vec3(20, 1, 20)}.create().value();
    EXPECT_TRUE(bodies
                    .create_and_add_body({floor, Vec3(0, -1, 0), Quat(), MotionType::Static},
                                         Activation::DontActivate)
                    .ok());
    for (int i = 0; i < 3; ++i) {
      SoftBodyCreationSettings cloth;
      cloth.settings = make_cloth(Vec3(3.0f * i, 0.3f, 0), 1.2f, 1.2f, 9, 9, 0.5f, 1.0e-5f, 1.0e-3f)
                           .value_or_throw();
      cloth.object_layer = k_cloth_layer;
      EXPECT_TRUE(bodies.create_and_add_soft_body(cloth, Activation::Activate).ok());
    }
    ball = bodies
               .create_and_add_body({SphereShapeSettings{0.5f}.create().value(), Vec3(-10, 5, 0),
                                     Quat(), MotionType::Dynamic},
                                    Activation::Activate)
               .value();
  }
  Vec3 ball_position() const {
    return system->body_interface().body(ball).value()->center_of_mass_position();
  }
};

// The soft-body stage keeps no mark of its own that a snapshot misses: a throw from it, and the
// snapshot taken before, give the bits of a world that never threw.
TEST(ThrowingCallback, AThrowInTheSoftBodyStageLeavesUpdateAndASnapshotRestoresTheWorld) {
  const InlineAndPool systems;
  for (JobSystem* jobs : systems.jobs()) {
    SCOPED_TRACE(jobs == nullptr ? "inline" : "pool");
    // The twin counts the filter's calls in step 20.
    ClothScene twin;
    int calls_in_step = 0;
    for (int step = 0; step < 40; ++step) {
      twin.filter.calls = 0;
      ASSERT_TRUE(twin.system->update(k_dt, 1, jobs).ok());
      if (step == 20) calls_in_step = twin.filter.calls;
    }
    ASSERT_GT(calls_in_step, 0);

    ClothScene world;
    for (int step = 0; step < 20; ++step) ASSERT_TRUE(world.system->update(k_dt, 1, jobs).ok());
    WorldSnapshot snapshot;
    ASSERT_TRUE(world.system->save_snapshot(snapshot).ok());
    const Vec3 before = world.ball_position();
    world.filter.calls = 0;
    world.filter.throw_at = calls_in_step;
    EXPECT_THROW((void)world.system->update(k_dt, 1, jobs), std::runtime_error);
    world.filter.throw_at = 0;
    EXPECT_EQ(world.filter.calls, calls_in_step);
    // The rigid bodies were written back: the throw came from the last stage.
    EXPECT_NE(world.ball_position(), before);
    EXPECT_TRUE(world.system->is_interrupted());
    ASSERT_TRUE(world.system->restore_snapshot(snapshot).ok());
    for (int step = 20; step < 40; ++step) ASSERT_TRUE(world.system->update(k_dt, 1, jobs).ok());
    EXPECT_EQ(world.system->state_hash(), twin.system->state_hash());
  }
}

}  // namespace
}  // namespace throwing_callback_thread_test
}  // namespace atl
