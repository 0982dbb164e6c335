// Checks that the Bullet peer runs: a few steps of the pyramid, then steps/s and the position
// of the top box. Not a test (not in ctest): the numbers depend on the machine.

#include <cstdio>
#include <cstdlib>

#include "BulletPyramid.h"

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 10;
  const atl::peers::PeerResult result = atl::peers::run_bullet_pyramid(steps);
  if (result.final_positions.empty()) {
    std::fprintf(stderr, "bullet pyramid: no boxes\n");
    return 1;
  }
  // The last box created is the single box of the top layer.
  const auto& top = result.final_positions.back();
  std::printf("bullet pyramid: %zu boxes, %d steps, %.1f steps/s, top box at (%.4f, %.4f, %.4f)\n",
              result.final_positions.size(), result.steps, result.steps_per_second, top[0], top[1],
              top[2]);
  return 0;
}
