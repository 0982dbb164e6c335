// Regression (found by tests/fuzz's api_calls target): sin_cos took the octant of its argument
// as static_cast<int>(4/π · |x|), undefined behaviour from |x| ≈ 1.7e9 on (an integer overflow
// the undefined-behaviour sanitizer reports; on x86 it gave INT_MIN and results far outside
// [-1, 1]). A body spinning under a huge max_angular_velocity turns by such angles in a step.
// Huge arguments are now reduced modulo 2π first; NaN and ±∞ give NaN.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "atoll/math/Math.h"

namespace atl {
namespace sin_cos_huge_argument_test {

TEST(SinCosHugeArgument, HugeFiniteArgumentsGiveAUnitPair) {
  for (float x : {2.0e9f, -2.0e9f, 1.0e10f, 3.0e19f, -1.0e30f, std::numeric_limits<float>::max()}) {
    float s = 0.0f, c = 0.0f;
    sin_cos(x, s, c);
    EXPECT_LE(std::fabs(s), 1.0f) << x;
    EXPECT_LE(std::fabs(c), 1.0f) << x;
    EXPECT_NEAR(s * s + c * c, 1.0f, 1.0e-5f) << x;
  }
}

TEST(SinCosHugeArgument, NonFiniteArgumentsGiveNaN) {
  for (float x : {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                  std::numeric_limits<float>::quiet_NaN()}) {
    float s = 0.0f, c = 0.0f;
    sin_cos(x, s, c);
    EXPECT_TRUE(std::isnan(s)) << x;
    EXPECT_TRUE(std::isnan(c)) << x;
  }
}

TEST(SinCosHugeArgument, ArgumentsBelowTheLimitAreUnchanged) {
  // The reduction modulo 2π applies from 1e9 on only; below it the result is the usual one.
  float s = 0.0f, c = 0.0f;
  sin_cos(1000.0f, s, c);
  EXPECT_NEAR(s, std::sin(1000.0f), 1.0e-4f);
  EXPECT_NEAR(c, std::cos(1000.0f), 1.0e-4f);
}

}  // namespace sin_cos_huge_argument_test
}  // namespace atl
