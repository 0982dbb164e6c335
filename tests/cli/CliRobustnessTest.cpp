// The robustness script of issue 7 (items 18-20): hostile scene files, generated here into a
// temporary directory (the large ones are never committed), fed to the built `atoll`. Each must
// exit 2 with one bounded line on stderr, write no output file and not crash. Before the fixes:
// 100 000 nested arrays and 10 000 nested rotated_translated shapes died of signal 11 (the
// latter after taking 1.5 GB), a 1e38 box at x = 3e38 aborted (ATOLL_ASSERT in
// PhysicsSystem.cpp:92), a 10 MB unknown key gave a 10 MB error line, and gravity -1e30, a
// dynamic mesh, move_kinematic on a dynamic body and density 1e-40 were accepted.

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli/CliRun.h"

namespace cli_robustness_test {
namespace {

namespace fs = std::filesystem;

using atl::cli_test::Outcome;
using atl::cli_test::run_atoll;

std::string repeat(const std::string& text, size_t times) {
  std::string out;
  out.reserve(text.size() * times);
  for (size_t i = 0; i < times; ++i) out += text;
  return out;
}

const std::string k_floor =
    R"({"name": "floor", "shape": {"type": "box", "half_extent": [10, 1, 10]},
        "position": [0, -1, 0], "motion": "static"})";

std::string nested_shape(const std::string& open, const std::string& close, size_t depth) {
  return R"({"bodies": [{"name": "a", "shape": )" + repeat(open, depth) +
         R"({"type": "sphere", "radius": 1})" + repeat(close, depth) + "}]}";
}

struct Hostile {
  std::string name;
  std::string text;
};

std::vector<Hostile> hostile_files() {
  return {
      {"nested_arrays", repeat("[", 100000) + repeat("]", 100000)},
      {"nested_objects", repeat("{\"a\": ", 100000) + "1" + repeat("}", 100000)},
      {"nested_rotated_translated",
       nested_shape(R"({"type": "rotated_translated", "shape": )", "}", 10000)},
      {"nested_compound",
       nested_shape(R"({"type": "compound", "children": [{"shape": )", "}]}", 10000)},
      {"huge_unknown_key", "{\"" + std::string(10 << 20, 'k') + "\": 1}"},
      {"huge_bad_token", "{\"bodies\": [" + std::string(1 << 20, 'x') + "]}"},
      {"huge_string_value",
       R"({"settings": {"velocity_steps": ")" + std::string(1 << 20, 'v') + "\"}}"},
      {"huge_body_name",
       R"({"bodies": [{"name": ")" + std::string(1 << 20, 'n') + R"(", "shape": "nothing"}]})"},
      {"huge_box_far_away",
       R"({"bodies": [{"name": "a", "motion": "static", "position": [3e38, 0, 0],
           "shape": {"type": "box", "half_extent": [1e38, 1e38, 1e38]}}]})"},
      {"huge_box_at_origin",
       R"({"bodies": [{"name": "a", "motion": "static",
           "shape": {"type": "box", "half_extent": [1e38, 1e38, 1e38]}}]})"},
      {"gravity_1e30", R"({"settings": {"gravity": [0, -1e30, 0]}, "bodies": [)" + k_floor + "]}"},
      {"dynamic_mesh", R"({"bodies": [)" + k_floor +
                           R"(, {"name": "m", "mass": 5, "position": [0, 2, 0], "shape":
           {"type": "mesh", "vertices": [[0,0,0],[1,0,0],[0,0,1]], "triangles": [[0,1,2]]}}]})"},
      {"move_dynamic", R"({"bodies": [)" + k_floor +
                           R"(, {"name": "c", "position": [0, 2, 0],
           "shape": {"type": "box", "half_extent": [0.5, 0.5, 0.5]}}],
           "events": [{"step": 3, "action": "move_kinematic", "body": "c",
                       "position": [0, 0, 0]}]})"},
      {"density_1e-40", R"({"bodies": [)" + k_floor +
                            R"(, {"name": "c", "position": [0, 2, 0], "shape":
           {"type": "box", "half_extent": [0.5, 0.5, 0.5], "density": 1e-40}}]})"},
      {"position_event_far", R"({"bodies": [)" + k_floor +
                                 R"(, {"name": "c", "motion": "kinematic", "position": [0, 2, 0],
           "shape": {"type": "sphere", "radius": 1}}],
           "events": [{"step": 1, "action": "move_kinematic", "body": "c",
                       "position": [1e30, 0, 0]}]})"},
  };
}

TEST(CliRobustness, HostileFilesExitTwoWithOneBoundedLineAndWriteNothing) {
  const fs::path dir = fs::temp_directory_path() / "atoll_cli_robustness";
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const Hostile& hostile : hostile_files()) {
    SCOPED_TRACE(hostile.name);
    const fs::path scene = dir / (hostile.name + ".json");
    std::ofstream(scene, std::ios::binary) << hostile.text;
    const fs::path out = dir / "out";
    const Outcome outcome =
        run_atoll("run " + scene.string() + " --quiet --steps 20 --summary " + out.string() +
                  ".json --trace " + out.string() + ".csv --record " + out.string() + ".rec");
    EXPECT_TRUE(outcome.exited) << "killed by a signal";
    EXPECT_EQ(outcome.status, 2) << outcome.output.substr(0, 500);
    ASSERT_FALSE(outcome.output.empty());
    EXPECT_EQ(outcome.output.find('\n'), outcome.output.size() - 1) << "one line";
    EXPECT_LE(outcome.output.size(), 600u) << outcome.output.substr(0, 500);
    EXPECT_EQ(outcome.output.rfind("atoll: " + scene.string() + ": ", 0), 0u) << outcome.output;
    for (const char* extension : {".json", ".csv", ".rec", ".rec.partial"})
      EXPECT_FALSE(fs::exists(out.string() + extension)) << extension;
    fs::remove(scene);
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cli_robustness_test
