// Drives the `atoll` program as a user would: the demo run is reproducible, and every kind of
// bad input exits with status 2, prints one line naming the file, the JSON path and the
// problem, and writes no output file.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

namespace fs = std::filesystem;

struct Outcome {
  int status = -1;
  std::string output;  // stdout and stderr
};

Outcome run_atoll(const std::string& arguments) {
  const std::string command = std::string(ATOLL_CLI_PATH) + " " + arguments + " 2>&1";
  Outcome outcome;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return outcome;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) outcome.output.append(buffer, n);
  const int raw = pclose(pipe);
  outcome.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return outcome;
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("atoll_cli_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(CliTest, DemoRunIsReproducible) {
  const Outcome first = run_atoll("run --quiet --summary " + path("a.json"));
  const Outcome second = run_atoll("run --quiet --summary " + path("b.json"));
  ASSERT_EQ(first.status, 0) << first.output;
  ASSERT_EQ(second.status, 0) << second.output;
  const auto a = nlohmann::json::parse(std::ifstream(path("a.json")));
  const auto b = nlohmann::json::parse(std::ifstream(path("b.json")));
  EXPECT_EQ(a["state_hash"], b["state_hash"]);
  EXPECT_EQ(a["state_hash"].get<std::string>().size(), 16u);
  EXPECT_EQ(a["steps"], 600);
  for (const char* key : {"dt", "threads", "wall_ms_per_step", "max_penetration_m", "bodies",
                          "active_bodies", "first_all_asleep_step"})
    EXPECT_TRUE(a.contains(key)) << key;
  EXPECT_EQ(a["active_bodies"].size(), 600u);
  EXPECT_TRUE(a["bodies"].contains("floor"));
}

TEST_F(CliTest, TraceHasOneRowPerTracedBodyPerStep) {
  const Outcome out =
      run_atoll("run tower10 --quiet --steps 5 --trace " + path("t.csv") + " --trace-bodies b0,b9");
  ASSERT_EQ(out.status, 0) << out.output;
  std::ifstream trace(path("t.csv"));
  std::string line;
  std::getline(trace, line);
  EXPECT_EQ(line, "step,body,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz,active");
  int rows = 0;
  while (std::getline(trace, line)) ++rows;
  EXPECT_EQ(rows, 10);
}

TEST_F(CliTest, SetOverridesSettingsAndBodies) {
  const Outcome out = run_atoll(
      "run tower10 --quiet --steps 30 --set gravity=[0,0,0] --set "
      "bodies.b9.linear_velocity=[1,0,0] --summary " +
      path("s.json"));
  ASSERT_EQ(out.status, 0) << out.output;
  const auto s = nlohmann::json::parse(std::ifstream(path("s.json")));
  // No gravity: the top box keeps flying sideways at (almost) 1 m/s.
  EXPECT_GT(s["bodies"]["b9"]["position"][0].get<double>(), 0.4);
}

TEST_F(CliTest, SummaryTimesTheCcdStageAndTheBulletsStayInFrontOfThePlate) {
  const Outcome out = run_atoll("run bullets --quiet --summary " + path("s.json"));
  ASSERT_EQ(out.status, 0) << out.output;
  const auto s = nlohmann::json::parse(std::ifstream(path("s.json")));
  ASSERT_TRUE(s["stage_ms"].contains("ccd"));
  EXPECT_GT(s["stage_ms"]["ccd"].get<double>(), 0.0);
  EXPECT_EQ(s["probes"]["plate"]["crossed"], 0);
  // The same scene with one sphere discrete: exactly that one crosses.
  const Outcome discrete = run_atoll(
      "run bullets --quiet --set bodies.s7.motion_quality=discrete "
      "--summary " +
      path("d.json"));
  ASSERT_EQ(discrete.status, 0) << discrete.output;
  const auto d = nlohmann::json::parse(std::ifstream(path("d.json")));
  EXPECT_EQ(d["probes"]["plate"]["crossed"], 1);
  EXPECT_GT(d["bodies"]["s7"]["position"][0].get<double>(), 1.0);
}

struct BadInput {
  const char* name;
  const char* json;
  const char* expected;  // the whole message after "atoll: FILE: "
};

class CliBadInputTest : public CliTest, public ::testing::WithParamInterface<BadInput> {};

TEST_P(CliBadInputTest, ExitsTwoWithOneLineAndWritesNothing) {
  const BadInput& input = GetParam();
  const std::string file = write(std::string(input.name) + ".json", input.json);
  const Outcome out = run_atoll("run " + file + " --quiet --summary " + path("out.json") +
                                " --trace " + path("out.csv"));
  EXPECT_EQ(out.status, 2);
  EXPECT_EQ(out.output, "atoll: " + file + ": " + input.expected + "\n");
  EXPECT_FALSE(fs::exists(path("out.json")));
  EXPECT_FALSE(fs::exists(path("out.csv")));
}

INSTANTIATE_TEST_SUITE_P(
    Scenes, CliBadInputTest,
    ::testing::Values(
        BadInput{"syntax", R"({"bodies": [ {"name": "a", })",
                 "line 1, column 28: syntax error: while parsing object key - unexpected '}'; "
                 "expected string literal"},
        BadInput{"unknown_key", R"({"bodies": [], "frobnicate": 1})", "frobnicate: unknown key"},
        BadInput{"wrong_type", R"({"settings": {"velocity_steps": "ten"}})",
                 "settings.velocity_steps: expected an integer, got \"ten\""},
        BadInput{
            "not_finite",
            R"({"bodies": [{"name":"b","shape":{"type":"sphere","radius":1e999},"position":[0,0,0]}]})",
            "bodies[0].shape.radius: must be a finite float, got 1e999"},
        BadInput{
            "negative_mass",
            R"({"bodies": [{"name":"b","shape":{"type":"sphere","radius":1},"position":[0,0,0],"mass":-1}]})",
            "bodies[0].mass: must be > 0, got -1"},
        BadInput{
            "zero_extent",
            R"({"bodies": [{"name":"b","shape":{"type":"box","half_extent":[1,0,1]},"position":[0,0,0]}]})",
            "bodies[0].shape.half_extent[1]: must be > 0, got 0"},
        BadInput{
            "unknown_body",
            R"({"bodies": [{"name":"b","shape":{"type":"sphere","radius":1},"position":[0,0,0]}],
                     "events": [{"step": 1, "action": "activate", "body": "nobody"}]})",
            "events[0].body: unknown body \"nobody\""},
        BadInput{"unknown_shape",
                 R"({"bodies": [{"name":"b","shape":"crate","position":[0,0,0]}]})",
                 "bodies[0].shape: unknown shape \"crate\""}),
    [](const ::testing::TestParamInfo<BadInput>& info) { return std::string(info.param.name); });

TEST_F(CliTest, BadCommandLineExitsTwoAndWritesNothing) {
  Outcome out = run_atoll("run no_such_scene --quiet --summary " + path("out.json"));
  EXPECT_EQ(out.status, 2);
  EXPECT_EQ(out.output,
            "atoll: no_such_scene: no such scene file or built-in scene (built-ins: bullets, "
            "demo, highspeed, pyramid, tower10)\n");
  out = run_atoll("run tower10 --quiet --set velocity_steps=0 --summary " + path("out.json"));
  EXPECT_EQ(out.status, 2);
  EXPECT_EQ(out.output, "atoll: --set: velocity_steps: must be >= 1, got 0\n");
  out = run_atoll("run --quiet --set bodies.zz.friction=1 --summary " + path("out.json"));
  EXPECT_EQ(out.status, 2);
  EXPECT_EQ(out.output, "atoll: --set: bodies.zz.friction: unknown body \"zz\"\n");
  EXPECT_FALSE(fs::exists(path("out.json")));
}

TEST_F(CliTest, InfoAndBenchRun) {
  Outcome out = run_atoll("info");
  EXPECT_EQ(out.status, 0);
  EXPECT_NE(out.output.find("simd: "), std::string::npos);
  out = run_atoll("bench --scene tower10 --steps 10");
  EXPECT_EQ(out.status, 0) << out.output;
  EXPECT_NE(out.output.find("steps/s"), std::string::npos);
  EXPECT_NE(out.output.find("state hash"), std::string::npos);
  out = run_atoll("bench --scene highspeed --steps 2");
  EXPECT_EQ(out.status, 0) << out.output;
  EXPECT_NE(out.output.find("5006 bodies"), std::string::npos) << out.output;
}

}  // namespace
