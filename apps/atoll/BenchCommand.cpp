#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

#include "Commands.h"
#include "atoll/run/SceneWorld.h"
#include "atoll/scene/SceneReader.h"
#include "atoll/state/StateHash.h"

namespace atl::cli {
namespace {

// How long two threads take to hand a cache line to each other and back (ns): the median of
// five batches of 5 000 round trips, about 10 ms on a machine whose cores share a cache. On the
// virtual machines this project is measured on, it moves between ~150 and ~500 ns from one
// quarter of an hour to the next, and the 2-thread speed with it (the pyramid 1.8× or 1.4× its
// 1-thread speed, README issue 9), while the 1-thread speed stays: a 2-thread reading means
// little without it. The threads yield after a while of spinning, so that a process held to one
// core still finishes (slowly: the reading then says so).
double cross_core_round_trip_ns() {
  constexpr int k_round_trips = 5000;
  constexpr int k_batches = 5;
  struct alignas(64) Token {
    std::atomic<uint32_t> value{0};
  };
  Token token;
  const auto wait_for = [&token](uint32_t expected) {
    for (int spins = 0; token.value.load(std::memory_order_acquire) != expected; ++spins)
      if (spins > 4096) std::this_thread::yield();
  };
  constexpr uint32_t k_total = 2u * k_round_trips * k_batches;
  std::thread partner([&] {
    for (uint32_t v = 1; v < k_total; v += 2) {
      wait_for(v);
      token.value.store(v + 1, std::memory_order_release);
    }
  });
  std::array<double, k_batches> batches{};
  uint32_t v = 0;
  for (double& batch : batches) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < k_round_trips; ++i, v += 2) {
      token.value.store(v + 1, std::memory_order_release);
      wait_for(v + 2);
    }
    batch =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
        k_round_trips;
  }
  partner.join();
  std::nth_element(batches.begin(), batches.begin() + k_batches / 2, batches.end());
  return batches[k_batches / 2];
}

}  // namespace

// Like Jolt's PerformanceTest: build the scene, run it, report steps per second and the final
// state hash, so that the two engines can be run side by side on the same machine.
int bench_command(const BenchArgs& args) {
  std::string source;
  Result<SceneDescription> scene = load_scene(args.scene, source);
  if (!scene) {
    std::fprintf(stderr, "atoll: %s\n", scene.error().message());
    return k_exit_bad_input;
  }
  for (const std::string& assignment : args.sets)
    if (Status ok = apply_override(*scene, assignment); !ok) {
      std::fprintf(stderr, "atoll: %s\n", ok.error().message());
      return k_exit_bad_input;
    }
  if (args.steps < -1 || args.steps == 0) {
    std::fprintf(stderr, "atoll: --steps: must be >= 1, got %d\n", args.steps);
    return k_exit_bad_input;
  }
  if (args.repeat < 1) {
    std::fprintf(stderr, "atoll: --repeat: must be >= 1, got %d\n", args.repeat);
    return k_exit_bad_input;
  }
  if (args.interleave < 0) {
    std::fprintf(stderr, "atoll: --interleave: must be >= 0, got %d\n", args.interleave);
    return k_exit_bad_input;
  }
  // Every count is checked before the first run, so that a bad one prints nothing else.
  std::vector<std::unique_ptr<ThreadPool>> pools;
  for (int threads : args.threads) {
    Result<std::unique_ptr<ThreadPool>> pool = make_thread_pool(threads);
    if (!pool) {
      std::fprintf(stderr, "atoll: %s\n", pool.error().message());
      return k_exit_bad_input;
    }
    pools.push_back(std::move(*pool));
  }
  const int steps = args.steps > 0 ? args.steps : scene->steps;
  // Read before and after the runs: the machine may change state during them.
  const bool threaded = std::any_of(args.threads.begin(), args.threads.end(),
                                    [](int threads) { return threads > 1; });
  const double round_trip_before = threaded ? cross_core_round_trip_ns() : 0.0;
  // speeds[count][round]: steps/s of thread count `count` (its place in --threads) in `round`.
  const size_t num_counts = pools.size();
  const size_t num_rounds = static_cast<size_t>(args.repeat);
  std::vector<std::vector<double>> speeds(num_counts);
  // stage_ms[count][round]: each stage's time over the run of `count` in `round`.
  using StageTimes = std::array<double, k_num_stages>;
  std::vector<std::vector<StageTimes>> stage_ms(num_counts);
  // A round runs each count's world in turns of `turn` steps, count after count: with turns of
  // the whole run, each world is made just before its run and freed after it (one world at a
  // time, as a user's run); with --interleave, every count's world lives through the round, and
  // a machine that slows down for a few seconds slows every count's turns alike.
  const int turn = args.interleave > 0 ? std::min(args.interleave, steps) : steps;
  for (size_t round = 0; round < num_rounds; ++round) {
    std::vector<std::unique_ptr<SceneWorld>> worlds(num_counts);
    std::vector<double> seconds(num_counts, 0.0);
    for (size_t count = 0; count < num_counts; ++count) stage_ms[count].emplace_back().fill(0.0);
    for (int done = 0; done < steps; done += turn) {
      const int run_steps = std::min(turn, steps - done);
      for (size_t count = 0; count < num_counts; ++count) {
        if (!worlds[count]) {
          // The last world made takes the scene itself (moved in, not copied).
          const bool last = round + 1 == num_rounds && count + 1 == num_counts;
          Result<std::unique_ptr<SceneWorld>> world =
              last ? SceneWorld::create(std::move(*scene), source, k_world_options)
                   : SceneWorld::create(*scene, source, k_world_options);
          if (!world) {
            std::fprintf(stderr, "atoll: %s\n", world.error().message());
            return k_exit_bad_input;
          }
          worlds[count] = std::move(*world);
        }
        PhysicsSystem& system = worlds[count]->system();
        const SceneDescription& desc = worlds[count]->scene();
        StageTimes& stages = stage_ms[count].back();
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < run_steps; ++i) {
          Result<UpdateResult> result =
              system.update(desc.dt, desc.collision_steps, pools[count].get());
          if (!result) {
            std::fprintf(stderr, "atoll: %s\n", result.error().message());
            return k_exit_bad_input;
          }
          for (int stage = 0; stage < k_num_stages; ++stage)
            stages[stage] += result->stage_ms[stage];
        }
        seconds[count] +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (done + run_steps < steps) continue;
        speeds[count].push_back(steps / seconds[count]);
        // Soft bodies are counted apart (a cloth of 1024 vertices is not one body's work).
        const size_t soft = worlds[count]->soft_body_ids().size();
        const std::string soft_text =
            soft == 0 ? std::string()
                      : ", " + std::to_string(soft) + (soft == 1 ? " soft body" : " soft bodies");
        std::printf(
            "%s: %zu bodies%s, %d steps, threads %d: %.2f steps/s (%.3f ms/step), state hash %s\n",
            source.c_str(), worlds[count]->body_ids().size(), soft_text.c_str(), steps,
            args.threads[count], steps / seconds[count], 1000.0 * seconds[count] / steps,
            hash_to_hex(system.state_hash()).c_str());
        worlds[count].reset();
      }
    }
  }
  const auto median = [](std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
  };
  // With rounds, each count's median, and its speed over the first count's: the median of the
  // rounds' ratios, each from runs back to back, so that a machine whose speed drifts between
  // the rounds (a virtual one does, by 1.5x within minutes) still gives a fair ratio.
  if (num_rounds > 1) {
    for (size_t count = 0; count < num_counts; ++count) {
      const std::vector<double>& own = speeds[count];
      std::printf("threads %d, median of %zu runs: %.2f steps/s (%.2f to %.2f)",
                  args.threads[count], num_rounds, median(own),
                  *std::min_element(own.begin(), own.end()),
                  *std::max_element(own.begin(), own.end()));
      if (count > 0) {
        std::vector<double> ratios(num_rounds);
        for (size_t round = 0; round < num_rounds; ++round)
          ratios[round] = own[round] / speeds[0][round];
        std::printf(", %.3fx threads %d (median of the rounds' ratios; %.3f to %.3f)",
                    median(ratios), args.threads[0],
                    *std::min_element(ratios.begin(), ratios.end()),
                    *std::max_element(ratios.begin(), ratios.end()));
      }
      std::printf("\n");
    }
  }
  // Per stage, as for the whole step: the median of the rounds' times, and of the rounds'
  // ratios (a stage's speed-up), so that where the threads lose shows stage by stage. The sum of
  // the stages leaves out only the little that update() does between and around them.
  if (args.stages) {
    std::printf(
        "stages (µs per step, the median of %zu run%s; after each count but the first, "
        "its speed-up over threads %d, the median of the rounds' ratios):\n",
        num_rounds, num_rounds == 1 ? "" : "s", args.threads[0]);
    std::printf("  %-22s", "stage");
    for (size_t count = 0; count < num_counts; ++count)
      std::printf(count == 0 ? " %12s" : " %21s",
                  ("threads " + std::to_string(args.threads[count])).c_str());
    std::printf("\n");
    const auto print_row = [&](const char* name, auto&& time_of) {
      std::printf("  %-22s", name);
      for (size_t count = 0; count < num_counts; ++count) {
        std::vector<double> times(num_rounds);
        std::vector<double> ratios(num_rounds);
        bool defined = true;
        for (size_t round = 0; round < num_rounds; ++round) {
          times[round] = 1000.0 * time_of(stage_ms[count][round]) / steps;
          const double first = time_of(stage_ms[0][round]);
          defined = defined && times[round] > 0.0;
          ratios[round] = defined ? 1000.0 * first / steps / times[round] : 0.0;
        }
        std::printf(" %12.2f", median(times));
        if (count == 0) continue;
        if (defined)
          std::printf(" (%6.3fx)", median(ratios));
        else
          std::printf(" %9s", "(-)");
      }
      std::printf("\n");
    };
    for (int stage = 0; stage < k_num_stages; ++stage)
      print_row(stage_name(static_cast<Stage>(stage)),
                [stage](const StageTimes& times) { return times[stage]; });
    print_row("all stages", [](const StageTimes& times) {
      double sum = 0.0;
      for (double t : times) sum += t;
      return sum;
    });
  }
  if (threaded)
    std::printf(
        "cross-core round trip: %.0f ns before the runs, %.0f ns after (two threads handing a "
        "cache line to each other and back; the 2-thread speed varies with it)\n",
        round_trip_before, cross_core_round_trip_ns());
  return k_exit_ok;
}

}  // namespace atl::cli
