#pragma once
// The map of a step (DESIGN.md §2). The names are those of the stage functions that
// PhysicsSystem::step calls in this order, of the per-stage timings in UpdateResult and of the
// headings of docs/architecture.md.

#include <array>
#include <cstdint>

namespace atl {

enum class Stage : uint8_t {
  apply_forces,          ///< 1. gravity, forces, damping → velocities
  find_pairs,            ///< 2. broadphase pairs of active bodies
  gather_solver_bodies,  ///< 3a. the active bodies' solver entries
  narrow_phase,          ///< 3. manifolds, body-pair cache, contact callbacks, waking
  build_islands,         ///< 4. connected components of touching movable bodies
  setup_velocity,        ///< 6. effective masses and velocity targets
  solve_velocity,        ///< 7–8. per island: warm start, sequential impulses (early exit)
  integrate_positions,   ///< 9. velocities → positions; fast LinearCast bodies queued for CCD
  ccd,                   ///< 10. LinearCast sweeps, earliest hit, time stealing
  solve_position,        ///< 11. per island: Baumgarte position correction
  write_back,            ///< 11a. solver entries → bodies; non-finite bodies quarantined
  finish_contacts,       ///< 11b. contacts gone since last step → removed events
  update_sleep,          ///< 12. whole-island sleeping
  update_bounds,         ///< 13. broadphase bounds of moved bodies
  update_soft_bodies,    ///< 13a. soft bodies' XPBD sub-steps against the rigid bodies
};
inline constexpr int k_num_stages = 15;

/// The stage's name ("apply_forces", …).
constexpr const char* stage_name(Stage stage) {
  constexpr std::array<const char*, k_num_stages> k_names{
      "apply_forces",  "find_pairs",     "gather_solver_bodies", "narrow_phase",
      "build_islands", "setup_velocity", "solve_velocity",       "integrate_positions",
      "ccd",           "solve_position", "write_back",           "finish_contacts",
      "update_sleep",  "update_bounds",  "update_soft_bodies"};
  return k_names[static_cast<int>(stage)];
}

}  // namespace atl
