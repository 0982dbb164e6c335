// Collision groups and the group filter table (issue 7 item 15: ragdoll parts that must not
// collide with each other, as Jolt users set up with a GroupFilterTable).

#include <gtest/gtest.h>

#include <string>

#include "atoll/collision/CollisionGroup.h"

namespace atl {
namespace collision_group_test {
namespace {

TEST(GroupFilterTable, EveryPairCollidesUntilDisabledAndTheTableIsSymmetric) {
  Ref<GroupFilterTable> table = GroupFilterTable::create(5).value();
  EXPECT_EQ(table->num_sub_groups(), 5u);
  for (uint32_t a = 0; a < 5; ++a)
    for (uint32_t b = 0; b < 5; ++b) EXPECT_TRUE(table->is_collision_enabled(a, b));
  ASSERT_TRUE(table->disable_collision(3, 1).ok());
  EXPECT_FALSE(table->is_collision_enabled(1, 3));
  EXPECT_FALSE(table->is_collision_enabled(3, 1));
  // Only that pair changed.
  for (uint32_t a = 0; a < 5; ++a)
    for (uint32_t b = 0; b < 5; ++b)
      if (!((a == 1 && b == 3) || (a == 3 && b == 1))) {
        EXPECT_TRUE(table->is_collision_enabled(a, b)) << a << "," << b;
      }
  ASSERT_TRUE(table->enable_collision(1, 3).ok());
  EXPECT_TRUE(table->is_collision_enabled(3, 1));
}

TEST(GroupFilterTable, LargeTablesKeepEveryPairApart) {
  // 200 sub-groups: 19900 pairs over many words; disabling every pair (i, i+1) must touch
  // exactly those.
  Ref<GroupFilterTable> table = GroupFilterTable::create(200).value();
  for (uint32_t i = 0; i + 1 < 200; ++i) ASSERT_TRUE(table->disable_collision(i, i + 1).ok());
  int disabled = 0;
  for (uint32_t a = 0; a < 200; ++a)
    for (uint32_t b = a + 1; b < 200; ++b) disabled += table->is_collision_enabled(a, b) ? 0 : 1;
  EXPECT_EQ(disabled, 199);
  EXPECT_FALSE(table->is_collision_enabled(199, 198));
}

TEST(GroupFilterTable, BadArgumentsAreNamedAndChangeNothing) {
  EXPECT_STREQ(GroupFilterTable::create(0).error().message(),
               "GroupFilterTable::create: num_sub_groups: must be in [1, 4096], got 0");
  EXPECT_FALSE(GroupFilterTable::create(4097).ok());
  Ref<GroupFilterTable> table = GroupFilterTable::create(4).value();
  const Status out = table->disable_collision(1, 4);
  ASSERT_FALSE(out.ok());
  EXPECT_STREQ(
      out.error().message(),
      "GroupFilterTable::disable_collision: sub-group 4 is out of range (the table has 4)");
  const Status same = table->disable_collision(2, 2);
  ASSERT_FALSE(same.ok());
  EXPECT_NE(std::string(same.error().message()).find("always collides with itself"),
            std::string::npos);
  for (uint32_t a = 0; a < 4; ++a)
    for (uint32_t b = 0; b < 4; ++b) EXPECT_TRUE(table->is_collision_enabled(a, b));
}

TEST(CollisionGroup, OnlySubGroupsOfOneGroupAreFiltered) {
  Ref<GroupFilterTable> table = GroupFilterTable::create(3).value();
  ASSERT_TRUE(table->disable_collision(0, 1).ok());
  const CollisionGroup upper_arm(table, 7, 0), forearm(table, 7, 1), hand(table, 7, 2);
  const CollisionGroup other_ragdoll_arm(table, 8, 1);
  const CollisionGroup no_group;
  const CollisionGroup no_sub_group(table, 7, CollisionGroup::k_invalid_sub_group);
  EXPECT_FALSE(upper_arm.can_collide(forearm));
  EXPECT_FALSE(forearm.can_collide(upper_arm));
  EXPECT_TRUE(upper_arm.can_collide(hand));
  EXPECT_TRUE(upper_arm.can_collide(other_ragdoll_arm));  // another group
  EXPECT_TRUE(upper_arm.can_collide(no_group));           // the other body has no filter
  EXPECT_TRUE(no_group.can_collide(forearm));             // the other's filter decides
  EXPECT_TRUE(no_sub_group.can_collide(upper_arm));
  EXPECT_TRUE(no_group.can_collide(no_group));
}

}  // namespace
}  // namespace collision_group_test
}  // namespace atl
