// A warmed-up step allocates nothing (DESIGN.md §5, issue 8 §1): this executable replaces the
// global operator new and delete with counting ones and counts the allocations of steps 100–200
// of Jolt's pyramid (1240 boxes, sleeping off), with a contact listener and an activation
// listener attached so that the event paths are counted too.
//
// Symptom (before): steps 100–200 of the pyramid allocated 800 times, 8 per step. Cause:
// IslandBuilder::finish built eight scratch arrays as locals every step (and, in scenes that
// need them, the narrow phase's collector and the sleep list were locals too). Fix: every
// per-step buffer lives in StepContext or in the object that owns it, cleared and reused.
// After: 0 allocations. The same for 20 LinearCast spheres bouncing in a box: 3738 allocations
// in steps 100–200 before (check_finite of cast_shape's displacement built a field name string
// per component even for finite values), 0 after.

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>

#include "CountingAllocator.h"
#include "atoll/constraint/HingeConstraint.h"
#include "atoll/constraint/PointConstraint.h"
#include "laws/LawFixture.h"

namespace atl {
namespace step_allocation_test {
namespace {

using test::g_allocations;
using test::g_counting;

using laws::BodyOptions;
using laws::k_dt;
using laws::LawWorld;

// Jolt's PerformanceTest "Pyramid" (as the built-in scene): 1240 boxes of half extent 1 without
// convex radius in 15 layers on a static floor, engine damping, sleeping off.
std::unique_ptr<LawWorld> pyramid() {
  PhysicsSettings settings;
  settings.allow_sleeping = false;
  auto world = std::make_unique<LawWorld>(settings);
  world->add_floor();
  BodyOptions o;
  o.linear_damping = BodyCreationSettings{}.linear_damping;
  o.angular_damping = BodyCreationSettings{}.angular_damping;
  constexpr int k_layers = 15;
  for (int i = 0; i < k_layers; ++i)
    for (int j = i / 2; j < k_layers - (i + 1) / 2; ++j)
      for (int k = i / 2; k < k_layers - (i + 1) / 2; ++k) {
        const float shift = (i & 1) != 0 ? 1.0f : 0.0f;
        world->add_box(
            Vec3::replicate(1.0f),
            Vec3(-k_layers + 2.0f * j + shift, 1.0f + 2.5f * i, -k_layers + 2.0f * k + shift), o,
            0.0f);
      }
  return world;
}

// Counts what it is told, allocating nothing.
struct CountingContactListener final : ContactListener {
  uint64_t added = 0, persisted = 0, events = 0;
  void on_contact_added(const Body&, const Body&, const ContactManifold&,
                        ContactSettings&) override {
    ++added;
  }
  void on_contact_persisted(const Body&, const Body&, const ContactManifold&,
                            ContactSettings&) override {
    ++persisted;
  }
  void on_contact_events(std::span<const ContactEvent> e) override { events += e.size(); }
};
struct CountingActivationListener final : BodyActivationListener {
  uint64_t changes = 0;
  void on_body_activated(BodyID) override { ++changes; }
  void on_body_deactivated(BodyID) override { ++changes; }
};

// What steps 100 to 200 did.
struct Window {
  uint64_t allocations = 0;
  uint64_t ccd_bodies = 0;
};

// Steps 100 to 200 of `system` with the counter on.
Window steps_100_to_200(PhysicsSystem& system) {
  for (int i = 0; i < 100; ++i) {
    Result<UpdateResult> r = system.update(k_dt);
    EXPECT_TRUE(r.ok() && r->ok());
  }
  bool all_ok = true;
  uint64_t ccd_bodies = 0;
  g_allocations = 0;
  g_counting = true;
  for (int i = 100; i < 200; ++i) {
    Result<UpdateResult> r = system.update(k_dt);
    all_ok &= r.ok() && r->ok();
    if (r.ok()) ccd_bodies += r->num_ccd_bodies;
  }
  g_counting = false;
  EXPECT_TRUE(all_ok);
  return {g_allocations.load(), ccd_bodies};
}

TEST(StepAllocation, TheWarmedUpPyramidStepWithListenersAllocatesNothing) {
  std::unique_ptr<LawWorld> world = pyramid();
  CountingContactListener contacts;
  CountingActivationListener activations;
  world->system().set_contact_listener(&contacts);
  world->system().set_body_activation_listener(&activations);
  EXPECT_EQ(steps_100_to_200(world->system()).allocations, 0u);
  // The listeners were called (so their paths were counted).
  EXPECT_GT(contacts.added + contacts.persisted, 0u);
  EXPECT_GT(contacts.events, 0u);
}

// The CCD stage too: 20 LinearCast spheres (radius 0.1 m) bouncing at 60 m/s (1 m per step)
// off each other and the walls of a closed 10 m box, elastic, without gravity.
TEST(StepAllocation, TheWarmedUpStepWithLinearCastBodiesAllocatesNothing) {
  PhysicsSettings settings;
  settings.gravity = Vec3::zero();
  settings.allow_sleeping = false;
  LawWorld world(settings);
  for (int axis = 0; axis < 3; ++axis)
    for (float side : {-1.0f, 1.0f}) {
      Vec3 half_extent = Vec3::replicate(6.0f);
      half_extent.set_component(axis, 0.5f);
      Vec3 position;
      position.set_component(axis, 5.5f * side);
      world.add_static_box(half_extent, position, 1.0f);
    }
  BodyOptions o;
  o.restitution = 1.0f;
  o.friction = 0.0f;
  o.motion_quality = MotionQuality::LinearCast;
  for (int i = 0; i < 20; ++i) {
    const float t = static_cast<float>(i);
    o.linear_velocity =
        Vec3(std::cos(1.3f * t), std::sin(0.7f * t), std::cos(2.1f * t + 0.5f)).normalized() *
        60.0f;
    world.add_sphere(0.1f, Vec3(-4.0f + 0.4f * t, 0.3f * (i % 5) - 0.6f, 0.2f * (i % 7) - 0.6f), o);
  }
  CountingContactListener contacts;
  world.system().set_contact_listener(&contacts);
  const Window window = steps_100_to_200(world.system());
  EXPECT_EQ(window.allocations, 0u);
  EXPECT_GT(window.ccd_bodies, 100u);  // CCD ran in the counted steps
}

// Constraints too: a 20-link hinge chain (10 m) hanging from the world 12 m up and a 10-link point
// chain whose links rest on a floor (constraints and contacts in one island), with limits and a
// motor on every hinge.
TEST(StepAllocation, TheWarmedUpStepWithConstraintsAllocatesNothing) {
  PhysicsSettings settings;
  settings.allow_sleeping = false;
  LawWorld world(settings);
  world.add_floor();
  BodyID previous = Constraint::k_world;
  for (int i = 0; i < 20; ++i) {
    const BodyID link =
        world.add_box(Vec3(0.2f, 0.05f, 0.05f), Vec3(0.25f + 0.5f * i, 12.0f, 0.0f));
    HingeConstraintSettings s;
    s.point1 = s.point2 = Vec3(0.5f * i, 12.0f, 0.0f);
    s.hinge_axis1 = s.hinge_axis2 = Vec3(0.0f, 0.0f, 1.0f);
    s.limits_min = -1.0f;
    s.limits_max = 1.0f;
    s.motor_settings.set_torque_limit(1.0f);
    Result<Ref<Constraint>> c = s.create(world.bodies(), previous, link);
    ASSERT_TRUE(c.ok());
    auto& hinge = static_cast<HingeConstraint&>(*c.value());
    hinge.set_motor_state(MotorState::Velocity);
    ASSERT_TRUE(hinge.set_target_angular_velocity(0.5f).ok());
    ASSERT_TRUE(world.system().add_constraint(c.value()).ok());
    previous = link;
  }
  previous = BodyID();
  for (int i = 0; i < 10; ++i) {
    const BodyID link = world.add_sphere(0.2f, Vec3(0.5f * i, 0.2f, 3.0f));
    if (i > 0) {
      PointConstraintSettings s;
      s.point1 = s.point2 = Vec3(0.5f * i - 0.25f, 0.2f, 3.0f);
      Result<Ref<Constraint>> c = s.create(world.bodies(), previous, link);
      ASSERT_TRUE(c.ok());
      ASSERT_TRUE(world.system().add_constraint(c.value()).ok());
    }
    previous = link;
  }
  EXPECT_EQ(steps_100_to_200(world.system()).allocations, 0u);
}

}  // namespace
}  // namespace step_allocation_test
}  // namespace atl
