#pragma once
// One number for the whole simulation state: equal hashes mean bit-identical bodies.

#include <cstdint>

#include "atoll/body/BodyManager.h"

namespace atl {

/// FNV-1a 64 over every body's position, rotation, linear and angular velocity, as float
/// bits, in body-index order (the `state_hash` of `atoll run --summary`).
uint64_t state_hash(const BodyManager& bodies);

}  // namespace atl
