// atoll-bench-peers: Jolt's PerformanceTest "Pyramid" in Atoll and in Bullet, side by side on
// the same machine in the same run: steps per second, their ratio, and how far each engine's
// boxes drifted from their starting column (largest horizontal drift per layer).

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "BulletPyramid.h"
#include "atoll/run/SceneWorld.h"
#include "atoll/scene/BuiltinScenes.h"
#include "atoll/scene/SceneReader.h"

namespace {

constexpr int k_layers = 15;

// Layer of pyramid box i in creation order (layer i has (15 − i)² boxes).
int layer_of(int index) {
  for (int layer = 0; layer < k_layers; ++layer) {
    const int count = (k_layers - layer) * (k_layers - layer);
    if (index < count) return layer;
    index -= count;
  }
  return -1;
}

void print_drift(const char* engine, const std::vector<std::array<float, 3>>& start,
                 const std::vector<std::array<float, 3>>& end) {
  std::array<float, k_layers> drift{};
  int fallen = 0;
  for (size_t i = 0; i < start.size(); ++i) {
    const int layer = layer_of(static_cast<int>(i));
    drift[layer] =
        std::max(drift[layer], std::hypot(end[i][0] - start[i][0], end[i][2] - start[i][2]));
    if (end[i][1] < 0.0f) ++fallen;
  }
  std::printf("%-6s max horizontal drift per layer (m):", engine);
  for (float d : drift) std::printf(" %.3f", d);
  std::printf("; below the floor: %d\n", fallen);
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 500;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
      steps = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: atoll-bench-peers [--steps N]\n");
      return 2;
    }
  }
  if (steps < 1) {
    std::fprintf(stderr, "atoll-bench-peers: --steps: must be >= 1, got %d\n", steps);
    return 2;
  }

  // Atoll: the built-in pyramid scene, the same one `atoll bench --scene pyramid` runs.
  atl::Result<atl::SceneDescription> scene =
      atl::read_scene_text(*atl::builtin_scene_text("pyramid"), "pyramid");
  if (!scene) {
    std::fprintf(stderr, "atoll-bench-peers: %s\n", scene.error().message());
    return 1;
  }
  auto world = atl::SceneWorld::create(*scene, "pyramid");
  if (!world) {
    std::fprintf(stderr, "atoll-bench-peers: %s\n", world.error().message());
    return 1;
  }
  std::vector<std::array<float, 3>> start, end;
  const auto position = [&](atl::BodyID id) {
    const atl::Vec3 p = (*world)->system().bodies().get(id)->center_of_mass_position();
    return std::array<float, 3>{p.x(), p.y(), p.z()};
  };
  std::vector<atl::BodyID> boxes;
  for (size_t i = 0; i < (*world)->body_ids().size(); ++i)
    if ((*world)->body_names()[i] != "floor") boxes.push_back((*world)->body_ids()[i]);
  for (atl::BodyID id : boxes) start.push_back(position(id));
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < steps; ++i) (void)(*world)->system().update(scene->dt).value();
  const double atoll_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (atl::BodyID id : boxes) end.push_back(position(id));
  const double atoll_sps = steps / atoll_seconds;

  const atl::peers::PeerResult bullet = atl::peers::run_bullet_pyramid(steps);

  std::printf("pyramid (%zu boxes), %d steps of 1/60 s, 1 thread\n", boxes.size(), steps);
  std::printf("atoll  %8.2f steps/s\n", atoll_sps);
  std::printf("bullet %8.2f steps/s\n", bullet.steps_per_second);
  std::printf("ratio atoll/bullet %.2f\n", atoll_sps / bullet.steps_per_second);
  print_drift("atoll", start, end);
  print_drift("bullet", start, bullet.final_positions);
  return 0;
}
