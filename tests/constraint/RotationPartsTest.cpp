// HingeRotationConstraintPart, RotationEulerConstraintPart and RotationQuatConstraintPart: one
// velocity step is exact for free bodies and conserves angular momentum, the Baumgarte step
// turns the bodies back (the quaternion part also from far away), warm start, save/restore,
// deactivate.

#include <gtest/gtest.h>

#include "PartTestBodies.h"
#include "atoll/constraint/parts/HingeRotationConstraintPart.h"
#include "atoll/constraint/parts/RotationEulerConstraintPart.h"
#include "atoll/constraint/parts/RotationQuatConstraintPart.h"

namespace atl {
namespace rotation_parts_test {
namespace {

struct Spinning {
  SolverBody b1 = test::dynamic_body(1.0f, Vec3(0.5f, 0.8f, 1.1f));
  SolverBody b2 = test::dynamic_body(1.0f, Vec3(1.2f, 0.7f, 0.4f));
  Spinning() {
    b1.angular_velocity = Vec3(0.3f, -0.2f, 0.9f);
    b2.angular_velocity = Vec3(-1.0f, 0.4f, 0.2f);
  }
  // I·ω summed (world axes, principal inertia along them).
  Vec3 angular_momentum() const {
    return Vec3(0.5f, 0.8f, 1.1f) * b1.angular_velocity +
           Vec3(1.2f, 0.7f, 0.4f) * b2.angular_velocity;
  }
};

// Angle (rad) between a1 and a2.
float misalignment(const Vec3& a1, const Vec3& a2) {
  return std::acos(std::clamp(a1.dot(a2), -1.0f, 1.0f));
}

TEST(HingeRotationConstraintPart, OneStepLeavesOnlyTheRotationAboutTheHinge) {
  Spinning s;
  const Vec3 axis = Vec3(0.3f, 1.0f, 0.2f).normalized();
  const Vec3 momentum = s.angular_momentum();
  HingeRotationConstraintPart part;
  part.calculate_constraint_properties(s.b1, s.b2, axis, axis);
  ASSERT_TRUE(part.is_active());
  EXPECT_TRUE(part.solve_velocity_constraint(s.b1, s.b2));
  const Vec3 dw = s.b2.angular_velocity - s.b1.angular_velocity;
  EXPECT_LT((dw - axis * dw.dot(axis)).length(), 1.0e-5f);
  EXPECT_LT((s.angular_momentum() - momentum).length(), 1.0e-5f);
  EXPECT_FALSE(part.solve_velocity_constraint(s.b1, s.b2));
}

TEST(HingeRotationConstraintPart, PositionSolveRealignsTheAxes) {
  SolverBody b1 = test::ball(1.0f, 1.0f);
  SolverBody b2 = test::ball(1.0f, 2.0f, Vec3(), Quat::rotation(Vec3::axis_x(), 0.3f));
  const Vec3 local_axis = Vec3::axis_y();
  HingeRotationConstraintPart part;
  const float e0 = misalignment(b1.rotation * local_axis, b2.rotation * local_axis);
  part.calculate_constraint_properties(b1, b2, b1.rotation * local_axis, b2.rotation * local_axis);
  ASSERT_TRUE(part.solve_position_constraint(b1, b2, 0.2f));
  const float e1 = misalignment(b1.rotation * local_axis, b2.rotation * local_axis);
  EXPECT_NEAR(e1, 0.8f * e0, 0.02f * e0);
  for (int i = 0; i < 60; ++i) {
    part.calculate_constraint_properties(b1, b2, b1.rotation * local_axis,
                                         b2.rotation * local_axis);
    part.solve_position_constraint(b1, b2, 0.2f);
  }
  EXPECT_LT(misalignment(b1.rotation * local_axis, b2.rotation * local_axis), 1.0e-3f);
  // Body 1 (inertia 1) turned twice as far as body 2 (inertia 2).
  EXPECT_NEAR(test::angle_about(b1.rotation, Vec3::axis_x()),
              -2.0f * (test::angle_about(b2.rotation, Vec3::axis_x()) - 0.3f), 1.0e-3f);
}

TEST(HingeRotationConstraintPart, WarmStartRoundTripAndDeactivate) {
  Spinning s;
  HingeRotationConstraintPart part;
  part.calculate_constraint_properties(s.b1, s.b2, Vec3::axis_y(), Vec3::axis_y());
  part.solve_velocity_constraint(s.b1, s.b2);
  const HingeRotationConstraintPart::Lambda saved = part.total_lambda();
  HingeRotationConstraintPart other;
  other.calculate_constraint_properties(s.b1, s.b2, Vec3::axis_y(), Vec3::axis_y());
  other.set_total_lambda(saved);
  EXPECT_EQ(other.total_lambda(), saved);
  // Warm starting with ratio 0.5 applies half of it: the same as applying it directly.
  SolverBody a1 = s.b1;
  SolverBody a2 = s.b2;
  other.warm_start(s.b1, s.b2, 0.5f);
  other.apply(a1, a2, {0.5f * saved[0], 0.5f * saved[1]});
  EXPECT_LT((s.b2.angular_velocity - a2.angular_velocity).length(), 1.0e-6f);
  EXPECT_NEAR(other.total_lambda()[0], 0.5f * saved[0], 1.0e-7f);
  part.deactivate();
  EXPECT_FALSE(part.is_active());
  const Vec3 w = s.b2.angular_velocity;
  EXPECT_FALSE(part.solve_velocity_constraint(s.b1, s.b2));
  EXPECT_FALSE(part.solve_position_constraint(s.b1, s.b2, 0.2f));
  EXPECT_EQ(s.b2.angular_velocity, w);
}

TEST(RotationEulerConstraintPart, OneStepStopsTheRelativeRotation) {
  Spinning s;
  const Vec3 momentum = s.angular_momentum();
  RotationEulerConstraintPart part;
  part.calculate_constraint_properties(s.b1, s.b2);
  EXPECT_TRUE(part.solve_velocity_constraint(s.b1, s.b2));
  EXPECT_LT((s.b2.angular_velocity - s.b1.angular_velocity).length(), 1.0e-5f);
  EXPECT_LT((s.angular_momentum() - momentum).length(), 1.0e-5f);
  const Vec3 saved = part.total_lambda();
  part.deactivate();
  EXPECT_EQ(part.total_lambda(), Vec3());
  part.set_total_lambda(saved);
  EXPECT_EQ(part.total_lambda(), saved);
}

// Turns body 2 by `angle` about a tilted axis away from the held relative rotation and runs
// `iterations` Baumgarte steps; returns the remaining error angle (rad) after each.
template <class Part>
std::vector<float> realign(float angle, int iterations) {
  SolverBody b1 = test::ball(1.0f, 1.0f, Vec3(), Quat::rotation(Vec3::axis_z(), 0.2f));
  const Quat q0 = Quat::rotation(Vec3::axis_x(), 0.5f);  // held: q1⁻¹·q2
  const Vec3 tilt = Vec3(1.0f, 2.0f, -1.0f).normalized();
  SolverBody b2 = test::ball(1.0f, 1.0f, Vec3(), Quat::rotation(tilt, angle) * b1.rotation * q0);
  std::vector<float> errors;
  Part part;
  for (int i = 0; i < iterations; ++i) {
    if constexpr (std::is_same_v<Part, RotationQuatConstraintPart>)
      part.calculate_constraint_properties(b1, b2, q0);
    else
      part.calculate_constraint_properties(b1, b2);
    part.solve_position_constraint(b1, b2, q0, 0.2f);
    Vec3 axis;
    float remaining;
    (b1.rotation.conjugated() * b2.rotation * q0.conjugated()).to_axis_angle(axis, remaining);
    errors.push_back(remaining);
  }
  return errors;
}

TEST(RotationEulerConstraintPart, PositionSolveTurnsBackTheBaumgarteFraction) {
  const std::vector<float> e = realign<RotationEulerConstraintPart>(0.2f, 60);
  EXPECT_NEAR(e[0], 0.8f * 0.2f, 0.01f);
  EXPECT_LT(e.back(), 1.0e-4f);
}

TEST(RotationQuatConstraintPart, OneStepStopsTheRelativeRotation) {
  Spinning s;
  s.b2.rotation = Quat::rotation(Vec3(0.0f, 0.6f, 0.8f), 0.7f);
  const Vec3 momentum = s.angular_momentum();
  RotationQuatConstraintPart part;
  part.calculate_constraint_properties(s.b1, s.b2,
                                       RotationQuatConstraintPart::relative_rotation(
                                           s.b1.rotation, Quat::rotation(Vec3::axis_x(), 0.3f)));
  ASSERT_TRUE(part.is_active());
  EXPECT_TRUE(part.solve_velocity_constraint(s.b1, s.b2));
  EXPECT_LT((s.b2.angular_velocity - s.b1.angular_velocity).length(), 1.0e-5f);
  EXPECT_LT((s.angular_momentum() - momentum).length(), 1.0e-5f);
  const Vec3 saved = part.total_lambda();
  SolverBody a1 = s.b1;
  SolverBody a2 = s.b2;
  part.warm_start(s.b1, s.b2, 0.25f);
  part.apply(a1, a2, saved * 0.25f);
  EXPECT_LT((s.b2.angular_velocity - a2.angular_velocity).length(), 1.0e-6f);
  part.deactivate();
  EXPECT_FALSE(part.solve_velocity_constraint(s.b1, s.b2));
  EXPECT_EQ(part.total_lambda(), Vec3());
}

TEST(RotationQuatConstraintPart, PositionSolveTurnsBackFromSmallAndLargeErrors) {
  const std::vector<float> small = realign<RotationQuatConstraintPart>(0.2f, 60);
  EXPECT_NEAR(small[0], 0.8f * 0.2f, 0.01f);
  EXPECT_LT(small.back(), 1.0e-4f);
  // 2.5 rad away: C = sin(θ/2) is far from θ/2, the exact Jacobian still converges.
  const std::vector<float> large = realign<RotationQuatConstraintPart>(2.5f, 120);
  for (size_t i = 1; i < large.size(); ++i) EXPECT_LE(large[i], large[i - 1] + 1.0e-6f);
  EXPECT_LT(large.back(), 1.0e-3f);
}

// The Jacobian A is the rate of C = e.xyz: read Aᵀ back through apply() (body 2 with unit
// inertia, body 1 static: Δω2 = Aᵀ·λ) and compare A·ω with a finite difference of C as body 2
// turns at ω, far from the held rotation.
TEST(RotationQuatConstraintPart, JacobianIsTheRateOfTheError) {
  SolverBody b1 = test::static_body(Vec3(), Quat::rotation(Vec3(0.6f, 0.0f, 0.8f), 0.9f));
  SolverBody b2 = test::ball(1.0f, 1.0f, Vec3(), Quat::rotation(Vec3(0.0f, 0.6f, 0.8f), 2.0f));
  const Quat q0 = Quat::rotation(Vec3::axis_x(), 0.4f);
  RotationQuatConstraintPart part;
  part.calculate_constraint_properties(b1, b2, q0);
  ASSERT_TRUE(part.is_active());
  Vec3 a_t[3];  // columns of Aᵀ = rows of A
  for (int i = 0; i < 3; ++i) {
    SolverBody p1 = b1;
    SolverBody p2 = b2;
    Vec3 unit;
    unit.set_component(i, 1.0f);
    part.apply(p1, p2, unit);
    a_t[i] = p2.angular_velocity;
  }
  const Vec3 omega(0.7f, -0.4f, 1.1f);
  const float h = 1.0e-3f;
  const Vec3 c0 = RotationQuatConstraintPart::error_rotation(b1.rotation, b2.rotation, q0).xyz();
  const Quat turned =
      (Quat::rotation(omega.normalized(), omega.length() * h) * b2.rotation).normalized();
  const Vec3 c1 = RotationQuatConstraintPart::error_rotation(b1.rotation, turned, q0).xyz();
  const Vec3 rate = (c1 - c0) / h;
  const Vec3 predicted(a_t[0].dot(omega), a_t[1].dot(omega), a_t[2].dot(omega));
  EXPECT_LT((rate - predicted).length(), 2.0e-3f * predicted.length())
      << rate << " vs " << predicted;
}

}  // namespace
}  // namespace rotation_parts_test
}  // namespace atl
