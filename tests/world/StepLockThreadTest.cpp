// Calls that change the world, made from inside PhysicsSystem::update (a contact listener's
// step-time callbacks, or another thread meanwhile), are refused with an error that names the call,
// and change nothing; the same calls work after the step, in on_contact_events. Before, creating a
// body from on_contact_added crashed the step (the active list it was walking grew under it), and
// update() called from there ran a step inside the step.

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "atoll/constraint/PointConstraint.h"
#include "atoll/core/ThreadPool.h"
#include "atoll/state/StateRecorder.h"
#include "atoll/state/WorldSnapshot.h"
#include "laws/LawFixture.h"

namespace atl {
namespace step_lock_thread_test {
namespace {

using laws::LawWorld;

constexpr char k_refused[] = ": not allowed while PhysicsSystem::update steps the world";

// From every step-time callback, tries each kind of call that changes the world and keeps the
// errors; reads are allowed. `meddle` off: the same callbacks, doing nothing (the twin world).
struct Meddler : ContactListener {
  PhysicsSystem* system = nullptr;
  BodyID box;
  Ref<Constraint> constraint;
  const StateRecorder* saved = nullptr;
  bool meddle = true;
  int calls = 0;
  int reads = 0;
  std::vector<std::string> errors;
  // After the step: a body made here is kept.
  BodyID made_after_step;
  // What the refused saves left: nothing (a save of the half-stepped world would be one).
  StateRecorder refused_state;
  WorldSnapshot refused_snapshot;

  void note(const Status& status) {
    if (status) {
      errors.push_back("accepted");
    } else {
      errors.push_back(status.error().message());
    }
  }
  template <class T>
  void note(const Result<T>& result) {
    if (result) {
      errors.push_back("accepted");
    } else {
      errors.push_back(result.error().message());
    }
  }
  void meddle_now() {
    ++calls;
    if (!meddle) return;
    BodyInterface& bodies = system->body_interface();
    if (bodies.position(box).ok()) ++reads;
    BodyCreationSettings settings(bodies.shape(box).value(), Vec3(9, 9, 9), Quat(),
                                  MotionType::Dynamic);
    note(bodies.create_body(settings));
    note(bodies.create_and_add_body(settings, Activation::Activate));
    note(bodies.set_position(box, Vec3(0, 5, 0)));
    note(bodies.set_linear_velocity(box, Vec3(0, 9, 0)));
    note(bodies.add_impulse(box, Vec3(0, 9, 0)));
    note(bodies.remove_body(box));
    note(bodies.destroy_body(box));
    note(bodies.set_object_layer(box, 1));
    note(bodies.deactivate(box));
    note(system->remove_constraint(constraint));
    note(system->set_settings(PhysicsSettings{}));
    note(system->activate_bodies_in_aabox(AABox(Vec3(-1, -1, -1), Vec3(1, 1, 1))));
    note(system->restore_state(*saved));
    note(system->update(1.0f / 60.0f));
    note(system->save_state(refused_state));
    note(system->save_snapshot(refused_snapshot));
  }
  ValidateResult on_contact_validate(const Body&, const Body&) override {
    meddle_now();
    return ValidateResult::Accept;
  }
  void on_contact_added(const Body&, const Body&, const ContactManifold&,
                        ContactSettings&) override {
    meddle_now();
  }
  void on_contact_persisted(const Body&, const Body&, const ContactManifold&,
                            ContactSettings&) override {
    meddle_now();
  }
  void on_contact_events(std::span<const ContactEvent>) override {
    if (!meddle || made_after_step.is_valid()) return;
    BodyInterface& bodies = system->body_interface();
    BodyCreationSettings settings(bodies.shape(box).value(), Vec3(30, 1, 30), Quat(),
                                  MotionType::Dynamic);
    Result<BodyID> made = bodies.create_and_add_body(settings, Activation::Activate);
    if (made) made_after_step = *made;
  }
};

struct Scene {
  LawWorld world;
  BodyID box;
  Ref<Constraint> constraint;
  StateRecorder saved;
  Meddler listener;

  explicit Scene(bool meddle) {
    world.add_floor();
    box = world.add_box(Vec3(0.5f, 0.5f, 0.5f), Vec3(0.0f, 0.6f, 0.0f));
    const std::vector<BodyID> tower = world.add_tower(6, Vec3(0.4f, 0.4f, 0.4f), 1.2f);
    PointConstraintSettings joint;
    joint.point1 = joint.point2 = Vec3(0.0f, 1.1f, 0.0f);
    constraint = joint.create(world.system().body_interface(), box, tower[0]).value();
    EXPECT_TRUE(world.system().add_constraint(constraint).ok());
    EXPECT_TRUE(world.system().save_state(saved).ok());
    listener.system = &world.system();
    listener.box = box;
    listener.constraint = constraint;
    listener.saved = &saved;
    listener.meddle = meddle;
    world.system().set_contact_listener(&listener);
  }
};

void expect_refused_and_nothing_changed(JobSystem* jobs, const std::string& label) {
  Scene meddled(true);
  Scene twin(false);
  for (int step = 0; step < 40; ++step) {
    ASSERT_TRUE(meddled.world.system().update(1.0f / 60.0f, 1, jobs).ok()) << label;
    ASSERT_TRUE(twin.world.system().update(1.0f / 60.0f, 1, jobs).ok()) << label;
  }
  const Meddler& m = meddled.listener;
  ASSERT_GT(m.calls, 0) << label;
  // The body made in on_contact_events lands on the floor too: its contact adds calls.
  EXPECT_GE(m.calls, twin.listener.calls) << label;
  EXPECT_EQ(m.reads, m.calls) << label;
  constexpr size_t k_calls = 16;
  ASSERT_EQ(m.errors.size(), k_calls * static_cast<size_t>(m.calls)) << label;
  const char* names[k_calls] = {
      "BodyInterface::create_body",   "BodyInterface::create_and_add_body",
      "BodyInterface::set_position",  "BodyInterface::set_linear_velocity",
      "BodyInterface::add_impulse",   "BodyInterface::remove_body",
      "BodyInterface::destroy_body",  "BodyInterface::set_object_layer",
      "BodyInterface::deactivate",    "PhysicsSystem::remove_constraint",
      "PhysicsSystem::set_settings",  "PhysicsSystem::activate_bodies_in_aabox",
      "PhysicsSystem::restore_state", "PhysicsSystem::update",
      "PhysicsSystem::save_state",    "PhysicsSystem::save_snapshot"};
  for (size_t k = 0; k < m.errors.size(); ++k)
    EXPECT_EQ(m.errors[k].rfind(std::string(names[k % k_calls]) + k_refused, 0), 0u)
        << label << ": " << m.errors[k];
  EXPECT_TRUE(m.refused_state.data().empty()) << label;
  EXPECT_TRUE(m.refused_snapshot.empty()) << label;
  // The one body made after the first step, in on_contact_events, is the only difference: the
  // meddled world has it; the rest moved bit for bit as the twin's.
  ASSERT_TRUE(m.made_after_step.is_valid()) << label;
  EXPECT_EQ(meddled.world.system().bodies().num_bodies(),
            twin.world.system().bodies().num_bodies() + 1)
      << label;
  EXPECT_EQ(meddled.world.system().constraints().size(), 1u) << label;
  for (const BodyID id : {meddled.box}) {
    EXPECT_EQ(meddled.world.bodies().position(id).value(), twin.world.bodies().position(id).value())
        << label;
    EXPECT_EQ(meddled.world.bodies().linear_velocity(id).value(),
              twin.world.bodies().linear_velocity(id).value())
        << label;
  }
  // And after the steps every call works again.
  EXPECT_TRUE(meddled.world.bodies().set_position(meddled.box, Vec3(0, 3, 0)).ok()) << label;
  EXPECT_TRUE(meddled.world.system().update(1.0f / 60.0f, 1, jobs).ok()) << label;
}

TEST(StepLock, CallsThatChangeTheWorldFromStepTimeCallbacksAreRefusedAndChangeNothing) {
  expect_refused_and_nothing_changed(nullptr, "inline");
  // On a pool: the listener is still called on the calling thread (in pair order), and the
  // workers' stages run while the world is locked.
  Result<std::unique_ptr<ThreadPool>> pool = ThreadPool::create(2);
  ASSERT_TRUE(pool.ok());
  expect_refused_and_nothing_changed(pool->get(), "thread pool, 2 workers");
}

// Another thread's calls while update runs are refused the same way (a game thread moving a
// body while the physics thread steps): here made from inside the step, by a thread that
// on_contact_added starts and waits for, so that the two surely overlap.
struct OtherThread : ContactListener {
  PhysicsSystem* system = nullptr;
  BodyID box;
  std::vector<std::string> errors;
  void on_contact_added(const Body&, const Body&, const ContactManifold&,
                        ContactSettings&) override {
    if (!errors.empty()) return;
    std::thread other([this] {
      Result<UpdateResult> update = system->update(1.0f / 60.0f);
      errors.push_back(update ? "accepted" : update.error().message());
      Status moved = system->body_interface().set_position(box, Vec3(0, 9, 0));
      errors.push_back(moved ? "accepted" : moved.error().message());
    });
    other.join();
  }
};

TEST(StepLock, AnotherThreadsUpdateOrChangeDuringTheStepIsRefused) {
  LawWorld world;
  world.add_floor();
  OtherThread listener;
  listener.system = &world.system();
  listener.box = world.add_box(Vec3(0.5f, 0.5f, 0.5f), Vec3(0.0f, 0.6f, 0.0f));
  world.system().set_contact_listener(&listener);
  for (int step = 0; step < 30; ++step) world.step();
  ASSERT_EQ(listener.errors.size(), 2u);
  EXPECT_EQ(listener.errors[0].rfind(std::string("PhysicsSystem::update") + k_refused, 0), 0u)
      << listener.errors[0];
  EXPECT_EQ(listener.errors[1].rfind(std::string("BodyInterface::set_position") + k_refused, 0), 0u)
      << listener.errors[1];
  EXPECT_EQ(world.system().step_count(), 30u);
  EXPECT_LT(world.bodies().position(listener.box).value().y(), 1.0f);
}

// After the step, the listeners may call update() again (a game stepping on from an event).
// Each listener's list is taken out before the first of them runs, so the events handed out
// stay those of the step that made them while the update inside runs and delivers its own.
// Before, the update inside cleared and refilled the lists being handed out.
struct StepsAgain : ContactListener, BodyActivationListener {
  PhysicsSystem* system = nullptr;
  bool inside = false;
  int nested_updates = 0;
  int changed_lists = 0;
  int contact_deliveries = 0;
  int activation_calls = 0;
  // Added events, by body pair: each contact of the tower is added once.
  std::vector<std::pair<BodyID, BodyID>> added;
  void step_again() {
    if (inside || nested_updates >= 3) return;
    inside = true;
    ++nested_updates;
    EXPECT_TRUE(system->update(1.0f / 60.0f).ok());
    inside = false;
  }
  void on_contact_events(std::span<const ContactEvent> events) override {
    ++contact_deliveries;
    for (const ContactEvent& e : events)
      if (e.type == ContactEventType::Added) added.emplace_back(e.body1, e.body2);
    const std::vector<ContactEvent> before(events.begin(), events.end());
    step_again();
    if (events.size() != before.size()) {
      ++changed_lists;
      return;
    }
    for (size_t k = 0; k < events.size(); ++k)
      if (events[k].body1 != before[k].body1 || events[k].body2 != before[k].body2 ||
          events[k].type != before[k].type || events[k].collision_step != before[k].collision_step)
        ++changed_lists;
  }
  void on_body_activated(BodyID) override {
    ++activation_calls;
    step_again();
  }
  void on_body_deactivated(BodyID) override { ++activation_calls; }
};

TEST(StepLock, ListenersMayUpdateAgainAfterTheStepAndTheirListsStayTheirStepsOwn) {
  LawWorld world;
  StepsAgain listener;
  listener.system = &world.system();
  world.system().set_contact_listener(&listener);
  world.system().set_body_activation_listener(&listener);
  world.add_floor();
  world.add_tower(8, Vec3(0.4f, 0.4f, 0.4f), 0.05f);
  const BodyID late = world.add_box(Vec3(0.4f, 0.4f, 0.4f), Vec3(5.0f, 0.45f, 0.0f));
  for (int step = 0; step < 10; ++step) world.step();
  // Three updates from inside the listeners, the first from on_body_activated (the nine bodies
  // activated before the first update: eight more calls follow from the list it was handed),
  // with contact events delivered around them.
  EXPECT_EQ(listener.nested_updates, 3);
  EXPECT_GE(listener.activation_calls, 9);
  EXPECT_GT(listener.contact_deliveries, 10);
  EXPECT_EQ(listener.changed_lists, 0);
  // The first update's events (the tower's seven box-on-box contacts, added) reached the
  // listener after the update inside on_body_activated; then the two floor contacts. Before,
  // that update replaced them with its own, and they were never seen.
  EXPECT_EQ(listener.added.size(), 9u);
  std::vector<std::pair<BodyID, BodyID>> pairs = listener.added;
  std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) {
    return std::make_pair(a.first.value(), a.second.value()) <
           std::make_pair(b.first.value(), b.second.value());
  });
  EXPECT_TRUE(std::adjacent_find(pairs.begin(), pairs.end()) == pairs.end());
  EXPECT_EQ(world.system().step_count(), 13u);
  EXPECT_TRUE(world.bodies().is_active(late).value());
}

}  // namespace
}  // namespace step_lock_thread_test
}  // namespace atl
