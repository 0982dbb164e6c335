#pragma once
// Identifies a leaf of a shape hierarchy (a compound's child, a mesh's triangle) as a stack of
// bit fields packed into 32 bits. Each level pushes its index with as many bits as it needs;
// readers pop the levels in the same order. Unused bits are 1, so the empty ID is all ones.

#include <cstdint>

#include "atoll/core/Assert.h"

namespace atl {

class SubShapeID {
 public:
  static constexpr uint32_t k_empty = 0xffffffffu;
  static constexpr uint32_t k_max_bits = 32;

  SubShapeID() = default;
  explicit SubShapeID(uint32_t value) : value_(value) {}

  uint32_t value() const { return value_; }
  bool is_empty() const { return value_ == k_empty; }
  /// Reads the first `bits` bits as an index and returns the ID of the rest.
  uint32_t pop(uint32_t bits, SubShapeID& out_remainder) const {
    ATOLL_ASSERT(bits > 0 && bits < 32);
    const uint32_t mask = (1u << bits) - 1u;
    out_remainder = SubShapeID((value_ >> bits) | ~(k_empty >> bits));
    return value_ & mask;
  }
  bool operator==(const SubShapeID&) const = default;
  bool operator<(const SubShapeID& b) const { return value_ < b.value_; }

 private:
  uint32_t value_ = k_empty;
};

/// Builds SubShapeIDs while descending a shape hierarchy.
class SubShapeIDCreator {
 public:
  /// Appends `index` (< 2^bits − 1; all-ones is reserved for "empty") using `bits` bits.
  SubShapeIDCreator push(uint32_t index, uint32_t bits) const {
    ATOLL_ASSERT(bits > 0 && used_bits_ + bits <= SubShapeID::k_max_bits,
                 "shape hierarchy too deep for a 32-bit SubShapeID");
    ATOLL_ASSERT(index < (1u << bits) - 1u || bits == 32);
    SubShapeIDCreator r;
    const uint32_t mask = ((1u << bits) - 1u) << used_bits_;
    r.value_ = (value_ & ~mask) | (index << used_bits_);
    r.used_bits_ = used_bits_ + bits;
    return r;
  }
  SubShapeID id() const { return SubShapeID(value_); }
  uint32_t used_bits() const { return used_bits_; }

 private:
  uint32_t value_ = SubShapeID::k_empty;
  uint32_t used_bits_ = 0;
};

/// Bits needed to store indices 0..count-1 (all-ones stays reserved for "empty").
constexpr uint32_t sub_shape_id_bits(uint32_t count) {
  uint32_t bits = 1;
  while (bits < 31 && ((1u << bits) - 1u) < count) ++bits;
  return bits;
}

}  // namespace atl
