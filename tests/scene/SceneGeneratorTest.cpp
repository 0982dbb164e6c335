// Generators expand at read time into bodies named PREFIX + index, with the positions their
// documented formulas give.

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "atoll/core/Random.h"
#include "atoll/scene/SceneReader.h"

namespace atl {
namespace scene_generator_test {
namespace {

SceneDescription read_ok(const std::string& text) {
  Result<SceneDescription> scene = read_scene_text(text, "g.json");
  EXPECT_TRUE(scene.ok()) << (scene.ok() ? "" : scene.error().message());
  return scene.ok() ? std::move(scene).value() : SceneDescription();
}

std::string error_of(const std::string& text) {
  const Result<SceneDescription> scene = read_scene_text(text, "g.json");
  return scene.ok() ? "<no error>" : scene.error().message();
}

const std::string k_shapes = R"("shapes": {
    "crate": {"type": "box", "half_extent": [0.5, 0.5, 0.5]},
    "plank": {"type": "box", "half_extent": [1, 0.25, 0.5]},
    "ball": {"type": "sphere", "radius": 0.5}})";

std::string scene_with(const std::string& generators) {
  return "{" + k_shapes + R"(, "bodies": [{"name": "floor", "motion": "static",
      "shape": {"type": "box", "half_extent": [10, 1, 10]}, "position": [0, -1, 0]}],
      "generators": [)" +
         generators + "]}";
}

TEST(SceneGenerators, StackSpacesBodiesByShapeHeightPlusGap) {
  const SceneDescription scene = read_ok(scene_with(
      R"({"type": "stack", "name": "s", "shape": "crate", "count": 3, "base": [1, 0.5, 2],
          "gap": 0.1, "mass": 2, "friction": 0.7})"));
  ASSERT_EQ(scene.bodies.size(), 4u);
  for (int i = 0; i < 3; ++i) {
    const BodyDesc& body = scene.bodies[1 + i];
    EXPECT_EQ(body.name, std::string("s").append(std::to_string(i)));
    EXPECT_EQ(body.settings.position, Vec3(1.0f, 0.5f + float(i) * 1.1f, 2.0f));
    EXPECT_EQ(body.shape.name, "crate");
    // Body keys apply to every generated body.
    EXPECT_EQ(body.settings.override_mass, 2.0f);
    EXPECT_EQ(body.settings.friction, 0.7f);
    EXPECT_EQ(body.settings.motion_type, MotionType::Dynamic);
  }
}

TEST(SceneGenerators, StackUsesTheRotatedShapeHeight) {
  // A plank 2 m long stood on end by a 90° rotation about z is 2 m tall.
  const SceneDescription scene = read_ok(scene_with(
      R"({"type": "stack", "name": "s", "shape": "plank", "count": 2, "base": [0, 1, 0],
          "rotation": [0, 0, 0.70710678, 0.70710678]})"));
  ASSERT_EQ(scene.bodies.size(), 3u);
  EXPECT_NEAR(scene.bodies[2].settings.position.y(), 3.0f, 1e-5f);
  EXPECT_EQ(scene.bodies[2].settings.rotation, scene.bodies[1].settings.rotation);
}

TEST(SceneGenerators, PyramidHasLayersMinusIBodiesPerLayerCentredOnBase) {
  const SceneDescription scene = read_ok(scene_with(
      R"({"type": "pyramid", "name": "p", "shape": "crate", "layers": 3, "base": [0, 0.5, 4]})"));
  ASSERT_EQ(scene.bodies.size(), 1u + 6u);
  const Vec3 expected[] = {{-1, 0.5f, 4},    {0, 0.5f, 4},    {1, 0.5f, 4},
                           {-0.5f, 1.5f, 4}, {0.5f, 1.5f, 4}, {0, 2.5f, 4}};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(scene.bodies[1 + i].name, std::string("p").append(std::to_string(i)));
    EXPECT_EQ(scene.bodies[1 + i].settings.position, expected[i]) << i;
  }
}

TEST(SceneGenerators, PyramidGapWidensEachLayer) {
  const SceneDescription scene = read_ok(scene_with(
      R"({"type": "pyramid", "name": "p", "shape": "crate", "layers": 2, "base": [0, 0.5, 0],
          "gap": 0.5})"));
  EXPECT_EQ(scene.bodies[1].settings.position, Vec3(-0.75f, 0.5f, 0));
  EXPECT_EQ(scene.bodies[2].settings.position, Vec3(0.75f, 0.5f, 0));
  EXPECT_EQ(scene.bodies[3].settings.position, Vec3(0, 1.5f, 0));
}

TEST(SceneGenerators, GridIndexesXFastestThenYThenZ) {
  const SceneDescription scene = read_ok(scene_with(
      R"({"type": "grid", "name": "g", "shape": "ball", "counts": [2, 3, 4],
          "spacing": [1, 2, 3], "base": [10, 0, 0]})"));
  ASSERT_EQ(scene.bodies.size(), 1u + 24u);
  const BodyDesc* g5 = scene.find_body("g5");  // x = 1, y = 2, z = 0
  ASSERT_NE(g5, nullptr);
  EXPECT_EQ(g5->settings.position, Vec3(11, 4, 0));
  const BodyDesc* g23 = scene.find_body("g23");  // x = 1, y = 2, z = 3
  ASSERT_NE(g23, nullptr);
  EXPECT_EQ(g23->settings.position, Vec3(11, 4, 9));
  EXPECT_EQ(scene.find_body("g24"), nullptr);
}

TEST(SceneGenerators, PileIsSeededAndStaysInItsRegion) {
  const std::string pile =
      R"({"type": "pile", "name": "r", "shape": "ball", "count": 50, "min": [-1, 2, -3],
          "max": [1, 6, 3], "seed": 42, "random_rotation": true})";
  const SceneDescription a = read_ok(scene_with(pile));
  const SceneDescription b = read_ok(scene_with(pile));
  EXPECT_EQ(a, b);
  ASSERT_EQ(a.bodies.size(), 51u);
  const AABox region(Vec3(-1, 2, -3), Vec3(1, 6, 3));
  for (size_t i = 1; i < a.bodies.size(); ++i) {
    EXPECT_TRUE(region.contains(a.bodies[i].settings.position)) << a.bodies[i].name;
    EXPECT_NEAR(a.bodies[i].settings.rotation.length(), 1.0f, 1e-6f);
  }
  // The positions are atl::Random's sequence, the same on every platform: x, y, z, then the
  // three numbers of the rotation.
  Random random(42);
  const float x = random.uniform(-1, 1), y = random.uniform(2, 6), z = random.uniform(-3, 3);
  EXPECT_EQ(a.bodies[1].settings.position, Vec3(x, y, z));
  // Another seed gives another pile; no rotation without random_rotation.
  const SceneDescription c = read_ok(scene_with(
      R"({"type": "pile", "name": "r", "shape": "ball", "count": 50, "min": [-1, 2, -3],
          "max": [1, 6, 3]})"));
  EXPECT_NE(c.bodies[1].settings.position, a.bodies[1].settings.position);
  EXPECT_EQ(c.bodies[1].settings.rotation, Quat::identity());
  Random default_random(Random::k_default_seed);
  EXPECT_EQ(c.bodies[1].settings.position.x(), default_random.uniform(-1, 1));
}

TEST(SceneGenerators, PileSpeedGivesEveryBodyThatSpeedInARandomDirection) {
  const SceneDescription scene = read_ok(scene_with(
      R"({"type": "pile", "name": "r", "shape": "ball", "count": 200, "min": [-1, 2, -3],
          "max": [1, 6, 3], "seed": 7, "random_rotation": true, "speed": 250})"));
  ASSERT_EQ(scene.bodies.size(), 201u);
  Vec3 sum;
  for (size_t i = 1; i < scene.bodies.size(); ++i) {
    EXPECT_NEAR(scene.bodies[i].settings.linear_velocity.length(), 250.0f, 250.0f * 1e-6f);
    sum += scene.bodies[i].settings.linear_velocity / 250.0f;
  }
  // 200 uniform directions: their mean is within a few 1/√200 ≈ 0.07 of zero on each axis.
  EXPECT_LT((sum / 200.0f).abs().max_component(), 0.25f);
  // The direction is drawn after position and rotation: z uniform in [-1, 1), then the azimuth.
  Random random(7);
  for (int i = 0; i < 6; ++i) (void)random.next_float();
  const float z = random.uniform(-1.0f, 1.0f);
  EXPECT_EQ(scene.bodies[1].settings.linear_velocity.z(), 250.0f * z);
  // Positions do not depend on the speed.
  const SceneDescription still = read_ok(scene_with(
      R"({"type": "pile", "name": "r", "shape": "ball", "count": 200, "min": [-1, 2, -3],
          "max": [1, 6, 3], "seed": 7, "random_rotation": true})"));
  EXPECT_EQ(still.bodies[1].settings.position, scene.bodies[1].settings.position);
  EXPECT_EQ(still.bodies[1].settings.rotation, scene.bodies[1].settings.rotation);
  EXPECT_EQ(still.bodies[1].settings.linear_velocity, Vec3());
}

TEST(SceneGenerators, JoltPyramidReproducesPerformanceTestLayout) {
  const SceneDescription scene =
      read_ok(scene_with(R"({"type": "jolt_pyramid", "name": "p", "shape": "crate"})"));
  ASSERT_EQ(scene.bodies.size(), 1u + 1240u);
  // Recomputed here from the PerformanceTest loop.
  size_t index = 1;
  for (int i = 0; i < 15; ++i)
    for (int j = i / 2; j < 15 - (i + 1) / 2; ++j)
      for (int k = i / 2; k < 15 - (i + 1) / 2; ++k) {
        const BodyDesc& body = scene.bodies[index];
        ASSERT_EQ(body.name, std::string("p").append(std::to_string(index - 1)));
        const float shift = (i & 1) != 0 ? 1.0f : 0.0f;
        ASSERT_EQ(body.settings.position,
                  Vec3(-15.0f + 2.0f * float(j) + shift, 1.0f + 2.5f * float(i),
                       -15.0f + 2.0f * float(k) + shift));
        ++index;
      }
  EXPECT_EQ(scene.find_body("p0")->settings.position, Vec3(-15, 1, -15));
  EXPECT_EQ(scene.find_body("p225")->settings.position, Vec3(-14, 3.5f, -14));
  EXPECT_EQ(scene.find_body("p1239")->settings.position, Vec3(-1, 36, -1));
}

TEST(SceneGenerators, SwarmDrawsInJoltsOrderFromTheMersenneTwister) {
  const SceneDescription scene = read_ok(scene_with(
      R"({"type": "swarm", "name": "w", "shapes": ["crate", "ball", {"type": "sphere",
          "radius": 0.1}], "count": 7, "half_range": 2, "speed": 250, "friction_range": [0.5, 1],
          "restitution_range": [0.9, 1], "motion_quality": "linear_cast"})"));
  ASSERT_EQ(scene.bodies.size(), 1u + 7u);
  // The shapes in turn.
  EXPECT_EQ(scene.find_body("w0")->shape.name, "crate");
  EXPECT_EQ(scene.find_body("w1")->shape.name, "ball");
  EXPECT_NE(scene.find_body("w2")->shape.definition, nullptr);
  EXPECT_EQ(scene.find_body("w3")->shape.name, "crate");
  EXPECT_EQ(scene.find_body("w6")->shape.name, "crate");
  // Ten draws per body from a default-seeded std::mt19937, each lo + float(u)·(hi − lo) /
  // float(2³² − 1): x, y, z, rotation (3), friction, restitution, velocity direction (2).
  // Reference values computed apart from Atoll from the twister's outputs 3499211612,
  // 581869302, 3890346734, ….
  const BodyDesc& w0 = *scene.find_body("w0");
  EXPECT_EQ(w0.settings.position, Vec3(1.25889468f, -1.45809197f, 1.62316775f));
  EXPECT_EQ(w0.settings.friction, 0.956687927f);
  EXPECT_EQ(w0.settings.restitution, 0.922103405f);
  EXPECT_EQ(w0.settings.linear_velocity.z(), 66.1796341f);
  EXPECT_EQ(scene.find_body("w1")->settings.position.x(), -1.60983837f);
  EXPECT_EQ(w0.settings.motion_quality, MotionQuality::LinearCast);
  // The same from std::mt19937 here: the rotation's first draw u gives |w|² + |z|² = u.
  std::mt19937 engine;
  std::vector<float> raw;
  for (int i = 0; i < 10; ++i) raw.push_back(static_cast<float>(engine()));
  const float span = static_cast<float>(std::mt19937::max());
  EXPECT_EQ(w0.settings.position.y(), -2.0f + raw[1] * 4.0f / span);
  const float u = raw[3] * 1.0f / span;
  const Quat q = w0.settings.rotation;
  EXPECT_NEAR(q.z() * q.z() + q.w() * q.w(), u, 1e-6f);  // u = 0.835
  EXPECT_NEAR(q.length(), 1.0f, 1e-6f);
  EXPECT_NEAR(w0.settings.linear_velocity.length(), 250.0f, 250.0f * 1e-6f);
  // Another seed, another swarm.
  const SceneDescription other = read_ok(scene_with(
      R"({"type": "swarm", "name": "w", "shapes": ["crate"], "count": 1, "half_range": 2,
          "speed": 0, "friction_range": [0.5, 1], "restitution_range": [0.9, 1], "seed": 1})"));
  EXPECT_NE(other.bodies[1].settings.position, w0.settings.position);
  EXPECT_EQ(other.bodies[1].settings.linear_velocity, Vec3());
}

TEST(SceneGenerators, WaveMeshIsTwoTrianglesPerCellFacingUp) {
  const SceneDescription scene = read_ok(scene_with(
      R"({"type": "wave_mesh", "name": "t", "motion": "static", "cells": 2, "cell_size": 3,
          "amplitude": 5, "frequency": 0.5, "base": [-3, 1, -3], "friction": 0.4})"));
  ASSERT_EQ(scene.bodies.size(), 2u);
  const BodyDesc& t = *scene.find_body("t0");
  EXPECT_EQ(t.settings.position, Vec3(-3, 1, -3));
  EXPECT_EQ(t.settings.friction, 0.4f);
  const auto& mesh = std::get<TriangleMeshShapeSettings>(scene.resolve(t.shape)->settings);
  ASSERT_EQ(mesh.vertices.size(), 9u);
  ASSERT_EQ(mesh.triangles.size(), 8u);
  // Vertex (x, z) is number 3z + x at [3x, 5 sin(x/2) cos(z/2), 3z].
  for (int z = 0; z <= 2; ++z)
    for (int x = 0; x <= 2; ++x) {
      const Float3& v = mesh.vertices[size_t(3 * z + x)];
      EXPECT_EQ(v.x, 3.0f * float(x));
      EXPECT_EQ(v.z, 3.0f * float(z));
      EXPECT_NEAR(v.y, 5.0 * std::sin(0.5 * x) * std::cos(0.5 * z), 2e-6);
    }
  // Cell (0, 0) first, then (0, 1): x-major.
  const uint32_t first[3] = {0, 3, 1}, second[3] = {1, 3, 4}, third[3] = {3, 6, 4};
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(mesh.triangles[0].idx[k], first[k]);
    EXPECT_EQ(mesh.triangles[1].idx[k], second[k]);
    EXPECT_EQ(mesh.triangles[2].idx[k], third[k]);
  }
  // Counter-clockwise seen from above: every normal points up.
  for (const IndexedTriangle& tri : mesh.triangles) {
    const auto at = [&](int k) {
      const Float3& p = mesh.vertices[tri.idx[k]];
      return Vec3(p.x, p.y, p.z);
    };
    EXPECT_GT((at(1) - at(0)).cross(at(2) - at(0)).y(), 0.0f);
  }
}

TEST(SceneGenerators, BadSwarmsAndWaveMeshesGiveOneLineMessages) {
  const std::string swarm =
      R"({"type": "swarm", "name": "w", "shapes": ["crate"], "count": 2, "half_range": 2,
          "speed": 1, "friction_range": [0.5, 1], "restitution_range": [0.9, 1])";
  EXPECT_EQ(error_of(scene_with(swarm + R"(, "shape": "crate"})")),
            "g.json: generators[0].shape: not allowed in a swarm, which cycles through its "
            "shapes");
  EXPECT_EQ(error_of(scene_with(swarm + R"(, "friction": 1})")),
            "g.json: generators[0].friction: set by the swarm, which draws it for each body");
  EXPECT_EQ(error_of(scene_with(swarm + R"(, "motion": "static"})")),
            "g.json: generators[0].speed: a static body cannot move");
  EXPECT_EQ(error_of(scene_with(
                R"({"type": "swarm", "name": "w", "shapes": [], "count": 2, "half_range": 2,
                    "speed": 1, "friction_range": [0.5, 1], "restitution_range": [0.9, 1]})")),
            "g.json: generators[0].shapes: must list at least one shape");
  EXPECT_EQ(error_of(scene_with(
                R"({"type": "swarm", "name": "w", "shapes": ["crat"], "count": 2,
                    "half_range": 2, "speed": 1, "friction_range": [0.5, 1],
                    "restitution_range": [0.9, 1]})")),
            "g.json: generators[0].shapes[0]: unknown shape \"crat\"");
  EXPECT_EQ(error_of(scene_with(
                R"({"type": "swarm", "name": "w", "shapes": ["crate"], "count": 2,
                    "half_range": 2, "speed": 1, "friction_range": [1, 0.5],
                    "restitution_range": [0.9, 1]})")),
            "g.json: generators[0].friction_range[1]: must be >= 1, got 0.5");
  EXPECT_EQ(error_of(scene_with(
                R"({"type": "swarm", "name": "w", "shapes": ["crate"], "count": 2,
                    "half_range": 2, "speed": 1, "friction_range": [0.5, 1]})")),
            "g.json: generators[0].restitution_range: required key missing");
  EXPECT_EQ(error_of(scene_with(
                R"({"type": "wave_mesh", "name": "t", "motion": "static", "cells": 0,
                    "cell_size": 3, "amplitude": 5, "frequency": 0.5, "base": [0, 0, 0]})")),
            "g.json: generators[0].cells: must be in [1, 1000], got 0");
  EXPECT_EQ(error_of(scene_with(
                R"({"type": "wave_mesh", "name": "t", "motion": "static", "cells": 2,
                    "cell_size": 3, "amplitude": 5, "frequency": 0.5, "base": [0, 0, 0],
                    "shape": "crate"})")),
            "g.json: generators[0].shape: not allowed in a wave_mesh, which makes its own mesh");
  EXPECT_EQ(error_of(scene_with(
                R"({"type": "wave_mesh", "name": "t", "motion": "static", "cells": 2,
                    "cell_size": 3, "amplitude": 5, "base": [0, 0, 0]})")),
            "g.json: generators[0].frequency: required key missing");
}

TEST(SceneGenerators, GeneratedNamesWorkInEvents) {
  SceneDescription scene = read_ok("{" + k_shapes + R"(,
      "generators": [{"type": "stack", "name": "s", "shape": "crate", "count": 10,
                      "base": [0, 0.5, 0]}],
      "events": [{"step": 150, "action": "add_force", "body": "s5", "force": [10, 0, 0]}]})");
  ASSERT_EQ(scene.events.size(), 1u);
  EXPECT_EQ(scene.events[0].body, "s5");
}

TEST(SceneGenerators, BadGeneratorsGiveOneLineMessages) {
  EXPECT_EQ(error_of(scene_with(R"({"type": "stack", "name": "s", "shape": "crate",
                                     "base": [0, 0, 0]})")),
            "g.json: generators[0].count: required key missing");
  EXPECT_EQ(error_of(scene_with(R"({"type": "stack", "name": "s", "shape": "crate", "count": 0,
                                     "base": [0, 0, 0]})")),
            "g.json: generators[0].count: must be in [1, 1000000], got 0");
  EXPECT_EQ(error_of(scene_with(R"({"type": "stack", "name": "s", "shape": "crate", "count": 2,
                                     "position": [0, 0, 0]})")),
            "g.json: generators[0].position: not allowed in a generator, which positions its "
            "bodies");
  EXPECT_EQ(error_of(scene_with(R"({"type": "grid", "name": "g", "shape": "crate",
                                     "counts": [1, 1, 1], "spacing": [1, 1, 1], "base": [0, 0, 0],
                                     "gap": 1})")),
            "g.json: generators[0].gap: unknown key");
  EXPECT_EQ(error_of(scene_with(R"({"type": "grid", "name": "g", "shape": "crate",
                                     "counts": [1000, 1000, 2], "spacing": [1, 1, 1],
                                     "base": [0, 0, 0]})")),
            "g.json: generators[0].counts: must make at most 1000000 bodies, got 2000000");
  EXPECT_EQ(error_of(scene_with(R"({"type": "pile", "name": "r", "shape": "crate", "count": 2,
                                     "min": [0, 5, 0], "max": [1, 4, 1]})")),
            "g.json: generators[0].max[1]: must be >= min[1] (5), got 4");
  EXPECT_EQ(error_of(scene_with(R"({"type": "pile", "name": "r", "shape": "crate", "count": 2,
                                     "min": [0, 0, 0], "max": [1, 1, 1], "random_rotation": true,
                                     "rotation": [0, 0, 0, 1]})")),
            "g.json: generators[0].rotation: conflicts with random_rotation");
  EXPECT_EQ(error_of(scene_with(R"({"type": "pile", "name": "r", "shape": "crate", "count": 2,
                                     "min": [0, 0, 0], "max": [1, 1, 1], "speed": 5,
                                     "linear_velocity": [1, 0, 0]})")),
            "g.json: generators[0].linear_velocity: conflicts with speed");
  EXPECT_EQ(error_of(scene_with(R"({"type": "pile", "name": "r", "shape": "crate", "count": 2,
                                     "min": [0, 0, 0], "max": [1, 1, 1], "speed": -5})")),
            "g.json: generators[0].speed: must be >= 0, got -5");
  EXPECT_EQ(error_of(scene_with(R"({"type": "pile", "name": "r", "shape": "crate", "count": 2,
                                     "min": [0, 0, 0], "max": [1, 1, 1], "speed": 5,
                                     "motion": "static"})")),
            "g.json: generators[0].speed: a static body cannot move");
  EXPECT_EQ(error_of(scene_with(R"({"type": "stack", "name": "s", "shape": "crate", "count": 2,
                                     "base": [0, 0, 0], "speed": 5})")),
            "g.json: generators[0].speed: unknown key");
  EXPECT_EQ(error_of(scene_with(R"({"type": "stack", "name": "s", "shape": "crate", "count": 2,
                                     "base": [0, 0, 0], "frcition": 1})")),
            "g.json: generators[0].frcition: unknown key");
  EXPECT_EQ(error_of(scene_with(R"({"type": "stack", "shape": "crate", "count": 2,
                                     "base": [0, 0, 0]})")),
            "g.json: generators[0].name: required key missing");
  EXPECT_EQ(error_of(scene_with(R"({"type": "stack", "name": "s", "shape": "crat", "count": 2,
                                     "base": [0, 0, 0]})")),
            "g.json: generators[0].shape: unknown shape \"crat\"");
  // Generated names must not collide with other bodies.
  EXPECT_EQ(error_of(scene_with(R"({"type": "stack", "name": "flo", "shape": "crate", "count": 1,
                                     "base": [0, 0, 0]},
                                   {"type": "stack", "name": "flo", "shape": "crate", "count": 1,
                                     "base": [5, 0, 0]})")),
            "g.json: generators[1].name: duplicate body name \"flo0\"");
  EXPECT_EQ(error_of(scene_with(R"({"type": "jolt_pyramid", "name": "p", "shape": "crate",
                                     "layers": 200})")),
            "g.json: generators[0].layers: must make at most 1000000 bodies, got 2686700");
  EXPECT_EQ(error_of(scene_with(R"({"type": "stack", "name": "s", "shape": "crate", "count": 2,
                                     "base": [0, 0, 0], "motion": "static", "mass": 3})")),
            "g.json: generators[0].mass: a static body has no mass");
}

}  // namespace
}  // namespace scene_generator_test
}  // namespace atl
