#include <gtest/gtest.h>

#include <cmath>

#include "atoll/body/MotionProperties.h"
#include "body/BodyTestUtil.h"

namespace atl {
namespace motion_properties_test {
namespace {

using test::expect_near_rel;
using test::expect_vec_near;

// A free 1000 kg unit cube (inertia 1000/6 kg·m² about every axis), no damping, no limits.
MotionProperties free_cube() {
  MotionProperties motion;
  motion.set_mass_properties(AllowedDOFs::All, MassProperties::box(Vec3(1, 1, 1), 1000.0f));
  return motion;
}

TEST(MotionProperties, GravityIntegratesToGTimesT) {
  MotionProperties motion = free_cube();
  const Vec3 gravity(0.0f, -9.81f, 0.0f);
  for (int i = 0; i < 60; ++i) motion.apply_force_torque_and_gravity(Quat(), 1.0f / 60.0f, gravity);
  expect_vec_near(motion.linear_velocity(), Vec3(0.0f, -9.81f, 0.0f), 1.0e-4f);
  EXPECT_EQ(motion.angular_velocity(), Vec3());
}

TEST(MotionProperties, GravityFactorScalesGravity) {
  MotionProperties motion = free_cube();
  motion.set_gravity_factor(0.5f);
  motion.apply_force_torque_and_gravity(Quat(), 0.1f, Vec3(0.0f, -10.0f, 0.0f));
  expect_vec_near(motion.linear_velocity(), Vec3(0.0f, -0.5f, 0.0f));
  motion.set_gravity_factor(0.0f);
  motion.apply_force_torque_and_gravity(Quat(), 0.1f, Vec3(0.0f, -10.0f, 0.0f));
  expect_vec_near(motion.linear_velocity(), Vec3(0.0f, -0.5f, 0.0f));
}

TEST(MotionProperties, ForceOverMassAndTorqueOverInertia) {
  MotionProperties motion = free_cube();
  motion.add_force(Vec3(100.0f, 0.0f, 0.0f));
  motion.add_force(Vec3(0.0f, 0.0f, 50.0f));
  motion.add_torque(Vec3(0.0f, 10.0f, 0.0f));
  EXPECT_EQ(motion.accumulated_force(), Vec3(100.0f, 0.0f, 50.0f));
  motion.apply_force_torque_and_gravity(Quat(), 0.1f, Vec3());
  // Δv = F/m·dt; Δω = τ/I·dt with I = m(1² + 1²)/12.
  expect_vec_near(motion.linear_velocity(), Vec3(0.01f, 0.0f, 0.005f), 1.0e-7f);
  expect_vec_near(motion.angular_velocity(), Vec3(0.0f, 10.0f / (1000.0f / 6.0f) * 0.1f, 0.0f),
                  1.0e-7f);
  // Forces are consumed by the world after the step, not by the integration.
  EXPECT_EQ(motion.accumulated_torque(), Vec3(0.0f, 10.0f, 0.0f));
  motion.reset_force_and_torque();
  EXPECT_EQ(motion.accumulated_force(), Vec3());
  EXPECT_EQ(motion.accumulated_torque(), Vec3());
}

TEST(MotionProperties, DampingIsJoltsFirstOrderFormula) {
  MotionProperties motion = free_cube();
  motion.set_linear_damping(0.5f);
  motion.set_angular_damping(2.0f);
  motion.set_linear_velocity(Vec3(10.0f, 0.0f, 0.0f));
  motion.set_angular_velocity(Vec3(0.0f, 0.0f, 4.0f));
  const float dt = 0.1f;
  for (int i = 1; i <= 5; ++i) {
    motion.apply_force_torque_and_gravity(Quat(), dt, Vec3());
    // v_n = v_0 (1 − c·dt)^n, not v_0 e^(−c·n·dt).
    expect_near_rel(motion.linear_velocity().x(), 10.0f * std::pow(0.95f, float(i)));
    expect_near_rel(motion.angular_velocity().z(), 4.0f * std::pow(0.8f, float(i)));
  }
  EXPECT_GT(std::fabs(motion.linear_velocity().x() - 10.0f * std::exp(-0.5f * 0.5f)), 1.0e-3f);
}

TEST(MotionProperties, HugeDampingStopsButNeverReverses) {
  MotionProperties motion = free_cube();
  motion.set_linear_damping(100.0f);
  motion.set_angular_damping(100.0f);
  motion.set_linear_velocity(Vec3(3.0f, -2.0f, 1.0f));
  motion.set_angular_velocity(Vec3(1.0f, 1.0f, 1.0f));
  motion.apply_force_torque_and_gravity(Quat(), 0.1f, Vec3());
  EXPECT_EQ(motion.linear_velocity().length(), 0.0f);
  EXPECT_EQ(motion.angular_velocity().length(), 0.0f);
}

TEST(MotionProperties, VelocitiesClampToMaxKeepingDirection) {
  MotionProperties motion = free_cube();
  motion.set_max_linear_velocity(5.0f);
  motion.set_max_angular_velocity(2.0f);
  motion.set_linear_velocity(Vec3(6.0f, 8.0f, 0.0f));
  motion.set_angular_velocity(Vec3(0.0f, 0.0f, -7.0f));
  expect_vec_near(motion.linear_velocity(), Vec3(3.0f, 4.0f, 0.0f));
  expect_vec_near(motion.angular_velocity(), Vec3(0.0f, 0.0f, -2.0f));
  // Gravity cannot push past the limit either.
  motion.set_linear_velocity(Vec3(0.0f, -5.0f, 0.0f));
  motion.apply_force_torque_and_gravity(Quat(), 1.0f, Vec3(0.0f, -9.81f, 0.0f));
  expect_near_rel(motion.linear_velocity().length(), 5.0f);
  // Below the limit nothing changes.
  motion.set_linear_velocity(Vec3(1.0f, 2.0f, 2.0f));
  EXPECT_EQ(motion.linear_velocity(), Vec3(1.0f, 2.0f, 2.0f));
}

TEST(MotionProperties, Plane2DKeepsZVelocityAndXYRotationZero) {
  MotionProperties motion;
  motion.set_mass_properties(AllowedDOFs::Plane2D, MassProperties::box(Vec3(1, 2, 3), 500.0f));
  motion.set_linear_velocity(Vec3(1.0f, 2.0f, 3.0f));
  motion.set_angular_velocity(Vec3(1.0f, 2.0f, 3.0f));
  EXPECT_EQ(motion.linear_velocity(), Vec3(1.0f, 2.0f, 0.0f));
  EXPECT_EQ(motion.angular_velocity(), Vec3(0.0f, 0.0f, 3.0f));

  const Quat rotation = Quat::rotation(Vec3::axis_z(), 0.7f);
  for (int i = 0; i < 30; ++i) {
    motion.add_force(Vec3(10.0f, 20.0f, 30.0f));
    motion.add_torque(Vec3(5.0f, -7.0f, 3.0f));
    motion.apply_force_torque_and_gravity(rotation, 1.0f / 60.0f, Vec3(0.0f, -9.81f, -4.0f));
    motion.reset_force_and_torque();
  }
  EXPECT_EQ(motion.linear_velocity().z(), 0.0f);
  EXPECT_EQ(motion.angular_velocity().x(), 0.0f);
  EXPECT_EQ(motion.angular_velocity().y(), 0.0f);
  EXPECT_LT(motion.linear_velocity().y(), 0.0f);
  EXPECT_GT(motion.angular_velocity().z(), 3.0f);

  // The world inverse inertia has zero rows and columns for the locked X and Y rotation.
  const Mat44 inv = motion.inverse_inertia_world(Mat44::rotation(rotation));
  for (int i = 0; i < 3; ++i) {
    for (int locked = 0; locked < 2; ++locked) {
      EXPECT_EQ(inv(locked, i), 0.0f);
      EXPECT_EQ(inv(i, locked), 0.0f);
    }
  }
  EXPECT_GT(inv(2, 2), 0.0f);
}

TEST(MotionProperties, LockingAllTranslationOrRotationZeroesMassOrInertia) {
  const MassProperties mass = MassProperties::box(Vec3(1, 1, 1), 1000.0f);
  MotionProperties rotate_only;
  rotate_only.set_mass_properties(AllowedDOFs::AllRotation, mass);
  EXPECT_EQ(rotate_only.inverse_mass(), 0.0f);
  EXPECT_GT(rotate_only.inverse_inertia_diagonal().min_component(), 0.0f);
  MotionProperties translate_only;
  translate_only.set_mass_properties(AllowedDOFs::AllTranslation, mass);
  EXPECT_FLOAT_EQ(translate_only.inverse_mass(), 1.0e-3f);
  EXPECT_EQ(translate_only.inverse_inertia_diagonal(), Vec3());
  const Mat44 inv = translate_only.inverse_inertia_world(Mat44::identity());
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 3; ++col) EXPECT_EQ(inv(row, col), 0.0f);
}

TEST(MotionProperties, WorldInverseInertiaIsRotatedPrincipalInverse) {
  // A 2×4×6 box: distinct principal moments, so the rotation matters.
  const float m = 1000.0f * 2 * 4 * 6;
  const Vec3 moments(m / 12 * (16 + 36), m / 12 * (4 + 36), m / 12 * (4 + 16));
  MotionProperties motion;
  motion.set_mass_properties(AllowedDOFs::All, MassProperties::box(Vec3(2, 4, 6), 1000.0f));
  const Quat q = Quat::rotation(Vec3(1, 2, 3).normalized(), 0.9f);
  const Mat44 r = Mat44::rotation(q);
  const Mat44 expected =
      r.multiply3x3(Mat44::scale(moments.reciprocal())).multiply3x3(r.transposed3x3());
  const Mat44 actual = motion.inverse_inertia_world(r);
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 3; ++col)
      EXPECT_NEAR(actual(row, col), expected(row, col), 1.0e-9f) << row << "," << col;
  // The matrix-free product agrees with the matrix.
  const Vec3 v(0.3f, -1.2f, 2.5f);
  expect_vec_near(motion.multiply_world_space_inverse_inertia(q, v), actual.multiply3x3(v),
                  1.0e-9f);
}

TEST(MotionProperties, DegenerateInertiaFallsBackToUnitSphere) {
  MassProperties mass;
  mass.mass = 2.0f;  // inertia left zero: cannot be decomposed into positive moments
  MotionProperties motion;
  motion.set_mass_properties(AllowedDOFs::All, mass);
  EXPECT_FLOAT_EQ(motion.inverse_mass(), 0.5f);
  // Solid sphere of radius 1: I = 0.4·m, inverse 2.5/m.
  EXPECT_EQ(motion.inverse_inertia_diagonal(), Vec3::replicate(1.25f));
  EXPECT_EQ(motion.inertia_rotation(), Quat::identity());
}

TEST(MotionProperties, ZeroMassGivesInfiniteMass) {
  MotionProperties motion;
  motion.set_mass_properties(AllowedDOFs::All, MassProperties());
  EXPECT_EQ(motion.inverse_mass(), 0.0f);
  EXPECT_EQ(motion.inverse_inertia_diagonal(), Vec3());
}

TEST(MotionProperties, MoveKinematicTakesShortestRotation) {
  MotionProperties motion = free_cube();
  const Quat from = Quat::identity();
  // 270° about Y is reached faster by −90°.
  const Quat to = Quat::rotation(Vec3::axis_y(), 1.5f * k_pi);
  motion.move_kinematic(Vec3(1, 2, 3), from, Vec3(2, 2, 1), to, 0.5f);
  expect_vec_near(motion.linear_velocity(), Vec3(2.0f, 0.0f, -4.0f));
  expect_vec_near(motion.angular_velocity(), Vec3(0.0f, -k_half_pi / 0.5f, 0.0f), 1.0e-4f);
}

TEST(MotionProperties, SleepTestNeedsStillnessForTheWholeTime) {
  MotionProperties motion;
  Vec3 points[3] = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
  motion.reset_sleep_test(points);
  const float dt = 0.1f;
  const float max_movement = 0.03f * 0.5f;
  // Tiny jitter (well under max_movement) still counts as still.
  for (int i = 0; i < 4; ++i) {
    points[0] = Vec3(0.001f * float(i % 2), 0, 0);
    EXPECT_FALSE(motion.update_sleep_test(points, dt, max_movement, 0.5f)) << i;
  }
  EXPECT_TRUE(motion.update_sleep_test(points, dt, max_movement, 0.5f));
  EXPECT_FLOAT_EQ(motion.sleep_test_timer(), 0.5f);
  // Moving one point further than max_movement restarts the test there.
  points[2] = Vec3(0, 1.1f, 0);
  EXPECT_FALSE(motion.update_sleep_test(points, dt, max_movement, 0.5f));
  EXPECT_EQ(motion.sleep_test_timer(), 0.0f);
  EXPECT_EQ(Vec3(motion.sleep_test_sphere(2).center), points[2]);
  EXPECT_EQ(motion.sleep_test_sphere(2).radius, 0.0f);
}

TEST(MotionProperties, SleepSphereGrowsMinimally) {
  MotionProperties motion;
  Vec3 points[3] = {Vec3(), Vec3(), Vec3()};
  motion.reset_sleep_test(points);
  points[0] = Vec3(0.01f, 0, 0);
  EXPECT_FALSE(motion.update_sleep_test(points, 0.1f, 1.0f, 1.0f));
  // The smallest sphere around both positions: centre halfway, radius half the distance.
  EXPECT_FLOAT_EQ(motion.sleep_test_sphere(0).radius, 0.005f);
  EXPECT_FLOAT_EQ(motion.sleep_test_sphere(0).center.x, 0.005f);
}

}  // namespace
}  // namespace motion_properties_test
}  // namespace atl
