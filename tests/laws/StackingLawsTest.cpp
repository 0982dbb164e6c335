// Stacking acceptance: towers under the engine's DEFAULT settings (sleeping on, damping 0.05),
// built from the shipped scene files. The comment beside each assertion gives the measured
// reading. The 1240-box pyramid lives in PyramidSlowLawsTest.cpp.

#include "laws/LawFixture.h"

namespace atl::laws {
namespace {

// DISABLED: fails in Atoll. Symptom: the built-in tower10 scene (ten 1 kg boxes of 1 m) leans
// while it settles and falls asleep standing, its top box 50.7 mm off its start (bound: 10 mm);
// it sinks 12.8 mm. Readings vary 10–50 mm with tiny changes (body-pair cache off: 10.3 mm;
// never reuse on rotation: 38 mm), so the cause is the solver's residual after 10 iterations
// on four coplanar points per contact (a rank-deficient system whose Gauss-Seidel residual
// leaves a small angular velocity in the first steps), not one bug. The 0.25 m tower of
// A4_WarmStartHoldsTheStack stands (28.8 mm max penetration; Jolt 27.9 mm).
TEST_F(LawFixture, DISABLED_Stacking_TenBoxTowerStandsTwentySecondsWithDefaults) {
  const std::unique_ptr<LawWorld> world = LawWorld::from_builtin("tower10", Conditions::Engine);
  ASSERT_NE(world, nullptr);
  const BodyID top = world->scene_body("b9");
  ASSERT_TRUE(top.is_valid());
  const Vec3 start = world->position(top);
  float drift = 0.0f;
  world->run(20 * 60,
             [&](int) { drift = std::max(drift, world->horizontal_distance(top, start)); });
  report("Stacking.tower10.top_drift_mm", drift * 1000.0f);
  report("Stacking.tower10.top_height_change_mm", (world->position(top).y() - start.y()) * 1000.0f);
  EXPECT_LT(drift, 0.01f);
  // Standing: the top box sits at most a slop per contact (11 contacts) below its start.
  EXPECT_GT(world->position(top).y(),
            start.y() - 11.0f * world->system().settings().penetration_slop);
}

}  // namespace
}  // namespace atl::laws
