#pragma once
// The default JobSystem: a fixed pool of worker threads that share each run()'s ranges (one per
// worker, worker k's first; or more, through an atomic counter), the calling thread taking
// ranges too.
//
// num_workers counts the caller: a pool of N workers starts N - 1 background threads, and a pool
// of one worker runs every range inline on the caller without any thread. Background thread k
// (1 ≤ k < N) always runs its ranges as worker k and the caller as worker 0, so the worker index
// a task sees is in [0, N) and never shared by two ranges running at the same time (a stage may
// keep per-worker scratch).
//
// run() may be called from several threads at once (two worlds stepped on two threads, one pool),
// and from inside a task (a job of the pool that steps a world): one run at a time has the
// workers, and a run() that finds them taken runs its ranges on its own thread, in order, as
// worker 0 — the ranges of one run still never share a worker index, and a step's bits do not
// depend on where its ranges ran.
//
// A range that throws: run() rethrows the exception on its calling thread once the ranges
// running beside it have finished, and the run's ranges not yet started are skipped — as when
// the ranges run inline, where the exception leaves the loop. (Thrown on a background thread
// and not caught, it would end the process.) The pool stays usable.
//
// Cost of run(): no heap allocation, no lock. A worker that finishes a run keeps polling for the
// next one for about k_spin_microseconds (a stage calls run() a few dozen times per step, with a
// little serial work between), then sleeps on a futex (std::atomic::wait) so that an idle pool
// burns no core; run() makes the wake-up system call only when a worker sleeps. The caller never
// waits for a worker that has not joined the run: ranges still unclaimed when a worker wakes late
// are simply taken by the caller.

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <thread>
#include <vector>

#include "atoll/core/JobSystem.h"
#include "atoll/core/Result.h"

namespace atl {

class ThreadPool final : public JobSystem {
 public:
  /// Largest num_workers accepted by create(): the most a job system may report.
  static constexpr uint32_t k_max_workers = JobSystem::k_max_workers;
  /// How long an idle worker polls for the next run() before it sleeps (µs). The trade-off: a
  /// sleeping worker wakes through a system call and, on a virtual machine, an interrupt to its
  /// core, late enough that the caller has often done the work alone; polling costs up to this
  /// much of a core after each step. Measured on 2 cores (pyramid and ragdolls, 2 threads):
  /// 500 µs ran 2-5 % faster than 50; 2000 was no better.
  static constexpr int64_t k_spin_microseconds = 500;

  /// A pool of `num_workers` workers, the calling thread included (num_workers - 1 threads are
  /// started). Error when num_workers is outside [1, k_max_workers] or a thread cannot start.
  static Result<std::unique_ptr<ThreadPool>> create(uint32_t num_workers);

  /// Stops and joins the threads. Must not run while a run() is in progress.
  ~ThreadPool() override;
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  uint32_t num_workers() const override { return num_workers_; }

  /// JobSystem::run: ranges of max(min_range, 1) items; returns when every range has finished.
  /// With at most one range per worker (parallel_for_shares' shares), worker k takes range k
  /// first and then any range that no worker has taken yet, so that share k runs on the same
  /// core from run to run; with more ranges, they are handed out in order of their index to
  /// whichever worker asks first. While another thread's run() has the workers, every range
  /// runs on the calling thread.
  void run(TaskFunction task, uint32_t count, uint32_t min_range, void* context) override;

 private:
  // One run()'s parameters, written by the caller while no worker is inside the run and read by
  // the workers that join it.
  struct Job {
    TaskFunction task = nullptr;
    void* context = nullptr;
    uint32_t count = 0;
    uint32_t step = 1;        // items per range
    uint32_t num_ranges = 0;  // ceil(count / step)
    // Range k belongs to worker k first (claimed_), else ranges go in order (next_range_).
    bool by_worker = false;
  };
  // The most ranges that go by worker: claimed_ has a bit per range.
  static constexpr uint32_t k_max_ranges_by_worker = 64;

  // Bits of state_: the run is open to workers joining it; the caller sleeps until the workers
  // inside have left; the rest counts the workers inside the run.
  static constexpr uint32_t k_open = 1u << 31;
  static constexpr uint32_t k_caller_waits = 1u << 30;
  static constexpr uint32_t k_inside_mask = k_caller_waits - 1;

  explicit ThreadPool(uint32_t num_workers) : num_workers_(num_workers) {}
  void worker_main(uint32_t worker);
  // Takes ranges of the current job as `worker` until none is left.
  void take_ranges(const Job& job, uint32_t worker);
  void run_range(const Job& job, uint32_t range, uint32_t worker);
  // Runs every range on the calling thread, in order, as worker 0.
  static void run_inline(TaskFunction task, uint32_t count, uint32_t step, void* context);

  uint32_t num_workers_;
  std::vector<std::thread> threads_;

  // The caller's side: the current job and state_ (written at every join and leave).
  alignas(64) Job job_;
  std::atomic<uint32_t> state_{0};
  // Whether a run() has the workers (job_ and the claims are its own until it lets go).
  std::atomic<bool> busy_{false};
  // Whether a range of the current run threw, and the first such exception (written by the
  // range's worker after it set failed_; read by the caller after every worker has left).
  std::atomic<bool> failed_{false};
  std::exception_ptr failure_;
  // The next range to hand out, or the ranges taken (bit k: range k), by Job::by_worker
  // (hammered while a job runs: a cache line of its own).
  alignas(64) std::atomic<uint32_t> next_range_{0};
  std::atomic<uint64_t> claimed_{0};
  // Bumped once per run() and at shutdown; idle workers poll and wait on it.
  alignas(64) std::atomic<uint32_t> generation_{0};
  std::atomic<uint32_t> sleepers_{0};  // workers blocked in generation_.wait
  std::atomic<bool> stop_{false};
};

}  // namespace atl
