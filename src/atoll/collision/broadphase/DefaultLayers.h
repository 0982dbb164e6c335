#pragma once
// The ready-made layer setup for the common case: static geometry on layers::k_non_moving in
// one tree, everything that moves on layers::k_moving in another. Non-moving bodies never
// collide with each other, so the static tree is never queried for static bodies.

#include "atoll/collision/broadphase/BroadPhaseLayerInterface.h"
#include "atoll/collision/broadphase/ObjectLayerPairFilter.h"

namespace atl {

/// The broadphase layers DefaultLayers uses.
namespace broadphase_layers {
/// Tree of layers::k_non_moving bodies.
inline constexpr BroadPhaseLayer k_non_moving = 0;
/// Tree of layers::k_moving bodies.
inline constexpr BroadPhaseLayer k_moving = 1;
/// Number of broadphase layers.
inline constexpr uint32_t k_count = 2;
}  // namespace broadphase_layers

/// All three layer interfaces for layers::k_non_moving and layers::k_moving; other object layers
/// are unknown (they collide with nothing and map to k_invalid_broadphase_layer).
class DefaultLayers final : public ObjectLayerPairFilter,
                            public BroadPhaseLayerInterface,
                            public ObjectVsBroadPhaseLayerFilter {
 public:
  /// Moving collides with both layers; non-moving only with moving.
  bool should_collide(ObjectLayer a, ObjectLayer b) const override;
  /// 2.
  uint32_t num_broadphase_layers() const override { return broadphase_layers::k_count; }
  /// k_non_moving → broadphase_layers::k_non_moving, k_moving → broadphase_layers::k_moving.
  BroadPhaseLayer broadphase_layer(ObjectLayer layer) const override;
  /// Moving bodies search both trees; non-moving bodies only the moving tree.
  bool should_collide(ObjectLayer layer, BroadPhaseLayer bp_layer) const override;
};

}  // namespace atl
