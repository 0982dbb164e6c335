// SwingTwistConstraintPart: the closest point on the swing ellipse, and a body spun hard
// against an elliptic cone and a twist range stays inside them.

#include "atoll/constraint/parts/SwingTwistConstraintPart.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "PartTestBodies.h"
#include "atoll/core/Random.h"

namespace atl {
namespace swing_twist_constraint_part_test {
namespace {

constexpr float k_dt = 1.0f / 60.0f;

TEST(SwingTwistConstraintPart, ClosestPointOnEllipse) {
  const float a = 0.6f;
  const float b = 0.2f;
  // Inside: itself.
  auto p = SwingTwistConstraintPart::closest_point_on_ellipse(a, b, 0.1f, -0.1f);
  EXPECT_EQ(p[0], 0.1f);
  EXPECT_EQ(p[1], -0.1f);
  // Outside: on the ellipse, the offset along its normal, nearer than any sampled point.
  const float points[][2] = {
      {0.9f, 0.5f}, {-0.2f, 0.7f}, {0.0f, -0.5f}, {-1.0f, 0.0f}, {0.61f, 0.01f}};
  for (const auto& q : points) {
    p = SwingTwistConstraintPart::closest_point_on_ellipse(a, b, q[0], q[1]);
    EXPECT_NEAR(square(p[0] / a) + square(p[1] / b), 1.0f, 1.0e-5f);
    const float dx = q[0] - p[0];
    const float dy = q[1] - p[1];
    const float nx = p[0] / (a * a);
    const float ny = p[1] / (b * b);
    EXPECT_NEAR(dx * ny - dy * nx, 0.0f, 1.0e-5f * std::sqrt(nx * nx + ny * ny));
    const float d = std::sqrt(dx * dx + dy * dy);
    for (int i = 0; i < 720; ++i) {
      const float t = k_two_pi * static_cast<float>(i) / 720.0f;
      EXPECT_GE(std::hypot(q[0] - a * std::cos(t), q[1] - b * std::sin(t)), d - 1.0e-5f);
    }
  }
  // Degenerate ellipses: a segment and a point.
  p = SwingTwistConstraintPart::closest_point_on_ellipse(0.0f, 0.3f, 0.2f, 0.5f);
  EXPECT_EQ(p[0], 0.0f);
  EXPECT_EQ(p[1], 0.3f);
  p = SwingTwistConstraintPart::closest_point_on_ellipse(0.0f, 0.0f, 0.2f, 0.5f);
  EXPECT_EQ(p[0], 0.0f);
  EXPECT_EQ(p[1], 0.0f);
}

// Largest violation (rad) of the limits over `steps` steps while random torques spin body 2.
struct LimitRun {
  float worst_swing = 0.0f;  // beyond the cone, measured as the swing error of the part
  float worst_twist = 0.0f;
  float largest_swing_fill = 0.0f;  // (s_y/e_y)² + (s_z/e_z)²: 1 on the cone
  float twist_min = 0.0f;
  float twist_max = 0.0f;
  float largest_step_turn = 0.0f;  // |ω|·dt (rad), the most one step can add
};

LimitRun spin_against_limits(float twist_min, float twist_max, float swing_y, float swing_z) {
  SwingTwistConstraintPart part;
  part.set_limits(twist_min, twist_max, swing_y, swing_z);
  SolverBody b1 = test::static_body();
  SolverBody b2 = test::ball(1.0f, 0.2f);
  // Frame 1 tilted so that the cone is not aligned with the world axes.
  const Quat c1 = Quat::rotation(Vec3(0.3f, 1.0f, 0.2f).normalized(), 0.7f);
  const Quat c2 = c1;
  Random random(7);
  LimitRun run;
  run.twist_min = 10.0f;
  run.twist_max = -10.0f;
  const float ey = std::sin(0.5f * swing_y);
  const float ez = std::sin(0.5f * swing_z);
  Vec3 torque;
  for (int step = 0; step < 600; ++step) {
    // A random torque of up to 5 N·m per axis, changing every half second.
    if (step % 30 == 0)
      torque = Vec3(random.uniform(-1.0f, 1.0f), random.uniform(-1.0f, 1.0f),
                    random.uniform(-1.0f, 1.0f)) *
               5.0f;
    b2.angular_velocity += torque * (k_dt / 0.2f);
    part.calculate_constraint_properties(k_dt, b1, b2, c1, c2);
    part.warm_start(b1, b2, 1.0f);
    for (int i = 0; i < 10; ++i) part.solve_velocity_constraint(b1, b2);
    run.largest_step_turn = std::max(run.largest_step_turn, b2.angular_velocity.length() * k_dt);
    test::integrate(b2, k_dt);
    for (int i = 0; i < 2; ++i) part.solve_position_constraint(b1, b2, c1, c2, 0.2f);

    const Quat q = SwingTwistConstraintPart::relative_rotation(b1, b2, c1, c2);
    Quat swing;
    Quat twist;
    q.swing_twist(swing, twist);
    const float fill = square(swing.y() / ey) + square(swing.z() / ez);
    run.largest_swing_fill = std::max(run.largest_swing_fill, fill);
    const float twist_angle = 2.0f * std::atan2(twist.x(), twist.w());
    run.twist_min = std::min(run.twist_min, twist_angle);
    run.twist_max = std::max(run.twist_max, twist_angle);
    run.worst_twist = std::max({run.worst_twist, twist_min - twist_angle, twist_angle - twist_max});
    // The swing's excess angle, about 2 × its distance from the ellipse.
    const auto p = SwingTwistConstraintPart::closest_point_on_ellipse(ey, ez, swing.y(), swing.z());
    run.worst_swing =
        std::max(run.worst_swing, 2.0f * std::hypot(swing.y() - p[0], swing.z() - p[1]));
    EXPECT_EQ(part.is_within_limits(q, 0.05f),
              run.worst_swing <= 0.05f && run.worst_twist <= 0.05f);
  }
  return run;
}

TEST(SwingTwistConstraintPart, EllipticConeAndTwistRangeHoldUnderRandomTorques) {
  // Swing ±0.4 rad about Y, ±0.9 rad about Z; twist in [−0.3, 0.5] rad.
  const LimitRun run = spin_against_limits(-0.3f, 0.5f, 0.4f, 0.9f);
  // Pushed to the limits: the cone is reached and both twist bounds too.
  EXPECT_GT(run.largest_swing_fill, 0.95f);
  EXPECT_LT(run.twist_min, -0.28f);
  EXPECT_GT(run.twist_max, 0.48f);
  // And held: the speculative rows stop the rotation at the limits; what is left is the
  // curvature of the cone within one step (the rows are linear), a fraction of one step's turn.
  EXPECT_GT(run.largest_step_turn, 0.1f);  // the torques are violent: > 6 rad/s
  EXPECT_LT(run.worst_twist, 0.02f);
  EXPECT_LT(run.worst_swing, 0.05f);
  EXPECT_LT(run.worst_swing, 0.3f * run.largest_step_turn);
  std::printf(
      "swing-twist: largest cone fill %.4f, twist in [%.4f, %.4f], worst excess: swing %.4f, "
      "twist %.4f rad; largest turn in a step %.4f rad\n",
      run.largest_swing_fill, run.twist_min, run.twist_max, run.worst_swing, run.worst_twist,
      run.largest_step_turn);
}

TEST(SwingTwistConstraintPart, LockedTwistAndFreeLimitsAndDeactivate) {
  // Twist locked at 0 in a cone of 1.2 rad: the twist stays within 0.02 rad.
  const LimitRun run = spin_against_limits(0.0f, 0.0f, 1.2f, 1.2f);
  EXPECT_LT(run.worst_twist, 0.02f);
  EXPECT_LT(run.worst_swing, 0.05f);
  EXPECT_GT(run.largest_swing_fill, 0.95f);

  SwingTwistConstraintPart part;
  part.set_limits(-0.1f, 0.1f, 0.2f, 0.2f);
  SolverBody b1 = test::static_body();
  SolverBody b2 = test::ball(1.0f, 1.0f, Vec3(), Quat::rotation(Vec3::axis_y(), 0.5f));
  part.calculate_constraint_properties(k_dt, b1, b2, Quat::identity(), Quat::identity());
  EXPECT_TRUE(part.is_active());  // swing 0.5 rad > 0.2 rad
  b2.angular_velocity = Vec3(0.0f, 1.0f, 0.0f);
  EXPECT_TRUE(part.solve_velocity_constraint(b1, b2));
  EXPECT_NEAR(b2.angular_velocity.y(), 0.0f, 1.0e-5f);  // stops the outward swing
  EXPECT_LT(part.total_lambda()[0], 0.0f);
  const SwingTwistConstraintPart::Lambda saved = part.total_lambda();
  part.deactivate();
  EXPECT_FALSE(part.is_active());
  EXPECT_EQ(part.total_lambda()[0], 0.0f);
  b2.angular_velocity = Vec3(0.0f, 1.0f, 0.0f);
  EXPECT_FALSE(part.solve_velocity_constraint(b1, b2));
  EXPECT_EQ(b2.angular_velocity.y(), 1.0f);
  part.calculate_constraint_properties(k_dt, b1, b2, Quat::identity(), Quat::identity());
  part.set_total_lambda(saved);
  EXPECT_EQ(part.total_lambda()[0], saved[0]);
  // Warm start applies the stored swing impulse × ratio about the row's axis.
  b2.angular_velocity = Vec3();
  part.warm_start(b1, b2, 0.5f);
  EXPECT_NEAR(part.total_lambda()[0], 0.5f * saved[0], 1.0e-7f);
  EXPECT_LT(b2.angular_velocity.y(), 0.0f);  // turns back towards the cone
  EXPECT_NEAR(b2.angular_velocity.x(), 0.0f, 1.0e-4f);
  // Moving inwards is free (one-sided): no pull.
  part.set_total_lambda({0.0f, 0.0f});
  b2.angular_velocity = Vec3(0.0f, -1.0f, 0.0f);
  EXPECT_FALSE(part.solve_velocity_constraint(b1, b2));
  EXPECT_EQ(b2.angular_velocity.y(), -1.0f);
  // The position step turns it back towards the cone.
  const Quat before = b2.rotation;
  EXPECT_TRUE(part.solve_position_constraint(b1, b2, Quat::identity(), Quat::identity(), 0.2f));
  EXPECT_NEAR(test::angle_about(b2.rotation, Vec3::axis_y()),
              test::angle_about(before, Vec3::axis_y()) - 0.2f * 0.3f, 0.01f);
}

}  // namespace
}  // namespace swing_twist_constraint_part_test
}  // namespace atl
