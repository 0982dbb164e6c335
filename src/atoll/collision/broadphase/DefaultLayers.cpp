#include "atoll/collision/broadphase/DefaultLayers.h"

namespace atl {

bool DefaultLayers::should_collide(ObjectLayer a, ObjectLayer b) const {
  switch (a) {
    case layers::k_non_moving:
      return b == layers::k_moving;
    case layers::k_moving:
      return b == layers::k_non_moving || b == layers::k_moving;
    default:
      return false;
  }
}

BroadPhaseLayer DefaultLayers::broadphase_layer(ObjectLayer layer) const {
  switch (layer) {
    case layers::k_non_moving:
      return broadphase_layers::k_non_moving;
    case layers::k_moving:
      return broadphase_layers::k_moving;
    default:
      return k_invalid_broadphase_layer;
  }
}

bool DefaultLayers::should_collide(ObjectLayer layer, BroadPhaseLayer bp_layer) const {
  switch (layer) {
    case layers::k_non_moving:
      return bp_layer == broadphase_layers::k_moving;
    case layers::k_moving:
      return bp_layer == broadphase_layers::k_non_moving || bp_layer == broadphase_layers::k_moving;
    default:
      return false;
  }
}

}  // namespace atl
