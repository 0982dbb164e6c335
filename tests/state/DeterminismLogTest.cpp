// The determinism log (state/DeterminismLog.h): its lines, and first_difference naming the
// first step and stage where two logs part, where one ends first, and a line that is not a log
// line.

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "atoll/state/DeterminismLog.h"

namespace atl {
namespace determinism_log_test {

std::string log_of(std::initializer_list<uint64_t> hashes) {
  std::ostringstream out;
  DeterminismLogWriter writer(out);
  uint64_t step = 0;
  for (uint64_t hash : hashes) writer.on_stage(step++, 0, "narrow_phase", hash);
  return out.str();
}

std::optional<std::string> diff(const std::string& a, const std::string& b) {
  std::istringstream in_a(a), in_b(b);
  Result<std::optional<std::string>> d = first_difference(in_a, "A", in_b, "B");
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().message());
  return d.ok() ? *d : std::optional<std::string>("error");
}

TEST(DeterminismLog, LinesAreStepCollisionStepStageAndSixteenHexDigits) {
  std::ostringstream out;
  DeterminismLogWriter writer(out);
  writer.on_stage(12, 1, "solve_velocity", 0xabcull);
  EXPECT_EQ(out.str(), "12 1 solve_velocity 0000000000000abc\n");
}

TEST(DeterminismLog, IdenticalLogsHaveNoDifference) {
  EXPECT_EQ(diff(log_of({1, 2, 3}), log_of({1, 2, 3})), std::nullopt);
}

TEST(DeterminismLog, TheFirstDifferentLineIsNamed) {
  EXPECT_EQ(diff(log_of({1, 2, 3, 4}), log_of({1, 2, 9, 8})),
            "step 2, collision step 0, stage narrow_phase: A has 0000000000000003, B has "
            "0000000000000009");
}

TEST(DeterminismLog, ALogThatEndsFirstIsNamed) {
  EXPECT_EQ(diff(log_of({1, 2, 3}), log_of({1, 2})),
            "B ends before step 2, collision step 0, stage narrow_phase");
  EXPECT_EQ(diff(log_of({1}), log_of({1, 2})),
            "A ends before step 1, collision step 0, stage narrow_phase");
}

TEST(DeterminismLog, ALineThatIsNotALogLineIsAnError) {
  std::istringstream a(log_of({1})), b("0 0 narrow_phase 12345\n");
  const Result<std::optional<std::string>> d = first_difference(a, "A", b, "B.log");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(std::string(d.error().message()).rfind("B.log line 1: not a determinism log line", 0),
            0u)
      << d.error().message();
}

TEST(DeterminismLog, TheHashingStreamHashesWhatItIsShown) {
  HashingStateStream a, b, c;
  float x = 1.0f, y = -0.0f, z = 0.0f;
  a.floats("x", &x, 1);
  b.floats("x", &x, 1);
  EXPECT_EQ(a.hash(), b.hash());
  a.floats("y", &y, 1);
  b.floats("z", &z, 1);
  EXPECT_NE(a.hash(), b.hash());  // -0 and +0 differ, as the saved state's bits do
  EXPECT_NE(c.hash(), a.hash());
}

}  // namespace determinism_log_test
}  // namespace atl
