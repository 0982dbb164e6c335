// What a few bytes of scene JSON may ask the reader and the world to build, bounded scene-wide:
// each generator makes at most a million bodies, and so do all of a scene's generators together
// (ten grids of 1000 × 1000 × 1 asked for ten million bodies, and a million take about 1 GB to
// run); all wave meshes together make at most two million triangles (one of 1000 × 1000 cells,
// 370 MB; ten of them were ten times that); all soft bodies together hold at most a million
// vertices (a cloth of 4096 × 4096, allowed by its own bounds, is 16.7 million; a million take
// 0.5 GB). Each sum is checked before anything is made, and the error names the element (or the
// --set key) that would pass it.

#include <gtest/gtest.h>

#include <string>

#include "atoll/core/Result.h"
#include "atoll/scene/SceneReader.h"

namespace atl {
namespace scene_totals_test {
namespace {

std::string read_error(const std::string& generators) {
  const std::string text =
      R"({"shapes": {"crate": {"type": "box", "half_extent": [0.1, 0.1, 0.1]}}, "generators": [)" +
      generators + "]}";
  const Result<SceneDescription> scene = read_scene_text(text, "g.json");
  return scene.ok() ? "<no error>" : scene.error().message();
}

constexpr char k_million_grid[] = R"({"type": "grid", "name": "g", "shape": "crate",
    "counts": [1000, 1000, 1], "spacing": [1, 1, 1], "base": [0, 0, 0]})";

TEST(SceneTotals, AllGeneratorsTogetherMakeAtMostAMillionBodies) {
  EXPECT_EQ(read_error(R"({"type": "pile", "name": "p", "shape": "crate", "count": 2,
                           "min": [0, 0, 0], "max": [1, 1, 1]},)" +
                       std::string(k_million_grid)),
            "g.json: generators[1]: the generators make at most 1000000 bodies in all, this one "
            "would bring them to 1000002");
  // A ragdoll is 12 bodies.
  EXPECT_EQ(read_error(R"({"type": "ragdoll", "name": "r", "position": [0, 1, 0]},)" +
                       std::string(k_million_grid)),
            "g.json: generators[1]: the generators make at most 1000000 bodies in all, this one "
            "would bring them to 1000012");
  EXPECT_EQ(read_error(R"({"type": "stack", "name": "s", "shape": "crate", "count": 3,
                           "base": [0, 0, 0]},
                          {"type": "pyramid", "name": "p", "shape": "crate", "layers": 4,
                           "base": [5, 0, 0]})"),
            "<no error>");
}

std::string wave_mesh(const char* name, int cells) {
  return R"({"type": "wave_mesh", "name": ")" + std::string(name) +
         R"(", "motion": "static", "cells": )" + std::to_string(cells) +
         R"(, "cell_size": 0.5, "amplitude": 1, "frequency": 0.5, "base": [0, 0, 0]})";
}

TEST(SceneTotals, AllWaveMeshesTogetherMakeAtMostTwoMillionTriangles) {
  // 800² · 2 + 601² · 2 triangles.
  EXPECT_EQ(read_error(wave_mesh("a", 800) + "," + wave_mesh("b", 601)),
            "g.json: generators[1]: the wave meshes make at most 2000000 triangles in all, this "
            "one would bring them to 2002402");
  EXPECT_EQ(read_error(wave_mesh("a", 1) + "," + wave_mesh("b", 706) + "," + wave_mesh("c", 2)),
            "<no error>");
}

std::string soft_bodies(const std::string& list) { return R"({"soft_bodies": [)" + list + "]}"; }

std::string cloth(const char* name, int x, int z) {
  return R"({"name": ")" + std::string(name) +
         R"(", "type": "cloth", "center": [0, 5, 0], "resolution": [)" + std::to_string(x) + ", " +
         std::to_string(z) + "]}";
}

std::string rope(const char* name, int segments) {
  return R"({"name": ")" + std::string(name) +
         R"(", "type": "rope", "from": [0, 5, 0], "to": [1, 5, 0], "segments": )" +
         std::to_string(segments) + "}";
}

TEST(SceneTotals, AllSoftBodiesTogetherHoldAtMostAMillionVertices) {
  const auto error = [](const std::string& text) -> std::string {
    const Result<SceneDescription> scene = read_scene_text(text, "s.json");
    return scene.ok() ? "<no error>" : scene.error().message();
  };
  // Within its own bounds (resolution ≤ 4096 a side), one cloth is refused before it is made.
  EXPECT_EQ(error(soft_bodies(cloth("c", 4096, 4096))),
            "s.json: soft_bodies[0]: the soft bodies hold at most 1000000 vertices in all, this "
            "one would bring them to 16777216");
  // A rope of n segments has n + 1 vertices, a pressure ball of 5 subdivisions 10242, a cloth
  // of 1000 × 989 989000.
  EXPECT_EQ(error(soft_bodies(rope("r", 999) + "," +
                              R"({"name": "b", "type": "pressure_ball", "center": [0, 9, 0],
                                  "subdivisions": 5},)" +
                              cloth("c", 1000, 989))),
            "s.json: soft_bodies[2]: the soft bodies hold at most 1000000 vertices in all, this "
            "one would bring them to 1000242");
  EXPECT_EQ(error(soft_bodies(cloth("c", 10, 10) + "," + rope("r", 9))), "<no error>");

  // --set counts the soft body as changed, against the others, and a refused --set changes
  // nothing.
  Result<SceneDescription> scene =
      read_scene_text(soft_bodies(cloth("c", 10, 10) + "," + rope("r", 9)), "s.json");
  ASSERT_TRUE(scene.ok()) << scene.error().message();
  const SceneDescription before = scene.value();
  const Status refused = apply_override(scene.value(), "soft_bodies.c.resolution=[1000,1000]");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(std::string(refused.error().message()),
            "--set: soft_bodies.c.resolution: the soft bodies hold at most 1000000 vertices in "
            "all, this one would bring them to 1000010");
  EXPECT_TRUE(scene.value() == before);
  const Status taken = apply_override(scene.value(), "soft_bodies.c.resolution=[20,20]");
  EXPECT_TRUE(taken.ok()) << taken.error().message();
}

}  // namespace
}  // namespace scene_totals_test
}  // namespace atl
