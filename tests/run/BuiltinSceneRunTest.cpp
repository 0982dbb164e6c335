// The built-in constraint scenes (issue 8 §3) run without NaN and keep their joints: chain,
// joint_grid (joint separation after 60 steps) and ragdolls (the pile comes to rest on the
// floor without exploding); the soft body scenes (issue 11) hold and drape.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "atoll/run/SceneWorld.h"
#include "atoll/scene/BuiltinScenes.h"
#include "atoll/scene/ConstraintFields.h"
#include "atoll/scene/SceneReader.h"

namespace atl {
namespace builtin_scene_run_test {
namespace {

std::unique_ptr<SceneWorld> load(std::string_view name, const SceneWorldOptions& options = {}) {
  const std::optional<std::string_view> text = builtin_scene_text(name);
  EXPECT_TRUE(text.has_value()) << name;
  if (!text) return nullptr;
  Result<SceneDescription> scene = read_scene_text(*text, std::string(name));
  EXPECT_TRUE(scene.ok()) << (scene.ok() ? "" : scene.error().message());
  if (!scene) return nullptr;
  Result<std::unique_ptr<SceneWorld>> world = SceneWorld::create(*scene, name, options);
  EXPECT_TRUE(world.ok()) << (world.ok() ? "" : world.error().message());
  return world ? std::move(world).value() : nullptr;
}

void step(SceneWorld& world, int steps) {
  for (int i = 0; i < steps; ++i) {
    Result<UpdateResult> result =
        world.system().update(world.scene().dt, world.scene().collision_steps);
    ASSERT_TRUE(result.ok()) << result.error().message();
  }
}

// A joint's anchor in each body's frame, taken from the world-space anchor the scene gives
// (point1/point2, or position1/position2 for swing_twist) and the bodies' starting poses.
struct Anchor {
  std::string name;
  BodyID body1, body2;  // invalid: the world
  Vec3 local1, local2;
};

Vec3 read_vec(const scene_json::Json& j) {
  return Vec3(j[0].get<float>(), j[1].get<float>(), j[2].get<float>());
}

std::vector<Anchor> anchors(SceneWorld& world) {
  const BodyInterface& bodies = world.system().body_interface();
  std::vector<Anchor> out;
  for (const ConstraintDesc& desc : world.scene().constraints) {
    const scene_json::Json j = fields::write_constraint(desc);
    const bool swing = desc.type == ConstraintSubType::SwingTwist;
    // The writer leaves out a point at its default, the origin.
    const auto point = [&j](const char* key) {
      return j.contains(key) ? read_vec(j[key]) : Vec3();
    };
    const Vec3 p1 = point(swing ? "position1" : "point1");
    const Vec3 p2 = point(swing ? "position2" : "point2");
    Anchor a{desc.name, world.body(desc.body1), world.body(desc.body2), p1, p2};
    // To the body's frame (the world keeps world coordinates).
    const auto to_local = [&](BodyID id, const Vec3& p) {
      if (!id.is_valid()) return p;
      return bodies.rotation(id).value().conjugated() * (p - bodies.position(id).value());
    };
    a.local1 = to_local(a.body1, p1);
    a.local2 = to_local(a.body2, p2);
    out.push_back(a);
  }
  return out;
}

// Largest distance (m) between the two ends of any joint.
float max_separation(SceneWorld& world, const std::vector<Anchor>& joints,
                     std::string* worst = nullptr) {
  const BodyInterface& bodies = world.system().body_interface();
  const auto to_world = [&](BodyID id, const Vec3& p) {
    if (!id.is_valid()) return p;
    return bodies.position(id).value() + bodies.rotation(id).value() * p;
  };
  float max = 0.0f;
  for (const Anchor& a : joints) {
    const float d = (to_world(a.body1, a.local1) - to_world(a.body2, a.local2)).length();
    if (!(d <= max)) {
      max = d;
      if (worst != nullptr) *worst = a.name;
    }
  }
  return max;
}

bool all_finite(SceneWorld& world) {
  const BodyInterface& bodies = world.system().body_interface();
  for (BodyID id : world.body_ids()) {
    const Vec3 p = bodies.position(id).value();
    const Vec3 v = bodies.linear_velocity(id).value();
    if (!std::isfinite(p.x() + p.y() + p.z() + v.x() + v.y() + v.z())) return false;
  }
  return true;
}

TEST(BuiltinSceneRun, AWorldWithoutBodyDescriptionsNamesItsBodiesAndRunsTheSame) {
  // SceneWorldOptions::keep_body_descriptions off (the atoll program's run and bench): the
  // scene keeps no body list, the bodies are named and made as with it, and the run is the same.
  const std::unique_ptr<SceneWorld> kept = load("ragdolls");
  const std::unique_ptr<SceneWorld> lean =
      load("ragdolls", SceneWorldOptions{.keep_body_descriptions = false});
  ASSERT_NE(kept, nullptr);
  ASSERT_NE(lean, nullptr);
  ASSERT_FALSE(kept->scene().bodies.empty());
  EXPECT_TRUE(lean->scene().bodies.empty());
  EXPECT_EQ(lean->body_names(), kept->body_names());
  ASSERT_EQ(lean->body_ids().size(), kept->scene().bodies.size());
  EXPECT_EQ(lean->body(kept->scene().bodies.back().name), lean->body_ids().back());
  EXPECT_EQ(lean->scene().constraints.size(), kept->scene().constraints.size());
  step(*kept, 60);
  step(*lean, 60);
  EXPECT_EQ(lean->system().state_hash(), kept->system().state_hash());
}

TEST(BuiltinSceneRun, ChainSwingsAndKeepsItsHinges) {
  std::unique_ptr<SceneWorld> world = load("chain");
  ASSERT_NE(world, nullptr);
  EXPECT_EQ(world->body_ids().size(), 21u);
  EXPECT_EQ(world->constraints().size(), 20u);
  const std::vector<Anchor> joints = anchors(*world);
  EXPECT_LT(max_separation(*world, joints), 1e-6f);
  const BodyID last = world->body("link19");
  const float start_y = world->system().body_interface().position(last).value().y();
  step(*world, 60);
  ASSERT_TRUE(all_finite(*world));
  std::string worst;
  const float separation = max_separation(*world, joints, &worst);
  EXPECT_LT(separation, 0.005f) << worst;  // measured 0.0019 m (0.013 m with 1 sub-step)
  // It swings: after 1 s the free end has fallen metres.
  const float end_y = world->system().body_interface().position(last).value().y();
  EXPECT_LT(end_y, start_y - 2.0f);  // measured: fell 4.84 m
}

TEST(BuiltinSceneRun, JointGridHangsFromItsTopRow) {
  std::unique_ptr<SceneWorld> world = load("joint_grid");
  ASSERT_NE(world, nullptr);
  EXPECT_EQ(world->body_ids().size(), 10000u);
  // 99 × 100 horizontal, 100 × 99 vertical, 100 to the world.
  EXPECT_EQ(world->constraints().size(), 9900u + 9900u + 100u);
  const std::vector<Anchor> joints = anchors(*world);
  step(*world, 60);
  ASSERT_TRUE(all_finite(*world));
  std::string worst;
  const float separation = max_separation(*world, joints, &worst);
  EXPECT_LT(separation, 0.005f) << worst;  // measured 0.0009 m (0.045 m with 1 sub-step)
}

TEST(BuiltinSceneRun, RagdollsComeToRestOnTheFloor) {
  std::unique_ptr<SceneWorld> world = load("ragdolls");
  ASSERT_NE(world, nullptr);
  EXPECT_EQ(world->body_ids().size(), 1u + 16u * 12u);
  EXPECT_EQ(world->constraints().size(), 16u * 11u);
  const BodyInterface& bodies = world->system().body_interface();
  std::vector<float> start_y;
  for (BodyID id : world->body_ids()) start_y.push_back(bodies.position(id).value().y());
  const std::vector<Anchor> joints = anchors(*world);
  step(*world, 180);  // 3 s
  ASSERT_TRUE(all_finite(*world));
  float lowest = 1e9f, max_rise = -1e9f, max_speed = 0.0f;
  for (size_t i = 1; i < world->body_ids().size(); ++i) {
    const BodyID id = world->body_ids()[i];
    const float y = bodies.position(id).value().y();
    lowest = std::min(lowest, y);
    max_rise = std::max(max_rise, y - start_y[i]);
    max_speed = std::max(max_speed, bodies.linear_velocity(id).value().length());
  }
  EXPECT_GT(lowest, -0.05f);   // measured 0.029 m (centre of the lowest part)
  EXPECT_LT(max_rise, 0.0f);   // measured -0.26 m: every part ended lower
  EXPECT_LT(max_speed, 0.5f);  // measured 0.078 m/s: at rest
  std::string worst;
  const float separation = max_separation(*world, joints, &worst);
  EXPECT_LT(separation, 0.01f) << worst;  // measured 0.0042 m (a knee)
}

// Jolt's benchmark scenes and many_pyramids build and run a few steps (their speed is
// measured by `atoll bench`, not here).
TEST(BuiltinSceneRun, HighSpeedStaysInsideItsBox) {
  std::unique_ptr<SceneWorld> world = load("highspeed");
  ASSERT_NE(world, nullptr);
  EXPECT_EQ(world->body_ids().size(), 6u + 5000u);
  step(*world, 3);
  ASSERT_TRUE(all_finite(*world));
  const BodyInterface& bodies = world->system().body_interface();
  float outermost = 0.0f;
  for (size_t i = 6; i < world->body_ids().size(); ++i)
    outermost =
        std::max(outermost, bodies.position(world->body_ids()[i]).value().abs().max_component());
  // Nothing got out through the 0.4 m walls (outer faces at ±50.2 m). Measured 49.91 m: centres
  // of masses of compounds (L-shaped, centre of mass outside both parts) lie up to 0.11 m beyond
  // the inner faces at ±49.8 m after 3 steps, so those compounds sink into the walls.
  EXPECT_LT(outermost, 50.2f);
}

TEST(BuiltinSceneRun, ConvexVsMeshBodiesFallTowardTheMesh) {
  std::unique_ptr<SceneWorld> world = load("convex_vs_mesh");
  ASSERT_NE(world, nullptr);
  EXPECT_EQ(world->body_ids().size(), 1u + 1764u);
  step(*world, 3);
  ASSERT_TRUE(all_finite(*world));
  // Free fall for 3 steps: v = 3 · g · dt.
  const Vec3 v = world->system().body_interface().linear_velocity(world->body("box0")).value();
  EXPECT_NEAR(v.y(), -9.81f * 3.0f / 60.0f, 0.01f);  // measured -0.4897 m/s (g · 3 dt = -0.4905)
}

TEST(BuiltinSceneRun, ManyPyramidsStandStill) {
  std::unique_ptr<SceneWorld> world = load("many_pyramids");
  ASSERT_NE(world, nullptr);
  EXPECT_EQ(world->body_ids().size(), 1u + 64u * 55u);
  const BodyInterface& bodies = world->system().body_interface();
  std::vector<Vec3> start;
  for (BodyID id : world->body_ids()) start.push_back(bodies.position(id).value());
  step(*world, 10);
  ASSERT_TRUE(all_finite(*world));
  float max_move = 0.0f;
  for (size_t i = 0; i < start.size(); ++i)
    max_move =
        std::max(max_move, (bodies.position(world->body_ids()[i]).value() - start[i]).length());
  EXPECT_LT(max_move, 0.01f);  // measured 0.0051 m (settling under gravity)
}

// The built-in soft body scenes (issue 11 item 4) run as `atoll run` runs them; their summary
// says what a user would check by eye: the rope bridge sags under its planks without tearing or
// dropping them, and the cloth drapes over the sphere, stays on it and does not sink into it by
// more than its vertex radius plus the slop.
RunSummary summarize(SceneWorld& world) {
  Result<RunSummary> summary = run_scene(world, RunOptions(), world.scene().description);
  EXPECT_TRUE(summary.ok()) << (summary.ok() ? "" : summary.error().message());
  return summary ? std::move(summary).value() : RunSummary();
}

const SoftBodySummary* find(const RunSummary& summary, std::string_view name) {
  for (const SoftBodySummary& s : summary.soft_bodies)
    if (s.name == name) return &s;
  return nullptr;
}

TEST(BuiltinSceneRun, RopeBridgeSagsUnderItsPlanksAndHoldsThem) {
  const std::unique_ptr<SceneWorld> world = load("rope_bridge");
  ASSERT_NE(world, nullptr);
  const RunSummary r = summarize(*world);
  ASSERT_EQ(r.soft_bodies.size(), 2u);
  for (const char* name : {"rope_front", "rope_back"}) {
    const SoftBodySummary* rope = find(r, name);
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
    for (const auto& [body, snapshot] : r.bodies)
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

TEST(BuiltinSceneRun, ClothDrapesOverTheSphereAndStaysOnIt) {
  const std::unique_ptr<SceneWorld> world = load("cloth_on_sphere");
  ASSERT_NE(world, nullptr);
  const RunSummary r = summarize(*world);
  const SoftBodySummary* cloth = find(r, "cloth");
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

}  // namespace
}  // namespace builtin_scene_run_test
}  // namespace atl
