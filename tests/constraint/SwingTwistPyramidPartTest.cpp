// SwingTwistConstraintPart, pyramid swing type: asymmetric ranges about Y and Z hold under
// random torques, a locked swing axis stays locked, and set_limits returns to the cone.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "PartTestBodies.h"
#include "atoll/constraint/parts/SwingTwistConstraintPart.h"
#include "atoll/core/Random.h"

namespace atl {
namespace swing_twist_pyramid_part_test {
namespace {

constexpr float k_dt = 1.0f / 60.0f;

// The range each of twist, swing about Y and swing about Z reached over the run (rad, the
// swing angles as 2·asin of the swing quaternion's components), and the worst excess.
struct PyramidRun {
  float lo[3] = {10.0f, 10.0f, 10.0f};
  float hi[3] = {-10.0f, -10.0f, -10.0f};
  float worst[3] = {0.0f, 0.0f, 0.0f};
  float largest_step_turn = 0.0f;
};

// Measured from step `from_step` on (the body starts at the identity rotation).
PyramidRun spin_against_pyramid(const float (&lo)[3], const float (&hi)[3], int from_step = 0) {
  SwingTwistConstraintPart part;
  part.set_pyramid_limits(lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
  EXPECT_EQ(part.swing_type(), SwingType::Pyramid);
  SolverBody b1 = test::static_body();
  SolverBody b2 = test::ball(1.0f, 0.2f);
  const Quat c1 = Quat::rotation(Vec3(0.3f, 1.0f, 0.2f).normalized(), 0.7f);
  const Quat c2 = c1;
  Random random(11);
  PyramidRun run;
  Vec3 torque;
  for (int step = 0; step < 600; ++step) {
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
    const float angles[3] = {2.0f * std::atan2(twist.x(), twist.w()), 2.0f * std::asin(swing.y()),
                             2.0f * std::asin(swing.z())};
    if (step < from_step) continue;
    float worst = 0.0f;
    for (int i = 0; i < 3; ++i) {
      run.lo[i] = std::min(run.lo[i], angles[i]);
      run.hi[i] = std::max(run.hi[i], angles[i]);
      run.worst[i] = std::max({run.worst[i], lo[i] - angles[i], angles[i] - hi[i]});
      worst = std::max({worst, lo[i] - angles[i], angles[i] - hi[i]});
    }
    // is_within_limits agrees with the measured excess (|C| ≈ the angle past the bound).
    if (worst > 0.06f) {
      EXPECT_FALSE(part.is_within_limits(q, 0.05f));
    }
    if (worst < 0.04f) {
      EXPECT_TRUE(part.is_within_limits(q, 0.05f));
    }
  }
  return run;
}

TEST(SwingTwistPyramidPart, AsymmetricRangesHoldUnderRandomTorques) {
  // Twist in [−0.3, 0.5], swing about Y in [−0.2, 0.6], about Z in [−0.7, 0.1] rad.
  const float lo[3] = {-0.3f, -0.2f, -0.7f};
  const float hi[3] = {0.5f, 0.6f, 0.1f};
  const PyramidRun run = spin_against_pyramid(lo, hi);
  std::printf(
      "pyramid: twist [%.4f, %.4f], swing y [%.4f, %.4f], swing z [%.4f, %.4f]; worst excess "
      "%.4f %.4f %.4f rad; largest turn in a step %.4f rad\n",
      run.lo[0], run.hi[0], run.lo[1], run.hi[1], run.lo[2], run.hi[2], run.worst[0], run.worst[1],
      run.worst[2], run.largest_step_turn);
  EXPECT_GT(run.largest_step_turn, 0.1f);  // violent torques: measured 0.129 rad a step
  for (int i = 0; i < 3; ++i) {
    // Every bound is reached (within 0.03 rad; measured twist [−0.3000, 0.5000], y [−0.2018,
    // 0.6006], z [−0.7002, 0.1015]) ...
    EXPECT_LT(run.lo[i], lo[i] + 0.03f) << i;
    EXPECT_GT(run.hi[i], hi[i] - 0.03f) << i;
    // ... and held (measured worst excess 0.0000, 0.0018, 0.0015 rad).
    EXPECT_LT(run.worst[i], 0.03f) << i;
  }
}

TEST(SwingTwistPyramidPart, LockedSwingAxisStaysLocked) {
  // Swing about Y locked at 0.3 rad, about Z in [−1.5, 1.5], twist in [−0.5, 0.5]. (With a
  // free twist the random torques spin the body up to 40 rad/s, 0.7 rad a step, and the
  // linearized rows then let the lock drift by 0.08 rad; a free Z would let the swing reach π,
  // where the swing-twist split is singular.)
  const float lo[3] = {-0.5f, 0.3f, -1.5f};
  const float hi[3] = {0.5f, 0.3f, 1.5f};
  // It starts at 0 rad, 0.3 rad from the lock: measured after the first second.
  const PyramidRun run = spin_against_pyramid(lo, hi, 60);
  std::printf(
      "pyramid locked y: swing y in [%.4f, %.4f], swing z in [%.4f, %.4f], twist in [%.4f, "
      "%.4f]; largest turn in a step %.4f rad\n",
      run.lo[1], run.hi[1], run.lo[2], run.hi[2], run.lo[0], run.hi[0], run.largest_step_turn);
  EXPECT_LT(run.worst[1], 0.02f);          // the lock holds: measured y in [0.2980, 0.3049]
  EXPECT_GT(run.hi[2] - run.lo[2], 2.9f);  // z moves over its range: measured 3.0005
  EXPECT_LT(run.worst[2], 0.02f);          // measured 0.0004
  EXPECT_LT(run.worst[0], 0.02f);          // measured 0.0010
}

TEST(SwingTwistPyramidPart, RowsAreOneSidedAndSetLimitsReturnsToCone) {
  SwingTwistConstraintPart part;
  part.set_pyramid_limits(-k_pi, k_pi, -0.1f, 0.4f, -0.2f, 0.2f);
  SolverBody b1 = test::static_body();
  // 0.5 rad about Z: past the Z maximum 0.2; about Y at 0 (inside [−0.1, 0.4]).
  SolverBody b2 = test::ball(1.0f, 1.0f, Vec3(), Quat::rotation(Vec3::axis_z(), 0.5f));
  part.calculate_constraint_properties(k_dt, b1, b2, Quat::identity(), Quat::identity());
  EXPECT_TRUE(part.is_active());
  EXPECT_FALSE(part.is_within_limits(b2.rotation, 0.05f));
  b2.angular_velocity = Vec3(0.0f, 0.0f, 1.0f);
  EXPECT_TRUE(part.solve_velocity_constraint(b1, b2));
  const float w_out = b2.angular_velocity.z();
  const float lambda_z = part.total_lambda_swing_z();
  EXPECT_NEAR(w_out, 0.0f, 1.0e-4f);  // the outward turn stops: measured 0.000000
  // The angular impulse that stops 1 rad/s of 1 kg·m² (N·m·s about the unit axis, one-sided):
  // measured −1.000000 (−2.064 per unit of the raw error before the rows were normalised).
  EXPECT_NEAR(lambda_z, -1.0f, 1.0e-4f);
  // Inwards is free.
  part.set_total_lambda_swing_z(0.0f);
  part.set_total_lambda({0.0f, 0.0f});
  b2.angular_velocity = Vec3(0.0f, 0.0f, -1.0f);
  part.solve_velocity_constraint(b1, b2);
  const float w_in = b2.angular_velocity.z();
  EXPECT_NEAR(w_in, -1.0f, 1.0e-6f);  // measured −1.000000
  // The position step turns it back by about baumgarte × the excess (0.2 × 0.3 rad).
  const float before = test::angle_about(b2.rotation, Vec3::axis_z());
  EXPECT_TRUE(part.solve_position_constraint(b1, b2, Quat::identity(), Quat::identity(), 0.2f));
  const float turned = before - test::angle_about(b2.rotation, Vec3::axis_z());
  std::printf(
      "pyramid rows: w_z %.6f after an outward turn (lambda %.6f), %.6f inwards; "
      "position step %.4f rad\n",
      w_out, lambda_z, w_in, turned);
  EXPECT_NEAR(turned, 0.2f * 0.3f, 0.01f);  // measured 0.0609 rad
  part.deactivate();
  EXPECT_EQ(part.total_lambda_swing_z(), 0.0f);

  // Back to a cone of 0.2 rad: 0.15 rad about Z and 0.15 about Y is outside the cone (0.21
  // rad of swing) but inside the pyramid's box.
  const Quat q = Quat::rotation(Vec3(0.0f, 1.0f, 1.0f).normalized(), 0.2121f);
  part.set_pyramid_limits(-k_pi, k_pi, -0.2f, 0.2f, -0.2f, 0.2f);
  EXPECT_TRUE(part.is_within_limits(q, 0.0f));
  part.set_limits(-k_pi, k_pi, 0.2f, 0.2f);
  EXPECT_EQ(part.swing_type(), SwingType::Cone);
  EXPECT_FALSE(part.is_within_limits(q, 0.005f));
  EXPECT_TRUE(part.is_within_limits(q, 0.02f));
}

}  // namespace
}  // namespace swing_twist_pyramid_part_test
}  // namespace atl
