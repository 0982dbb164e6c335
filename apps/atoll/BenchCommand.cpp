#include <chrono>
#include <cstdio>

#include "Commands.h"
#include "atoll/run/SceneWorld.h"
#include "atoll/scene/SceneReader.h"
#include "atoll/state/StateHash.h"

namespace atl::cli {

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
  for (size_t run = 0; run < pools.size(); ++run) {
    const int threads = args.threads[run];
    // The last run takes the scene itself (moved in, not copied).
    Result<std::unique_ptr<SceneWorld>> world =
        run + 1 == pools.size() ? SceneWorld::create(std::move(*scene), source, k_world_options)
                                : SceneWorld::create(*scene, source, k_world_options);
    if (!world) {
      std::fprintf(stderr, "atoll: %s\n", world.error().message());
      return k_exit_bad_input;
    }
    PhysicsSystem& system = (*world)->system();
    const SceneDescription& desc = (*world)->scene();
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < steps; ++i) {
      Result<UpdateResult> result = system.update(desc.dt, desc.collision_steps, pools[run].get());
      if (!result) {
        std::fprintf(stderr, "atoll: %s\n", result.error().message());
        return k_exit_bad_input;
      }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // Soft bodies are counted apart (a cloth of 1024 vertices is not one body's work).
    const size_t soft = (*world)->soft_body_ids().size();
    const std::string soft_text =
        soft == 0 ? std::string()
                  : ", " + std::to_string(soft) + (soft == 1 ? " soft body" : " soft bodies");
    std::printf(
        "%s: %zu bodies%s, %d steps, threads %d: %.2f steps/s (%.3f ms/step), state hash %s\n",
        source.c_str(), (*world)->body_ids().size(), soft_text.c_str(), steps, threads,
        steps / seconds, 1000.0 * seconds / steps, hash_to_hex(system.state_hash()).c_str());
  }
  return k_exit_ok;
}

}  // namespace atl::cli
