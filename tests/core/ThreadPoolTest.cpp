// ThreadPool (the default JobSystem) and InlineJobSystem: every item of a run covered exactly
// once, in the ranges JobSystem::run promises; worker indices in range and never shared by two
// ranges running at the same time; workers that really run in parallel and wake up after
// sleeping; thousands of consecutive runs; create()'s errors; clean destruction. These tests run
// under ThreadSanitizer (the tsan preset, label "threads").

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "atoll/core/JobSystem.h"
#include "atoll/core/ThreadPool.h"

namespace atl {
namespace thread_pool_test {
namespace {

std::unique_ptr<ThreadPool> make_pool(uint32_t num_workers) {
  auto pool = ThreadPool::create(num_workers);
  EXPECT_TRUE(pool.ok());
  return std::move(pool).value();
}

// What one run() did: how often each item was visited, and every range's shape.
struct Coverage {
  std::vector<std::atomic<uint32_t>> hits;
  uint32_t step = 1;
  uint32_t count = 0;
  uint32_t num_workers = 1;
  std::atomic<uint32_t> ranges{0};
  std::atomic<uint32_t> bad_ranges{0};   // begin not on a step, or wrong length
  std::atomic<uint32_t> bad_workers{0};  // worker index outside [0, num_workers)

  static void task(uint32_t begin, uint32_t end, uint32_t worker, void* context) {
    auto& c = *static_cast<Coverage*>(context);
    c.ranges.fetch_add(1, std::memory_order_relaxed);
    const uint32_t expected_end = c.count - begin < c.step ? c.count : begin + c.step;
    if (begin % c.step != 0 || end != expected_end) c.bad_ranges.fetch_add(1);
    if (worker >= c.num_workers) c.bad_workers.fetch_add(1);
    for (uint32_t i = begin; i < end; ++i) c.hits[i].fetch_add(1, std::memory_order_relaxed);
  }
};

// Runs a coverage task over [0, count) in ranges of min_range on `jobs` and checks it.
void expect_covered_once(JobSystem& jobs, uint32_t count, uint32_t min_range) {
  SCOPED_TRACE(testing::Message() << "workers " << jobs.num_workers() << ", count " << count
                                  << ", min_range " << min_range);
  Coverage c;
  c.hits = std::vector<std::atomic<uint32_t>>(count);
  c.step = min_range == 0 ? 1 : min_range;
  c.count = count;
  c.num_workers = jobs.num_workers();
  jobs.run(&Coverage::task, count, min_range, &c);
  uint32_t wrong = 0;
  for (uint32_t i = 0; i < count; ++i) wrong += c.hits[i].load() != 1 ? 1 : 0;
  EXPECT_EQ(wrong, 0u);  // items not visited exactly once
  const uint32_t expected_ranges = count == 0 ? 0 : (count - 1) / c.step + 1;
  EXPECT_EQ(c.ranges.load(), expected_ranges);
  EXPECT_EQ(c.bad_ranges.load(), 0u);
  EXPECT_EQ(c.bad_workers.load(), 0u);
}

constexpr uint32_t k_counts[] = {0, 1, 2, 3, 7, 64, 1000, 4097};
constexpr uint32_t k_min_ranges[] = {0, 1, 2, 5, 64, 1000, 5000};

TEST(ThreadPool, CreateRejectsWorkerCountsOutsideOneTo256) {
  const auto zero = ThreadPool::create(0);
  ASSERT_FALSE(zero.ok());
  EXPECT_STREQ(zero.error().message(),
               "ThreadPool::create: num_workers: must be in [1, 256], got 0");
  const auto too_many = ThreadPool::create(257);
  ASSERT_FALSE(too_many.ok());
  EXPECT_STREQ(too_many.error().message(),
               "ThreadPool::create: num_workers: must be in [1, 256], got 257");
  const auto one = ThreadPool::create(1);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one.value()->num_workers(), 1u);
}

TEST(ThreadPool, CoversEveryItemExactlyOnce) {
  for (const uint32_t workers : {1u, 2u, 3u, 4u, 8u}) {
    auto pool = make_pool(workers);
    EXPECT_EQ(pool->num_workers(), workers);
    for (const uint32_t count : k_counts) {
      for (const uint32_t min_range : k_min_ranges) expect_covered_once(*pool, count, min_range);
    }
  }
}

TEST(InlineJobSystem, CoversEveryItemExactlyOnceInOrder) {
  InlineJobSystem jobs;
  EXPECT_EQ(jobs.num_workers(), 1u);
  for (const uint32_t count : k_counts) {
    for (const uint32_t min_range : k_min_ranges) expect_covered_once(jobs, count, min_range);
  }
  // One thread runs the ranges in item order.
  std::vector<uint32_t> begins;
  parallel_for(jobs, 10, 3, [&](uint32_t begin, uint32_t, uint32_t worker) {
    EXPECT_EQ(worker, 0u);
    begins.push_back(begin);
  });
  EXPECT_EQ(begins, (std::vector<uint32_t>{0, 3, 6, 9}));
}

TEST(ThreadPool, OneWorkerRunsEverythingOnTheCaller) {
  auto pool = make_pool(1);
  const std::thread::id caller = std::this_thread::get_id();
  uint32_t other_threads = 0;
  uint32_t items = 0;
  parallel_for(*pool, 1000, 7, [&](uint32_t begin, uint32_t end, uint32_t worker) {
    if (std::this_thread::get_id() != caller || worker != 0) ++other_threads;
    items += end - begin;
  });
  EXPECT_EQ(other_threads, 0u);
  EXPECT_EQ(items, 1000u);
}

// Per-worker scratch: a range marks its worker's slot in use for the range's duration; finding
// the slot already in use means two concurrent ranges were given the same worker index.
struct Scratch {
  explicit Scratch(uint32_t num_workers) : in_use(num_workers), ranges_run(num_workers) {}
  std::vector<std::atomic<bool>> in_use;
  std::vector<std::atomic<uint32_t>> ranges_run;
  std::atomic<uint32_t> shared{0};
  std::atomic<uint32_t> out_of_range{0};
};

TEST(ThreadPool, WorkerIndicesAreInRangeAndNeverSharedConcurrently) {
  for (const uint32_t workers : {2u, 3u, 4u, 8u}) {
    auto pool = make_pool(workers);
    Scratch scratch(workers);
    for (int repeat = 0; repeat < 200; ++repeat) {
      parallel_for(*pool, 512, 1, [&](uint32_t begin, uint32_t, uint32_t worker) {
        if (worker >= workers) {
          scratch.out_of_range.fetch_add(1);
          return;
        }
        if (scratch.in_use[worker].exchange(true, std::memory_order_acquire))
          scratch.shared.fetch_add(1);
        // A little work so that ranges overlap in time.
        volatile uint32_t sink = begin;
        for (int i = 0; i < 200; ++i) sink = sink * 1664525u + 1013904223u;
        scratch.ranges_run[worker].fetch_add(1, std::memory_order_relaxed);
        scratch.in_use[worker].store(false, std::memory_order_release);
      });
    }
    EXPECT_EQ(scratch.out_of_range.load(), 0u) << workers << " workers";
    EXPECT_EQ(scratch.shared.load(), 0u) << workers << " workers";
    uint32_t total = 0;
    for (auto& r : scratch.ranges_run) total += r.load();
    EXPECT_EQ(total, 200u * 512u);
  }
}

// A run of `workers` ranges whose every range waits until all of them have started: it can
// only finish if `workers` distinct threads run its ranges at the same time. Returns the worker
// indices seen (each must appear once), or an empty vector when the rendezvous timed out (10 s).
std::vector<uint32_t> rendezvous(ThreadPool& pool) {
  const uint32_t workers = pool.num_workers();
  std::atomic<uint32_t> arrived{0};
  std::atomic<bool> timed_out{false};
  std::vector<std::atomic<uint32_t>> seen(workers);
  parallel_for(pool, workers, 1, [&](uint32_t, uint32_t, uint32_t worker) {
    seen[worker].fetch_add(1);
    arrived.fetch_add(1);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (arrived.load() < workers) {
      if (std::chrono::steady_clock::now() > deadline) {
        timed_out.store(true);
        break;
      }
      std::this_thread::yield();
    }
  });
  if (timed_out.load()) return {};
  std::vector<uint32_t> counts;
  for (auto& s : seen) counts.push_back(s.load());
  return counts;
}

TEST(ThreadPool, EveryWorkerRunsARangeAtTheSameTime) {
  for (const uint32_t workers : {2u, 4u, 8u}) {
    auto pool = make_pool(workers);
    EXPECT_EQ(rendezvous(*pool), std::vector<uint32_t>(workers, 1u)) << workers << " workers";
  }
}

// A pause after which an idle worker (or a waiting caller) has stopped polling and sleeps.
constexpr std::chrono::microseconds k_asleep(4 * ThreadPool::k_spin_microseconds);

TEST(ThreadPool, WorkerKRunsRangeKWhenEveryWorkerComes) {
  // At most one range per worker (parallel_for_shares): worker k takes range k, so that a share
  // stays on one core from run to run. Every range waits until all have started, so no worker
  // can take another's range before that one has come for its own; handed out in index order,
  // whichever worker asked first took range 0. A third of the runs start after a pause of 50 µs,
  // one in thirty after the workers have fallen asleep.
  for (const uint32_t workers : {2u, 4u}) {
    auto pool = make_pool(workers);
    std::atomic<uint32_t> elsewhere{0};
    for (int repeat = 0; repeat < 300; ++repeat) {
      if (repeat % 3 == 0) std::this_thread::sleep_for(std::chrono::microseconds(50));
      if (repeat % 30 == 0) std::this_thread::sleep_for(k_asleep);
      std::atomic<uint32_t> arrived{0};
      parallel_for(*pool, workers, 1, [&](uint32_t begin, uint32_t, uint32_t worker) {
        if (begin != worker) elsewhere.fetch_add(1);
        arrived.fetch_add(1);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (arrived.load() < workers && std::chrono::steady_clock::now() < deadline)
          std::this_thread::yield();
      });
    }
    EXPECT_EQ(elsewhere.load(), 0u) << workers << " workers";
  }
}

TEST(ThreadPool, WakesWorkersThatFellAsleep) {
  // Idle workers sleep after k_spin_microseconds; after a pause of 4 times that every run must
  // wake them all (a lost wake-up would time the rendezvous out).
  auto pool = make_pool(3);
  for (int repeat = 0; repeat < 40; ++repeat) {
    std::this_thread::sleep_for(k_asleep);
    ASSERT_EQ(rendezvous(*pool), std::vector<uint32_t>(3, 1u)) << "repeat " << repeat;
  }
}

TEST(ThreadPool, CallerWaitsForAWorkerRunningALongRange) {
  // The caller's first range waits until the background worker has taken a range; that range
  // takes 4 times the caller's k_spin_microseconds of polling once its own ranges are done, so
  // the caller goes to sleep and the worker leaving the run must wake it.
  auto pool = make_pool(2);
  uint32_t runs_with_background_ranges = 0;
  for (int repeat = 0; repeat < 50; ++repeat) {
    std::vector<std::atomic<uint32_t>> hits(8);
    std::atomic<uint32_t> background{0};
    parallel_for(*pool, 8, 1, [&](uint32_t begin, uint32_t end, uint32_t worker) {
      if (worker != 0) {
        background.fetch_add(1);
        std::this_thread::sleep_for(k_asleep);
      } else {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (background.load() == 0 && std::chrono::steady_clock::now() < deadline)
          std::this_thread::yield();
      }
      for (uint32_t i = begin; i < end; ++i) hits[i].fetch_add(1);
    });
    for (auto& h : hits) ASSERT_EQ(h.load(), 1u);  // all finished before run() returned
    runs_with_background_ranges += background.load() != 0 ? 1 : 0;
  }
  EXPECT_EQ(runs_with_background_ranges, 50u);
}

TEST(ThreadPool, ThousandsOfConsecutiveRunsNeitherLoseNorHang) {
  for (const uint32_t workers : {2u, 4u}) {
    auto pool = make_pool(workers);
    uint64_t expected = 0;
    std::atomic<uint64_t> sum{0};
    for (uint32_t r = 0; r < 20000; ++r) {
      const uint32_t count = 1 + r % 17;
      const uint32_t min_range = r % 4;  // 0 (treated as 1) to 3
      parallel_for(*pool, count, min_range, [&](uint32_t begin, uint32_t end, uint32_t) {
        uint64_t local = 0;
        for (uint32_t i = begin; i < end; ++i) local += i + 1;
        sum.fetch_add(local, std::memory_order_relaxed);
      });
      expected += uint64_t{count} * (count + 1) / 2;
      // Every 1000 runs, let the workers fall asleep between two runs.
      if (r % 1000 == 999) std::this_thread::sleep_for(k_asleep);
    }
    EXPECT_EQ(sum.load(), expected) << workers << " workers";
  }
}

// Two worlds stepped on two threads may share one pool: run() called from several threads at
// once covers each run's items exactly once, with worker indices in range and never shared by
// two ranges of one run at the same time (a run that finds the workers taken runs on its own
// thread).
TEST(ThreadPool, RunsFromSeveralThreadsAtOnceEachCoverTheirItemsOnce) {
  for (const uint32_t workers : {2u, 4u}) {
    auto pool = make_pool(workers);
    constexpr uint32_t k_callers = 3;
    constexpr uint32_t k_runs = 2000;
    constexpr uint32_t k_count = 48;
    std::atomic<uint32_t> wrong{0};
    std::vector<std::thread> callers;
    for (uint32_t c = 0; c < k_callers; ++c) {
      callers.emplace_back([&, c] {
        std::vector<std::atomic<uint32_t>> covered(k_count);
        std::vector<std::atomic<bool>> in_use(workers);
        for (uint32_t r = 0; r < k_runs; ++r) {
          for (auto& item : covered) item.store(0, std::memory_order_relaxed);
          const uint32_t min_range = 1 + (r + c) % 3;
          parallel_for(*pool, k_count, min_range, [&](uint32_t begin, uint32_t end, uint32_t w) {
            if (w >= workers || in_use[w].exchange(true, std::memory_order_acquire)) {
              wrong.fetch_add(1);
              return;
            }
            for (uint32_t i = begin; i < end; ++i) covered[i].fetch_add(1);
            in_use[w].store(false, std::memory_order_release);
          });
          for (auto& item : covered)
            if (item.load(std::memory_order_relaxed) != 1) wrong.fetch_add(1);
        }
      });
    }
    for (std::thread& t : callers) t.join();
    EXPECT_EQ(wrong.load(), 0u) << workers << " workers";
  }
}

// A task of the pool that runs a world's step on the same pool (a game's job that steps a
// world): the inner run() finds the workers taken and runs on the task's thread.
TEST(ThreadPool, ARunFromInsideATaskRunsOnTheTasksThread) {
  auto pool = make_pool(3);
  std::atomic<uint32_t> wrong{0};
  std::atomic<uint32_t> inner_items{0};
  for (int repeat = 0; repeat < 200; ++repeat) {
    parallel_for(*pool, 3, 1, [&](uint32_t, uint32_t, uint32_t) {
      const std::thread::id outer = std::this_thread::get_id();
      std::vector<uint32_t> covered(40, 0);
      parallel_for(*pool, 40, 3, [&](uint32_t begin, uint32_t end, uint32_t worker) {
        if (worker != 0 || std::this_thread::get_id() != outer) wrong.fetch_add(1);
        for (uint32_t i = begin; i < end; ++i) ++covered[i];
      });
      for (uint32_t c : covered) {
        if (c != 1) wrong.fetch_add(1);
        inner_items.fetch_add(c);
      }
    });
  }
  EXPECT_EQ(wrong.load(), 0u);
  EXPECT_EQ(inner_items.load(), 200u * 3u * 40u);
}

// A range that throws on a background thread (the caller's own range waits until another
// thread has started it) used to end the process. run() now rethrows it on the caller once the
// other ranges running have finished, and the pool runs on; a
// throw in the caller's own range comes out the same way. Both ways a range is handed out: one
// per worker (2 ranges) and in order (200 ranges).
TEST(ThreadPool, ARangeThatThrowsIsRethrownOnTheCallerAndThePoolRunsOn) {
  auto pool = make_pool(2);
  for (const uint32_t count : {2u, 200u})
    for (const bool on_caller : {false, true}) {
      SCOPED_TRACE(testing::Message() << "count " << count << ", on the caller " << on_caller);
      const std::thread::id caller = std::this_thread::get_id();
      std::atomic<bool> thrower_started{false};
      std::atomic<bool> threw_on_caller{false};
      bool caught = false;
      try {
        parallel_for(*pool, count, 1, [&](uint32_t begin, uint32_t, uint32_t) {
          const bool here = std::this_thread::get_id() == caller;
          // The first range to run on the chosen side throws; on the other side, the first
          // range waits (up to 10 s) for it to start.
          if (here == on_caller) {
            if (!thrower_started.exchange(true)) {
              threw_on_caller = here;
              throw std::runtime_error("range " + std::to_string(begin));
            }
          } else if (begin == 0 || begin == count - 1) {
            for (int i = 0; i < 10000 && !thrower_started.load(); ++i)
              std::this_thread::sleep_for(std::chrono::milliseconds(1));
          }
        });
      } catch (const std::runtime_error& e) {
        caught = std::string(e.what()).rfind("range ", 0) == 0;
      }
      EXPECT_TRUE(caught);
      EXPECT_EQ(threw_on_caller.load(), on_caller);
      // The next runs cover every item once.
      for (uint32_t repeat = 0; repeat < 20; ++repeat) expect_covered_once(*pool, 1000, 7);
    }
}

TEST(ThreadPool, DestroyedRightAfterCreation) {
  for (const uint32_t workers : {1u, 2u, 8u, 64u}) {
    auto pool = ThreadPool::create(workers);
    ASSERT_TRUE(pool.ok()) << workers;
    EXPECT_EQ(pool.value()->num_workers(), workers);
  }  // each destructor joins its threads; a hang here fails by the test timeout
}

TEST(ThreadPool, DestroyedAfterUse) {
  for (const uint32_t workers : {2u, 8u}) {
    auto pool = make_pool(workers);
    expect_covered_once(*pool, 10000, 3);
    EXPECT_EQ(rendezvous(*pool), std::vector<uint32_t>(workers, 1u));
    pool.reset();  // workers spinning or asleep are stopped and joined
    EXPECT_EQ(pool, nullptr);
  }
}

// parallel_for_shares: at most one contiguous share per worker, none below the minimum (unless
// there are fewer items), together covering every item once, in the same places every time.
TEST(ThreadPool, SharesAreContiguousCoverEverythingAndRepeat) {
  auto pool = make_pool(3);
  for (const uint32_t count : {0u, 1u, 5u, 100u, 1000u}) {
    for (const uint32_t min_share : {1u, 7u, 400u}) {
      std::vector<std::pair<uint32_t, uint32_t>> shares[2];
      for (auto& out : shares) {
        std::mutex lock;
        std::vector<std::atomic<uint32_t>> hits(count);
        parallel_for_shares(*pool, count, min_share,
                            [&](uint32_t begin, uint32_t end, uint32_t worker) {
                              EXPECT_LT(worker, 3u);
                              for (uint32_t i = begin; i < end; ++i) ++hits[i];
                              const std::lock_guard<std::mutex> guard(lock);
                              out.emplace_back(begin, end);
                            });
        for (uint32_t i = 0; i < count; ++i) EXPECT_EQ(hits[i].load(), 1u) << count << " " << i;
        std::sort(out.begin(), out.end());
      }
      EXPECT_EQ(shares[0], shares[1]) << count << " items, min " << min_share;
      const uint32_t expected =
          count == 0 ? 0 : std::min(3u, std::max(1u, (count + min_share - 1) / min_share));
      EXPECT_EQ(shares[0].size(), expected) << count << " items, min " << min_share;
      for (size_t k = 0; k + 1 < shares[0].size(); ++k)
        EXPECT_EQ(shares[0][k].second, shares[0][k + 1].first);  // contiguous
    }
  }
}

}  // namespace
}  // namespace thread_pool_test
}  // namespace atl
