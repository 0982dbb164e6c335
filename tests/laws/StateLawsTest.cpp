// Saved states (LAWS.md F2, issue 10 item 1; seed 004 §9): a world restored from a state saved
// at step 100 continues exactly as the uninterrupted run — same bits after 300 steps — whether
// it is restored into the world that saved it (after running on past the save) or into a fresh
// world built from the same scene; warm-started stacks (the contact cache's impulses), a
// ragdoll pile (the constraints' impulses) and stacks that fall asleep (the sleep tests) show
// it. The validating mode finds the first difference and names it.

#include <cstdint>
#include <memory>
#include <string>

#include "atoll/state/StateHash.h"
#include "atoll/state/StateRecorder.h"
#include "laws/LawFixture.h"

namespace atl::laws {
namespace state_laws_test {

constexpr char k_stacks[] = R"({
  "settings": { "allow_sleeping": false },
  "shapes": { "crate": { "type": "box", "half_extent": [0.5, 0.5, 0.5] } },
  "bodies": [ { "name": "floor", "shape": { "type": "box", "half_extent": [20, 1, 20] },
                "position": [0, -1, 0], "motion": "static" } ],
  "generators": [
    { "type": "stack", "name": "a", "shape": "crate", "count": 10, "base": [-2, 0.5, 0],
      "gap": 0.01 },
    { "type": "pile", "name": "p", "shape": "crate", "count": 30, "min": [1, 1, -1],
      "max": [3, 8, 1], "seed": 5, "random_rotation": true }
  ]
})";

constexpr char k_ragdolls[] = R"({
  "settings": { "allow_sleeping": false },
  "bodies": [ { "name": "floor", "shape": { "type": "box", "half_extent": [20, 1, 20] },
                "position": [0, -1, 0], "motion": "static" } ],
  "generators": [
    { "type": "ragdoll", "name": "r0", "position": [0, 0.4, 0], "rotation": [-0.7071068, 0, 0, 0.7071068] },
    { "type": "ragdoll", "name": "r1", "position": [0.3, 1.0, 0.2], "rotation": [-0.7071068, 0, 0, 0.7071068] },
    { "type": "ragdoll", "name": "r2", "position": [-0.2, 1.6, -0.1], "rotation": [0, 0, 0.7071068, 0.7071068] }
  ]
})";

// Sleeping allowed: the stack falls asleep by step 40 and the ball, saved in flight at step
// 100, lands on it at step ~134 and wakes it: the sleeping bodies, their kept contacts and the
// sleep tests are part of what must come back.
constexpr char k_sleepers[] = R"({
  "shapes": { "crate": { "type": "box", "half_extent": [0.5, 0.5, 0.5] } },
  "bodies": [ { "name": "floor", "shape": { "type": "box", "half_extent": [20, 1, 20] },
                "position": [0, -1, 0], "motion": "static" },
              { "name": "ball", "shape": { "type": "sphere", "radius": 0.3 },
                "position": [0, 30, 0], "motion": "dynamic" } ],
  "generators": [
    { "type": "stack", "name": "a", "shape": "crate", "count": 5, "base": [0, 0.5, 0],
      "gap": 0.0 }
  ]
})";

struct Scene {
  const char* name;
  const char* json;
};
constexpr Scene k_scenes[] = {
    {"stacks", k_stacks}, {"ragdolls", k_ragdolls}, {"sleepers", k_sleepers}};

constexpr int k_save_step = 100;
constexpr int k_total_steps = 300;

void step(LawWorld& world, int steps) {
  for (int i = 0; i < steps; ++i) ASSERT_TRUE(world.system().update(k_dt).ok());
}

class StateLaws : public LawFixture, public ::testing::WithParamInterface<Scene> {};

TEST_P(StateLaws, F2_RestoredWorldContinuesBitIdentically) {
  const Scene& scene = GetParam();
  std::unique_ptr<LawWorld> straight = LawWorld::from_scene(scene.json, scene.name);
  ASSERT_NE(straight, nullptr);
  step(*straight, k_total_steps);
  const uint64_t expected = state_hash(straight->system().bodies());

  // Saved at step 100, run on for 50 steps, restored, run to the end.
  std::unique_ptr<LawWorld> world = LawWorld::from_scene(scene.json, scene.name);
  step(*world, k_save_step);
  StateRecorder saved;
  EXPECT_TRUE(world->system().save_state(saved).ok());
  report(std::string("State.bytes.") + scene.name, static_cast<double>(saved.data().size()));
  step(*world, 50);
  ASSERT_NE(state_hash(world->system().bodies()), 0u);
  const Status restored = world->system().restore_state(saved);
  ASSERT_TRUE(restored.ok()) << restored.error().message();
  EXPECT_EQ(world->system().step_count(), static_cast<uint64_t>(k_save_step));
  step(*world, k_total_steps - k_save_step);
  EXPECT_EQ(state_hash(world->system().bodies()), expected) << scene.name << ": same world";

  // Restored into a fresh world built from the same scene.
  std::unique_ptr<LawWorld> fresh = LawWorld::from_scene(scene.json, scene.name);
  const Status into_fresh = fresh->system().restore_state(saved);
  ASSERT_TRUE(into_fresh.ok()) << into_fresh.error().message();
  step(*fresh, k_total_steps - k_save_step);
  EXPECT_EQ(state_hash(fresh->system().bodies()), expected) << scene.name << ": fresh world";
}

TEST_P(StateLaws, F3_ValidatingFindsNoDifferenceInARepeatedStep) {
  // What `atoll run --validate` does every step: save, step, save the result; restore, step
  // again and validate against the result.
  const Scene& scene = GetParam();
  std::unique_ptr<LawWorld> world = LawWorld::from_scene(scene.json, scene.name);
  step(*world, k_save_step);
  StateRecorder before, after;
  EXPECT_TRUE(world->system().save_state(before).ok());
  step(*world, 1);
  EXPECT_TRUE(world->system().save_state(after).ok());
  ASSERT_TRUE(world->system().restore_state(before).ok());
  step(*world, 1);
  after.set_validating(true);
  const Status same = world->system().restore_state(after);
  EXPECT_TRUE(same.ok()) << same.error().message();
}

INSTANTIATE_TEST_SUITE_P(Scenes, StateLaws, ::testing::ValuesIn(k_scenes),
                         [](const ::testing::TestParamInfo<Scene>& info) {
                           return std::string(info.param.name);
                         });

class StateValidationLaws : public LawFixture {};

TEST_F(StateValidationLaws, F3_ValidatingNamesTheFirstDifferentField) {
  std::unique_ptr<LawWorld> world = LawWorld::from_scene(k_stacks, "stacks");
  step(*world, 30);
  StateRecorder saved;
  EXPECT_TRUE(world->system().save_state(saved).ok());
  saved.set_validating(true);
  ASSERT_TRUE(world->system().restore_state(saved).ok());

  const BodyID body = world->scene_body("a3");
  ASSERT_TRUE(body.is_valid());
  const Vec3 v = world->system().bodies().get(body)->linear_velocity();
  const float nudged = std::nextafter(v.y(), 1.0f);
  ASSERT_TRUE(world->bodies().set_linear_velocity(body, Vec3(v.x(), nudged, v.z())).ok());
  const uint64_t hash = state_hash(world->system().bodies());
  const Status differs = world->system().restore_state(saved);
  ASSERT_FALSE(differs.ok());
  const std::string message = differs.error().message();
  EXPECT_NE(message.find("body b" + std::to_string(body.index()) + " linear_velocity.y: saved"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find(", now "), std::string::npos) << message;
  // Validating changes nothing.
  EXPECT_EQ(state_hash(world->system().bodies()), hash);
}

TEST_F(StateValidationLaws, F3_ACorruptedByteIsCaughtAndChangesNothing) {
  std::unique_ptr<LawWorld> world = LawWorld::from_scene(k_stacks, "stacks");
  step(*world, 30);
  StateRecorder saved;
  EXPECT_TRUE(world->system().save_state(saved).ok());
  step(*world, 10);
  const uint64_t hash = state_hash(world->system().bodies());

  std::vector<uint8_t> bytes = saved.data();
  bytes[bytes.size() / 2] ^= 0x10;
  StateRecorder corrupted;
  corrupted.set_data(bytes);
  Status s = world->system().restore_state(corrupted);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(std::string(s.error().message()).find("corrupted"), std::string::npos)
      << s.error().message();
  EXPECT_EQ(state_hash(world->system().bodies()), hash);

  bytes = saved.data();
  bytes.resize(bytes.size() - 7);
  StateRecorder truncated;
  truncated.set_data(bytes);
  s = world->system().restore_state(truncated);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(std::string(s.error().message()).find("truncated"), std::string::npos)
      << s.error().message();
  EXPECT_EQ(state_hash(world->system().bodies()), hash);

  StateRecorder garbage;
  garbage.set_data(std::vector<uint8_t>(64, 0x41));
  s = world->system().restore_state(garbage);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(std::string(s.error().message()).find("not an Atoll state"), std::string::npos)
      << s.error().message();
  EXPECT_EQ(state_hash(world->system().bodies()), hash);
}

TEST_F(StateValidationLaws, F2_AStateOfAnotherWorldIsRefusedAndChangesNothing) {
  std::unique_ptr<LawWorld> ragdolls = LawWorld::from_scene(k_ragdolls, "ragdolls");
  step(*ragdolls, 10);
  StateRecorder saved;
  EXPECT_TRUE(ragdolls->system().save_state(saved).ok());

  std::unique_ptr<LawWorld> stacks = LawWorld::from_scene(k_stacks, "stacks");
  step(*stacks, 10);
  StateRecorder before;
  EXPECT_TRUE(stacks->system().save_state(before).ok());
  const uint64_t hash = state_hash(stacks->system().bodies());
  const Status s = stacks->system().restore_state(saved);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(std::string(s.error().message()).rfind("state: ", 0), 0u) << s.error().message();
  EXPECT_EQ(state_hash(stacks->system().bodies()), hash);
  // Nothing changed anywhere: the world's state validates against what it was before.
  before.set_validating(true);
  const Status same = stacks->system().restore_state(before);
  EXPECT_TRUE(same.ok()) << same.error().message();
}

TEST_F(StateValidationLaws, F2_AFilteredStateRestoresOnlyWhatItHolds) {
  // Only the stack "a" is saved: restored after the world ran on, its crates are back where
  // they were and the pile's are where the run left them.
  std::unique_ptr<LawWorld> world = LawWorld::from_scene(k_stacks, "stacks");
  step(*world, 40);
  const BodyID a2 = world->scene_body("a2");
  const BodyID p7 = world->scene_body("p7");
  ASSERT_TRUE(a2.is_valid() && p7.is_valid());
  struct OnlyStack final : StateFilter {
    const SceneWorld* scene = nullptr;
    bool save_body(const Body& body) const override {
      const std::string name(scene->body_name(body.id()));
      return name.rfind("a", 0) == 0;
    }
  } filter;
  filter.scene = world->scene();
  StateRecorder saved;
  EXPECT_TRUE(world->system().save_state(saved, StateParts::bodies, &filter).ok());
  const Vec3 a2_saved = world->system().bodies().get(a2)->center_of_mass_position();
  ASSERT_TRUE(world->bodies().set_linear_velocity(a2, Vec3(1, 0, 0)).ok());
  step(*world, 20);
  const Vec3 p7_now = world->system().bodies().get(p7)->center_of_mass_position();
  ASSERT_TRUE(world->system().restore_state(saved).ok());
  EXPECT_EQ(world->system().bodies().get(a2)->center_of_mass_position(), a2_saved);
  EXPECT_EQ(world->system().bodies().get(p7)->center_of_mass_position(), p7_now);
}

TEST_F(StateValidationLaws, F2_WithoutTheContactCacheTheRunDiffers) {
  // The contact part is needed: restored without it, warm starting begins from nothing and
  // the run parts from the uninterrupted one (F2_RestoredWorldContinuesBitIdentically would
  // pass vacuously if contacts did not matter). On the scenes that are awake at the save.
  for (const Scene& scene : {k_scenes[0], k_scenes[1]}) {
    std::unique_ptr<LawWorld> straight = LawWorld::from_scene(scene.json, scene.name);
    step(*straight, k_save_step + 20);
    std::unique_ptr<LawWorld> world = LawWorld::from_scene(scene.json, scene.name);
    step(*world, k_save_step);
    StateRecorder saved;
    EXPECT_TRUE(
        world->system()
            .save_state(saved, StateParts::global | StateParts::bodies | StateParts::constraints)
            .ok());
    std::unique_ptr<LawWorld> fresh = LawWorld::from_scene(scene.json, scene.name);
    ASSERT_TRUE(fresh->system().restore_state(saved).ok());
    step(*fresh, 20);
    EXPECT_NE(state_hash(fresh->system().bodies()), state_hash(straight->system().bodies()))
        << scene.name;
  }
}

}  // namespace state_laws_test
}  // namespace atl::laws
