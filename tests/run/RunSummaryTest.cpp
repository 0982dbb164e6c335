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
// Checked as a ratio, not against a clock limit: four times the bodies takes about four times as
// long when linear and sixteen times when quadratic, however fast or loaded the machine (a limit
// of 10 s failed under AddressSanitizer on a busy machine). Each time is the best of three.
TEST(RunSummary, JsonIsLinearInTheBodyCount) {
  const auto seconds_for = [](int count, std::string& text) {
    RunSummary summary;
    for (int i = 0; i < count; ++i)
      summary.bodies.emplace_back("body" + std::to_string(i), BodySnapshot{});
    double best = 1.0e30;
    for (int run = 0; run < 3; ++run) {
      const auto start = std::chrono::steady_clock::now();
      text = summary_to_json(summary);
      best = std::min(
          best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
  };
  std::string small_text;
  std::string text;
  const double small = seconds_for(10000, small_text);
  const double large = seconds_for(40000, text);
  EXPECT_LT(large, 9.0 * small);  // linear: about 4x (4.1–5.0 here); quadratic: about 16x
  EXPECT_NE(text.find("\"body39999\""), std::string::npos);
  EXPECT_LT(text.find("\"body0\""), text.find("\"body1\""));
}

}  // namespace
}  // namespace atl
