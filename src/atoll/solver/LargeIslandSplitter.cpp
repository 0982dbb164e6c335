#include "atoll/solver/LargeIslandSplitter.h"

#include <algorithm>
#include <array>
#include <bit>

#include "atoll/constraint/ConstraintManager.h"
#include "atoll/solver/IslandBuilder.h"
#include "atoll/solver/IslandSolver.h"

namespace atl {

namespace {

// Whether solver body `b` is moved by impulses (an index at or past movable.size(), the world,
// is not).
bool is_movable(uint32_t b, std::span<const uint8_t> movable) {
  return b < movable.size() && movable[b] != 0;
}

}  // namespace

uint32_t IslandSplits::num_batches(uint32_t s) const {
  return (num_items(s) + LargeIslandSplitter::k_batch_size - 1) / LargeIslandSplitter::k_batch_size;
}

SplitBatch IslandSplits::batch(uint32_t s, uint32_t b) const {
  const std::span<const uint32_t> c = constraints(s);
  const std::span<const uint32_t> k = contacts(s);
  const size_t n = c.size() + k.size();
  const size_t lo = std::min<size_t>(static_cast<size_t>(b) * LargeIslandSplitter::k_batch_size, n);
  const size_t hi = std::min<size_t>(lo + LargeIslandSplitter::k_batch_size, n);
  SplitBatch out;
  if (lo < c.size()) out.constraints = c.subspan(lo, std::min(hi, c.size()) - lo);
  const size_t k_lo = std::max(lo, c.size()) - c.size();
  const size_t k_hi = std::max(hi, c.size()) - c.size();
  out.contacts = k.subspan(k_lo, k_hi - k_lo);
  return out;
}

void LargeIslandSplitter::begin(uint32_t num_islands, uint32_t num_bodies) {
  islands_.assign(num_islands, IslandRange{});
  splits_.clear();
  constraint_items_.clear();
  contact_items_.clear();
  num_split_islands_ = 0;
  num_groups_ = 0;
  split_list_.clear();
  // Masks are zero outside split_island, so growing keeps them all zero.
  if (body_mask_.size() < num_bodies) body_mask_.resize(num_bodies, 0);
}

uint8_t LargeIslandSplitter::fit(uint32_t b1, uint32_t b2, std::span<const uint8_t> movable) {
  const bool m1 = is_movable(b1, movable);
  const bool m2 = is_movable(b2, movable);
  const uint32_t used = (m1 ? body_mask_[b1] : 0u) | (m2 ? body_mask_[b2] : 0u);
  constexpr uint32_t k_parallel = (1u << k_non_parallel_split) - 1u;
  const uint32_t free = ~used & k_parallel;
  if (free == 0) return static_cast<uint8_t>(k_non_parallel_split);
  const uint32_t s = static_cast<uint32_t>(std::countr_zero(free));
  const uint32_t bit = 1u << s;
  if (m1) body_mask_[b1] |= bit;
  if (m2) body_mask_[b2] |= bit;
  return static_cast<uint8_t>(s);
}

void LargeIslandSplitter::colour_all(std::span<const uint32_t> constraint_body1,
                                     std::span<const uint32_t> constraint_body2,
                                     std::span<const uint32_t> contact_body1,
                                     std::span<const uint32_t> contact_body2,
                                     std::span<const uint8_t> movable) {
  if (body_mask_.size() < movable.size()) body_mask_.resize(movable.size(), 0);
  constraint_split_.resize(constraint_body1.size());
  for (size_t k = 0; k < constraint_body1.size(); ++k)
    constraint_split_[k] = fit(constraint_body1[k], constraint_body2[k], movable);
  // The contacts in their islands' order (IslandBuilder::finish): those between two movable
  // bodies, then those against an immovable one (listed on the way). A contact with no movable
  // body is in no island.
  contact_split_.resize(contact_body1.size());
  against_.clear();
  for (size_t k = 0; k < contact_body1.size(); ++k) {
    const uint32_t b1 = contact_body1[k];
    const uint32_t b2 = contact_body2[k];
    const bool m1 = is_movable(b1, movable);
    const bool m2 = is_movable(b2, movable);
    if (m1 && m2)
      contact_split_[k] = fit(b1, b2, movable);
    else if (m1 || m2)
      against_.push_back(static_cast<uint32_t>(k));
  }
  for (const uint32_t k : against_)
    contact_split_[k] = fit(contact_body1[k], contact_body2[k], movable);
  // Only movable bodies (solver entries below movable.size()) have masks set.
  std::fill(body_mask_.begin(), body_mask_.begin() + static_cast<std::ptrdiff_t>(movable.size()),
            0u);
  coloured_ = true;
}

void LargeIslandSplitter::prepare(bool enabled, const IslandBuilder& islands,
                                  const IslandConstraints& island_constraints,
                                  const ConstraintManager& constraints,
                                  std::span<const uint32_t> contact_body1,
                                  std::span<const uint32_t> contact_body2,
                                  std::span<const uint8_t> movable,
                                  std::span<const uint64_t> group_keys) {
  // colour_all's fit is for this prepare only.
  const bool coloured = coloured_;
  coloured_ = false;
  const uint32_t count = islands.num_islands();
  begin(count, static_cast<uint32_t>(movable.size()));
  // The constraints' bodies by solve-list position (the world, k_world_entry, lies past every
  // solver body and so counts as immovable).
  const auto split = [&](uint32_t first, uint32_t last) {
    return split_island(first, islands.island_bodies(first, last),
                        island_constraints.island_items(first, last), constraints.solved_bodies1(),
                        constraints.solved_bodies2(), islands.island_items(first, last),
                        contact_body1, contact_body2, movable, coloured, last > first + 1);
  };
  const auto num_items = [&](uint32_t first, uint32_t last) {
    return islands.island_items(first, last).size() +
           island_constraints.island_items(first, last).size();
  };
  // An island on its own is split when the splitter is on and it is large (tested here: most
  // islands are small, highspeed's 5 000 among them).
  const auto split_alone = [&](uint32_t i) {
    if (enabled && num_items(i, i + 1) > k_large_island_threshold) split(i, i + 1);
  };
  const auto key = [&](uint32_t i) { return group_keys.empty() ? k_solve_alone : group_keys[i]; };
  // Every island is looked at: IslandBuilder orders islands by their contacts alone, so an
  // island made large by its constraints may come after a small one (no early break). A run of
  // islands of one key with more than k_large_island_threshold items is cut into groups (the
  // last taking what is left, so that none of its islands is left out); the other islands, and
  // the groups of one island, are split on their own when large.
  for (uint32_t first = 0; first < count;) {
    const uint64_t run_key = key(first);
    uint32_t end = first + 1;
    if (run_key != k_solve_alone)
      while (end < count && key(end) == run_key) ++end;
    size_t left = num_items(first, end);
    if (run_key == k_solve_alone || left <= k_large_island_threshold) {
      for (uint32_t i = first; i < end; ++i) split_alone(i);
      first = end;
      continue;
    }
    // Groups of more than k_group_items items, but at least k_groups_per_run of them where
    // each can have more than k_large_island_threshold: workers solve groups beside each other
    // (three pyramids of 78 boxes, a run of 600 items, make three groups of one, not one).
    const size_t group_items =
        std::clamp<size_t>(left / k_groups_per_run, k_large_island_threshold, k_group_items);
    for (uint32_t leader = first; leader < end;) {
      uint32_t last = leader;
      size_t items = 0;
      while (last < end && (items <= group_items || left - items <= group_items))
        items += num_items(last, last + 1), ++last;
      left -= items;
      if (last > leader + 1 && split(leader, last)) {
        islands_[leader].group_end = last;
        for (uint32_t i = leader + 1; i < last; ++i) islands_[i].grouped = true;
      } else {
        for (uint32_t i = leader; i < last; ++i) split_alone(i);
      }
      leader = last;
    }
    first = end;
  }
}

bool LargeIslandSplitter::split_island(
    uint32_t island, std::span<const uint32_t> island_bodies,
    std::span<const uint32_t> constraint_items, std::span<const uint32_t> constraint_body1,
    std::span<const uint32_t> constraint_body2, std::span<const uint32_t> contact_items,
    std::span<const uint32_t> contact_body1, std::span<const uint32_t> contact_body2,
    std::span<const uint8_t> movable, bool coloured, bool group) {
  const size_t num_constraints = constraint_items.size();
  const size_t num_items = num_constraints + contact_items.size();
  if (num_items <= k_large_island_threshold) return false;

  // Greedy first fit, constraints first (see the header for why), in the island's order, or
  // colour_all's.
  std::array<uint32_t, k_num_splits> count{};
  item_split_.resize(num_items);
  if (coloured) {
    for (size_t k = 0; k < num_constraints; ++k)
      item_split_[k] = constraint_split_[constraint_items[k]];
    for (size_t k = 0; k < contact_items.size(); ++k)
      item_split_[num_constraints + k] = contact_split_[contact_items[k]];
  } else {
    for (size_t k = 0; k < num_constraints; ++k) {
      const uint32_t c = constraint_items[k];
      item_split_[k] = fit(constraint_body1[c], constraint_body2[c], movable);
    }
    for (size_t k = 0; k < contact_items.size(); ++k) {
      const uint32_t c = contact_items[k];
      item_split_[num_constraints + k] = fit(contact_body1[c], contact_body2[c], movable);
    }
    for (uint32_t b : island_bodies) body_mask_[b] = 0;
  }
  for (size_t k = 0; k < num_items; ++k) ++count[item_split_[k]];

  // Small splits join the non-parallel split; the rest keep their order, the non-parallel
  // split (when it has items) comes last.
  std::array<uint32_t, k_num_splits> target{};
  uint32_t num_out = 0;
  for (uint32_t s = 0; s < k_non_parallel_split; ++s) {
    if (count[s] == 0) continue;
    if (count[s] < k_split_combine_threshold) {
      count[k_non_parallel_split] += count[s];
      target[s] = k_num_splits;  // resolved below
    } else {
      target[s] = num_out++;
    }
  }
  // Nothing left to run in parallel: the island is solved whole, exactly as unsplit.
  if (num_out == 0) return false;
  const bool has_non_parallel = count[k_non_parallel_split] != 0;
  const uint32_t non_parallel = num_out;
  for (uint32_t s = 0; s < k_non_parallel_split; ++s)
    if (target[s] == k_num_splits) target[s] = non_parallel;
  target[k_non_parallel_split] = non_parallel;
  const uint32_t total = num_out + (has_non_parallel ? 1u : 0u);

  // Count each output split's constraints and contacts, then fill in the island's order.
  IslandRange& range = islands_[island];
  range.split_begin = static_cast<uint32_t>(splits_.size());
  range.split_end = range.split_begin + total;
  range.has_non_parallel = has_non_parallel;
  splits_.resize(range.split_end);
  const std::span<IslandSplit> out = std::span(splits_).subspan(range.split_begin, total);
  for (size_t k = 0; k < num_items; ++k) {
    IslandSplit& split = out[target[item_split_[k]]];
    ++(k < num_constraints ? split.constraint_end : split.contact_end);
  }
  uint32_t constraint_at = static_cast<uint32_t>(constraint_items_.size());
  uint32_t contact_at = static_cast<uint32_t>(contact_items_.size());
  for (IslandSplit& split : out) {
    split.constraint_begin = constraint_at;
    constraint_at += split.constraint_end;
    split.constraint_end = split.constraint_begin;
    split.contact_begin = contact_at;
    contact_at += split.contact_end;
    split.contact_end = split.contact_begin;
  }
  constraint_items_.resize(constraint_at);
  contact_items_.resize(contact_at);
  for (size_t k = 0; k < num_constraints; ++k)
    constraint_items_[out[target[item_split_[k]]].constraint_end++] = constraint_items[k];
  // The non-parallel split's contacts in the island's order: they may share bodies, so their
  // order is the solve's.
  for (size_t k = 0; k < contact_items.size(); ++k) {
    const uint32_t t = target[item_split_[num_constraints + k]];
    if (t == non_parallel) contact_items_[out[t].contact_end++] = contact_items[k];
  }
  // A parallel split's contacts by their key, ties in the island's order: any order solves them
  // the same, and in this one the workers' shares of every split (contiguous runs of its
  // batches) touch much the same bodies, so that fewer bodies move between cores from split to
  // split. In island (contact index) order the 2-thread pyramid's shares met at different
  // bodies in each split: 1 426 times a round a body went to the other core, 812 in key order
  // (solve_velocity 825 -> 760 ms over 500 steps).
  order_by_key(island_bodies, contact_items, contact_body1, contact_body2, movable);
  for (uint32_t k : contact_order_) {
    const uint32_t t = target[item_split_[num_constraints + k]];
    if (t != non_parallel) contact_items_[out[t].contact_end++] = contact_items[k];
  }
  ++(group ? num_groups_ : num_split_islands_);
  split_list_.push_back(island);
  return true;
}

void LargeIslandSplitter::order_by_key(std::span<const uint32_t> island_bodies,
                                       std::span<const uint32_t> contact_items,
                                       std::span<const uint32_t> contact_body1,
                                       std::span<const uint32_t> contact_body2,
                                       std::span<const uint8_t> movable) {
  // The key: the lower movable body. Worked out twice rather than kept (a list as long as the
  // island's contacts: the pyramid's peak memory grew by more than that).
  const auto key = [&](uint32_t k) {
    const uint32_t b1 = contact_body1[contact_items[k]];
    const uint32_t b2 = contact_body2[contact_items[k]];
    const bool m1 = is_movable(b1, movable);
    const bool m2 = is_movable(b2, movable);
    return !m1 ? b2 : !m2 ? b1 : std::min(b1, b2);
  };
  const uint32_t n = static_cast<uint32_t>(contact_items.size());
  contact_order_.resize(n);
  // The island's contacts are its contacts between movable bodies, then those against an
  // immovable one, each in index order (IslandBuilder::finish), which is mostly the key order
  // already: when the keys fall at most once, the two runs are merged (ties to the first run,
  // as the stable sort below gives them). On the pyramid this took 42 Mcycles per 500 steps as
  // a counting sort, with its scattered counters for every body.
  uint32_t second = n;  // where the keys fall
  for (uint32_t k = 1; k < n && second != 0; ++k)
    if (key(k) < key(k - 1)) second = second == n ? k : 0;
  if (second != 0) {
    uint32_t a = 0;
    uint32_t b = second;
    uint32_t out = 0;
    while (a < second && b < n) contact_order_[out++] = key(b) < key(a) ? b++ : a++;
    while (a < second) contact_order_[out++] = a++;
    while (b < n) contact_order_[out++] = b++;
    return;
  }
  // Else a counting sort: the keys are the island's bodies, in ascending order.
  if (body_cursor_.size() < body_mask_.size()) body_cursor_.resize(body_mask_.size(), 0);
  for (uint32_t k = 0; k < n; ++k) ++body_cursor_[key(k)];
  uint32_t start = 0;
  for (uint32_t b : island_bodies) {
    const uint32_t count = body_cursor_[b];
    body_cursor_[b] = start;
    start += count;
  }
  for (uint32_t k = 0; k < n; ++k) contact_order_[body_cursor_[key(k)]++] = k;
  for (uint32_t b : island_bodies) body_cursor_[b] = 0;
}

}  // namespace atl
