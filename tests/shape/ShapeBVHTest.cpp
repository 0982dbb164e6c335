// The wide shape tree: a query visits exactly the primitives of the leaves whose boxes overlap
// it, in leaf (left-to-right) order, and a ray cast finds the closest primitive, for random
// inputs, every leaf size the shapes use, degenerate (deep) trees and unbounded queries.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "atoll/core/Random.h"
#include "atoll/shape/ShapeBVH.h"

namespace atl {
namespace shape_bvh_test {
namespace {

struct Leaf {
  AABox bounds;
  uint32_t first;
  uint32_t count;
};

/// Every leaf of the tree in primitive order, after checking that each child box lies in its
/// parent's slot box and that the leaves cover the primitives once each.
std::vector<Leaf> leaves_of(const ShapeBVH& bvh, const std::vector<AABox>& boxes) {
  std::vector<Leaf> leaves;
  struct Item {
    uint32_t node;
    AABox parent;
  };
  std::vector<Item> todo{{0, bvh.root_bounds()}};
  while (!todo.empty()) {
    const Item item = todo.back();
    todo.pop_back();
    const ShapeBVH::Node& node = bvh.nodes()[item.node];
    EXPECT_NE(node.used, 0u);
    EXPECT_EQ(node.used & (node.used + 1), 0u) << "used slots come first";
    for (uint32_t i = 0; i < ShapeBVH::k_width; ++i) {
      if ((node.used & (1u << i)) == 0) continue;
      const AABox box = node.bounds(i);
      EXPECT_TRUE(item.parent.contains(box));
      if (node.count[i] > 0) {
        leaves.push_back({box, node.child[i], node.count[i]});
        for (uint32_t k = 0; k < node.count[i]; ++k)
          EXPECT_TRUE(box.contains(boxes[bvh.primitives()[node.child[i] + k]]));
      } else {
        EXPECT_GT(node.child[i], item.node) << "child nodes follow their parent";
        todo.push_back({node.child[i], box});
      }
    }
  }
  std::sort(leaves.begin(), leaves.end(),
            [](const Leaf& a, const Leaf& b) { return a.first < b.first; });
  uint32_t next = 0;
  for (const Leaf& leaf : leaves) {
    EXPECT_EQ(leaf.first, next);
    next += leaf.count;
  }
  EXPECT_EQ(next, boxes.size());
  return leaves;
}

/// The primitives of the leaves whose boxes overlap `query`, in leaf order.
std::vector<uint32_t> expected_visits(const ShapeBVH& bvh, const std::vector<Leaf>& leaves,
                                      const AABox& query) {
  std::vector<uint32_t> out;
  for (const Leaf& leaf : leaves)
    if (leaf.bounds.overlaps(query))
      for (uint32_t k = 0; k < leaf.count; ++k) out.push_back(bvh.primitives()[leaf.first + k]);
  return out;
}

std::vector<uint32_t> visits(const ShapeBVH& bvh, const AABox& query) {
  std::vector<uint32_t> out;
  bvh.for_each_overlapping(query, [&](uint32_t p) { out.push_back(p); });
  return out;
}

std::vector<AABox> random_boxes(Random& random, uint32_t n, float spread) {
  std::vector<AABox> boxes;
  for (uint32_t i = 0; i < n; ++i) {
    const Vec3 c(random.uniform(-spread, spread), random.uniform(-spread, spread),
                 random.uniform(-spread, spread));
    const Vec3 h(random.uniform(0.0f, 1.0f), random.uniform(0.0f, 1.0f),
                 random.uniform(0.0f, 1.0f));
    boxes.emplace_back(c - h, c + h);
  }
  return boxes;
}

void expect_queries_exact(const ShapeBVH& bvh, const std::vector<AABox>& boxes, Random& random,
                          float spread) {
  const std::vector<Leaf> leaves = leaves_of(bvh, boxes);
  for (int q = 0; q < 200; ++q) {
    const Vec3 c(random.uniform(-spread, spread), random.uniform(-spread, spread),
                 random.uniform(-spread, spread));
    const Vec3 h = Vec3::replicate(random.uniform(0.0f, 0.3f * spread));
    const AABox query(c - h, c + h);
    const std::vector<uint32_t> got = visits(bvh, query);
    ASSERT_EQ(got, expected_visits(bvh, leaves, query)) << "query " << q;
    // Every primitive whose own box overlaps is among them.
    std::vector<bool> seen(boxes.size(), false);
    for (uint32_t p : got) seen[p] = true;
    for (uint32_t p = 0; p < boxes.size(); ++p) {
      ASSERT_TRUE(seen[p] || !boxes[p].overlaps(query)) << "query " << q << " primitive " << p;
    }
  }
}

TEST(ShapeBVH, QueriesVisitTheOverlappingLeavesInLeafOrder) {
  Random random(7);
  for (uint32_t leaf_size : {1u, 2u, 4u, 7u})
    for (uint32_t n : {1u, 2u, 5u, 9u, 64u, 65u, 1000u, 3000u}) {
      SCOPED_TRACE(testing::Message() << "leaf size " << leaf_size << ", " << n << " boxes");
      const std::vector<AABox> boxes = random_boxes(random, n, 20.0f);
      ShapeBVH bvh;
      bvh.build(boxes, leaf_size);
      ASSERT_FALSE(bvh.empty());
      expect_queries_exact(bvh, boxes, random, 20.0f);
    }
}

TEST(ShapeBVH, UnboundedQueriesVisitEveryPrimitiveOnce) {
  Random random(8);
  const std::vector<AABox> boxes = random_boxes(random, 37, 5.0f);  // some empty slots
  ShapeBVH bvh;
  bvh.build(boxes, 4);
  std::vector<uint32_t> all = bvh.primitives();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(visits(bvh, AABox(Vec3::replicate(-inf), Vec3::replicate(inf))), all);
  // A NaN query box overlaps everything, as AABox::overlaps decides.
  EXPECT_EQ(visits(bvh, AABox(Vec3::nan(), Vec3::nan())), all);
  EXPECT_TRUE(visits(bvh, AABox(Vec3::replicate(100.0f), Vec3::replicate(101.0f))).empty());
}

TEST(ShapeBVH, DeepTreesStayWithinTheStack) {
  // Exponentially spaced boxes defeat the surface-area split: the binary tree goes as deep as
  // its halving fallback allows, and every query and ray still walks it.
  std::vector<AABox> boxes;
  for (int i = 0; i < 120; ++i) {
    const float x = std::ldexp(1.0f, i - 60);
    boxes.emplace_back(Vec3(x, 0, 0), Vec3(x * 1.5f, 1, 1));
  }
  ShapeBVH bvh;
  bvh.build(boxes, 1);
  EXPECT_LE(bvh.depth(), ShapeBVH::k_max_depth);
  Random random(9);
  expect_queries_exact(bvh, boxes, random, 1.0f);
  uint32_t hits = 0;
  bvh.cast_ray(Vec3(-1, 0.5f, 0.5f), Vec3(1, 0, 0), k_float_max, [&](uint32_t, float f) {
    ++hits;
    return f;
  });
  EXPECT_EQ(hits, boxes.size()) << "a ray that never shortens visits every leaf it enters";
}

TEST(ShapeBVH, RayCastFindsTheClosestPrimitive) {
  Random random(10);
  const std::vector<AABox> boxes = random_boxes(random, 2000, 30.0f);
  ShapeBVH bvh;
  bvh.build(boxes, 4);
  for (int r = 0; r < 300; ++r) {
    const Vec3 origin(random.uniform(-40, 40), random.uniform(-40, 40), random.uniform(-40, 40));
    Vec3 direction(random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1));
    if (r % 10 == 0) direction = Vec3(0, 0, random.uniform(-1, 1));  // parallel to two slabs
    const Vec3 inv = direction.reciprocal();
    float expected = 1.0f;
    for (const AABox& box : boxes)
      expected = std::min(expected, box.ray_fraction(origin, inv, 1.0f));
    float closest = 1.0f;
    bvh.cast_ray(origin, direction, 1.0f, [&](uint32_t p, float max_fraction) {
      closest = std::min(closest, boxes[p].ray_fraction(origin, inv, max_fraction));
      return closest;
    });
    ASSERT_EQ(closest, expected) << "ray " << r;
  }
}

}  // namespace
}  // namespace shape_bvh_test
}  // namespace atl
