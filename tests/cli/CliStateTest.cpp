// `atoll run --save-state-at STEP FILE`, `--restore-state FILE` and `--validate` (issue 10 item
// 5, docs/state-format.md): a run restored from a state saved at step 60 ends with the same
// hash as the uninterrupted run, the demo's steps all repeat to the bit, and a state that does
// not fit the scene, a truncated one, or a step outside the run exit 2 with one line and write
// nothing.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "TestDirectory.h"
#include "cli/CliRun.h"

namespace cli_state_test {

namespace fs = std::filesystem;
using atl::cli_test::Outcome;
using atl::cli_test::run_atoll;

class CliState : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string hash_of(const std::string& summary) const {
    return nlohmann::json::parse(std::ifstream(summary))["state_hash"].get<std::string>();
  }
  atl::test::TestDirectory dir_{"atoll_cli_state"};
};

TEST_F(CliState, ARestoredRunEndsAsTheUninterruptedOne) {
  for (const char* scene : {"ragdolls", "bullets"}) {
    const std::string name(scene);
    Outcome out = run_atoll("run " + name + " --quiet --steps 100 --save-state-at 60 " +
                            path(name + ".state") + " --summary " + path(name + "_full.json"));
    ASSERT_EQ(out.status, 0) << out.output;
    ASSERT_TRUE(fs::exists(path(name + ".state")));
    out = run_atoll("run " + name + " --quiet --steps 40 --restore-state " + path(name + ".state") +
                    " --summary " + path(name + "_rest.json"));
    ASSERT_EQ(out.status, 0) << out.output;
    EXPECT_EQ(hash_of(path(name + "_rest.json")), hash_of(path(name + "_full.json"))) << scene;
    const auto rest = nlohmann::json::parse(std::ifstream(path(name + "_rest.json")));
    EXPECT_EQ(rest["steps"], 40);
  }
}

TEST_F(CliState, ValidateRepeatsEveryStepToTheBit) {
  const Outcome out = run_atoll("run ragdolls --quiet --steps 30 --validate --threads 2");
  EXPECT_EQ(out.status, 0) << out.output;
}

TEST_F(CliState, DetlogsOfTwoThreadCountsAreIdenticalAndAChangedSettingIsFound) {
  for (const char* threads : {"1", "3"}) {
    const Outcome out = run_atoll(std::string("run ragdolls --quiet --steps 20 --threads ") +
                                  threads + " --detlog " + path(std::string("t") + threads));
    ASSERT_EQ(out.status, 0) << out.output;
  }
  Outcome out = run_atoll("detlog-diff " + path("t1") + " " + path("t3"));
  EXPECT_EQ(out.status, 0) << out.output;
  EXPECT_EQ(out.output, "identical\n");
  out =
      run_atoll("run ragdolls --quiet --steps 20 --set 'gravity=[0,-9,0]' --detlog " + path("g9"));
  ASSERT_EQ(out.status, 0) << out.output;
  out = run_atoll("detlog-diff " + path("t1") + " " + path("g9"));
  EXPECT_EQ(out.status, 1) << out.output;
  EXPECT_EQ(out.output.rfind("first difference: step 0, collision step 0, stage apply_forces: ", 0),
            0u)
      << out.output;
  out = run_atoll("detlog-diff " + path("t1") + " " + path("nothing"));
  EXPECT_EQ(out.status, 2) << out.output;
}

TEST_F(CliState, AStateThatDoesNotFitExitsTwoAndWritesNothing) {
  Outcome out =
      run_atoll("run ragdolls --quiet --steps 5 --save-state-at 5 " + path("ragdolls.state"));
  ASSERT_EQ(out.status, 0) << out.output;

  out = run_atoll("run demo --quiet --steps 5 --restore-state " + path("ragdolls.state") +
                  " --summary " + path("s.json"));
  EXPECT_EQ(out.status, 2);
  EXPECT_EQ(out.output.rfind("atoll: --restore-state " + path("ragdolls.state") + ": state: ", 0),
            0u)
      << out.output;
  EXPECT_EQ(std::count(out.output.begin(), out.output.end(), '\n'), 1) << out.output;
  EXPECT_FALSE(fs::exists(path("s.json")));

  {
    std::ifstream in(path("ragdolls.state"), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    bytes.resize(bytes.size() / 2);
    std::ofstream(path("half.state"), std::ios::binary) << bytes;
  }
  out = run_atoll("run ragdolls --quiet --steps 5 --restore-state " + path("half.state") +
                  " --summary " + path("s.json"));
  EXPECT_EQ(out.status, 2);
  EXPECT_NE(out.output.find("truncated"), std::string::npos) << out.output;
  EXPECT_FALSE(fs::exists(path("s.json")));

  out = run_atoll("run ragdolls --quiet --steps 5 --restore-state " + path("missing.state"));
  EXPECT_EQ(out.status, 2);
  EXPECT_NE(out.output.find("--restore-state"), std::string::npos) << out.output;

  out = run_atoll("run ragdolls --quiet --steps 5 --save-state-at 9 " + path("late.state"));
  EXPECT_EQ(out.status, 2);
  EXPECT_NE(out.output.find("--save-state-at: STEP must be a step of this run, in [0, 5]"),
            std::string::npos)
      << out.output;
  EXPECT_FALSE(fs::exists(path("late.state")));
}

}  // namespace cli_state_test
