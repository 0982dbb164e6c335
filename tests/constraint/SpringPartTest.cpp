// SpringPart through AxisConstraintPart: the three spring modes (LAWS.md D3 at the part
// level). A body on a soft axis row starts 0.2 m from rest and is released; frequency and
// mass-normalized stiffness give the same motion for 1, 10 and 100 kg, absolute stiffness does
// not; a frequency of 0 is hard.

#include "atoll/constraint/parts/SpringPart.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "PartTestBodies.h"
#include "atoll/constraint/parts/AxisConstraintPart.h"

namespace atl {
namespace spring_part_test {
namespace {

constexpr float k_dt = 1.0f / 60.0f;

// Positions (m, from rest) over `steps` steps of a body of `mass` kg on a spring row of `spring`.
std::vector<float> release(float mass, const SpringSettings& spring, int steps = 180) {
  SolverBody ground = test::static_body();
  SolverBody body = test::ball(mass, mass, Vec3(1.2f, 0.0f, 0.0f));
  const Vec3 axis = Vec3::axis_x();
  AxisConstraintPart part;
  std::vector<float> x;
  for (int step = 0; step < steps; ++step) {
    const float c = body.com_position.x() - 1.0f;
    part.calculate_constraint_properties_for_limit(k_dt, ground, Vec3(), body, Vec3(), axis, 0.0f,
                                                   c, spring);
    part.warm_start(ground, body, 1.0f);
    for (int i = 0; i < 4; ++i) part.solve_velocity_constraint(ground, body, axis);
    test::integrate(body, k_dt);
    x.push_back(body.com_position.x() - 1.0f);
  }
  return x;
}

float max_difference(const std::vector<float>& a, const std::vector<float>& b) {
  float d = 0.0f;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, std::fabs(a[i] - b[i]));
  return d;
}

// First step after which |x| stays below 1 mm.
int settle_step(const std::vector<float>& x) {
  int last = -1;
  for (size_t i = 0; i < x.size(); ++i)
    if (std::fabs(x[i]) >= 1.0e-3f) last = static_cast<int>(i);
  return last + 1;
}

TEST(SpringPart, FrequencyAndMassNormalizedModesMoveTheSameForAnyMass) {
  const float omega = k_two_pi * 2.0f;
  const float zeta = 0.3f;
  const SpringSettings frequency = SpringSettings::frequency_and_damping(2.0f, zeta);
  const SpringSettings normalized =
      SpringSettings::mass_normalized_stiffness_and_damping(omega * omega, 2.0f * zeta * omega);
  const std::vector<float> reference = release(1.0f, frequency);
  // It is a spring: it overshoots rest (under-damped) and settles.
  EXPECT_LT(*std::min_element(reference.begin(), reference.end()), -0.01f);
  EXPECT_LT(settle_step(reference), 120);
  for (float mass : {1.0f, 10.0f, 100.0f}) {
    EXPECT_LT(max_difference(release(mass, frequency), reference), 2.0e-6f) << mass << " kg";
    EXPECT_LT(max_difference(release(mass, normalized), reference), 2.0e-6f) << mass << " kg";
  }
}

TEST(SpringPart, AbsoluteStiffnessDependsOnMass) {
  // k = 100 N/m, c = 20 N·s/m: ω = 10, 3.2, 1 rad/s and damping ratio 1, 0.32, 0.1 for 1, 10,
  // 100 kg — the heavier, the slower and the less damped (Jolt: 33 → 263 → > 901 steps).
  const SpringSettings stiffness = SpringSettings::stiffness_and_damping(100.0f, 20.0f);
  const std::vector<float> x1 = release(1.0f, stiffness, 1200);
  const std::vector<float> x10 = release(10.0f, stiffness, 1200);
  const std::vector<float> x100 = release(100.0f, stiffness, 1200);
  EXPECT_GT(max_difference(x1, x10), 0.05f);
  EXPECT_GT(max_difference(x10, x100), 0.1f);
  const int s1 = settle_step(x1);
  const int s10 = settle_step(x10);
  const int s100 = settle_step(x100);
  EXPECT_LT(s1, s10);
  EXPECT_LT(s10, s100);
  std::printf("stiffness mode: settled to 1 mm after %d, %d, %d steps (1, 10, 100 kg)\n", s1, s10,
              s100);
}

TEST(SpringPart, OscillatesAtItsFrequency) {
  // Undamped 1 Hz: the first crossing of rest comes a quarter period (15 steps) after release.
  const std::vector<float> x = release(3.0f, SpringSettings::frequency_and_damping(1.0f, 0.0f));
  int crossing = -1;
  for (size_t i = 0; i < x.size() && crossing < 0; ++i)
    if (x[i] <= 0.0f) crossing = static_cast<int>(i) + 1;
  EXPECT_GE(crossing, 14);
  EXPECT_LE(crossing, 17);
}

TEST(SpringPart, FrequencyZeroIsHard) {
  SpringPart spring;
  const float mass = spring.calculate_spring_properties_with_frequency_and_damping(
      k_dt, 0.5f, 0.25f, 0.3f, 0.0f, 1.0f);
  EXPECT_FLOAT_EQ(mass, 2.0f);
  EXPECT_FALSE(spring.is_soft());
  EXPECT_EQ(spring.target(), 0.25f);  // the position error is left to the position solve
  // The same with no stiffness in the stiffness modes.
  spring.calculate_spring_properties_with_settings(
      k_dt, 0.5f, 0.25f, 0.3f, SpringSettings::stiffness_and_damping(0.0f, 3.0f));
  EXPECT_FALSE(spring.is_soft());
  spring.calculate_spring_properties_with_settings(
      k_dt, 0.5f, 0.25f, 0.3f, SpringSettings::mass_normalized_stiffness_and_damping(0.0f, 3.0f));
  EXPECT_FALSE(spring.is_soft());
  // A released body on a hard row does not move in the velocity solve.
  const std::vector<float> x = release(2.0f, SpringSettings(), 5);
  for (float xi : x) EXPECT_NEAR(xi, 0.2f, 1.0e-6f);
}

// The soft step of Catto's GDC 2011 talk, checked against its closed form for one body on a
// static anchor: m' = 1/(K + γ), γ = 1/(dt·(c + dt·k)), target' = −k·C/(c + dt·k).
TEST(SpringPart, CoefficientsMatchTheClosedForm) {
  SpringPart spring;
  const float k_inv = 0.25f;  // 4 kg
  const float k = 50.0f;
  const float c = 3.0f;
  const float error = 0.1f;
  const float mass =
      spring.calculate_spring_properties_with_stiffness_and_damping(k_dt, k_inv, 0.0f, error, k, c);
  const float gamma = 1.0f / (k_dt * (c + k_dt * k));
  EXPECT_NEAR(spring.softness(), gamma, 1.0e-5f * gamma);
  EXPECT_NEAR(mass, 1.0f / (k_inv + gamma), 1.0e-6f);
  EXPECT_NEAR(spring.target(), -k * error / (c + k_dt * k), 1.0e-6f);
}

}  // namespace
}  // namespace spring_part_test
}  // namespace atl
