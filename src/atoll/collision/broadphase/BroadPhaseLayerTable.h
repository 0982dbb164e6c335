#pragma once
// Table-based implementations of the broadphase layer interfaces, for users with their own
// object layers: fill a BroadPhaseLayerTable with the object → broadphase mapping, then derive
// the ObjectVsBroadPhaseLayerTable from it and an ObjectLayerPairFilter.

#include <cstdint>
#include <vector>

#include "atoll/collision/broadphase/BroadPhaseLayerInterface.h"
#include "atoll/collision/broadphase/ObjectLayerPairFilter.h"
#include "atoll/core/Result.h"

namespace atl {

/// Object layer → broadphase layer table; unmapped layers map to k_invalid_broadphase_layer.
class BroadPhaseLayerTable final : public BroadPhaseLayerInterface {
 public:
  /// A table over object layers 0 .. num_object_layers - 1 and `num_broadphase_layers` trees.
  BroadPhaseLayerTable(ObjectLayer num_object_layers, BroadPhaseLayer num_broadphase_layers)
      : map_(num_object_layers, k_invalid_broadphase_layer),
        num_broadphase_layers_(num_broadphase_layers) {}

  /// Puts bodies on `layer` into the tree of `bp_layer`. Error when either is out of range.
  Status set(ObjectLayer layer, BroadPhaseLayer bp_layer);
  /// Number of object layers the table covers.
  ObjectLayer num_object_layers() const { return static_cast<ObjectLayer>(map_.size()); }
  uint32_t num_broadphase_layers() const override { return num_broadphase_layers_; }
  BroadPhaseLayer broadphase_layer(ObjectLayer layer) const override {
    return layer < map_.size() ? map_[layer] : k_invalid_broadphase_layer;
  }

 private:
  std::vector<BroadPhaseLayer> map_;
  BroadPhaseLayer num_broadphase_layers_;
};

/// Object layer vs broadphase layer table derived from a layer mapping and a pair filter: a
/// layer may touch a tree when it may collide with any object layer mapped into that tree.
class ObjectVsBroadPhaseLayerTable final : public ObjectVsBroadPhaseLayerFilter {
 public:
  /// Evaluates `pair_filter` for every pair of object layers 0 .. num_object_layers - 1 once.
  ObjectVsBroadPhaseLayerTable(const BroadPhaseLayerInterface& mapping,
                               ObjectLayer num_object_layers,
                               const ObjectLayerPairFilter& pair_filter);

  /// False for layers out of range.
  bool should_collide(ObjectLayer layer, BroadPhaseLayer bp_layer) const override {
    if (layer >= num_object_layers_ || bp_layer >= num_broadphase_layers_) return false;
    return table_[static_cast<size_t>(layer) * num_broadphase_layers_ + bp_layer] != 0;
  }

 private:
  ObjectLayer num_object_layers_;
  uint32_t num_broadphase_layers_;
  std::vector<uint8_t> table_;
};

}  // namespace atl
