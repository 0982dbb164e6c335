// Each generator makes at most a million bodies, and now so do all of a scene's generators
// together: ten grids of 1000 × 1000 × 1, a few hundred bytes of JSON, asked for ten million
// bodies (a million take about 1 GB to run). The sum is checked before a generator makes any
// body, and the error names the generator that would pass it.

#include <gtest/gtest.h>

#include <string>

#include "atoll/scene/SceneReader.h"

namespace atl {
namespace scene_generator_total_test {
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

TEST(SceneGeneratorTotal, AllGeneratorsTogetherMakeAtMostAMillionBodies) {
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

}  // namespace
}  // namespace scene_generator_total_test
}  // namespace atl
