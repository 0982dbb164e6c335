#pragma once
// Seeds: a reproducible perturbation of a scene's initial state, so that a sweep can run the
// same scene many times from slightly different starts (`atoll run --seed N`, `atoll sweep
// --seeds N`, atoll.sweep in Python). One definition, here, so that the command line and Python
// give the same bits for the same seed (docs/sweeps.md).

#include <cstdint>

#include "atoll/scene/SceneDescription.h"

namespace atl {

/// Largest offset (m) a seed adds to each position component of a dynamic body.
inline constexpr float k_seed_position_jitter = 1.0e-3f;
/// Largest change (m/s) a seed adds to each linear velocity component of a dynamic body.
inline constexpr float k_seed_velocity_jitter = 1.0e-2f;

/// Perturbs the initial state of `scene` for `seed`: seed 0 leaves the scene unchanged; any
/// other seed seeds a std::mt19937 (atl::Random) with the seed and, for every body whose motion
/// is dynamic, in creation order (file bodies, then generated ones), adds to its position three
/// draws of uniform(−k_seed_position_jitter, +k_seed_position_jitter) (x, y, z), then to its
/// linear velocity three draws of uniform(−k_seed_velocity_jitter, +k_seed_velocity_jitter).
/// Static and kinematic bodies, rotations and angular velocities are left alone and take no
/// draws. Apply it after the --set overrides (a body made dynamic by --set is perturbed).
void perturb_scene(SceneDescription& scene, uint32_t seed);

}  // namespace atl
