#include "atoll/collision/broadphase/BroadPhaseLayerTable.h"

#include <string>

namespace atl {

Status BroadPhaseLayerTable::set(ObjectLayer layer, BroadPhaseLayer bp_layer) {
  if (layer >= map_.size()) {
    return Error("BroadPhaseLayerTable.set: object layer " + std::to_string(layer) +
                 " must be < num_object_layers " + std::to_string(map_.size()));
  }
  if (bp_layer >= num_broadphase_layers_) {
    return Error("BroadPhaseLayerTable.set: broadphase layer " + std::to_string(bp_layer) +
                 " must be < num_broadphase_layers " + std::to_string(num_broadphase_layers_));
  }
  map_[layer] = bp_layer;
  return Ok{};
}

ObjectVsBroadPhaseLayerTable::ObjectVsBroadPhaseLayerTable(const BroadPhaseLayerInterface& mapping,
                                                           ObjectLayer num_object_layers,
                                                           const ObjectLayerPairFilter& pair_filter)
    : num_object_layers_(num_object_layers),
      num_broadphase_layers_(mapping.num_broadphase_layers()),
      table_(static_cast<size_t>(num_object_layers) * num_broadphase_layers_, 0) {
  for (ObjectLayer other = 0; other < num_object_layers; ++other) {
    const BroadPhaseLayer bp_layer = mapping.broadphase_layer(other);
    if (bp_layer >= num_broadphase_layers_) continue;  // unmapped layers are in no tree
    for (ObjectLayer layer = 0; layer < num_object_layers; ++layer) {
      if (pair_filter.should_collide(layer, other)) {
        table_[static_cast<size_t>(layer) * num_broadphase_layers_ + bp_layer] = 1;
      }
    }
  }
}

}  // namespace atl
