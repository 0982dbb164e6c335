// GearConstraintPart and RackAndPinionConstraintPart: one step makes ω1·a1 + ratio·ω2·a2 = 0
// (resp. ω1·a1 + ratio·v2·s2 = 0) exactly, and a driven gear train keeps its ratio over time
// with the Baumgarte step correcting drift.

#include <gtest/gtest.h>

#include "PartTestBodies.h"
#include "atoll/constraint/parts/GearConstraintPart.h"
#include "atoll/constraint/parts/RackAndPinionConstraintPart.h"

namespace atl {
namespace gear_parts_test {
namespace {

constexpr float k_dt = 1.0f / 60.0f;

TEST(GearConstraintPart, OneStepKeepsTheRatioExactly) {
  SolverBody b1 = test::ball(1.0f, 0.5f);
  SolverBody b2 = test::ball(1.0f, 2.0f, Vec3(3.0f, 0.0f, 0.0f));
  b1.angular_velocity = Vec3(0.0f, 3.0f, 0.0f);
  const Vec3 a = Vec3::axis_y();
  GearConstraintPart gear;
  gear.calculate_constraint_properties(b1, a, b2, a, 2.0f);
  ASSERT_TRUE(gear.is_active());
  EXPECT_TRUE(gear.solve_velocity_constraint(b1, b2));
  EXPECT_NEAR(b1.angular_velocity.y() + 2.0f * b2.angular_velocity.y(), 0.0f, 1.0e-6f);
  // K = 1/0.5 + 2²/2 = 4, λ = −3/4 N·m·s.
  EXPECT_NEAR(gear.total_lambda(), -0.75f, 1.0e-6f);
  EXPECT_NEAR(b1.angular_velocity.y(), 1.5f, 1.0e-6f);
  EXPECT_NEAR(b2.angular_velocity.y(), -0.75f, 1.0e-6f);

  gear.set_total_lambda(1.0f);
  b1.angular_velocity = Vec3();
  b2.angular_velocity = Vec3();
  gear.warm_start(b1, b2, 0.5f);
  EXPECT_NEAR(b1.angular_velocity.y(), 1.0f, 1.0e-6f);  // 0.5 / 0.5
  EXPECT_NEAR(b2.angular_velocity.y(), 0.5f, 1.0e-6f);  // 2 · 0.5 / 2
  gear.deactivate();
  EXPECT_FALSE(gear.is_active());
  EXPECT_FALSE(gear.solve_velocity_constraint(b1, b2));
  EXPECT_FALSE(gear.solve_position_constraint(b1, b2, 0.1f, 0.2f));
}

// Gear 1 is driven by a torque for two seconds; the angles keep θ1 + 2·θ2 = 0 within 1 % of θ1.
TEST(GearConstraintPart, DrivenGearTrainKeepsItsRatio) {
  SolverBody b1 = test::ball(1.0f, 0.5f);
  SolverBody b2 = test::ball(1.0f, 2.0f, Vec3(3.0f, 0.0f, 0.0f));
  const Vec3 a = Vec3::axis_y();
  GearConstraintPart gear;
  float worst = 0.0f;
  for (int step = 0; step < 120; ++step) {
    b1.angular_velocity += a * (0.5f * k_dt / 0.5f);  // 0.5 N·m: θ1 reaches 0.9 rad
    gear.calculate_constraint_properties(b1, a, b2, a, 2.0f);
    gear.warm_start(b1, b2, 1.0f);
    for (int i = 0; i < 4; ++i) gear.solve_velocity_constraint(b1, b2);
    test::integrate(b1, k_dt);
    test::integrate(b2, k_dt);
    const float theta1 = test::angle_about(b1.rotation, a);
    const float theta2 = test::angle_about(b2.rotation, a);
    gear.calculate_constraint_properties(b1, a, b2, a, 2.0f);
    gear.solve_position_constraint(b1, b2, theta1 + 2.0f * theta2, 0.2f);
    const float t1 = test::angle_about(b1.rotation, a);
    const float t2 = test::angle_about(b2.rotation, a);
    if (std::fabs(t1) > 0.05f) worst = std::max(worst, std::fabs(t1 + 2.0f * t2) / std::fabs(t1));
  }
  EXPECT_LT(worst, 0.01f);
}

TEST(RackAndPinionConstraintPart, OneStepKeepsTheRatioExactly) {
  SolverBody pinion = test::ball(1.0f, 0.5f);
  SolverBody rack = test::ball(2.0f, 1.0f, Vec3(0.0f, -1.0f, 0.0f));
  pinion.angular_velocity = Vec3(0.0f, 0.0f, 2.0f);
  const Vec3 a1 = Vec3::axis_z();
  const Vec3 s2 = Vec3::axis_x();
  const float ratio = 4.0f;  // rad per m: a pinion of radius 0.25 m
  RackAndPinionConstraintPart part;
  part.calculate_constraint_properties(pinion, a1, rack, s2, ratio);
  EXPECT_TRUE(part.solve_velocity_constraint(pinion, rack));
  EXPECT_NEAR(pinion.angular_velocity.z() + ratio * rack.linear_velocity.x(), 0.0f, 1.0e-6f);
  // K = 1/0.5 + 4²/2 = 10, λ = −0.2.
  EXPECT_NEAR(part.total_lambda(), -0.2f, 1.0e-6f);
  EXPECT_EQ(rack.angular_velocity, Vec3());
  EXPECT_EQ(pinion.linear_velocity, Vec3());

  // Position: an error of 0.1 rad is reduced by β.
  part.calculate_constraint_properties(pinion, a1, rack, s2, ratio);
  const float before = test::angle_about(pinion.rotation, a1) + ratio * rack.com_position.x();
  ASSERT_TRUE(part.solve_position_constraint(pinion, rack, 0.1f, 0.2f));
  const float after = test::angle_about(pinion.rotation, a1) + ratio * rack.com_position.x();
  EXPECT_NEAR(after - before, -0.02f, 1.0e-5f);

  const float saved = part.total_lambda();
  part.deactivate();
  EXPECT_EQ(part.total_lambda(), 0.0f);
  part.set_total_lambda(saved);
  EXPECT_EQ(part.total_lambda(), saved);
}

TEST(RackAndPinionConstraintPart, DrivenRackKeepsItsRatio) {
  SolverBody pinion = test::ball(1.0f, 0.5f);
  SolverBody rack = test::ball(2.0f, 1.0f, Vec3(0.0f, -1.0f, 0.0f));
  const Vec3 a1 = Vec3::axis_z();
  const Vec3 s2 = Vec3::axis_x();
  const float ratio = 4.0f;
  RackAndPinionConstraintPart part;
  float worst = 0.0f;
  for (int step = 0; step < 120; ++step) {
    rack.linear_velocity += s2 * (3.0f * k_dt / 2.0f);  // 3 N on the rack
    part.calculate_constraint_properties(pinion, a1, rack, s2, ratio);
    part.warm_start(pinion, rack, 1.0f);
    for (int i = 0; i < 4; ++i) part.solve_velocity_constraint(pinion, rack);
    test::integrate(pinion, k_dt);
    test::integrate(rack, k_dt);
    const float theta = test::angle_about(pinion.rotation, a1);
    part.calculate_constraint_properties(pinion, a1, rack, s2, ratio);
    part.solve_position_constraint(pinion, rack, theta + ratio * rack.com_position.x(), 0.2f);
    const float t = test::angle_about(pinion.rotation, a1);
    const float x = rack.com_position.x();
    if (std::fabs(t) > 0.1f && std::fabs(t) < 3.0f)
      worst = std::max(worst, std::fabs(t + ratio * x) / std::fabs(t));
  }
  EXPECT_LT(worst, 0.01f);
}

}  // namespace
}  // namespace gear_parts_test
}  // namespace atl
