// Rollback snapshots (issue 10 item 2 and its law F4; DESIGN.md §7; LAWS.md F2 beyond Jolt): a
// snapshot taken at step 100 brings back exactly the world of step 100 after 50 steps in which
// bodies were created, added, removed and destroyed, constraints added and removed and bodies
// changed — the same body IDs, the same ID allocator (the next body created gets the ID it
// would have got), the same constraints — and 200 more steps end with the hash of an
// uninterrupted 300-step run. Jolt's StateRecorder cannot: it restores into the same body set.

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "atoll/constraint/PointConstraint.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/state/StateHash.h"
#include "atoll/state/WorldSnapshot.h"
#include "laws/LawFixture.h"

namespace atl::laws {
namespace rollback_laws_test {

constexpr char k_stacks[] = R"({
  "shapes": { "crate": { "type": "box", "half_extent": [0.5, 0.5, 0.5] } },
  "bodies": [ { "name": "floor", "shape": { "type": "box", "half_extent": [20, 1, 20] },
                "position": [0, -1, 0], "motion": "static" } ],
  "generators": [
    { "type": "stack", "name": "a", "shape": "crate", "count": 8, "base": [-2, 0.5, 0],
      "gap": 0.01 },
    { "type": "pile", "name": "p", "shape": "crate", "count": 20, "min": [1, 1, -1],
      "max": [3, 8, 1], "seed": 5, "random_rotation": true }
  ]
})";

constexpr char k_ragdolls[] = R"({
  "bodies": [ { "name": "floor", "shape": { "type": "box", "half_extent": [20, 1, 20] },
                "position": [0, -1, 0], "motion": "static" } ],
  "generators": [
    { "type": "ragdoll", "name": "r0", "position": [0, 0.4, 0], "rotation": [-0.7071068, 0, 0, 0.7071068] },
    { "type": "ragdoll", "name": "r1", "position": [0.3, 1.0, 0.2], "rotation": [-0.7071068, 0, 0, 0.7071068] }
  ]
})";

struct Scene {
  const char* name;
  const char* json;
  Conditions conditions;
};
// The ragdolls may fall asleep (the engine's conditions): sleeping islands, their kept
// contacts and the sleep tests are part of what comes back.
void PrintTo(const Scene& scene, std::ostream* out) { *out << scene.name; }
constexpr Scene k_scenes[] = {{"stacks", k_stacks, Conditions::Law},
                              {"ragdolls", k_ragdolls, Conditions::Engine}};

constexpr int k_save_step = 100;
constexpr int k_changed_steps = 50;
constexpr int k_total_steps = 300;

void step(LawWorld& world, int steps) {
  for (int i = 0; i < steps; ++i) ASSERT_TRUE(world.system().update(k_dt).ok());
}

// The first 100 steps, the same in both runs: a body is destroyed at step 50, so that the ID
// allocator's free list is not empty when the snapshot is taken.
void run_to_the_save(LawWorld& world) {
  step(world, k_save_step / 2);
  ASSERT_TRUE(world.bodies().destroy_body(world.system().bodies().body_ids()[5]).ok());
  step(world, k_save_step - k_save_step / 2);
}

BodyCreationSettings ball_at(const Vec3& position) {
  BodyCreationSettings s;
  s.shape = new SphereShape(0.25f);
  s.position = position;
  s.motion_type = MotionType::Dynamic;
  s.linear_velocity = Vec3(0.0f, -2.0f, 0.0f);
  return s;
}

// The 50 steps of changes: balls created and added (one tied to another by a point
// constraint; the first one takes the slot freed at step 50), a scene body removed and
// destroyed, another only removed, created balls destroyed (their slots go on the free list
// and come back with new sequence numbers), a scene constraint removed, a body's material,
// motion type and shape changed.
void change_the_world(LawWorld& world) {
  BodyInterface& bodies = world.bodies();
  const std::vector<BodyID> scene_ids = world.system().bodies().body_ids();
  ASSERT_GE(scene_ids.size(), 6u);
  std::vector<BodyID> balls;
  for (int k = 0; k < k_changed_steps; ++k) {
    if (k % 5 == 0) {
      const Vec3 at(-3.0f + 0.6f * float(k / 5), 4.0f, 0.2f * float(k % 3));
      Result<BodyID> ball = bodies.create_and_add_body(ball_at(at), Activation::Activate);
      ASSERT_TRUE(ball.ok()) << ball.error().message();
      balls.push_back(ball.value());
    }
    if (k == 3) {
      ASSERT_TRUE(bodies.destroy_body(scene_ids.back()).ok());
    }
    if (k == 7) {
      PointConstraintSettings s;
      s.point1 = s.point2 = bodies.body(balls[0]).value()->center_of_mass_position();
      Result<Ref<Constraint>> tie = s.create(bodies, balls[0], balls[1]);
      ASSERT_TRUE(tie.ok()) << tie.error().message();
      ASSERT_TRUE(world.system().add_constraint(tie.value()).ok());
    }
    if (k == 11 && !world.system().constraints().empty()) {
      const Ref<Constraint> first = world.system().constraints()[0];
      ASSERT_TRUE(world.system().remove_constraint(first).ok());
    }
    if (k == 13) {
      ASSERT_TRUE(bodies.set_friction(scene_ids[2], 0.05f).ok());
      ASSERT_TRUE(bodies.set_motion_type(scene_ids[3], MotionType::Kinematic).ok());
      ASSERT_TRUE(bodies.set_shape(scene_ids[4], new SphereShape(0.4f)).ok());
    }
    if (k == 20) {
      ASSERT_TRUE(bodies.destroy_body(balls[2]).ok());
    }
    if (k == 25) {
      ASSERT_TRUE(bodies.remove_body(scene_ids[scene_ids.size() - 2]).ok());
    }
    if (k == 45) {  // the free list ends longer than it was
      ASSERT_TRUE(bodies.destroy_body(balls[1]).ok());
      ASSERT_TRUE(bodies.destroy_body(scene_ids[1]).ok());
    }
    ASSERT_TRUE(world.system().update(k_dt).ok());
  }
}

// What a user sees of the body set and constraint list, compared before and after.
struct WorldOutline {
  std::vector<BodyID> ids;
  std::vector<const Constraint*> constraints;
  uint32_t in_broadphase = 0;
  uint64_t step_count = 0;
  bool operator==(const WorldOutline&) const = default;
};

void PrintTo(const WorldOutline& o, std::ostream* out) {
  *out << "{step " << o.step_count << ", " << o.ids.size() << " bodies, " << o.in_broadphase
       << " in the broadphase, " << o.constraints.size() << " constraints}";
}

WorldOutline outline(LawWorld& world) {
  WorldOutline o;
  o.ids = world.system().bodies().body_ids();
  for (const Ref<Constraint>& c : world.system().constraints()) o.constraints.push_back(c.get());
  o.in_broadphase = world.system().broadphase().size();
  o.step_count = world.system().step_count();
  return o;
}

class RollbackLaws : public LawFixture, public ::testing::WithParamInterface<Scene> {};

TEST_P(RollbackLaws, F4_RollbackAcrossAddedAndRemovedBodiesEqualsTheUninterruptedRun) {
  const Scene& scene = GetParam();
  std::unique_ptr<LawWorld> straight =
      LawWorld::from_scene(scene.json, scene.name, scene.conditions);
  ASSERT_NE(straight, nullptr);
  run_to_the_save(*straight);
  step(*straight, k_total_steps - k_save_step);
  const uint64_t expected = state_hash(straight->system().bodies());
  const Result<BodyID> straight_next =
      straight->bodies().create_body(ball_at(Vec3(0.0f, 9.0f, 0.0f)));
  ASSERT_TRUE(straight_next.ok());

  std::unique_ptr<LawWorld> world = LawWorld::from_scene(scene.json, scene.name, scene.conditions);
  run_to_the_save(*world);
  WorldSnapshot snapshot;
  EXPECT_TRUE(snapshot.empty());
  EXPECT_TRUE(world->system().save_snapshot(snapshot).ok());
  EXPECT_FALSE(snapshot.empty());
  const WorldOutline saved = outline(*world);
  report(std::string("Rollback.bytes_per_body.") + scene.name,
         double(snapshot.bytes()) / double(saved.ids.size()));

  change_the_world(*world);
  ASSERT_NE(outline(*world), saved) << "the changes must change the body set";

  const Status restored = world->system().restore_snapshot(snapshot);
  ASSERT_TRUE(restored.ok()) << restored.error().message();
  EXPECT_EQ(outline(*world), saved);
  const Status valid = world->system().broadphase().validate();
  EXPECT_TRUE(valid.ok()) << valid.error().message();
  step(*world, k_total_steps - k_save_step);
  EXPECT_EQ(state_hash(world->system().bodies()), expected) << scene.name;
  // The ID allocator came back too: the next body gets the ID it gets in the straight run.
  const Result<BodyID> next = world->bodies().create_body(ball_at(Vec3(0.0f, 9.0f, 0.0f)));
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next.value().value(), straight_next.value().value());
}

TEST_P(RollbackLaws, F4_OneSnapshotRestoresAgainAndAgain) {
  // A rollback game restores the same snapshot many times (each mispredicted input) and saves
  // into the ones it keeps: every round from the snapshot ends the same.
  const Scene& scene = GetParam();
  std::unique_ptr<LawWorld> world = LawWorld::from_scene(scene.json, scene.name, scene.conditions);
  step(*world, 20);
  WorldSnapshot snapshot, later;
  EXPECT_TRUE(world->system().save_snapshot(snapshot).ok());
  uint64_t first = 0;
  for (int round = 0; round < 3; ++round) {
    ASSERT_TRUE(world->system().restore_snapshot(snapshot).ok());
    change_the_world(*world);
    EXPECT_TRUE(world->system().save_snapshot(later).ok());  // reused buffers
    ASSERT_TRUE(world->system().restore_snapshot(snapshot).ok());
    step(*world, 30);
    const uint64_t hash = state_hash(world->system().bodies());
    if (round == 0) first = hash;
    EXPECT_EQ(hash, first) << "round " << round;
    ASSERT_TRUE(world->system().restore_snapshot(later).ok());
    EXPECT_EQ(world->system().step_count(), uint64_t(20 + k_changed_steps));
  }
}

INSTANTIATE_TEST_SUITE_P(Scenes, RollbackLaws, ::testing::ValuesIn(k_scenes),
                         [](const ::testing::TestParamInfo<Scene>& info) {
                           return std::string(info.param.name);
                         });

class RollbackErrorLaws : public LawFixture {
 protected:
  // The world's whole state, to show that a refused restore changed nothing.
  static std::vector<uint8_t> everything(LawWorld& world) {
    StateRecorder state;
    EXPECT_TRUE(world.system().save_state(state).ok());
    return state.data();
  }
  static bool mentions(const Status& status, const std::string& text) {
    return !status.ok() && std::string(status.error().message()).find(text) != std::string::npos;
  }
};

TEST_F(RollbackErrorLaws, F4_AnEmptySnapshotIsRefusedAndChangesNothing) {
  std::unique_ptr<LawWorld> world = LawWorld::from_scene(k_ragdolls, "ragdolls");
  step(*world, 10);
  const WorldOutline before = outline(*world);
  const std::vector<uint8_t> state = everything(*world);
  WorldSnapshot empty;
  const Status s = world->system().restore_snapshot(empty);
  EXPECT_TRUE(mentions(s, "PhysicsSystem::restore_snapshot: snapshot: is empty"))
      << (s.ok() ? "accepted" : s.error().message());
  EXPECT_EQ(outline(*world), before);
  EXPECT_EQ(everything(*world), state);
  // clear() makes a used snapshot empty again.
  EXPECT_TRUE(world->system().save_snapshot(empty).ok());
  empty.clear();
  EXPECT_TRUE(mentions(world->system().restore_snapshot(empty), "is empty"));
}

TEST_F(RollbackErrorLaws, F4_ASnapshotOfAnotherWorldIsRefusedEvenAtTheSameAddress) {
  std::unique_ptr<LawWorld> ragdolls = LawWorld::from_scene(k_ragdolls, "ragdolls");
  step(*ragdolls, 10);
  WorldSnapshot snapshot;
  EXPECT_TRUE(ragdolls->system().save_snapshot(snapshot).ok());

  std::unique_ptr<LawWorld> other = LawWorld::from_scene(k_ragdolls, "ragdolls");
  step(*other, 10);
  const WorldOutline before = outline(*other);
  const std::vector<uint8_t> state = everything(*other);
  EXPECT_TRUE(
      mentions(other->system().restore_snapshot(snapshot), "was taken of another PhysicsSystem"));
  EXPECT_EQ(outline(*other), before);
  EXPECT_EQ(everything(*other), state);

  // The world it was taken of is gone; a new world (perhaps where the old one was) refuses it.
  ragdolls.reset();
  other.reset();
  std::unique_ptr<LawWorld> again = LawWorld::from_scene(k_ragdolls, "ragdolls");
  EXPECT_TRUE(
      mentions(again->system().restore_snapshot(snapshot), "was taken of another PhysicsSystem"));
}

TEST_F(RollbackErrorLaws, F4_ASnapshotWhoseConstraintIsNowInAnotherWorldIsRefused) {
  std::unique_ptr<LawWorld> world = LawWorld::from_scene(k_ragdolls, "ragdolls");
  std::unique_ptr<LawWorld> other = LawWorld::from_scene(k_ragdolls, "ragdolls");
  step(*world, 10);
  WorldSnapshot snapshot;
  EXPECT_TRUE(world->system().save_snapshot(snapshot).ok());
  const Ref<Constraint> moved = world->system().constraints()[3];
  ASSERT_TRUE(world->system().remove_constraint(moved).ok());
  // Both worlds come from the same scene, so the constraint's body IDs name bodies there too.
  ASSERT_TRUE(other->system().add_constraint(moved).ok());
  step(*world, 5);
  const WorldOutline before = outline(*world);
  const std::vector<uint8_t> state = everything(*world);
  const Status s = world->system().restore_snapshot(snapshot);
  EXPECT_TRUE(mentions(s, "constraint 3 (in the order it was saved) is now in another world"))
      << (s.ok() ? "accepted" : s.error().message());
  EXPECT_EQ(outline(*world), before);
  EXPECT_EQ(everything(*world), state);

  // Taken out of the other world, it comes back.
  ASSERT_TRUE(other->system().remove_constraint(moved).ok());
  ASSERT_TRUE(world->system().restore_snapshot(snapshot).ok());
  EXPECT_EQ(world->system().constraints()[3].get(), moved.get());
}

}  // namespace rollback_laws_test
}  // namespace atl::laws
