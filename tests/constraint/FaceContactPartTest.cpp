// FaceContactPart: one block step solves a face contact exactly (the answer Gauss-Seidel over
// the points only approaches), never pulls, and steps aside for edge contacts.

#include "atoll/constraint/parts/FaceContactPart.h"

#include <gtest/gtest.h>

#include <array>

namespace atl {
namespace face_contact_part_test {
namespace {

// A 1 kg cube of 1 m (inertia 1/6 kg·m² about each axis) resting on a static body whose
// centre of mass is 1 m below the cube's; the face contact has the cube's four bottom corners.
struct CubeOnGround {
  SolverBody ground;
  SolverBody cube;
  std::array<Vec3, 4> r1;
  std::array<Vec3, 4> r2;
  const Vec3 normal{0.0f, 1.0f, 0.0f};
  const Vec3 t1{1.0f, 0.0f, 0.0f};
  const Vec3 t2 = normal.cross(t1);

  CubeOnGround() {
    ground.com_position = Vec3(0.0f, -1.0f, 0.0f);
    cube.com_position = Vec3(0.0f, 0.5f, 0.0f);
    cube.inv_mass = Vec3::replicate(1.0f);
    cube.inv_inertia = Mat44::scale(Vec3::replicate(6.0f));
    const float corners[4][2] = {{-0.5f, -0.5f}, {0.5f, -0.5f}, {0.5f, 0.5f}, {-0.5f, 0.5f}};
    for (int i = 0; i < 4; ++i) {
      const Vec3 p(corners[i][0], 0.0f, corners[i][1]);
      r1[i] = p - ground.com_position;
      r2[i] = p - cube.com_position;
    }
  }

  // Relative normal velocity of corner i (cube w.r.t. ground).
  float normal_velocity(int i) const {
    const Vec3 v2 = cube.linear_velocity + cube.angular_velocity.cross(r2[i]);
    const Vec3 v1 = ground.linear_velocity + ground.angular_velocity.cross(r1[i]);
    return (v2 - v1).dot(normal);
  }

  FaceContactPart make_part(const std::array<float, 4>& targets, int num_points = 4) const {
    FaceContactPart part;
    part.calculate_constraint_properties(ground, cube, r1.data(), r2.data(), targets.data(),
                                         static_cast<uint32_t>(num_points), normal, t1, t2);
    return part;
  }
};

TEST(FaceContactPart, OneStepStopsEveryCornerOfAFallingTiltingCube) {
  CubeOnGround s;
  s.cube.linear_velocity = Vec3(0.1f, -0.3f, 0.0f);
  s.cube.angular_velocity = Vec3(0.2f, 0.05f, -0.1f);
  const FaceContactPart part = s.make_part({0.0f, 0.0f, 0.0f, 0.0f});
  ASSERT_TRUE(part.is_active());
  std::array<float, 4> lambdas{};
  EXPECT_EQ(part.solve_velocity_constraint(s.ground, s.cube, lambdas.data()),
            FaceContactPart::Outcome::Applied);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(s.normal_velocity(i), 0.0f, 1e-5f) << "corner " << i;
    EXPECT_GE(lambdas[i], 0.0f);
  }
  // Nothing is left to do: a second step applies nothing.
  EXPECT_EQ(part.solve_velocity_constraint(s.ground, s.cube, lambdas.data()),
            FaceContactPart::Outcome::Settled);
  // The ground is static: it took no velocity.
  EXPECT_EQ(s.ground.linear_velocity, Vec3());
  // Tangential motion and the spin about the normal are not the block's business.
  EXPECT_FLOAT_EQ(s.cube.linear_velocity.x(), 0.1f);
  EXPECT_FLOAT_EQ(s.cube.angular_velocity.y(), 0.05f);
}

TEST(FaceContactPart, MatchesConvergedGaussSeidelOverThePoints) {
  CubeOnGround block;
  block.cube.linear_velocity = Vec3(0.0f, -0.5f, 0.0f);
  block.cube.angular_velocity = Vec3(0.3f, 0.0f, 0.2f);
  CubeOnGround points = block;
  const FaceContactPart part = block.make_part({0.0f, 0.0f, 0.0f, 0.0f});
  std::array<float, 4> lambdas{};
  part.solve_velocity_constraint(block.ground, block.cube, lambdas.data());

  std::array<AxisConstraintPart, 4> rows;
  for (int i = 0; i < 4; ++i)
    rows[i].calculate_constraint_properties(points.ground, points.r1[i], points.cube, points.r2[i],
                                            points.normal);
  for (int iteration = 0; iteration < 2000; ++iteration)
    for (AxisConstraintPart& row : rows)
      row.solve_velocity_constraint(points.ground, points.cube, points.normal, 0.0f, k_float_max);
  EXPECT_TRUE(block.cube.linear_velocity.is_close(points.cube.linear_velocity, 1e-10f));
  EXPECT_TRUE(block.cube.angular_velocity.is_close(points.cube.angular_velocity, 1e-10f));
  // Same total push (the split between diagonal corners is free).
  float block_total = 0.0f;
  float points_total = 0.0f;
  for (int i = 0; i < 4; ++i) {
    block_total += lambdas[i];
    points_total += rows[i].total_lambda();
  }
  EXPECT_NEAR(block_total, points_total, 1e-4f);
}

TEST(FaceContactPart, RefusesToPullAndChangesNothing) {
  CubeOnGround s;
  // Tipping about the x = +0.5 edge: the far edge lifts off faster than the cube falls, so
  // stopping it would take a pull there.
  s.cube.linear_velocity = Vec3(0.0f, -0.1f, 0.0f);
  s.cube.angular_velocity = Vec3(0.0f, 0.0f, 1.0f);
  const SolverBody before = s.cube;
  const FaceContactPart part = s.make_part({0.0f, 0.0f, 0.0f, 0.0f});
  std::array<float, 4> lambdas{};
  EXPECT_EQ(part.solve_velocity_constraint(s.ground, s.cube, lambdas.data()),
            FaceContactPart::Outcome::NotPushOnly);
  EXPECT_EQ(s.cube.linear_velocity, before.linear_velocity);
  EXPECT_EQ(s.cube.angular_velocity, before.angular_velocity);
  EXPECT_EQ(lambdas, (std::array<float, 4>{}));
}

TEST(FaceContactPart, ShiftsLoadBetweenDiagonalsInsteadOfPulling) {
  CubeOnGround s;
  // Last step's load sat on one diagonal; now the cube moves up a little, so the push must
  // shrink. Taking the same amount off every corner would pull on the unloaded diagonal; the
  // null vector moves load across instead.
  s.cube.linear_velocity = Vec3(0.0f, 0.1f, 0.0f);
  const FaceContactPart part = s.make_part({0.0f, 0.0f, 0.0f, 0.0f});
  std::array<float, 4> lambdas{0.0f, 2.0f, 0.0f, 2.0f};
  EXPECT_EQ(part.solve_velocity_constraint(s.ground, s.cube, lambdas.data()),
            FaceContactPart::Outcome::Applied);
  for (int i = 0; i < 4; ++i) {
    EXPECT_GE(lambdas[i], 0.0f);
    EXPECT_NEAR(s.normal_velocity(i), 0.0f, 1e-5f);
  }
  EXPECT_NEAR(lambdas[0] + lambdas[1] + lambdas[2] + lambdas[3], 4.0f - 0.1f, 1e-5f);
}

TEST(FaceContactPart, InactiveWhereTheBlockDoesNotApply) {
  CubeOnGround s;
  // Two points: an edge.
  EXPECT_FALSE(s.make_part({0.0f, 0.0f, 0.0f, 0.0f}, 2).is_active());
  // Targets that no tilt of the face can meet: one speculative corner among resting ones.
  EXPECT_FALSE(s.make_part({0.0f, 0.0f, -0.3f, 0.0f}).is_active());
  // Affine targets (a face tilted towards the ground) are fine.
  EXPECT_TRUE(s.make_part({-0.1f, -0.2f, -0.2f, -0.1f}).is_active());
  // Points on a line.
  CubeOnGround line;
  for (int i = 0; i < 4; ++i) {
    const Vec3 p(-0.5f + 0.3f * static_cast<float>(i), 0.0f, 0.0f);
    line.r1[i] = p - line.ground.com_position;
    line.r2[i] = p - line.cube.com_position;
  }
  EXPECT_FALSE(line.make_part({0.0f, 0.0f, 0.0f, 0.0f}).is_active());
  // A cube that cannot rotate cannot tilt: the three rows are dependent.
  CubeOnGround locked;
  locked.cube.inv_inertia = Mat44::zero();
  EXPECT_FALSE(locked.make_part({0.0f, 0.0f, 0.0f, 0.0f}).is_active());
}

TEST(FaceContactPart, ThreePointFaceIsSolvedToo) {
  // A triangle of contact points around the centre: a falling, slightly tilting cube is stopped
  // at all three by pushes alone.
  CubeOnGround s;
  const float corners[3][2] = {{-0.5f, -0.5f}, {0.5f, -0.5f}, {0.0f, 0.5f}};
  for (int i = 0; i < 3; ++i) {
    const Vec3 p(corners[i][0], 0.0f, corners[i][1]);
    s.r1[i] = p - s.ground.com_position;
    s.r2[i] = p - s.cube.com_position;
  }
  s.cube.linear_velocity = Vec3(0.0f, -0.2f, 0.0f);
  s.cube.angular_velocity = Vec3(0.02f, 0.0f, 0.02f);
  const FaceContactPart part = s.make_part({0.0f, 0.0f, 0.0f, 0.0f}, 3);
  ASSERT_TRUE(part.is_active());
  std::array<float, 4> lambdas{};
  ASSERT_EQ(part.solve_velocity_constraint(s.ground, s.cube, lambdas.data()),
            FaceContactPart::Outcome::Applied);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(s.normal_velocity(i), 0.0f, 1e-5f);
    EXPECT_GT(lambdas[i], 0.0f);
  }
}

}  // namespace
}  // namespace face_contact_part_test
}  // namespace atl
