#pragma once
// Large-island splitting (DESIGN.md §2 stage 5, seed 001 §4, LAWS.md C2): an island with more
// than k_large_island_threshold contacts + constraints is split greedily into at most
// k_num_splits splits whose items (constraints and contacts) share no movable body, so that the
// items of one split can be solved in any order, or in parallel, with the splits one after the
// other. The greedy first fit follows Chen et al., "High-Performance Physical Simulations on
// Next-Generation Architecture with Many Cores" (Intel Technology Journal 11(3), 2007), as Jolt's
// LargeIslandSplitter does: every movable body carries a 32-bit mask of the splits it is already
// in, and an item goes to the lowest split that neither of its movable bodies is in. Immovable
// bodies (static, kinematic, the world) are never written by the solve, so they block nothing.
// Items that fit in none of the first 31 splits go to the last one, the non-parallel split,
// which is solved on one thread after the others; splits left with fewer than
// k_split_combine_threshold items are merged into it too. Each split is cut into batches of
// k_batch_size items for the parallel solve.
//
// Item order: constraints are assigned before contacts. Atoll solves an island's constraints
// before its contacts in every pass, so that contacts, solved last, hold best (IslandSolver.h);
// assigning constraints first puts them into the lower splits and leaves contacts the later
// splits and the non-parallel split, which is solved last, so the split solve keeps that order
// as far as a split solve can. The constraints of every split, and the contacts of the
// non-parallel split, keep the island's order (constraints by solve order, contacts by index);
// a parallel split lists its contacts by their lower movable body (its items share no moving
// body, so their order does not change the solve, and in this one the workers' shares of every
// split touch much the same bodies).
//
// The greedy fit of an island depends on its own items only (no two islands share a movable
// body, and immovable bodies block nothing), so it can also run over every item of the step at
// once, before the islands are known (colour_all): constraints in solve order, then the contacts
// between two movable bodies, then those against an immovable one, each in index order — the
// order of every island's items (IslandBuilder) — gives each island the same splits. With
// threads, build_islands runs it on one worker while the caller links the islands.
//
// For the wide contact solver, islands are also split in groups (prepare's `group_keys`, made by
// IslandSolver.h's key_island_groups): consecutive islands split as one, so that their contacts
// fill lane blocks together.
//
// The splits of every island are made once per collision step, before the velocity solve, and
// the position solve reuses them (seed 001 §4.5). Everything is a function of the island's items
// in order, so the splits — and the solve through them — are deterministic. All storage is kept
// from step to step: a warmed-up step does not allocate.

#include <cstdint>
#include <span>
#include <vector>

namespace atl {

class ConstraintManager;
class IslandBuilder;
struct IslandConstraints;

/// One split of an island: ranges into the splitter's item lists.
struct IslandSplit {
  uint32_t constraint_begin = 0;
  uint32_t constraint_end = 0;
  uint32_t contact_begin = 0;
  uint32_t contact_end = 0;
  /// Number of items (constraints + contacts).
  uint32_t num_items() const {
    return constraint_end - constraint_begin + contact_end - contact_begin;
  }
};

/// The items of one batch of a split: at most k_batch_size constraints and contacts.
struct SplitBatch {
  std::span<const uint32_t> constraints;
  std::span<const uint32_t> contacts;
};

/// The splits of one island, solved in order; the last is the non-parallel split when
/// `has_non_parallel` (it may be the only one). Empty: the island is not split.
class IslandSplits {
 public:
  IslandSplits() = default;
  IslandSplits(std::span<const IslandSplit> splits, std::span<const uint32_t> constraint_items,
               std::span<const uint32_t> contact_items, bool has_non_parallel)
      : splits_(splits),
        constraint_items_(constraint_items),
        contact_items_(contact_items),
        has_non_parallel_(has_non_parallel) {}

  /// True when the island is not split (solved whole).
  bool empty() const { return splits_.empty(); }
  /// Number of splits.
  uint32_t num_splits() const { return static_cast<uint32_t>(splits_.size()); }
  /// True when split `s` is the non-parallel split (the last one, solved on one thread).
  bool is_non_parallel(uint32_t s) const { return has_non_parallel_ && s + 1 == num_splits(); }
  /// Constraints (solve-list positions in ConstraintManager) of split `s`, in solve order.
  std::span<const uint32_t> constraints(uint32_t s) const {
    return constraint_items_.subspan(splits_[s].constraint_begin,
                                     splits_[s].constraint_end - splits_[s].constraint_begin);
  }
  /// Contacts (contact constraint indices) of split `s`: ascending in the non-parallel split,
  /// else by their lower movable body (ties ascending).
  std::span<const uint32_t> contacts(uint32_t s) const {
    return contact_items_.subspan(splits_[s].contact_begin,
                                  splits_[s].contact_end - splits_[s].contact_begin);
  }
  /// Number of items of split `s`.
  uint32_t num_items(uint32_t s) const { return splits_[s].num_items(); }
  /// Number of batches of split `s` (its items, constraints first, cut every k_batch_size).
  uint32_t num_batches(uint32_t s) const;
  /// Batch `b` of split `s`.
  SplitBatch batch(uint32_t s, uint32_t b) const;

 private:
  std::span<const IslandSplit> splits_;
  std::span<const uint32_t> constraint_items_;
  std::span<const uint32_t> contact_items_;
  bool has_non_parallel_ = false;
};

class LargeIslandSplitter {
 public:
  /// Bits of a body's split mask: the most splits an island can have.
  static constexpr uint32_t k_num_splits = 32;
  /// The split for items that fit nowhere else and for merged small splits; solved last.
  static constexpr uint32_t k_non_parallel_split = k_num_splits - 1;
  /// An island with more contacts + constraints than this is split.
  static constexpr uint32_t k_large_island_threshold = 128;
  /// A split with fewer items than this is merged into the non-parallel split. Jolt merges
  /// splits below 32 (seed 001 §4; DESIGN.md followed it): a job per small split costs more
  /// than it saves. Atoll's splits also feed the wide contact solver (ContactLanes, eight
  /// contacts a lane block), which pays on one worker as well, and a split of one worker's
  /// share costs no job (SplitRounds). At 32, every split of an island of a few hundred items
  /// (many_pyramids' 64 pyramids of 55 boxes, about 145 contacts each) was merged, and the
  /// island was solved contact by contact; at one lane block, 8, it is solved in lanes:
  /// many_pyramids 11.07 → 8.86 ms a step on 1 thread, 5.86 → 4.60 on 2 (medians of 6
  /// alternating 200-step runs, 2026-12-06).
  static constexpr uint32_t k_split_combine_threshold = 8;
  /// Items per batch of a split.
  static constexpr uint32_t k_batch_size = 16;

  /// A group key (prepare) of an island that is solved on its own.
  static constexpr uint64_t k_solve_alone = ~uint64_t{0};
  /// Groups of islands (prepare) are cut once they have more than this many items, the last
  /// group of a run taking what is left, or once they have more than a k_groups_per_run-th of
  /// the run's items when that is less (but not less than k_large_island_threshold).
  static constexpr uint32_t k_group_items = 512;
  static constexpr uint32_t k_groups_per_run = 8;
  /// The most items an island may have to be grouped (with the splitter on; without it only
  /// islands of at most k_large_island_threshold items are): a larger one fills lane blocks on
  /// its own.
  static constexpr uint32_t k_max_grouped_island_items = 512;

  /// Stage split_islands: forgets last step's splits and, when `enabled`, splits every island
  /// of `islands` with more than k_large_island_threshold items. `movable[b]` is non-zero for
  /// the solver bodies that impulses move; contact i joins solver bodies contact_body1[i] and
  /// contact_body2[i].
  ///
  /// `group_keys` (one per island, or empty) groups islands for the wide contact solver: a run
  /// of consecutive islands of the same key (not k_solve_alone) with more than
  /// k_large_island_threshold items in all is cut into groups of more than k_group_items items
  /// or an eighth of the run's (the last taking the rest), each split as one island, so that their
  /// contacts fill lane blocks together (IslandSolver.h, key_island_groups). A group's first island
  /// is its leader (group_end); island(leader) holds the group's splits. No two of its islands
  /// share a body, so every item gets the split it would get in its own island, and each island's
  /// bodies see their items in the order they would see them if it were split alone.
  void prepare(bool enabled, const IslandBuilder& islands,
               const IslandConstraints& island_constraints, const ConstraintManager& constraints,
               std::span<const uint32_t> contact_body1, std::span<const uint32_t> contact_body2,
               std::span<const uint8_t> movable, std::span<const uint64_t> group_keys = {});

  /// Optional, before prepare, for the step's items as a whole: each solved constraint k
  /// (joining solver bodies constraint_body1[k] and constraint_body2[k]) and each contact i
  /// (contact_body1[i], contact_body2[i]) gets the split that the greedy fit of its island
  /// will give it; prepare then splits the islands from these (the same splits, bit for bit)
  /// instead of fitting each island's items itself. Costs a pass over every item, so worth it
  /// only where it runs beside other work.
  void colour_all(std::span<const uint32_t> constraint_body1,
                  std::span<const uint32_t> constraint_body2,
                  std::span<const uint32_t> contact_body1, std::span<const uint32_t> contact_body2,
                  std::span<const uint8_t> movable);

  /// Starts a step without islands: `num_islands` islands, none split yet, `num_bodies` solver
  /// bodies. (prepare calls it; tests call it before split_island.)
  void begin(uint32_t num_islands, uint32_t num_bodies);
  /// Splits island `island` when it has more than k_large_island_threshold items; returns true
  /// when it was split. Constraint item k (a value of `constraint_items`) joins solver bodies
  /// constraint_body1[k] and constraint_body2[k], contact item k joins contact_body1[k] and
  /// contact_body2[k]; an index at or past movable.size() (the world) is immovable.
  /// `island_bodies` are the island's movable bodies (their masks are cleared afterwards).
  /// `coloured`: the items' splits are colour_all's, made for this step's items (prepare).
  /// `group`: the items are those of a group of islands that `island` leads (counted in
  /// num_groups, not num_split_islands; prepare marks the group).
  bool split_island(uint32_t island, std::span<const uint32_t> island_bodies,
                    std::span<const uint32_t> constraint_items,
                    std::span<const uint32_t> constraint_body1,
                    std::span<const uint32_t> constraint_body2,
                    std::span<const uint32_t> contact_items,
                    std::span<const uint32_t> contact_body1,
                    std::span<const uint32_t> contact_body2, std::span<const uint8_t> movable,
                    bool coloured = false, bool group = false);

  /// The splits of island `i` this step (empty when it is not split); for a group's leader,
  /// the group's.
  IslandSplits island(uint32_t i) const {
    if (i >= islands_.size()) return {};
    const IslandRange& range = islands_[i];
    if (range.split_begin == range.split_end) return {};
    return IslandSplits(
        std::span(splits_).subspan(range.split_begin, range.split_end - range.split_begin),
        constraint_items_, contact_items_, range.has_non_parallel);
  }
  /// The end of the islands solved with island `i`: the group [i, group_end(i)) when `i`
  /// leads one, else i + 1.
  uint32_t group_end(uint32_t i) const {
    return i < islands_.size() && islands_[i].group_end > i + 1 ? islands_[i].group_end : i + 1;
  }
  /// True when island `i` is solved in an earlier island's group (not on its own).
  bool in_earlier_group(uint32_t i) const { return i < islands_.size() && islands_[i].grouped; }
  /// Number of islands split this step (large ones; the groups are counted apart).
  uint32_t num_split_islands() const { return num_split_islands_; }
  /// Number of groups of islands split this step (prepare's `group_keys`).
  uint32_t num_groups() const { return num_groups_; }
  /// The islands split this step, large ones and groups' leaders, ascending.
  std::span<const uint32_t> split_islands() const { return split_list_; }

 private:
  struct IslandRange {
    uint32_t split_begin = 0;
    uint32_t split_end = 0;
    uint32_t group_end = 0;  // a group's leader: the end of its islands
    bool has_non_parallel = false;
    bool grouped = false;  // solved in an earlier island's group
  };

  // Per island: its splits in splits_ (empty range: not split).
  std::vector<IslandRange> islands_;
  std::vector<IslandSplit> splits_;
  std::vector<uint32_t> constraint_items_;
  std::vector<uint32_t> contact_items_;
  uint32_t num_split_islands_ = 0;
  uint32_t num_groups_ = 0;
  std::vector<uint32_t> split_list_;
  // The first fit of one item whose bodies are b1 and b2, noted in their masks.
  uint8_t fit(uint32_t b1, uint32_t b2, std::span<const uint8_t> movable);
  // contact_order_ = positions 0 … n-1 of `contact_items` ordered by their lower movable body
  // (an index at or past movable.size() is immovable), ties in position order. The keys are
  // bodies of `island_bodies` (ascending).
  void order_by_key(std::span<const uint32_t> island_bodies,
                    std::span<const uint32_t> contact_items,
                    std::span<const uint32_t> contact_body1,
                    std::span<const uint32_t> contact_body2, std::span<const uint8_t> movable);

  // Scratch: the split mask of every solver body (zero outside split_island), the split of
  // every item of the island being split, a counter per solver body (zero outside
  // order_by_key), and the island's contacts in key order.
  std::vector<uint32_t> body_mask_;
  std::vector<uint8_t> item_split_;
  std::vector<uint32_t> body_cursor_;
  std::vector<uint32_t> contact_order_;
  // colour_all's fit of every solved constraint and contact, for the next prepare only.
  std::vector<uint8_t> constraint_split_;
  std::vector<uint8_t> contact_split_;
  std::vector<uint32_t> against_;  // colour_all's contacts against an immovable body
  bool coloured_ = false;
};

}  // namespace atl
