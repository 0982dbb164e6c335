// The run summary as JSON.

#include <gtest/gtest.h>

#include <chrono>

#include "atoll/run/SceneWorld.h"

namespace atl {
namespace {

// Symptom: `atoll run --summary` was quadratic in the body count (50 000 bodies 3.9 s, 100 000
// 17.6 s, 200 000 about 48 s). Cause: each body was added with ordered_json's operator[], a
// linear search of the members so far. Fix: the members are appended to the map's vector (names
// are unique). After: 100 000 bodies take well under a second in release.
TEST(RunSummary, JsonIsLinearInTheBodyCount) {
  RunSummary summary;
  for (int i = 0; i < 100000; ++i)
    summary.bodies.emplace_back("body" + std::to_string(i), BodySnapshot{});
  const auto start = std::chrono::steady_clock::now();
  const std::string text = summary_to_json(summary);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 10.0);  // quadratic: about 17 s; linear: 1.7 s here, 3x that under asan
  EXPECT_NE(text.find("\"body99999\""), std::string::npos);
  EXPECT_LT(text.find("\"body0\""), text.find("\"body1\""));
}

}  // namespace
}  // namespace atl
