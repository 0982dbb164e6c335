#pragma once
// An incremental bounding-volume hierarchy over "fat" boxes (the dynamic AABB tree of Box2D and
// Bullet). Leaves hold a user value and a box somewhat larger than the object, so that an object
// that moves a little stays in its leaf; only when it leaves the fat box is the leaf re-inserted.
//
// Insertion picks the sibling by the surface-area heuristic (SAH). On the way back up, AVL
// rotations keep every node's children within one level of each other, so the height stays
// below 1.44·log2(leaves) whatever the input (sorted, nested or identical boxes); where a node is
// already balanced, a swap of equally tall subtrees that shrinks the node's children (SAH) is
// taken instead. Nodes live in one
// vector with a free list, so the tree grows without a capacity limit and, for the same sequence of
// operations, is built identically (proxy ids included) on every run.
//
// This is the building block of BroadPhase, which owns the mapping from bodies to proxies.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "atoll/core/Result.h"
#include "atoll/core/StaticArray.h"
#include "atoll/geometry/AABox.h"

namespace atl {

class DynamicTree {
 public:
  /// "No node": the parent of the root, the children of a leaf, the root of an empty tree.
  static constexpr uint32_t k_null_node = 0xffffffffu;

  /// The fat box for an object with `tight_box` that moves by `displacement` (m) next: grown by
  /// `margin` (m) on every side, then stretched toward the displacement; finite for any finite
  /// input (saturated at ±k_float_max).
  static AABox fatten(const AABox& tight_box, const Vec3& displacement, float margin);
  /// True when `box` is finite with min ≤ max.
  static bool is_valid_box(const AABox& box) {
    return box.min.is_finite() && box.max.is_finite() && box.is_valid();
  }
  /// Ok when is_valid_box(box); else an error whose message starts with `field`.
  static Status check_box(const AABox& box, std::string_view field) {
    if (is_valid_box(box)) return Ok{};
    return box_error(box, field);
  }

  /// Adds a leaf holding `value` with `fat_box`; returns its proxy id, stable until removed.
  /// Error when the box is not finite or inverted.
  Result<uint32_t> insert(const AABox& fat_box, uint32_t value);
  /// Removes a leaf. Error when `proxy` is not a leaf of this tree.
  Status remove(uint32_t proxy);
  /// Tells the tree that the leaf's object now has `tight_box` and will move by `displacement`
  /// (m). Re-inserts the leaf with fatten(tight_box, displacement, margin) when the tight box or
  /// its displaced copy leaves the stored fat box, or when the stored box has grown far larger
  /// than needed (more than 4 × margin on a side, e.g. after a fast body stopped). Returns true
  /// when re-inserted. Error for a bad proxy, a non-finite or inverted box, a negative margin.
  Result<bool> update(uint32_t proxy, const AABox& tight_box, const Vec3& displacement,
                      float margin) {
    // Checked inline, reported out of line: this runs for every active body every step.
    if (!is_leaf(proxy) || !is_valid_box(tight_box) || !displacement.is_finite() ||
        !(margin >= 0.0f) || !is_finite(margin)) {
      return update_error(proxy, tight_box, displacement, margin);
    }
    return update_leaf(proxy, tight_box, displacement, margin);
  }
  /// A leaf and the fat box it is to get (DynamicTree::move_leaves).
  struct LeafMove {
    /// Proxy id of the leaf.
    uint32_t proxy;
    /// Its new fat box (world space, m).
    AABox box;
  };
  /// Gives every listed leaf its new box. Re-inserts them one by one in the list's order (as
  /// update() does), or, when they are more than a quarter of at least k_min_leaves_to_rebuild
  /// leaves, keeps the tree's shape and refits its boxes, or rebuilds it as rebuild() does once
  /// refitting would leave it much looser than the last rebuild (k_refit_area_limit). Error
  /// (nothing changed) for a proxy that is not a leaf or a non-finite or inverted box.
  Status move_leaves(std::span<const LeafMove> moves);
  /// The fewest leaves for which move_leaves refits or rebuilds (below, re-inserting is cheap
  /// anyway).
  static constexpr uint32_t k_min_leaves_to_rebuild = 64;
  /// move_leaves keeps the tree's shape and refits its boxes while their total area stays
  /// within this factor of what the last rebuild gave.
  static constexpr float k_refit_area_limit = 1.3f;
  /// Whether update(proxy, tight_box, displacement, margin) would give the leaf a new box, and
  /// that box (`new_box`, set either way). Inputs as update() validates them (asserted).
  bool needs_new_box(uint32_t proxy, const AABox& tight_box, const Vec3& displacement, float margin,
                     AABox& new_box) const;
  /// Removes every leaf (keeps the storage).
  void clear();
  /// Rebuilds the internal nodes top-down (median splits along the widest axis of the leaf
  /// centres) for the best query speed, e.g. after loading a level. Proxy ids stay valid.
  void rebuild();

  /// The tree's nodes, root and free list, for a rollback snapshot (state/WorldSnapshot.h).
  class Snapshot;
  /// Copies the tree into `snapshot` (replacing what it held; its buffers are reused).
  void save(Snapshot& snapshot) const;
  /// Makes the tree exactly what `snapshot` holds (same proxies, same shape).
  void restore(const Snapshot& snapshot);

  /// True when `proxy` is a leaf of this tree.
  bool is_leaf(uint32_t proxy) const { return proxy < nodes_.size() && nodes_[proxy].height == 0; }
  /// The stored fat box of a leaf (asserts is_leaf).
  const AABox& fat_box(uint32_t proxy) const {
    ATOLL_ASSERT(is_leaf(proxy), "DynamicTree::fat_box: not a leaf");
    return nodes_[proxy].box;
  }
  /// The user value of a leaf (asserts is_leaf).
  uint32_t value(uint32_t proxy) const {
    ATOLL_ASSERT(is_leaf(proxy), "DynamicTree::value: not a leaf");
    return nodes_[proxy].value;
  }
  /// Number of leaves.
  uint32_t size() const { return leaf_count_; }
  /// True when there are no leaves.
  bool empty() const { return leaf_count_ == 0; }
  /// Edges on the longest root-to-leaf path (0 for an empty tree or a single leaf).
  uint32_t height() const {
    return root_ == k_null_node ? 0u : static_cast<uint32_t>(nodes_[root_].height);
  }
  /// Box around every leaf (an empty, inverted box when the tree is empty).
  AABox bounds() const { return root_ == k_null_node ? AABox() : nodes_[root_].box; }
  /// Sum of the surface areas of the internal nodes over that of the root: the SAH cost of the
  /// tree, lower is better (0 for fewer than two leaves).
  float area_ratio() const;
  /// Checks every structural invariant (links, heights, AVL balance, boxes, counts, free list);
  /// the error names the first broken one. For tests.
  Status validate() const;

  /// Calls `callback(value)` for every leaf whose fat box overlaps `box`; the callback returns
  /// false to stop the query.
  template <class Callback>
  void query_aabox(const AABox& box, Callback&& callback) const {
    query_leaves([&box](const AABox& b) { return b.overlaps(box); }, callback);
  }
  /// Calls `callback(value)` for every leaf whose fat box contains `point`; the callback returns
  /// false to stop the query.
  template <class Callback>
  void query_point(const Vec3& point, Callback&& callback) const {
    query_leaves([&point](const AABox& b) { return b.contains(point); }, callback);
  }
  /// Sets `marks` to one byte per node: 1 where the subtree holds a leaf whose value passes
  /// `is_marked(value)`, else 0. Input to overlapping_pairs.
  template <class IsMarked>
  void mark_subtrees(IsMarked&& is_marked, std::vector<uint8_t>& marks) const {
    marks.assign(nodes_.size(), 0);
    for (uint32_t i = 0; i < nodes_.size(); ++i) {
      if (nodes_[i].height != 0 || !is_marked(nodes_[i].value)) continue;
      for (uint32_t n = i; n != k_null_node && marks[n] == 0; n = nodes_[n].parent) marks[n] = 1;
    }
  }
  /// mark_subtrees when every leaf is marked: every node (in use or not) marked.
  void mark_all(std::vector<uint8_t>& marks) const { marks.assign(nodes_.size(), 1); }
  /// A place in the walk of overlapping_pairs: node `a` of this tree against node `b` of the
  /// other (a == b in the same tree: the pairs within that subtree).
  struct PairWalkEntry {
    uint32_t a;
    uint32_t b;
  };
  /// Calls `callback(value, other_value)` once for every pair of a leaf of this tree and a
  /// leaf of `other` whose fat boxes overlap and of which at least one is marked (`marks` and
  /// `other_marks` from mark_subtrees on each tree). With `other` this very tree, every such
  /// pair of two distinct leaves, once. One walk over both trees at a time (subtrees that do
  /// not overlap, or hold no marked leaf on either side, are skipped whole) instead of one
  /// query per leaf: the top of the tree is visited once, not once per leaf.
  template <class Callback>
  void overlapping_pairs(const std::vector<uint8_t>& marks, const DynamicTree& other,
                         const std::vector<uint8_t>& other_marks, Callback&& callback) const {
    if (root_ == k_null_node || other.root_ == k_null_node) return;
    const PairWalkEntry root{root_, other.root_};
    overlapping_pairs_from(marks, other, other_marks, std::span<const PairWalkEntry>(&root, 1),
                           callback);
  }
  /// The first levels of overlapping_pairs' walk, breadth first, until at least `min_entries`
  /// places are left to walk (or none): reports the pairs met on the way to `callback` and
  /// appends the places to `out`. overlapping_pairs_from on those places, in any order and on
  /// any threads (each with its own callback), reports the rest: together, every pair once.
  template <class Callback>
  void split_overlapping_pairs(const std::vector<uint8_t>& marks, const DynamicTree& other,
                               const std::vector<uint8_t>& other_marks, size_t min_entries,
                               std::vector<PairWalkEntry>& out, Callback&& callback) const {
    if (root_ == k_null_node || other.root_ == k_null_node) return;
    check_walk_marks(marks, other, other_marks);
    const size_t first = out.size();
    size_t head = first;
    out.push_back({root_, other.root_});
    while (head < out.size() && out.size() - head < min_entries) {
      const PairWalkEntry e = out[head++];
      walk_step(
          marks, other, other_marks, e, [&out](PairWalkEntry next) { out.push_back(next); },
          callback);
    }
    // The places walked are done: only those left stay.
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(first),
              out.begin() + static_cast<std::ptrdiff_t>(head));
  }
  /// overlapping_pairs' walk from the given places (from split_overlapping_pairs).
  template <class Callback>
  void overlapping_pairs_from(const std::vector<uint8_t>& marks, const DynamicTree& other,
                              const std::vector<uint8_t>& other_marks,
                              std::span<const PairWalkEntry> starts, Callback&& callback) const {
    check_walk_marks(marks, other, other_marks);
    // Each entry popped pushes at most three, one level down in one tree or both, and all but
    // one wait while the last is walked: below 3 × (height + other height) + 3 ≤ 285.
    StaticArray<PairWalkEntry, 288> stack;
    for (const PairWalkEntry& start : starts) {
      stack.push_back(start);
      while (!stack.empty()) {
        const PairWalkEntry e = stack.back();
        stack.pop_back();
        walk_step(
            marks, other, other_marks, e, [&stack](PairWalkEntry next) { stack.push_back(next); },
            callback);
      }
    }
  }
  /// Casts the segment origin + t·direction, t ∈ [0, max_fraction], and calls
  /// `callback(value, entry_fraction)` for every leaf whose fat box it enters, nearer subtrees
  /// first. The callback returns the new max fraction (return the one it was given to keep it,
  /// a hit's fraction to only look for closer ones, a negative value to stop).
  template <class Callback>
  void cast_ray(const Vec3& origin, const Vec3& direction, float max_fraction,
                Callback&& callback) const {
    cast(origin, Vec3::zero(), direction, max_fraction, callback);
  }
  /// Like cast_ray for a box moving by t·direction: `callback(value, entry_fraction)` for every
  /// leaf whose fat box the moving `box` touches, from the fraction where it starts touching.
  /// Tighter than query_aabox over the box's whole sweep when the motion is long and diagonal.
  template <class Callback>
  void cast_aabox(const AABox& box, const Vec3& direction, float max_fraction,
                  Callback&& callback) const {
    cast(box.center(), box.extent(), direction, max_fraction, callback);
  }

  /// The test cast_ray and cast_aabox apply to every node: the ray origin + t·direction,
  /// t ∈ [0, max_fraction], against boxes grown by `extent` (a box cast is the ray of its
  /// centre). Public so that a caller can apply the very same test to a chosen leaf (bit for
  /// bit the fraction the tree would report, see BroadPhase::cast_aabox_among).
  struct SweptBox {
    SweptBox(const Vec3& origin_, const Vec3& extent_, const Vec3& direction, float max_fraction)
        : origin(origin_),
          extent(extent_),
          // 1/0 = ±inf marks an axis the ray is parallel to; AABox::ray_fraction handles it.
          inv_direction(direction.reciprocal()) {
      const AABox start = AABox::from_center(origin, extent);
      sweep = AABox::merged(start, start.translated(direction * max_fraction));
    }
    /// Entry fraction (≤ max) of the moving box into `box`, or k_float_max when it misses.
    /// Monotone: a box containing another is entered no later, so a parent passes whenever
    /// one of its leaves does.
    float fraction(const AABox& box, float max) const {
      // The bounds of the whole sweep reject most boxes more cheaply than the slab test.
      if (!box.overlaps(sweep)) return k_float_max;
      return box.expanded(extent).ray_fraction(origin, inv_direction, max);
    }

    /// Centre of the box at t = 0 (m).
    Vec3 origin;
    /// Half extent of the moving box (m; zero for a ray).
    Vec3 extent;
    /// 1 / direction per axis (±inf where the direction is 0).
    Vec3 inv_direction;
    /// Bounds of the moving box over [0, max_fraction] given at construction.
    AABox sweep;
  };

 private:
  // BroadPhase validates its inputs itself and calls update_leaf directly.
  friend class BroadPhase;

  // A depth-first stack holds at most height + 1 entries. An AVL tree of height h has at least
  // Fib(h + 2) ≥ φ^h leaves, so 2^32 leaves (more than uint32 node ids allow) stay below 47.
  template <class T>
  using TraversalStack = StaticArray<T, 64>;

  struct Node {
    AABox box;          // fat box (leaf) or the union of the children's boxes
    uint32_t parent;    // parent node; next free node while on the free list
    uint32_t child[2];  // k_null_node for leaves
    uint32_t value;     // user value (leaves)
    int32_t height;     // 0 for leaves, -1 while on the free list
  };

  void check_walk_marks(const std::vector<uint8_t>& marks, const DynamicTree& other,
                        const std::vector<uint8_t>& other_marks) const {
    ATOLL_ASSERT(marks.size() == nodes_.size() && other_marks.size() == other.nodes_.size(),
                 "DynamicTree::overlapping_pairs: marks from mark_subtrees");
    (void)marks;
    (void)other;
    (void)other_marks;
  }
  // One place of overlapping_pairs' walk: a pair of leaves goes to `callback`, the places one
  // level down to `push`.
  template <class Push, class Callback>
  void walk_step(const std::vector<uint8_t>& marks, const DynamicTree& other,
                 const std::vector<uint8_t>& other_marks, PairWalkEntry e, Push&& push,
                 Callback& callback) const {
    const Node& na = nodes_[e.a];
    const Node& nb = other.nodes_[e.b];
    if (this == &other && e.a == e.b) {
      if (na.height == 0 || marks[e.a] == 0) return;
      push({na.child[0], na.child[0]});
      push({na.child[1], na.child[1]});
      push({na.child[0], na.child[1]});
      return;
    }
    if ((marks[e.a] | other_marks[e.b]) == 0 || !na.box.overlaps(nb.box)) return;
    if (na.height == 0 && nb.height == 0) {
      callback(na.value, nb.value);
    } else if (nb.height == 0 || (na.height != 0 && na.height >= nb.height)) {
      // The taller subtree splits, so both sides shrink at a similar pace.
      push({na.child[0], e.b});
      push({na.child[1], e.b});
    } else {
      push({e.a, nb.child[0]});
      push({e.a, nb.child[1]});
    }
  }

  // cast_ray and cast_aabox: every node through SweptBox, nearer subtrees first.
  template <class Callback>
  void cast(const Vec3& origin, const Vec3& extent, const Vec3& direction, float max_fraction,
            Callback& callback) const {
    if (root_ == k_null_node || !(max_fraction >= 0.0f)) return;
    const SweptBox swept(origin, extent, direction, max_fraction);
    struct Entry {
      uint32_t node;
      float fraction;
    };
    const float root_fraction = swept.fraction(nodes_[root_].box, max_fraction);
    if (root_fraction == k_float_max) return;
    TraversalStack<Entry> stack;
    stack.push_back({root_, root_fraction});
    while (!stack.empty()) {
      const Entry entry = stack.back();
      stack.pop_back();
      // The limit may have shrunk since the entry was pushed.
      if (entry.fraction > max_fraction) continue;
      const Node& node = nodes_[entry.node];
      if (node.height == 0) {
        const float new_max = callback(node.value, entry.fraction);
        if (new_max < max_fraction) max_fraction = new_max;
        if (max_fraction < 0.0f) return;
        continue;
      }
      const float f0 = swept.fraction(nodes_[node.child[0]].box, max_fraction);
      const float f1 = swept.fraction(nodes_[node.child[1]].box, max_fraction);
      // Push the farther child first so that the nearer one is visited first.
      const bool first_is_near = f0 <= f1;
      const Entry near{node.child[first_is_near ? 0 : 1], first_is_near ? f0 : f1};
      const Entry far{node.child[first_is_near ? 1 : 0], first_is_near ? f1 : f0};
      if (far.fraction != k_float_max) stack.push_back(far);
      if (near.fraction != k_float_max) stack.push_back(near);
    }
  }

  template <class Test, class Callback>
  void query_leaves(const Test& test, Callback& callback) const {
    if (root_ == k_null_node) return;
    TraversalStack<uint32_t> stack;
    stack.push_back(root_);
    while (!stack.empty()) {
      const Node& node = nodes_[stack.back()];
      stack.pop_back();
      if (!test(node.box)) continue;
      if (node.height == 0) {
        if (!callback(node.value)) return;
      } else {
        stack.push_back(node.child[1]);
        stack.push_back(node.child[0]);
      }
    }
  }

  // A leaf as rebuild() sorts it: min + max of its box (twice its centre) and its node.
  struct BuildLeaf {
    Vec3 center_sum;
    uint32_t node;
  };
  uint32_t build_top_down(BuildLeaf* leaves, uint32_t count);
  uint32_t allocate_node();
  void free_node(uint32_t index);
  void insert_leaf(uint32_t leaf);
  void remove_leaf(uint32_t leaf);
  uint32_t find_best_sibling(const AABox& box) const;
  // Refits boxes and heights from `index` to the root, rotating where unbalanced.
  void refit_to_root(uint32_t index);
  // Restores AVL balance in the subtree of `index`, whose two child subtrees must be balanced;
  // returns the subtree's new root.
  uint32_t balance(uint32_t index);
  // Swaps a child of `index` with an equally tall grandchild on the other side when that
  // reduces the surface area of the node's children; keeps every height.
  void rotate_for_area(uint32_t index);
  void refit(uint32_t index);
  Status check_proxy(uint32_t proxy, const char* function) const;
  static Error box_error(const AABox& box, std::string_view field);
  Error update_error(uint32_t proxy, const AABox& tight_box, const Vec3& displacement,
                     float margin) const;
  // Recomputes the boxes of the internal nodes below `index` from its leaves; returns the
  // sum of their surface areas (m²).
  float refit_subtree(uint32_t index);
  // Moves a leaf to `box`: out of the tree and back in.
  void reinsert(uint32_t proxy, const AABox& box);
  // update() on validated inputs.
  bool update_leaf(uint32_t proxy, const AABox& tight_box, const Vec3& displacement, float margin);

  std::vector<Node> nodes_;
  uint32_t root_ = k_null_node;
  uint32_t free_list_ = k_null_node;
  uint32_t leaf_count_ = 0;
  // Sum of the internal nodes' surface areas (m²) right after the last rebuild (0 before).
  float rebuilt_area_ = 0.0f;
  // rebuild() scratch, kept to spare an allocation per rebuild.
  std::vector<BuildLeaf> build_scratch_;

 public:
  class Snapshot {
   public:
    /// Bytes the copied nodes use.
    size_t bytes() const { return nodes_.size() * sizeof(Node); }

   private:
    friend class DynamicTree;
    std::vector<Node> nodes_;
    uint32_t root_ = k_null_node;
    uint32_t free_list_ = k_null_node;
    uint32_t leaf_count_ = 0;
    float rebuilt_area_ = 0.0f;
  };
};

inline void DynamicTree::save(Snapshot& snapshot) const {
  snapshot.nodes_ = nodes_;
  snapshot.root_ = root_;
  snapshot.free_list_ = free_list_;
  snapshot.leaf_count_ = leaf_count_;
  snapshot.rebuilt_area_ = rebuilt_area_;
}

inline void DynamicTree::restore(const Snapshot& snapshot) {
  nodes_ = snapshot.nodes_;
  root_ = snapshot.root_;
  free_list_ = snapshot.free_list_;
  leaf_count_ = snapshot.leaf_count_;
  rebuilt_area_ = snapshot.rebuilt_area_;
}

}  // namespace atl
