// A gear or rack-and-pinion coupled to joints with set_constraints (or a scene's constraint1 /
// constraint2) corrects the drift it reads from those joints. A joint that is not solved — a
// hinge that broke (disabled) or was removed from the world — keeps the angle of its last
// solve: a coupling that went on correcting towards it held its gear still (a gear spinning at
// 0.69 rad/s turned 0.03 rad in 2 s, its pose put back every step while its velocity said
// otherwise; a pinion 0.17 rad instead of 3.4) or, with the other hinge removed, drove it round
// (6.7 rad in those 2 s). It now stops correcting until both joints are solved again.

#include <gtest/gtest.h>

#include <cmath>
#include <utility>

#include "atoll/constraint/GearConstraint.h"
#include "atoll/constraint/HingeConstraint.h"
#include "atoll/constraint/RackAndPinionConstraint.h"
#include "atoll/constraint/SliderConstraint.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/state/StateRecorder.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {
namespace coupled_joint_not_solved_test {
namespace {

constexpr float k_dt = 1.0f / 60.0f;

struct World {
  World() {
    PhysicsSettings settings = system.settings();
    settings.gravity = Vec3::zero();
    settings.allow_sleeping = false;
    EXPECT_TRUE(system.set_settings(settings).ok());
  }
  BodyInterface& bodies() { return system.body_interface(); }
  BodyID add_box(const Vec3& half_extent, const Vec3& position) {
    const Ref<Shape> shape = BoxShapeSettings{half_extent}.create().value_or_throw();
    return bodies()
        .create_and_add_body({shape, position, Quat(), MotionType::Dynamic}, Activation::Activate)
        .value_or_throw();
  }
  Ref<Constraint> add(Result<Ref<Constraint>> made) {
    const Ref<Constraint> constraint = std::move(made).value_or_throw();
    EXPECT_TRUE(system.add_constraint(constraint).ok());
    return constraint;
  }
  // A hinge about world z through `body`'s centre, to the world.
  Ref<Constraint> hinge_to_world(BodyID body) {
    HingeConstraintSettings s;
    s.point1 = s.point2 = bodies().body(body).value()->center_of_mass_position();
    s.hinge_axis1 = s.hinge_axis2 = Vec3(0.0f, 0.0f, 1.0f);
    s.normal_axis1 = s.normal_axis2 = Vec3(1.0f, 0.0f, 0.0f);
    return add(s.create(bodies(), Constraint::k_world, body));
  }
  void run(int steps) {
    for (int i = 0; i < steps; ++i) ASSERT_TRUE(system.update(k_dt).ok());
  }
  // The turn (rad) of `body` about z over `steps` steps, unwrapped.
  float turn_over(BodyID body, int steps) {
    const auto angle = [&] {
      const Quat q = bodies().body(body).value()->rotation();
      return 2.0f * std::atan2(q.z(), q.w());
    };
    float last = angle(), turn = 0.0f;
    for (int i = 0; i < steps; ++i) {
      EXPECT_TRUE(system.update(k_dt).ok());
      const float now = angle();
      turn += center_angle_around_zero(now - last);
      last = now;
    }
    return turn;
  }
  float spin(BodyID body) { return bodies().body(body).value()->angular_velocity().z(); }
  PhysicsSystem system;
};

// Two gears on hinges about z (ratio 2), coupled to their hinges; gear 1 spins.
struct Gears : World {
  Gears() {
    g1 = add_box(Vec3(0.5f, 0.5f, 0.1f), Vec3(0.0f, 5.0f, 0.0f));
    g2 = add_box(Vec3(1.0f, 1.0f, 0.1f), Vec3(3.0f, 5.0f, 0.0f));
    EXPECT_TRUE(bodies().set_angular_velocity(g1, Vec3(0.0f, 0.0f, 4.0f)).ok());
    h1 = hinge_to_world(g1);
    h2 = hinge_to_world(g2);
    GearConstraintSettings s;
    s.hinge_axis1 = s.hinge_axis2 = Vec3(0.0f, 0.0f, 1.0f);
    s.ratio = 2.0f;
    gear = add(s.create(bodies(), g1, g2));
    EXPECT_TRUE(static_cast<GearConstraint&>(*gear).set_constraints(h1, h2).ok());
    run(60);
  }
  BodyID g1, g2;
  Ref<Constraint> h1, h2, gear;
};

TEST(CoupledJointNotSolved, AGearKeepsTurningWhenACoupledHingeIsDisabled) {
  Gears world;
  world.h2->set_enabled(false);  // as when it breaks
  const float turn = world.turn_over(world.g1, 120);
  // The gear still couples the spins (which slow down as gear 2 takes its share); gear 1 turns
  // as it spins (0.03 rad in these 2 s when held still).
  EXPECT_GT(turn, 0.9f * world.spin(world.g1) * 2.0f) << "held still by a frozen hinge angle";
  EXPECT_LT(turn, 1.2f * world.spin(world.g1) * 2.0f) << "driven by a frozen hinge angle";
  EXPECT_GT(turn, 1.0f);
  EXPECT_EQ(static_cast<GearConstraint&>(*world.gear).angle_error(), 0.0f);
}

TEST(CoupledJointNotSolved, AGearKeepsTurningWhenACoupledHingeIsRemoved) {
  Gears world;
  ASSERT_TRUE(world.system.remove_constraint(world.h1).ok());
  const float turn = world.turn_over(world.g1, 120);
  EXPECT_GT(turn, 0.9f * world.spin(world.g1) * 2.0f) << "held still by a frozen hinge angle";
  EXPECT_LT(turn, 1.2f * world.spin(world.g1) * 2.0f) << "driven by a frozen hinge angle";
  EXPECT_GT(turn, 1.0f);
}

TEST(CoupledJointNotSolved, AGearCorrectsTheDriftAgainFromWhereTheHingesAreWhenReEnabled) {
  Gears world;
  world.h2->set_enabled(false);
  world.run(60);
  world.h2->set_enabled(true);
  world.run(60);
  auto& gear = static_cast<GearConstraint&>(*world.gear);
  // Counted from the angles at re-enabling: a small drift, corrected, not the turn made while
  // the hinge was not solved.
  EXPECT_TRUE(std::isfinite(gear.angle_error()));
  EXPECT_LT(std::fabs(gear.angle_error()), 0.01f);
  EXPECT_NEAR(world.spin(world.g1), -2.0f * world.spin(world.g2), 1.0e-3f);
  // And it follows the hinges again: the turns keep the ratio.
  const float turn1 = world.turn_over(world.g1, 60);
  EXPECT_GT(std::fabs(turn1), 0.3f);
  EXPECT_LT(std::fabs(gear.angle_error()), 0.01f);
}

// A suspended reading is kept in a saved state as a last angle that is not finite: the state
// restores (the impulses and joint angles of a saved state must be finite; this mark may not
// be), and the world goes on with the same bits as one never saved.
TEST(CoupledJointNotSolved, AWorldWithASuspendedReadingIsSavedAndRestored) {
  Gears world;
  world.h2->set_enabled(false);
  world.run(2);
  StateRecorder saved;
  ASSERT_TRUE(world.system.save_state(saved).ok());
  world.run(30);
  world.h2->set_enabled(true);
  world.run(30);
  const uint64_t first = world.system.state_hash();
  world.h2->set_enabled(false);
  const Status restored = world.system.restore_state(saved);
  ASSERT_TRUE(restored.ok()) << restored.error().message();
  world.run(30);
  world.h2->set_enabled(true);
  world.run(30);
  EXPECT_EQ(world.system.state_hash(), first);
}

TEST(CoupledJointNotSolved, APinionKeepsTurningWhenTheCoupledSliderIsDisabled) {
  World world;
  const BodyID pinion = world.add_box(Vec3(0.5f, 0.5f, 0.1f), Vec3(0.0f, 5.0f, 0.0f));
  const BodyID rack = world.add_box(Vec3(1.0f, 0.1f, 0.1f), Vec3(0.0f, 3.0f, 0.0f));
  ASSERT_TRUE(world.bodies().set_angular_velocity(pinion, Vec3(0.0f, 0.0f, 3.0f)).ok());
  RackAndPinionConstraintSettings rs;
  rs.hinge_axis = Vec3(0.0f, 0.0f, 1.0f);
  rs.slider_axis = Vec3(1.0f, 0.0f, 0.0f);
  rs.ratio = 2.0f;
  const Ref<Constraint> coupling = world.add(rs.create(world.bodies(), pinion, rack));
  const Ref<Constraint> hinge = world.hinge_to_world(pinion);
  SliderConstraintSettings ss;
  ss.point1 = ss.point2 = Vec3(0.0f, 3.0f, 0.0f);
  ss.slider_axis1 = Vec3(1.0f, 0.0f, 0.0f);
  const Ref<Constraint> slider = world.add(ss.create(world.bodies(), Constraint::k_world, rack));
  ASSERT_TRUE(static_cast<RackAndPinionConstraint&>(*coupling).set_constraints(hinge, slider).ok());
  world.run(60);
  slider->set_enabled(false);
  const float turn = world.turn_over(pinion, 120);
  EXPECT_GT(turn, 0.9f * world.spin(pinion) * 2.0f) << "held still by a frozen slider position";
  EXPECT_LT(turn, 1.2f * world.spin(pinion) * 2.0f) << "driven by a frozen slider position";
  EXPECT_GT(turn, 1.0f);
  EXPECT_EQ(static_cast<RackAndPinionConstraint&>(*coupling).error(), 0.0f);
}

}  // namespace
}  // namespace coupled_joint_not_solved_test
}  // namespace atl
