#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "atoll/collision/broadphase/BroadPhase.h"
#include "atoll/collision/broadphase/BroadPhaseLayerTable.h"
#include "atoll/collision/broadphase/DefaultLayers.h"
#include "atoll/collision/broadphase/ObjectLayerPairTable.h"
#include "atoll/core/Random.h"

namespace atl {
namespace broad_phase_test {
namespace {

Vec3 random_vec(Random& rng, float lo, float hi) {
  return Vec3(rng.uniform(lo, hi), rng.uniform(lo, hi), rng.uniform(lo, hi));
}

AABox random_box(Random& rng, float world) {
  return AABox::from_center(random_vec(rng, -world, world), random_vec(rng, 0.1f, 2.0f));
}

bool contains_text(const Error& e, const std::string& text) {
  return std::string(e.message()).find(text) != std::string::npos;
}

// Every pair the rules of find_pairs admit, by testing all pairs of stored boxes.
std::vector<BodyPair> brute_force_pairs(const BroadPhase& bp, const ObjectLayerPairFilter& pairs,
                                        const std::vector<uint8_t>& active, uint32_t count) {
  std::vector<BodyPair> out;
  for (uint32_t a = 0; a < count; ++a) {
    if (!bp.contains(a)) continue;
    for (uint32_t b = a + 1; b < count; ++b) {
      if (!bp.contains(b) || (!active[a] && !active[b])) continue;
      if (!pairs.should_collide(bp.object_layer(a), bp.object_layer(b))) continue;
      if (bp.fat_box(a).overlaps(bp.fat_box(b))) out.push_back({a, b});
    }
  }
  return out;
}

std::vector<uint32_t> active_list(const std::vector<uint8_t>& active) {
  std::vector<uint32_t> list;
  for (uint32_t i = 0; i < active.size(); ++i) {
    if (active[i]) list.push_back(i);
  }
  return list;
}

std::vector<uint32_t> bodies_of(const std::vector<BroadPhaseHit>& hits) {
  std::vector<uint32_t> out;
  for (const BroadPhaseHit& h : hits) out.push_back(h.body_index);
  std::sort(out.begin(), out.end());
  return out;
}

// Three broadphase layers over four object layers: 0 static, 1 moving, 2 debris (moving, never
// hits other debris), 3 sensors (hit only moving).
struct TableLayers {
  TableLayers() : pairs(4), mapping(4, 3), vs_broadphase(make(pairs, mapping)) {}
  static ObjectVsBroadPhaseLayerTable make(ObjectLayerPairTable& pairs,
                                           BroadPhaseLayerTable& mapping) {
    EXPECT_TRUE(pairs.enable(0, 1).ok());
    EXPECT_TRUE(pairs.enable(0, 2).ok());
    EXPECT_TRUE(pairs.enable(1, 1).ok());
    EXPECT_TRUE(pairs.enable(1, 2).ok());
    EXPECT_TRUE(pairs.enable(1, 3).ok());
    EXPECT_TRUE(mapping.set(0, 0).ok());
    EXPECT_TRUE(mapping.set(1, 1).ok());
    EXPECT_TRUE(mapping.set(2, 1).ok());
    EXPECT_TRUE(mapping.set(3, 2).ok());
    return ObjectVsBroadPhaseLayerTable(mapping, 4, pairs);
  }
  ObjectLayerPairTable pairs;
  BroadPhaseLayerTable mapping;
  ObjectVsBroadPhaseLayerTable vs_broadphase;
};

TEST(BroadPhaseLayers, DefaultLayersFollowTheStaticRules) {
  const DefaultLayers layers;
  EXPECT_FALSE(layers.should_collide(layers::k_non_moving, layers::k_non_moving));
  EXPECT_TRUE(layers.should_collide(layers::k_non_moving, layers::k_moving));
  EXPECT_TRUE(layers.should_collide(layers::k_moving, layers::k_non_moving));
  EXPECT_TRUE(layers.should_collide(layers::k_moving, layers::k_moving));
  EXPECT_FALSE(layers.should_collide(layers::k_moving, ObjectLayer{7}));
  EXPECT_EQ(layers.num_broadphase_layers(), 2u);
  EXPECT_EQ(layers.broadphase_layer(layers::k_non_moving), broadphase_layers::k_non_moving);
  EXPECT_EQ(layers.broadphase_layer(layers::k_moving), broadphase_layers::k_moving);
  EXPECT_EQ(layers.broadphase_layer(ObjectLayer{7}), k_invalid_broadphase_layer);
  EXPECT_FALSE(layers.should_collide(layers::k_non_moving, broadphase_layers::k_non_moving));
  EXPECT_TRUE(layers.should_collide(layers::k_non_moving, broadphase_layers::k_moving));
  EXPECT_TRUE(layers.should_collide(layers::k_moving, broadphase_layers::k_non_moving));
  EXPECT_TRUE(layers.should_collide(layers::k_moving, broadphase_layers::k_moving));
  EXPECT_FALSE(layers.should_collide(ObjectLayer{7}, broadphase_layers::k_moving));
}

TEST(BroadPhaseLayers, TablesAreSymmetricAndCheckTheirRanges) {
  ObjectLayerPairTable table(3);
  EXPECT_FALSE(table.should_collide(1, 2));
  ASSERT_TRUE(table.enable(2, 1).ok());
  EXPECT_TRUE(table.should_collide(1, 2));
  EXPECT_TRUE(table.should_collide(2, 1));
  EXPECT_FALSE(table.should_collide(1, 1));
  ASSERT_TRUE(table.disable(1, 2).ok());
  EXPECT_FALSE(table.should_collide(2, 1));
  const Status bad = table.enable(1, 3);
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(
      contains_text(bad.error(), "ObjectLayerPairTable.enable: layer 3 must be < num_layers 3"))
      << bad.error().message();
  EXPECT_FALSE(table.should_collide(1, 3));

  BroadPhaseLayerTable mapping(3, 2);
  EXPECT_EQ(mapping.broadphase_layer(0), k_invalid_broadphase_layer);
  EXPECT_FALSE(mapping.set(3, 0).ok());
  const Status bad_bp = mapping.set(0, 2);
  ASSERT_FALSE(bad_bp.ok());
  EXPECT_TRUE(
      contains_text(bad_bp.error(), "broadphase layer 2 must be < num_broadphase_layers 2"));

  const TableLayers t;
  // Derived: a layer may touch a tree when it collides with some layer in it.
  EXPECT_TRUE(t.vs_broadphase.should_collide(0, 1));
  EXPECT_FALSE(t.vs_broadphase.should_collide(0, 0));
  EXPECT_FALSE(t.vs_broadphase.should_collide(0, 2));
  EXPECT_TRUE(t.vs_broadphase.should_collide(1, 0));
  EXPECT_TRUE(t.vs_broadphase.should_collide(1, 1));
  EXPECT_TRUE(t.vs_broadphase.should_collide(1, 2));
  EXPECT_TRUE(t.vs_broadphase.should_collide(2, 1));  // debris vs moving
  EXPECT_FALSE(t.vs_broadphase.should_collide(2, 2));
  EXPECT_TRUE(t.vs_broadphase.should_collide(3, 1));
  EXPECT_FALSE(t.vs_broadphase.should_collide(3, 0));
  EXPECT_FALSE(t.vs_broadphase.should_collide(4, 1));  // out of range
}

TEST(BroadPhase, RejectsBadSettingsAndInputs) {
  const DefaultLayers layers;
  BroadPhaseSettings settings;
  settings.fat_margin = -0.5f;
  Result<BroadPhase> bad = BroadPhase::create(layers, layers, layers, settings);
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(contains_text(bad.error(), "BroadPhaseSettings.fat_margin: must be finite and >= 0"));
  settings.fat_margin = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(BroadPhase::create(layers, layers, layers, settings).ok());
  const BroadPhaseLayerTable no_trees(2, 0);
  const Result<BroadPhase> empty = BroadPhase::create(no_trees, layers, layers);
  ASSERT_FALSE(empty.ok());
  EXPECT_TRUE(contains_text(empty.error(), "num_broadphase_layers: must be in 1..255, got 0"));

  BroadPhase bp = BroadPhase::create(layers, layers, layers).value();
  const AABox box(Vec3::zero(), Vec3(1, 1, 1));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  ASSERT_TRUE(bp.add(3, layers::k_moving, box).ok());
  const Status twice = bp.add(3, layers::k_moving, box);
  ASSERT_FALSE(twice.ok());
  EXPECT_TRUE(contains_text(twice.error(), "BroadPhase.add.body_index: body 3 is already"));
  const Status nan_box = bp.add(4, layers::k_moving, AABox(Vec3(nan, 0, 0), Vec3(1, 1, 1)));
  ASSERT_FALSE(nan_box.ok());
  EXPECT_TRUE(contains_text(nan_box.error(), "BroadPhase.add.tight_box: must be finite"));
  EXPECT_FALSE(bp.add(4, layers::k_moving, AABox(Vec3(2, 0, 0), Vec3(1, 1, 1))).ok());
  const Status bad_layer = bp.add(4, ObjectLayer{9}, box);
  ASSERT_FALSE(bad_layer.ok());
  EXPECT_TRUE(contains_text(bad_layer.error(), "BroadPhase.add.layer: object layer 9 maps to"));
  EXPECT_FALSE(bp.add(BroadPhase::k_max_body_index + 1, layers::k_moving, box).ok());
  EXPECT_FALSE(bp.contains(4));

  EXPECT_FALSE(bp.remove(4).ok());
  EXPECT_FALSE(bp.update(4, box, Vec3::zero()).ok());
  EXPECT_FALSE(bp.update(3, box, Vec3(0, nan, 0)).ok());
  EXPECT_FALSE(bp.update(3, AABox(Vec3::zero(), Vec3(nan, 1, 1)), Vec3::zero()).ok());
  EXPECT_FALSE(bp.set_object_layer(4, layers::k_moving).ok());
  EXPECT_FALSE(bp.set_object_layer(3, ObjectLayer{9}).ok());
  EXPECT_EQ(bp.object_layer(3), layers::k_moving);

  AllHitsBroadPhaseCollector hits;
  const ObjectLayerFilter all;
  EXPECT_FALSE(bp.cast_ray(Vec3(nan, 0, 0), Vec3(1, 0, 0), all, hits).ok());
  EXPECT_FALSE(bp.cast_ray(Vec3::zero(), Vec3(0, 0, INFINITY), all, hits).ok());
  EXPECT_FALSE(bp.collide_point(Vec3(0, nan, 0), all, hits).ok());
  EXPECT_FALSE(bp.collide_aabox(AABox(Vec3(1, 1, 1), Vec3::zero()), all, hits).ok());
  EXPECT_FALSE(bp.cast_aabox(AABox(Vec3(1, 1, 1), Vec3::zero()), Vec3(1, 0, 0), all, hits).ok());
  const Status cast = bp.cast_aabox(box, Vec3(0, nan, 0), all, hits);
  ASSERT_FALSE(cast.ok());
  EXPECT_TRUE(contains_text(cast.error(), "BroadPhase.cast_aabox.displacement"));
  EXPECT_TRUE(hits.hits.empty());

  std::vector<BodyPair> pairs{{1, 2}};
  const uint32_t absent[] = {3, 4};
  const Status s = bp.find_pairs(absent, pairs);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains_text(s.error(), "active_body_indices[1]: body 4 is not in the broadphase"));
  EXPECT_TRUE(pairs.empty());
  const uint32_t duplicate[] = {3, 3};
  const Status d = bp.find_pairs(duplicate, pairs);
  ASSERT_FALSE(d.ok());
  EXPECT_TRUE(contains_text(d.error(), "body 3 is listed twice"));
  ASSERT_TRUE(bp.validate().ok());
}

TEST(BroadPhase, PairRulesForStaticSleepingAndActiveBodies) {
  const DefaultLayers layers;
  BroadPhase bp = BroadPhase::create(layers, layers, layers).value();
  const AABox box(Vec3::zero(), Vec3(1, 1, 1));
  // All six overlap each other.
  ASSERT_TRUE(bp.add(0, layers::k_non_moving, box).ok());  // static
  ASSERT_TRUE(bp.add(1, layers::k_non_moving, box).ok());  // static
  ASSERT_TRUE(bp.add(2, layers::k_moving, box).ok());      // sleeping
  ASSERT_TRUE(bp.add(3, layers::k_moving, box).ok());      // sleeping
  ASSERT_TRUE(bp.add(4, layers::k_moving, box).ok());      // active
  ASSERT_TRUE(bp.add(5, layers::k_moving, box).ok());      // active
  std::vector<BodyPair> pairs;
  ASSERT_TRUE(bp.find_pairs({}, pairs).ok());
  EXPECT_TRUE(pairs.empty());  // nothing active: no static-static, no sleeping-sleeping

  const uint32_t active[] = {5, 4};
  ASSERT_TRUE(bp.find_pairs(active, pairs).ok());
  const std::vector<BodyPair> expected{{0, 4}, {0, 5}, {1, 4}, {1, 5}, {2, 4},
                                       {2, 5}, {3, 4}, {3, 5}, {4, 5}};
  EXPECT_EQ(pairs, expected);

  // Moved to the non-moving layer (like an active kinematic body), 4 no longer pairs with the
  // statics 0 and 1 but still with every moving body, each pair once.
  ASSERT_TRUE(bp.set_object_layer(4, layers::k_non_moving).ok());
  ASSERT_TRUE(bp.validate().ok());
  EXPECT_EQ(bp.object_layer(4), layers::k_non_moving);
  ASSERT_TRUE(bp.find_pairs(active, pairs).ok());
  const std::vector<BodyPair> expected_static{{0, 5}, {1, 5}, {2, 4}, {2, 5},
                                              {3, 4}, {3, 5}, {4, 5}};
  EXPECT_EQ(pairs, expected_static);

  // A removed body disappears from the pairs; its index can be reused.
  ASSERT_TRUE(bp.remove(0).ok());
  const uint32_t just5[] = {5};
  ASSERT_TRUE(bp.find_pairs(just5, pairs).ok());
  const std::vector<BodyPair> expected_removed{{1, 5}, {2, 5}, {3, 5}, {4, 5}};
  EXPECT_EQ(pairs, expected_removed);
  ASSERT_TRUE(bp.add(0, layers::k_moving, box.translated(Vec3(10, 0, 0))).ok());
  ASSERT_TRUE(bp.find_pairs(just5, pairs).ok());
  EXPECT_EQ(pairs, expected_removed);
  EXPECT_EQ(bp.size(), 6u);
  ASSERT_TRUE(bp.validate().ok());
}

// A world of random boxes stepped for a while: after every step the pairs equal brute force.
class BroadPhasePairs : public ::testing::TestWithParam<bool> {};

TEST_P(BroadPhasePairs, FindPairsEqualsBruteForceWhileBodiesMove) {
  const bool use_tables = GetParam();
  const DefaultLayers default_layers;
  const TableLayers table_layers;
  const ObjectLayerPairFilter& pair_filter =
      use_tables ? static_cast<const ObjectLayerPairFilter&>(table_layers.pairs) : default_layers;
  BroadPhase bp =
      use_tables
          ? BroadPhase::create(table_layers.mapping, table_layers.vs_broadphase, table_layers.pairs)
                .value()
          : BroadPhase::create(default_layers, default_layers, default_layers).value();

  Random rng(2024);
  constexpr uint32_t k_count = 1200;
  std::vector<AABox> tight(k_count);
  std::vector<Vec3> velocity(k_count);
  std::vector<uint8_t> active(k_count, 0);
  for (uint32_t i = 0; i < k_count; ++i) {
    tight[i] = random_box(rng, 25.0f);
    // A third static, the rest moving (or, with the tables, debris and sensors too).
    ObjectLayer layer = i % 3 == 0 ? ObjectLayer{0} : ObjectLayer{1};
    if (use_tables && layer == 1) layer = static_cast<ObjectLayer>(1 + rng.next_u32() % 3);
    if (i % 17 == 5) continue;  // some indices stay unused
    ASSERT_TRUE(bp.add(i, layer, tight[i]).ok());
    if (layer != 0) {
      velocity[i] = random_vec(rng, -3.0f, 3.0f);
      active[i] = rng.next_u32() % 4 != 0;  // a quarter sleeps
    }
  }
  const float dt = 1.0f / 60.0f;
  size_t total_pairs = 0;
  uint32_t reinserts = 0;
  for (int step = 0; step < 40; ++step) {
    for (uint32_t i = 0; i < k_count; ++i) {
      if (!active[i] || !bp.contains(i)) continue;
      tight[i] = tight[i].translated(velocity[i] * dt);
      reinserts += bp.update(i, tight[i], velocity[i] * dt).value() ? 1 : 0;
    }
    // Bodies wake up and fall asleep.
    for (int k = 0; k < 20; ++k) {
      const uint32_t i = rng.next_u32() % k_count;
      if (bp.contains(i) && bp.object_layer(i) != 0) active[i] = !active[i];
    }
    std::vector<uint32_t> list = active_list(active);
    // The order of the active list does not matter.
    for (size_t i = list.size() - 1; i > 0; --i) std::swap(list[i], list[rng.next_u32() % (i + 1)]);
    std::vector<BodyPair> pairs;
    ASSERT_TRUE(bp.find_pairs(list, pairs).ok());
    const std::vector<BodyPair> expected = brute_force_pairs(bp, pair_filter, active, k_count);
    ASSERT_EQ(pairs, expected) << "step " << step;
    total_pairs += pairs.size();
  }
  ASSERT_TRUE(bp.validate().ok());
  EXPECT_GT(total_pairs, 1000u);
  EXPECT_GT(reinserts, 100u);

  // Optimizing rebuilds the trees; the pairs stay the same.
  const std::vector<uint32_t> list = active_list(active);
  std::vector<BodyPair> before, after;
  ASSERT_TRUE(bp.find_pairs(list, before).ok());
  bp.optimize();
  ASSERT_TRUE(bp.validate().ok());
  ASSERT_TRUE(bp.find_pairs(list, after).ok());
  EXPECT_EQ(before, after);
}

INSTANTIATE_TEST_SUITE_P(Layers, BroadPhasePairs, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? std::string("Tables") : std::string("Default");
                         });

// find_pairs walks the trees when at least half the bodies are active and queries per active
// body otherwise: both give exactly the brute-force pairs, across that switch and across trees
// (static, moving, debris and sensor layers with their filters).
TEST(BroadPhase, FindPairsEqualsBruteForceForAnyShareOfActiveBodies) {
  const TableLayers layers;
  BroadPhase bp = BroadPhase::create(layers.mapping, layers.vs_broadphase, layers.pairs).value();
  Random rng(123);
  constexpr uint32_t k_count = 900;
  std::vector<uint32_t> moving;
  for (uint32_t i = 0; i < k_count; ++i) {
    const ObjectLayer layer =
        i % 6 == 0 ? ObjectLayer{0} : static_cast<ObjectLayer>(1 + rng.next_u32() % 3);
    AABox box = random_box(rng, 18.0f);
    // Long boxes, as fast bodies have.
    if (i % 3 == 1) box = DynamicTree::fatten(box, random_vec(rng, -4.0f, 4.0f), 0.02f);
    ASSERT_TRUE(bp.add(i, layer, box).ok());
    if (layer != 0) moving.push_back(i);
  }
  size_t walked = 0, queried = 0;
  for (const uint32_t percent : {0u, 5u, 30u, 49u, 51u, 60u, 90u, 100u}) {
    std::vector<uint8_t> active(k_count, 0);
    for (uint32_t i : moving) active[i] = rng.next_u32() % 100 < percent;
    const std::vector<uint32_t> list = active_list(active);
    std::vector<BodyPair> pairs;
    ASSERT_TRUE(bp.find_pairs(list, pairs).ok());
    ASSERT_EQ(pairs, brute_force_pairs(bp, layers.pairs, active, k_count)) << percent << " %";
    (list.size() * 2 >= k_count ? walked : queried) += pairs.size();
  }
  // Measured: 2655 pairs found by walks (60, 90 and 100 % of the moving bodies active), 1966
  // by queries.
  EXPECT_GT(walked, 2000u);
  EXPECT_GT(queried, 1500u);
}

// find_step_pairs keeps last call's pairs of bodies that did not change and looks for the
// changed ones' pairs again: through every kind of change a world makes between steps (small
// moves inside the fat box and moves out of it, one by one and in update_many; bodies waking
// and falling asleep; bodies added, removed and added again; layer changes; set_fat_box,
// set_fat_margin, optimize, save and restore; the layer tables edited) it returns exactly what
// find_pairs returns, and it does reuse on most steps.
class BroadPhaseStepPairs : public ::testing::TestWithParam<bool> {};

TEST_P(BroadPhaseStepPairs, FindStepPairsEqualsFindPairsThroughEveryChange) {
  const bool use_tables = GetParam();
  DefaultLayers default_layers;
  TableLayers table_layers;
  BroadPhase bp =
      use_tables
          ? BroadPhase::create(table_layers.mapping, table_layers.vs_broadphase, table_layers.pairs)
                .value()
          : BroadPhase::create(default_layers, default_layers, default_layers).value();
  const ObjectLayer num_layers = use_tables ? 4 : 2;
  Random rng(99);
  constexpr uint32_t k_count = 700;
  std::vector<AABox> tight(k_count);
  std::vector<Vec3> velocity(k_count);
  std::vector<uint8_t> active(k_count, 0);
  const auto random_moving_layer = [&]() {
    return static_cast<ObjectLayer>(1 + rng.next_u32() % (num_layers - 1));
  };
  const auto add = [&](uint32_t i, ObjectLayer layer) {
    tight[i] = random_box(rng, 14.0f);
    ASSERT_TRUE(bp.add(i, layer, tight[i], /*pairs=*/i % 53 != 7).ok());
    velocity[i] = layer == 0 ? Vec3::zero() : random_vec(rng, -0.6f, 0.6f);
    active[i] = layer != 0 && rng.next_u32() % 5 != 0;
  };
  for (uint32_t i = 0; i < k_count; ++i) {
    if (i % 19 == 4) continue;  // some indices stay unused for now
    add(i, i % 4 == 0 ? ObjectLayer{0} : random_moving_layer());
  }
  BroadPhase::Snapshot saved;
  const float dt = 1.0f / 60.0f;
  uint32_t reused = 0, changes_of_filters = 0, pairs_seen = 0;
  constexpr int k_steps = 120;
  for (int step = 0; step < k_steps; ++step) {
    // The active bodies move: most stay inside their fat boxes, a few leave them.
    std::vector<uint32_t> list = active_list(active);
    const auto bounds_of = [&](uint32_t i, AABox& box, Vec3& displacement) {
      box = tight[i];
      displacement = velocity[i] * dt;
    };
    for (const uint32_t i : list) {
      const float scale = rng.next_u32() % 40 == 0 ? 30.0f : 0.2f;
      tight[i] = tight[i].translated(velocity[i] * (dt * scale));
    }
    if (step % 2 == 0) {
      ASSERT_TRUE(bp.update_many(list, bounds_of).ok());
    } else {
      for (const uint32_t i : list) (void)bp.update(i, tight[i], velocity[i] * dt).value();
    }
    // Three changes of other kinds a step.
    for (int change = 0; change < 3; ++change) {
      const uint32_t i = rng.next_u32() % k_count;
      switch (rng.next_u32() % 12) {
        case 0:
        case 1:
          if (bp.contains(i) && bp.object_layer(i) != 0) active[i] = !active[i];
          break;
        case 2:
          if (bp.contains(i)) {
            ASSERT_TRUE(bp.remove(i).ok());
            active[i] = 0;
          }
          break;
        case 3: {
          // The next free index gets a static, sleeping or awake body.
          uint32_t free = i;
          for (uint32_t tries = 0; tries < k_count && bp.contains(free); ++tries)
            free = (free + 1) % k_count;
          if (bp.contains(free)) break;
          add(free, rng.next_u32() % 2 == 0 ? ObjectLayer{0} : random_moving_layer());
          if (rng.next_u32() % 2 == 0) active[free] = 0;
          break;
        }
        case 4:
          if (bp.contains(i)) {
            ASSERT_TRUE(
                bp.set_object_layer(i, static_cast<ObjectLayer>(rng.next_u32() % num_layers)).ok());
            if (bp.object_layer(i) == 0) active[i] = 0;
          }
          break;
        case 5:
          // A sleeping or static body moved by hand: its new pairs are with active ones. (Its
          // box grown by at least the margin, as the broadphase grows boxes: set_fat_margin
          // refuses to shrink a box inside out.)
          if (bp.contains(i) && !active[i]) {
            tight[i] = tight[i].translated(random_vec(rng, -3.0f, 3.0f));
            ASSERT_TRUE(bp.set_fat_box(i, tight[i].expanded(0.3f)).ok());
          }
          break;
        case 6:
          if (step % 3 == 0) {
            ASSERT_TRUE(bp.set_fat_margin(rng.uniform(0.0f, 0.3f)).ok());
          }
          break;
        case 7:
          bp.optimize();
          break;
        case 8:
          if (use_tables) {
            // An edit of the pair table between two steps, with no body changed.
            const ObjectLayer a = static_cast<ObjectLayer>(rng.next_u32() % num_layers);
            const ObjectLayer b = static_cast<ObjectLayer>(rng.next_u32() % num_layers);
            ASSERT_TRUE(table_layers.pairs.should_collide(a, b)
                            ? table_layers.pairs.disable(a, b).ok()
                            : table_layers.pairs.enable(a, b).ok());
            ++changes_of_filters;
          }
          break;
        case 9:
          if (step < k_steps / 2) {
            bp.save(saved);
          } else if (saved.bytes() != 0) {
            // Back to an earlier state: the broadphase's bodies and boxes as saved (the
            // activity stays this test's; every body present then is here too).
            bp.restore(saved);
            for (uint32_t k = 0; k < k_count; ++k) {
              if (!bp.contains(k) || bp.object_layer(k) == 0) active[k] = 0;
              if (bp.contains(k)) tight[k] = bp.fat_box(k);
            }
            saved = BroadPhase::Snapshot();
          }
          break;
        default:
          break;
      }
    }
    list = active_list(active);
    std::vector<BodyPair> expected, pairs;
    ASSERT_TRUE(bp.find_pairs(list, expected).ok());
    ASSERT_TRUE(bp.find_step_pairs(list, pairs).ok());
    ASSERT_EQ(pairs, expected) << "step " << step;
    reused += bp.reused_step_pairs() ? 1 : 0;
    pairs_seen += static_cast<uint32_t>(pairs.size());
  }
  ASSERT_TRUE(bp.validate().ok());
  // Measured: reused on 104 (default layers) and 81 (tables) of the 120 steps; 93 671 and
  // 27 587 pairs (g++; clang's build draws some numbers in another order: 94 398 and 27 621).
  EXPECT_GT(reused, k_steps / 2);
  EXPECT_GT(pairs_seen, 20000u);
  if (use_tables) {
    EXPECT_GT(changes_of_filters, 3u);
  }
}

INSTANTIATE_TEST_SUITE_P(Layers, BroadPhaseStepPairs, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? std::string("Tables") : std::string("Default");
                         });

// A bad active list: the error of find_pairs, and the next call finds every pair again.
TEST(BroadPhase, FindStepPairsRefusesABadListAndThenStartsOver) {
  const DefaultLayers layers;
  BroadPhase bp = BroadPhase::create(layers, layers, layers).value();
  const AABox box(Vec3::zero(), Vec3(1, 1, 1));
  for (uint32_t i = 0; i < 4; ++i)
    ASSERT_TRUE(bp.add(i, layers::k_moving, box.translated(Vec3(0.5f * i, 0, 0))).ok());
  std::vector<BodyPair> pairs;
  const std::vector<uint32_t> all{0, 1, 2, 3};
  ASSERT_TRUE(bp.find_step_pairs(all, pairs).ok());
  EXPECT_EQ(pairs.size(), 5u);  // 0-1, 0-2, 1-2, 1-3, 2-3 (0 and 3 are 1.5 m apart)
  ASSERT_TRUE(bp.find_step_pairs(all, pairs).ok());
  EXPECT_TRUE(bp.reused_step_pairs());
  EXPECT_EQ(pairs.size(), 5u);
  const std::vector<uint32_t> twice{0, 1, 1};
  const Status s = bp.find_step_pairs(twice, pairs);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(contains_text(s.error(), "BroadPhase.find_step_pairs.active_body_indices[2]"))
      << s.error().message();
  EXPECT_TRUE(contains_text(s.error(), "listed twice"));
  EXPECT_TRUE(pairs.empty());
  EXPECT_FALSE(bp.reused_step_pairs());
  const std::vector<uint32_t> absent{0, 9};
  EXPECT_FALSE(bp.find_step_pairs(absent, pairs).ok());
  // Nothing stays marked: the same pairs as before, found whole.
  ASSERT_TRUE(bp.find_step_pairs(all, pairs).ok());
  EXPECT_FALSE(bp.reused_step_pairs());
  EXPECT_EQ(pairs.size(), 5u);
}

TEST(BroadPhase, SameOperationsGiveTheSamePairs) {
  auto run = [](std::vector<std::vector<BodyPair>>& history) {
    const DefaultLayers layers;
    BroadPhase bp = BroadPhase::create(layers, layers, layers).value();
    Random rng(77);
    std::vector<uint32_t> active;
    for (uint32_t i = 0; i < 800; ++i) {
      const bool moving = i % 4 != 0;
      ASSERT_TRUE(
          bp.add(i, moving ? layers::k_moving : layers::k_non_moving, random_box(rng, 20)).ok());
      if (moving) active.push_back(i);
    }
    for (int step = 0; step < 10; ++step) {
      for (const uint32_t i : active) {
        const AABox moved = bp.fat_box(i).translated(random_vec(rng, -0.5f, 0.5f));
        (void)bp.update(i, moved, random_vec(rng, -0.1f, 0.1f)).value();
      }
      history.emplace_back();
      ASSERT_TRUE(bp.find_pairs(active, history.back()).ok());
    }
  };
  std::vector<std::vector<BodyPair>> a, b;
  run(a);
  run(b);
  ASSERT_EQ(a.size(), 10u);
  EXPECT_EQ(a, b);
}

TEST(BroadPhase, SetFatMarginGrowsEveryStoredBoxAndRefusesABadMargin) {
  const DefaultLayers layers;
  BroadPhase bp = BroadPhase::create(layers, layers, layers).value();
  const AABox box(Vec3::zero(), Vec3(1, 1, 1));
  ASSERT_TRUE(bp.add(0, layers::k_moving, box).ok());
  ASSERT_TRUE(bp.add(3, layers::k_non_moving, box.translated(Vec3(5, 0, 0))).ok());
  ASSERT_TRUE(bp.set_fat_margin(0.5f).ok());
  EXPECT_EQ(bp.settings().fat_margin, 0.5f);
  EXPECT_TRUE(bp.fat_box(0).min.is_close(Vec3::replicate(-0.5f), 1e-6f));
  EXPECT_TRUE(bp.fat_box(3).max.is_close(Vec3(6.5f, 1.5f, 1.5f), 1e-6f));
  ASSERT_TRUE(bp.validate().ok());
  // A bad margin changes nothing.
  EXPECT_FALSE(bp.set_fat_margin(-1.0f).ok());
  EXPECT_FALSE(bp.set_fat_margin(std::numeric_limits<float>::quiet_NaN()).ok());
  EXPECT_EQ(bp.settings().fat_margin, 0.5f);
  EXPECT_TRUE(bp.fat_box(0).min.is_close(Vec3::replicate(-0.5f), 1e-6f));
  // Shrinking keeps the bodies' bounds inside.
  ASSERT_TRUE(bp.set_fat_margin(0.0f).ok());
  EXPECT_TRUE(bp.fat_box(0).min.is_close(Vec3::zero(), 1e-6f));
  ASSERT_TRUE(bp.validate().ok());
  // A box set by hand 0.1 m thick cannot shrink by 0.2: the error says so and nothing changes.
  ASSERT_TRUE(bp.set_fat_margin(0.2f).ok());
  const AABox thin(Vec3(5, 0, 0), Vec3(5.1f, 1, 1));
  ASSERT_TRUE(bp.set_fat_box(3, thin).ok());
  const Status shrink = bp.set_fat_margin(0.0f);
  ASSERT_FALSE(shrink.ok());
  EXPECT_TRUE(contains_text(shrink.error(), "shrinks the box of body 3 inside out"))
      << shrink.error().message();
  EXPECT_EQ(bp.settings().fat_margin, 0.2f);
  EXPECT_EQ(bp.fat_box(3), thin);
  EXPECT_TRUE(bp.fat_box(0).min.is_close(Vec3::replicate(-0.2f), 1e-6f));
}

TEST(BroadPhase, SmallMovesDoNotReinsert) {
  const DefaultLayers layers;
  BroadPhase bp = BroadPhase::create(layers, layers, layers).value();
  EXPECT_EQ(bp.settings().fat_margin, 0.02f);
  const AABox box(Vec3::zero(), Vec3(1, 1, 1));
  ASSERT_TRUE(bp.add(0, layers::k_moving, box).ok());
  const AABox fat = bp.fat_box(0);
  EXPECT_TRUE(fat.min.is_close(Vec3::replicate(-0.02f), 1e-12f));
  EXPECT_TRUE(fat.max.is_close(Vec3::replicate(1.02f), 1e-12f));
  EXPECT_FALSE(bp.update(0, box.translated(Vec3(0.01f, -0.01f, 0)), Vec3(0.005f, 0, 0)).value());
  EXPECT_EQ(bp.fat_box(0), fat);
  EXPECT_TRUE(bp.update(0, box.translated(Vec3(0.05f, 0, 0)), Vec3::zero()).value());
  EXPECT_FALSE(bp.fat_box(0) == fat);
}

TEST(BroadPhase, QueriesEqualBruteForce) {
  const DefaultLayers layers;
  BroadPhase bp = BroadPhase::create(layers, layers, layers).value();
  Random rng(31);
  constexpr uint32_t k_count = 1000;
  for (uint32_t i = 0; i < k_count; ++i) {
    ASSERT_TRUE(
        bp.add(i, i % 2 ? layers::k_moving : layers::k_non_moving, random_box(rng, 12)).ok());
  }
  const ObjectLayerFilter all;
  const DefaultObjectLayerFilter static_only_sees(layers, layers::k_non_moving);  // moving only
  const DefaultBroadPhaseLayerFilter static_trees(layers, layers::k_non_moving);
  size_t ray_hits = 0, box_hits = 0, point_hits = 0, cast_hits = 0;
  for (int q = 0; q < 200; ++q) {
    const bool filtered = q % 2 == 1;
    const ObjectLayerFilter& filter = filtered ? static_only_sees : all;
    auto passes = [&](uint32_t i) { return !filtered || bp.object_layer(i) == layers::k_moving; };

    // Rays: candidates are exactly the fat boxes the segment enters.
    const Vec3 origin = random_vec(rng, -14, 14);
    const Vec3 direction = random_vec(rng, -20, 20);
    const Vec3 inv = direction.reciprocal();
    std::vector<uint32_t> expected;
    float closest = k_float_max;
    for (uint32_t i = 0; i < k_count; ++i) {
      const float f = bp.fat_box(i).ray_fraction(origin, inv, 1.0f);
      if (f == k_float_max || !passes(i)) continue;
      expected.push_back(i);
      closest = std::min(closest, f);
    }
    AllHitsBroadPhaseCollector all_hits;
    ASSERT_TRUE(bp.cast_ray(origin, direction, filter, all_hits).ok());
    ASSERT_EQ(bodies_of(all_hits.hits), expected) << "ray " << q;
    for (const BroadPhaseHit& h : all_hits.hits) {
      EXPECT_EQ(h.fraction, bp.fat_box(h.body_index).ray_fraction(origin, inv, 1.0f));
    }
    all_hits.sort();
    for (size_t i = 1; i < all_hits.hits.size(); ++i) {
      EXPECT_LE(all_hits.hits[i - 1].fraction, all_hits.hits[i].fraction);
    }
    ray_hits += expected.size();

    ClosestHitBroadPhaseCollector closest_hit;
    ASSERT_TRUE(bp.cast_ray(origin, direction, filter, closest_hit).ok());
    ASSERT_EQ(closest_hit.has_hit(), !expected.empty());
    if (closest_hit.has_hit()) {
      EXPECT_EQ(closest_hit.hit().fraction, closest);
      EXPECT_EQ(closest_hit.early_out_fraction(), closest);
    }

    AnyHitBroadPhaseCollector any_hit;
    ASSERT_TRUE(bp.cast_ray(origin, direction, filter, any_hit).ok());
    ASSERT_EQ(any_hit.has_hit(), !expected.empty());
    if (any_hit.has_hit()) {
      EXPECT_TRUE(std::binary_search(expected.begin(), expected.end(), any_hit.hit().body_index));
    }

    // Boxes.
    const AABox query = random_box(rng, 14);
    expected.clear();
    for (uint32_t i = 0; i < k_count; ++i) {
      if (bp.fat_box(i).overlaps(query) && passes(i)) expected.push_back(i);
    }
    all_hits.reset();
    ASSERT_TRUE(bp.collide_aabox(query, filter, all_hits).ok());
    ASSERT_EQ(bodies_of(all_hits.hits), expected) << "box " << q;
    box_hits += expected.size();

    // Moving boxes: the fat boxes the box touches on its way, with the fraction it first does.
    const AABox moving = AABox::from_center(origin, random_vec(rng, 0.0f, 1.0f));
    expected.clear();
    for (uint32_t i = 0; i < k_count; ++i) {
      const float f =
          bp.fat_box(i).expanded(moving.extent()).ray_fraction(moving.center(), inv, 1.0f);
      if (f != k_float_max && passes(i)) expected.push_back(i);
    }
    all_hits.reset();
    ASSERT_TRUE(bp.cast_aabox(moving, direction, filter, all_hits).ok());
    ASSERT_EQ(bodies_of(all_hits.hits), expected) << "moving box " << q;
    for (const BroadPhaseHit& h : all_hits.hits) {
      EXPECT_EQ(h.fraction, bp.fat_box(h.body_index)
                                .expanded(moving.extent())
                                .ray_fraction(moving.center(), inv, 1.0f));
    }
    cast_hits += expected.size();

    // Points.
    const Vec3 point = random_vec(rng, -12, 12);
    expected.clear();
    for (uint32_t i = 0; i < k_count; ++i) {
      if (bp.fat_box(i).contains(point) && passes(i)) expected.push_back(i);
    }
    all_hits.reset();
    ASSERT_TRUE(bp.collide_point(point, filter, all_hits).ok());
    ASSERT_EQ(bodies_of(all_hits.hits), expected) << "point " << q;
    point_hits += expected.size();

    // A broadphase-layer filter skips whole trees: a static body's view sees only moving ones.
    all_hits.reset();
    ASSERT_TRUE(bp.collide_aabox(query, all, all_hits, static_trees).ok());
    for (const BroadPhaseHit& h : all_hits.hits) {
      EXPECT_EQ(bp.object_layer(h.body_index), layers::k_moving);
    }
  }
  EXPECT_GT(ray_hits, 200u);
  EXPECT_GT(box_hits, 200u);
  EXPECT_GT(cast_hits, 200u);
  EXPECT_GT(point_hits, 10u);
}

// CCD's shortcut: a fast body whose cast stays inside its own fat box finds, among its
// find_pairs partners, exactly what the tree cast finds (same bodies, same fractions bit for
// bit); a cast that leaves the box is not claimed to.
// update_many leaves the same boxes (and so the same pairs) as update() body by body, with
// few bodies moving (re-inserted) and with nearly all of them (the trees rebuilt).
TEST(BroadPhase, UpdateManyEqualsUpdateOneByOne) {
  const TableLayers layers;
  BroadPhase one_by_one =
      BroadPhase::create(layers.mapping, layers.vs_broadphase, layers.pairs).value();
  BroadPhase batched =
      BroadPhase::create(layers.mapping, layers.vs_broadphase, layers.pairs).value();
  Random rng(99);
  constexpr uint32_t k_count = 1000;
  std::vector<AABox> tight(k_count);
  std::vector<Vec3> velocity(k_count);
  std::vector<uint32_t> active;
  for (uint32_t i = 0; i < k_count; ++i) {
    tight[i] = random_box(rng, 25.0f);
    const ObjectLayer layer =
        i % 4 == 0 ? ObjectLayer{0} : static_cast<ObjectLayer>(1 + rng.next_u32() % 3);
    ASSERT_TRUE(one_by_one.add(i, layer, tight[i]).ok());
    ASSERT_TRUE(batched.add(i, layer, tight[i]).ok());
    if (layer != 0) active.push_back(i);
  }
  const float dt = 1.0f / 60.0f;
  for (int step = 0; step < 6; ++step) {
    // Slow bodies, one in ten faster (only those leave their boxes) for three steps, then all
    // fast (all do).
    if (step == 0 || step == 3) {
      for (uint32_t i : active) {
        const float speed = step == 3 ? 200.0f : i % 10 == 1 ? 3.0f : 0.2f;
        velocity[i] = random_vec(rng, -speed, speed);
      }
    }
    uint32_t reinserted = 0;
    for (uint32_t i : active) {
      tight[i] = tight[i].translated(velocity[i] * dt);
      reinserted += one_by_one.update(i, tight[i], velocity[i] * dt).value() ? 1 : 0;
    }
    const Result<uint32_t> moved =
        batched.update_many(active, [&](uint32_t i, AABox& box, Vec3& displacement) {
          box = tight[i];
          displacement = velocity[i] * dt;
        });
    ASSERT_TRUE(moved.ok());
    EXPECT_EQ(*moved, reinserted) << "step " << step;
    // Measured: 96-98 of 750 re-inserted in the slow steps (re-inserted one by one), all 750
    // in the fast ones (the tree rebuilt).
    if (step >= 3) {
      EXPECT_EQ(reinserted, active.size());
    } else {
      EXPECT_GT(reinserted, 50u);
      EXPECT_LT(reinserted * 4, active.size());
    }
    for (uint32_t i = 0; i < k_count; ++i)
      ASSERT_EQ(batched.fat_box(i), one_by_one.fat_box(i)) << "body " << i;
    ASSERT_TRUE(batched.validate().ok());
    std::vector<BodyPair> pairs_a, pairs_b;
    ASSERT_TRUE(one_by_one.find_pairs(active, pairs_a).ok());
    ASSERT_TRUE(batched.find_pairs(active, pairs_b).ok());
    EXPECT_EQ(pairs_a, pairs_b) << "step " << step;
    EXPECT_GT(pairs_b.size(), 50u);
  }

  // A bad body anywhere in the list: an error naming it, and no box changes.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const AABox before = batched.fat_box(active[0]);
  const Result<uint32_t> bad =
      batched.update_many(active, [&](uint32_t i, AABox& box, Vec3& displacement) {
        box = tight[i].translated(Vec3(30, 0, 0));
        displacement = i == active[5] ? Vec3(nan, 0, 0) : Vec3::zero();
      });
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(contains_text(bad.error(), "BroadPhase.update.predicted_displacement"));
  EXPECT_EQ(batched.fat_box(active[0]), before);
  const uint32_t absent[] = {k_count + 1};
  const Result<uint32_t> missing =
      batched.update_many(absent, [&](uint32_t, AABox& box, Vec3& displacement) {
        box = tight[1];
        displacement = Vec3::zero();
      });
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(contains_text(missing.error(), "is not in the broadphase"));
}

TEST(BroadPhase, CastAmongPairPartnersEqualsTheTreeCast) {
  const TableLayers layers;
  BroadPhase bp = BroadPhase::create(layers.mapping, layers.vs_broadphase, layers.pairs).value();
  Random rng(4242);
  constexpr uint32_t k_count = 1500;
  const float dt = 1.0f / 60.0f;
  std::vector<AABox> tight(k_count);
  std::vector<Vec3> velocity(k_count);
  std::vector<uint32_t> active;
  for (uint32_t i = 0; i < k_count; ++i) {
    tight[i] = random_box(rng, 30.0f);
    const ObjectLayer layer =
        i % 5 == 0 ? ObjectLayer{0} : static_cast<ObjectLayer>(1 + rng.next_u32() % 3);
    ASSERT_TRUE(bp.add(i, layer, tight[i]).ok());
    if (layer == 0) continue;
    // Fast: up to 4 m per step, so the fat boxes are long (HighSpeed's 250 m/s).
    velocity[i] = random_vec(rng, -240.0f, 240.0f);
    if (i % 7 != 3) active.push_back(i);  // some moving bodies sleep
  }
  // Two steps, so that the stored boxes are stretched along the motion.
  for (int step = 0; step < 2; ++step) {
    for (uint32_t i : active) {
      tight[i] = tight[i].translated(velocity[i] * dt);
      ASSERT_TRUE(bp.update(i, tight[i], velocity[i] * dt).ok());
    }
  }
  std::vector<BodyPair> pairs;
  ASSERT_TRUE(bp.find_pairs(active, pairs).ok());
  std::vector<std::vector<uint32_t>> partners(k_count);
  for (const BodyPair& p : pairs) {
    partners[p.a].push_back(p.b);
    partners[p.b].push_back(p.a);
  }
  const auto sorted = [](AllHitsBroadPhaseCollector& c) {
    c.sort();
    return c.hits;
  };
  uint32_t inside = 0, outside = 0, cast_hits = 0;
  for (uint32_t i : active) {
    // The cast's displacement: the predicted one, changed by up to 1.5 cm per axis (gravity
    // and damping; the fat margin is 2 cm), or, for every fourth body, turned (a bounce).
    Vec3 displacement = velocity[i] * dt + random_vec(rng, -0.015f, 0.015f);
    if (i % 4 == 0) displacement = Vec3(-displacement.y(), displacement.z(), displacement.x());
    const bool within = bp.sweep_within_fat_box(i, tight[i], displacement);
    // Only the turned casts may leave the box.
    if (i % 4 != 0) {
      EXPECT_TRUE(within) << "body " << i;
    }
    const DefaultObjectLayerFilter filter(layers.pairs, bp.object_layer(i));
    const DefaultBroadPhaseLayerFilter bp_filter(layers.vs_broadphase, bp.object_layer(i));
    AllHitsBroadPhaseCollector tree, among;
    ASSERT_TRUE(bp.cast_aabox(tight[i], displacement, filter, tree, bp_filter).ok());
    ASSERT_TRUE(
        bp.cast_aabox_among(tight[i], displacement, partners[i], filter, among, bp_filter).ok());
    // Never anything the tree does not report.
    const std::vector<BroadPhaseHit> tree_hits = sorted(tree);
    const std::vector<BroadPhaseHit> among_hits = sorted(among);
    for (const BroadPhaseHit& h : among_hits) {
      EXPECT_TRUE(std::any_of(tree_hits.begin(), tree_hits.end(),
                              [&](const BroadPhaseHit& t) {
                                return t.body_index == h.body_index && t.fraction == h.fraction;
                              }))
          << "body " << i << " reports " << h.body_index;
    }
    if (!within) {
      ++outside;
      continue;
    }
    ++inside;
    // The body itself is a tree hit but not its own partner.
    std::vector<BroadPhaseHit> expected;
    for (const BroadPhaseHit& h : tree_hits)
      if (h.body_index != i) expected.push_back(h);
    ASSERT_EQ(among_hits.size(), expected.size()) << "body " << i;
    for (size_t k = 0; k < expected.size(); ++k) {
      EXPECT_EQ(among_hits[k].body_index, expected[k].body_index) << "body " << i;
      EXPECT_EQ(among_hits[k].fraction, expected[k].fraction) << "body " << i;
    }
    cast_hits += static_cast<uint32_t>(expected.size());
  }
  // Measured: 771 casts inside (every unturned one), 258 outside, 815 hits among the inside.
  EXPECT_GT(inside, 700u);
  EXPECT_GT(outside, 200u);
  EXPECT_GT(cast_hits, 600u);

  // Absent candidates are skipped; bad inputs are errors naming the field.
  AllHitsBroadPhaseCollector hits;
  const uint32_t absent[] = {k_count + 5};
  const ObjectLayerFilter all;
  ASSERT_TRUE(bp.cast_aabox_among(tight[1], Vec3(1, 0, 0), absent, all, hits).ok());
  EXPECT_TRUE(hits.hits.empty());
  EXPECT_FALSE(bp.sweep_within_fat_box(k_count + 5, tight[1], Vec3::zero()));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Status bad = bp.cast_aabox_among(tight[1], Vec3(nan, 0, 0), partners[1], all, hits);
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(contains_text(bad.error(), "BroadPhase.cast_aabox_among.displacement"));
  const Status inverted = bp.cast_aabox_among(AABox(), Vec3(1, 0, 0), partners[1], all, hits);
  ASSERT_FALSE(inverted.ok());
  EXPECT_TRUE(contains_text(inverted.error(), "BroadPhase.cast_aabox_among.box"));
}

TEST(BroadPhase, RaysAreSegmentsAndCollectorsCanStopEarly) {
  const DefaultLayers layers;
  BroadPhase bp = BroadPhase::create(layers, layers, layers).value();
  // A row of boxes along +x at x = 0, 2, 4, …, 18; the fat margin is 0.02.
  for (uint32_t i = 0; i < 10; ++i) {
    const Vec3 c(2.0f * static_cast<float>(i), 0, 0);
    ASSERT_TRUE(bp.add(i, i < 5 ? layers::k_moving : layers::k_non_moving,
                       AABox::from_center(c, Vec3::replicate(0.5f)))
                    .ok());
  }
  const ObjectLayerFilter all;
  // The segment from x = -1 to x = 5 reaches boxes 0..2 only.
  AllHitsBroadPhaseCollector hits;
  ASSERT_TRUE(bp.cast_ray(Vec3(-1, 0, 0), Vec3(6, 0, 0), all, hits).ok());
  EXPECT_EQ(bodies_of(hits.hits), (std::vector<uint32_t>{0, 1, 2}));

  ClosestHitBroadPhaseCollector closest;
  ASSERT_TRUE(bp.cast_ray(Vec3(30, 0, 0), Vec3(-40, 0, 0), all, closest).ok());
  ASSERT_TRUE(closest.has_hit());
  EXPECT_EQ(closest.hit().body_index, 9u);
  EXPECT_NEAR(closest.hit().fraction, (30.0f - 18.52f) / 40.0f, 1e-6f);

  // An any-hit query stops after its first candidate, across trees too.
  AnyHitBroadPhaseCollector any;
  ASSERT_TRUE(bp.collide_aabox(AABox(Vec3::replicate(-100), Vec3::replicate(100)), all, any).ok());
  EXPECT_TRUE(any.has_hit());
  EXPECT_TRUE(any.should_early_out());

  // A collector that forces early out on its third candidate sees exactly three.
  struct StopAfterThree final : BroadPhaseCollector {
    void add_hit(const BroadPhaseHit&) override {
      if (++count == 3) force_early_out();
    }
    int count = 0;
  };
  StopAfterThree stop;
  ASSERT_TRUE(bp.collide_point(Vec3(0, 0, 0), all, stop).ok());  // one candidate only
  EXPECT_EQ(stop.count, 1);
  ASSERT_TRUE(bp.collide_aabox(AABox(Vec3::replicate(-100), Vec3::replicate(100)), all, stop).ok());
  EXPECT_EQ(stop.count, 3);
  stop.reset();
  stop.count = 0;
  ASSERT_TRUE(bp.cast_ray(Vec3(-1, 0, 0), Vec3(30, 0, 0), all, stop).ok());
  EXPECT_EQ(stop.count, 3);
}

}  // namespace
}  // namespace broad_phase_test
}  // namespace atl
