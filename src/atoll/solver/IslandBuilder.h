#pragma once
// Islands: groups of bodies that touch, directly or through others, and so must be solved
// together. Rebuilt from scratch every step as connected components (union-find) over the
// bodies that can move; static and kinematic bodies never link two bodies into one island
// (seed 001, LAWS.md C1). Contacts (and later constraints) are then sorted into the island of
// their movable body. The links may be made on several threads (link_concurrent, seed 001 §2's
// lock-free union-find); the rest is sequential and keyed by index, so the islands, their order
// and the order of items inside them depend only on the input order.

#include <cstdint>
#include <span>
#include <vector>

namespace atl {

class IslandBuilder {
 public:
  /// Starts a step. `movable[i]` is true for solver bodies that impulses move (dynamic).
  void begin(std::span<const uint8_t> movable);
  /// Links two solver bodies (no-op unless both are movable).
  void link(uint32_t body_a, uint32_t body_b);
  /// link() that may run on several threads at once (between begin and finish, and not beside
  /// link()): the links go through compare-exchanges on the tree parents. A tree's root is
  /// always its lowest body (a root is only ever hung under a lower one), so the islands do not
  /// depend on the order, nor on the threads, the links were made in.
  void link_concurrent(uint32_t body_a, uint32_t body_b);
  /// Builds the islands. `item_body1/2[k]` are the bodies of item k (contact constraints);
  /// each item goes to the island of its movable body (an item with none is in no island and
  /// is not solved). Islands are ordered by number of
  /// items, largest first (ties: lowest first body); inside, bodies ascend, and items ascend
  /// with those against an immovable body after those between two movable ones.
  void finish(std::span<const uint32_t> item_body1, std::span<const uint32_t> item_body2);

  /// Number of islands with at least one movable body.
  uint32_t num_islands() const { return static_cast<uint32_t>(island_body_begin_.size()) - 1; }
  /// Movable bodies of island i.
  std::span<const uint32_t> island_bodies(uint32_t i) const { return island_bodies(i, i + 1); }
  /// Items (contact constraints) of island i.
  std::span<const uint32_t> island_items(uint32_t i) const { return island_items(i, i + 1); }
  /// Movable bodies of islands first … last − 1, island by island (each island's ascending).
  std::span<const uint32_t> island_bodies(uint32_t first, uint32_t last) const {
    return std::span(bodies_).subspan(island_body_begin_[first],
                                      island_body_begin_[last] - island_body_begin_[first]);
  }
  /// Items of islands first … last − 1, island by island.
  std::span<const uint32_t> island_items(uint32_t first, uint32_t last) const {
    return std::span(items_).subspan(island_item_begin_[first],
                                     island_item_begin_[last] - island_item_begin_[first]);
  }
  /// Island of a movable body (after finish), or k_no_island.
  uint32_t island_of_body(uint32_t body) const { return body_island_[body]; }
  static constexpr uint32_t k_no_island = 0xffffffffu;

 private:
  uint32_t find(uint32_t i);

  std::vector<uint32_t> parent_;
  std::vector<uint8_t> movable_;
  std::vector<uint32_t> body_island_;
  std::vector<uint32_t> bodies_;
  std::vector<uint32_t> items_;
  std::vector<uint32_t> island_body_begin_{0};
  std::vector<uint32_t> island_item_begin_{0};
  // finish()'s scratch, kept so that a warmed-up step does not allocate.
  std::vector<uint32_t> root_island_, body_count_, item_count_, between_movable_count_,
      item_island_, order_, order_scratch_, rank_, body_fill_, item_fill_, against_immovable_fill_;
  // Set in item_island_ for an item against an immovable body. Island numbers stay below it:
  // there are no more islands than bodies, and finish() asserts it.
  static constexpr uint32_t k_against_immovable = 0x80000000u;
};

}  // namespace atl
