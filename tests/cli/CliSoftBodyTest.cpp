// Soft bodies through the `atoll` program (issue 11 item 4): a scene with soft bodies runs and
// summarizes them, `--set soft_bodies.NAME.FIELD` changes the run, `bench` counts them, and bad
// soft-body input exits 2 with one line naming the JSON path and writes nothing (those cases are
// CliTest's bad-input list).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "TestDirectory.h"
#include "cli/CliRun.h"

namespace cli_soft_body_test {

namespace fs = std::filesystem;

using atl::cli_test::Outcome;
using atl::cli_test::run_atoll;

constexpr const char* k_scene = R"({
  "settings": { "steps": 120 },
  "bodies": [
    { "name": "floor", "shape": { "type": "box", "half_extent": [5, 0.5, 5] },
      "position": [0, -0.5, 0], "motion": "static" },
    { "name": "crate", "shape": { "type": "box", "half_extent": [0.2, 0.2, 0.2] },
      "position": [1, 0.2, 0] }
  ],
  "soft_bodies": [
    { "name": "rope", "type": "rope", "from": [-1, 2, 0], "to": [1, 0.4, 0], "segments": 10,
      "mass": 0.5, "compliance": 1e-5, "pinned": "first",
      "attach": [ { "vertex": "last", "body": "crate" } ] },
    { "name": "sheet", "type": "cloth", "center": [-1, 0.5, 1], "size": [1, 1],
      "resolution": [8, 8], "mass": 0.2 }
  ]
})";

class CliSoftBodyTest : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  nlohmann::json summary(const std::string& name) {
    std::ifstream file(path(name));
    return nlohmann::json::parse(file);
  }
  atl::test::TestDirectory dir_{"atoll_cli_soft"};
};

TEST_F(CliSoftBodyTest, RunSummarizesEverySoftBody) {
  const std::string scene = write("soft.json", k_scene);
  const Outcome out = run_atoll("run " + scene + " --quiet --summary " + path("s.json"));
  ASSERT_EQ(out.status, 0) << out.output;
  const nlohmann::json s = summary("s.json");
  ASSERT_TRUE(s.contains("soft_bodies"));
  const nlohmann::json& rope = s["soft_bodies"]["rope"];
  EXPECT_EQ(rope["vertex_count"], 11);
  EXPECT_EQ(rope["center_of_mass"].size(), 3u);
  EXPECT_EQ(rope["bounds"].size(), 2u);
  EXPECT_EQ(rope["bounds"][0][0].get<double>(), -1.0) << "the pinned end stays";
  EXPECT_GE(rope["max_strain"].get<double>(), 0.0);
  EXPECT_EQ(rope["volume"].get<double>(), 0.0);
  // The cloth lies on the floor: its vertices rest about a radius (0.02 m) above it.
  const nlohmann::json& sheet = s["soft_bodies"]["sheet"];
  EXPECT_EQ(sheet["vertex_count"], 64);
  EXPECT_NEAR(sheet["lowest_vertex_clearance"].get<double>(), 0.02, 0.005);
  EXPECT_NEAR(sheet["bounds"][0][1].get<double>(), 0.02, 0.005);
}

TEST_F(CliSoftBodyTest, SetChangesASoftBodyAndABadSetWritesNothing) {
  const std::string scene = write("soft.json", k_scene);
  const Outcome stiff = run_atoll("run " + scene + " --quiet --summary " + path("a.json"));
  const Outcome soft = run_atoll("run " + scene + " --quiet --summary " + path("b.json") +
                                 " --set soft_bodies.rope.compliance=1e-2");
  ASSERT_EQ(stiff.status, 0) << stiff.output;
  ASSERT_EQ(soft.status, 0) << soft.output;
  EXPECT_GT(summary("b.json")["soft_bodies"]["rope"]["max_strain"].get<double>(),
            summary("a.json")["soft_bodies"]["rope"]["max_strain"].get<double>());
  EXPECT_NE(summary("a.json")["state_hash"], summary("b.json")["state_hash"]);

  const Outcome bad = run_atoll("run " + scene + " --quiet --summary " + path("c.json") +
                                " --set soft_bodies.rope.pinned=[12]");
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.output,
            "atoll: --set: soft_bodies.rope.pinned[0]: vertex 12 out of range (11 vertices)\n");
  EXPECT_FALSE(fs::exists(path("c.json")));
}

TEST_F(CliSoftBodyTest, BenchCountsSoftBodiesApart) {
  const std::string scene = write("soft.json", k_scene);
  const Outcome out = run_atoll("bench --scene " + scene + " --steps 5");
  ASSERT_EQ(out.status, 0) << out.output;
  EXPECT_NE(out.output.find(": 2 bodies, 2 soft bodies, 5 steps, threads 1: "), std::string::npos)
      << out.output;
}

}  // namespace cli_soft_body_test
