#pragma once
// A candidate pair from the broadphase, in the order the narrowphase processes pairs.

#include <cstdint>

namespace atl {

/// Two body indices whose fat boxes overlap; always a < b.
struct BodyPair {
  /// The lower body index.
  uint32_t a;
  /// The higher body index.
  uint32_t b;

  bool operator==(const BodyPair&) const = default;
  /// Lexicographic order on (a, b): the order find_pairs reports in.
  bool operator<(const BodyPair& o) const { return a < o.a || (a == o.a && b < o.b); }
};

}  // namespace atl
