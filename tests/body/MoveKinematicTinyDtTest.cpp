// Regression (found by tests/fuzz's api_calls target): move_kinematic accepted any dt > 0, and
// one so short that distance / dt overflows float (a denormal, or 1e-38 s for 10 m) gave the
// kinematic body an infinite velocity, which nothing quarantines before the next step. Such a
// dt is now refused with a message, and the body is left as it was.

#include <gtest/gtest.h>

#include <string>

#include "atoll/body/BodyInterface.h"
#include "atoll/shape/BoxShape.h"

namespace atl {
namespace move_kinematic_tiny_dt_test {

TEST(MoveKinematicTinyDt, ADtTooShortForFloatIsRefusedAndChangesNothing) {
  BodyManager manager;
  BodyInterface bodies(manager);
  const BodyID id =
      bodies
          .create_and_add_body({BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value(),
                                Vec3(0, 1, 0), Quat::identity(), MotionType::Kinematic},
                               Activation::Activate)
          .value();
  ASSERT_TRUE(bodies.set_linear_velocity(id, Vec3(1, 2, 3)).ok());
  const Status moved = bodies.move_kinematic(id, Vec3(10, 1, 0), Quat::identity(), 1.0e-38f);
  ASSERT_FALSE(moved.ok());
  EXPECT_EQ(std::string(moved.error().message()),
            "BodyInterface::move_kinematic: dt: too short to reach the target: the velocity "
            "overflows float, got 1e-38");
  EXPECT_EQ(bodies.linear_velocity(id).value(), Vec3(1, 2, 3));
  EXPECT_EQ(bodies.angular_velocity(id).value(), Vec3::zero());
  // A short but workable dt still moves it.
  ASSERT_TRUE(bodies.move_kinematic(id, Vec3(10, 1, 0), Quat::identity(), 1.0e-6f).ok());
  EXPECT_TRUE(bodies.linear_velocity(id).value().is_finite());
  EXPECT_FLOAT_EQ(bodies.linear_velocity(id).value().x(), 1.0e7f);
}

}  // namespace move_kinematic_tiny_dt_test
}  // namespace atl
