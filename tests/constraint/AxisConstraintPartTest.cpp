// AxisConstraintPart: one velocity step drives two free bodies exactly to the target, clamps
// hold, warm starting applies λ × ratio, save/restore and deactivate, the Baumgarte position
// step, and the rigid position motor (LAWS.md B2).

#include "atoll/constraint/parts/AxisConstraintPart.h"

#include <gtest/gtest.h>

#include "PartTestBodies.h"

namespace atl {
namespace axis_constraint_part_test {
namespace {

constexpr float k_dt = 1.0f / 60.0f;

struct TwoBodies {
  SolverBody b1 = test::dynamic_body(2.0f, Vec3(0.5f, 0.8f, 1.1f), Vec3(0.0f, 0.0f, 0.0f));
  SolverBody b2 = test::dynamic_body(3.0f, Vec3(1.2f, 0.7f, 0.4f), Vec3(1.0f, 0.2f, -0.1f));
  Vec3 r1{0.4f, 0.3f, -0.2f};
  Vec3 r2{-0.5f, 0.1f, 0.25f};
  Vec3 axis = Vec3(1.0f, 0.3f, -0.2f).normalized();

  TwoBodies() {
    b1.linear_velocity = Vec3(0.3f, -1.0f, 0.5f);
    b1.angular_velocity = Vec3(0.2f, 0.4f, -0.7f);
    b2.linear_velocity = Vec3(-0.8f, 0.2f, 0.1f);
    b2.angular_velocity = Vec3(-0.3f, 0.9f, 0.6f);
  }
  // K = J M⁻¹ Jᵀ computed from the definitions.
  float k() const {
    const Vec3 a1 = r1.cross(axis);
    const Vec3 a2 = r2.cross(axis);
    return 1.0f / 2.0f + 1.0f / 3.0f + a1.dot(b1.inv_inertia.multiply3x3(a1)) +
           a2.dot(b2.inv_inertia.multiply3x3(a2));
  }
  float relative_velocity() const {
    return (b2.linear_velocity + b2.angular_velocity.cross(r2) - b1.linear_velocity -
            b1.angular_velocity.cross(r1))
        .dot(axis);
  }
};

TEST(AxisConstraintPart, OneStepDrivesTwoFreeBodiesExactlyToTheTarget) {
  TwoBodies s;
  const float before = s.relative_velocity();
  AxisConstraintPart part;
  part.calculate_constraint_properties(s.b1, s.r1, s.b2, s.r2, s.axis, 0.3f);
  ASSERT_TRUE(part.is_active());
  EXPECT_NEAR(part.effective_mass(), 1.0f / s.k(), 1.0e-6f);
  EXPECT_TRUE(part.solve_velocity_constraint(s.b1, s.b2, s.axis));
  EXPECT_NEAR(s.relative_velocity(), 0.3f, 1.0e-5f);
  // λ = (target − v) / K.
  EXPECT_NEAR(part.total_lambda(), (0.3f - before) / s.k(), 1.0e-5f);
  // Converged: a second step applies nothing significant.
  EXPECT_FALSE(part.solve_velocity_constraint(s.b1, s.b2, s.axis));
}

TEST(AxisConstraintPart, ClampedRangeHolds) {
  TwoBodies s;
  AxisConstraintPart part;
  part.calculate_constraint_properties(s.b1, s.r1, s.b2, s.r2, s.axis, 5.0f);  // needs λ > 0
  EXPECT_TRUE(part.solve_velocity_constraint(s.b1, s.b2, s.axis, 0.0f, 0.1f));
  EXPECT_FLOAT_EQ(part.total_lambda(), 0.1f);
  EXPECT_LT(s.relative_velocity(), 5.0f - 0.1f);
  EXPECT_FALSE(part.solve_velocity_constraint(s.b1, s.b2, s.axis, 0.0f, 0.1f));
  EXPECT_FLOAT_EQ(part.total_lambda(), 0.1f);
  // A push-only row never pulls.
  AxisConstraintPart push;
  push.calculate_constraint_properties(s.b1, s.r1, s.b2, s.r2, s.axis, -5.0f);
  EXPECT_FALSE(push.solve_velocity_constraint(s.b1, s.b2, s.axis, 0.0f, k_float_max));
  EXPECT_EQ(push.total_lambda(), 0.0f);
}

TEST(AxisConstraintPart, WarmStartAppliesTheStoredLambdaTimesRatio) {
  TwoBodies s;
  const Vec3 v1 = s.b1.linear_velocity;
  const Vec3 v2 = s.b2.linear_velocity;
  AxisConstraintPart part;
  part.calculate_constraint_properties(s.b1, s.r1, s.b2, s.r2, s.axis);
  part.set_total_lambda(2.0f);
  part.warm_start(s.b1, s.b2, 0.5f);
  EXPECT_FLOAT_EQ(part.total_lambda(), 1.0f);
  EXPECT_TRUE((s.b1.linear_velocity - (v1 - s.axis * (1.0f / 2.0f))).is_near_zero(1.0e-12f));
  EXPECT_TRUE((s.b2.linear_velocity - (v2 + s.axis * (1.0f / 3.0f))).is_near_zero(1.0e-12f));
}

TEST(AxisConstraintPart, TotalLambdaRoundTripsAndDeactivateMakesSolvesNoOps) {
  TwoBodies s;
  AxisConstraintPart part;
  part.calculate_constraint_properties(s.b1, s.r1, s.b2, s.r2, s.axis);
  part.solve_velocity_constraint(s.b1, s.b2, s.axis);
  const float saved = part.total_lambda();
  AxisConstraintPart other;
  other.set_total_lambda(saved);
  EXPECT_EQ(other.total_lambda(), saved);

  part.deactivate();
  EXPECT_FALSE(part.is_active());
  EXPECT_EQ(part.total_lambda(), 0.0f);
  s.b2.linear_velocity += s.axis;
  const SolverBody b1 = s.b1;
  const SolverBody b2 = s.b2;
  EXPECT_FALSE(part.solve_velocity_constraint(s.b1, s.b2, s.axis));
  part.warm_start(s.b1, s.b2, 1.0f);
  EXPECT_FALSE(part.solve_position_constraint(s.b1, s.b2, 0.5f, 0.2f));
  EXPECT_EQ(s.b1.linear_velocity, b1.linear_velocity);
  EXPECT_EQ(s.b2.linear_velocity, b2.linear_velocity);
  EXPECT_EQ(s.b2.angular_velocity, b2.angular_velocity);
  EXPECT_EQ(s.b2.com_position, b2.com_position);
}

TEST(AxisConstraintPart, PositionSolveRemovesTheBaumgarteFractionOfTheError) {
  // Points at the centres of mass: the step is linear, error → (1 − β) × error exactly.
  SolverBody b1 = test::ball(2.0f, 1.0f, Vec3(0.0f, 0.0f, 0.0f));
  SolverBody b2 = test::ball(3.0f, 1.0f, Vec3(1.5f, 0.0f, 0.0f));
  const Vec3 axis = Vec3::axis_x();
  AxisConstraintPart part;
  part.calculate_constraint_properties(b1, Vec3(), b2, Vec3(), axis);
  const float c = (b2.com_position - b1.com_position).dot(axis) - 1.0f;  // rest length 1 m
  ASSERT_TRUE(part.solve_position_constraint(b1, b2, c, 0.2f));
  const float after = (b2.com_position - b1.com_position).dot(axis) - 1.0f;
  EXPECT_NEAR(after, 0.8f * c, 1.0e-6f);
  // Momentum-like split: the lighter body moves more (3:2).
  EXPECT_NEAR(-b1.com_position.x() / (b2.com_position.x() - 1.5f), 1.5f, 1.0e-4f);

  // With lever arms the step turns the bodies too; the error still shrinks by about β.
  TwoBodies s;
  const auto error = [&] {
    return ((s.b2.com_position + s.b2.rotation * s.r2) - (s.b1.com_position + s.b1.rotation * s.r1))
               .dot(s.axis) -
           0.5f;
  };
  const float e0 = error();
  part.calculate_constraint_properties(s.b1, s.r1, s.b2, s.r2, s.axis);
  ASSERT_TRUE(part.solve_position_constraint(s.b1, s.b2, e0, 0.2f));
  EXPECT_LT(std::fabs(error()), 0.85f * std::fabs(e0));
  EXPECT_GT(std::fabs(error()), 0.75f * std::fabs(e0));
}

TEST(AxisConstraintPart, SoftRowHasNoPositionSolve) {
  TwoBodies s;
  AxisConstraintPart part;
  part.calculate_constraint_properties_with_frequency_and_damping(k_dt, s.b1, s.r1, s.b2, s.r2,
                                                                  s.axis, 0.0f, 0.2f, 2.0f, 1.0f);
  EXPECT_TRUE(part.is_soft());
  EXPECT_FALSE(part.solve_position_constraint(s.b1, s.b2, 0.2f, 0.2f));
  // Frequency 0 is hard: no softness, the plain effective mass.
  part.calculate_constraint_properties_with_frequency_and_damping(k_dt, s.b1, s.r1, s.b2, s.r2,
                                                                  s.axis, 0.0f, 0.2f, 0.0f, 1.0f);
  EXPECT_FALSE(part.is_soft());
  EXPECT_NEAR(part.effective_mass(), 1.0f / s.k(), 1.0e-6f);
  // So is stiffness 0, and a limit with a default (hard) spring.
  part.calculate_constraint_properties_with_stiffness_and_damping(k_dt, s.b1, s.r1, s.b2, s.r2,
                                                                  s.axis, 0.0f, 0.2f, 0.0f, 5.0f);
  EXPECT_FALSE(part.is_soft());
  part.calculate_constraint_properties_for_limit(k_dt, s.b1, s.r1, s.b2, s.r2, s.axis, 0.0f, 0.2f,
                                                 SpringSettings());
  EXPECT_FALSE(part.is_soft());
  EXPECT_TRUE(part.solve_position_constraint(s.b1, s.b2, 0.2f, 0.2f));
}

// LAWS.md B2: in Jolt a position motor whose spring has frequency 0 never moves (HasStiffness()
// is false, so the motor is not set up: 900 steps at 0.0000 rad). Here it is a rigid motor.
TEST(AxisConstraintPart, HardPositionMotorReachesItsTargetInOneStep) {
  SolverBody ground = test::static_body();
  SolverBody slider = test::ball(5.0f, 1.0f, Vec3(0.0f, 0.0f, 0.0f));
  const Vec3 axis = Vec3::axis_x();
  const float target = 1.5f;
  AxisConstraintPart motor;
  for (int step = 0; step < 3; ++step) {
    const float c = slider.com_position.x() - target;
    motor.calculate_constraint_properties_for_motor(k_dt, ground, Vec3(), slider, Vec3(), axis,
                                                    0.0f, c, SpringSettings());
    motor.warm_start(ground, slider, 1.0f);
    motor.solve_velocity_constraint(ground, slider, axis);
    test::integrate(slider, k_dt);
    EXPECT_NEAR(slider.com_position.x(), target, 1.0e-5f) << "step " << step;
  }
  EXPECT_NEAR(slider.linear_velocity.x(), 0.0f, 1.0e-3f);
}

// A force-limited rigid motor accelerates at its limit and brakes in time: it reaches the
// target and stays (without the braking speed it overshot and circled the target for ever).
TEST(AxisConstraintPart, ForceLimitedHardMotorReachesItsTargetWithoutCircling) {
  SolverBody ground = test::static_body();
  SolverBody slider = test::ball(5.0f, 1.0f);
  const Vec3 axis = Vec3::axis_x();
  const float target = 1.0f;
  const float max_force = 20.0f;  // 4 m/s²: about 1 s to get there
  AxisConstraintPart motor;
  float overshoot = 0.0f;
  int reached = -1;
  for (int step = 0; step < 300; ++step) {
    const float c = slider.com_position.x() - target;
    const float bound = max_force * k_dt;
    motor.calculate_constraint_properties_for_motor(k_dt, ground, Vec3(), slider, Vec3(), axis,
                                                    0.0f, c, SpringSettings(), -bound, bound);
    motor.warm_start(ground, slider, 1.0f);
    motor.solve_velocity_constraint(ground, slider, axis, -bound, bound);
    EXPECT_LE(std::fabs(motor.total_lambda()), bound * 1.0001f);
    test::integrate(slider, k_dt);
    overshoot = std::max(overshoot, slider.com_position.x() - target);
    if (reached < 0 && std::fabs(slider.com_position.x() - target) < 1.0e-4f) reached = step;
  }
  EXPECT_GT(reached, 50);  // limited: √(2·1/4) = 0.71 s at best
  EXPECT_LT(reached, 120);
  EXPECT_NEAR(slider.com_position.x(), target, 1.0e-4f);
  EXPECT_NEAR(slider.linear_velocity.x(), 0.0f, 1.0e-3f);
  EXPECT_LT(overshoot, 0.01f);
}

}  // namespace
}  // namespace axis_constraint_part_test
}  // namespace atl
