#include "atoll/solver/SplitRounds.h"

#include <thread>

#include "atoll/core/CpuRelax.h"

namespace atl {

namespace {

// Grows `array` to hold at least `count` elements (never shrinks: a warmed-up step allocates
// nothing).
template <class T>
void reserve(std::unique_ptr<T[]>& array, uint32_t& capacity, uint32_t count) {
  if (count <= capacity) return;
  array = std::make_unique<T[]>(count);
  capacity = count;
}

// The units of split `s` that SplitRounds hands out: its batches, or the non-parallel split
// whole.
uint32_t split_units(const IslandSplits& splits, uint32_t s) {
  return splits.is_non_parallel(s) ? 1 : splits.num_batches(s);
}

}  // namespace

bool SplitRounds::shares_work(const IslandSplits& splits, uint32_t num_workers) {
  if (num_workers <= 1) return false;
  uint32_t units = 0;
  uint32_t shared_units = 0;
  for (uint32_t s = 0; s < splits.num_splits(); ++s) {
    const uint32_t n = split_units(splits, s);
    units += n;
    if (Shares(num_workers, n, k_min_share_batches).shares > 1) shared_units += n;
  }
  return shared_units != 0 && 4 * shared_units >= 3 * units;
}

void SplitRounds::prepare(const IslandSplits& splits, uint32_t num_rounds, uint32_t num_workers) {
  num_splits_ = splits.num_splits();
  num_rounds_ = num_rounds;
  num_workers_ = num_workers;
  const uint32_t num_phases = num_rounds * num_splits_;
  reserve(claims_, claim_capacity_, num_phases * num_workers);
  reserve(finished_, phase_capacity_, num_phases);
  reserve(changed_, round_capacity_, num_rounds);
  for (uint32_t s = 0; s < num_splits_; ++s) {
    split_non_parallel_[s] = splits.is_non_parallel(s);
    split_units_[s] = split_non_parallel_[s] ? 1 : splits.num_batches(s);
    split_shares_[s] = Shares(num_workers, split_units_[s], k_min_share_batches).shares;
  }
  for (uint32_t round = 0; round < num_rounds; ++round) {
    changed_[round].value.store(0, std::memory_order_relaxed);
    for (uint32_t s = 0; s < num_splits_; ++s) {
      const uint32_t phase = round * num_splits_ + s;
      finished_[phase].value.store(0, std::memory_order_relaxed);
      const Shares division(num_workers, split_units_[s], k_min_share_batches);
      for (uint32_t share = 0; share < split_shares_[s]; ++share)
        claims_[phase * num_workers + share].reset(division.begin(share), division.end(share));
    }
  }
}

bool SplitRounds::take(uint32_t phase, uint32_t participant, uint32_t& first, uint32_t& count) {
  // A few at a time from the front of its own share: one compare-exchange per batch cost 3 % of
  // the pyramid's 2-thread solve (a batch of lanes takes about half a microsecond).
  return take_from_shares(&claims_[phase * num_workers_], split_shares_[phase % num_splits_],
                          participant, k_units_per_take, 1, first, count);
}

void SplitRounds::participate(uint32_t participant, const IslandSplits& splits, Pass pass,
                              NextRound next_round, void* context) {
  uint32_t round = 0;
  while (round < num_rounds_) {
    for (uint32_t s = 0; s < num_splits_; ++s) {
      const uint32_t phase = round * num_splits_ + s;
      uint32_t done = 0;
      bool changed = false;
      uint32_t first = 0;
      uint32_t count = 0;
      while (take(phase, participant, first, count)) {
        if (split_non_parallel_[s]) {
          // In order, on this worker: the split's items may share bodies.
          const uint32_t num_batches = splits.num_batches(s);
          for (uint32_t b = 0; b < num_batches; ++b) changed |= pass(context, round, s, b);
        } else {
          for (uint32_t unit = first; unit < first + count; ++unit)
            changed |= pass(context, round, s, unit);
        }
        done += count;
      }
      if (done != 0) {
        // Published by the release below to whoever sees this phase finished.
        // Written once per round (read first): a store by every worker at every split moved
        // the line between the cores each time.
        std::atomic<uint32_t>& round_changed = changed_[round].value;
        if (changed && round_changed.load(std::memory_order_relaxed) == 0)
          round_changed.store(1, std::memory_order_relaxed);
        finished_[phase].value.fetch_add(done, std::memory_order_release);
      }
      // Every unit is taken; wait for those that other workers are running.
      std::atomic<uint32_t>& finished = finished_[phase].value;
      for (uint32_t polls = 0; finished.load(std::memory_order_acquire) != split_units_[s];
           ++polls) {
        // A worker descheduled while it runs a batch: give its core back.
        if (polls >= 4096)
          std::this_thread::yield();
        else
          cpu_relax();
      }
    }
    round =
        next_round(round, changed_[round].value.load(std::memory_order_relaxed) != 0, num_rounds_);
  }
}

void SplitRounds::run(JobSystem& jobs, const IslandSplits& splits, uint32_t num_rounds, Pass pass,
                      NextRound next_round, void* context) {
  const uint32_t num_workers = jobs.num_workers();
  prepare(splits, num_rounds, num_workers);
  // A split of at most k_min_share_batches batches is one share, which one worker solves
  // while the others wait at its end. When most splits are so small (shares_work; a pile of 16
  // ragdolls: 192 bodies, splits of a few batches), the other workers would mostly wait, and
  // the waits cost more than the solve: on 2 workers that pile's velocity solve took 112 ms per
  // 600 steps against 56 on one.
  if (shares_work(splits, num_workers)) {
    parallel_for(jobs, num_workers, 1, [&](uint32_t begin, uint32_t end, uint32_t) {
      for (uint32_t participant = begin; participant < end; ++participant)
        participate(participant, splits, pass, next_round, context);
    });
    return;
  }
  // One worker: the same sequence without taking or counting anything.
  uint32_t round = 0;
  while (round < num_rounds) {
    bool changed = false;
    for (uint32_t s = 0; s < num_splits_; ++s) {
      const uint32_t num_batches = splits.num_batches(s);
      for (uint32_t b = 0; b < num_batches; ++b) changed |= pass(context, round, s, b);
    }
    changed_[round].value.store(changed ? 1 : 0, std::memory_order_relaxed);
    round = next_round(round, changed, num_rounds);
  }
}

}  // namespace atl
