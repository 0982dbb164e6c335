// FillLaterVector (core/FillLaterVector.h): growing without arguments leaves the new places to
// their filler, and everything else is as in std::vector — the contact cache relies on elements
// written before a growth keeping their values when the list moves, and on copies and swaps.

#include "atoll/core/FillLaterVector.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

namespace atl {
namespace fill_later_vector_test {
namespace {

struct Record {
  uint32_t key = 7;
  float value = 0.5f;
};

TEST(FillLaterVectorTest, ElementsWrittenBeforeAGrowthKeepTheirValuesWhenTheListMoves) {
  FillLaterVector<Record> list;
  for (uint32_t round = 0; round < 12; ++round) {
    // Places handed out, then filled: as the narrow phase does with reused pairs.
    const size_t first = list.size();
    list.resize(first + 100 * (round + 1));
    for (size_t i = first; i < list.size(); ++i)
      list[i] = {static_cast<uint32_t>(i), static_cast<float>(i) * 0.25f};
    list.emplace_back();  // one more place, filled at once
    list.back() = {static_cast<uint32_t>(list.size() - 1),
                   static_cast<float>(list.size() - 1) * 0.25f};
  }
  ASSERT_GT(list.capacity(), 1000u);
  for (size_t i = 0; i < list.size(); ++i) {
    ASSERT_EQ(list[i].key, i) << "element " << i << " lost its value when the list grew";
    ASSERT_EQ(list[i].value, static_cast<float>(i) * 0.25f);
  }
}

TEST(FillLaterVectorTest, ConstructionWithArgumentsCopiesSwapsAndAlgorithmsWorkAsInStdVector) {
  FillLaterVector<Record> a;
  a.push_back(Record{});  // a default record, built before it is pushed
  a.emplace_back(Record{3, 1.5f});
  EXPECT_EQ(a[0].key, 7u);
  EXPECT_EQ(a[0].value, 0.5f);
  EXPECT_EQ(a[1].key, 3u);

  FillLaterVector<Record> b = a;  // copy
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[1].value, 1.5f);
  FillLaterVector<Record> c;
  c.swap(b);
  EXPECT_TRUE(b.empty());
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].key, 7u);

  FillLaterVector<uint32_t> numbers;
  for (uint32_t i = 1; i <= 3; ++i) numbers.push_back(i);  // with a value: written
  EXPECT_EQ(std::accumulate(numbers.begin(), numbers.end(), 0u), 6u);
  EXPECT_EQ(std::vector<uint32_t>(numbers.begin(), numbers.end()),
            (std::vector<uint32_t>{1, 2, 3}));
  numbers = {};  // emptied, as the contact cache frees a list before it reserves more
  EXPECT_TRUE(numbers.empty());
  EXPECT_EQ(numbers.capacity(), 0u);
}

}  // namespace
}  // namespace fill_later_vector_test
}  // namespace atl
