// SplitRounds (solver/SplitRounds.h), the split island's passes on every worker at once: in
// every round each batch runs exactly once, split s + 1 starts only when every batch of split s
// has finished, the non-parallel split's batches run in order on one thread, and the rounds run
// are the ones next_round decides from the batches' results — for the inline job system, thread
// pools of 2, 3 and 4 workers and a job system that runs the ranges backwards on one thread (a
// worker that never runs beside the others must not be waited for); and an island whose splits
// are all too small to share runs on the caller alone (shares_work says which are shared). Named
// *Thread*: the ThreadSanitizer build runs it.

#include "atoll/solver/SplitRounds.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "BackwardsJobSystem.h"
#include "atoll/core/ThreadPool.h"

namespace atl::split_rounds_thread_test {
namespace {

// An island of `sizes[s]` contacts per split (the last one non-parallel when `non_parallel`).
struct Island {
  std::vector<IslandSplit> splits;
  std::vector<uint32_t> contacts;
  bool non_parallel = false;
  Island(const std::vector<uint32_t>& sizes, bool has_non_parallel)
      : non_parallel(has_non_parallel) {
    for (uint32_t size : sizes) {
      IslandSplit split;
      split.contact_begin = static_cast<uint32_t>(contacts.size());
      for (uint32_t k = 0; k < size; ++k)
        contacts.push_back(static_cast<uint32_t>(contacts.size()));
      split.contact_end = static_cast<uint32_t>(contacts.size());
      splits.push_back(split);
    }
  }
  IslandSplits view() const { return IslandSplits(splits, {}, contacts, non_parallel); }
};

// What one run saw: per round, split and batch, how often it ran and its start and end on one
// clock shared by all threads; the thread of each non-parallel batch.
struct Record {
  explicit Record(const IslandSplits& splits, uint32_t rounds) : splits_(splits) {
    for (uint32_t s = 0; s < splits.num_splits(); ++s) {
      first_.push_back(num_slots_);
      num_slots_ += splits.num_batches(s);
    }
    runs = std::make_unique<std::atomic<uint32_t>[]>(num_slots_ * rounds);
    start = std::make_unique<std::atomic<uint64_t>[]>(num_slots_ * rounds);
    end = std::make_unique<std::atomic<uint64_t>[]>(num_slots_ * rounds);
  }
  uint32_t slot(uint32_t round, uint32_t s, uint32_t b) const {
    return round * num_slots_ + first_[s] + b;
  }
  const IslandSplits& splits_;
  std::vector<uint32_t> first_;
  uint32_t num_slots_ = 0;
  std::atomic<uint64_t> clock{0};
  std::unique_ptr<std::atomic<uint32_t>[]> runs;
  std::unique_ptr<std::atomic<uint64_t>[]> start;
  std::unique_ptr<std::atomic<uint64_t>[]> end;
  std::mutex mutex;
  std::vector<std::pair<uint32_t, std::thread::id>> non_parallel_order;  // (round·1000 + b, thread)
  // Batches that report a change: round r changes while r < changes_until.
  uint32_t changes_until = 0;
};

bool pass(void* context, uint32_t round, uint32_t s, uint32_t b) {
  Record& r = *static_cast<Record*>(context);
  const uint32_t slot = r.slot(round, s, b);
  r.start[slot].store(r.clock.fetch_add(1) + 1);
  r.runs[slot].fetch_add(1);
  if (r.splits_.is_non_parallel(s)) {
    const std::lock_guard lock(r.mutex);
    r.non_parallel_order.emplace_back(round * 1000 + b, std::this_thread::get_id());
  }
  // A little work, so that the workers overlap.
  volatile uint32_t sink = 0;
  for (uint32_t i = 0; i < 200; ++i) sink = sink + i;
  r.end[slot].store(r.clock.fetch_add(1) + 1);
  // Only the last batch of a split reports, so that a round's result depends on one batch.
  return round < r.changes_until && b + 1 == r.splits_.num_batches(s);
}

uint32_t next_round(uint32_t round, bool changed, uint32_t num_rounds) {
  return changed ? round + 1 : num_rounds;
}

// Runs `rounds` rounds (stopping after the first that changes nothing) and checks everything.
void check_run(JobSystem& jobs, const Island& island, uint32_t rounds, uint32_t changes_until) {
  const IslandSplits splits = island.view();
  Record record(splits, rounds);
  record.changes_until = changes_until;
  SplitRounds runner;
  runner.run(jobs, splits, rounds, pass, next_round, &record);
  // Rounds 0 … changes_until run (the first that changes nothing ends it), within `rounds`.
  const uint32_t rounds_run = std::min(rounds, changes_until + 1);
  for (uint32_t round = 0; round < rounds; ++round) {
    EXPECT_EQ(runner.changed(round), round < rounds_run && round < changes_until) << round;
    for (uint32_t s = 0; s < splits.num_splits(); ++s) {
      for (uint32_t b = 0; b < splits.num_batches(s); ++b)
        ASSERT_EQ(record.runs[record.slot(round, s, b)].load(), round < rounds_run ? 1u : 0u)
            << "round " << round << " split " << s << " batch " << b;
    }
    if (round >= rounds_run) continue;
    // Every batch of a split ends before any batch of the next split (or round) starts.
    uint64_t previous_end = 0;
    for (uint32_t s = 0; s < splits.num_splits(); ++s) {
      uint64_t first_start = ~uint64_t{0};
      uint64_t last_end = 0;
      for (uint32_t b = 0; b < splits.num_batches(s); ++b) {
        first_start = std::min(first_start, record.start[record.slot(round, s, b)].load());
        last_end = std::max(last_end, record.end[record.slot(round, s, b)].load());
      }
      EXPECT_GT(first_start, previous_end) << "round " << round << " split " << s;
      previous_end = last_end;
    }
  }
  // The non-parallel split: its batches in order, each round on one thread.
  if (island.non_parallel) {
    const uint32_t last = splits.num_splits() - 1;
    ASSERT_EQ(record.non_parallel_order.size(), rounds_run * splits.num_batches(last));
    for (size_t k = 0; k < record.non_parallel_order.size(); ++k) {
      const uint32_t batches = splits.num_batches(last);
      const uint32_t expected = static_cast<uint32_t>(k / batches) * 1000 + k % batches;
      EXPECT_EQ(record.non_parallel_order[k].first, expected) << k;
      if (k % batches != 0) {
        EXPECT_EQ(record.non_parallel_order[k].second, record.non_parallel_order[k - 1].second);
      }
    }
  }
}

std::vector<std::unique_ptr<JobSystem>> job_systems() {
  std::vector<std::unique_ptr<JobSystem>> out;
  out.push_back(std::make_unique<InlineJobSystem>());
  out.push_back(std::make_unique<BackwardsJobSystem>(3));
  for (uint32_t workers : {2u, 3u, 4u}) out.push_back(ThreadPool::create(workers).value());
  return out;
}

TEST(SplitRounds, EveryBatchOnceASplitAfterTheOneBeforeAndTheNonParallelSplitInOrder) {
  // Splits of 1 batch (below a share: one worker's), of many, of a partial last batch; a
  // non-parallel split of 5 batches at the end.
  const Island island({16, 900, 33, 400, 80}, true);
  for (const auto& jobs : job_systems()) {
    SCOPED_TRACE(jobs->num_workers());
    check_run(*jobs, island, 6, 100);  // every round changes: all 6 run
  }
}

TEST(SplitRounds, StopsAfterTheFirstRoundThatChangesNothing) {
  const Island island({500, 300, 200}, false);
  for (const auto& jobs : job_systems()) {
    SCOPED_TRACE(jobs->num_workers());
    for (uint32_t changes_until : {0u, 1u, 4u}) check_run(*jobs, island, 8, changes_until);
  }
}

TEST(SplitRounds, RunsAgainWithOtherSplitsAndRounds) {
  // The same runner for islands of other shapes, as the solver reuses it step after step.
  const auto pool = ThreadPool::create(2).value();
  const Island a({700, 650, 20}, true);
  const Island b({40}, false);
  SplitRounds runner;
  for (int repeat = 0; repeat < 3; ++repeat) {
    for (const Island* island : {&a, &b}) {
      const IslandSplits splits = island->view();
      Record record(splits, 3);
      record.changes_until = 3;
      runner.run(*pool, splits, 3, pass, next_round, &record);
      for (uint32_t round = 0; round < 3; ++round)
        for (uint32_t s = 0; s < splits.num_splits(); ++s)
          for (uint32_t bt = 0; bt < splits.num_batches(s); ++bt)
            ASSERT_EQ(record.runs[record.slot(round, s, bt)].load(), 1u);
    }
  }
}

// A job system that counts the runs it is given and hands them to another.
class CountingJobSystem final : public JobSystem {
 public:
  explicit CountingJobSystem(JobSystem& inner) : inner_(inner) {}
  uint32_t num_workers() const override { return inner_.num_workers(); }
  void run(TaskFunction task, uint32_t count, uint32_t min_range, void* context) override {
    ++runs;
    inner_.run(task, count, min_range, context);
  }
  uint32_t runs = 0;

 private:
  JobSystem& inner_;
};

TEST(SplitRounds, SplitsTooSmallToShareRunOnTheCaller) {
  // Splits of 7, 8 and 4 batches: none above k_min_share_batches, so one share each; the other
  // workers would only wait at every split's end. The job system is not asked to run anything,
  // and every batch of every round runs once, on the calling thread. So does an island with
  // splits of 17, 7 and 7 batches (17 of 31 in a split of two shares: below shares_work's three
  // quarters). An island with a split of 57 batches is shared.
  static_assert(SplitRounds::k_min_share_batches == 8, "the sizes below are 7, 8, 4 batches");
  const Island small({100, 128, 60}, false);
  const Island mostly_small({272, 100, 100}, false);
  const Island large({100, 900, 60}, false);
  struct Seen {
    std::mutex mutex;
    std::vector<std::thread::id> threads;
  };
  const auto run = [](JobSystem& jobs, const Island& island, Seen& seen) {
    SplitRounds runner;
    runner.run(
        jobs, island.view(), 3,
        [](void* context, uint32_t, uint32_t, uint32_t) {
          Seen& s = *static_cast<Seen*>(context);
          const std::lock_guard lock(s.mutex);
          s.threads.push_back(std::this_thread::get_id());
          return true;
        },
        next_round, &seen);
    for (uint32_t round = 0; round < 3; ++round) EXPECT_TRUE(runner.changed(round));
  };
  for (const auto& inner : job_systems()) {
    SCOPED_TRACE(inner->num_workers());
    CountingJobSystem jobs(*inner);
    Seen seen;
    run(jobs, small, seen);
    EXPECT_EQ(jobs.runs, 0u);
    ASSERT_EQ(seen.threads.size(), 3u * (7 + 8 + 4));
    for (const std::thread::id& id : seen.threads) EXPECT_EQ(id, std::this_thread::get_id());
    Seen seen_mostly_small;
    run(jobs, mostly_small, seen_mostly_small);
    EXPECT_EQ(jobs.runs, 0u);
    ASSERT_EQ(seen_mostly_small.threads.size(), 3u * (17 + 7 + 7));
    for (const std::thread::id& id : seen_mostly_small.threads)
      EXPECT_EQ(id, std::this_thread::get_id());
    Seen seen_large;
    run(jobs, large, seen_large);
    EXPECT_EQ(seen_large.threads.size(), 3u * (7 + 57 + 4));
    EXPECT_EQ(jobs.runs, inner->num_workers() > 1 ? 1u : 0u);
  }
}

TEST(SplitRounds, SharesWorkWhenMostBatchesAreInSplitsLargeEnoughToShare) {
  static_assert(SplitRounds::k_min_share_batches == 8, "the sizes below are in batches of 16");
  const auto shares = [](const std::vector<uint32_t>& sizes, bool non_parallel, uint32_t workers) {
    return SplitRounds::shares_work(Island(sizes, non_parallel).view(), workers);
  };
  // One worker shares nothing.
  EXPECT_FALSE(shares({900}, false, 1));
  EXPECT_TRUE(shares({900}, false, 2));
  // 7, 8 and 4 batches: no split has two shares.
  EXPECT_FALSE(shares({100, 128, 60}, false, 2));
  // 17, 17 and 7 batches: 34 of 41 in shared splits (at least three quarters).
  EXPECT_TRUE(shares({272, 272, 100}, false, 2));
  // 17, 7 and 7: 17 of 31. The pyramid's bottom layer on the floor, splits of 8, 7, 8, 8, 8,
  // 8, 6, 6 and 11 batches: 11 of 70.
  EXPECT_FALSE(shares({272, 100, 100}, false, 2));
  EXPECT_FALSE(shares({128, 112, 128, 128, 128, 128, 96, 96, 176}, false, 2));
  // The non-parallel split is one unit, however many batches it has.
  EXPECT_TRUE(shares({272, 272, 2000}, true, 2));
  // A split of 8 batches is one share for any number of workers.
  EXPECT_TRUE(shares({272}, false, 3));
  EXPECT_FALSE(shares({128}, false, 3));
  EXPECT_FALSE(shares({128}, false, 8));
}

TEST(SplitRounds, NoRoundsRunsNothing) {
  const Island island({100}, false);
  const IslandSplits splits = island.view();
  for (const auto& jobs : job_systems()) {
    Record record(splits, 1);
    SplitRounds runner;
    runner.run(*jobs, splits, 0, pass, next_round, &record);
    EXPECT_EQ(record.clock.load(), 0u);
    EXPECT_FALSE(runner.changed(0));
  }
}

}  // namespace
}  // namespace atl::split_rounds_thread_test
