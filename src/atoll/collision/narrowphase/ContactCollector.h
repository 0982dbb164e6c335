#pragma once
// Receivers of the manifolds that collide_shapes finds. A collector can tell the narrow phase
// that shallower manifolds are no longer of interest (the early-out fraction), which lets it
// skip work: the dispatch checks the fraction before every leaf pair.

#include <vector>

#include "atoll/collision/ContactManifold.h"
#include "atoll/math/Math.h"

namespace atl {

class ContactCollector {
 public:
  virtual ~ContactCollector() = default;

  /// Receives one manifold (world space, normal from shape 1 to shape 2).
  virtual void add(const ContactManifold& manifold) = 0;

  /// A manifold is only worth reporting when -penetration_depth < this; k_float_max (the
  /// default) accepts everything, -k_float_max nothing (see force_early_out()).
  float early_out_fraction() const { return early_out_fraction_; }
  /// True when no further manifold is wanted: the dispatch stops visiting leaves.
  bool should_early_out() const { return early_out_fraction_ <= -k_float_max; }
  /// True when a manifold of this depth (m) would still be accepted.
  bool accepts(float penetration_depth) const { return -penetration_depth < early_out_fraction_; }
  /// Stops the query: nothing more is reported.
  void force_early_out() { early_out_fraction_ = -k_float_max; }

 protected:
  /// Narrows what is reported to manifolds with -penetration_depth < `fraction`.
  void set_early_out_fraction(float fraction) { early_out_fraction_ = fraction; }

 private:
  float early_out_fraction_ = k_float_max;
};

/// Keeps every manifold, in the order the dispatch found them (deterministic).
class AllContactsCollector final : public ContactCollector {
 public:
  /// Appends the manifold to `manifolds`.
  void add(const ContactManifold& manifold) override { manifolds.push_back(manifold); }

  /// The manifolds found so far.
  std::vector<ContactManifold> manifolds;
};

/// Keeps only the deepest manifold; shallower ones are skipped early.
class ClosestContactCollector final : public ContactCollector {
 public:
  /// Keeps the manifold when it is deeper than the one held, and reports only deeper ones next.
  void add(const ContactManifold& manifold) override {
    if (has_hit && manifold.penetration_depth <= closest.penetration_depth) return;
    closest = manifold;
    has_hit = true;
    set_early_out_fraction(-manifold.penetration_depth);
  }

  /// True once a manifold was received.
  bool has_hit = false;
  /// The deepest manifold (valid when has_hit).
  ContactManifold closest;
};

}  // namespace atl
