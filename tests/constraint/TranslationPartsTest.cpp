// PointConstraintPart, DualAxisConstraintPart and IndependentAxisConstraintPart: one velocity
// step is exact for free bodies, momentum is conserved, the Baumgarte step removes its fraction
// of the error, warm start, save/restore and deactivate.

#include <gtest/gtest.h>

#include "PartTestBodies.h"
#include "atoll/constraint/parts/DualAxisConstraintPart.h"
#include "atoll/constraint/parts/IndependentAxisConstraintPart.h"
#include "atoll/constraint/parts/PointConstraintPart.h"

namespace atl {
namespace translation_parts_test {
namespace {

struct Pair {
  SolverBody b1 = test::dynamic_body(2.0f, Vec3(0.5f, 0.8f, 1.1f), Vec3(0.0f, 0.0f, 0.0f));
  SolverBody b2 = test::dynamic_body(3.0f, Vec3(1.2f, 0.7f, 0.4f), Vec3(1.0f, 0.2f, -0.1f));
  Vec3 local1{0.4f, 0.3f, -0.2f};  // lever arms in body space
  Vec3 local2{-0.5f, 0.1f, 0.25f};

  Pair() {
    b1.linear_velocity = Vec3(0.3f, -1.0f, 0.5f);
    b1.angular_velocity = Vec3(0.2f, 0.4f, -0.7f);
    b2.linear_velocity = Vec3(-0.8f, 0.2f, 0.1f);
    b2.angular_velocity = Vec3(-0.3f, 0.9f, 0.6f);
  }
  Vec3 r1() const { return b1.rotation * local1; }
  Vec3 r2() const { return b2.rotation * local2; }
  Vec3 point_velocity_difference() const {
    return b2.linear_velocity + b2.angular_velocity.cross(r2()) - b1.linear_velocity -
           b1.angular_velocity.cross(r1());
  }
  Vec3 separation() const { return (b2.com_position + r2()) - (b1.com_position + r1()); }
  Vec3 momentum() const { return b1.linear_velocity * 2.0f + b2.linear_velocity * 3.0f; }
};

TEST(PointConstraintPart, OneStepJoinsThePointsAndConservesMomentum) {
  Pair s;
  const Vec3 momentum = s.momentum();
  PointConstraintPart part;
  part.calculate_constraint_properties(s.b1, s.r1(), s.b2, s.r2());
  ASSERT_TRUE(part.is_active());
  EXPECT_TRUE(part.solve_velocity_constraint(s.b1, s.b2));
  EXPECT_LT(s.point_velocity_difference().length(), 1.0e-5f);
  EXPECT_LT((s.momentum() - momentum).length(), 1.0e-5f);
  // The impulse is the momentum change of body 2.
  EXPECT_LT((part.total_lambda() - (s.b2.linear_velocity * 3.0f - Vec3(-0.8f, 0.2f, 0.1f) * 3.0f))
                .length(),
            1.0e-5f);
  EXPECT_FALSE(part.solve_velocity_constraint(s.b1, s.b2));
}

TEST(PointConstraintPart, PositionSolveClosesTheGap) {
  Pair s;
  const float gap0 = s.separation().length();
  ASSERT_GT(gap0, 0.3f);
  PointConstraintPart part;
  part.calculate_constraint_properties(s.b1, s.r1(), s.b2, s.r2());
  ASSERT_TRUE(part.solve_position_constraint(s.b1, s.b2, 0.2f));
  const float gap1 = s.separation().length();
  EXPECT_LT(gap1, 0.85f * gap0);
  EXPECT_GT(gap1, 0.7f * gap0);
  for (int i = 0; i < 60; ++i) {
    part.calculate_constraint_properties(s.b1, s.r1(), s.b2, s.r2());
    part.solve_position_constraint(s.b1, s.b2, 0.2f);
  }
  EXPECT_LT(s.separation().length(), 1.0e-4f * gap0);
}

TEST(PointConstraintPart, WarmStartRoundTripAndDeactivate) {
  SolverBody b1 = test::static_body();
  SolverBody b2 = test::ball(4.0f, 1.0f, Vec3(0.0f, -1.0f, 0.0f));
  PointConstraintPart part;
  part.calculate_constraint_properties(b1, Vec3(), b2, Vec3(0.0f, 1.0f, 0.0f));
  part.set_total_lambda(Vec3(0.0f, 2.0f, 0.0f));
  part.warm_start(b1, b2, 0.5f);
  EXPECT_EQ(part.total_lambda(), Vec3(0.0f, 1.0f, 0.0f));
  EXPECT_NEAR(b2.linear_velocity.y(), 0.25f, 1.0e-6f);  // 1 N·s / 4 kg
  EXPECT_EQ(b1.linear_velocity, Vec3());                // static: untouched
  part.deactivate();
  EXPECT_FALSE(part.is_active());
  EXPECT_EQ(part.total_lambda(), Vec3());
  const SolverBody before = b2;
  EXPECT_FALSE(part.solve_velocity_constraint(b1, b2));
  EXPECT_FALSE(part.solve_position_constraint(b1, b2, 0.2f));
  EXPECT_EQ(b2.linear_velocity, before.linear_velocity);
  EXPECT_EQ(b2.com_position, before.com_position);
  // Two immovable bodies: nothing to solve.
  SolverBody b3 = test::static_body();
  part.calculate_constraint_properties(b1, Vec3(), b3, Vec3());
  EXPECT_FALSE(part.is_active());
}

TEST(DualAxisConstraintPart, OneStepStopsTheTwoAxesAndLeavesTheThirdFree) {
  Pair s;
  const Vec3 n1 = Vec3::axis_y();
  const Vec3 n2 = Vec3::axis_z();
  DualAxisConstraintPart part;
  part.calculate_constraint_properties(s.b1, s.r1(), s.b2, s.r2(), n1, n2);
  ASSERT_TRUE(part.is_active());
  EXPECT_TRUE(part.solve_velocity_constraint(s.b1, s.b2));
  const Vec3 dv = s.point_velocity_difference();
  EXPECT_NEAR(dv.y(), 0.0f, 1.0e-5f);
  EXPECT_NEAR(dv.z(), 0.0f, 1.0e-5f);
  // The impulse has no component along the free axis.
  const Vec3 momentum_change = s.b2.linear_velocity * 3.0f - Vec3(-0.8f, 0.2f, 0.1f) * 3.0f;
  EXPECT_NEAR(momentum_change.x(), 0.0f, 1.0e-6f);
  EXPECT_NEAR(momentum_change.y(), part.total_lambda()[0], 1.0e-5f);
  EXPECT_NEAR(momentum_change.z(), part.total_lambda()[1], 1.0e-5f);
}

TEST(DualAxisConstraintPart, PositionSolveWarmStartAndDeactivate) {
  // Points at the centres of mass: the step is linear and exact.
  SolverBody b1 = test::ball(1.0f, 1.0f);
  SolverBody b2 = test::ball(1.0f, 1.0f, Vec3(2.0f, 0.3f, -0.5f));
  DualAxisConstraintPart part;
  part.calculate_constraint_properties(b1, Vec3(), b2, Vec3(), Vec3::axis_y(), Vec3::axis_z());
  ASSERT_TRUE(part.solve_position_constraint(b1, b2, 0.2f));
  const Vec3 d = b2.com_position - b1.com_position;
  EXPECT_NEAR(d.x(), 2.0f, 1.0e-6f);
  EXPECT_NEAR(d.y(), 0.8f * 0.3f, 1.0e-6f);
  EXPECT_NEAR(d.z(), 0.8f * -0.5f, 1.0e-6f);

  part.set_total_lambda({1.0f, -2.0f});
  part.warm_start(b1, b2, 0.5f);
  EXPECT_NEAR(b2.linear_velocity.y(), 0.5f, 1.0e-6f);
  EXPECT_NEAR(b2.linear_velocity.z(), -1.0f, 1.0e-6f);
  EXPECT_NEAR(b1.linear_velocity.y(), -0.5f, 1.0e-6f);
  part.deactivate();
  EXPECT_FALSE(part.is_active());
  EXPECT_FALSE(part.solve_velocity_constraint(b1, b2));
  EXPECT_EQ(part.total_lambda()[0], 0.0f);
}

// A pulley: rope from a fixed point above each body, L1 + 2·L2 constant.
TEST(IndependentAxisConstraintPart, KeepsThePulleyRatioAndOnlyPulls) {
  SolverBody b1 = test::ball(1.0f, 1.0f, Vec3(-1.0f, -2.0f, 0.0f));
  SolverBody b2 = test::ball(1.0f, 1.0f, Vec3(1.0f, -2.0f, 0.0f));
  const Vec3 n1(0.0f, -1.0f, 0.0f);  // from each fixed point to the body
  const Vec3 n2(0.0f, -1.0f, 0.0f);
  b1.linear_velocity = Vec3(0.0f, -1.0f, 0.0f);  // body 1 falls: the rope would lengthen
  IndependentAxisConstraintPart part;
  part.calculate_constraint_properties(b1, Vec3(), b2, Vec3(), n1, n2, 2.0f);
  EXPECT_TRUE(part.solve_velocity_constraint(b1, b2, -k_float_max, 0.0f));
  const float rate1 = n1.dot(b1.linear_velocity);
  const float rate2 = n2.dot(b2.linear_velocity);
  EXPECT_NEAR(rate1 + 2.0f * rate2, 0.0f, 1.0e-6f);
  EXPECT_LT(part.total_lambda(), 0.0f);
  // K = 1 + 2²: λ = −1/5, body 1 keeps 4/5 of its speed... and body 2 rises at 2/5 m/s.
  EXPECT_NEAR(part.total_lambda(), -0.2f, 1.0e-6f);
  EXPECT_NEAR(b2.linear_velocity.y(), 0.4f, 1.0e-6f);

  // Shortening: the rope goes slack, no push.
  part.set_total_lambda(0.0f);
  b1.linear_velocity = Vec3(0.0f, 1.0f, 0.0f);
  b2.linear_velocity = Vec3();
  EXPECT_FALSE(part.solve_velocity_constraint(b1, b2, -k_float_max, 0.0f));
  EXPECT_EQ(b1.linear_velocity, Vec3(0.0f, 1.0f, 0.0f));

  // Position: a rope 0.3 m too long is shortened by β of that.
  const float c = 0.3f;
  part.calculate_constraint_properties(b1, Vec3(), b2, Vec3(), n1, n2, 2.0f);
  const float before = -b1.com_position.y() + 2.0f * -b2.com_position.y();
  ASSERT_TRUE(part.solve_position_constraint(b1, b2, c, 0.2f));
  const float after = -b1.com_position.y() + 2.0f * -b2.com_position.y();
  EXPECT_NEAR(after - before, -0.2f * c, 1.0e-5f);

  // Warm start: λ × ratio along each rope (body 1 along n1, body 2 along ratio·n2).
  part.set_total_lambda(-1.0f);
  const Vec3 v1 = b1.linear_velocity;
  const Vec3 v2 = b2.linear_velocity;
  part.warm_start(b1, b2, 0.5f);
  EXPECT_EQ(part.total_lambda(), -0.5f);
  EXPECT_NEAR(b1.linear_velocity.y() - v1.y(), 0.5f, 1.0e-6f);
  EXPECT_NEAR(b2.linear_velocity.y() - v2.y(), 1.0f, 1.0e-6f);

  part.deactivate();
  EXPECT_FALSE(part.is_active());
  EXPECT_FALSE(part.solve_velocity_constraint(b1, b2));
}

}  // namespace
}  // namespace translation_parts_test
}  // namespace atl
