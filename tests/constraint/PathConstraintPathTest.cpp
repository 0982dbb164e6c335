// The Hermite path of the path constraint: it passes through its points with their tangents,
// its tangent is continuous across the points (and the loop's seam), closest_fraction finds
// the closest point (checked against a dense brute-force search), fractions wrap on a looping
// path and clamp on an open one, and bad points are refused naming the field.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "atoll/constraint/PathConstraintPath.h"

namespace atl {
namespace path_constraint_path_test {
namespace {

using Point = PathConstraintPathHermite::Point;

// n points on a horizontal circle of radius r (tangent = dp/df for a fraction per point).
PathConstraintPathHermite circle(int n, float r) {
  std::vector<Point> points;
  for (int i = 0; i < n; ++i) {
    const float a = k_two_pi * static_cast<float>(i) / static_cast<float>(n);
    const float rate = r * k_two_pi / static_cast<float>(n);
    points.push_back({Vec3(r * std::cos(a), 0.0f, r * std::sin(a)),
                      Vec3(-std::sin(a), 0.0f, std::cos(a)) * rate, Vec3(0.0f, 1.0f, 0.0f)});
  }
  return PathConstraintPathHermite(points, true);
}

// An open S-curve in the xz plane.
PathConstraintPathHermite s_curve() {
  const Vec3 up(0.0f, 1.0f, 0.0f);
  return PathConstraintPathHermite({{Vec3(0.0f, 0.0f, 0.0f), Vec3(2.0f, 0.0f, 0.0f), up},
                                    {Vec3(2.0f, 0.0f, 1.0f), Vec3(2.0f, 0.0f, 0.0f), up},
                                    {Vec3(4.0f, 0.0f, -1.0f), Vec3(2.0f, 0.0f, 0.0f), up},
                                    {Vec3(6.0f, 0.0f, 0.0f), Vec3(2.0f, 0.0f, 0.0f), up}},
                                   false);
}

// Brute force: the fraction of the closest of 20 000 samples per segment.
float brute_closest(const PathConstraintPath& path, const Vec3& x) {
  const int samples = static_cast<int>(path.max_fraction() * 20000.0f);
  float best = 0.0f, best_d = k_float_max;
  for (int i = 0; i <= samples; ++i) {
    const float f = path.max_fraction() * static_cast<float>(i) / static_cast<float>(samples);
    const float d = (path.frame(f).position - x).length_sq();
    if (d < best_d) {
      best_d = d;
      best = f;
    }
  }
  return best;
}

TEST(PathConstraintPathHermite, PassesThroughItsPointsWithAnOrthonormalFrame) {
  const PathConstraintPathHermite path = s_curve();
  ASSERT_TRUE(path.validate("path").ok());
  EXPECT_EQ(path.max_fraction(), 3.0f);
  EXPECT_FALSE(path.is_looping());
  for (size_t i = 0; i < path.points().size(); ++i) {
    const PathConstraintPath::Frame f = path.frame(static_cast<float>(i));
    EXPECT_LT((f.position - path.points()[i].position).length(), 1.0e-5f);
    EXPECT_LT((f.tangent - path.points()[i].tangent.normalized()).length(), 1.0e-5f);
    EXPECT_NEAR(f.speed, 2.0f, 1.0e-5f);
  }
  for (float x = 0.0f; x <= 3.0f; x += 0.05f) {
    const PathConstraintPath::Frame f = path.frame(x);
    EXPECT_NEAR(f.tangent.length(), 1.0f, 1.0e-5f);
    EXPECT_NEAR(f.normal.length(), 1.0f, 1.0e-5f);
    EXPECT_NEAR(f.tangent.dot(f.normal), 0.0f, 1.0e-5f);
    EXPECT_LT((f.binormal - f.tangent.cross(f.normal)).length(), 1.0e-5f);
  }
  // Open: fractions outside [0, 3] clamp to the ends.
  EXPECT_EQ(path.wrap_fraction(-1.0f), 0.0f);
  EXPECT_EQ(path.wrap_fraction(7.0f), 3.0f);
  EXPECT_EQ(path.fraction_delta(2.5f, 0.5f), -2.0f);
}

// The tangent is continuous at every point: 1e-5 of a fraction before and after agree to 1e-3
// (measured ≤ 9e-5: the S-curve's own turn over 2e-5 of a fraction), the loop's seam included;
// so are the position and the normal.
TEST(PathConstraintPathHermite, TangentIsContinuousAcrossPointsAndTheSeam) {
  const PathConstraintPathHermite loop = circle(8, 3.0f);
  ASSERT_TRUE(loop.validate("path").ok());
  EXPECT_EQ(loop.max_fraction(), 8.0f);
  constexpr float e = 1.0e-5f;
  float jump = 0.0f;
  for (int i = 0; i < 8; ++i) {
    const float x = static_cast<float>(i);
    const PathConstraintPath::Frame before = loop.frame(i == 0 ? 8.0f - e : x - e);
    const PathConstraintPath::Frame after = loop.frame(x + e);
    jump = std::max(jump, (before.tangent - after.tangent).length());
    EXPECT_LT((before.tangent - after.tangent).length(), 1.0e-3f) << i;
    EXPECT_LT((before.position - after.position).length(), 1.0e-3f) << i;
    EXPECT_LT((before.normal - after.normal).length(), 1.0e-3f) << i;
  }
  const PathConstraintPathHermite open = s_curve();
  for (int i = 1; i < 3; ++i) {
    const float x = static_cast<float>(i);
    jump = std::max(jump, (open.frame(x - e).tangent - open.frame(x + e).tangent).length());
    EXPECT_LT((open.frame(x - e).tangent - open.frame(x + e).tangent).length(), 1.0e-3f) << i;
  }
  std::printf("  [path] tangent jump across points: %g\n", jump);
  // Looping: fractions wrap, and the shorter way round is the delta.
  EXPECT_NEAR(loop.wrap_fraction(8.5f), 0.5f, 1.0e-6f);
  EXPECT_NEAR(loop.wrap_fraction(-0.5f), 7.5f, 1.0e-6f);
  EXPECT_NEAR(loop.fraction_delta(7.5f, 0.5f), 1.0f, 1.0e-6f);
  EXPECT_NEAR(loop.fraction_delta(0.5f, 7.5f), -1.0f, 1.0e-6f);
  // The 8-point Hermite circle stays within 0.2 % of the radius (measured 0.098 %: 2.9 mm).
  float worst = 0.0f;
  for (float x = 0.0f; x < 8.0f; x += 0.01f)
    worst = std::max(worst, std::fabs(loop.frame(x).position.length() - 3.0f));
  std::printf("  [path] circle radius error: %g m\n", worst);
  EXPECT_LT(worst, 0.006f);
}

// closest_fraction agrees with a brute-force search near the path (estimate = the brute
// answer ± 0.4 of a fraction), to 1e-3 of a fraction (measured 1.1e-4, the brute force's grid is
// 5e-5); past an open path's end it is the end.
TEST(PathConstraintPathHermite, ClosestFractionMatchesBruteForce) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> off(-0.3f, 0.3f);
  std::uniform_real_distribution<float> along(0.0f, 1.0f);
  std::uniform_real_distribution<float> jitter(-0.4f, 0.4f);
  const PathConstraintPathHermite loop = circle(8, 3.0f);
  const PathConstraintPathHermite open = s_curve();
  float worst = 0.0f;
  for (const PathConstraintPath* path : {static_cast<const PathConstraintPath*>(&loop),
                                         static_cast<const PathConstraintPath*>(&open)}) {
    for (int i = 0; i < 40; ++i) {
      const float f0 = along(rng) * path->max_fraction();
      // Braces: the three draws in order (parentheses leave their order to the compiler).
      const Vec3 x = path->frame(f0).position + Vec3{off(rng), off(rng), off(rng)};
      const float brute = brute_closest(*path, x);
      const float found = path->closest_fraction(x, brute + jitter(rng));
      const float error = std::fabs(path->fraction_delta(brute, found));
      worst = std::max(worst, error);
      EXPECT_LT(error, 1.0e-3f) << "f0 " << f0 << " brute " << brute << " found " << found;
      // Not farther than the brute-force point.
      EXPECT_LE((path->frame(found).position - x).length(),
                (path->frame(brute).position - x).length() + 1.0e-5f);
    }
  }
  std::printf("  [path] closest fraction error: %g\n", worst);
  EXPECT_EQ(open.closest_fraction(Vec3(7.0f, 0.5f, 0.0f), 2.8f), 3.0f);
  EXPECT_EQ(open.closest_fraction(Vec3(-1.0f, 0.0f, 0.2f), 0.1f), 0.0f);
}

TEST(PathConstraintPathHermite, BadPointsAreRefusedNamingTheField) {
  const Vec3 up(0.0f, 1.0f, 0.0f), x(1.0f, 0.0f, 0.0f);
  struct Case {
    std::vector<Point> points;
    const char* field;
  };
  const float nan = std::nanf("");
  const std::vector<Case> cases = {
      {{{Vec3(), x, up}}, "path.points: needs at least 2 points"},
      {{{Vec3(), x, up}, {Vec3(nan, 0.0f, 0.0f), x, up}}, "path.points[1].position"},
      {{{Vec3(), Vec3(), up}, {x, x, up}}, "path.points[0].tangent"},
      {{{Vec3(), x, up}, {x, x, Vec3()}}, "path.points[1].normal"},
      {{{Vec3(), x, x * 2.0f}, {x, x, up}}, "path.points[0].normal: must not be parallel"},
  };
  for (const Case& c : cases) {
    const Status s = PathConstraintPathHermite(c.points).validate("path");
    ASSERT_FALSE(s.ok()) << c.field;
    EXPECT_NE(std::string(s.error().message()).find(c.field), std::string::npos)
        << s.error().message();
  }
}

}  // namespace
}  // namespace path_constraint_path_test
}  // namespace atl
