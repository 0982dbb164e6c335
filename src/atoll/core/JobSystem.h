#pragma once
// How the step spreads its work over threads. The step is a fixed list of stages (world/); a
// stage that can run in parallel hands the job system a range task over its items and waits for
// it (a barrier) before the next stage starts. A game plugs in its own scheduler by deriving
// from JobSystem, as Box2D v3's enqueue/finish task callbacks allow; ThreadPool
// (core/ThreadPool.h) is the default.
//
// Determinism does not rest on the scheduler: a stage splits its items into ranges that do not
// depend on the number of workers, every range writes only its own items' outputs, and whatever
// is summed or merged across ranges is combined afterwards in item order. So any JobSystem, with
// any number of workers, gives the same bits.

#include <cstdint>
#include <type_traits>
#include <utility>

#include "atoll/core/FloatEnvironment.h"

namespace atl {

class JobSystem {
 public:
  /// A range task: runs items [begin, end) of a stage on worker `worker` (0 ≤ worker <
  /// num_workers(); the calling thread is one of the workers). `context` is the stage's data.
  using TaskFunction = void (*)(uint32_t begin, uint32_t end, uint32_t worker, void* context);

  virtual ~JobSystem() = default;

  /// The most workers a job system may report: the step keeps scratch per worker (a few
  /// hundred bytes to a few kilobytes each, kept from step to step), so a count far beyond any
  /// machine's threads would only allocate. PhysicsSystem::update refuses a job system that
  /// reports 0 or more than this.
  static constexpr uint32_t k_max_workers = 256;

  /// Threads that may run one task's ranges at the same time, the caller included (in [1,
  /// k_max_workers]). A stage sizes its per-worker scratch by this.
  virtual uint32_t num_workers() const = 0;

  /// Runs `task` over [0, count) in ranges of `min_range` items (the last may be shorter), in
  /// any order and on any workers, each range exactly once, and returns when all have finished:
  /// a barrier. Called from one thread at a time (the step's); a task never calls back into the
  /// job system. A range may throw (a user's filter or listener inside the step): run() should
  /// then let the exception out on its calling thread once the ranges running have finished, and
  /// may skip those not started (InlineJobSystem and ThreadPool do).
  virtual void run(TaskFunction task, uint32_t count, uint32_t min_range, void* context) = 0;
};

/// The job system of one thread: every range runs on the caller, in order. What
/// PhysicsSystem::update uses when it is given none.
class InlineJobSystem final : public JobSystem {
 public:
  uint32_t num_workers() const override { return 1; }
  void run(TaskFunction task, uint32_t count, uint32_t min_range, void* context) override {
    const uint32_t step = min_range == 0 ? 1 : min_range;
    for (uint32_t begin = 0; begin < count; begin += step) {
      const uint32_t end = count - begin < step ? count : begin + step;
      task(begin, end, 0, context);
    }
  }
};

/// Runs `body(begin, end, worker)` over [0, count) in ranges of `min_range` items on `jobs`.
template <class Body>
void parallel_for(JobSystem& jobs, uint32_t count, uint32_t min_range, Body&& body) {
  if (count == 0) return;
  using B = std::remove_reference_t<Body>;
  jobs.run(
      [](uint32_t begin, uint32_t end, uint32_t worker, void* context) {
        // A worker of the game's own scheduler may run with flush-to-zero on.
        const ScopedDefaultFloatEnvironment environment;
        (*static_cast<B*>(context))(begin, end, worker);
      },
      count, min_range, const_cast<std::remove_const_t<B>*>(&body));
}

/// How parallel_for_shares divides [0, count) among `num_workers` workers: the number of
/// shares (at most one per worker, none smaller than `min_share` items), and share k's range.
/// A stage that lays out data for another stage's shares (so that each core finds its share's
/// data where it wrote it) divides with these too.
struct Shares {
  uint32_t count = 0;
  uint32_t shares = 0;
  Shares(uint32_t num_workers, uint32_t count_, uint32_t min_share) : count(count_) {
    const uint32_t step = min_share == 0 ? 1 : min_share;
    const uint32_t most = count / step + (count % step != 0 ? 1 : 0);
    shares = num_workers < most ? num_workers : most;
  }
  uint32_t begin(uint32_t share) const {
    return static_cast<uint32_t>(uint64_t{count} * share / shares);
  }
  uint32_t end(uint32_t share) const { return begin(share + 1); }
};

/// Fewest bodies in a share of the per-body stages (apply_forces, gather_solver_bodies,
/// integrate_positions, write_back, update_bounds' check in BroadPhase::update_many,
/// clear_forces after an update), one constant for all of them: they divide the same bodies
/// into the same shares, so that each core reads the bodies it wrote in the stage before.
/// These stages do little per body and touch data the serial stages around them touch too (the
/// bodies), so a share on another core moves cache lines as much as it saves work: below this
/// many bodies they stay on the caller. With the per-worker lists a cache line apart,
/// integrate_positions and write_back on 2 threads run faster than on one from about a
/// thousand bodies (many_pyramids, 3 520 bodies: 17.3 + 30.3 -> 8.9 + 23.4 ms over 300 steps;
/// highspeed, 5 000: 36.9 + 47.1 -> 27.2 + 33.4), where an earlier measurement, with the lists
/// sharing lines, had write_back slower on two.
inline constexpr uint32_t k_body_share = 1024;

/// Runs `body(begin, end, worker)` over [0, count) in at most one contiguous share per worker,
/// none smaller than `min_share` items (fewer shares when there are fewer items; one share runs
/// on the caller alone). For stages whose items touch data that the same stage touched before
/// (a solver's iterations, the next step): share k covers the same items every time and so
/// mostly runs on the same core (ThreadPool runs it on worker k whenever that worker comes),
/// keeping their data in that core's cache, where ranges handed out one by one would move it
/// between cores (a cache line crossing cores costs a few hundred nanoseconds on the machines
/// this was measured on). The division (Shares) depends on the
/// number of workers: use it only where the items are independent, so that any division gives
/// the same bits.
template <class Body>
void parallel_for_shares(JobSystem& jobs, uint32_t count, uint32_t min_share, Body&& body) {
  if (count == 0) return;
  const Shares division(jobs.num_workers(), count, min_share);
  if (division.shares <= 1) {
    body(0u, count, 0u);
    return;
  }
  parallel_for(jobs, division.shares, 1, [&](uint32_t first, uint32_t last, uint32_t worker) {
    for (uint32_t share = first; share < last; ++share)
      body(division.begin(share), division.end(share), worker);
  });
}

}  // namespace atl
