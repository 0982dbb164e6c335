// Regression: a body that flies to the end of float range ended the process. Every input was
// valid — move_kinematic to a target 1e7 m away in dt = 1e-31 s gives 1e38 m/s (finite, so
// accepted), and a dynamic body may have any finite max_linear_velocity — and the body's
// position stayed finite, but once it came within one step of the largest float its broadphase
// box, stretched along the step's displacement, overflowed, and BroadPhase::update_many's move
// asserted. The fat box now saturates at the largest float (DynamicTree::fatten), and the body
// is quarantined when its position itself overflows (QuarantineTest.cpp).

#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "atoll/collision/broadphase/DynamicTree.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {
namespace float_range_flight_test {
namespace {

constexpr float k_dt = 1.0f / 60.0f;
constexpr float k_float_max = std::numeric_limits<float>::max();

Ref<Shape> cube() { return BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value(); }

// Steps until `id` is quarantined (at most `max_steps` updates, each of which must succeed);
// returns the number of updates it took, or max_steps + 1.
int steps_until_quarantined(PhysicsSystem& system, BodyID id, int max_steps) {
  for (int step = 1; step <= max_steps; ++step) {
    const Result<UpdateResult> result = system.update(k_dt);
    EXPECT_TRUE(result.ok()) << result.error().message();
    if (!result.ok()) return max_steps + 1;
    if (result->quarantined == std::vector<BodyID>{id}) return step;
    EXPECT_TRUE(result->quarantined.empty());
  }
  return max_steps + 1;
}

TEST(FloatRangeFlight, AKinematicBodyMovedAtTheSpeedOfATinyDtIsQuarantinedAtTheEndOfFloatRange) {
  PhysicsSystem system;
  BodyInterface& bodies = system.body_interface();
  const BodyID id = bodies
                        .create_and_add_body(BodyCreationSettings(cube(), Vec3(), Quat::identity(),
                                                                  MotionType::Kinematic),
                                             Activation::Activate)
                        .value();
  ASSERT_TRUE(bodies.move_kinematic(id, Vec3(1.0e7f, 0, 0), Quat::identity(), 1.0e-31f).ok());
  ASSERT_GT(bodies.linear_velocity(id).value().x(), 0.99e38f);
  // 1e38 / 60 m per step: float ends after about 204 steps.
  const int steps = steps_until_quarantined(system, id, 260);
  EXPECT_GT(steps, 150);
  EXPECT_LE(steps, 260);
  EXPECT_TRUE(bodies.is_quarantined(id).value());
  const Vec3 position = bodies.position(id).value();
  EXPECT_TRUE(position.is_finite());
  EXPECT_GT(position.x(), 1.0e38f);
  EXPECT_TRUE(system.broadphase().validate().ok());
}

TEST(FloatRangeFlight, ADynamicBodyAllowedAnyFiniteSpeedIsQuarantinedAtTheEndOfFloatRange) {
  PhysicsSystem system;
  BodyInterface& bodies = system.body_interface();
  BodyCreationSettings settings(cube(), Vec3(0, 0, 0), Quat::identity(), MotionType::Dynamic);
  settings.max_linear_velocity = k_float_max;
  settings.linear_damping = 0.0f;
  settings.gravity_factor = 0.0f;
  settings.linear_velocity = Vec3(-1.0e38f, 0, 0);
  const BodyID id = bodies.create_and_add_body(settings, Activation::Activate).value();
  // A neighbour that stays put shares the tree with the flyer.
  const BodyID other =
      bodies
          .create_and_add_body(
              BodyCreationSettings(cube(), Vec3(0, 5, 0), Quat::identity(), MotionType::Kinematic),
              Activation::Activate)
          .value();
  const int steps = steps_until_quarantined(system, id, 260);
  EXPECT_LE(steps, 260);
  EXPECT_TRUE(bodies.is_quarantined(id).value());
  EXPECT_LT(bodies.position(id).value().x(), -1.0e38f);
  EXPECT_EQ(bodies.position(other).value(), Vec3(0, 5, 0));
  EXPECT_TRUE(system.broadphase().validate().ok());
}

TEST(FloatRangeFlight, AFatBoxIsFiniteForAnyFiniteBoxAndDisplacement) {
  const AABox edge(Vec3(3.0e38f, -k_float_max, 0), Vec3(k_float_max, -3.0e38f, 1));
  const AABox fat = DynamicTree::fatten(edge, Vec3(1.0e38f, -1.0e38f, 0), 1.0f);
  EXPECT_TRUE(DynamicTree::is_valid_box(fat));
  EXPECT_EQ(fat.max.x(), k_float_max);
  EXPECT_EQ(fat.min.y(), -k_float_max);
  EXPECT_EQ(fat.min.z(), -1.0f);
  EXPECT_EQ(fat.max.z(), 2.0f);
}

}  // namespace
}  // namespace float_range_flight_test
}  // namespace atl
