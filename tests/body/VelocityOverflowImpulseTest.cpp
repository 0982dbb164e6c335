// Regression (found by tests/fuzz's api_calls target): a finite impulse whose effect on the
// velocity overflows float (3e38 N·m·s through a light box's inverse inertia) left a NaN
// angular velocity: the clamp to max_angular_velocity divides ∞ by ∞. In the world the step
// quarantines such a body, but one not added keeps it. The impulse is now refused with a
// message and the velocities are left as they were.

#include <gtest/gtest.h>

#include <string>

#include "atoll/body/BodyInterface.h"
#include "atoll/shape/BoxShape.h"

namespace atl {
namespace velocity_overflow_impulse_test {

TEST(VelocityOverflowImpulse, AnImpulseThatOverflowsTheVelocityIsRefused) {
  BodyManager manager;
  BodyInterface bodies(manager);
  const BodyID id = bodies
                        .create_body({BoxShapeSettings{Vec3(0.1f, 0.1f, 0.1f)}.create().value(),
                                      Vec3(0, 1, 0), Quat::identity(), MotionType::Dynamic})
                        .value();
  ASSERT_TRUE(bodies.set_angular_velocity(id, Vec3(1, 2, 3)).ok());
  const Status added = bodies.add_angular_impulse(id, Vec3(3.0e38f, 3.0e38f, 3.0e38f));
  ASSERT_FALSE(added.ok());
  EXPECT_EQ(std::string(added.error().message()),
            "BodyInterface::add_angular_impulse: angular_impulse: its effect on the velocity "
            "overflows float, got (3e+38, 3e+38, 3e+38)");
  EXPECT_EQ(bodies.angular_velocity(id).value(), Vec3(1, 2, 3));
  EXPECT_EQ(bodies.linear_velocity(id).value(), Vec3::zero());
  // A large impulse that float can take is clamped to max_angular_velocity as before.
  ASSERT_TRUE(bodies.add_angular_impulse(id, Vec3(1.0e30f, 0, 0)).ok());
  EXPECT_TRUE(bodies.angular_velocity(id).value().is_finite());
}

}  // namespace velocity_overflow_impulse_test
}  // namespace atl
