// AngleConstraintPart and AngularFrictionPart: exact one-step velocity solve, clamps, warm
// start, save/restore, deactivate, the Baumgarte step, and the position motor: rigid with a
// hard spring (LAWS.md B2), 2 Hz critically damped by default (LAWS.md D4).

#include "atoll/constraint/parts/AngleConstraintPart.h"

#include <gtest/gtest.h>

#include "PartTestBodies.h"
#include "atoll/constraint/MotorSettings.h"
#include "atoll/constraint/parts/AngularFrictionPart.h"

namespace atl {
namespace angle_constraint_part_test {
namespace {

constexpr float k_dt = 1.0f / 60.0f;

TEST(AngleConstraintPart, OneStepDrivesTheRelativeAngularVelocityToTheTarget) {
  SolverBody b1 = test::dynamic_body(1.0f, Vec3(0.5f, 0.8f, 1.1f));
  SolverBody b2 = test::dynamic_body(1.0f, Vec3(1.2f, 0.7f, 0.4f));
  b1.angular_velocity = Vec3(0.3f, -0.2f, 0.9f);
  b2.angular_velocity = Vec3(-1.0f, 0.4f, 0.2f);
  const Vec3 axis = Vec3(0.2f, 1.0f, -0.4f).normalized();
  const float before = axis.dot(b2.angular_velocity - b1.angular_velocity);
  AngleConstraintPart part;
  part.calculate_constraint_properties(b1, b2, axis, 0.5f);
  EXPECT_TRUE(part.solve_velocity_constraint(b1, b2));
  EXPECT_NEAR(axis.dot(b2.angular_velocity - b1.angular_velocity), 0.5f, 1.0e-5f);
  const float k =
      axis.dot(b1.inv_inertia.multiply3x3(axis)) + axis.dot(b2.inv_inertia.multiply3x3(axis));
  EXPECT_NEAR(part.total_lambda(), (0.5f - before) / k, 1.0e-5f);
  // Linear velocities are untouched.
  EXPECT_EQ(b1.linear_velocity, Vec3());
  EXPECT_EQ(b2.linear_velocity, Vec3());
}

TEST(AngleConstraintPart, ClampWarmStartRoundTripAndDeactivate) {
  SolverBody b1 = test::static_body();
  SolverBody b2 = test::ball(1.0f, 2.0f);
  const Vec3 axis = Vec3::axis_y();
  AngleConstraintPart part;
  part.calculate_constraint_properties(b1, b2, axis, 3.0f);  // needs 6 N·m·s
  EXPECT_TRUE(part.solve_velocity_constraint(b1, b2, -1.0f, 1.0f));
  EXPECT_FLOAT_EQ(part.total_lambda(), 1.0f);
  EXPECT_NEAR(b2.angular_velocity.y(), 0.5f, 1.0e-6f);

  part.set_total_lambda(4.0f);
  EXPECT_EQ(part.total_lambda(), 4.0f);
  b2.angular_velocity = Vec3();
  part.warm_start(b1, b2, 0.5f);
  EXPECT_FLOAT_EQ(part.total_lambda(), 2.0f);
  EXPECT_NEAR(b2.angular_velocity.y(), 1.0f, 1.0e-6f);

  part.deactivate();
  EXPECT_FALSE(part.is_active());
  EXPECT_EQ(part.total_lambda(), 0.0f);
  EXPECT_FALSE(part.solve_velocity_constraint(b1, b2));
  EXPECT_FALSE(part.solve_position_constraint(b1, b2, 0.3f, 0.2f));
  EXPECT_NEAR(b2.angular_velocity.y(), 1.0f, 1.0e-6f);
}

TEST(AngleConstraintPart, PositionSolveTurnsBackTheBaumgarteFraction) {
  SolverBody b1 = test::static_body();
  SolverBody b2 = test::ball(1.0f, 2.0f, Vec3(), Quat::rotation(Vec3::axis_y(), 0.4f));
  const Vec3 axis = Vec3::axis_y();
  AngleConstraintPart part;
  part.calculate_constraint_properties(b1, b2, axis);
  const float c = test::angle_about(b2.rotation, axis) - 0.1f;  // limit at 0.1 rad
  ASSERT_TRUE(part.solve_position_constraint(b1, b2, c, 0.2f));
  EXPECT_NEAR(test::angle_about(b2.rotation, axis) - 0.1f, 0.8f * c, 1.0e-5f);
}

// The hinge-motor scene of seed 003 §8.3 on one part: body 2 (1 kg·m²) turns about Y towards
// 1.5708 rad. In Jolt a position motor with frequency 0 stays at 0.0000 rad for 900 steps
// (LAWS.md B2); a hard motor here reaches the target in one step and stays.
TEST(AngleConstraintPart, HardPositionMotorReachesItsTarget) {
  SolverBody b1 = test::static_body();
  SolverBody b2 = test::ball(1.0f, 1.0f);
  const Vec3 axis = Vec3::axis_y();
  const float target = 1.5708f;
  MotorSettings motor_settings;
  motor_settings.spring.frequency = 0.0f;
  AngleConstraintPart motor;
  for (int step = 0; step < 10; ++step) {
    const float c = test::angle_about(b2.rotation, axis) - target;
    motor.calculate_constraint_properties_for_motor(k_dt, b1, b2, axis, 0.0f, c,
                                                    motor_settings.spring);
    motor.warm_start(b1, b2, 1.0f);
    motor.solve_velocity_constraint(b1, b2);
    test::integrate(b2, k_dt);
    EXPECT_NEAR(test::angle_about(b2.rotation, axis), target, 1.0e-4f) << "step " << step;
  }
  EXPECT_NEAR(b2.angular_velocity.y(), 0.0f, 1.0e-2f);
}

// LAWS.md D4: the default motor spring (2 Hz, critically damped) reaches 1.5708 rad in about 35
// steps (Jolt), without overshoot, and its impulse returns to 0 at rest.
TEST(AngleConstraintPart, DefaultSpringPositionMotorReachesItsTargetInAbout35Steps) {
  SolverBody b1 = test::static_body();
  SolverBody b2 = test::ball(1.0f, 1.0f);
  const Vec3 axis = Vec3::axis_y();
  const float target = 1.5708f;
  const MotorSettings motor_settings;
  AngleConstraintPart motor;
  int reached = -1;
  float largest = 0.0f;
  for (int step = 0; step < 300; ++step) {
    const float c = test::angle_about(b2.rotation, axis) - target;
    motor.calculate_constraint_properties_for_motor(k_dt, b1, b2, axis, 0.0f, c,
                                                    motor_settings.spring);
    motor.warm_start(b1, b2, 1.0f);
    motor.solve_velocity_constraint(b1, b2);
    test::integrate(b2, k_dt);
    const float angle = test::angle_about(b2.rotation, axis);
    largest = std::max(largest, angle);
    if (reached < 0 && std::fabs(angle - target) < 0.01f * target) reached = step + 1;
  }
  EXPECT_GE(reached, 25);
  EXPECT_LE(reached, 50);
  EXPECT_LT(largest, target * 1.001f);
  EXPECT_NEAR(test::angle_about(b2.rotation, axis), target, 1.0e-4f);
  EXPECT_NEAR(motor.total_lambda(), 0.0f, 1.0e-5f);
}

TEST(AngleConstraintPart, TorqueLimitedHardMotorReachesItsTarget) {
  SolverBody b1 = test::static_body();
  SolverBody b2 = test::ball(1.0f, 2.0f);
  const Vec3 axis = Vec3::axis_y();
  const float target = 1.5708f;
  MotorSettings settings;
  settings.spring.frequency = 0.0f;
  settings.set_torque_limit(10.0f);
  AngleConstraintPart motor;
  for (int step = 0; step < 300; ++step) {
    const float c = test::angle_about(b2.rotation, axis) - target;
    const float lo = settings.min_torque_limit * k_dt;
    const float hi = settings.max_torque_limit * k_dt;
    motor.calculate_constraint_properties_for_motor(k_dt, b1, b2, axis, 0.0f, c, settings.spring,
                                                    lo, hi);
    motor.warm_start(b1, b2, 1.0f);
    motor.solve_velocity_constraint(b1, b2, lo, hi);
    test::integrate(b2, k_dt);
    if (step == 0) {
      EXPECT_LT(test::angle_about(b2.rotation, axis), 0.01f);
    }
  }
  EXPECT_NEAR(test::angle_about(b2.rotation, axis), target, 1.0e-4f);
}

TEST(AngularFrictionPart, BudgetBoundsTheImpulseAndThereIsNoPositionError) {
  SolverBody b1 = test::static_body();
  SolverBody b2 = test::ball(1.0f, 1.0f);
  b2.angular_velocity = Vec3(0.0f, 2.0f, 0.0f);
  AngularFrictionPart friction;
  friction.calculate_constraint_properties(b1, b2, Vec3::axis_y());
  EXPECT_TRUE(friction.is_active());
  EXPECT_TRUE(friction.solve_velocity_constraint(b1, b2, -0.5f, 0.5f));
  EXPECT_FLOAT_EQ(friction.total_lambda(), -0.5f);
  EXPECT_NEAR(b2.angular_velocity.y(), 1.5f, 1.0e-6f);
  EXPECT_FALSE(friction.solve_position_constraint(b1, b2, 0.2f));
  friction.deactivate();
  EXPECT_FALSE(friction.is_active());
  EXPECT_EQ(friction.total_lambda(), 0.0f);
}

}  // namespace
}  // namespace angle_constraint_part_test
}  // namespace atl
