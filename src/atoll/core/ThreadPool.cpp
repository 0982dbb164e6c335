#include "atoll/core/ThreadPool.h"

#include <bit>
#include <chrono>
#include <string>
#include <system_error>
#include <utility>

#include "atoll/core/CpuRelax.h"

namespace atl {
namespace {

// Polls `done()` with cpu_relax for up to `microseconds`; true when done() became true.
template <class Done>
bool spin_until(Done&& done, int64_t microseconds) {
  if (done()) return true;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(microseconds);
  for (;;) {
    // Read the clock every 32 polls only (a clock read costs about as much as 32 pauses).
    for (int i = 0; i < 32; ++i) {
      cpu_relax();
      if (done()) return true;
    }
    if (std::chrono::steady_clock::now() >= deadline) return false;
  }
}

}  // namespace

Result<std::unique_ptr<ThreadPool>> ThreadPool::create(uint32_t num_workers) {
  if (num_workers < 1 || num_workers > k_max_workers) {
    return Error("ThreadPool::create: num_workers: must be in [1, " +
                 std::to_string(k_max_workers) + "], got " + std::to_string(num_workers));
  }
  std::unique_ptr<ThreadPool> pool(new ThreadPool(num_workers));
  pool->threads_.reserve(num_workers - 1);
  for (uint32_t worker = 1; worker < num_workers; ++worker) {
    try {
      pool->threads_.emplace_back([p = pool.get(), worker] { p->worker_main(worker); });
    } catch (const std::system_error& e) {
      // The destructor stops and joins the threads already started.
      return Error("ThreadPool::create: num_workers: could not start thread " +
                   std::to_string(worker) + " of " + std::to_string(num_workers - 1) + ": " +
                   e.what());
    }
  }
  return pool;
}

ThreadPool::~ThreadPool() {
  stop_.store(true, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_seq_cst);  // publishes stop_
  generation_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void ThreadPool::run_range(const Job& job, uint32_t range, uint32_t worker) {
  // Once a range has thrown, the run's ranges not yet started are skipped, as run_inline's
  // would be.
  if (failed_.load(std::memory_order_relaxed)) return;
  const uint32_t begin = range * job.step;
  const uint32_t end = job.count - begin < job.step ? job.count : begin + job.step;
  try {
    job.task(begin, end, worker, job.context);
  } catch (...) {
    // On a background thread the exception would end the process: it is kept for run()'s
    // caller (the first one, if several ranges throw), who sees failure_ once every worker has
    // left the run (their leaving releases it).
    if (!failed_.exchange(true, std::memory_order_relaxed)) failure_ = std::current_exception();
  }
}

void ThreadPool::take_ranges(const Job& job, uint32_t worker) {
  if (!job.by_worker) {
    for (;;) {
      const uint32_t range = next_range_.fetch_add(1, std::memory_order_relaxed);
      if (range >= job.num_ranges) return;
      run_range(job, range, worker);
    }
  }
  // Its own range first: handed out in index order, the first worker to ask took range 0,
  // which was the background worker in a quarter of the pyramid's 2-range runs (the caller
  // then took range 1), and every stage in shares found the other core's share in its cache.
  if (worker < job.num_ranges) {
    const uint64_t own = uint64_t{1} << worker;
    if ((claimed_.fetch_or(own, std::memory_order_relaxed) & own) == 0)
      run_range(job, worker, worker);
  }
  // Then the ranges of workers that have not come (yet), lowest first.
  const uint64_t all =
      job.num_ranges == 64 ? ~uint64_t{0} : (uint64_t{1} << job.num_ranges) - uint64_t{1};
  uint64_t claimed = claimed_.load(std::memory_order_relaxed);
  while ((claimed & all) != all) {
    const uint32_t range = static_cast<uint32_t>(std::countr_zero(~claimed));
    if (claimed_.compare_exchange_weak(claimed, claimed | (uint64_t{1} << range),
                                       std::memory_order_relaxed)) {
      run_range(job, range, worker);
      claimed = claimed_.load(std::memory_order_relaxed);
    }
  }
}

void ThreadPool::run_inline(TaskFunction task, uint32_t count, uint32_t step, void* context) {
  for (uint32_t begin = 0; begin < count; begin += step) {
    const uint32_t end = count - begin < step ? count : begin + step;
    task(begin, end, 0, context);
    if (end == count) break;  // begin + step could wrap around near 2^32
  }
}

void ThreadPool::run(TaskFunction task, uint32_t count, uint32_t min_range, void* context) {
  if (count == 0) return;
  const uint32_t step = min_range == 0 ? 1 : min_range;
  const uint32_t num_ranges = (count - 1) / step + 1;
  // Nothing to share: run inline without touching the workers.
  if (threads_.empty() || num_ranges == 1) return run_inline(task, count, step, context);
  // Another thread's run() has the workers: this one's ranges run here. (Waiting for the
  // workers instead would leave this thread idle; writing job_ beside the other run would
  // hand the workers a mix of both.)
  if (busy_.exchange(true, std::memory_order_acquire))
    return run_inline(task, count, step, context);
  struct LetGo {
    std::atomic<bool>& busy;
    ~LetGo() { busy.store(false, std::memory_order_release); }
  } let_go{busy_};

  // No worker is inside (the previous run() waited for them all to leave; a late worker that
  // joins now sees the run closed and leaves without reading job_), so job_ may be written.
  const bool by_worker = num_ranges <= num_workers_ && num_ranges <= k_max_ranges_by_worker;
  job_ = Job{task, context, count, step, num_ranges, by_worker};
  if (by_worker)
    claimed_.store(0, std::memory_order_relaxed);
  else
    next_range_.store(0, std::memory_order_relaxed);
  // Open the run: a worker that joins (state_.fetch_add, acquire) sees job_ and the claims.
  state_.fetch_or(k_open, std::memory_order_release);
  // Wake the workers. seq_cst on both sides: either this load sees a worker about to sleep, or
  // that worker's last look at generation_ (also seq_cst) sees the new value.
  generation_.fetch_add(1, std::memory_order_seq_cst);
  if (sleepers_.load(std::memory_order_seq_cst) != 0) generation_.notify_all();

  take_ranges(job_, 0);

  // Every range has been claimed. Close the run, then wait for the workers inside to finish
  // theirs: when the count of workers inside reaches 0, every range has finished, and the
  // acquire load below sees their writes (each left with a release).
  state_.fetch_and(~k_open, std::memory_order_acq_rel);
  const auto all_left = [this] {
    return (state_.load(std::memory_order_acquire) & k_inside_mask) == 0;
  };
  if (!spin_until(all_left, k_spin_microseconds)) {
    // A worker is running a long range: sleep until the last one leaves and wakes us.
    uint32_t state = state_.fetch_or(k_caller_waits, std::memory_order_acq_rel) | k_caller_waits;
    while ((state & k_inside_mask) != 0) {
      state_.wait(state, std::memory_order_acquire);
      state = state_.load(std::memory_order_acquire);
    }
    state_.fetch_and(~k_caller_waits, std::memory_order_relaxed);
  }
  if (failed_.load(std::memory_order_relaxed)) [[unlikely]] {
    // Reset before the workers are let go (let_go, on the way out), for the next run.
    std::exception_ptr failure = std::exchange(failure_, nullptr);
    failed_.store(false, std::memory_order_relaxed);
    std::rethrow_exception(failure);
  }
}

void ThreadPool::worker_main(uint32_t worker) {
  uint32_t seen = 0;  // the generation of the last run this worker looked at
  for (;;) {
    uint32_t generation = generation_.load(std::memory_order_acquire);
    const auto changed = [&] {
      generation = generation_.load(std::memory_order_acquire);
      return generation != seen;
    };
    if (!spin_until(changed, k_spin_microseconds)) {
      sleepers_.fetch_add(1, std::memory_order_seq_cst);
      while ((generation = generation_.load(std::memory_order_seq_cst)) == seen) {
        generation_.wait(seen, std::memory_order_seq_cst);
      }
      sleepers_.fetch_sub(1, std::memory_order_relaxed);
    }
    seen = generation;
    if (stop_.load(std::memory_order_relaxed)) return;

    // A run the caller has already closed (it took every range itself, as it does for small
    // runs) is skipped without touching state_, so that the caller need not wait for us.
    if ((state_.load(std::memory_order_relaxed) & k_open) == 0) continue;
    // Join the run. If it closed meanwhile, leave at once.
    const uint32_t joined = state_.fetch_add(1, std::memory_order_acquire);
    if ((joined & k_open) != 0) {
      const Job job = job_;
      take_ranges(job, worker);
    }
    const uint32_t left = state_.fetch_sub(1, std::memory_order_acq_rel);
    if ((left & k_caller_waits) != 0 && (left & k_inside_mask) == 1) state_.notify_one();
  }
}

}  // namespace atl
