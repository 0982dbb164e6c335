#pragma once
// A static bounding volume hierarchy over the primitives of one shape (a mesh's triangles, a
// compound's children). Built once, top-down with a binned surface-area heuristic, as a binary
// tree, which is then collapsed into nodes of up to eight children whose boxes a query tests at
// once in SIMD lanes (math/Lanes.h). Each wide node takes the eight largest-area nodes of the
// binary subtree below it, in the binary tree's left-to-right order, so a depth-first walk of
// the wide tree meets the leaves in the binary tree's order; and since a node's box holds its
// leaves', it visits exactly the leaves whose own boxes overlap. A query therefore reports the
// same primitives in the same order as the binary walk did, with a third of its levels and no
// branch per box. Queries walk it with a fixed-size stack (no allocation). The build uses only a
// deterministic partition and atl::quick_sort, so the same input gives the same tree, and the
// same query visiting order, on every platform.

#include <array>
#include <cstdint>
#include <vector>

#include "atoll/core/Assert.h"
#include "atoll/geometry/AABox.h"
#include "atoll/math/Float3.h"
#include "atoll/math/Lanes.h"

namespace atl {

class ShapeBVH {
 public:
  /// Children per node: one SIMD register of box coordinates per axis and side.
  static constexpr uint32_t k_width = Lanes::k_width;

  /// A wide node: the boxes of up to k_width children, one array per coordinate so that a query
  /// loads each as a Lanes. A child is a node (count 0: `child` is its index in nodes()) or a
  /// leaf (count > 0: primitives [child, child + count) of primitives()); slots not in `used`
  /// are empty.
  struct alignas(32) Node {
    /// Lower corners of the children's boxes (m), per axis.
    std::array<float, k_width> min_x, min_y, min_z;
    /// Upper corners of the children's boxes (m), per axis.
    std::array<float, k_width> max_x, max_y, max_z;
    /// Per child: node index, or first primitive slot of a leaf.
    std::array<uint32_t, k_width> child;
    /// Per child: number of primitives of a leaf; 0 for a node.
    std::array<uint8_t, k_width> count;
    /// Bit i set when slot i holds a child (the used slots come first).
    uint32_t used = 0;

    /// The box of child i.
    AABox bounds(uint32_t i) const {
      return AABox(Vec3(min_x[i], min_y[i], min_z[i]), Vec3(max_x[i], max_y[i], max_z[i]));
    }
    /// Bit i set when child i's box overlaps `box`, exactly as AABox::overlaps decides.
    uint32_t overlapping(const Lanes (&box)[6]) const {
      const LaneMask apart =
          (box[0] > Lanes::load(max_x.data())) | (box[3] < Lanes::load(min_x.data())) |
          (box[1] > Lanes::load(max_y.data())) | (box[4] < Lanes::load(min_y.data())) |
          (box[2] > Lanes::load(max_z.data())) | (box[5] < Lanes::load(min_z.data()));
      return ~apart.bits() & used;
    }
  };
  static_assert(sizeof(Node) == 256);

  /// Depth at which the build stops using the surface-area heuristic and halves primitive
  /// ranges instead, so that the tree depth stays below k_max_depth for any input.
  static constexpr uint32_t k_sah_depth_limit = 64;
  /// Upper bound of the binary tree's depth; the wide tree is no deeper.
  static constexpr uint32_t k_max_depth = k_sah_depth_limit + 34;
  /// Default number of primitives per leaf.
  static constexpr uint32_t k_default_max_leaf_size = 4;
  /// Largest number of primitives per leaf (a leaf's count is one byte).
  static constexpr uint32_t k_max_leaf_size = 255;

  /// An empty tree; build() fills it.
  ShapeBVH() = default;

  /// Builds the tree over `bounds` (primitive i has bounds[i], which must be valid boxes).
  /// Leaves hold at most `max_leaf_size` (1 … k_max_leaf_size) primitives. An empty input
  /// gives an empty tree.
  void build(const std::vector<AABox>& bounds, uint32_t max_leaf_size = k_default_max_leaf_size);

  /// Replaces every primitive index p by map[p], for a tree built over a subset of a
  /// shape's primitives (map[i] is the shape's index of the i-th box given to build()).
  void remap_primitives(const std::vector<uint32_t>& map) {
    for (uint32_t& p : primitives_) p = map[p];
  }

  /// True when the tree holds no primitive.
  bool empty() const { return nodes_.empty(); }
  /// Bounds of everything (an empty box for an empty tree).
  AABox root_bounds() const { return root_bounds_; }
  /// The wide nodes, root first, each node's first child node right after it.
  const std::vector<Node>& nodes() const { return nodes_; }
  /// Primitive indices in leaf order.
  const std::vector<uint32_t>& primitives() const { return primitives_; }
  /// Depth of the deepest leaf of the binary tree the wide one was collapsed from (the root
  /// alone has depth 1; 0 when empty).
  uint32_t depth() const { return depth_; }

  /// Calls visit(primitive_index) for every primitive in a leaf whose bounds overlap `box`,
  /// leaves in left-to-right order. The primitive's own bounds are not checked: callers test
  /// them if they need to.
  template <class F>
  void for_each_overlapping(const AABox& box, F&& visit) const {
    if (nodes_.empty()) return;
    const Lanes query[6] = {Lanes::broadcast(box.min.x()), Lanes::broadcast(box.min.y()),
                            Lanes::broadcast(box.min.z()), Lanes::broadcast(box.max.x()),
                            Lanes::broadcast(box.max.y()), Lanes::broadcast(box.max.z())};
    Entry stack[k_stack_size];
    uint32_t top = 0;
    stack[top++] = Entry{0, 0};
    while (top > 0) {
      const Entry entry = stack[--top];
      if (entry.count > 0) {
        for (uint32_t i = 0; i < entry.count; ++i) visit(primitives_[entry.child + i]);
        continue;
      }
      const Node& node = nodes_[entry.child];
      // Pushed last slot first, so that the children are taken in slot (left-to-right) order.
      for (uint32_t hits = node.overlapping(query); hits != 0;) {
        const uint32_t i = 31u - static_cast<uint32_t>(__builtin_clz(hits));
        hits &= ~(1u << i);
        ATOLL_ASSERT(top < k_stack_size, "ShapeBVH stack overflow");
        stack[top++] = Entry{node.child[i], node.count[i]};
      }
    }
  }

  /// Walks the leaves a ray origin + t·direction, t ∈ [0, max_fraction], may hit, nearest
  /// box first. For each primitive calls `float visit(primitive_index, max_fraction)`, which
  /// returns the new max_fraction (the closest hit so far); boxes entered beyond it are skipped.
  template <class F>
  void cast_ray(const Vec3& origin, const Vec3& direction, float max_fraction, F&& visit) const {
    if (nodes_.empty()) return;
    const Vec3 inv_direction = direction.reciprocal();
    if (root_bounds_.ray_fraction(origin, inv_direction, max_fraction) == k_float_max) return;
    struct RayEntry {
      Entry entry;
      float fraction;
    };
    RayEntry stack[k_stack_size];
    uint32_t top = 0;
    stack[top++] = {Entry{0, 0}, 0.0f};
    while (top > 0) {
      const RayEntry item = stack[--top];
      // A closer hit may have been found since this entry was pushed.
      if (item.fraction > max_fraction) continue;
      if (item.entry.count > 0) {
        for (uint32_t i = 0; i < item.entry.count; ++i)
          max_fraction = visit(primitives_[item.entry.child + i], max_fraction);
        continue;
      }
      const Node& node = nodes_[item.entry.child];
      // The children the ray enters, pushed farthest first so that the nearest is taken next;
      // of equal fractions the lower slot is taken first.
      RayEntry hits[k_width];
      uint32_t num_hits = 0;
      for (uint32_t i = 0; i < k_width; ++i) {
        if ((node.used & (1u << i)) == 0) continue;
        const float f = node.bounds(i).ray_fraction(origin, inv_direction, max_fraction);
        if (f == k_float_max) continue;
        uint32_t j = num_hits++;
        for (; j > 0 && hits[j - 1].fraction <= f; --j) hits[j] = hits[j - 1];
        hits[j] = {Entry{node.child[i], node.count[i]}, f};
      }
      ATOLL_ASSERT(top + num_hits <= k_stack_size, "ShapeBVH stack overflow");
      for (uint32_t i = 0; i < num_hits; ++i) stack[top++] = hits[i];
    }
  }

 private:
  /// A child to visit: a node (count 0) or a leaf's primitives.
  struct Entry {
    uint32_t child;
    uint32_t count;
  };
  /// Each wide level is at least one binary level and pushes at most k_width − 1 entries
  /// beyond the one it pops.
  static constexpr uint32_t k_stack_size = (k_width - 1) * k_max_depth + 1;

  struct BuildContext;
  uint32_t build_node(BuildContext& context, uint32_t begin, uint32_t end, uint32_t depth);
  uint32_t collapse(const BuildContext& context, uint32_t binary_node);

  std::vector<Node> nodes_;
  std::vector<uint32_t> primitives_;
  AABox root_bounds_;
  uint32_t depth_ = 0;
};

}  // namespace atl
