// The run summary as JSON.

#include <gtest/gtest.h>

#include <string>

#include "atoll/run/SceneWorld.h"

namespace atl {
namespace run_summary_test {
namespace {

// Symptom: `atoll run --summary` was quadratic in the body count (50 000 bodies 3.9 s, 100 000
// 17.6 s, 200 000 about 48 s). Cause: each body was added with ordered_json's operator[], a
// linear search of the members so far. Fix: the members are appended to the map's vector (names
// are unique). The time it takes is measured by bench/RunSummaryBench.cpp (its complexity fit
// is O(N)), not here: a timed assertion failed on a loaded machine. This checks what the fix
// must keep: every body is there, in order.
TEST(RunSummary, JsonHoldsEveryBodyInOrder) {
  RunSummary summary;
  for (int i = 0; i < 40000; ++i)
    summary.bodies.emplace_back("body" + std::to_string(i), BodySnapshot{});
  const std::string text = summary_to_json(summary);
  EXPECT_NE(text.find("\"body39999\""), std::string::npos);
  EXPECT_LT(text.find("\"body0\""), text.find("\"body1\""));
  EXPECT_LT(text.find("\"body39998\""), text.find("\"body39999\""));
}

}  // namespace
}  // namespace run_summary_test
}  // namespace atl
