#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "atoll/collision/broadphase/DynamicTree.h"
#include "atoll/core/Random.h"

namespace atl {
namespace dynamic_tree_test {
namespace {

Vec3 random_vec(Random& rng, float lo, float hi) {
  return Vec3(rng.uniform(lo, hi), rng.uniform(lo, hi), rng.uniform(lo, hi));
}

AABox random_box(Random& rng, float world = 50.0f) {
  return AABox::from_center(random_vec(rng, -world, world), random_vec(rng, 0.05f, 3.0f));
}

// A live leaf of the tree under test.
struct Leaf {
  uint32_t proxy;
  uint32_t value;
};

std::vector<uint32_t> sorted(std::vector<uint32_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(DynamicTree, EmptyTreeIsValidAndReportsNothing) {
  DynamicTree tree;
  EXPECT_TRUE(tree.empty());
  EXPECT_EQ(tree.height(), 0u);
  EXPECT_FALSE(tree.bounds().is_valid());
  ASSERT_TRUE(tree.validate().ok());
  int calls = 0;
  tree.query_aabox(AABox(Vec3::replicate(-1e6f), Vec3::replicate(1e6f)), [&](uint32_t) {
    ++calls;
    return true;
  });
  tree.query_point(Vec3::zero(), [&](uint32_t) {
    ++calls;
    return true;
  });
  tree.cast_ray(Vec3::zero(), Vec3(1, 0, 0), 1.0f, [&](uint32_t, float f) {
    ++calls;
    return f;
  });
  EXPECT_EQ(calls, 0);
  EXPECT_FALSE(tree.is_leaf(0));
}

TEST(DynamicTree, RejectsBadInputWithNamedErrors) {
  DynamicTree tree;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Result<uint32_t> bad = tree.insert(AABox(Vec3(0, nan, 0), Vec3(1, 1, 1)), 7);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(std::string(bad.error().message()).find("DynamicTree.insert.fat_box: must be finite"),
            std::string::npos)
      << bad.error().message();
  Result<uint32_t> inverted = tree.insert(AABox(Vec3(0, 2, 0), Vec3(1, 1, 1)), 7);
  ASSERT_FALSE(inverted.ok());
  EXPECT_NE(std::string(inverted.error().message()).find("min must be <= max"), std::string::npos);

  const uint32_t a = tree.insert(AABox(Vec3::zero(), Vec3(1, 1, 1)), 1).value();
  const uint32_t b = tree.insert(AABox(Vec3(2, 0, 0), Vec3(3, 1, 1)), 2).value();
  // The internal node is not a leaf; neither is an index past the end.
  for (uint32_t proxy = 0; proxy < 10; ++proxy) {
    if (proxy == a || proxy == b) continue;
    const Status s = tree.remove(proxy);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(std::string(s.error().message()).find("DynamicTree.remove.proxy"), std::string::npos);
  }
  EXPECT_FALSE(tree.update(a, AABox(Vec3::zero(), Vec3(1, 1, 1)), Vec3::zero(), -0.1f).ok());
  EXPECT_FALSE(tree.update(a, AABox(Vec3::zero(), Vec3(1, 1, 1)), Vec3(nan, 0, 0), 0.1f).ok());
  EXPECT_FALSE(tree.update(a, AABox(Vec3::zero(), Vec3(1, nan, 1)), Vec3::zero(), 0.1f).ok());
  ASSERT_TRUE(tree.remove(a).ok());
  EXPECT_FALSE(tree.remove(a).ok());  // twice
  EXPECT_FALSE(tree.update(a, AABox(Vec3::zero(), Vec3(1, 1, 1)), Vec3::zero(), 0.1f).ok());
  EXPECT_EQ(tree.size(), 1u);
  ASSERT_TRUE(tree.validate().ok());
}

TEST(DynamicTree, StaysValidUnderThousandsOfRandomOperations) {
  Random rng(1234);
  DynamicTree tree;
  std::vector<Leaf> live;
  std::vector<AABox> boxes;  // expected fat box per live entry
  uint32_t next_value = 0;
  int reinserted = 0;
  for (int op = 0; op < 6000; ++op) {
    const uint32_t choice = rng.next_u32() % 10;
    if (live.empty() || choice < 4) {
      const AABox box = random_box(rng);
      const uint32_t proxy = tree.insert(box, next_value).value();
      live.push_back({proxy, next_value++});
      boxes.push_back(box);
    } else if (choice < 6) {
      const size_t i = rng.next_u32() % live.size();
      ASSERT_TRUE(tree.remove(live[i].proxy).ok());
      live[i] = live.back();
      live.pop_back();
      boxes[i] = boxes.back();
      boxes.pop_back();
    } else {
      const size_t i = rng.next_u32() % live.size();
      const AABox& old_fat = boxes[i];
      // Mostly small moves, sometimes jumps.
      const float step = (rng.next_u32() % 4 == 0) ? 10.0f : 0.05f;
      const AABox tight =
          AABox::from_center(old_fat.center() + random_vec(rng, -step, step), old_fat.extent());
      const Vec3 displacement = random_vec(rng, -0.2f, 0.2f);
      const bool moved = tree.update(live[i].proxy, tight, displacement, 0.1f).value();
      if (moved) {
        boxes[i] = DynamicTree::fatten(tight, displacement, 0.1f);
        ++reinserted;
      }
    }
    ASSERT_EQ(tree.size(), live.size());
    if (op % 7 == 0 || op > 5900) {
      const Status s = tree.validate();
      ASSERT_TRUE(s.ok()) << "after op " << op << ": " << s.error().message();
    }
  }
  for (size_t i = 0; i < live.size(); ++i) {
    ASSERT_TRUE(tree.is_leaf(live[i].proxy));
    EXPECT_EQ(tree.value(live[i].proxy), live[i].value);
    EXPECT_EQ(tree.fat_box(live[i].proxy), boxes[i]);
  }
  EXPECT_GT(reinserted, 100);
  // Removing everything leaves an empty, valid tree that can be reused.
  for (const Leaf& leaf : live) ASSERT_TRUE(tree.remove(leaf.proxy).ok());
  EXPECT_TRUE(tree.empty());
  ASSERT_TRUE(tree.validate().ok());
  ASSERT_TRUE(tree.insert(random_box(rng), 1).ok());
  ASSERT_TRUE(tree.validate().ok());
  tree.clear();
  EXPECT_TRUE(tree.empty());
  ASSERT_TRUE(tree.validate().ok());
}

// Queries on a tree shaped by insertions, updates and removals; with the parameter set, on
// the same tree after rebuild().
class DynamicTreeQueries : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    Random rng(99);
    for (uint32_t i = 0; i < 1500; ++i) {
      const AABox box = random_box(rng, 20.0f);
      proxies_.push_back(tree_.insert(box, i).value());
      boxes_.push_back(box);
    }
    // Churn so that the queried tree is one shaped by removals and re-insertions too.
    for (uint32_t i = 0; i < 1500; i += 3) {
      const AABox tight = random_box(rng, 20.0f);
      if (tree_.update(proxies_[i], tight, Vec3::zero(), 0.0f).value()) boxes_[i] = tight;
    }
    for (uint32_t i = 1; i < 1500; i += 5) {
      ASSERT_TRUE(tree_.remove(proxies_[i]).ok());
      removed_.push_back(i);
    }
    ASSERT_TRUE(tree_.validate().ok());
    if (GetParam()) {
      const float ratio_before = tree_.area_ratio();
      tree_.rebuild();
      const Status s = tree_.validate();
      ASSERT_TRUE(s.ok()) << s.error().message();
      // Median splits: perfectly balanced, and tighter than the incremental tree here.
      EXPECT_LE(tree_.height(), 11u);  // ceil(log2(1200))
      EXPECT_LT(tree_.area_ratio(), ratio_before);
      for (uint32_t i = 0; i < 1500; ++i) {
        if (is_removed(i)) continue;
        ASSERT_TRUE(tree_.is_leaf(proxies_[i]));
        ASSERT_EQ(tree_.value(proxies_[i]), i);
        ASSERT_EQ(tree_.fat_box(proxies_[i]), boxes_[i]);
      }
    }
  }
  bool is_removed(uint32_t i) const {
    return std::binary_search(removed_.begin(), removed_.end(), i);
  }

  DynamicTree tree_;
  std::vector<uint32_t> proxies_;
  std::vector<AABox> boxes_;
  std::vector<uint32_t> removed_;
};

TEST_P(DynamicTreeQueries, BoxQueriesEqualBruteForce) {
  Random rng(7);
  size_t total = 0;
  for (int q = 0; q < 300; ++q) {
    const AABox query = AABox::from_center(random_vec(rng, -25, 25), random_vec(rng, 0.0f, 4.0f));
    std::vector<uint32_t> found;
    tree_.query_aabox(query, [&](uint32_t v) {
      found.push_back(v);
      return true;
    });
    std::vector<uint32_t> expected;
    for (uint32_t i = 0; i < boxes_.size(); ++i) {
      if (!is_removed(i) && boxes_[i].overlaps(query)) expected.push_back(i);
    }
    ASSERT_EQ(sorted(found), expected) << "query " << q;
    total += found.size();
  }
  EXPECT_GT(total, 300u);  // the queries do hit things
}

TEST_P(DynamicTreeQueries, PointQueriesEqualBruteForce) {
  Random rng(8);
  size_t total = 0;
  for (int q = 0; q < 1000; ++q) {
    const Vec3 p = random_vec(rng, -22, 22);
    std::vector<uint32_t> found;
    tree_.query_point(p, [&](uint32_t v) {
      found.push_back(v);
      return true;
    });
    std::vector<uint32_t> expected;
    for (uint32_t i = 0; i < boxes_.size(); ++i) {
      if (!is_removed(i) && boxes_[i].contains(p)) expected.push_back(i);
    }
    ASSERT_EQ(sorted(found), expected) << "query " << q;
    total += found.size();
  }
  EXPECT_GT(total, 10u);
}

TEST_P(DynamicTreeQueries, RayCastsEqualBruteForceAndFindTheClosestFirst) {
  Random rng(9);
  size_t total = 0;
  for (int q = 0; q < 300; ++q) {
    const Vec3 origin = random_vec(rng, -25, 25);
    Vec3 direction = random_vec(rng, -50, 50);
    if (q % 10 == 0) direction = Vec3(direction.x(), 0.0f, 0.0f);  // axis-parallel rays
    const float max_fraction = q % 3 == 0 ? 0.5f : 1.0f;
    const Vec3 inv = direction.reciprocal();

    std::vector<uint32_t> expected;
    float closest = k_float_max;
    for (uint32_t i = 0; i < boxes_.size(); ++i) {
      if (is_removed(i)) continue;
      const float f = boxes_[i].ray_fraction(origin, inv, max_fraction);
      if (f == k_float_max) continue;
      expected.push_back(i);
      closest = std::min(closest, f);
    }

    // All hits: the callback keeps the max fraction.
    std::vector<uint32_t> found;
    tree_.cast_ray(origin, direction, max_fraction, [&](uint32_t v, float f) {
      EXPECT_EQ(f, boxes_[v].ray_fraction(origin, inv, max_fraction));
      found.push_back(v);
      return max_fraction;
    });
    ASSERT_EQ(sorted(found), expected) << "ray " << q;
    total += found.size();

    // Closest hit: each hit shortens the ray; the last reported fraction is the minimum.
    float best = k_float_max;
    int calls = 0;
    tree_.cast_ray(origin, direction, max_fraction, [&](uint32_t, float f) {
      ++calls;
      best = std::min(best, f);
      return f;
    });
    EXPECT_EQ(best, closest);
    EXPECT_LE(static_cast<size_t>(calls), expected.size());

    // A negative return stops the cast at once.
    calls = 0;
    tree_.cast_ray(origin, direction, max_fraction, [&](uint32_t, float) {
      ++calls;
      return -1.0f;
    });
    EXPECT_EQ(calls, expected.empty() ? 0 : 1);
  }
  EXPECT_GT(total, 300u);
}

TEST_P(DynamicTreeQueries, BoxCastsEqualBruteForce) {
  // A moving box touches a leaf where the ray of its centre enters the leaf grown by its half
  // extent; long diagonal sweeps report far fewer leaves than a box query over the sweep.
  Random rng(10);
  size_t total = 0, over_sweep_bounds = 0;
  for (int q = 0; q < 300; ++q) {
    const AABox box = AABox::from_center(random_vec(rng, -25, 25), random_vec(rng, 0.0f, 1.0f));
    Vec3 direction = random_vec(rng, -30, 30);
    if (q % 10 == 0) direction = Vec3(0.0f, direction.y(), 0.0f);  // axis-parallel sweeps
    const float max_fraction = q % 3 == 0 ? 0.5f : 1.0f;
    const Vec3 inv = direction.reciprocal();
    std::vector<uint32_t> expected;
    for (uint32_t i = 0; i < boxes_.size(); ++i) {
      if (is_removed(i)) continue;
      const float f =
          boxes_[i].expanded(box.extent()).ray_fraction(box.center(), inv, max_fraction);
      if (f != k_float_max) expected.push_back(i);
    }
    std::vector<uint32_t> found;
    tree_.cast_aabox(box, direction, max_fraction, [&](uint32_t v, float f) {
      EXPECT_EQ(f, boxes_[v].expanded(box.extent()).ray_fraction(box.center(), inv, max_fraction));
      found.push_back(v);
      return max_fraction;
    });
    ASSERT_EQ(sorted(found), expected) << "cast " << q;
    total += found.size();
    const AABox sweep = AABox::merged(box, box.translated(direction * max_fraction));
    tree_.query_aabox(sweep, [&](uint32_t) {
      ++over_sweep_bounds;
      return true;
    });
  }
  EXPECT_GT(total, 300u);
  EXPECT_LT(2 * total, over_sweep_bounds);
}

INSTANTIATE_TEST_SUITE_P(Tree, DynamicTreeQueries, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? std::string("Rebuilt") : std::string("Incremental");
                         });

TEST(DynamicTree, RebuiltTreeKeepsWorkingIncrementally) {
  Random rng(4);
  DynamicTree tree;
  std::vector<uint32_t> proxies;
  tree.rebuild();  // empty: nothing to do
  for (uint32_t i = 0; i < 2; ++i) proxies.push_back(tree.insert(random_box(rng), i).value());
  tree.rebuild();
  ASSERT_TRUE(tree.validate().ok());
  EXPECT_EQ(tree.height(), 1u);
  for (uint32_t i = 2; i < 500; ++i) proxies.push_back(tree.insert(random_box(rng), i).value());
  tree.rebuild();
  ASSERT_TRUE(tree.validate().ok());
  EXPECT_EQ(tree.height(), 9u);  // ceil(log2(500))
  for (uint32_t i = 0; i < 500; i += 2) {
    (void)tree.update(proxies[i], random_box(rng), Vec3::zero(), 0.1f).value();
  }
  for (uint32_t i = 1; i < 500; i += 4) ASSERT_TRUE(tree.remove(proxies[i]).ok());
  for (uint32_t i = 0; i < 100; ++i) ASSERT_TRUE(tree.insert(random_box(rng), 1000 + i).ok());
  const Status s = tree.validate();
  ASSERT_TRUE(s.ok()) << s.error().message();
  EXPECT_EQ(tree.size(), 475u);
}

TEST(DynamicTree, ClosestFirstOrderPrunesMostCandidates) {
  // A ray along a row of 256 boxes inserted in random order: front-to-back traversal that
  // shortens the ray at each hit must report only a few of the boxes it passes through.
  DynamicTree tree;
  Random rng(21);
  std::vector<uint32_t> order(256);
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  for (size_t i = order.size() - 1; i > 0; --i)
    std::swap(order[i], order[rng.next_u32() % (i + 1)]);
  for (const uint32_t i : order) {
    const Vec3 c(2.0f * static_cast<float>(i), 0.0f, 0.0f);
    ASSERT_TRUE(tree.insert(AABox::from_center(c, Vec3::replicate(0.5f)), i).ok());
  }
  const Vec3 origin(-10.0f, 0.1f, 0.2f);
  const Vec3 direction(600.0f, 0.0f, 0.0f);
  size_t all = 0;
  tree.cast_ray(origin, direction, 1.0f, [&](uint32_t, float) {
    ++all;
    return 1.0f;
  });
  EXPECT_EQ(all, 256u);
  size_t closest_calls = 0;
  uint32_t closest = DynamicTree::k_null_node;
  float best = k_float_max;
  tree.cast_ray(origin, direction, 1.0f, [&](uint32_t v, float f) {
    ++closest_calls;
    if (f < best) {
      best = f;
      closest = v;
    }
    return f;
  });
  EXPECT_EQ(closest, 0u);
  EXPECT_LE(closest_calls, 8u);
}

TEST_P(DynamicTreeQueries, BoxQueryStopsWhenTheCallbackSaysSo) {
  int calls = 0;
  tree_.query_aabox(AABox(Vec3::replicate(-100), Vec3::replicate(100)), [&](uint32_t) {
    ++calls;
    return calls < 5;
  });
  EXPECT_EQ(calls, 5);
}

TEST(DynamicTree, StaysBalancedForSortedAndNestedInsertions) {
  DynamicTree sorted_tree;
  constexpr uint32_t k_count = 4096;  // log2 = 12
  for (uint32_t i = 0; i < k_count; ++i) {
    const Vec3 c(static_cast<float>(i), 0, 0);
    ASSERT_TRUE(sorted_tree.insert(AABox::from_center(c, Vec3::replicate(0.4f)), i).ok());
  }
  ASSERT_TRUE(sorted_tree.validate().ok());
  EXPECT_LE(sorted_tree.height(), 2u * 12u);

  // Boxes inside boxes inside boxes: no SAH choice separates them.
  DynamicTree nested;
  for (uint32_t i = 0; i < k_count; ++i) {
    const float half = 1.0f + static_cast<float>(i);
    ASSERT_TRUE(nested.insert(AABox::from_center(Vec3::zero(), Vec3::replicate(half)), i).ok());
  }
  ASSERT_TRUE(nested.validate().ok());
  EXPECT_LE(nested.height(), 2u * 12u);

  // Identical boxes.
  DynamicTree same;
  for (uint32_t i = 0; i < k_count; ++i) {
    ASSERT_TRUE(same.insert(AABox(Vec3::zero(), Vec3::replicate(1.0f)), i).ok());
  }
  ASSERT_TRUE(same.validate().ok());
  EXPECT_LE(same.height(), 2u * 12u);
  uint32_t hits = 0;
  same.query_point(Vec3::replicate(0.5f), [&](uint32_t) {
    ++hits;
    return true;
  });
  EXPECT_EQ(hits, k_count);
}

TEST(DynamicTree, SahKeepsTheTreeTight) {
  // A grid of unit boxes: a good tree's internal nodes add up to a small multiple of the root's
  // area per level; a random pairing would be far worse.
  DynamicTree tree;
  uint32_t value = 0;
  Random rng(3);
  std::vector<Vec3> centers;
  for (int x = 0; x < 20; ++x) {
    for (int z = 0; z < 20; ++z) centers.emplace_back(2.0f * x, 0.0f, 2.0f * z);
  }
  // Insert in a shuffled order.
  for (size_t i = centers.size() - 1; i > 0; --i) {
    std::swap(centers[i], centers[rng.next_u32() % (i + 1)]);
  }
  for (const Vec3& c : centers) {
    ASSERT_TRUE(tree.insert(AABox::from_center(c, Vec3::replicate(0.5f)), value++).ok());
  }
  ASSERT_TRUE(tree.validate().ok());
  EXPECT_LT(tree.area_ratio(), 25.0f);
  EXPECT_GT(tree.area_ratio(), 1.0f);
}

TEST(DynamicTree, SameOperationsBuildTheSameTree) {
  auto build = [](DynamicTree& tree, std::vector<uint32_t>& order) {
    Random rng(555);
    std::vector<uint32_t> proxies;
    for (uint32_t i = 0; i < 2000; ++i) proxies.push_back(tree.insert(random_box(rng), i).value());
    for (uint32_t i = 0; i < 2000; i += 2) {
      (void)tree.update(proxies[i], random_box(rng), random_vec(rng, -1, 1), 0.05f).value();
    }
    for (uint32_t i = 0; i < 2000; i += 7) ASSERT_TRUE(tree.remove(proxies[i]).ok());
    for (uint32_t i = 0; i < 300; ++i) proxies.push_back(tree.insert(random_box(rng), i).value());
    tree.query_aabox(AABox(Vec3::replicate(-100), Vec3::replicate(100)), [&](uint32_t v) {
      order.push_back(v);
      return true;
    });
    for (uint32_t p : proxies) order.push_back(tree.is_leaf(p) ? p : DynamicTree::k_null_node);
  };
  DynamicTree a, b;
  std::vector<uint32_t> order_a, order_b;
  build(a, order_a);
  build(b, order_b);
  EXPECT_EQ(order_a, order_b);
  EXPECT_EQ(a.height(), b.height());
  EXPECT_EQ(a.area_ratio(), b.area_ratio());
  EXPECT_EQ(a.bounds(), b.bounds());
}

TEST(DynamicTree, SmallMovesInsideTheFatBoxDoNotReinsert) {
  DynamicTree tree;
  const float margin = 0.1f;
  const AABox tight(Vec3(0, 0, 0), Vec3(1, 1, 1));
  const uint32_t proxy = tree.insert(DynamicTree::fatten(tight, Vec3::zero(), margin), 3).value();
  ASSERT_TRUE(tree.insert(AABox(Vec3(5, 5, 5), Vec3(6, 6, 6)), 4).ok());
  const AABox fat = tree.fat_box(proxy);
  EXPECT_EQ(fat, AABox(Vec3::replicate(-0.1f), Vec3::replicate(1.1f)));

  // Jitter within the margin, with a small predicted displacement: never re-inserted.
  Random rng(11);
  for (int i = 0; i < 200; ++i) {
    const Vec3 offset = random_vec(rng, -0.04f, 0.04f);
    const Vec3 displacement = random_vec(rng, -0.04f, 0.04f);
    EXPECT_FALSE(tree.update(proxy, tight.translated(offset), displacement, margin).value());
    EXPECT_EQ(tree.fat_box(proxy), fat);
  }
  // The tight box leaves the fat box: re-inserted with a fresh fat box stretched along the
  // displacement, keeping its proxy id.
  const Vec3 d(0.5f, 0, -0.25f);
  const AABox moved = tight.translated(Vec3(0.3f, 0, 0));
  EXPECT_TRUE(tree.update(proxy, moved, d, margin).value());
  const AABox expected(moved.min - Vec3(0.1f, 0.1f, 0.35f), moved.max + Vec3(0.6f, 0.1f, 0.1f));
  EXPECT_TRUE(tree.fat_box(proxy).min.is_close(expected.min, 1e-12f));
  EXPECT_TRUE(tree.fat_box(proxy).max.is_close(expected.max, 1e-12f));
  EXPECT_EQ(tree.value(proxy), 3u);

  // Still inside, but its predicted displacement would carry it out: re-inserted, so the fat
  // box covers the coming step's sweep.
  const AABox at_rest = tree.fat_box(proxy);
  EXPECT_FALSE(tree.update(proxy, moved, d, margin).value());
  EXPECT_TRUE(tree.update(proxy, moved, Vec3(0, 0.5f, 0), margin).value());
  EXPECT_FALSE(tree.fat_box(proxy) == at_rest);

  // A box stretched by a fast motion shrinks back once the body stops.
  EXPECT_TRUE(tree.update(proxy, moved, Vec3(20, 0, 0), margin).value());
  EXPECT_TRUE(tree.update(proxy, moved, Vec3::zero(), margin).value());
  EXPECT_EQ(tree.fat_box(proxy), DynamicTree::fatten(moved, Vec3::zero(), margin));
  ASSERT_TRUE(tree.validate().ok());
}

// move_leaves ends where update() leaf by leaf ends: the very same tree for a few moves, the
// rebuilt tree when more than a quarter of the leaves move to random places (HighSpeed: all
// of them each step; moving a little, the tree is refitted instead, see below).
TEST(DynamicTree, MoveLeavesEqualsUpdatesOrARebuild) {
  for (const uint32_t every : {9u, 2u}) {  // 1 leaf in 9 moves (re-inserted), 1 in 2 (rebuilt)
    Random rng(808);
    DynamicTree one_by_one, batched;
    std::vector<uint32_t> proxies;
    for (uint32_t i = 0; i < 900; ++i) {
      const AABox box = random_box(rng);
      proxies.push_back(one_by_one.insert(box, i).value());
      ASSERT_EQ(batched.insert(box, i).value(), proxies.back());
    }
    const float margin = 0.05f;
    for (int step = 0; step < 3; ++step) {
      std::vector<DynamicTree::LeafMove> moves;
      uint32_t updated = 0;
      for (uint32_t i = step % every; i < 900; i += every) {
        const AABox tight = random_box(rng);
        const Vec3 displacement = random_vec(rng, -4.0f, 4.0f);
        AABox box;
        const bool move = batched.needs_new_box(proxies[i], tight, displacement, margin, box);
        EXPECT_EQ(box, DynamicTree::fatten(tight, displacement, margin));
        if (move) moves.push_back({proxies[i], box});
        const bool reinserted = one_by_one.update(proxies[i], tight, displacement, margin).value();
        EXPECT_EQ(move, reinserted) << "leaf " << i;
        updated += reinserted ? 1 : 0;
      }
      ASSERT_TRUE(batched.move_leaves(moves).ok());
      const bool rebuilt = moves.size() * 4 > 900;
      EXPECT_EQ(rebuilt, every == 2u);
      // Measured: 100 of 900 move with every = 9, 450 with every = 2 (all the random boxes
      // leave their fat boxes).
      EXPECT_EQ(updated, 900u / every);
      if (rebuilt) one_by_one.rebuild();
      const Status s = batched.validate();
      ASSERT_TRUE(s.ok()) << s.error().message();
      // The same tree: same leaves, same shape, same visiting order.
      for (uint32_t p : proxies) ASSERT_EQ(batched.fat_box(p), one_by_one.fat_box(p));
      EXPECT_EQ(batched.height(), one_by_one.height());
      EXPECT_EQ(batched.area_ratio(), one_by_one.area_ratio());
      std::vector<uint32_t> order_a, order_b;
      const AABox everything(Vec3::replicate(-100), Vec3::replicate(100));
      one_by_one.query_aabox(everything, [&](uint32_t v) {
        order_a.push_back(v);
        return true;
      });
      batched.query_aabox(everything, [&](uint32_t v) {
        order_b.push_back(v);
        return true;
      });
      EXPECT_EQ(order_a, order_b);
      EXPECT_EQ(order_b.size(), 900u);
    }
  }
}

// Many leaves moving a little (slow bodies, or fast ones in formation): move_leaves keeps the
// tree's shape and refits its boxes; moving far apart, it rebuilds.
TEST(DynamicTree, MoveLeavesRefitsWhileTheTreeStaysTight) {
  Random rng(21);
  DynamicTree tree;
  std::vector<uint32_t> proxies;
  std::vector<AABox> boxes;
  for (uint32_t i = 0; i < 600; ++i) {
    boxes.push_back(random_box(rng));
    proxies.push_back(tree.insert(boxes.back(), i).value());
  }
  const auto visit_order = [&tree]() {
    std::vector<uint32_t> order;
    tree.query_aabox(AABox(Vec3::replicate(-200), Vec3::replicate(200)), [&](uint32_t v) {
      order.push_back(v);
      return true;
    });
    return order;
  };
  // A first mass move always rebuilds (no rebuilt area to compare with yet).
  std::vector<DynamicTree::LeafMove> moves;
  for (uint32_t i = 0; i < 600; ++i) moves.push_back({proxies[i], boxes[i]});
  ASSERT_TRUE(tree.move_leaves(moves).ok());
  DynamicTree rebuilt = tree;
  rebuilt.rebuild();
  EXPECT_EQ(visit_order(), [&] {
    std::vector<uint32_t> order;
    rebuilt.query_aabox(AABox(Vec3::replicate(-200), Vec3::replicate(200)), [&](uint32_t v) {
      order.push_back(v);
      return true;
    });
    return order;
  }());
  // Everything drifts by up to 0.3 m, three times: same shape, boxes refitted.
  const std::vector<uint32_t> shape = visit_order();
  const uint32_t height = tree.height();
  const float ratio = tree.area_ratio();
  for (int step = 0; step < 3; ++step) {
    const Vec3 drift = random_vec(rng, -0.1f, 0.1f);
    for (uint32_t i = 0; i < 600; ++i) {
      boxes[i] = boxes[i].translated(drift + random_vec(rng, -0.003f, 0.003f));
      moves[i].box = boxes[i];
    }
    ASSERT_TRUE(tree.move_leaves(moves).ok());
    const Status s = tree.validate();
    ASSERT_TRUE(s.ok()) << s.error().message();
    EXPECT_EQ(visit_order(), shape) << "step " << step;
    EXPECT_EQ(tree.height(), height);
    for (uint32_t i = 0; i < 600; ++i) ASSERT_EQ(tree.fat_box(proxies[i]), boxes[i]);
  }
  // Measured: area ratio 21.6943 before and 21.6937 after the drift (all boxes moved together,
  // each jittered by up to 3 mm per axis and step).
  EXPECT_NEAR(tree.area_ratio(), ratio, 0.01f * ratio);
  // Scattered anew: the refitted boxes would be far larger, so the tree is rebuilt.
  for (uint32_t i = 0; i < 600; ++i) moves[i].box = boxes[i] = random_box(rng);
  ASSERT_TRUE(tree.move_leaves(moves).ok());
  rebuilt = tree;
  rebuilt.rebuild();
  EXPECT_EQ(tree.area_ratio(), rebuilt.area_ratio());
  EXPECT_NE(visit_order(), shape);
  ASSERT_TRUE(tree.validate().ok());
}

TEST(DynamicTree, MoveLeavesRejectsBadInputAndChangesNothing) {
  Random rng(3);
  DynamicTree tree;
  std::vector<uint32_t> proxies;
  for (uint32_t i = 0; i < 100; ++i) proxies.push_back(tree.insert(random_box(rng), i).value());
  const float ratio = tree.area_ratio();
  const AABox first = tree.fat_box(proxies[0]);
  // The first move is good, the second bad: neither is applied (100 moves would rebuild).
  std::vector<DynamicTree::LeafMove> moves;
  for (uint32_t p : proxies) moves.push_back({p, random_box(rng)});
  moves[1].box = AABox(Vec3(1, 0, 0), Vec3(0, 1, 1));
  const Status inverted = tree.move_leaves(moves);
  ASSERT_FALSE(inverted.ok());
  EXPECT_NE(std::string(inverted.error().message()).find("DynamicTree.move_leaves.box"),
            std::string::npos);
  moves[1] = {12345u, random_box(rng)};
  const Status not_leaf = tree.move_leaves(moves);
  ASSERT_FALSE(not_leaf.ok());
  EXPECT_NE(std::string(not_leaf.error().message()).find("DynamicTree.move_leaves.proxy"),
            std::string::npos);
  EXPECT_EQ(tree.fat_box(proxies[0]), first);
  EXPECT_EQ(tree.area_ratio(), ratio);
  ASSERT_TRUE(tree.validate().ok());
  ASSERT_TRUE(tree.move_leaves({}).ok());
}

// The pair walk reports, once each, exactly the overlapping pairs with a marked leaf: within
// one tree and between two, for no, some and all leaves marked.
TEST(DynamicTree, OverlappingPairsEqualBruteForce) {
  Random rng(77);
  DynamicTree a, b;
  std::vector<AABox> boxes_a, boxes_b;
  std::vector<uint32_t> proxies_a;
  for (uint32_t i = 0; i < 700; ++i) {
    boxes_a.push_back(random_box(rng, 25.0f));
    proxies_a.push_back(a.insert(boxes_a.back(), i).value());
  }
  for (uint32_t i = 0; i < 300; ++i) {
    boxes_b.push_back(random_box(rng, 25.0f));
    ASSERT_TRUE(b.insert(boxes_b.back(), i).ok());
  }
  // Holes in the node array (free nodes) and a rebuilt tree must not matter.
  for (uint32_t i = 0; i < 700; i += 9) ASSERT_TRUE(a.remove(proxies_a[i]).ok());
  b.rebuild();
  const auto alive = [](uint32_t v) { return v % 9 != 0; };
  size_t self_total = 0, cross_total = 0;
  for (const uint32_t every : {0u, 7u, 1u}) {  // none, one in seven, all marked
    const auto marked = [every](uint32_t v) { return every != 0 && v % every == 0; };
    std::vector<uint8_t> marks_a, marks_b;
    a.mark_subtrees(marked, marks_a);
    b.mark_subtrees(marked, marks_b);
    std::vector<std::pair<uint32_t, uint32_t>> self, cross, expected_self, expected_cross;
    a.overlapping_pairs(marks_a, a, marks_a, [&](uint32_t x, uint32_t y) {
      self.emplace_back(std::min(x, y), std::max(x, y));
    });
    a.overlapping_pairs(marks_a, b, marks_b,
                        [&](uint32_t x, uint32_t y) { cross.emplace_back(x, y); });
    for (uint32_t x = 0; x < 700; ++x) {
      if (!alive(x)) continue;
      for (uint32_t y = x + 1; y < 700; ++y) {
        if (alive(y) && (marked(x) || marked(y)) && boxes_a[x].overlaps(boxes_a[y]))
          expected_self.emplace_back(x, y);
      }
      for (uint32_t y = 0; y < 300; ++y) {
        if ((marked(x) || marked(y)) && boxes_a[x].overlaps(boxes_b[y]))
          expected_cross.emplace_back(x, y);
      }
    }
    std::sort(self.begin(), self.end());
    std::sort(cross.begin(), cross.end());
    // Sorted lists compared whole: a pair reported twice would show.
    EXPECT_EQ(self, expected_self) << "one in " << every;
    EXPECT_EQ(cross, expected_cross) << "one in " << every;
    self_total += self.size();
    cross_total += cross.size();
  }
  // Measured: 361 pairs within the tree, 369 between the trees (over the three markings).
  EXPECT_GT(self_total, 300u);
  EXPECT_GT(cross_total, 300u);
}

// The walk cut into its first levels and the places below them (as the broadphase shares it
// among threads) reports the same pairs, once each, however many places are asked for.
TEST(DynamicTree, SplitPairWalkEqualsTheWholeWalk) {
  Random rng(78);
  DynamicTree a, b;
  for (uint32_t i = 0; i < 500; ++i) ASSERT_TRUE(a.insert(random_box(rng, 20.0f), i).ok());
  for (uint32_t i = 0; i < 200; ++i) ASSERT_TRUE(b.insert(random_box(rng, 20.0f), i).ok());
  const auto marked = [](uint32_t v) { return v % 3 != 0; };
  std::vector<uint8_t> marks_a, marks_b;
  a.mark_subtrees(marked, marks_a);
  b.mark_subtrees(marked, marks_b);
  for (const DynamicTree* other : {&a, &b}) {
    const std::vector<uint8_t>& other_marks = other == &a ? marks_a : marks_b;
    std::vector<std::pair<uint32_t, uint32_t>> whole;
    a.overlapping_pairs(marks_a, *other, other_marks,
                        [&](uint32_t x, uint32_t y) { whole.emplace_back(x, y); });
    std::sort(whole.begin(), whole.end());
    ASSERT_GT(whole.size(), 100u);
    for (const size_t places : {size_t{1}, size_t{2}, size_t{17}, size_t{128}, size_t{100000}}) {
      std::vector<std::pair<uint32_t, uint32_t>> split;
      const auto report = [&](uint32_t x, uint32_t y) { split.emplace_back(x, y); };
      // Places already in the list stay in front of the new ones.
      std::vector<DynamicTree::PairWalkEntry> entries{{7u, 9u}};
      a.split_overlapping_pairs(marks_a, *other, other_marks, places, entries, report);
      ASSERT_EQ(entries[0].a, 7u);
      ASSERT_EQ(entries[0].b, 9u);
      entries.erase(entries.begin());
      if (places <= 128) {
        EXPECT_GE(entries.size(), places);
      }
      // Walked last first, one at a time, as workers would in any order.
      for (size_t k = entries.size(); k-- > 0;)
        a.overlapping_pairs_from(marks_a, *other, other_marks,
                                 std::span<const DynamicTree::PairWalkEntry>(&entries[k], 1),
                                 report);
      std::sort(split.begin(), split.end());
      EXPECT_EQ(split, whole) << places << " places, " << (other == &a ? "self" : "cross");
    }
  }
}

}  // namespace
}  // namespace dynamic_tree_test
}  // namespace atl
