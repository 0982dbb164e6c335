// ThreadPool::run allocates nothing (DESIGN.md §5: a warmed-up step allocates nothing, and the
// step calls run() a few dozen times). This executable replaces the global operator new and
// delete with counting ones (counting on every thread, so the workers' allocations count too)
// and counts the allocations of thousands of runs on a pool whose workers spin, sleep and wake.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <new>
#include <thread>

#include "CountingAllocator.h"
#include "atoll/core/ThreadPool.h"

namespace atl {
namespace thread_pool_allocation_test {
namespace {

using test::g_allocations;
using test::g_counting;

struct Sum {
  std::atomic<uint64_t> total{0};
  static void task(uint32_t begin, uint32_t end, uint32_t, void* context) {
    uint64_t local = 0;
    for (uint32_t i = begin; i < end; ++i) local += i;
    static_cast<Sum*>(context)->total.fetch_add(local, std::memory_order_relaxed);
  }
};

// The counter is live: without it the test below could not fail.
TEST(ThreadPoolAllocation, TheCounterCountsAllocations) {
  g_allocations.store(0);
  g_counting.store(true);
  auto* probe = new std::atomic<uint64_t>(7);
  g_counting.store(false);
  delete probe;
  EXPECT_EQ(g_allocations.load(), 1u);
}

TEST(ThreadPoolAllocation, RunAllocatesNothing) {
  for (const uint32_t workers : {1u, 2u, 4u}) {
    auto pool = ThreadPool::create(workers).value();
    Sum sum;
    pool->run(&Sum::task, 1000, 10, &sum);  // warm-up: threads started and running
    sum.total.store(0);
    g_allocations.store(0);
    g_counting.store(true);
    uint64_t expected = 0;
    for (uint32_t r = 0; r < 5000; ++r) {
      const uint32_t count = 1 + r % 300;
      pool->run(&Sum::task, count, 1 + r % 8, &sum);
      expected += uint64_t{count} * (count - 1) / 2;
      // Now and then the workers fall asleep and are woken by the next run.
      if (r % 500 == 499)
        std::this_thread::sleep_for(std::chrono::microseconds(4 * ThreadPool::k_spin_microseconds));
    }
    g_counting.store(false);
    EXPECT_EQ(sum.total.load(), expected);
    EXPECT_EQ(g_allocations.load(), 0u) << workers << " workers";  // measured: 0 for 1, 2 and 4
  }
}

}  // namespace
}  // namespace thread_pool_allocation_test
}  // namespace atl
