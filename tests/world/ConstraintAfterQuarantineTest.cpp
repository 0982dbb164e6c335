// A constraint on a body that the world quarantines (its state went non-finite in a step,
// README "Differences from Jolt"). The step's NaN reached the constraint's accumulated impulses;
// its parts dropped the impulses but kept the sums, so the constraint was warm-started from NaN
// in every later step and applied nothing for ever: after release_quarantine a box hanging on a
// rope fell (0.28 m in 1 s) and total_lambda read NaN. The world now restarts the impulses of the
// constraints on a body it quarantines, as set_enabled(true) does.

#include <gtest/gtest.h>

#include <cmath>

#include "atoll/constraint/DistanceConstraint.h"
#include "atoll/constraint/GearConstraint.h"
#include "atoll/constraint/HingeConstraint.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {
namespace constraint_after_quarantine_test {
namespace {

constexpr float k_dt = 1.0f / 60.0f;
constexpr float k_huge_force = 3.0e38f;  // finite; twice that is not

struct World {
  BodyInterface& bodies() { return system.body_interface(); }
  BodyID add_box(const Vec3& position) {
    const Ref<Shape> shape = BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value_or_throw();
    return bodies()
        .create_and_add_body({shape, position, Quat(), MotionType::Dynamic}, Activation::Activate)
        .value_or_throw();
  }
  void run(int steps) {
    for (int i = 0; i < steps; ++i) ASSERT_TRUE(system.update(k_dt).ok());
  }
  // Quarantines `body` in one step (two valid forces whose sum overflows) and releases it.
  void quarantine_and_release(BodyID body) {
    ASSERT_TRUE(bodies().add_force(body, Vec3(k_huge_force, 0, 0)).ok());
    ASSERT_TRUE(bodies().add_force(body, Vec3(k_huge_force, 0, 0)).ok());
    const Result<UpdateResult> result = system.update(k_dt);
    ASSERT_TRUE(result.ok());
    ASSERT_EQ(result.value().quarantined.size(), 1u);
    ASSERT_TRUE(bodies().release_quarantine(body).ok());
  }
  float y(BodyID body) { return bodies().body(body).value()->position().y(); }
  PhysicsSystem system;
};

TEST(ConstraintAfterQuarantine, ARopeHoldsItsBoxAgainAfterTheBoxIsReleased) {
  World world;
  const BodyID box = world.add_box(Vec3(0, 5, 0));
  DistanceConstraintSettings s;
  s.point1 = Vec3(0, 10, 0);
  s.point2 = Vec3(0, 5, 0);
  const Ref<Constraint> rope = s.create(world.bodies(), Constraint::k_world, box).value_or_throw();
  ASSERT_TRUE(world.system.add_constraint(rope).ok());
  world.run(10);
  ASSERT_NEAR(world.y(box), 5.0f, 1.0e-3f);

  world.quarantine_and_release(box);
  const auto& distance = static_cast<const DistanceConstraint&>(*rope);
  EXPECT_EQ(distance.total_lambda_position(), 0.0f) << "restarted, as when re-enabled";
  world.run(60);
  EXPECT_TRUE(std::isfinite(distance.total_lambda_position()));
  EXPECT_LT(distance.total_lambda_position(), 0.0f) << "it pulls";
  EXPECT_NEAR(world.y(box), 5.0f, 1.0e-2f) << "the rope no longer holds the box";
}

TEST(ConstraintAfterQuarantine, AGearCoupledToTheHingeOfAReleasedBodyCorrectsAgain) {
  World world;
  PhysicsSettings settings = world.system.settings();
  settings.gravity = Vec3::zero();
  settings.allow_sleeping = false;
  ASSERT_TRUE(world.system.set_settings(settings).ok());
  const BodyID g1 = world.add_box(Vec3(0, 5, 0));
  const BodyID g2 = world.add_box(Vec3(3, 5, 0));
  const auto hinge_to_world = [&](BodyID body, const Vec3& at) {
    HingeConstraintSettings h;
    h.point1 = h.point2 = at;
    h.hinge_axis1 = h.hinge_axis2 = Vec3(0, 0, 1);
    h.normal_axis1 = h.normal_axis2 = Vec3(1, 0, 0);
    const Ref<Constraint> c = h.create(world.bodies(), Constraint::k_world, body).value_or_throw();
    EXPECT_TRUE(world.system.add_constraint(c).ok());
    return c;
  };
  const Ref<Constraint> h1 = hinge_to_world(g1, Vec3(0, 5, 0));
  const Ref<Constraint> h2 = hinge_to_world(g2, Vec3(3, 5, 0));
  GearConstraintSettings gs;
  gs.hinge_axis1 = gs.hinge_axis2 = Vec3(0, 0, 1);
  gs.ratio = 2.0f;
  const Ref<Constraint> gear = gs.create(world.bodies(), g1, g2).value_or_throw();
  ASSERT_TRUE(world.system.add_constraint(gear).ok());
  ASSERT_TRUE(static_cast<GearConstraint&>(*gear).set_constraints(h1, h2).ok());
  ASSERT_TRUE(world.bodies().set_angular_velocity(g1, Vec3(0, 0, 4)).ok());
  world.run(30);

  world.quarantine_and_release(g1);
  ASSERT_TRUE(world.bodies().set_angular_velocity(g1, Vec3(0, 0, 4)).ok());
  world.run(60);
  for (const Ref<Constraint>& c : {h1, h2, gear})
    EXPECT_TRUE(std::isfinite(c->linear_impulse()) && std::isfinite(c->angular_impulse()));
  const float error = static_cast<const GearConstraint&>(*gear).angle_error();
  EXPECT_TRUE(std::isfinite(error));
  EXPECT_LT(std::fabs(error), 0.01f);
  const float w1 = world.bodies().body(g1).value()->angular_velocity().z();
  const float w2 = world.bodies().body(g2).value()->angular_velocity().z();
  EXPECT_GT(std::fabs(w1), 0.1f);
  EXPECT_NEAR(w1, -2.0f * w2, 1.0e-3f) << "the gear couples the spins again";
}

}  // namespace
}  // namespace constraint_after_quarantine_test
}  // namespace atl
