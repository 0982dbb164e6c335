// A constraint the user still holds when its world is destroyed. The world's constraint list
// never let go of it (its index stayed that of the dead world), so add_constraint refused it in
// any other world for ever, with "is already in a world". A world now lets its constraints go
// when it is destroyed, as remove_constraint does.

#include <gtest/gtest.h>

#include <memory>

#include "atoll/constraint/DistanceConstraint.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {
namespace constraint_outlives_world_test {
namespace {

BodyID add_box(PhysicsSystem& system) {
  const Ref<Shape> shape = BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value_or_throw();
  return system.body_interface()
      .create_and_add_body({shape, Vec3(0, 5, 0), Quat(), MotionType::Dynamic},
                           Activation::Activate)
      .value_or_throw();
}

TEST(ConstraintOutlivesWorld, AConstraintOfADestroyedWorldCanBeAddedToAnother) {
  Ref<Constraint> rope;
  {
    auto first = std::make_unique<PhysicsSystem>();
    const BodyID box = add_box(*first);
    DistanceConstraintSettings s;
    s.point1 = Vec3(0, 10, 0);
    s.point2 = Vec3(0, 5, 0);
    rope = s.create(first->body_interface(), Constraint::k_world, box).value_or_throw();
    ASSERT_TRUE(first->add_constraint(rope).ok());
    ASSERT_EQ(rope->index(), 0u);
  }
  EXPECT_EQ(rope->index(), Constraint::k_not_in_world);
  PhysicsSystem second;
  // The same body ID in the new world (its first body).
  ASSERT_EQ(add_box(second), rope->body2());
  const Status added = second.add_constraint(rope);
  ASSERT_TRUE(added.ok()) << added.error().message();
  ASSERT_EQ(second.constraints().size(), 1u);
  ASSERT_TRUE(second.update(1.0f / 60.0f).ok());
  ASSERT_TRUE(second.remove_constraint(rope).ok());
}

}  // namespace
}  // namespace constraint_outlives_world_test
}  // namespace atl
