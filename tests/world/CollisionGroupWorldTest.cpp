// Collision groups in the world and the "were these bodies in contact" query (issue 7 item 15:
// both missing, both expected by Jolt users).

#include <gtest/gtest.h>

#include <string>

#include "atoll/shape/BoxShape.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {
namespace collision_group_world_test {
namespace {

constexpr float k_dt = 1.0f / 60.0f;

struct World {
  explicit World(bool allow_sleeping = false) {
    PhysicsSettings settings;
    settings.allow_sleeping = allow_sleeping;
    EXPECT_TRUE(system.set_settings(settings).ok());
    floor_shape = BoxShapeSettings{Vec3(10, 1, 10)}.create().value();
    box_shape = BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value();
    floor = bodies()
                .create_and_add_body({floor_shape, Vec3(0, -1, 0), Quat(), MotionType::Static},
                                     Activation::DontActivate)
                .value();
  }
  BodyInterface& bodies() { return system.body_interface(); }
  BodyID add_box(const Vec3& position, const CollisionGroup& group = {}) {
    BodyCreationSettings settings{box_shape, position, Quat(), MotionType::Dynamic};
    settings.collision_group = group;
    return bodies().create_and_add_body(settings, Activation::Activate).value();
  }
  void run(int steps) {
    for (int i = 0; i < steps; ++i) ASSERT_TRUE(system.update(k_dt).ok());
  }
  PhysicsSystem system;
  Ref<Shape> floor_shape, box_shape;
  BodyID floor;
};

// Two limbs of one ragdoll, the second dropped onto the first: with their sub-groups' pair
// disabled the upper box falls through the lower one onto the floor; enabled, it lands on top.
TEST(CollisionGroups, DisabledSubGroupsOfOneGroupPassThroughEachOther) {
  Ref<GroupFilterTable> table = GroupFilterTable::create(2).value();
  ASSERT_TRUE(table->disable_collision(0, 1).ok());
  World world;
  const BodyID lower = world.add_box(Vec3(0, 0.5f, 0), CollisionGroup(table, 1, 0));
  const BodyID upper = world.add_box(Vec3(0, 2.0f, 0), CollisionGroup(table, 1, 1));
  world.run(120);
  EXPECT_NEAR(world.bodies().position(lower).value().y(), 0.5f, 0.03f);
  EXPECT_NEAR(world.bodies().position(upper).value().y(), 0.5f, 0.03f);  // inside the lower
  EXPECT_FALSE(world.system.were_bodies_in_contact(lower, upper).value());
  EXPECT_TRUE(world.system.were_bodies_in_contact(upper, world.floor).value());
}

TEST(CollisionGroups, OtherGroupsAndEnabledPairsCollide) {
  Ref<GroupFilterTable> table = GroupFilterTable::create(2).value();
  ASSERT_TRUE(table->disable_collision(0, 1).ok());
  World world;
  // Same sub-groups, but another ragdoll: they stack.
  const BodyID lower = world.add_box(Vec3(0, 0.5f, 0), CollisionGroup(table, 1, 0));
  const BodyID upper = world.add_box(Vec3(0, 2.0f, 0), CollisionGroup(table, 2, 1));
  world.run(120);
  EXPECT_NEAR(world.bodies().position(upper).value().y(), 1.5f, 0.05f);
  EXPECT_TRUE(world.system.were_bodies_in_contact(lower, upper).value());
}

TEST(CollisionGroups, ChangingTheGroupTakesEffectNextStep) {
  Ref<GroupFilterTable> table = GroupFilterTable::create(2).value();
  ASSERT_TRUE(table->disable_collision(0, 1).ok());
  World world;
  const BodyID lower = world.add_box(Vec3(0, 0.5f, 0), CollisionGroup(table, 1, 0));
  const BodyID upper = world.add_box(Vec3(0, 1.5f, 0));
  world.run(30);
  ASSERT_NEAR(world.bodies().position(upper).value().y(), 1.5f, 0.05f);
  ASSERT_TRUE(world.system.were_bodies_in_contact(lower, upper).value());
  EXPECT_EQ(world.bodies().collision_group(upper).value().filter(), nullptr);
  ASSERT_TRUE(world.bodies().set_collision_group(upper, CollisionGroup(table, 1, 1)).ok());
  EXPECT_EQ(world.bodies().collision_group(upper).value().sub_group_id(), 1u);
  world.run(60);
  EXPECT_NEAR(world.bodies().position(upper).value().y(), 0.5f, 0.05f);
  EXPECT_FALSE(world.system.were_bodies_in_contact(lower, upper).value());
}

TEST(CollisionGroups, BadIdsAreNamedAndChangeNothing) {
  World world;
  const BodyID box = world.add_box(Vec3(0, 0.5f, 0));
  ASSERT_TRUE(world.bodies().destroy_body(box).ok());
  const Status set = world.bodies().set_collision_group(box, CollisionGroup());
  ASSERT_FALSE(set.ok());
  EXPECT_NE(std::string(set.error().message()).find("BodyInterface::set_collision_group"),
            std::string::npos);
  EXPECT_FALSE(world.bodies().collision_group(box).ok());
}

TEST(WereBodiesInContact, FollowsTheContactEventsOfTheLastUpdate) {
  World world;
  const Ref<Shape> ball = SphereShapeSettings{0.5f}.create().value();
  BodyCreationSettings settings{ball, Vec3(0, 3, 0), Quat(), MotionType::Dynamic};
  const BodyID id = world.bodies().create_and_add_body(settings, Activation::Activate).value();
  // Falling from 3 m: not in contact during the first steps.
  world.run(5);
  EXPECT_FALSE(world.system.were_bodies_in_contact(id, world.floor).value());
  world.run(80);
  EXPECT_TRUE(world.system.were_bodies_in_contact(id, world.floor).value());
  EXPECT_TRUE(world.system.were_bodies_in_contact(world.floor, id).value());  // any order
  // Lifted away: the contact ends with the next update.
  ASSERT_TRUE(world.bodies().set_position(id, Vec3(0, 5, 0)).ok());
  world.run(1);
  EXPECT_FALSE(world.system.were_bodies_in_contact(id, world.floor).value());
}

// Regression: an island falling asleep lost its contacts. Symptom: a box asleep on the floor
// got a removed event when it fell asleep, was "not in contact" while asleep, and an added
// event (and no warm start) when it woke. Cause: only pairs with an active body are collided,
// and end_step reported every pair it did not see as removed. Fix: a pair whose bodies both
// sleep is carried over in the contact cache (as in Jolt); it persists across sleep and wake.
struct SleepEvents final : ContactListener {
  void on_contact_events(std::span<const ContactEvent> events) override {
    for (const ContactEvent& e : events) {
      if (e.type == ContactEventType::Added) ++added;
      if (e.type == ContactEventType::Persisted) ++persisted;
      if (e.type == ContactEventType::Removed) ++removed;
    }
  }
  int added = 0, persisted = 0, removed = 0;
};

TEST(WereBodiesInContact, ContactsPersistWhileBothBodiesSleep) {
  World world(/*allow_sleeping=*/true);
  SleepEvents events;
  world.system.set_contact_listener(&events);
  const BodyID box = world.add_box(Vec3(0, 0.5f, 0));
  world.run(5);
  EXPECT_TRUE(world.system.were_bodies_in_contact(box, world.floor).value());
  EXPECT_EQ(events.added, 1);
  world.run(120);
  ASSERT_FALSE(world.bodies().is_active(box).value());
  EXPECT_TRUE(world.system.were_bodies_in_contact(box, world.floor).value());
  EXPECT_EQ(events.removed, 0);
  const int persisted_asleep = events.persisted;
  world.run(10);  // asleep: no events at all
  EXPECT_EQ(events.persisted, persisted_asleep);
  ASSERT_TRUE(world.bodies().activate(box).ok());
  world.run(1);
  EXPECT_TRUE(world.system.were_bodies_in_contact(box, world.floor).value());
  EXPECT_EQ(events.added, 1);  // woken: persisted, not added again
  EXPECT_EQ(events.persisted, persisted_asleep + 1);
  EXPECT_EQ(events.removed, 0);
  // Removing the sleeping box from the world ends its contact.
  world.run(120);
  ASSERT_FALSE(world.bodies().is_active(box).value());
  ASSERT_TRUE(world.bodies().remove_body(box).ok());
  world.run(1);
  EXPECT_EQ(events.removed, 1);
  world.system.set_contact_listener(nullptr);
}

TEST(WereBodiesInContact, AnInvalidBodyIsAnError) {
  World world;
  const Result<bool> r = world.system.were_bodies_in_contact(world.floor, BodyID());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(std::string(r.error().message()).find("PhysicsSystem::were_bodies_in_contact"),
            std::string::npos);
}

}  // namespace
}  // namespace collision_group_world_test
}  // namespace atl
