// Regression (found by tests/fuzz's api_calls target): a LinearCast body whose velocity
// overflowed to infinity during a step (two finite forces whose sum overflows, under a
// max_linear_velocity of FLT_MAX, which clamps nothing) was queued for the CCD sweep, whose
// broadphase cast refused the infinite displacement and the step asserted ("the bounds and
// velocity of a valid body are finite"). Such a body is now left out of the sweep and
// quarantined after the step like any other overflow (QuarantineTest.cpp).

#include <gtest/gtest.h>

#include <limits>

#include "atoll/shape/BoxShape.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {
namespace velocity_overflow_ccd_quarantine_test {

TEST(VelocityOverflowCcdQuarantine, AnInfiniteVelocityIsQuarantinedNotSwept) {
  PhysicsSystem system;
  BodyInterface& bodies = system.body_interface();
  const BodyID floor =
      bodies
          .create_and_add_body({BoxShapeSettings{Vec3(10, 1, 10)}.create().value(), Vec3(0, -1, 0),
                                Quat::identity(), MotionType::Static},
                               Activation::DontActivate)
          .value();
  BodyCreationSettings settings(SphereShapeSettings{0.5f}.create().value(), Vec3(0, 2, 0),
                                Quat::identity(), MotionType::Dynamic);
  settings.motion_quality = MotionQuality::LinearCast;
  settings.max_linear_velocity = std::numeric_limits<float>::max();
  const BodyID ball = bodies.create_and_add_body(settings, Activation::Activate).value();
  ASSERT_TRUE(bodies.add_force(ball, Vec3(0, -3.0e38f, 0)).ok());
  ASSERT_TRUE(bodies.add_force(ball, Vec3(0, -3.0e38f, 0)).ok());
  const Result<UpdateResult> result = system.update(1.0f / 60.0f);
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_EQ(result->quarantined, std::vector<BodyID>{ball});
  EXPECT_EQ(bodies.position(ball).value(), Vec3(0, 2, 0));
  EXPECT_EQ(bodies.linear_velocity(ball).value(), Vec3::zero());
  EXPECT_EQ(bodies.position(floor).value(), Vec3(0, -1, 0));
}

TEST(VelocityOverflowCcdQuarantine, ASweepPastABodyWhoseVelocityOverflowedIsNotCast) {
  // A fast LinearCast ball flies at a box whose own velocity overflows in the same step: the
  // ball's displacement relative to the box was infinite and the cast asserted.
  PhysicsSystem system;
  system
      .set_settings([] {
        PhysicsSettings s;
        s.gravity = Vec3::zero();
        return s;
      }())
      .value();
  BodyInterface& bodies = system.body_interface();
  BodyCreationSettings ball_settings(SphereShapeSettings{0.2f}.create().value(), Vec3(0, 0, 0),
                                     Quat::identity(), MotionType::Dynamic);
  ball_settings.motion_quality = MotionQuality::LinearCast;
  ball_settings.linear_velocity = Vec3(120, 0, 0);
  const BodyID ball = bodies.create_and_add_body(ball_settings, Activation::Activate).value();
  BodyCreationSettings box_settings(BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value(),
                                    Vec3(1.5f, 0, 0), Quat::identity(), MotionType::Dynamic);
  box_settings.max_linear_velocity = std::numeric_limits<float>::max();
  const BodyID box = bodies.create_and_add_body(box_settings, Activation::Activate).value();
  // One step first, so that the box is a pair of the ball's.
  ASSERT_TRUE(system.update(1.0f / 240.0f).ok());
  ASSERT_TRUE(bodies.add_force(box, Vec3(-3.0e38f, 0, 0)).ok());
  ASSERT_TRUE(bodies.add_force(box, Vec3(-3.0e38f, 0, 0)).ok());
  const Result<UpdateResult> result = system.update(1.0f / 60.0f);
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_EQ(result->quarantined, std::vector<BodyID>{box});
  EXPECT_TRUE(bodies.position(ball).value().is_finite());
}

}  // namespace velocity_overflow_ccd_quarantine_test
}  // namespace atl
