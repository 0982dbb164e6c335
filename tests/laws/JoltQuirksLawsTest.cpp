// LAWS.md §B: Jolt's traps that Atoll fixes. Each test shows the fix; the comment beside each
// assertion gives Jolt's reading from the seeds and Atoll's measured one.

#include "laws/LawFixture.h"

namespace atl::laws {
namespace jolt_quirks_laws_test {
namespace {

TEST_F(LawFixture, B1_FrictionWorksAtOneVelocityIteration) {
  // Jolt bounds friction by the previous iteration's normal impulse, so with one iteration
  // there is none. Atoll bounds it by the normal impulse accumulated so far, warm start
  // included.
  const auto [distance, speed] = slide_a3_box(with(&PhysicsSettings::velocity_steps, 1));
  const float expected = 5.0f * 5.0f / (2.0f * 0.5f * k_g);  // 2.548 m
  report("B1.velocity_steps_1.stopping_distance_m", distance);
  report("B1.velocity_steps_1.final_speed_mps", speed);
  // Jolt E6: 25000.04 mm, still at 5.0000 m/s (no friction at all); Atoll: 2589 mm, 0 m/s.
  EXPECT_NEAR(distance, expected, 0.2f * expected);
  EXPECT_LT(speed, 1.0e-3f);
}

// DISABLED: fails in Atoll (outside LAWS.md B1, which keeps the default warm start). Symptom:
// with warm starting off and one velocity iteration, the box stops after 2.02 m instead of
// 2.55 m (−21 %; 1.85 m before face contacts were solved as a block). A contact without impulse
// solves its normal first in the first iteration, so friction acts, but without a warm start the
// single sweep overshoots: friction tips the box forward, the front points then take more than the
// weight, and friction grows with them.
TEST_F(LawFixture, DISABLED_B1_FrictionWorksAtOneVelocityIterationWithoutWarmStart) {
  PhysicsSettings settings = with(&PhysicsSettings::velocity_steps, 1);
  settings.warm_start = false;
  const auto [distance, speed] = slide_a3_box(settings);
  const float expected = 5.0f * 5.0f / (2.0f * 0.5f * k_g);
  report("B1.velocity_steps_1.no_warm_start.stopping_distance_m", distance);
  EXPECT_NEAR(distance, expected, 0.2f * expected);
  EXPECT_LT(speed, 1.0e-3f);
}

}  // namespace
}  // namespace jolt_quirks_laws_test
}  // namespace atl::laws
