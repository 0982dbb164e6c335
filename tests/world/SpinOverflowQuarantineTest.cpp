// Regression (found by tests/fuzz's api_calls target): a body allowed a huge angular velocity
// (max_angular_velocity up to FLT_MAX is valid) can turn by more than float can measure in one
// step: |ω·dt| overflowed to ∞, the axis ω·dt / |ω·dt| was zero and the integrator's
// Quat::rotation asserted (builds with asserts aborted; others went on with a NaN rotation).
// Now the rotation goes NaN on purpose and the step's non-finite check quarantines the body,
// back at its start pose and at rest, like any other overflow (QuarantineTest.cpp).

#include <gtest/gtest.h>

#include <limits>

#include "atoll/shape/SphereShape.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {
namespace spin_overflow_quarantine_test {

TEST(SpinOverflowQuarantine, ATurnTooLargeForFloatQuarantinesTheBody) {
  PhysicsSystem system;
  BodyInterface& bodies = system.body_interface();
  BodyCreationSettings settings(SphereShapeSettings{0.5f}.create().value(), Vec3(0, 5, 0),
                                Quat::identity(), MotionType::Dynamic);
  settings.max_angular_velocity = std::numeric_limits<float>::max();
  const BodyID id = bodies.create_and_add_body(settings, Activation::Activate).value();
  // Finite, and kept (below the maximum), but |ω·dt|² overflows float.
  ASSERT_TRUE(bodies.set_angular_velocity(id, Vec3(1.0e30f, 0, 0)).ok());
  const Result<UpdateResult> result = system.update(1.0f / 60.0f);
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_EQ(result->quarantined, std::vector<BodyID>{id});
  EXPECT_TRUE(bodies.is_quarantined(id).value());
  const Body& body = *bodies.body(id).value();
  EXPECT_EQ(body.position(), Vec3(0, 5, 0));
  EXPECT_EQ(body.rotation(), Quat::identity());
  EXPECT_EQ(body.angular_velocity(), Vec3::zero());
}

TEST(SpinOverflowQuarantine, AFastButMeasurableSpinIsIntegrated) {
  PhysicsSystem system;
  BodyInterface& bodies = system.body_interface();
  BodyCreationSettings settings(SphereShapeSettings{0.5f}.create().value(), Vec3(0, 5, 0),
                                Quat::identity(), MotionType::Dynamic);
  settings.max_angular_velocity = std::numeric_limits<float>::max();
  settings.angular_damping = 0.0f;
  const BodyID id = bodies.create_and_add_body(settings, Activation::Activate).value();
  // 6e10 rad/s: 1e9 rad in a step, reduced modulo 2π by sin_cos.
  ASSERT_TRUE(bodies.set_angular_velocity(id, Vec3(0, 6.0e10f, 0)).ok());
  const Result<UpdateResult> result = system.update(1.0f / 60.0f);
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_TRUE(result->quarantined.empty());
  const Quat rotation = bodies.rotation(id).value();
  EXPECT_TRUE(rotation.is_finite());
  EXPECT_TRUE(rotation.is_normalized());
}

}  // namespace spin_overflow_quarantine_test
}  // namespace atl
