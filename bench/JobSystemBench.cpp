// Job-system micro-benchmarks (issue 9 item 1: the default job system, our ThreadPool or oneTBB,
// decided by measurement). The same two tasks on every job system:
// - empty: run() of a task that does nothing, over `count` items in ranges of 1 — the fixed cost
//   a stage pays per run() (a step calls run() a few dozen times);
// - work: 10 000 items of about 50 ns each (a dependent chain of 53 xor-shift-multiply rounds) in
// ranges of
//   64 items — a stage of moderate size.
// Arguments: workers (the caller included), count (empty task only). When CMake finds oneTBB
// (Debian's libtbb-dev), tbb::parallel_for inside a tbb::task_arena of as many threads runs the
// same tasks with the same grain (simple_partitioner, so that its ranges are ours).
//
// Measured 2026-12-01 on this 2-core AMD EPYC VM while other builds kept it loaded (load average
// 6–7, so a thread got about half a core: real time ≈ 2× CPU time, no run could show a 2-worker
// speed-up, and medians of 5–7 repetitions varied ±50 % between runs). CPU time of the caller per
// run(), ThreadPool / oneTBB:
//   empty, 1 worker, 2 ranges:   0.004–0.008 µs / 0.13–0.18 µs
//   empty, 2 workers, 2 ranges:  0.44–1.3 µs    / 0.13–0.19 µs
//   empty, 1 worker, 64 ranges:  0.12–0.17 µs   / 2.3–3.7 µs
//   empty, 2 workers, 64 ranges: 0.97–1.9 µs    / 2.3–3.7 µs
//   10k items of ~45 ns (plain loop 438–717 µs): 1 worker 484–755 µs / 527–726 µs
// So ThreadPool is the default: 10–20× cheaper with one worker (it runs inline), cheaper per
// range when ranges are many, no extra dependency, no allocation in run() (tested), fixed worker
// indices; oneTBB is cheaper only for a run of 2–3 tiny ranges, where its caller keeps both.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "atoll/core/JobSystem.h"
#include "atoll/core/ThreadPool.h"

#if defined(ATOLL_BENCH_HAVE_TBB)
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>
#endif

namespace atl {
namespace {

constexpr uint32_t k_work_items = 10000;
constexpr uint32_t k_work_grain = 64;

// About 50 ns of work on item `i`: a dependent chain of 53 xor-shift-multiply rounds (measured
// 0.8 ns a round here, neighbouring items overlapping out of order), which the compiler can
// neither fold nor vectorise across items (the empty asm hides x from it); the CPU time of
// JobSystem/plain_loop/work_10k divided by 10 000 is the cost of one item.
inline uint32_t item_work(uint32_t i) {
  uint32_t x = i + 1;
  for (int k = 0; k < 53; ++k) {
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    __asm__ volatile("" : "+r"(x));
  }
  return x;
}

void empty_task(uint32_t, uint32_t, uint32_t, void*) {}

void work_task(uint32_t begin, uint32_t end, uint32_t, void* context) {
  uint32_t* out = static_cast<uint32_t*>(context);
  for (uint32_t i = begin; i < end; ++i) out[i] = item_work(i);
}

void thread_pool_empty(benchmark::State& state) {
  auto pool = ThreadPool::create(static_cast<uint32_t>(state.range(0))).value();
  const auto count = static_cast<uint32_t>(state.range(1));
  for (auto _ : state) pool->run(&empty_task, count, 1, nullptr);
}
BENCHMARK(thread_pool_empty)
    ->Name("JobSystem/ThreadPool/empty")
    ->ArgNames({"workers", "count"})
    ->ArgsProduct({{1, 2}, {2, 64}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

void thread_pool_work(benchmark::State& state) {
  auto pool = ThreadPool::create(static_cast<uint32_t>(state.range(0))).value();
  std::vector<uint32_t> out(k_work_items);
  for (auto _ : state) {
    pool->run(&work_task, k_work_items, k_work_grain, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * k_work_items);
}
BENCHMARK(thread_pool_work)
    ->Name("JobSystem/ThreadPool/work_10k")
    ->ArgName("workers")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

// The one-thread reference: the same items in a plain loop, no job system.
void plain_loop_work(benchmark::State& state) {
  std::vector<uint32_t> out(k_work_items);
  for (auto _ : state) {
    work_task(0, k_work_items, 0, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * k_work_items);
}
BENCHMARK(plain_loop_work)->Name("JobSystem/plain_loop/work_10k")->Unit(benchmark::kMicrosecond);

#if defined(ATOLL_BENCH_HAVE_TBB)
template <class Body>
void tbb_for(tbb::task_arena& arena, uint32_t count, uint32_t grain, const Body& body) {
  arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<uint32_t>(0, count, grain),
        [&](const tbb::blocked_range<uint32_t>& r) { body(r.begin(), r.end()); },
        tbb::simple_partitioner());
  });
}

void tbb_empty(benchmark::State& state) {
  tbb::task_arena arena(static_cast<int>(state.range(0)));
  arena.initialize();
  const auto count = static_cast<uint32_t>(state.range(1));
  for (auto _ : state) {
    tbb_for(arena, count, 1,
            [](uint32_t begin, uint32_t end) { empty_task(begin, end, 0, nullptr); });
  }
}
BENCHMARK(tbb_empty)
    ->Name("JobSystem/oneTBB/empty")
    ->ArgNames({"workers", "count"})
    ->ArgsProduct({{1, 2}, {2, 64}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

void tbb_work(benchmark::State& state) {
  tbb::task_arena arena(static_cast<int>(state.range(0)));
  arena.initialize();
  std::vector<uint32_t> out(k_work_items);
  for (auto _ : state) {
    tbb_for(arena, k_work_items, k_work_grain,
            [&](uint32_t begin, uint32_t end) { work_task(begin, end, 0, out.data()); });
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * k_work_items);
}
BENCHMARK(tbb_work)
    ->Name("JobSystem/oneTBB/work_10k")
    ->ArgName("workers")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
#endif

}  // namespace
}  // namespace atl
