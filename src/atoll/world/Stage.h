#pragma once
// The map of a step (DESIGN.md §2). The names are those of PhysicsSystem's stage functions,
// of the per-stage timings in UpdateResult and of the headings of docs/architecture.md.

#include <array>
#include <cstdint>

namespace atl {

enum class Stage : uint8_t {
  apply_forces,         ///< 1. gravity, forces, damping → velocities
  find_pairs,           ///< 2. broadphase pairs of active bodies
  narrow_phase,         ///< 3. manifolds, body-pair cache, contact callbacks
  build_islands,        ///< 4. connected components of touching movable bodies
  setup_velocity,       ///< 6. effective masses and velocity targets
  warm_start,           ///< 7. last step's impulses
  solve_velocity,       ///< 8. sequential impulses (with early exit)
  integrate_positions,  ///< 9. velocities → positions; fast LinearCast bodies queued for CCD
  ccd,                  ///< 10. LinearCast sweeps, earliest hit, time stealing
  solve_position,       ///< 11. Baumgarte position correction
  update_sleep,         ///< 12. whole-island sleeping
  update_bounds,        ///< 13. broadphase bounds of moved bodies
};
inline constexpr int k_num_stages = 12;

/// The stage's name ("apply_forces", …).
constexpr const char* stage_name(Stage stage) {
  constexpr std::array<const char*, k_num_stages> k_names{
      "apply_forces", "find_pairs",     "narrow_phase",        "build_islands", "setup_velocity",
      "warm_start",   "solve_velocity", "integrate_positions", "ccd",           "solve_position",
      "update_sleep", "update_bounds"};
  return k_names[static_cast<int>(stage)];
}

}  // namespace atl
