// The island solver's pieces: per-island step counts (SolverSteps) and the rule that an island's
// solve never writes the immovable solver entries that every island reads.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "atoll/solver/IslandSolver.h"

namespace atl {
namespace island_solver_test {
namespace {

constexpr float k_dt = 1.0f / 60.0f;

TEST(SolverSteps, NoOverrideUsesTheGlobalSettings) {
  PhysicsSettings settings;
  settings.velocity_steps = 7;
  settings.position_steps = 3;
  SolverSteps none;
  EXPECT_EQ(none.velocity_steps(settings), 7);
  EXPECT_EQ(none.position_steps(settings), 3);
  SolverSteps zeros;
  zeros.add(0, 0);
  EXPECT_EQ(zeros.velocity_steps(settings), 7);
  EXPECT_EQ(zeros.position_steps(settings), 3);
}

TEST(SolverSteps, TheLargestOverrideWinsAndAnObjectWithoutOneBringsTheDefault) {
  PhysicsSettings settings;  // 10 velocity, 2 position steps
  SolverSteps only_overrides;
  only_overrides.add(4, 1);
  only_overrides.add(6, 0);
  // Every object overrides the velocity count: the largest override, even below the default.
  EXPECT_EQ(only_overrides.velocity_steps(settings), 6);
  // One object has no position override: the default joins the maximum.
  EXPECT_EQ(only_overrides.position_steps(settings), 2);
  SolverSteps mixed;
  mixed.add(0, 5);
  mixed.add(20, 5);
  EXPECT_EQ(mixed.velocity_steps(settings), 20);
  EXPECT_EQ(mixed.position_steps(settings), 5);
}

// Symptom (before): every island wrote the immovable solver entries it touched (velocity +=
// 0 · λ, position += 0): harmless in value, but a data race once islands run in parallel, since
// every island on the ground writes the ground's one entry. The writes show in the sign of a
// zero: an entry whose velocity is −0 came back +0 (−0 + 0 = +0). Cause: the contact solver
// wrote both bodies' entries unconditionally. Fix: an immovable entry is read-only; the solver
// writes a copy (writable_entry in SolverBody.h). After: the entry is bit for bit what it was.
TEST(IslandSolver, AnIslandSolveNeverWritesTheImmovableEntryOtherIslandsRead) {
  std::vector<SolverBody> bodies(2);
  // Body 0: immovable ground whose velocity is −0 (as a stopped kinematic body's may be).
  // Body 1: a 1 kg unit cube sliding on it and sunk 10 cm into it.
  bodies[0].linear_velocity = Vec3(-0.0f, -0.0f, -0.0f);
  bodies[0].angular_velocity = Vec3(-0.0f, -0.0f, -0.0f);
  SolverBody& cube = bodies[1];
  cube.com_position = Vec3(0, 0.4f, 0);
  cube.linear_velocity = Vec3(1.0f, -1.0f, -0.5f);
  cube.angular_velocity = Vec3(0.3f, 0.2f, -0.4f);
  cube.inv_mass = Vec3::replicate(1.0f);
  cube.inv_inertia = Mat44::scale(Vec3::replicate(6.0f));
  const SolverBody ground_before = bodies[0];

  for (bool manifold_friction : {true, false}) {
    PhysicsSettings settings;
    settings.manifold_friction = manifold_friction;
    ContactConstraintManager manager;
    manager.begin_step(k_dt, settings);
    ContactManifold m;
    m.normal = Vec3(0, 1, 0);
    m.penetration_depth = 0.1f;
    for (float x : {-0.5f, 0.5f})
      for (float z : {-0.5f, 0.5f}) {
        m.points_on_1.push_back(Vec3(x, 0, z));
        m.points_on_2.push_back(Vec3(x, -0.1f, z));
      }
    ContactSettings cs;
    cs.combined_friction = 0.5f;
    (void)manager.add_manifold({1, 2, 0, 1}, m, cs, bodies, settings);
    manager.setup_velocity_constraints(bodies, {}, k_dt, settings);
    const std::vector<uint32_t> items{0};
    ConstraintManager joints;  // no joint constraints in this island
    ContactConstraintManager::StackSolve stack;
    EXPECT_GT(
        solve_island_velocity(manager, joints, bodies, items, {}, SolverSteps(), settings, stack),
        0u);
    const Vec3 before_position = bodies[1].com_position;
    solve_island_position(manager, joints, bodies, items, {}, SolverSteps(), settings);
    EXPECT_GT(bodies[1].com_position.y(), before_position.y());  // the position solve ran

    EXPECT_EQ(std::memcmp(&bodies[0], &ground_before, sizeof(SolverBody)), 0)
        << "manifold_friction " << manifold_friction << ": ground velocity "
        << std::signbit(bodies[0].linear_velocity.x())
        << std::signbit(bodies[0].linear_velocity.y())
        << std::signbit(bodies[0].linear_velocity.z());
  }
}

// A split island's velocity rounds: the warm start, the iterations until one applies no
// impulse, and the impulse store only after such an early exit (the last iteration stores the
// impulses as it solves each batch, so the solve ends after it).
TEST(IslandSolver, SplitVelocityRoundsStoreAfterAnEarlyExitAndEndAfterTheLastIteration) {
  // Ten iterations: rounds 0 (warm start), 1 … 10, 11 (store).
  constexpr uint32_t k_rounds = 12;
  for (bool changed : {false, true}) EXPECT_EQ(split_velocity_next_round(0, changed, k_rounds), 1u);
  for (uint32_t round = 1; round < 10; ++round) {
    EXPECT_EQ(split_velocity_next_round(round, true, k_rounds), round + 1) << round;
    EXPECT_EQ(split_velocity_next_round(round, false, k_rounds), 11u) << round;
  }
  for (bool changed : {false, true}) {
    EXPECT_EQ(split_velocity_next_round(10, changed, k_rounds), k_rounds);
    EXPECT_EQ(split_velocity_next_round(11, changed, k_rounds), k_rounds);
  }
  // One iteration: it stores; none: the warm start, then the store.
  for (bool changed : {false, true}) {
    EXPECT_EQ(split_velocity_next_round(0, changed, 3), 1u);
    EXPECT_EQ(split_velocity_next_round(1, changed, 3), 3u);
    EXPECT_EQ(split_velocity_next_round(0, changed, 2), 1u);
    EXPECT_EQ(split_velocity_next_round(1, changed, 2), 2u);
  }
}

}  // namespace
}  // namespace island_solver_test
}  // namespace atl
