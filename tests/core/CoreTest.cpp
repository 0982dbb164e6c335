#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "atoll/core/Hash.h"
#include "atoll/core/QuickSort.h"
#include "atoll/core/Random.h"
#include "atoll/core/Ref.h"
#include "atoll/core/Result.h"
#include "atoll/core/TempAllocator.h"

namespace atl {
namespace core_test {
namespace {

struct Counted : RefTarget<Counted> {
  explicit Counted(int* deaths) : deaths_(deaths) {}
  ~Counted() { ++*deaths_; }
  int* deaths_;
};

TEST(Ref, CountsOwnersAndDeletesWithTheLast) {
  int deaths = 0;
  {
    Ref<Counted> a = make_ref<Counted>(&deaths);
    EXPECT_EQ(a->ref_count(), 1u);
    {
      Ref<Counted> b = a;
      EXPECT_EQ(a->ref_count(), 2u);
      Ref<Counted> c = std::move(b);
      EXPECT_EQ(a->ref_count(), 2u);
      EXPECT_FALSE(b);
    }
    EXPECT_EQ(a->ref_count(), 1u);
    Ref<Counted> raw_back(a.get());  // a raw pointer becomes a Ref again safely
    EXPECT_EQ(a->ref_count(), 2u);
    EXPECT_EQ(deaths, 0);
  }
  EXPECT_EQ(deaths, 1);
}

TEST(Ref, SelfAssignmentKeepsObjectAlive) {
  int deaths = 0;
  Ref<Counted> a = make_ref<Counted>(&deaths);
  Ref<Counted>& alias = a;
  a = alias;
  EXPECT_EQ(deaths, 0);
  EXPECT_EQ(a->ref_count(), 1u);
}

Result<int> parse_positive(int v) {
  if (v <= 0) return Error("value: must be > 0, got " + std::to_string(v));
  return v;
}

TEST(Result, HoldsValueOrError) {
  auto good = parse_positive(3);
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 3);
  auto bad = parse_positive(-2);
  ASSERT_FALSE(bad.ok());
  EXPECT_STREQ(bad.error().message(), "value: must be > 0, got -2");
  EXPECT_THROW(std::move(bad).value_or_throw(), Error);
}

TEST(Hash, Fnv1aKnownVectors) {
  // Reference values of FNV-1a 64 (from the algorithm's published test vectors).
  EXPECT_EQ(hash_string(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(hash_string("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(hash_string("foobar"), 0x85944171f73967e8ull);
  const char bytes[] = "foobar";
  EXPECT_EQ(hash_bytes(bytes, 6), hash_string("foobar"));
  EXPECT_NE(hash_float(0.0f, k_fnv1a_basis), hash_float(-0.0f, k_fnv1a_basis));
  EXPECT_NE(hash_combine(hash_combine(k_fnv1a_basis, 1), 2),
            hash_combine(hash_combine(k_fnv1a_basis, 2), 1));
}

TEST(QuickSort, SortsLikeStdSortOnRandomInput) {
  Random random(42);
  for (int size : {0, 1, 2, 15, 16, 17, 100, 1000, 5000}) {
    std::vector<int> values(size);
    for (int& v : values) v = random.uniform_int(-50, 50);  // many duplicates
    std::vector<int> expected = values;
    std::sort(expected.begin(), expected.end());
    quick_sort(values.begin(), values.end());
    EXPECT_EQ(values, expected) << "size " << size;
  }
}

TEST(QuickSort, AlreadySortedAndReversedInputs) {
  std::vector<int> up(3000), down(3000);
  for (int i = 0; i < 3000; ++i) {
    up[i] = i;
    down[i] = 3000 - i;
  }
  quick_sort(up.begin(), up.end());
  quick_sort(down.begin(), down.end(), [](int a, int b) { return a < b; });
  EXPECT_TRUE(std::is_sorted(up.begin(), up.end()));
  EXPECT_TRUE(std::is_sorted(down.begin(), down.end()));
}

TEST(Random, SequenceIsFixedForASeed) {
  // std::mt19937 with its default seed: the 10000th value is specified by the C++ standard.
  Random standard;
  uint32_t v = 0;
  for (int i = 0; i < 10000; ++i) v = standard.next_u32();
  EXPECT_EQ(v, 4123659995u);
  Random a(7), b(7);
  for (int i = 0; i < 100; ++i) {
    const float fa = a.uniform(-2.0f, 3.0f);
    EXPECT_EQ(fa, b.uniform(-2.0f, 3.0f));
    EXPECT_GE(fa, -2.0f);
    EXPECT_LT(fa, 3.0f);
  }
  for (int i = 0; i < 1000; ++i) {
    const int n = a.uniform_int(3, 5);
    EXPECT_GE(n, 3);
    EXPECT_LE(n, 5);
  }
}

TEST(TempAllocator, AlignsGrowsAndStopsAllocatingAfterReset) {
  TempAllocator allocator(256);
  void* p1 = allocator.allocate(10, 16);
  void* p2 = allocator.allocate(100, 64);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p1) % 16, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p2) % 64, 0u);
  auto big = allocator.allocate_array<double>(1000);  // larger than a block
  big[999] = 1.0;
  EXPECT_GE(allocator.capacity(), 8000u);
  allocator.reset();
  const size_t capacity = allocator.capacity();
  // The same sequence of requests now fits in the merged block: no growth.
  allocator.allocate(10, 16);
  allocator.allocate(100, 64);
  allocator.allocate_array<double>(1000);
  EXPECT_EQ(allocator.capacity(), capacity);
  EXPECT_EQ(allocator.used() > 0, true);
}

}  // namespace
}  // namespace core_test
}  // namespace atl
