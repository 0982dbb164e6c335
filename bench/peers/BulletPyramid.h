#pragma once
// The Bullet side of the side-by-side benchmark: Jolt's PerformanceTest "Pyramid" scene built
// in Bullet (Debian's libbullet-dev), so that Atoll, Jolt and Bullet run the same scene on the
// same machine.

#include <array>
#include <vector>

namespace atl::peers {

/// What one peer run measured.
struct PeerResult {
  /// Simulation steps per wall-clock second over the timed steps (stepping only, no setup).
  double steps_per_second;
  /// Number of steps that were timed.
  int steps;
  /// Centre of mass of every dynamic box after the last step (m), in creation order.
  std::vector<std::array<float, 3>> final_positions;
};

/// Runs Jolt's PerformanceTest "Pyramid" (1240 boxes) in Bullet for `steps` steps of 1/60 s.
PeerResult run_bullet_pyramid(int steps);

}  // namespace atl::peers
