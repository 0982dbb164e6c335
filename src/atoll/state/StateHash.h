#pragma once
// One number for the whole simulation state: equal hashes mean bit-identical bodies.

#include <cstdint>

#include "atoll/body/BodyManager.h"
#include "atoll/softbody/SoftBodyManager.h"

namespace atl {

/// FNV-1a 64 over every body's position, rotation, linear and angular velocity, as float
/// bits, in body-index order (the `state_hash` of `atoll run --summary`).
uint64_t state_hash(const BodyManager& bodies);

/// state_hash of the bodies, continued over every soft body's vertex positions and velocities
/// in body-index order (PhysicsSystem::state_hash). Equal to state_hash(bodies) in a world
/// without soft bodies.
uint64_t state_hash(const BodyManager& bodies, const SoftBodyManager& soft_bodies);

}  // namespace atl
