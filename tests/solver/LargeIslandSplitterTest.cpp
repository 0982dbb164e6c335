// LargeIslandSplitter on hand-made islands (seed 001 §4): every item in exactly one split, no
// two items of a parallel split sharing a movable body, immovable bodies blocking nothing, the
// 128-item threshold, small splits (below a lane block, 8 items) merged into the non-parallel
// split, batches of 16, and groups of small islands split as one.

#include "atoll/solver/LargeIslandSplitter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include "atoll/constraint/ConstraintManager.h"
#include "atoll/solver/IslandBuilder.h"
#include "atoll/solver/IslandSolver.h"

namespace atl {
namespace large_island_splitter_test {
namespace {

using Splitter = LargeIslandSplitter;

// An island by hand: items are (body1, body2) pairs over solver bodies; `movable` marks the
// movable ones. Constraints and contacts are given separately, each listed 0..n-1.
struct Island {
  std::vector<uint8_t> movable;
  std::vector<uint32_t> constraint_body1, constraint_body2;
  std::vector<uint32_t> contact_body1, contact_body2;

  uint32_t add_body(bool is_movable) {
    movable.push_back(is_movable ? 1 : 0);
    return static_cast<uint32_t>(movable.size() - 1);
  }
  void contact(uint32_t a, uint32_t b) {
    contact_body1.push_back(a);
    contact_body2.push_back(b);
  }
  void constraint(uint32_t a, uint32_t b) {
    constraint_body1.push_back(a);
    constraint_body2.push_back(b);
  }
  size_t num_items() const { return constraint_body1.size() + contact_body1.size(); }

  // Splits the whole island as island 0; returns split_island's answer.
  bool split(Splitter& splitter) const {
    std::vector<uint32_t> bodies;
    for (uint32_t b = 0; b < movable.size(); ++b)
      if (movable[b]) bodies.push_back(b);
    std::vector<uint32_t> constraints(constraint_body1.size()), contacts(contact_body1.size());
    std::iota(constraints.begin(), constraints.end(), 0u);
    std::iota(contacts.begin(), contacts.end(), 0u);
    splitter.begin(1, static_cast<uint32_t>(movable.size()));
    return splitter.split_island(0, bodies, constraints, constraint_body1, constraint_body2,
                                 contacts, contact_body1, contact_body2, movable);
  }
};

// Checks the invariants of a split island and returns the split sizes.
std::vector<uint32_t> check_splits(const Island& island, const IslandSplits& splits) {
  std::vector<uint32_t> sizes;
  std::vector<int> constraint_seen(island.constraint_body1.size(), 0);
  std::vector<int> contact_seen(island.contact_body1.size(), 0);
  for (uint32_t s = 0; s < splits.num_splits(); ++s) {
    sizes.push_back(splits.num_items(s));
    EXPECT_TRUE(std::is_sorted(splits.constraints(s).begin(), splits.constraints(s).end()));
    std::set<uint32_t> used;
    const bool parallel = !splits.is_non_parallel(s);
    // The non-parallel split's contacts in the island's order, a parallel split's by their
    // lower movable body, ties in the island's order.
    const auto key = [&](uint32_t c) -> uint64_t {
      const auto movable = [&](uint32_t b) {
        return b < island.movable.size() && island.movable[b];
      };
      const uint32_t b1 = island.contact_body1[c], b2 = island.contact_body2[c];
      const uint32_t lower = !movable(b1) ? b2 : !movable(b2) ? b1 : std::min(b1, b2);
      return parallel ? (uint64_t{lower} << 32 | c) : c;
    };
    EXPECT_TRUE(std::is_sorted(splits.contacts(s).begin(), splits.contacts(s).end(),
                               [&](uint32_t a, uint32_t b) { return key(a) < key(b); }));
    const auto visit = [&](uint32_t a, uint32_t b) {
      for (uint32_t body : {a, b}) {
        if (body >= island.movable.size() || !island.movable[body] || !parallel) continue;
        EXPECT_TRUE(used.insert(body).second) << "split " << s << " uses body " << body << " twice";
      }
    };
    for (uint32_t c : splits.constraints(s)) {
      ++constraint_seen[c];
      visit(island.constraint_body1[c], island.constraint_body2[c]);
    }
    for (uint32_t c : splits.contacts(s)) {
      ++contact_seen[c];
      visit(island.contact_body1[c], island.contact_body2[c]);
    }
    // Merging leaves no parallel split below the combine threshold.
    if (parallel) {
      EXPECT_GE(splits.num_items(s), Splitter::k_split_combine_threshold);
    }
  }
  for (int n : constraint_seen) EXPECT_EQ(n, 1);
  for (int n : contact_seen) EXPECT_EQ(n, 1);
  EXPECT_LE(splits.num_splits(), Splitter::k_num_splits);
  return sizes;
}

// A grid of nx × nz movable boxes on a static floor: contacts to the +x and +z neighbours and
// to the floor, as a resting layer has.
Island grid_layer(uint32_t nx, uint32_t nz) {
  Island island;
  const uint32_t floor = island.add_body(false);
  for (uint32_t i = 0; i < nx * nz; ++i) island.add_body(true);
  const auto at = [&](uint32_t x, uint32_t z) { return 1 + x + nx * z; };
  for (uint32_t z = 0; z < nz; ++z)
    for (uint32_t x = 0; x < nx; ++x) {
      if (x + 1 < nx) island.contact(at(x, z), at(x + 1, z));
      if (z + 1 < nz) island.contact(at(x, z), at(x, z + 1));
      island.contact(floor, at(x, z));
    }
  return island;
}

TEST(LargeIslandSplitter, EveryItemInOneSplitAndNoSplitSharesAMovableBody) {
  // 12 × 12 boxes: 264 contacts between boxes and 144 with the floor (408 items).
  const Island island = grid_layer(12, 12);
  Splitter splitter;
  ASSERT_TRUE(island.split(splitter));
  const IslandSplits splits = splitter.island(0);
  ASSERT_FALSE(splits.empty());
  const std::vector<uint32_t> sizes = check_splits(island, splits);
  // A grid colours in 4 for the box-box contacts (greedy first fit may need a fifth), the floor
  // contacts fill in: at least 4 parallel splits.
  EXPECT_GE(sizes.size(), 4u);
  EXPECT_EQ(std::accumulate(sizes.begin(), sizes.end(), 0u), island.num_items());
  EXPECT_EQ(splitter.num_split_islands(), 1u);
}

TEST(LargeIslandSplitter, ImmovableBodiesDoNotBlock) {
  // 200 boxes each resting on the same static floor and joined to the world by a constraint:
  // every item's only movable body is its own box, so everything fits in one split.
  Island island;
  const uint32_t floor = island.add_body(false);
  const uint32_t kinematic = island.add_body(false);
  constexpr uint32_t k_world = 0xfffffffeu;  // ConstraintManager::k_world_entry
  for (uint32_t i = 0; i < 200; ++i) {
    const uint32_t box = island.add_body(true);
    island.contact(floor, box);
    island.contact(box, kinematic);
    island.constraint(k_world, box);
  }
  Splitter splitter;
  ASSERT_TRUE(island.split(splitter));
  const IslandSplits splits = splitter.island(0);
  check_splits(island, splits);
  // Each box is in three items: its constraint (split 0, constraints go first), then its two
  // contacts (splits 1 and 2). The floor, the kinematic body and the world block nothing.
  ASSERT_EQ(splits.num_splits(), 3u);
  EXPECT_FALSE(splits.is_non_parallel(2));
  EXPECT_EQ(splits.constraints(0).size(), 200u);
  EXPECT_EQ(splits.contacts(0).size(), 0u);
  EXPECT_EQ(splits.contacts(1).size(), 200u);
  EXPECT_EQ(splits.contacts(2).size(), 200u);
}

TEST(LargeIslandSplitter, ParallelSplitsListContactsByTheirLowerMovableBody) {
  // A row of 150 boxes on a floor, the floor contacts listed first and from the last box back
  // (contact 149 - i holds box i), then the row's contacts (i, i + 1). The floor contacts fill
  // split 0 (the floor blocks nothing); a parallel split lists them by box, so that a worker's
  // share of it holds a stretch of neighbouring boxes: contacts 149, 148, …, 0.
  Island island;
  const uint32_t floor = island.add_body(false);
  constexpr uint32_t n = 150;
  for (uint32_t i = 0; i < n; ++i) island.add_body(true);
  for (uint32_t i = 0; i < n; ++i) island.contact(floor, floor + n - i);
  for (uint32_t i = 1; i < n; ++i) island.contact(floor + i, floor + i + 1);
  Splitter splitter;
  ASSERT_TRUE(island.split(splitter));
  const IslandSplits splits = splitter.island(0);
  check_splits(island, splits);
  std::vector<uint32_t> expected(n);
  for (uint32_t i = 0; i < n; ++i) expected[i] = n - 1 - i;
  ASSERT_FALSE(splits.is_non_parallel(0));
  EXPECT_EQ(std::vector<uint32_t>(splits.contacts(0).begin(), splits.contacts(0).end()), expected);
}

TEST(LargeIslandSplitter, ThresholdIs128Items) {
  // 128 independent contacts (no shared body): not split; one more item: split (all in one).
  Island island;
  for (uint32_t i = 0; i < 128; ++i) {
    const uint32_t a = island.add_body(true);
    island.contact(a, island.add_body(true));
  }
  Splitter splitter;
  EXPECT_FALSE(island.split(splitter));
  EXPECT_TRUE(splitter.island(0).empty());
  EXPECT_EQ(splitter.num_split_islands(), 0u);
  const uint32_t a = island.add_body(true);
  island.constraint(a, island.add_body(true));
  ASSERT_TRUE(island.split(splitter));
  const IslandSplits splits = splitter.island(0);
  ASSERT_EQ(splits.num_splits(), 1u);
  EXPECT_EQ(splits.num_items(0), 129u);
  check_splits(island, splits);
}

TEST(LargeIslandSplitter, SmallSplitsMergeIntoTheNonParallelSplit) {
  // 100 independent contacts (split 0), then a star of 40 contacts around one hub: the hub's
  // first contact joins split 0, the next 30 open splits 1..30 with one item each, the last 9
  // fit nowhere. Splits 1..30 are too small and merge into the non-parallel split: 39 items.
  Island island;
  for (uint32_t i = 0; i < 100; ++i) {
    const uint32_t a = island.add_body(true);
    island.contact(a, island.add_body(true));
  }
  const uint32_t hub = island.add_body(true);
  for (uint32_t i = 0; i < 40; ++i) island.contact(hub, island.add_body(true));
  Splitter splitter;
  ASSERT_TRUE(island.split(splitter));
  const IslandSplits splits = splitter.island(0);
  check_splits(island, splits);
  ASSERT_EQ(splits.num_splits(), 2u);
  EXPECT_FALSE(splits.is_non_parallel(0));
  EXPECT_TRUE(splits.is_non_parallel(1));
  EXPECT_EQ(splits.num_items(0), 101u);
  EXPECT_EQ(splits.num_items(1), 39u);
  // The non-parallel split keeps the island's order: contacts 101..139.
  std::vector<uint32_t> expected(39);
  std::iota(expected.begin(), expected.end(), 101u);
  EXPECT_EQ(std::vector<uint32_t>(splits.contacts(1).begin(), splits.contacts(1).end()), expected);
}

TEST(LargeIslandSplitter, NoParallelSplitLeftMeansNotSplit) {
  // A star of 140 contacts around one hub: 31 splits of one item and 109 left over; all merge
  // into the non-parallel split, so the island is solved whole (not split).
  Island island;
  const uint32_t hub = island.add_body(true);
  for (uint32_t i = 0; i < 140; ++i) island.contact(hub, island.add_body(true));
  Splitter splitter;
  EXPECT_FALSE(island.split(splitter));
  EXPECT_TRUE(splitter.island(0).empty());
}

TEST(LargeIslandSplitter, SplitsOfALaneBlockStaySplit) {
  // Stars of contacts around `hubs` hubs, `per_hub` contacts each, hub by hub: hub h's k-th
  // contact goes to split k, so every split holds one contact per hub. Ten hubs: 14 splits of
  // 10 items, each at least a lane block (8), all kept parallel, as an island of a few hundred
  // items has (many_pyramids). Seven hubs: 20 splits of 7 items, all merged, not split.
  const auto stars = [](uint32_t hubs, uint32_t per_hub) {
    Island island;
    for (uint32_t h = 0; h < hubs; ++h) {
      const uint32_t hub = island.add_body(true);
      for (uint32_t k = 0; k < per_hub; ++k) island.contact(hub, island.add_body(true));
    }
    return island;
  };
  const Island ten = stars(10, 14);
  Splitter splitter;
  ASSERT_TRUE(ten.split(splitter));
  const IslandSplits splits = splitter.island(0);
  check_splits(ten, splits);
  ASSERT_EQ(splits.num_splits(), 14u);
  for (uint32_t s = 0; s < splits.num_splits(); ++s) {
    EXPECT_FALSE(splits.is_non_parallel(s)) << s;
    EXPECT_EQ(splits.num_items(s), 10u) << s;
  }
  const Island seven = stars(7, 20);
  EXPECT_FALSE(seven.split(splitter));
  EXPECT_TRUE(splitter.island(0).empty());
}

TEST(LargeIslandSplitter, ConstraintsAreAssignedBeforeContacts) {
  // Box pairs joined by a constraint and touching: the constraint takes split 0, the contact
  // split 1.
  Island island;
  for (uint32_t i = 0; i < 70; ++i) {
    const uint32_t a = island.add_body(true);
    const uint32_t b = island.add_body(true);
    island.contact(a, b);
    island.constraint(a, b);
  }
  Splitter splitter;
  ASSERT_TRUE(island.split(splitter));
  const IslandSplits splits = splitter.island(0);
  check_splits(island, splits);
  ASSERT_EQ(splits.num_splits(), 2u);
  EXPECT_EQ(splits.constraints(0).size(), 70u);
  EXPECT_EQ(splits.contacts(0).size(), 0u);
  EXPECT_EQ(splits.constraints(1).size(), 0u);
  EXPECT_EQ(splits.contacts(1).size(), 70u);
}

TEST(LargeIslandSplitter, BatchesOf16CoverEachSplitInOrder) {
  // 20 constraints then 110 contacts, all on separate bodies: one split of 130 items, cut into
  // 8 batches of 16 and one of 2, the second batch crossing from constraints to contacts.
  Island island;
  for (uint32_t i = 0; i < 20; ++i) {
    const uint32_t a = island.add_body(true);
    island.constraint(a, island.add_body(true));
  }
  for (uint32_t i = 0; i < 110; ++i) {
    const uint32_t a = island.add_body(true);
    island.contact(a, island.add_body(true));
  }
  Splitter splitter;
  ASSERT_TRUE(island.split(splitter));
  const IslandSplits splits = splitter.island(0);
  ASSERT_EQ(splits.num_splits(), 1u);
  ASSERT_EQ(splits.num_items(0), 130u);
  EXPECT_EQ(splits.num_batches(0), 9u);  // ceil(130 / 16)
  std::vector<uint32_t> constraints, contacts;
  for (uint32_t b = 0; b < splits.num_batches(0); ++b) {
    const SplitBatch batch = splits.batch(0, b);
    const size_t n = batch.constraints.size() + batch.contacts.size();
    EXPECT_EQ(n, b + 1 < splits.num_batches(0) ? 16u : 2u);
    constraints.insert(constraints.end(), batch.constraints.begin(), batch.constraints.end());
    contacts.insert(contacts.end(), batch.contacts.begin(), batch.contacts.end());
  }
  EXPECT_EQ(splits.batch(0, 1).constraints.size(), 4u);
  EXPECT_EQ(splits.batch(0, 1).contacts.size(), 12u);
  EXPECT_EQ(constraints,
            std::vector<uint32_t>(splits.constraints(0).begin(), splits.constraints(0).end()));
  EXPECT_EQ(contacts, std::vector<uint32_t>(splits.contacts(0).begin(), splits.contacts(0).end()));
}

TEST(LargeIslandSplitter, SameInputSameSplitsAndScratchIsReset) {
  // Splitting twice with the same splitter gives the same splits (the body masks are cleared
  // after each island, so the second run starts clean).
  const Island island = grid_layer(10, 10);
  Splitter splitter;
  ASSERT_TRUE(island.split(splitter));
  std::vector<std::vector<uint32_t>> first;
  for (uint32_t s = 0; s < splitter.island(0).num_splits(); ++s)
    first.emplace_back(splitter.island(0).contacts(s).begin(),
                       splitter.island(0).contacts(s).end());
  ASSERT_TRUE(island.split(splitter));
  ASSERT_EQ(splitter.island(0).num_splits(), first.size());
  for (uint32_t s = 0; s < first.size(); ++s)
    EXPECT_EQ(std::vector<uint32_t>(splitter.island(0).contacts(s).begin(),
                                    splitter.island(0).contacts(s).end()),
              first[s]);
}

// Every island's splits as lists: per split, its contacts, then whether it is the
// non-parallel one.
std::vector<std::vector<std::vector<uint32_t>>> all_splits(const Splitter& splitter,
                                                           uint32_t num_islands) {
  std::vector<std::vector<std::vector<uint32_t>>> out(num_islands);
  for (uint32_t i = 0; i < num_islands; ++i) {
    const IslandSplits splits = splitter.island(i);
    for (uint32_t s = 0; s < splits.num_splits(); ++s) {
      out[i].emplace_back(splits.contacts(s).begin(), splits.contacts(s).end());
      out[i].back().push_back(splits.is_non_parallel(s) ? 1u : 0u);
    }
  }
  return out;
}

// colour_all fits every contact of the step at once, before the islands are known (with
// threads, beside the linking); prepare then splits each island from that fit. It must give
// exactly the splits of fitting each island's own items, in every case the step meets: several
// large islands, small ones, contacts against immovable bodies (fitted after the island's
// others), a contact with no movable body (in no island), and contacts whose index order is
// not their key order (the counting sort in place of the merge).
TEST(LargeIslandSplitter, TheFitOfTheWholeStepGivesEveryIslandItsOwnSplits) {
  Island step;
  const uint32_t floor = step.add_body(false);
  const uint32_t kinematic = step.add_body(false);
  // Two layers of boxes (two large islands) and a few small islands, numbered interleaved.
  const uint32_t first = static_cast<uint32_t>(step.movable.size());
  for (uint32_t i = 0; i < 2 * 144 + 6; ++i) step.add_body(true);
  const auto box = [&](uint32_t layer, uint32_t x, uint32_t z) {
    return first + 2 * (x + 12 * z) + layer;
  };
  std::mt19937 random(7);
  std::vector<std::pair<uint32_t, uint32_t>> contacts;
  for (uint32_t layer = 0; layer < 2; ++layer)
    for (uint32_t z = 0; z < 12; ++z)
      for (uint32_t x = 0; x < 12; ++x) {
        if (x + 1 < 12) contacts.emplace_back(box(layer, x, z), box(layer, x + 1, z));
        if (z + 1 < 12) contacts.emplace_back(box(layer, x, z), box(layer, x, z + 1));
        contacts.emplace_back(layer == 0 ? floor : kinematic, box(layer, x, z));
      }
  for (uint32_t k = 0; k < 6; k += 2) contacts.emplace_back(first + 288 + k, first + 289 + k);
  contacts.emplace_back(floor, kinematic);  // nothing movable: in no island
  for (int order = 0; order < 2; ++order) {
    // First in key order, then shuffled (the keys fall many times).
    if (order == 1) std::shuffle(contacts.begin(), contacts.end(), random);
    Island island = step;
    for (const auto& [a, b] : contacts) island.contact(a, b);
    IslandBuilder islands;
    islands.begin(island.movable);
    for (size_t k = 0; k < contacts.size(); ++k)
      if (island.movable[contacts[k].first] && island.movable[contacts[k].second])
        islands.link(contacts[k].first, contacts[k].second);
    islands.finish(island.contact_body1, island.contact_body2);
    ASSERT_EQ(islands.num_islands(), 5u);
    IslandConstraints no_constraints;
    no_constraints.begin.assign(islands.num_islands() + 1, 0);
    const ConstraintManager joints;

    Splitter own_fit;
    own_fit.prepare(true, islands, no_constraints, joints, island.contact_body1,
                    island.contact_body2, island.movable);
    ASSERT_EQ(own_fit.num_split_islands(), 2u);
    Splitter whole_step;
    whole_step.colour_all({}, {}, island.contact_body1, island.contact_body2, island.movable);
    whole_step.prepare(true, islands, no_constraints, joints, island.contact_body1,
                       island.contact_body2, island.movable);
    EXPECT_EQ(all_splits(whole_step, 5), all_splits(own_fit, 5)) << "order " << order;
    // The fit is for one prepare only: the next one fits each island itself again.
    whole_step.prepare(true, islands, no_constraints, joints, island.contact_body1,
                       island.contact_body2, island.movable);
    EXPECT_EQ(all_splits(whole_step, 5), all_splits(own_fit, 5)) << "order " << order;
    for (uint32_t i = 0; i < 2; ++i) EXPECT_GE(own_fit.island(i).num_splits(), 4u);
  }
}

// Islands of one key (key_island_groups) are split in groups, whatever the splitter's own switch
// says: a run of them with more than 128 items in all is cut into groups of more than 512 items
// (k_group_items) or an eighth of the run's if that is less, but not less than 128, the last
// taking the rest; a key change and an island to be solved alone cut a run, and a run of at most
// 128 items stays island by island. In a group every item gets the split its own island's fit
// would give it (here a box's k-th contact with the floor goes to split k), and the colour_all
// fit gives the same groups.
TEST(LargeIslandSplitter, IslandsOfOneKeyAreSplitInGroups) {
  // Island 0: a 12 × 12 layer (408 items, split on its own when the splitter is on); islands
  // 1 … 300: one box each with 16 contacts with the floor, in body order.
  constexpr uint32_t k_contacts = 16;
  Island step = grid_layer(12, 12);
  const uint32_t first_box = static_cast<uint32_t>(step.movable.size());
  const uint32_t first_box_contact = static_cast<uint32_t>(step.contact_body1.size());
  for (uint32_t i = 0; i < 300; ++i) {
    const uint32_t box = step.add_body(true);
    for (uint32_t k = 0; k < k_contacts; ++k) step.contact(0, box);
  }
  IslandBuilder islands;
  islands.begin(step.movable);
  for (size_t k = 0; k < step.contact_body1.size(); ++k)
    islands.link(step.contact_body1[k], step.contact_body2[k]);
  islands.finish(step.contact_body1, step.contact_body2);
  ASSERT_EQ(islands.num_islands(), 301u);
  ASSERT_EQ(islands.island_bodies(1)[0], first_box);
  IslandConstraints no_constraints;
  no_constraints.begin.assign(islands.num_islands() + 1, 0);
  const ConstraintManager joints;
  // Islands 1 … 270 key 1 (4 320 items), island 271 alone, islands 272 … 290 key 2 (304
  // items), 291 … 298 key 3 (128 items), 299 and 300 key 4.
  std::vector<uint64_t> keys(islands.num_islands());
  for (uint32_t i = 0; i < keys.size(); ++i)
    keys[i] = i == 0 || i == 271 ? Splitter::k_solve_alone
              : i < 271          ? 1
              : i < 291          ? 2
              : i < 299          ? 3
                                 : 4;
  static_assert(Splitter::k_group_items == 512 && Splitter::k_groups_per_run == 8,
                "the groups below assume groups of more than 512 items or an eighth of a run");
  // Key 1: groups of 33 islands (528 items > 512), the eighth taking the last 39. Key 2: an eighth
  // of 304 is below 128, so groups of 9 islands (144 > 128), the second taking the last 10.
  const std::vector<std::pair<uint32_t, uint32_t>> groups{
      {1, 34},    {34, 67},   {67, 100},  {100, 133}, {133, 166},
      {166, 199}, {199, 232}, {232, 271}, {272, 281}, {281, 291}};

  for (const bool enabled : {true, false})
    for (const bool coloured : {false, true}) {
      SCOPED_TRACE(testing::Message() << "splitter " << enabled << ", colour_all " << coloured);
      Splitter splitter;
      if (coloured)
        splitter.colour_all({}, {}, step.contact_body1, step.contact_body2, step.movable);
      splitter.prepare(enabled, islands, no_constraints, joints, step.contact_body1,
                       step.contact_body2, step.movable, keys);
      EXPECT_EQ(splitter.num_split_islands(), enabled ? 1u : 0u);
      EXPECT_EQ(splitter.num_groups(), groups.size());
      std::vector<uint32_t> leaders;
      if (enabled) leaders.push_back(0);
      std::vector<uint32_t> group_end(islands.num_islands());
      for (uint32_t i = 0; i < islands.num_islands(); ++i) group_end[i] = i + 1;
      std::vector<bool> member(islands.num_islands(), false);
      for (const auto& [leader, end] : groups) {
        leaders.push_back(leader);
        group_end[leader] = end;
        for (uint32_t i = leader + 1; i < end; ++i) member[i] = true;
      }
      EXPECT_EQ(
          std::vector<uint32_t>(splitter.split_islands().begin(), splitter.split_islands().end()),
          leaders);
      for (uint32_t i = 0; i < islands.num_islands(); ++i) {
        EXPECT_EQ(splitter.in_earlier_group(i), member[i]) << "island " << i;
        EXPECT_EQ(splitter.group_end(i), group_end[i]) << "island " << i;
        if (std::find(leaders.begin(), leaders.end(), i) == leaders.end()) {
          EXPECT_TRUE(splitter.island(i).empty()) << "island " << i;
        }
      }
      for (const auto& [leader, end] : groups) {
        const IslandSplits splits = splitter.island(leader);
        ASSERT_EQ(splits.num_splits(), k_contacts);
        std::vector<uint32_t> seen;
        for (uint32_t s = 0; s < k_contacts; ++s) {
          EXPECT_FALSE(splits.is_non_parallel(s));
          EXPECT_EQ(splits.contacts(s).size(), end - leader);
          std::set<uint32_t> bodies;
          for (const uint32_t c : splits.contacts(s)) {
            seen.push_back(c);
            EXPECT_TRUE(bodies.insert(step.contact_body2[c]).second) << "split " << s;
            // A box's k-th contact is in split k, as in its own island.
            EXPECT_EQ((c - first_box_contact) % k_contacts, s);
          }
        }
        std::sort(seen.begin(), seen.end());
        const std::span<const uint32_t> items = islands.island_items(leader, end);
        std::vector<uint32_t> expected(items.begin(), items.end());
        std::sort(expected.begin(), expected.end());
        EXPECT_EQ(seen, expected) << "group " << leader;
      }
    }
}

}  // namespace
}  // namespace large_island_splitter_test
}  // namespace atl
