#pragma once
// A static bounding volume hierarchy over the primitives of one shape (a mesh's triangles, a
// compound's children). Built once, top-down with a binned surface-area heuristic, into a flat
// array of 32-byte nodes in depth-first order: the left child of node i is node i + 1, so only
// the right child's index is stored. Queries walk it with a fixed-size stack (no allocation).
// The build uses only a deterministic partition and atl::quick_sort, so the same input gives
// the same tree, and the same query visiting order, on every platform.

#include <cstdint>
#include <vector>

#include "atoll/core/Assert.h"
#include "atoll/geometry/AABox.h"
#include "atoll/math/Float3.h"

namespace atl {

class ShapeBVH {
 public:
  /// A node: a leaf when `count` > 0 (primitives [first, first + count) of primitives()),
  /// otherwise an internal node whose left child follows it and whose right child is `right`.
  struct Node {
    /// Lower corner of the node's bounds (m).
    Float3 min;
    /// Right child (internal node) or first primitive slot (leaf).
    uint32_t right_or_first = 0;
    /// Upper corner of the node's bounds (m).
    Float3 max;
    /// Number of primitives of a leaf; 0 for an internal node.
    uint32_t count = 0;

    /// True for a leaf.
    bool is_leaf() const { return count > 0; }
    /// The node's bounds as a box.
    AABox bounds() const { return AABox(Vec3(min), Vec3(max)); }
  };
  static_assert(sizeof(Node) == 32);

  /// Depth at which the build stops using the surface-area heuristic and halves primitive
  /// ranges instead, so that the tree depth stays below k_max_depth for any input.
  static constexpr uint32_t k_sah_depth_limit = 64;
  /// Upper bound of the tree depth (and of the traversal stack).
  static constexpr uint32_t k_max_depth = k_sah_depth_limit + 34;
  /// Default number of primitives per leaf.
  static constexpr uint32_t k_default_max_leaf_size = 4;

  /// An empty tree; build() fills it.
  ShapeBVH() = default;

  /// Builds the tree over `bounds` (primitive i has bounds[i], which must be valid boxes).
  /// Leaves hold at most `max_leaf_size` (≥ 1) primitives. An empty input gives an empty tree.
  void build(const std::vector<AABox>& bounds, uint32_t max_leaf_size = k_default_max_leaf_size);

  /// Replaces every primitive index p by map[p], for a tree built over a subset of a
  /// shape's primitives (map[i] is the shape's index of the i-th box given to build()).
  void remap_primitives(const std::vector<uint32_t>& map) {
    for (uint32_t& p : primitives_) p = map[p];
  }

  /// True when the tree holds no primitive.
  bool empty() const { return nodes_.empty(); }
  /// Bounds of everything (an empty box for an empty tree).
  AABox root_bounds() const { return nodes_.empty() ? AABox() : nodes_[0].bounds(); }
  /// The nodes, root first.
  const std::vector<Node>& nodes() const { return nodes_; }
  /// Primitive indices in leaf order.
  const std::vector<uint32_t>& primitives() const { return primitives_; }
  /// Depth of the deepest leaf (the root alone has depth 1; 0 when empty).
  uint32_t depth() const { return depth_; }

  /// Calls visit(primitive_index) for every primitive in a leaf whose node bounds overlap
  /// `box`. The primitive's own bounds are not checked: callers test them if they need to.
  template <class F>
  void for_each_overlapping(const AABox& box, F&& visit) const {
    if (nodes_.empty()) return;
    uint32_t stack[k_max_depth + 1];
    uint32_t top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const uint32_t index = stack[--top];
      const Node& node = nodes_[index];
      if (!node.bounds().overlaps(box)) continue;
      if (node.is_leaf()) {
        for (uint32_t i = 0; i < node.count; ++i) visit(primitives_[node.right_or_first + i]);
      } else {
        // Right pushed first so that the left subtree is visited first (depth-first order).
        ATOLL_ASSERT(top + 2 <= k_max_depth + 1, "ShapeBVH deeper than k_max_depth");
        stack[top++] = node.right_or_first;
        stack[top++] = index + 1;
      }
    }
  }

  /// Walks the leaves a ray origin + t·direction, t ∈ [0, max_fraction], may hit, nearest
  /// node first. For each primitive calls `float visit(primitive_index, max_fraction)`, which
  /// returns the new max_fraction (the closest hit so far); nodes entered beyond it are skipped.
  template <class F>
  void cast_ray(const Vec3& origin, const Vec3& direction, float max_fraction, F&& visit) const {
    if (nodes_.empty()) return;
    const Vec3 inv_direction = direction.reciprocal();
    struct Entry {
      uint32_t node;
      float fraction;
    };
    Entry stack[k_max_depth + 1];
    uint32_t top = 0;
    const float root_fraction =
        nodes_[0].bounds().ray_fraction(origin, inv_direction, max_fraction);
    if (root_fraction == k_float_max) return;
    stack[top++] = {0, root_fraction};
    while (top > 0) {
      const Entry entry = stack[--top];
      // A closer hit may have been found since this node was pushed.
      if (entry.fraction > max_fraction) continue;
      const Node& node = nodes_[entry.node];
      if (node.is_leaf()) {
        for (uint32_t i = 0; i < node.count; ++i)
          max_fraction = visit(primitives_[node.right_or_first + i], max_fraction);
        continue;
      }
      const uint32_t left = entry.node + 1;
      const uint32_t right = node.right_or_first;
      const float f_left = nodes_[left].bounds().ray_fraction(origin, inv_direction, max_fraction);
      const float f_right =
          nodes_[right].bounds().ray_fraction(origin, inv_direction, max_fraction);
      ATOLL_ASSERT(top + 2 <= k_max_depth + 1, "ShapeBVH deeper than k_max_depth");
      // Push the far child first so that the near one is popped next; ties go left first.
      if (f_left <= f_right) {
        if (f_right != k_float_max) stack[top++] = {right, f_right};
        if (f_left != k_float_max) stack[top++] = {left, f_left};
      } else {
        if (f_left != k_float_max) stack[top++] = {left, f_left};
        stack[top++] = {right, f_right};
      }
    }
  }

 private:
  struct BuildContext;
  uint32_t build_node(BuildContext& context, uint32_t begin, uint32_t end, uint32_t depth);

  std::vector<Node> nodes_;
  std::vector<uint32_t> primitives_;
  uint32_t depth_ = 0;
};

}  // namespace atl
