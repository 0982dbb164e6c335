// Determinism across threads (LAWS.md C3, seed 004 E6/E7, issue 9 item 2): the state hash
// after 300 steps is the same for every job system and worker count, and across repeated runs,
// on eight scenes — two stacks (26 boxes), a pile (145 boxes), a ragdoll pile (8 ragdolls, 96
// capsules and 84 joints), a pyramid of 7 layers (140 boxes), one island that the large-island
// splitter splits (its splits' batches run on every worker), 40 LinearCast spheres (their
// casts run on every worker), two piles of 100 crates, one with rolling resistance (side rows
// numbered across the setup's shares), three pyramids of 78 boxes (split islands, each solved
// whole on one worker) — and a scene of three soft bodies (a rope tied to a
// crate, a cloth, a pressure ball; their vertices are in the hash). The job
// systems: the inline one, one that runs a stage's ranges backwards on rotating worker indices (any
// schedule must give the same bits, not only the ones a pool happens to produce), and the thread
// pool with 2, 3, 4 and 8 workers. Built as atoll_tests_laws_threads, which the ThreadSanitizer
// preset runs.

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "BackwardsJobSystem.h"
#include "atoll/constraint/GearConstraint.h"
#include "atoll/constraint/HingeConstraint.h"
#include "atoll/constraint/PointConstraint.h"
#include "atoll/core/JobSystem.h"
#include "atoll/core/ThreadPool.h"
#include "atoll/state/WorldSnapshot.h"
#include "laws/LawFixture.h"

namespace atl::laws {
namespace thread_laws_test {
namespace {

constexpr char k_stacks[] = R"({
  "settings": { "allow_sleeping": false },
  "shapes": { "crate": { "type": "box", "half_extent": [0.5, 0.5, 0.5] } },
  "bodies": [ { "name": "floor", "shape": { "type": "box", "half_extent": [20, 1, 20] },
                "position": [0, -1, 0], "motion": "static" } ],
  "generators": [
    { "type": "stack", "name": "a", "shape": "crate", "count": 13, "base": [-2, 0.5, 0],
      "gap": 0.01 },
    { "type": "stack", "name": "b", "shape": "crate", "count": 13, "base": [2, 0.5, 0.1],
      "gap": 0.01 }
  ]
})";

constexpr char k_pile[] = R"({
  "settings": { "allow_sleeping": false },
  "shapes": { "crate": { "type": "box", "half_extent": [0.3, 0.2, 0.4] } },
  "bodies": [ { "name": "floor", "shape": { "type": "box", "half_extent": [20, 1, 20] },
                "position": [0, -1, 0], "motion": "static" } ],
  "generators": [
    { "type": "pile", "name": "p", "shape": "crate", "count": 145, "min": [-2, 1, -2],
      "max": [2, 12, 2], "seed": 11, "random_rotation": true }
  ]
})";

constexpr char k_ragdolls[] = R"({
  "settings": { "allow_sleeping": false },
  "bodies": [ { "name": "floor", "shape": { "type": "box", "half_extent": [20, 1, 20] },
                "position": [0, -1, 0], "motion": "static" } ],
  "generators": [
    { "type": "ragdoll", "name": "r0", "position": [0, 0.4, 0], "rotation": [-0.7071068, 0, 0, 0.7071068] },
    { "type": "ragdoll", "name": "r1", "position": [0.3, 1.0, 0.2], "rotation": [-0.7071068, 0, 0, 0.7071068] },
    { "type": "ragdoll", "name": "r2", "position": [-0.2, 1.6, -0.1], "rotation": [0, 0, 0.7071068, 0.7071068] },
    { "type": "ragdoll", "name": "r3", "position": [0.1, 2.2, 0.3], "rotation": [0, 0, 0.7071068, 0.7071068] },
    { "type": "ragdoll", "name": "r4", "position": [3, 0.4, 0], "rotation": [-0.7071068, 0, 0, 0.7071068] },
    { "type": "ragdoll", "name": "r5", "position": [3.2, 1.0, 0.1], "rotation": [0, 0.7071068, 0, 0.7071068] },
    { "type": "ragdoll", "name": "r6", "position": [-3, 0.4, 0], "rotation": [-0.7071068, 0, 0, 0.7071068] },
    { "type": "ragdoll", "name": "r7", "position": [-3.1, 1.0, 0.2], "rotation": [0, 0, 0.7071068, 0.7071068] }
  ]
})";

// Soft bodies (issue 11 item 6): a rope tied to a crate it drags over the floor, a cloth falling
// on the crate and a pressure ball, solved side by side (one soft body per job).
constexpr char k_soft_bodies[] = R"({
  "settings": { "allow_sleeping": false },
  "bodies": [ { "name": "floor", "shape": { "type": "box", "half_extent": [20, 1, 20] },
                "position": [0, -1, 0], "motion": "static" },
              { "name": "crate", "shape": { "type": "box", "half_extent": [0.3, 0.3, 0.3] },
                "position": [1, 0.3, 0], "mass": 2 } ],
  "soft_bodies": [
    { "name": "rope", "type": "rope", "from": [-1, 2, 0], "to": [1, 0.6, 0], "segments": 16,
      "mass": 0.5, "compliance": 1e-5, "pinned": "first",
      "attach": [ { "vertex": "last", "body": "crate" } ] },
    { "name": "cloth", "type": "cloth", "center": [1, 1.2, 0], "size": [1, 1],
      "resolution": [10, 10], "mass": 0.3, "compliance": 1e-6 },
    { "name": "ball", "type": "pressure_ball", "center": [-1.5, 0.6, 1], "radius": 0.4,
      "subdivisions": 1, "mass": 1, "pressure": 1.2 }
  ]
})";

// LinearCast spheres (issue 9 item 2: CCD on every worker): grids of 25 and 15 fly at each other
// at 30 m/s (0.5 m a step, ten times their radius) between two thin walls over a floor: 15 pairs
// meet head-on (casts that hit other CCD bodies) and 10 spheres go on into a wall.
constexpr char k_bullets[] = R"({
  "settings": { "allow_sleeping": false, "gravity": [0, -2, 0] },
  "bodies": [
    { "name": "left", "shape": { "type": "box", "half_extent": [0.01, 2, 2], "convex_radius": 0 },
      "position": [-4, 0, 0], "motion": "static" },
    { "name": "right", "shape": { "type": "box", "half_extent": [0.01, 2, 2], "convex_radius": 0 },
      "position": [4, 0, 0], "motion": "static" },
    { "name": "floor", "shape": { "type": "box", "half_extent": [5, 0.01, 3], "convex_radius": 0 },
      "position": [0, -1.5, 0], "motion": "static" }
  ],
  "generators": [
    { "type": "grid", "name": "a", "shape": { "type": "sphere", "radius": 0.05 },
      "counts": [1, 5, 5], "spacing": [1, 0.3, 0.3], "base": [-3, -0.6, -0.6],
      "linear_velocity": [30, 0, 0], "motion_quality": "linear_cast" },
    { "type": "grid", "name": "b", "shape": { "type": "sphere", "radius": 0.05 },
      "counts": [1, 5, 3], "spacing": [1, 0.3, 0.3], "base": [3, -0.6, -0.6],
      "linear_velocity": [-30, 0, 0], "motion_quality": "linear_cast" }
  ]
})";

constexpr char k_pyramid[] = R"({
  "settings": { "allow_sleeping": false },
  "shapes": { "block": { "type": "box", "half_extent": [1, 1, 1] } },
  "bodies": [ { "name": "floor", "shape": { "type": "box", "half_extent": [50, 1, 50] },
                "position": [0, -1, 0], "motion": "static" } ],
  "generators": [ { "type": "jolt_pyramid", "name": "p", "shape": "block", "layers": 7 } ]
})";

// Two piles of 100 crates in one place, one with rolling resistance and torsional friction: its
// contacts are solved with their own rows, numbered across the workers' shares of the setup,
// beside the others' lanes.
constexpr char k_rolling_pile[] = R"({
  "settings": { "allow_sleeping": false },
  "shapes": { "crate": { "type": "box", "half_extent": [0.3, 0.2, 0.4] } },
  "bodies": [ { "name": "floor", "shape": { "type": "box", "half_extent": [20, 1, 20] },
                "position": [0, -1, 0], "motion": "static" } ],
  "generators": [
    { "type": "pile", "name": "r", "shape": "crate", "count": 100, "min": [-2, 1, -2],
      "max": [2, 8, 2], "seed": 5, "random_rotation": true, "rolling_resistance": 0.05,
      "torsional_friction": 0.02 },
    { "type": "pile", "name": "p", "shape": "crate", "count": 100, "min": [-2, 1, -2],
      "max": [2, 8, 2], "seed": 7, "random_rotation": true }
  ]
})";

// Three pyramids of 78 boxes, each an island that the splitter splits into splits of a batch or
// two: too small to share among the workers (SplitRounds::shares_work), so each is solved whole
// on one worker, beside the others.
constexpr char k_split_piles[] = R"({
  "settings": { "allow_sleeping": false },
  "shapes": { "block": { "type": "box", "half_extent": [0.5, 0.5, 0.5], "convex_radius": 0 } },
  "bodies": [ { "name": "floor", "shape": { "type": "box", "half_extent": [30, 1, 30] },
                "position": [0, -1, 0], "motion": "static" } ],
  "generators": [
    { "type": "pyramid", "name": "a", "shape": "block", "layers": 12, "base": [-20, 0.5, 0] },
    { "type": "pyramid", "name": "b", "shape": "block", "layers": 12, "base": [-6, 0.5, 0] },
    { "type": "pyramid", "name": "c", "shape": "block", "layers": 12, "base": [8, 0.5, 0] }
  ]
})";

struct Scene {
  const char* name;
  const char* json;
};

constexpr Scene k_scenes[] = {{"two_stacks", k_stacks},         {"pile", k_pile},
                              {"ragdoll_pile", k_ragdolls},     {"pyramid", k_pyramid},
                              {"bullets", k_bullets},           {"soft_bodies", k_soft_bodies},
                              {"rolling_pile", k_rolling_pile}, {"split_piles", k_split_piles}};

// What a run of a scene shows after `steps` steps with `jobs` (null: inline): the state hash
// (soft bodies' vertices included), the active bodies, body pairs and deepest contact (depth and
// bodies, UpdateResult::max_penetration) of every step, the most islands seen in a step, and the
// listener's log when one listened.
struct WorldRun {
  uint64_t hash = 0;
  std::vector<uint32_t> active;
  std::vector<uint32_t> pairs;
  std::vector<std::string> deepest;
  uint32_t most_islands = 0;
  uint32_t most_split_islands = 0;
  uint32_t ccd_hits = 0;
  std::vector<std::string> log;
};
class RecordingListener;
WorldRun run_world(std::string_view json, std::string_view name, Conditions conditions, int steps,
                   JobSystem* jobs, RecordingListener* listener = nullptr);

// Calls `check(jobs, label)` with the backwards job system of each worker count in `backwards`
// and a thread pool of each count in `pools`.
template <class Check>
void for_each_job_system(std::initializer_list<uint32_t> backwards,
                         std::initializer_list<uint32_t> pools, Check&& check) {
  for (const uint32_t workers : backwards) {
    BackwardsJobSystem jobs(workers);
    check(&jobs, "backwards, " + std::to_string(workers) + " workers");
  }
  for (const uint32_t workers : pools) {
    Result<std::unique_ptr<ThreadPool>> pool = ThreadPool::create(workers);
    ASSERT_TRUE(pool.ok());
    check(pool->get(), "thread pool, " + std::to_string(workers) + " workers");
  }
}

class ThreadLaws : public LawFixture {};

// One test per scene, so that ctest runs them side by side (they are the slowest tests under
// the sanitizers).
class ThreadSceneLaws : public LawFixture, public ::testing::WithParamInterface<Scene> {};

TEST_P(ThreadSceneLaws, C3_StateHashIsTheSameForEveryJobSystem) {
  const Scene& scene = GetParam();
  const auto run_scene = [&scene](JobSystem* jobs) {
    return run_world(scene.json, scene.name, Conditions::Law, 300, jobs);
  };
  const WorldRun inline_run = run_scene(nullptr);
  ASSERT_NE(inline_run.hash, 0u) << scene.name;
  report(std::string("Thread.islands_most.") + scene.name, inline_run.most_islands);
  report(std::string("Thread.split_islands_most.") + scene.name, inline_run.most_split_islands);
  // Several islands at once, or one split island: else the parallel stages share out nothing.
  // (soft_bodies: one island, the crate; its three soft bodies are what the jobs share out.)
  const std::string name = scene.name;
  if (name == "pyramid") {
    EXPECT_GE(inline_run.most_split_islands, 1u) << name;
  } else if (name == "split_piles") {
    EXPECT_EQ(inline_run.most_split_islands, 3u) << name;
  } else if (name != "soft_bodies") {
    if (name == "bullets") {
      report("Thread.ccd_hits.bullets", inline_run.ccd_hits);
      EXPECT_GE(inline_run.ccd_hits, 25u) << name;  // 15 pairs, 10 walls
    }
    EXPECT_GT(inline_run.most_islands, 1u) << name;
  }
  EXPECT_EQ(run_scene(nullptr).hash, inline_run.hash) << scene.name << ": repeated run";
  for_each_job_system({1u, 2u, 3u, 8u}, {2u, 3u, 4u, 8u},
                      [&](JobSystem* jobs, const std::string& label) {
                        const WorldRun run = run_scene(jobs);
                        EXPECT_EQ(run.hash, inline_run.hash) << scene.name << ": " << label;
                        // The narrow phase's fill shares each find their deepest pair; the first of
                        // the deepest in pair order is reported, for any number of shares.
                        EXPECT_EQ(run.deepest, inline_run.deepest) << scene.name << ": " << label;
                      });
}

INSTANTIATE_TEST_SUITE_P(Scenes, ThreadSceneLaws, ::testing::ValuesIn(k_scenes),
                         [](const ::testing::TestParamInfo<Scene>& info) {
                           return std::string(info.param.name);
                         });

// Constraints listed and set up in shares (issue 9 item 2): a chain of 300 spheres on point
// joints hangs from the world beside two gears on hinges, 303 constraints in all: the hinges
// first, the gear that couples them last, in another share. A constraint whose setup reads
// others is set up with all the rest in solve order on the caller
// (Constraint::reads_other_constraints; the order itself: ConstraintManagerTest), so the gear
// never reads a hinge while another worker sets it up (ThreadSanitizer runs this test). The
// same bits for every job system, with the gears and without (the chain's setup in shares).
uint64_t run_chain_and_gears(bool gears, JobSystem* jobs) {
  LawWorld world;
  std::vector<Ref<Constraint>> hinges;
  BodyID gear1, gear2;
  if (gears) {
    BodyOptions spin;
    spin.angular_velocity = Vec3(0.0f, 0.0f, 3.0f);
    gear1 = world.add_box(Vec3(0.5f, 0.5f, 0.1f), Vec3(-5.0f, 5.0f, 0.0f), spin);
    gear2 = world.add_box(Vec3(1.0f, 1.0f, 0.1f), Vec3(-8.0f, 5.0f, 0.0f));
    for (BodyID body : {gear1, gear2}) {
      HingeConstraintSettings h;
      h.point1 = h.point2 = world.body(body).center_of_mass_position();
      h.hinge_axis1 = h.hinge_axis2 = Vec3(0.0f, 0.0f, 1.0f);
      h.normal_axis1 = h.normal_axis2 = Vec3(1.0f, 0.0f, 0.0f);
      hinges.push_back(h.create(world.bodies(), Constraint::k_world, body).value_or_throw());
      EXPECT_TRUE(world.system().add_constraint(hinges.back()).ok());
    }
  }
  // A chain along x from the world at (0, 10, 0), links 0.1 m apart: it swings down.
  BodyID previous = Constraint::k_world;
  for (int i = 0; i < 300; ++i) {
    BodyOptions o;
    o.mass = 0.1f;
    const BodyID link = world.add_sphere(0.04f, Vec3(0.1f * float(i + 1), 10.0f, 0.0f), o);
    PointConstraintSettings p;
    p.point1 = p.point2 = Vec3(0.1f * float(i) + 0.05f, 10.0f, 0.0f);
    Result<Ref<Constraint>> joint = p.create(world.bodies(), previous, link);
    EXPECT_TRUE(joint.ok() && world.system().add_constraint(joint.value()).ok());
    previous = link;
  }
  if (gears) {
    GearConstraintSettings g;
    g.hinge_axis1 = g.hinge_axis2 = Vec3(0.0f, 0.0f, 1.0f);
    g.ratio = 2.0f;
    Ref<Constraint> gear = g.create(world.bodies(), gear1, gear2).value_or_throw();
    EXPECT_TRUE(world.system().add_constraint(gear).ok());
    EXPECT_TRUE(static_cast<GearConstraint&>(*gear).set_constraints(hinges[0], hinges[1]).ok());
    EXPECT_TRUE(gear->reads_other_constraints());
    EXPECT_FALSE(hinges[0]->reads_other_constraints());
  }
  for (int step = 0; step < 60; ++step) {
    Result<UpdateResult> result = world.system().update(k_dt, 1, jobs);
    EXPECT_TRUE(result.ok() && result->ok());
    if (!result) return 0;
  }
  return world.system().state_hash();
}

// Two worlds stepped on two threads may share one pool (core/ThreadPool.h): a run() that finds
// the workers taken by the other world's runs its ranges on its own thread. Each world ends bit
// for bit as it ends alone (before, the two runs wrote one job over the other: wrong items, lost
// ranges).
TEST_F(ThreadLaws, C3_WorldsSteppedOnTwoThreadsMayShareOnePool) {
  constexpr int k_steps = 150;
  const WorldRun pyramid_alone = run_world(k_pyramid, "pyramid", Conditions::Law, k_steps, nullptr);
  const WorldRun pile_alone = run_world(k_pile, "pile", Conditions::Law, k_steps, nullptr);
  for (const uint32_t workers : {2u, 3u}) {
    Result<std::unique_ptr<ThreadPool>> pool = ThreadPool::create(workers);
    ASSERT_TRUE(pool.ok());
    JobSystem* jobs = pool->get();
    WorldRun pile;
    std::thread other([&] { pile = run_world(k_pile, "pile", Conditions::Law, k_steps, jobs); });
    const WorldRun pyramid = run_world(k_pyramid, "pyramid", Conditions::Law, k_steps, jobs);
    other.join();
    EXPECT_EQ(pyramid.hash, pyramid_alone.hash) << workers << " workers";
    EXPECT_EQ(pile.hash, pile_alone.hash) << workers << " workers";
  }
}

// A rollback (LAWS.md F4) on threads: what the step keeps from step to step for its workers
// (last step's pairs, the contact cache, per-worker lists, the splitter's and the lanes'
// storage) must not carry the abandoned future into the restored past. A world run on 2
// workers, rolled back over 30 steps and a body it added, then run on 3 workers and on the
// backwards job system, ends as the straight run on one thread ends.
TEST_F(ThreadLaws, C3_RollbackOnThreadsEqualsTheStraightRunOnOneThread) {
  constexpr int k_save = 40;
  constexpr int k_after = 60;
  for (const Scene& scene : {Scene{"pyramid", k_pyramid}, Scene{"pile", k_pile}}) {
    const uint64_t straight =
        run_world(scene.json, scene.name, Conditions::Law, k_save + k_after, nullptr).hash;
    Result<std::unique_ptr<ThreadPool>> two = ThreadPool::create(2);
    Result<std::unique_ptr<ThreadPool>> three = ThreadPool::create(3);
    ASSERT_TRUE(two.ok() && three.ok());
    BackwardsJobSystem backwards(2);
    JobSystem* after_restore[] = {three->get(), &backwards};
    std::unique_ptr<LawWorld> world = LawWorld::from_scene(scene.json, scene.name, Conditions::Law);
    ASSERT_NE(world, nullptr);
    PhysicsSystem& system = world->system();
    for (int step = 0; step < k_save; ++step)
      ASSERT_TRUE(system.update(1.0f / 60.0f, 1, two->get()).ok());
    WorldSnapshot snapshot;
    EXPECT_TRUE(system.save_snapshot(snapshot).ok());
    for (JobSystem* jobs : after_restore) {
      // The future that is thrown away: 30 steps with a ball dropped into the scene.
      ASSERT_TRUE(world->add_sphere(0.4f, Vec3(0.3f, 6.0f, 0.2f)).is_valid());
      for (int step = 0; step < 30; ++step)
        ASSERT_TRUE(system.update(1.0f / 60.0f, 1, two->get()).ok());
      ASSERT_TRUE(system.restore_snapshot(snapshot).ok()) << scene.name;
      for (int step = 0; step < k_after; ++step)
        ASSERT_TRUE(system.update(1.0f / 60.0f, 1, jobs).ok());
      EXPECT_EQ(system.state_hash(), straight)
          << scene.name << ", " << jobs->num_workers() << " workers after the restore";
      ASSERT_TRUE(system.restore_snapshot(snapshot).ok()) << scene.name;
    }
  }
}

TEST_F(ThreadLaws, C3_ConstraintSetupIsTheSameForEveryJobSystem) {
  for (const bool gears : {false, true}) {
    const uint64_t inline_hash = run_chain_and_gears(gears, nullptr);
    ASSERT_NE(inline_hash, 0u);
    for_each_job_system({2u, 3u}, {2u, 4u}, [&](JobSystem* jobs, const std::string& label) {
      EXPECT_EQ(run_chain_and_gears(gears, jobs), inline_hash)
          << (gears ? "with gears, " : "chain alone, ") << label;
    });
  }
}

// Sleeping stacks that a falling ball wakes, with a contact listener: the narrow phase collides
// pairs on every worker but calls the listener and adds contacts in pair order, and the bodies
// a contact wakes join the step in rounds (ContactFinding.cpp). The engine's conditions (sleeping
// on): the stacks fall asleep by step 35, the ball lands on stack a at about step 165 and wakes
// it (7 bodies awake), and everything sleeps again by step 200 (`atoll run` on this scene).
constexpr char k_wake[] = R"({
  "shapes": { "crate": { "type": "box", "half_extent": [0.5, 0.5, 0.5] } },
  "bodies": [ { "name": "floor", "shape": { "type": "box", "half_extent": [20, 1, 20] },
                "position": [0, -1, 0], "motion": "static" },
              { "name": "ball", "shape": { "type": "sphere", "radius": 0.4 },
                "position": [-2, 40, 0] } ],
  "generators": [
    { "type": "stack", "name": "a", "shape": "crate", "count": 6, "base": [-2, 0.5, 0],
      "gap": 0.01 },
    { "type": "stack", "name": "b", "shape": "crate", "count": 6, "base": [2, 0.5, 0.1],
      "gap": 0.01 }
  ]
})";

// Every listener call and event as text, in the order they came.
class RecordingListener final : public ContactListener {
 public:
  ValidateResult on_contact_validate(const Body& body1, const Body& body2) override {
    log.push_back("validate " + pair(body1, body2));
    return ValidateResult::Accept;
  }
  void on_contact_added(const Body& body1, const Body& body2, const ContactManifold& manifold,
                        ContactSettings&) override {
    log.push_back("added " + pair(body1, body2) + " " +
                  std::to_string(manifold.points_on_1.size()));
  }
  void on_contact_persisted(const Body& body1, const Body& body2, const ContactManifold&,
                            ContactSettings&) override {
    log.push_back("persisted " + pair(body1, body2));
  }
  void on_contact_events(std::span<const ContactEvent> events) override {
    for (const ContactEvent& e : events)
      log.push_back("event " + std::to_string(static_cast<int>(e.type)) + " " +
                    std::to_string(e.body1.value()) + "-" + std::to_string(e.body2.value()));
  }
  std::vector<std::string> log;

 private:
  static std::string pair(const Body& a, const Body& b) {
    return std::to_string(a.id().value()) + "-" + std::to_string(b.id().value());
  }
};

WorldRun run_world(std::string_view json, std::string_view name, Conditions conditions, int steps,
                   JobSystem* jobs, RecordingListener* listener) {
  std::unique_ptr<LawWorld> world = LawWorld::from_scene(json, name, conditions);
  WorldRun run;
  if (world == nullptr) return run;
  world->system().set_contact_listener(listener);
  for (int step = 0; step < steps; ++step) {
    Result<UpdateResult> result = world->system().update(1.0f / 60.0f, 1, jobs);
    EXPECT_TRUE(result.ok());
    if (!result) return run;
    run.active.push_back(result->num_active_bodies);
    run.pairs.push_back(result->num_body_pairs);
    run.deepest.push_back(std::to_string(result->max_penetration) + " between " +
                          std::to_string(result->max_penetration_body1.value()) + " and " +
                          std::to_string(result->max_penetration_body2.value()));
    run.most_islands = std::max(run.most_islands, result->num_islands);
    run.most_split_islands = std::max(run.most_split_islands, result->num_split_islands);
    run.ccd_hits += result->num_ccd_hits;
  }
  world->system().set_contact_listener(nullptr);
  run.hash = world->system().state_hash();
  if (listener != nullptr) run.log = std::move(listener->log);
  return run;
}

TEST_F(ThreadLaws, C3_ListenerCallsAndWakingAreTheSameForEveryJobSystem) {
  const auto run_wake_scene = [](JobSystem* jobs) {
    RecordingListener listener;
    return run_world(k_wake, "wake", Conditions::Engine, 300, jobs, &listener);
  };
  const WorldRun inline_run = run_wake_scene(nullptr);
  ASSERT_NE(inline_run.hash, 0u);
  ASSERT_EQ(inline_run.active.size(), 300u);
  // The stacks slept while the ball fell (only the ball awake at step 100), and the ball woke
  // stack a: measured 1 at step 100, 7 at steps 165-199.
  const uint32_t woken =
      *std::max_element(inline_run.active.begin() + 150, inline_run.active.begin() + 220);
  report("Thread.wake.active_at_100", inline_run.active[100]);
  report("Thread.wake.most_active_150_220", woken);
  report("Thread.wake.log_entries", static_cast<double>(inline_run.log.size()));
  EXPECT_EQ(inline_run.active[100], 1u);
  EXPECT_GE(woken, 7u);
  for_each_job_system({2u, 3u}, {2u, 4u}, [&](JobSystem* jobs, const std::string& label) {
    const WorldRun run = run_wake_scene(jobs);
    EXPECT_EQ(run.hash, inline_run.hash) << label;
    EXPECT_EQ(run.log, inline_run.log) << label;
    EXPECT_EQ(run.active, inline_run.active) << label;
  });
}

// Sleep tests in shares (issue 9 item 2): 1 200 spheres dropped 5 cm onto a floor, each its
// own island, and a kinematic box at rest (an island of none; it sleeps on its own). Past 1 024
// moving bodies the sleep tests run in the per-body stages' shares on the workers, and the
// islands are read off in order on the caller: every body awake until they settle, all asleep
// by the end, and the same active counts and bits for every job system.
constexpr char k_settling[] = R"({
  "bodies": [ { "name": "floor", "shape": { "type": "box", "half_extent": [30, 1, 30] },
                "position": [0, -1, 0], "motion": "static" },
              { "name": "still", "shape": { "type": "box", "half_extent": [0.5, 0.5, 0.5] },
                "position": [0, 5, 0], "motion": "kinematic" } ],
  "generators": [
    { "type": "grid", "name": "g", "shape": { "type": "sphere", "radius": 0.2 },
      "counts": [40, 1, 30], "spacing": [0.5, 0.5, 0.5], "base": [-10, 0.25, -7.5] }
  ]
})";

TEST_F(ThreadLaws, C3_SleepIsTheSameForEveryJobSystem) {
  const auto run_settling = [](JobSystem* jobs) {
    return run_world(k_settling, "settling", Conditions::Engine, 90, jobs);
  };
  const WorldRun inline_run = run_settling(nullptr);
  ASSERT_EQ(inline_run.active.size(), 90u);
  report("Thread.settling.active_at_0", inline_run.active.front());
  report("Thread.settling.active_at_end", inline_run.active.back());
  EXPECT_GE(inline_run.active.front(), 1200u);
  EXPECT_EQ(inline_run.active.back(), 0u);
  for_each_job_system({2u, 3u}, {2u}, [&](JobSystem* jobs, const std::string& label) {
    const WorldRun run = run_settling(jobs);
    EXPECT_EQ(run.hash, inline_run.hash) << label;
    EXPECT_EQ(run.active, inline_run.active) << label;
  });
}

// Without a listener, on a scene of many pairs: the narrow phase looks pairs up in the contact
// cache and collides them on every worker, and the sleeping bodies their contacts reach wake in
// pair order. A grid of 144 crates sleeps by step 30; 600 spheres that never sleep rain on them
// and wake some (measured: 600 bodies awake at step 60, 654 at step 99 with 3 491 body pairs).
// The spheres come first, so that their pairs with the crates, ordered by the lower body index,
// are spread over the whole pair list.
constexpr char k_rain[] = R"({
  "shapes": { "crate": { "type": "box", "half_extent": [0.5, 0.5, 0.5] } },
  "bodies": [ { "name": "floor", "shape": { "type": "box", "half_extent": [30, 1, 30] },
                "position": [0, -1, 0], "motion": "static" } ],
  "generators": [
    { "type": "grid", "name": "rain", "shape": { "type": "sphere", "radius": 0.2 },
      "counts": [15, 2, 20], "spacing": [0.44, 0.44, 0.44], "base": [-3, 9, -4],
      "allow_sleeping": false },
    { "type": "grid", "name": "sleepers", "shape": "crate", "counts": [12, 1, 12],
      "spacing": [1.1, 1.1, 1.1], "base": [-6, 0.5, -6] }
  ]
})";

TEST_F(ThreadLaws, C3_ManyPairsWakeTheSameBodiesForEveryJobSystem) {
  const auto run_rain_scene = [](JobSystem* jobs) {
    return run_world(k_rain, "rain", Conditions::Engine, 100, jobs);
  };
  const WorldRun inline_run = run_rain_scene(nullptr);
  ASSERT_NE(inline_run.hash, 0u);
  ASSERT_EQ(inline_run.active.size(), 100u);
  report("Thread.rain.active_at_60", inline_run.active[60]);
  report("Thread.rain.active_at_99", inline_run.active[99]);
  report("Thread.rain.pairs_at_99", inline_run.pairs[99]);
  EXPECT_EQ(inline_run.active[60], 600u);  // the crates sleep, the rain falls
  EXPECT_GT(inline_run.active[99], 620u);  // some crates were woken
  EXPECT_GT(inline_run.pairs[99], 3000u);
  for_each_job_system({2u, 3u}, {2u, 3u}, [&](JobSystem* jobs, const std::string& label) {
    const WorldRun run = run_rain_scene(jobs);
    EXPECT_EQ(run.hash, inline_run.hash) << label;
    EXPECT_EQ(run.active, inline_run.active) << label;
  });
}

}  // namespace
}  // namespace thread_laws_test
}  // namespace atl::laws
