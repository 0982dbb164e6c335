#include "atoll/solver/IslandBuilder.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <utility>

#include "atoll/core/Assert.h"
#include "atoll/core/RadixSort.h"

namespace atl {

void IslandBuilder::begin(std::span<const uint8_t> movable) {
  const uint32_t n = static_cast<uint32_t>(movable.size());
  movable_.assign(movable.begin(), movable.end());
  parent_.resize(n);
  for (uint32_t i = 0; i < n; ++i) parent_[i] = i;
}

uint32_t IslandBuilder::find(uint32_t i) {
  // Path halving keeps the trees flat without recursion.
  while (parent_[i] != i) {
    parent_[i] = parent_[parent_[i]];
    i = parent_[i];
  }
  return i;
}

void IslandBuilder::link(uint32_t body_a, uint32_t body_b) {
  if (!movable_[body_a] || !movable_[body_b]) return;
  uint32_t a = find(body_a);
  uint32_t b = find(body_b);
  if (a == b) return;
  // The lower index becomes the root, so the result does not depend on the link order.
  if (b < a) std::swap(a, b);
  parent_[b] = a;
}

void IslandBuilder::link_concurrent(uint32_t body_a, uint32_t body_b) {
  if (!movable_[body_a] || !movable_[body_b]) return;
  const auto parent = [this](uint32_t i) { return std::atomic_ref<uint32_t>(parent_[i]); };
  // A parent is never above its child (parent ≤ child), so halving a path and hanging a root
  // under a lower one make no cycle, whatever the other threads do meanwhile.
  const auto root = [&parent](uint32_t i) {
    uint32_t p = parent(i).load(std::memory_order_relaxed);
    while (p != i) {
      const uint32_t grandparent = parent(p).load(std::memory_order_relaxed);
      if (grandparent != p)
        parent(i).compare_exchange_weak(p, grandparent, std::memory_order_relaxed);
      i = grandparent;
      p = parent(i).load(std::memory_order_relaxed);
    }
    return i;
  };
  uint32_t a = body_a;
  uint32_t b = body_b;
  while (true) {
    a = root(a);
    b = root(b);
    if (a == b) return;
    if (b < a) std::swap(a, b);
    // b is hung under a only if it is still a root; else another link moved it: look again.
    uint32_t expected = b;
    if (parent(b).compare_exchange_strong(expected, a, std::memory_order_relaxed)) return;
  }
}

void IslandBuilder::finish(std::span<const uint32_t> item_body1,
                           std::span<const uint32_t> item_body2) {
  ATOLL_ASSERT(item_body1.size() == item_body2.size());
  const uint32_t n = static_cast<uint32_t>(movable_.size());

  // Number the roots in body order: island ids before sorting by size.
  body_island_.assign(n, k_no_island);
  std::vector<uint32_t>& root_island = root_island_;
  root_island.assign(n, k_no_island);
  uint32_t num = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (!movable_[i]) continue;
    const uint32_t root = find(i);
    if (root_island[root] == k_no_island) root_island[root] = num++;
    body_island_[i] = root_island[root];
  }

  ATOLL_ASSERT(num < k_against_immovable, "island numbers leave k_against_immovable free");

  // Count bodies and items per island.
  std::vector<uint32_t>& body_count = body_count_;
  std::vector<uint32_t>& item_count = item_count_;
  body_count.assign(num, 0);
  item_count.assign(num, 0);
  for (uint32_t i = 0; i < n; ++i)
    if (body_island_[i] != k_no_island) ++body_count[body_island_[i]];
  // An item's island, with k_against_immovable set for an item against a static or kinematic
  // body (placed after the others, below), and the number of the others per island.
  std::vector<uint32_t>& item_island = item_island_;
  std::vector<uint32_t>& between_movable = between_movable_count_;
  between_movable.assign(num, 0);
  item_island.assign(item_body1.size(), k_no_island);
  for (size_t k = 0; k < item_body1.size(); ++k) {
    const bool movable1 = movable_[item_body1[k]] != 0;
    const bool movable2 = movable_[item_body2[k]] != 0;
    // Nothing to move (say a kinematic body against a static one): no island solves it.
    if (!movable1 && !movable2) continue;
    const uint32_t island = body_island_[movable1 ? item_body1[k] : item_body2[k]];
    ++item_count[island];
    if (movable1 && movable2) {
      ++between_movable[island];
      item_island[k] = island;
    } else {
      item_island[k] = island | k_against_immovable;
    }
  }

  // Largest islands first (they take longest, so parallel solving starts them first), ties in
  // island order: a stable radix sort of the islands in order by how many items they lack of
  // the largest (convex_vs_mesh's thousand islands of a few contacts each: one counting pass,
  // where a comparison sort took 1.3 % of its step).
  std::vector<uint32_t>& order = order_;
  order.resize(num);
  for (uint32_t i = 0; i < num; ++i) order[i] = i;
  const uint32_t most = num == 0 ? 0 : *std::max_element(item_count.begin(), item_count.end());
  radix_sort(order, order_scratch_, static_cast<uint32_t>(std::bit_width(most)),
             [&](uint32_t island) { return most - item_count[island]; });
  std::vector<uint32_t>& rank = rank_;
  rank.resize(num);
  for (uint32_t r = 0; r < num; ++r) rank[order[r]] = r;

  // Prefix sums in rank order, then scatter in ascending body/item order.
  island_body_begin_.assign(num + 1, 0);
  island_item_begin_.assign(num + 1, 0);
  for (uint32_t r = 0; r < num; ++r) {
    island_body_begin_[r + 1] = island_body_begin_[r] + body_count[order[r]];
    island_item_begin_[r + 1] = island_item_begin_[r] + item_count[order[r]];
  }
  bodies_.resize(island_body_begin_[num]);
  items_.resize(island_item_begin_[num]);
  std::vector<uint32_t>& body_fill = body_fill_;
  std::vector<uint32_t>& item_fill = item_fill_;
  std::vector<uint32_t>& against_fill = against_immovable_fill_;
  body_fill.assign(island_body_begin_.begin(), island_body_begin_.end() - 1);
  item_fill.assign(island_item_begin_.begin(), island_item_begin_.end() - 1);
  against_fill.resize(num);
  for (uint32_t r = 0; r < num; ++r) against_fill[r] = item_fill[r] + between_movable[order[r]];
  for (uint32_t i = 0; i < n; ++i) {
    if (body_island_[i] == k_no_island) continue;
    body_island_[i] = rank[body_island_[i]];
    bodies_[body_fill[body_island_[i]]++] = i;
  }
  // Items between two movable bodies first, items against a static or kinematic body last:
  // Gauss-Seidel leaves the last-solved constraints the most exact, and the supports are the
  // ones that must hold (a heavy box on a light one must not drive it into the floor, seed 000
  // E1), whatever order the bodies were created in.
  // One pass, each island's two kinds filled from their own starts.
  for (size_t k = 0; k < item_island.size(); ++k) {
    const uint32_t island = item_island[k];
    if (island == k_no_island) continue;
    if ((island & k_against_immovable) == 0)
      items_[item_fill[rank[island]]++] = static_cast<uint32_t>(k);
    else
      items_[against_fill[rank[island & ~k_against_immovable]]++] = static_cast<uint32_t>(k);
  }
}

}  // namespace atl
