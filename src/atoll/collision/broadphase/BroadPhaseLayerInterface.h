#pragma once
// How object layers map to broadphase layers (one tree each), and which broadphase layers an
// object layer's bodies may touch, so that whole trees are skipped (e.g. the static tree is never
// queried for static bodies). Implementations must be cheap and thread-safe for reading.

#include <cstdint>

#include "atoll/collision/broadphase/ObjectLayer.h"

namespace atl {

/// A broadphase layer value that no tree has: what a mapping returns for an unknown object layer.
inline constexpr BroadPhaseLayer k_invalid_broadphase_layer = 0xff;

/// Maps object layers to broadphase layers.
class BroadPhaseLayerInterface {
 public:
  virtual ~BroadPhaseLayerInterface() = default;
  /// Number of broadphase layers (trees), 1..255; layers are 0 .. num - 1.
  virtual uint32_t num_broadphase_layers() const = 0;
  /// The broadphase layer of bodies on `layer` (k_invalid_broadphase_layer when unknown).
  virtual BroadPhaseLayer broadphase_layer(ObjectLayer layer) const = 0;
};

/// Decides whether bodies on an object layer may collide with anything in a broadphase layer.
class ObjectVsBroadPhaseLayerFilter {
 public:
  virtual ~ObjectVsBroadPhaseLayerFilter() = default;
  /// True when bodies on `layer` may collide with some body in broadphase layer `bp_layer`.
  virtual bool should_collide(ObjectLayer layer, BroadPhaseLayer bp_layer) const = 0;
};

/// Query filter on whole broadphase layers; the default searches every layer.
class BroadPhaseLayerFilter {
 public:
  virtual ~BroadPhaseLayerFilter() = default;
  /// True when the tree of `bp_layer` should be searched.
  virtual bool should_collide(BroadPhaseLayer /*bp_layer*/) const { return true; }
};

/// Query filter that searches the broadphase layers a body on `layer` may collide with under
/// `filter` (which must outlive it).
class DefaultBroadPhaseLayerFilter final : public BroadPhaseLayerFilter {
 public:
  DefaultBroadPhaseLayerFilter(const ObjectVsBroadPhaseLayerFilter& filter, ObjectLayer layer)
      : filter_(&filter), layer_(layer) {}
  bool should_collide(BroadPhaseLayer bp_layer) const override {
    return filter_->should_collide(layer_, bp_layer);
  }

 private:
  const ObjectVsBroadPhaseLayerFilter* filter_;
  ObjectLayer layer_;
};

}  // namespace atl
