// Seeds (scene/ScenePerturbation.h): seed 0 changes nothing; any other seed moves each dynamic
// body's position and linear velocity by at most the documented jitter, with the documented
// draws, the same for the same seed; static bodies are never touched.

#include <gtest/gtest.h>

#include "atoll/core/Random.h"
#include "atoll/scene/ScenePerturbation.h"
#include "atoll/scene/SceneReader.h"

namespace atl {
namespace scene_perturbation_test {
namespace {

SceneDescription scene() {
  Result<SceneDescription> s = read_scene_text(R"({
    "bodies": [{"name": "floor", "shape": {"type": "box", "half_extent": [10, 1, 10]},
                "position": [0, -1, 0], "motion": "static"},
               {"name": "lift", "shape": {"type": "sphere", "radius": 0.5},
                "position": [4, 1, 0], "motion": "kinematic"}],
    "generators": [{"type": "stack", "name": "s", "shape": {"type": "sphere", "radius": 0.5},
                    "count": 3, "base": [0, 0.5, 0]}]})",
                                               "p.json");
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message());
  return s.ok() ? std::move(s).value() : SceneDescription();
}

TEST(ScenePerturbation, SeedZeroChangesNothing) {
  SceneDescription s = scene();
  perturb_scene(s, 0);
  EXPECT_TRUE(s == scene());
}

TEST(ScenePerturbation, MovesDynamicBodiesByTheDocumentedDraws) {
  const SceneDescription original = scene();
  SceneDescription s = original;
  perturb_scene(s, 7);
  // Static and kinematic bodies take no draws.
  EXPECT_TRUE(s.bodies[0] == original.bodies[0]);
  EXPECT_TRUE(s.bodies[1] == original.bodies[1]);
  Random random(7);
  for (size_t b = 2; b < s.bodies.size(); ++b) {
    const BodyCreationSettings& before = original.bodies[b].settings;
    const BodyCreationSettings& after = s.bodies[b].settings;
    for (int c = 0; c < 3; ++c)
      EXPECT_EQ(after.position[c], before.position[c] + random.uniform(-k_seed_position_jitter,
                                                                       k_seed_position_jitter));
    for (int c = 0; c < 3; ++c)
      EXPECT_EQ(after.linear_velocity[c],
                random.uniform(-k_seed_velocity_jitter, k_seed_velocity_jitter));
    EXPECT_EQ(after.rotation, before.rotation);
    EXPECT_EQ(after.angular_velocity, before.angular_velocity);
  }
  SceneDescription again = original;
  perturb_scene(again, 7);
  EXPECT_TRUE(again == s);
  SceneDescription other = original;
  perturb_scene(other, 8);
  EXPECT_FALSE(other == s);
}

}  // namespace
}  // namespace scene_perturbation_test
}  // namespace atl
