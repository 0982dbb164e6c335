#pragma once
// The broadphase: one DynamicTree per broadphase layer over the bodies' fat boxes. It finds the
// candidate pairs for the narrowphase and the candidate bodies of ray, box and point queries.
//
// It knows nothing about bodies beyond a dense uint32 index, an object layer and a box: the
// world owns the bodies and tells the broadphase when they are added, moved or removed.
// Queries are const and may run concurrently with each other, not with any other call.

#include <cstdint>
#include <span>
#include <vector>

#include "atoll/collision/broadphase/BodyPair.h"
#include "atoll/collision/broadphase/BroadPhaseCollector.h"
#include "atoll/collision/broadphase/BroadPhaseLayerInterface.h"
#include "atoll/collision/broadphase/DynamicTree.h"
#include "atoll/collision/broadphase/ObjectLayerPairFilter.h"
#include "atoll/core/JobSystem.h"
#include "atoll/core/Result.h"

namespace atl {

/// Settings of a BroadPhase.
struct BroadPhaseSettings {
  /// Stored boxes are grown by this much (m) beyond the body's bounds, so that small moves do
  /// not re-insert and pairs this close are reported. Default: the speculative contact distance.
  float fat_margin = 0.02f;
};

class BroadPhase {
 public:
  /// Largest body index accepted (lookup storage is 8 bytes per index up to the highest one).
  static constexpr uint32_t k_max_body_index = (1u << 28) - 1;

  /// A broadphase with one tree per broadphase layer of `layer_interface`. The three layer
  /// objects are kept by reference and must outlive it. Error for bad settings or a layer
  /// count outside 1..255.
  static Result<BroadPhase> create(const BroadPhaseLayerInterface& layer_interface,
                                   const ObjectVsBroadPhaseLayerFilter& object_vs_broadphase,
                                   const ObjectLayerPairFilter& object_pair_filter,
                                   const BroadPhaseSettings& settings = {});

  /// Adds body `body_index` on `layer` with bounds `tight_box` (world space, m). With `pairs`
  /// false, queries find the body but find_pairs never pairs it (a soft body: its own stage
  /// collides its vertices). Error when the index is already present or too large, the box is
  /// not finite or inverted, or the layer maps to no broadphase layer.
  Status add(uint32_t body_index, ObjectLayer layer, const AABox& tight_box, bool pairs = true);
  /// Ok when `layer` maps to one of the broadphase layers (a body on it can be added); else an
  /// error saying where it maps ("object layer 7 maps to broadphase layer 255, but there are 2").
  Status check_layer(ObjectLayer layer) const;
  /// Removes a body. Error when it is not present.
  Status remove(uint32_t body_index);
  /// Gives a body's leaf exactly `fat_box` (world space, m), for restoring a saved state: the
  /// fat boxes decide which pairs the next step tests. Error (nothing changed) when the body is
  /// not present or the box is not finite or inverted.
  Status set_fat_box(uint32_t body_index, const AABox& fat_box);
  /// Reports a body's new bounds and its predicted displacement (m) over the next step; returns
  /// true when its tree leaf was re-inserted (see DynamicTree::update). Error when the body is
  /// not present or an input is not finite.
  Result<bool> update(uint32_t body_index, const AABox& tight_box,
                      const Vec3& predicted_displacement) {
    // Checked inline, reported out of line: this runs for every active body every step.
    if (!contains(body_index) || !DynamicTree::is_valid_box(tight_box) ||
        !predicted_displacement.is_finite()) {
      return update_error(body_index, tight_box, predicted_displacement);
    }
    const BodyEntry& entry = bodies_[body_index];
    const bool moved = trees_[entry.bp_layer].update_leaf(
        entry.proxy, tight_box, predicted_displacement, settings_.fat_margin);
    if (moved) mark_changed(body_index);
    return moved;
  }
  /// update() for many bodies in one go: `bounds_of(body_index, tight_box,
  /// predicted_displacement)` sets each body's two arguments. The stored boxes end as update()
  /// in the list's order would leave them; a tree in which more than a quarter of the leaves
  /// need new boxes is refitted or rebuilt rather than re-inserted leaf by leaf
  /// (DynamicTree::move_leaves), which is what a scene of fast bodies needs every step. Returns
  /// how many bodies got new boxes. Error (nothing changed) as update() for the first bad body.
  /// With `jobs`, the bodies are checked (bounds_of and whether a box must move) in one share
  /// per worker of at least k_body_share bodies (core/JobSystem.h: the shares of the solver's
  /// per-body stages), so `bounds_of` must be callable from any thread for different bodies;
  /// the boxes are then moved in the list's order on the caller.
  template <class BoundsOf>
  Result<uint32_t> update_many(std::span<const uint32_t> body_indices, BoundsOf&& bounds_of,
                               JobSystem* jobs = nullptr) {
    moves_.clear();
    const uint32_t count = static_cast<uint32_t>(body_indices.size());
    InlineJobSystem inline_jobs;
    JobSystem& job_system = jobs != nullptr ? *jobs : inline_jobs;
    const Shares division(job_system.num_workers(), count, k_body_share);
    // The bodies [begin, end) into `out`; the position of the first bad one, or count.
    const auto check = [&](uint32_t begin, uint32_t end, std::vector<PendingMove>& out) {
      AABox tight_box;
      Vec3 displacement;
      for (uint32_t k = begin; k < end; ++k) {
        const uint32_t body_index = body_indices[k];
        bounds_of(body_index, tight_box, displacement);
        if (!contains(body_index) || !DynamicTree::is_valid_box(tight_box) ||
            !displacement.is_finite())
          return k;
        const BodyEntry& entry = bodies_[body_index];
        PendingMove move{body_index, entry.bp_layer, {entry.proxy, AABox()}};
        if (trees_[entry.bp_layer].needs_new_box(entry.proxy, tight_box, displacement,
                                                 settings_.fat_margin, move.leaf.box))
          out.push_back(move);
      }
      return count;
    };
    uint32_t first_bad = count;
    if (division.shares <= 1) {
      first_bad = check(0, count, moves_);
    } else {
      if (share_moves_.size() < division.shares) share_moves_.resize(division.shares);
      parallel_for(job_system, division.shares, 1, [&](uint32_t first, uint32_t last, uint32_t) {
        for (uint32_t share = first; share < last; ++share) {
          ShareMoves& out = share_moves_[share];
          out.list.clear();
          out.first_bad = check(division.begin(share), division.end(share), out.list);
        }
      });
      for (uint32_t share = 0; share < division.shares && first_bad == count; ++share) {
        first_bad = share_moves_[share].first_bad;
        if (first_bad == count)
          moves_.insert(moves_.end(), share_moves_[share].list.begin(),
                        share_moves_[share].list.end());
      }
    }
    if (first_bad != count) {
      AABox tight_box;
      Vec3 displacement;
      bounds_of(body_indices[first_bad], tight_box, displacement);
      moves_.clear();
      return update_error(body_indices[first_bad], tight_box, displacement);
    }
    return apply_moves();
  }
  /// Moves a body to another object layer (and tree, when the broadphase layer changes).
  Status set_object_layer(uint32_t body_index, ObjectLayer layer);
  /// Rebuilds every tree top-down for the fastest queries, e.g. after adding a level's static
  /// bodies (incremental insertion builds somewhat looser trees). Costs O(n log² n).
  void optimize();

  /// Replaces `out` with every pair of overlapping fat boxes that involves an active body and
  /// passes the layer filters, each once, sorted by (a, b). Pairs of two inactive bodies, and
  /// pairs with a body added with `pairs` false, are not reported. Error (and `out` empty) when an
  /// active index is not present or is listed twice. Allocates only to grow `out` and its scratch
  /// bits. Each pair is looked for from its active side only, so the layer filters must be
  /// symmetric. With `jobs` the search runs on its workers (the layer filters are then called
  /// from several threads at once); the result is the same for any number of workers.
  Status find_pairs(std::span<const uint32_t> active_body_indices, std::vector<BodyPair>& out,
                    JobSystem* jobs = nullptr);
  /// find_pairs for a simulation step, the same pairs bit for bit, found from the last call's.
  /// Two bodies that since the last find_step_pairs kept their fat boxes, layers and activity
  /// (and were not added or removed) overlap exactly as they did then, and the layer filters
  /// decide their pair as then if they answer as then for the object layers present, which is
  /// checked at every call (a layer table changed between steps is seen). So only the changed
  /// bodies' pairs are looked for again, one query each, while they are at most a quarter of
  /// the active bodies; more, or changed filters, and it runs find_pairs. A resting pile (the
  /// pyramid: 1 240 boxes, none leaving its fat box) then costs a copy of last step's pairs
  /// instead of a walk of the tree. Meant for one list a step, the world's active bodies: a
  /// body listed in one call and not the next counts as changed. Errors as find_pairs (and
  /// then the next call runs find_pairs).
  Status find_step_pairs(std::span<const uint32_t> active_body_indices, std::vector<BodyPair>& out,
                         JobSystem* jobs = nullptr);
  /// Whether the last find_step_pairs found its pairs from the call before's (else it ran
  /// find_pairs, or failed).
  bool reused_step_pairs() const { return reused_step_pairs_; }

  /// Reports the bodies whose fat boxes the segment origin → origin + direction enters
  /// (fraction 0..1, nearer first within a tree) and whose layer passes `filter`. Stops where
  /// the collector's early-out fraction says. Error when an input is not finite.
  Status cast_ray(const Vec3& origin, const Vec3& direction, const ObjectLayerFilter& filter,
                  BroadPhaseCollector& collector,
                  const BroadPhaseLayerFilter& bp_filter = BroadPhaseLayerFilter()) const;
  /// Reports the bodies whose fat boxes `box` touches while it moves by t·displacement,
  /// t ∈ [0, 1], with the fraction t where it starts touching (nearer first within a tree), and
  /// whose layer passes `filter`. Stops where the collector's early-out fraction says. Error when
  /// an input is not finite or the box is inverted.
  Status cast_aabox(const AABox& box, const Vec3& displacement, const ObjectLayerFilter& filter,
                    BroadPhaseCollector& collector,
                    const BroadPhaseLayerFilter& bp_filter = BroadPhaseLayerFilter()) const;
  /// cast_aabox limited to the bodies in `candidates` (absent ones are skipped): reports, in
  /// the candidates' order, each one that cast_aabox would report, with the same fraction bit
  /// for bit. With a collector that keeps its early-out fraction at 1 or above (e.g.
  /// AllHitsBroadPhaseCollector) the set is exactly cast_aabox's when `candidates` holds every
  /// body it reports, e.g. when sweep_within_fat_box(body, box, displacement) and `candidates`
  /// are body's find_pairs partners. Error as cast_aabox.
  Status cast_aabox_among(const AABox& box, const Vec3& displacement,
                          std::span<const uint32_t> candidates, const ObjectLayerFilter& filter,
                          BroadPhaseCollector& collector,
                          const BroadPhaseLayerFilter& bp_filter = BroadPhaseLayerFilter()) const;
  /// True when everything cast_aabox(box, displacement, ...) can report with an early-out
  /// fraction of 1 or more touches the fat box of body `body_index`: the box's sweep lies
  /// inside it. Those bodies are then all paired with it by find_pairs (same tree state and
  /// symmetric filters), which is how CCD takes a fast body's candidates from the pairs
  /// instead of walking the tree again. False when the body is absent.
  bool sweep_within_fat_box(uint32_t body_index, const AABox& box, const Vec3& displacement) const;
  /// Reports the bodies whose fat boxes overlap `box` and whose layer passes `filter`.
  /// Error when the box is not finite or inverted.
  Status collide_aabox(const AABox& box, const ObjectLayerFilter& filter,
                       BroadPhaseCollector& collector,
                       const BroadPhaseLayerFilter& bp_filter = BroadPhaseLayerFilter()) const;
  /// Reports the bodies whose fat boxes contain `point` and whose layer passes `filter`.
  /// Error when the point is not finite.
  Status collide_point(const Vec3& point, const ObjectLayerFilter& filter,
                       BroadPhaseCollector& collector,
                       const BroadPhaseLayerFilter& bp_filter = BroadPhaseLayerFilter()) const;

  /// True when body `body_index` is in the broadphase.
  bool contains(uint32_t body_index) const {
    return body_index < bodies_.size() && bodies_[body_index].proxy != DynamicTree::k_null_node;
  }
  /// Number of bodies in the broadphase.
  uint32_t size() const { return body_count_; }
  /// A present body's object layer (asserts contains()).
  ObjectLayer object_layer(uint32_t body_index) const {
    ATOLL_ASSERT(contains(body_index), "BroadPhase::object_layer: body not present");
    return bodies_[body_index].layer;
  }
  /// A present body's stored (fat) box (asserts contains()).
  const AABox& fat_box(uint32_t body_index) const {
    ATOLL_ASSERT(contains(body_index), "BroadPhase::fat_box: body not present");
    const BodyEntry& entry = bodies_[body_index];
    return trees_[entry.bp_layer].fat_box(entry.proxy);
  }
  /// Number of broadphase layers (trees).
  uint32_t num_broadphase_layers() const { return static_cast<uint32_t>(trees_.size()); }
  /// The tree of broadphase layer `bp_layer` (asserts it exists).
  const DynamicTree& tree(BroadPhaseLayer bp_layer) const {
    ATOLL_ASSERT(bp_layer < trees_.size(), "BroadPhase::tree: no such broadphase layer");
    return trees_[bp_layer];
  }
  /// The settings given at creation.
  const BroadPhaseSettings& settings() const { return settings_; }
  /// Changes the fat margin (m, finite, >= 0): every stored box grows (or shrinks) by the
  /// difference at once, so the new margin counts from the next find_pairs. Error (nothing
  /// changed) for a bad margin.
  Status set_fat_margin(float fat_margin);
  /// The trees and the bodies' entries, for a rollback snapshot (state/WorldSnapshot.h).
  class Snapshot;
  /// Copies the trees and entries into `snapshot` (replacing what it held; buffers reused).
  void save(Snapshot& snapshot) const;
  /// Makes the broadphase exactly what `snapshot` holds: the same bodies with the same fat
  /// boxes in trees of the same shape, so that queries visit them in the same order. The
  /// snapshot must come from this broadphase (asserted: same number of layers).
  void restore(const Snapshot& snapshot);
  /// Checks every tree and the body → leaf mapping. For tests.
  Status validate() const;

 private:
  struct BodyEntry {
    uint32_t proxy = DynamicTree::k_null_node;  // leaf in trees_[bp_layer]; null when absent
    ObjectLayer layer = 0;
    BroadPhaseLayer bp_layer = 0;
    // Whether find_pairs may pair the body (add's `pairs`).
    bool pairs = true;
  };

  BroadPhase(const BroadPhaseLayerInterface& layer_interface,
             const ObjectVsBroadPhaseLayerFilter& object_vs_broadphase,
             const ObjectLayerPairFilter& object_pair_filter, const BroadPhaseSettings& settings);
  Status check_present(uint32_t body_index, const char* function) const;
  Error update_error(uint32_t body_index, const AABox& tight_box,
                     const Vec3& predicted_displacement) const;
  Result<BroadPhaseLayer> map_layer(ObjectLayer layer, const char* function) const;
  bool is_marked_active(uint32_t body_index) const {
    return (active_bits_[body_index >> 6] >> (body_index & 63)) & 1u;
  }
  // find_pairs' admission of two distinct bodies whose fat boxes overlap, at least one of them
  // marked active: looked for from the lower index when both are active, else from the active
  // one, both must pair and the layer filters of the looking side must let them.
  bool admits(uint32_t lo, uint32_t hi) const {
    const BodyEntry& from = bodies_[is_marked_active(lo) ? lo : hi];
    const BodyEntry& to = bodies_[is_marked_active(lo) ? hi : lo];
    return from.pairs && to.pairs &&
           object_vs_broadphase_->should_collide(from.layer, to.bp_layer) &&
           object_pair_filter_->should_collide(from.layer, to.layer);
  }
  // Marks the listed bodies active (active_bits_); on a bad list nothing stays marked.
  Status mark_active(std::span<const uint32_t> active_body_indices, const char* function);
  void unmark_active(std::span<const uint32_t> active_body_indices);
  // Takes the marks off when the call that made them ends, returning or throwing (a filter is
  // user code).
  struct ActiveMarks {
    BroadPhase& broadphase;
    std::span<const uint32_t> active_body_indices;
    ~ActiveMarks() { broadphase.unmark_active(active_body_indices); }
  };
  // find_pairs on marked active bodies: every admitted pair into `out`, sorted.
  void collect_pairs(std::span<const uint32_t> active_body_indices, std::vector<BodyPair>& out,
                     JobSystem& jobs);
  // worker_pairs_: one empty list per worker; then the lists joined into `out`, sorted.
  void clear_worker_pairs(JobSystem& jobs);
  void join_worker_pairs(std::vector<BodyPair>& out);
  // find_step_pairs from last step's pairs: those of unchanged bodies, and the changed bodies'
  // queries, into step_pairs_.
  void reuse_step_pairs(JobSystem& jobs);
  // Whether the layer filters answer for the object layers present as at the last call (and
  // remembers the answers).
  bool filters_answer_as_before();
  // A body whose pairs find_step_pairs must look for again.
  void mark_changed(uint32_t body_index) {
    if ((body_index >> 6) >= changed_bits_.size()) changed_bits_.resize((body_index >> 6) + 1, 0);
    uint64_t& word = changed_bits_[body_index >> 6];
    const uint64_t bit = uint64_t{1} << (body_index & 63);
    if ((word & bit) != 0) return;
    word |= bit;
    changed_.push_back(body_index);
  }
  bool is_changed(uint32_t body_index) const {
    return (body_index >> 6) < changed_bits_.size() &&
           ((changed_bits_[body_index >> 6] >> (body_index & 63)) & 1u) != 0;
  }
  // Counts the bodies on each object layer (add, remove, set_object_layer).
  void count_layer(ObjectLayer layer, int delta);

  // A leaf of tree `bp_layer` that update_many gives a new box.
  struct PendingMove {
    uint32_t body_index;
    BroadPhaseLayer bp_layer;
    DynamicTree::LeafMove leaf;
  };
  // find_pairs' two ways, on the marked active bodies: one walk per pair of trees, or one
  // query per active body.
  // Each appends to its worker's list in worker_pairs_ (unsorted).
  // Places of the walk per worker: enough that workers finish close together although the
  // subtrees below the places differ widely, few enough that the first levels stay cheap.
  static constexpr size_t k_walk_places_per_worker = 64;
  // Active bodies per range of the queries.
  static constexpr uint32_t k_query_bodies_per_range = 32;
  void find_pairs_by_walk(std::span<const uint32_t> active_body_indices, JobSystem& jobs);
  void find_pairs_by_query(std::span<const uint32_t> active_body_indices, JobSystem& jobs);
  // update_many's second half: moves_ into the trees; returns how many.
  uint32_t apply_moves();

  const BroadPhaseLayerInterface* layer_interface_;
  const ObjectVsBroadPhaseLayerFilter* object_vs_broadphase_;
  const ObjectLayerPairFilter* object_pair_filter_;
  BroadPhaseSettings settings_;
  std::vector<DynamicTree> trees_;
  std::vector<BodyEntry> bodies_;
  uint32_t body_count_ = 0;
  // find_pairs scratch: one bit per body index, all zero between calls.
  std::vector<uint64_t> active_bits_;
  // find_pairs_by_walk scratch: per tree, mark_subtrees of the active bodies; per pair of
  // trees (p * layers + q), whether an active body's layers let it look from one into the other.
  std::vector<std::vector<uint8_t>> tree_marks_;
  // find_pairs_by_walk scratch: the active bodies in each tree.
  std::vector<uint32_t> active_in_tree_;
  std::vector<uint8_t> tree_pairs_;
  std::vector<BodyPair> pair_scratch_;  // find_pairs' sort buffer
  // find_step_pairs: the pairs the last call returned (valid while step_pairs_valid_), and the
  // next ones while they are merged; the bodies active then (a list and one bit per index);
  // the bodies changed since (a list and one bit per index); the object layers present with
  // their body counts, ascending; the layer filters' answers for them at the last call.
  std::vector<BodyPair> step_pairs_;
  std::vector<BodyPair> next_step_pairs_;
  std::vector<BodyPair> found_pairs_;  // the changed bodies' pairs
  bool step_pairs_valid_ = false;
  bool reused_step_pairs_ = false;
  std::vector<uint32_t> step_active_;
  std::vector<uint64_t> step_active_bits_;
  std::vector<uint32_t> changed_;
  std::vector<uint64_t> changed_bits_;
  struct LayerCount {
    ObjectLayer layer;
    uint32_t bodies;
  };
  std::vector<LayerCount> layer_counts_;
  std::vector<uint8_t> filter_answers_;
  std::vector<uint8_t> new_filter_answers_;
  // find_pairs: the pairs each worker found, and the walk's places shared out among workers
  // (tree p, tree q, place).
  // One cache line (or more) each: every pair found writes the end of its worker's list, and
  // two lists' ends in one line moved it between the cores at every pair.
  struct alignas(64) WorkerPairs {
    std::vector<BodyPair> list;
  };
  std::vector<WorkerPairs> worker_pairs_;
  struct WalkTask {
    uint32_t p;
    uint32_t q;
    DynamicTree::PairWalkEntry entry;
  };
  std::vector<WalkTask> walk_tasks_;
  std::vector<DynamicTree::PairWalkEntry> walk_entries_;
  // update_many scratch: the leaves to move, then one tree's share of them; with several
  // workers, each share's leaves to move and its first bad body (a cache line apart).
  std::vector<PendingMove> moves_;
  struct alignas(64) ShareMoves {
    std::vector<PendingMove> list;
    uint32_t first_bad = 0;
  };
  std::vector<ShareMoves> share_moves_;
  std::vector<DynamicTree::LeafMove> tree_moves_;

 public:
  class Snapshot {
   public:
    /// Bytes the copied trees and entries use.
    size_t bytes() const {
      size_t total = bodies_.size() * sizeof(BodyEntry);
      for (const DynamicTree::Snapshot& tree : trees_) total += tree.bytes();
      return total;
    }

   private:
    friend class BroadPhase;
    std::vector<DynamicTree::Snapshot> trees_;
    std::vector<BodyEntry> bodies_;
    uint32_t body_count_ = 0;
  };
};

}  // namespace atl
