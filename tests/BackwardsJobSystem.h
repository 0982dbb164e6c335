#pragma once
// A job system for tests of the multi-threaded step.

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "atoll/core/JobSystem.h"
#include "atoll/core/ThreadPool.h"

namespace atl {

/// Runs a stage's ranges last to first, each on the next worker index in turn: a schedule no
/// real pool is likely to produce, on one thread, so that a result that depends on range order
/// or on which worker ran a range shows, and a range that waits for another running beside it
/// never finishes.
class BackwardsJobSystem final : public JobSystem {
 public:
  explicit BackwardsJobSystem(uint32_t workers) : workers_(workers) {}
  uint32_t num_workers() const override { return workers_; }
  void run(TaskFunction task, uint32_t count, uint32_t min_range, void* context) override {
    const uint32_t step = min_range == 0 ? 1 : min_range;
    const uint32_t ranges = (count + step - 1) / step;
    for (uint32_t r = ranges; r-- > 0;) {
      const uint32_t begin = r * step;
      const uint32_t end = count - begin < step ? count : begin + step;
      task(begin, end, next_worker_, context);
      next_worker_ = (next_worker_ + 1) % workers_;
    }
  }

 private:
  uint32_t workers_;
  uint32_t next_worker_ = 0;
};

/// The job systems a threaded test compares with the inline run, each with its label: the
/// backwards one of 2 and 3 workers and a ThreadPool of 2 and 3 (a pool that cannot start is
/// left out, and the list comes out shorter).
inline std::vector<std::pair<std::string, std::unique_ptr<JobSystem>>> backwards_and_pools() {
  std::vector<std::pair<std::string, std::unique_ptr<JobSystem>>> systems;
  for (const uint32_t workers : {2u, 3u})
    systems.emplace_back("backwards, " + std::to_string(workers) + " workers",
                         std::make_unique<BackwardsJobSystem>(workers));
  for (const uint32_t workers : {2u, 3u})
    if (Result<std::unique_ptr<ThreadPool>> pool = ThreadPool::create(workers); pool.ok())
      systems.emplace_back("thread pool, " + std::to_string(workers) + " workers",
                           std::move(*pool));
  return systems;
}

}  // namespace atl
