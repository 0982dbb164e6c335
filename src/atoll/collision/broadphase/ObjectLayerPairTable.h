#pragma once
// An ObjectLayerPairFilter that users fill in: a symmetric bit table over their object layers.

#include <cstdint>
#include <vector>

#include "atoll/collision/broadphase/ObjectLayerPairFilter.h"
#include "atoll/core/Result.h"

namespace atl {

/// Symmetric table of which object layers collide; starts with nothing colliding.
class ObjectLayerPairTable final : public ObjectLayerPairFilter {
 public:
  /// A table over layers 0 .. num_layers - 1.
  explicit ObjectLayerPairTable(ObjectLayer num_layers);

  /// Number of layers the table covers.
  ObjectLayer num_layers() const { return num_layers_; }
  /// Lets layers `a` and `b` collide (both orders). Error when a layer is out of range.
  Status enable(ObjectLayer a, ObjectLayer b) { return set(a, b, true); }
  /// Stops layers `a` and `b` colliding (both orders). Error when a layer is out of range.
  Status disable(ObjectLayer a, ObjectLayer b) { return set(a, b, false); }
  /// True when enabled; false for layers out of range.
  bool should_collide(ObjectLayer a, ObjectLayer b) const override {
    if (a >= num_layers_ || b >= num_layers_) return false;
    const size_t bit = static_cast<size_t>(a) * num_layers_ + b;
    return (bits_[bit >> 6] >> (bit & 63)) & 1u;
  }

 private:
  Status set(ObjectLayer a, ObjectLayer b, bool enabled);

  ObjectLayer num_layers_;
  std::vector<uint64_t> bits_;
};

}  // namespace atl
