#pragma once
// Receivers of BroadPhase query results. A query reports candidate bodies (whose fat boxes the
// ray, box or point touches); the caller runs the narrow test on their shapes. A collector can
// shorten a ray query by lowering its early-out fraction (closest hit) or stop any query
// (any hit), which is how a narrow test inside add_hit prunes the rest of the search.

#include <cstdint>
#include <optional>
#include <vector>

#include "atoll/core/Assert.h"
#include "atoll/core/QuickSort.h"
#include "atoll/math/Math.h"

namespace atl {

/// A candidate body and the ray's entry fraction into its fat box (0 for box and point queries).
struct BroadPhaseHit {
  /// Index of the body.
  uint32_t body_index;
  /// Fraction along the ray where it enters the body's fat box (0 when it starts inside).
  float fraction;
};

/// Base of all broadphase collectors.
class BroadPhaseCollector {
 public:
  virtual ~BroadPhaseCollector() = default;
  /// Called for each candidate that passed the filters.
  virtual void add_hit(const BroadPhaseHit& hit) = 0;
  /// Rays skip candidates beyond this fraction; k_float_max until lowered.
  float early_out_fraction() const { return early_out_fraction_; }
  /// True once the collector wants no more candidates.
  bool should_early_out() const { return early_out_fraction_ < 0.0f; }
  /// Makes the running query stop after the current candidate.
  void force_early_out() { early_out_fraction_ = -1.0f; }
  /// Clears the collector for another query.
  virtual void reset() { early_out_fraction_ = k_float_max; }

 protected:
  /// Lowers the early-out fraction to `fraction` (never raises it).
  void update_early_out_fraction(float fraction) {
    if (fraction < early_out_fraction_) early_out_fraction_ = fraction;
  }

 private:
  float early_out_fraction_ = k_float_max;
};

/// Collects every candidate.
class AllHitsBroadPhaseCollector final : public BroadPhaseCollector {
 public:
  void add_hit(const BroadPhaseHit& hit) override { hits.push_back(hit); }
  void reset() override {
    BroadPhaseCollector::reset();
    hits.clear();
  }
  /// Orders the hits by (fraction, body index), independent of the trees' shapes.
  void sort() {
    quick_sort(hits.begin(), hits.end(), [](const BroadPhaseHit& x, const BroadPhaseHit& y) {
      return x.fraction < y.fraction || (x.fraction == y.fraction && x.body_index < y.body_index);
    });
  }

  /// The candidates, in the order the query found them.
  std::vector<BroadPhaseHit> hits;
};

/// Keeps the candidate with the smallest entry fraction (lowest body index on ties) and prunes
/// rays beyond it.
class ClosestHitBroadPhaseCollector final : public BroadPhaseCollector {
 public:
  void add_hit(const BroadPhaseHit& hit) override {
    if (!hit_ || hit.fraction < hit_->fraction ||
        (hit.fraction == hit_->fraction && hit.body_index < hit_->body_index)) {
      hit_ = hit;
      update_early_out_fraction(hit.fraction);
    }
  }
  void reset() override {
    BroadPhaseCollector::reset();
    hit_.reset();
  }
  /// True when a candidate was found.
  bool has_hit() const { return hit_.has_value(); }
  /// The closest candidate (asserts has_hit()).
  const BroadPhaseHit& hit() const {
    ATOLL_ASSERT(hit_.has_value(), "ClosestHitBroadPhaseCollector::hit: no hit");
    return *hit_;
  }

 private:
  std::optional<BroadPhaseHit> hit_;
};

/// Keeps the first candidate found and stops the query.
class AnyHitBroadPhaseCollector final : public BroadPhaseCollector {
 public:
  void add_hit(const BroadPhaseHit& hit) override {
    hit_ = hit;
    force_early_out();
  }
  void reset() override {
    BroadPhaseCollector::reset();
    hit_.reset();
  }
  /// True when a candidate was found.
  bool has_hit() const { return hit_.has_value(); }
  /// The candidate found (asserts has_hit()).
  const BroadPhaseHit& hit() const {
    ATOLL_ASSERT(hit_.has_value(), "AnyHitBroadPhaseCollector::hit: no hit");
    return *hit_;
  }

 private:
  std::optional<BroadPhaseHit> hit_;
};

}  // namespace atl
