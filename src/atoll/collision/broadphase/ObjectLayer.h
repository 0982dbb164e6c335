#pragma once
// Layers decide which bodies may collide. Every body has an object layer; object layers map to
// a smaller number of broadphase layers, each with its own tree, so that e.g. static geometry
// is never tested against itself.

#include <cstdint>

namespace atl {

/// A body's collision layer (user-defined meaning). Stable: serialized.
using ObjectLayer = uint16_t;
/// A broadphase tree index (user-defined meaning).
using BroadPhaseLayer = uint8_t;

/// The layers the default setup uses: static geometry never collides with itself.
namespace layers {
/// Static and (usually) kinematic geometry.
inline constexpr ObjectLayer k_non_moving = 0;
/// Dynamic bodies.
inline constexpr ObjectLayer k_moving = 1;
}  // namespace layers

}  // namespace atl
