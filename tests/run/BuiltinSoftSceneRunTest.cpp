// The built-in soft body scenes (issue 11 item 4) run as `atoll run` runs them, and their run
// summary says what a user would check by eye: the rope bridge sags under its planks without
// tearing or dropping them, and the cloth drapes over the sphere, stays on it and does not sink
// into it by more than its vertex radius plus the slop.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "atoll/run/SceneWorld.h"
#include "atoll/scene/BuiltinScenes.h"
#include "atoll/scene/SceneReader.h"

namespace atl {
namespace builtin_soft_scene_run_test {

struct SceneRun {
  std::unique_ptr<SceneWorld> world;
  RunSummary summary;
};

SceneRun run(std::string_view name) {
  SceneRun out;
  const std::optional<std::string_view> text = builtin_scene_text(name);
  EXPECT_TRUE(text.has_value()) << name;
  if (!text) return out;
  Result<SceneDescription> scene = read_scene_text(*text, std::string(name));
  EXPECT_TRUE(scene.ok()) << (scene.ok() ? "" : scene.error().message());
  if (!scene) return out;
  Result<std::unique_ptr<SceneWorld>> world = SceneWorld::create(*scene, name);
  EXPECT_TRUE(world.ok()) << (world.ok() ? "" : world.error().message());
  if (!world) return out;
  out.world = std::move(world).value();
  Result<RunSummary> summary = run_scene(*out.world, RunOptions(), name);
  EXPECT_TRUE(summary.ok()) << (summary.ok() ? "" : summary.error().message());
  if (summary) out.summary = std::move(summary).value();
  return out;
}

const SoftBodySummary* find(const RunSummary& summary, std::string_view name) {
  for (const SoftBodySummary& s : summary.soft_bodies)
    if (s.name == name) return &s;
  return nullptr;
}

TEST(BuiltinSoftSceneRun, RopeBridgeSagsUnderItsPlanksAndHoldsThem) {
  const SceneRun r = run("rope_bridge");
  ASSERT_NE(r.world, nullptr);
  ASSERT_EQ(r.summary.soft_bodies.size(), 2u);
  for (const char* name : {"rope_front", "rope_back"}) {
    const SoftBodySummary* rope = find(r.summary, name);
    ASSERT_NE(rope, nullptr) << name;
    EXPECT_EQ(rope->vertex_count, 41u);
    // Pinned ends where they were made; the middle sags about a metre.
    EXPECT_EQ(rope->bounds.min.x(), -5.0f) << name;
    EXPECT_EQ(rope->bounds.max.x(), 5.0f) << name;
    EXPECT_EQ(rope->bounds.max.y(), 3.0f) << name;
    EXPECT_GT(rope->bounds.min.y(), 1.5f) << name;  // measured 1.99 m
    EXPECT_LT(rope->bounds.min.y(), 2.5f) << name;
    EXPECT_LT(rope->max_strain, 0.05f) << name;  // measured 0.032 (8 sub-steps)
    ASSERT_TRUE(rope->lowest_vertex_clearance.has_value());
    EXPECT_GT(*rope->lowest_vertex_clearance, -0.02f) << name;  // measured 0.011 m
  }
  // Every plank hangs on the ropes, at rest, lowest in the middle, the bridge symmetric.
  float y[9];
  for (int i = 0; i < 9; ++i) {
    const std::string name = "plank" + std::to_string(i);
    const BodySnapshot* plank = nullptr;
    for (const auto& [body, snapshot] : r.summary.bodies)
      if (body == name) plank = &snapshot;
    ASSERT_NE(plank, nullptr) << name;
    y[i] = plank->position.y();
    EXPECT_GT(y[i], 1.8f) << name;
    EXPECT_LT(y[i], 3.05f) << name;
    EXPECT_NEAR(plank->position.z(), 0.0f, 0.01f) << name;
    EXPECT_LT(plank->linear_velocity.length(), 0.05f) << name;
  }
  for (int i = 0; i < 4; ++i) {
    EXPECT_GT(y[i], y[i + 1]) << "plank" << i;
    EXPECT_NEAR(y[i], y[8 - i], 0.02f) << "plank" << i;
  }
}

TEST(BuiltinSoftSceneRun, ClothDrapesOverTheSphereAndStaysOnIt) {
  const SceneRun r = run("cloth_on_sphere");
  ASSERT_NE(r.world, nullptr);
  const SoftBodySummary* cloth = find(r.summary, "cloth");
  ASSERT_NE(cloth, nullptr);
  EXPECT_EQ(cloth->vertex_count, 32u * 32u);
  EXPECT_EQ(cloth->volume, 0.0f) << "an open sheet encloses nothing";
  // Centred on the sphere (its top at y = 1.5), edges hanging down, none on the floor.
  EXPECT_LT(std::hypot(cloth->center_of_mass.x(), cloth->center_of_mass.z()), 0.1f);
  EXPECT_GT(cloth->center_of_mass.y(), 1.0f);  // measured 1.23 m
  EXPECT_LT(cloth->bounds.min.y(), 1.0f) << "the edges hang below the sphere's equator";
  EXPECT_GT(cloth->bounds.min.y(), 0.1f) << "and do not reach the floor";
  EXPECT_LT(cloth->bounds.max.y(), 1.6f);
  // No vertex inside the sphere by more than its radius plus the slop: its centre stays at
  // least 0.02 − 0.02 from the surface.
  ASSERT_TRUE(cloth->lowest_vertex_clearance.has_value());
  EXPECT_GT(*cloth->lowest_vertex_clearance, 0.0f);  // measured 0.0200 m (resting on it)
  EXPECT_LT(cloth->max_strain, 0.15f);               // measured 0.070
}

}  // namespace builtin_soft_scene_run_test
}  // namespace atl
