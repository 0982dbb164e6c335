#pragma once
// The rounds of a split island's solve on every worker at once, with no barrier of the job
// system between its splits (seed 001 §4.3: Jolt's workers move from split to split on their
// own the same way).
//
// A split island's solve is rounds (the warm start, each velocity iteration, the impulse store;
// each position iteration), and a round runs the island's splits in order: split s + 1 may
// start only when every batch of split s has finished, because they share bodies. Run as one
// job-system run per split and round, the pyramid's 2-thread step paid for 200 runs: each one
// wakes the workers, and the caller then waits for the slowest share — 12 % of its velocity
// solve went to waiting and handing out, and the split whose shares were furthest apart set the
// pace of every round.
//
// SplitRounds instead starts one range per worker once and lets the workers synchronise among
// themselves, split by split. A split's batches are divided into the shares that
// parallel_for_shares would give (so that share k's data, which setup wrote on its core, stays
// there), each worker takes the batches of its own share from the front, and a worker whose
// share is done takes what is left of the others' from the back, one batch at a time
// (core/ShareClaims.h). A worker moves to the next split when every batch of this one has
// finished. The batches of a split share no moving body, so whichever worker solves a batch,
// the bits are the same, and so is the decision to end the iterations early, which every
// worker reads from the same flags once the round has finished.
//
// A worker only ever waits for batches that another worker has taken and is running, so any
// JobSystem works, including one that runs the ranges one after the other on one thread (the
// first range then does all the work).

#include <atomic>
#include <cstdint>
#include <memory>

#include "atoll/core/JobSystem.h"
#include "atoll/core/ShareClaims.h"
#include "atoll/solver/LargeIslandSplitter.h"

namespace atl {

class SplitRounds {
 public:
  /// What a batch does in round `round`: returns whether it changed something (an impulse
  /// applied, a body moved) for the early exit. `context` is the caller's.
  using Pass = bool (*)(void* context, uint32_t round, uint32_t split, uint32_t batch);
  /// The round after `round`, given whether any batch of it changed something: round + 1, or a
  /// later round (num_rounds: stop). Must not depend on anything but its arguments.
  using NextRound = uint32_t (*)(uint32_t round, bool changed, uint32_t num_rounds);

  /// Fewest batches per share of a split: a share below 8 batches (128 items, some 10 µs of
  /// work) costs more to hand to another core than it saves. The lane layout follows these
  /// shares (IslandSolver.h, plan_wide_contacts).
  static constexpr uint32_t k_min_share_batches = 8;

  /// Whether `num_workers` workers share the work of `splits`: at least three quarters of its
  /// units (its batches; the non-parallel split counts one) are in splits large enough to divide
  /// (more than k_min_share_batches batches). Otherwise run() solves it on the caller alone, and
  /// the other workers are better spent on other islands (solve_velocity gives such an island to
  /// one worker, beside the others'): in a split of one share the others only wait at its end. The
  /// three quarters are a judgement: on the pyramid's first 100 steps (a bottom layer of splits of
  /// 6 to 11 batches) sharing an island with any split of two shares measured the same.
  static bool shares_work(const IslandSplits& splits, uint32_t num_workers);

  /// Runs rounds 0, next_round(0, …), … below `num_rounds` of `splits` on every worker of
  /// `jobs`; in each round the splits in order, a parallel split's batches on any worker, the
  /// non-parallel split's batches in order on one. With one worker, or when the workers do not
  /// share the work (shares_work), it runs the same sequence on the caller.
  void run(JobSystem& jobs, const IslandSplits& splits, uint32_t num_rounds, Pass pass,
           NextRound next_round, void* context);

  /// Whether round `round` of the last run changed something (false for a round not run).
  bool changed(uint32_t round) const {
    return round < num_rounds_ && changed_[round].value.load(std::memory_order_relaxed) != 0;
  }

 private:
  // One cache line each, so that a worker counting its finished batches does not take the line
  // from the other workers.
  struct alignas(64) Counter {
    std::atomic<uint32_t> value{0};
  };
  void prepare(const IslandSplits& splits, uint32_t num_rounds, uint32_t num_workers);
  void participate(uint32_t participant, const IslandSplits& splits, Pass pass,
                   NextRound next_round, void* context);
  // Takes units [first, first + count) of phase `phase` (take_from_shares): up to
  // k_units_per_take from the front of its own share `participant`, else one from the back of
  // another share; false when none is left.
  bool take(uint32_t phase, uint32_t participant, uint32_t& first, uint32_t& count);
  static constexpr uint32_t k_units_per_take = 4;

  uint32_t num_splits_ = 0;
  uint32_t num_rounds_ = 0;
  uint32_t num_workers_ = 0;
  // A phase is one split in one round: phase round × num_splits_ + split. A split's units are
  // its batches (the non-parallel split: one unit, all its batches in order), in
  // split_shares_[split] shares; claims_[phase × num_workers_ + share] holds what is left of a
  // share.
  uint32_t split_shares_[LargeIslandSplitter::k_num_splits] = {};
  uint32_t split_units_[LargeIslandSplitter::k_num_splits] = {};
  bool split_non_parallel_[LargeIslandSplitter::k_num_splits] = {};
  std::unique_ptr<ShareClaim[]> claims_;
  std::unique_ptr<Counter[]> finished_;  // per phase: units finished
  std::unique_ptr<Counter[]> changed_;   // per round: whether a unit changed something
  uint32_t claim_capacity_ = 0;
  uint32_t phase_capacity_ = 0;
  uint32_t round_capacity_ = 0;
};

}  // namespace atl
