#include "atoll/collision/broadphase/ObjectLayerPairTable.h"

#include <string>

namespace atl {

ObjectLayerPairTable::ObjectLayerPairTable(ObjectLayer num_layers)
    : num_layers_(num_layers), bits_((static_cast<size_t>(num_layers) * num_layers + 63) / 64, 0) {}

Status ObjectLayerPairTable::set(ObjectLayer a, ObjectLayer b, bool enabled) {
  for (const ObjectLayer layer : {a, b}) {
    if (layer >= num_layers_) {
      return Error(std::string("ObjectLayerPairTable.") + (enabled ? "enable" : "disable") +
                   ": layer " + std::to_string(layer) + " must be < num_layers " +
                   std::to_string(num_layers_));
    }
  }
  for (const size_t bit :
       {static_cast<size_t>(a) * num_layers_ + b, static_cast<size_t>(b) * num_layers_ + a}) {
    const uint64_t mask = uint64_t{1} << (bit & 63);
    if (enabled) {
      bits_[bit >> 6] |= mask;
    } else {
      bits_[bit >> 6] &= ~mask;
    }
  }
  return Ok{};
}

}  // namespace atl
