#pragma once
// Which object layers may collide with which. BroadPhase asks it for every candidate pair, so
// implementations must be cheap, thread-safe for reading, and symmetric:
// should_collide(a, b) == should_collide(b, a).

#include "atoll/collision/broadphase/ObjectLayer.h"

namespace atl {

/// Decides whether bodies on two object layers may collide.
class ObjectLayerPairFilter {
 public:
  virtual ~ObjectLayerPairFilter() = default;
  /// True when bodies on layers `a` and `b` may collide (must be symmetric).
  virtual bool should_collide(ObjectLayer a, ObjectLayer b) const = 0;
};

/// Query filter on the object layer of a candidate body; the default accepts every layer.
class ObjectLayerFilter {
 public:
  virtual ~ObjectLayerFilter() = default;
  /// True when bodies on `layer` should be reported.
  virtual bool should_collide(ObjectLayer /*layer*/) const { return true; }
};

/// Query filter that accepts what a body on `layer` would collide with under `pair_filter`
/// (which must outlive it).
class DefaultObjectLayerFilter final : public ObjectLayerFilter {
 public:
  DefaultObjectLayerFilter(const ObjectLayerPairFilter& pair_filter, ObjectLayer layer)
      : pair_filter_(&pair_filter), layer_(layer) {}
  bool should_collide(ObjectLayer layer) const override {
    return pair_filter_->should_collide(layer_, layer);
  }

 private:
  const ObjectLayerPairFilter* pair_filter_;
  ObjectLayer layer_;
};

}  // namespace atl
