#include "atoll/core/ReallocVector.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <utility>

namespace atl {
namespace realloc_vector_test {
namespace {

struct PlainRecord {
  uint32_t key;
  float values[5];
};

PlainRecord plain_record(uint32_t key) { return {key, {1.0f * key, 2.0f, 3.0f, 4.0f, 5.0f}}; }

void expect_records(const ReallocVector<PlainRecord>& list, uint32_t count) {
  ASSERT_EQ(list.size(), count);
  for (uint32_t i = 0; i < count; ++i) {
    EXPECT_EQ(list[i].key, i);
    EXPECT_EQ(list[i].values[0], 1.0f * i);
    EXPECT_EQ(list[i].values[4], 5.0f);
  }
}

TEST(ReallocVectorTest, GrowingKeepsTheElements) {
  ReallocVector<PlainRecord> list;
  EXPECT_TRUE(list.empty());
  // Past a few growths, and into blocks that malloc maps on their own (over 128 KB).
  for (uint32_t i = 0; i < 100000; ++i) list.push_back(plain_record(i));
  expect_records(list, 100000);
  EXPECT_GE(list.capacity(), list.size());
  list.reserve(400000);
  EXPECT_EQ(list.capacity(), 400000u);
  expect_records(list, 100000);
}

TEST(ReallocVectorTest, ResizeValueInitialisesAndShrinksWithoutFreeing) {
  ReallocVector<PlainRecord> list;
  list.push_back(plain_record(0));
  list.resize(3);
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0].key, 0u);
  EXPECT_EQ(list[2].key, 0u);
  EXPECT_EQ(list[2].values[3], 0.0f);
  const size_t capacity = list.capacity();
  list.resize(1);
  EXPECT_EQ(list.size(), 1u);
  EXPECT_EQ(list.capacity(), capacity);
  list.clear();
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(list.capacity(), capacity);
  PlainRecord& made = list.emplace_back();
  EXPECT_EQ(made.key, 0u);
  EXPECT_EQ(list.emplace_back(plain_record(7)).key, 7u);
  EXPECT_EQ(list.back().values[0], 7.0f);
}

TEST(ReallocVectorTest, PushingAnElementOfTheListWhileItGrows) {
  ReallocVector<PlainRecord> list;
  list.push_back(plain_record(0));
  for (int i = 0; i < 20; ++i) list.push_back(list[0]);  // grows several times
  ASSERT_EQ(list.size(), 21u);
  for (const PlainRecord& r : list) EXPECT_EQ(r.values[0], 0.0f);
}

TEST(ReallocVectorTest, CopiesAndMovesAreWholeLists) {
  ReallocVector<PlainRecord> list;
  for (uint32_t i = 0; i < 1000; ++i) list.push_back(plain_record(i));
  ReallocVector<PlainRecord> copy(list);
  expect_records(copy, 1000);
  copy[5].key = 99;
  EXPECT_EQ(list[5].key, 5u);  // deep copy

  ReallocVector<PlainRecord> assigned;
  assigned.push_back(plain_record(42));
  assigned = list;
  expect_records(assigned, 1000);
  const ReallocVector<PlainRecord>& same = assigned;
  assigned = same;  // self-assignment keeps it
  expect_records(assigned, 1000);

  ReallocVector<PlainRecord> moved(std::move(copy));
  EXPECT_EQ(moved.size(), 1000u);
  EXPECT_EQ(moved[5].key, 99u);
  ReallocVector<PlainRecord> move_assigned;
  move_assigned = std::move(moved);
  EXPECT_EQ(move_assigned.size(), 1000u);
  EXPECT_EQ(move_assigned[5].key, 99u);

  ReallocVector<PlainRecord> empty;
  assigned = empty;
  EXPECT_TRUE(assigned.empty());
}

}  // namespace
}  // namespace realloc_vector_test
}  // namespace atl
