// Constraints in the world (issue 8 §2 items 2, 4, 5, 6; LAWS.md D1, D2, D7): the sub-type
// enum and its names, add/remove and their errors, bad settings refused with the field named
// and nothing changed, waking and islands through constraints, disabled and broken constraints,
// a body removed under a constraint, solve order and per-island step counts.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "atoll/constraint/DistanceConstraint.h"
#include "atoll/constraint/FixedConstraint.h"
#include "atoll/constraint/HingeConstraint.h"
#include "atoll/constraint/PointConstraint.h"
#include "atoll/solver/IslandSolver.h"
#include "laws/LawFixture.h"

namespace atl {
namespace constraint_world_test {
namespace {

using laws::BodyOptions;
using laws::LawWorld;

bool mentions(const Error& error, const std::string& text) {
  return std::string(error.message()).find(text) != std::string::npos;
}

Ref<Constraint> point_joint(LawWorld& world, BodyID a, BodyID b, const Vec3& at) {
  PointConstraintSettings s;
  s.point1 = s.point2 = at;
  Result<Ref<Constraint>> c = s.create(world.bodies(), a, b);
  EXPECT_TRUE(c.ok());
  EXPECT_TRUE(world.system().add_constraint(c.value()).ok());
  return c.value();
}

// D1: the values are serialized, so they never change; every one has a snake-case name.
TEST(ConstraintApi, SubTypeValuesAreStableAndNamed) {
  EXPECT_EQ(int(ConstraintSubType::Fixed), 0);
  EXPECT_EQ(int(ConstraintSubType::Point), 1);
  EXPECT_EQ(int(ConstraintSubType::Hinge), 2);
  EXPECT_EQ(int(ConstraintSubType::Slider), 3);
  EXPECT_EQ(int(ConstraintSubType::Distance), 4);
  EXPECT_EQ(int(ConstraintSubType::Cone), 5);
  EXPECT_EQ(int(ConstraintSubType::SwingTwist), 6);
  EXPECT_EQ(int(ConstraintSubType::SixDOF), 7);
  EXPECT_EQ(int(ConstraintSubType::Path), 8);
  EXPECT_EQ(int(ConstraintSubType::Vehicle), 9);
  EXPECT_EQ(int(ConstraintSubType::RackAndPinion), 10);
  EXPECT_EQ(int(ConstraintSubType::Gear), 11);
  EXPECT_EQ(int(ConstraintSubType::Pulley), 12);
  EXPECT_EQ(int(ConstraintSubType::User1), 13);
  EXPECT_EQ(int(ConstraintSubType::User4), 16);
  const char* names[] = {
      "fixed",   "point", "hinge",   "slider",          "distance", "cone",   "swing_twist",
      "six_dof", "path",  "vehicle", "rack_and_pinion", "gear",     "pulley", "user1",
      "user2",   "user3", "user4"};
  for (int i = 0; i < k_num_constraint_sub_types; ++i) {
    EXPECT_STREQ(to_string(ConstraintSubType(i)), names[i]);
    Result<ConstraintSubType> back = constraint_sub_type_from_name(names[i]);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(int(back.value()), i);
  }
  EXPECT_FALSE(constraint_sub_type_from_name("hinges").ok());
}

// D2 and settings(): each type reads back what was set and exposes its parts' impulses.
TEST(ConstraintApi, SettingsReadBackAndTotalLambdasForwardTheParts) {
  LawWorld world;
  const BodyID bob = world.add_sphere(0.1f, Vec3(1.0f, 0.0f, 0.0f), BodyOptions{.mass = 2.0f});
  HingeConstraintSettings s;
  s.common.priority = 7;
  s.common.velocity_steps_override = 30;
  s.common.position_steps_override = 5;
  s.common.user_data = 42;
  s.hinge_axis1 = s.hinge_axis2 = Vec3(0.0f, 0.0f, 1.0f);
  s.limits_min = -1.0f;
  s.limits_max = 1.0f;
  s.max_friction_torque = 0.5f;
  Result<Ref<Constraint>> made = s.create(world.bodies(), Constraint::k_world, bob);
  ASSERT_TRUE(made.ok());
  ASSERT_TRUE(world.system().add_constraint(made.value()).ok());
  auto& hinge = static_cast<HingeConstraint&>(*made.value());
  const HingeConstraintSettings back = hinge.settings();
  EXPECT_EQ(back.common, s.common);
  EXPECT_EQ(back.limits_min, -1.0f);
  EXPECT_EQ(back.limits_max, 1.0f);
  EXPECT_EQ(back.max_friction_torque, 0.5f);
  EXPECT_EQ(back.space, ConstraintSpace::LocalToBodyCOM);
  EXPECT_EQ(hinge.sub_type(), ConstraintSubType::Hinge);
  world.step();
  // The 2 kg bob on a 1 m arm about z, at rest and horizontal: gravity is taken by the hinge's
  // friction torque (capped at 0.5 N·m·s… × dt) and the rest turns it; the point part carries
  // the share of m·g·dt that the arm does not turn with.
  EXPECT_GT(hinge.total_lambda_position().y(), 0.0f);
  EXPECT_LT(hinge.total_lambda_position().y(), 2.0f * laws::k_g * laws::k_dt);
  EXPECT_NEAR(std::fabs(hinge.total_lambda_motor()), 0.5f * laws::k_dt, 1.0e-6f);  // friction
  EXPECT_EQ(hinge.total_lambda_rotation_limits(), 0.0f);  // inside its limits
  EXPECT_FALSE(hinge.set_limits(0.5f, 1.0f).ok());        // min must be in [-pi, 0]
  EXPECT_EQ(hinge.settings().limits_min, -1.0f);
  ASSERT_TRUE(hinge.set_limits(-k_pi, k_pi).ok());
  hinge.set_motor_state(MotorState::Velocity);
  ASSERT_TRUE(hinge.set_target_angular_velocity(1.5f).ok());
  EXPECT_EQ(hinge.motor_state(), MotorState::Velocity);
  EXPECT_EQ(hinge.target_angular_velocity(), 1.5f);
  EXPECT_FALSE(hinge.set_target_angular_velocity(std::nanf("")).ok());
  EXPECT_EQ(hinge.target_angular_velocity(), 1.5f);
  // The motor acts on the small sphere's spin, which the point part passes on to the arm:
  // Gauss-Seidel needs some steps (warm starting) to carry the 1 m arm round at 1.5 rad/s.
  world.run(60);
  EXPECT_NEAR(world.angular_velocity(bob).z(), 1.5f, 0.01f);
  EXPECT_GT(hinge.total_lambda_motor(), 0.0f);
  EXPECT_EQ(hinge.linear_impulse(), hinge.total_lambda_position().length());
}

// Bad input returns an error naming the field and changes nothing.
TEST(ConstraintApi, BadInputIsRefusedNamingTheFieldAndChangesNothing) {
  LawWorld world;
  const BodyID a = world.add_sphere(0.1f, Vec3(0.0f, 0.0f, 0.0f));
  const BodyID b = world.add_sphere(0.1f, Vec3(1.0f, 0.0f, 0.0f));
  {
    HingeConstraintSettings s;
    s.hinge_axis1 = Vec3::zero();
    Result<Ref<Constraint>> c = s.create(world.bodies(), a, b);
    ASSERT_FALSE(c.ok());
    EXPECT_TRUE(mentions(c.error(), "hinge_axis1")) << c.error().message();
  }
  {
    HingeConstraintSettings s;
    s.limits_min = 0.5f;  // min > max would need min > 0: refused as out of [-pi, 0]
    s.limits_max = 0.2f;
    Result<Ref<Constraint>> c = s.create(world.bodies(), a, b);
    ASSERT_FALSE(c.ok());
    EXPECT_TRUE(mentions(c.error(), "limits_min")) << c.error().message();
  }
  {
    PointConstraintSettings s;
    Result<Ref<Constraint>> c = s.create(world.bodies(), a, a);
    ASSERT_FALSE(c.ok());
    EXPECT_TRUE(mentions(c.error(), "body2")) << c.error().message();
    c = s.create(world.bodies(), Constraint::k_world, Constraint::k_world);
    ASSERT_FALSE(c.ok());
    s.point1 = Vec3(std::nanf(""), 0.0f, 0.0f);
    c = s.create(world.bodies(), a, b);
    ASSERT_FALSE(c.ok());
    EXPECT_TRUE(mentions(c.error(), "point1")) << c.error().message();
  }
  {
    DistanceConstraintSettings s;
    s.min_distance = 2.0f;
    s.max_distance = 1.0f;
    Result<Ref<Constraint>> c = s.create(world.bodies(), a, b);
    ASSERT_FALSE(c.ok());
    EXPECT_TRUE(mentions(c.error(), "max_distance")) << c.error().message();
  }
  {
    FixedConstraintSettings s;
    s.common.break_impulse = -1.0f;
    Result<Ref<Constraint>> c = s.create(world.bodies(), a, b);
    ASSERT_FALSE(c.ok());
    EXPECT_TRUE(mentions(c.error(), "break_impulse")) << c.error().message();
  }
  // A body created but not added: create works (it exists), add_constraint refuses it.
  BodyCreationSettings loose(world.body(a).shape(), Vec3(3.0f, 0.0f, 0.0f), Quat(),
                             MotionType::Dynamic);
  const BodyID not_added = world.bodies().create_body(loose).value();
  PointConstraintSettings s;
  Result<Ref<Constraint>> c = s.create(world.bodies(), a, not_added);
  ASSERT_TRUE(c.ok());
  const Status added = world.system().add_constraint(c.value());
  ASSERT_FALSE(added.ok());
  EXPECT_TRUE(mentions(added.error(), "body2")) << added.error().message();
  EXPECT_EQ(world.system().constraints().size(), 0u);
  EXPECT_FALSE(world.system().add_constraint(nullptr).ok());
  EXPECT_FALSE(world.system().remove_constraint(c.value()).ok());
  // Twice: refused the second time.
  const Ref<Constraint> ok = point_joint(world, a, b, Vec3(0.5f, 0.0f, 0.0f));
  EXPECT_FALSE(world.system().add_constraint(ok).ok());
  EXPECT_EQ(world.system().constraints().size(), 1u);
  EXPECT_TRUE(world.system().remove_constraint(ok).ok());
  EXPECT_EQ(world.system().constraints().size(), 0u);
  EXPECT_EQ(ok->index(), Constraint::k_not_in_world);
}

// A sleeping body joined to an awake one wakes; a chain wakes whole.
TEST(ConstraintWorld, SleepingBodyJoinedToAwakeOneWakes) {
  LawWorld world;
  std::vector<BodyID> chain;
  for (int i = 0; i < 4; ++i) chain.push_back(world.add_sphere(0.1f, Vec3(float(i), 0.0f, 0.0f)));
  for (int i = 0; i + 1 < 4; ++i)
    point_joint(world, chain[i], chain[i + 1], Vec3(float(i) + 0.5f, 0.0f, 0.0f));
  for (BodyID id : chain) ASSERT_TRUE(world.bodies().deactivate(id).ok());
  ASSERT_TRUE(world.bodies().activate(chain[0]).ok());
  world.step();
  for (BodyID id : chain) EXPECT_TRUE(world.bodies().is_active(id).value());
}

// Moving a sleeping body (with activation) wakes the bodies joined to it; the partners of a
// body that stays asleep stay asleep, and a static body's constraint wakes nothing.
TEST(ConstraintWorld, MovingAJoinedBodyWakesItsPartners) {
  LawWorld world;
  const BodyID ground = world.add_static_box(Vec3(0.1f, 0.1f, 0.1f), Vec3(0.0f, 5.0f, 0.0f));
  const BodyID a = world.add_sphere(0.1f, Vec3(1.0f, 5.0f, 0.0f));
  const BodyID b = world.add_sphere(0.1f, Vec3(2.0f, 5.0f, 0.0f));
  const BodyID c = world.add_sphere(0.1f, Vec3(-1.0f, 5.0f, 0.0f));
  point_joint(world, a, b, Vec3(1.5f, 5.0f, 0.0f));
  point_joint(world, ground, c, Vec3(-0.5f, 5.0f, 0.0f));
  for (BodyID id : {a, b, c}) ASSERT_TRUE(world.bodies().deactivate(id).ok());
  world.step();
  for (BodyID id : {a, b, c}) EXPECT_FALSE(world.bodies().is_active(id).value());
  ASSERT_TRUE(world.bodies().set_position(a, Vec3(1.0f, 5.1f, 0.0f), Activation::Activate).ok());
  world.step();
  EXPECT_TRUE(world.bodies().is_active(a).value());
  EXPECT_TRUE(world.bodies().is_active(b).value());
  EXPECT_FALSE(world.bodies().is_active(c).value());
}

// Islands: a constraint links its two movable bodies; one to a static body or to the world
// links nothing.
TEST(ConstraintWorld, ConstraintsLinkMovableBodiesOnly) {
  LawWorld world;
  const BodyID ground = world.add_static_box(Vec3(0.1f, 0.1f, 0.1f), Vec3(0.0f, 10.0f, 0.0f));
  const BodyID a = world.add_sphere(0.1f, Vec3(-1.0f, 10.0f, 0.0f));
  const BodyID b = world.add_sphere(0.1f, Vec3(1.0f, 10.0f, 0.0f));
  const BodyID c = world.add_sphere(0.1f, Vec3(3.0f, 10.0f, 0.0f));
  point_joint(world, ground, a, Vec3(-0.5f, 10.0f, 0.0f));
  point_joint(world, ground, b, Vec3(0.5f, 10.0f, 0.0f));
  point_joint(world, Constraint::k_world, c, Vec3(3.0f, 11.0f, 0.0f));
  EXPECT_EQ(world.step().num_islands, 3u);
  point_joint(world, a, b, Vec3(0.0f, 9.0f, 0.0f));
  EXPECT_EQ(world.step().num_islands, 2u);
}

// Disabled: not solved (the body falls freely); re-enabled: holds again. A body removed under a
// constraint leaves it in the world, unsolved, and the step runs.
TEST(ConstraintWorld, DisabledAndBodyRemovedConstraintsAreNotSolved) {
  LawWorld world;
  const BodyID bob = world.add_sphere(0.1f, Vec3(1.0f, 0.0f, 0.0f));
  const Ref<Constraint> c = point_joint(world, Constraint::k_world, bob, Vec3::zero());
  c->set_enabled(false);
  world.step();
  EXPECT_NEAR(world.velocity(bob).y(), -laws::k_g * laws::k_dt, 1.0e-5f);
  c->set_enabled(true);
  ASSERT_TRUE(world.bodies().set_linear_velocity(bob, Vec3::zero()).ok());
  world.run(60);
  EXPECT_NEAR((world.body(bob).center_of_mass_position()).length(), 1.0f, 0.002f);

  const BodyID a = world.add_sphere(0.1f, Vec3(5.0f, 0.0f, 0.0f));
  const BodyID b = world.add_sphere(0.1f, Vec3(6.0f, 0.0f, 0.0f));
  const Ref<Constraint> ab = point_joint(world, a, b, Vec3(5.5f, 0.0f, 0.0f));
  ASSERT_TRUE(world.bodies().remove_body(b).ok());
  world.step();
  EXPECT_EQ(world.system().constraints().size(), 2u);
  EXPECT_NEAR(world.velocity(a).y(), -laws::k_g * laws::k_dt, 1.0e-5f);  // falls freely
}

// Breaking: the constraint is disabled after the step, listed in UpdateResult::broken and
// delivered to the ConstraintListener after the update.
TEST(ConstraintWorld, BrokenConstraintIsReportedAndDelivered) {
  struct Listener : ConstraintListener {
    std::vector<Ref<Constraint>> got;
    void on_constraints_broken(std::span<const Ref<Constraint>> broken) override {
      got.assign(broken.begin(), broken.end());
    }
  } listener;
  LawWorld world;
  world.system().set_constraint_listener(&listener);
  // Hanging 1 m below the pivot: the joint carries m·g·dt = 0.16 N·s in the first step.
  const BodyID bob = world.add_sphere(0.1f, Vec3(0.0f, -1.0f, 0.0f), BodyOptions{.mass = 1.0f});
  PointConstraintSettings s;
  s.common.break_impulse = 0.1f;
  Result<Ref<Constraint>> c = s.create(world.bodies(), Constraint::k_world, bob);
  ASSERT_TRUE(world.system().add_constraint(c.value()).ok());
  const UpdateResult r = world.step();
  ASSERT_EQ(r.broken.size(), 1u);
  EXPECT_EQ(r.broken[0], c.value());
  EXPECT_FALSE(c.value()->is_enabled());
  ASSERT_EQ(listener.got.size(), 1u);
  EXPECT_EQ(listener.got[0], c.value());
  listener.got.clear();
  EXPECT_TRUE(world.step().broken.empty());
  EXPECT_TRUE(listener.got.empty());
}

// D7: solve order is priority ascending (higher solved later), equal priority by index; an
// island uses the largest step override of its constraints, and at least the global setting.
TEST(ConstraintWorld, PriorityOrderAndStepOverrides) {
  LawWorld world;
  const BodyID a = world.add_sphere(0.1f, Vec3(0.0f, 0.0f, 0.0f));
  const BodyID b = world.add_sphere(0.1f, Vec3(1.0f, 0.0f, 0.0f));
  const uint32_t priorities[] = {3, 1, 3, 0, 1};
  std::vector<Ref<Constraint>> made;
  for (uint32_t p : priorities) {
    made.push_back(point_joint(world, a, b, Vec3(0.5f, 0.0f, 0.0f)));
    made.back()->set_priority(p);
  }
  ConstraintManager manager;
  for (auto it = made.rbegin(); it != made.rend(); ++it)
    manager.push_solved(it->get(), 0, 1, ConstraintManager::solve_entry(**it));
  manager.sort_solved();
  const int expected[] = {3, 1, 4, 0, 2};  // indices in solve order
  for (uint32_t i = 0; i < manager.num_solved(); ++i)
    EXPECT_EQ(manager.solved(i).index(), uint32_t(expected[i])) << i;

  const PhysicsSettings& settings = world.system().settings();
  const std::vector<uint32_t> all = {0, 1, 2, 3, 4};
  EXPECT_EQ(island_solver_steps(manager, all).velocity_steps(settings), settings.velocity_steps);
  EXPECT_TRUE(made[0]->set_velocity_steps_override(30).ok());
  EXPECT_TRUE(made[1]->set_velocity_steps_override(5).ok());
  EXPECT_TRUE(made[2]->set_position_steps_override(7).ok());
  const SolverSteps steps = island_solver_steps(manager, all);
  EXPECT_EQ(steps.velocity_steps(settings), 30);
  EXPECT_EQ(steps.position_steps(settings), 7);
  EXPECT_TRUE(made[0]->set_velocity_steps_override(0).ok());
  EXPECT_EQ(island_solver_steps(manager, all).velocity_steps(settings), settings.velocity_steps);
}

}  // namespace
}  // namespace constraint_world_test
}  // namespace atl
