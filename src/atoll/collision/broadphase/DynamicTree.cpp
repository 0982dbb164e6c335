#include "atoll/collision/broadphase/DynamicTree.h"

#include <algorithm>
#include <sstream>
#include <string>

namespace atl {

namespace {

std::string describe(const AABox& box) {
  std::ostringstream os;
  os << "min " << box.min << ", max " << box.max;
  return os.str();
}

Error node_error(uint32_t node, const char* problem) {
  return Error("DynamicTree.validate: node " + std::to_string(node) + ": " + problem);
}

}  // namespace

AABox DynamicTree::fatten(const AABox& tight_box, const Vec3& displacement, float margin) {
  // Saturated at the largest float: a body whose finite bounds lie near it (one flying at
  // 1e38 m/s after move_kinematic with a tiny dt, or with a huge max_linear_velocity) got an
  // infinite fat box, which update_many's move asserted on, ending the process. Its position
  // overflows a step later and it is quarantined then.
  const Vec3 lowest = Vec3::replicate(-k_float_max), highest = Vec3::replicate(k_float_max);
  const AABox grown = tight_box.expanded(margin);
  return AABox(
      Vec3::max(Vec3::max(grown.min, lowest) + Vec3::min(displacement, Vec3::zero()), lowest),
      Vec3::min(Vec3::min(grown.max, highest) + Vec3::max(displacement, Vec3::zero()), highest));
}

Error DynamicTree::box_error(const AABox& box, std::string_view field) {
  if (!box.min.is_finite() || !box.max.is_finite()) {
    return Error(std::string(field) + ": must be finite, got " + describe(box));
  }
  return Error(std::string(field) + ": min must be <= max, got " + describe(box));
}

Status DynamicTree::check_proxy(uint32_t proxy, const char* function) const {
  if (is_leaf(proxy)) return Ok{};
  return Error(std::string("DynamicTree.") + function + ".proxy: " + std::to_string(proxy) +
               " is not a leaf of this tree");
}

uint32_t DynamicTree::allocate_node() {
  uint32_t index;
  if (free_list_ != k_null_node) {
    index = free_list_;
    free_list_ = nodes_[index].parent;
  } else {
    index = static_cast<uint32_t>(nodes_.size());
    ATOLL_ASSERT(index != k_null_node, "DynamicTree: node index space exhausted");
    nodes_.emplace_back();
  }
  Node& node = nodes_[index];
  node.box = AABox();
  node.parent = k_null_node;
  node.child[0] = node.child[1] = k_null_node;
  node.value = 0;
  node.height = 0;
  return index;
}

void DynamicTree::free_node(uint32_t index) {
  Node& node = nodes_[index];
  node.parent = free_list_;
  node.height = -1;
  free_list_ = index;
}

Result<uint32_t> DynamicTree::insert(const AABox& fat_box, uint32_t value) {
  if (Status s = check_box(fat_box, "DynamicTree.insert.fat_box"); !s) return s.error();
  const uint32_t leaf = allocate_node();
  nodes_[leaf].box = fat_box;
  nodes_[leaf].value = value;
  insert_leaf(leaf);
  ++leaf_count_;
  return leaf;
}

Status DynamicTree::remove(uint32_t proxy) {
  if (Status s = check_proxy(proxy, "remove"); !s) return s;
  remove_leaf(proxy);
  free_node(proxy);
  --leaf_count_;
  return Ok{};
}

Error DynamicTree::update_error(uint32_t proxy, const AABox& tight_box, const Vec3& displacement,
                                float margin) const {
  if (Status s = check_proxy(proxy, "update"); !s) return s.error();
  if (Status s = check_box(tight_box, "DynamicTree.update.tight_box"); !s) return s.error();
  if (!displacement.is_finite()) {
    std::ostringstream os;
    os << "DynamicTree.update.displacement: must be finite, got " << displacement;
    return Error(os.str());
  }
  return Error("DynamicTree.update.margin: must be finite and >= 0, got " + std::to_string(margin));
}

bool DynamicTree::needs_new_box(uint32_t proxy, const AABox& tight_box, const Vec3& displacement,
                                float margin, AABox& new_box) const {
  ATOLL_ASSERT(is_leaf(proxy) && is_valid_box(tight_box) && displacement.is_finite() &&
               margin >= 0.0f);
  const AABox& stored = nodes_[proxy].box;
  new_box = fatten(tight_box, displacement, margin);
  // Covering both the current and the displaced tight box covers this step's sweep, so pairs
  // are found before the bodies touch. The upper limit drops boxes stretched by an earlier fast
  // motion, which would otherwise produce false pairs for as long as the body stays inside.
  const bool inside = stored.contains(tight_box) &&
                      stored.contains(tight_box.translated(displacement)) &&
                      new_box.expanded(4.0f * margin).contains(stored);
  return !inside;
}

bool DynamicTree::update_leaf(uint32_t proxy, const AABox& tight_box, const Vec3& displacement,
                              float margin) {
  AABox needed;
  if (!needs_new_box(proxy, tight_box, displacement, margin, needed)) return false;
  reinsert(proxy, needed);
  return true;
}

void DynamicTree::reinsert(uint32_t proxy, const AABox& box) {
  remove_leaf(proxy);
  nodes_[proxy].box = box;
  insert_leaf(proxy);
}

Status DynamicTree::move_leaves(std::span<const LeafMove> moves) {
  for (const LeafMove& move : moves) {
    if (Status s = check_proxy(move.proxy, "move_leaves"); !s) return s;
    if (Status s = check_box(move.box, "DynamicTree.move_leaves.box"); !s) return s;
  }
  // Re-inserting a leaf costs a walk down and a refit (with rotations) up to the root; a
  // rebuild costs about as much as re-inserting a quarter of the leaves (HighSpeed: 5000 fast
  // bodies re-inserted every step) and gives the tightest tree for the next queries. Cheaper
  // still is to keep the tree's shape and refit its boxes (O(n), no sorting), which is good
  // as long as the leaves have not wandered far from their neighbours in it: the tree is
  // rebuilt once the refitted boxes' total area exceeds k_refit_area_limit times what the
  // last rebuild gave (HighSpeed: about every other step; update_bounds 1.1 -> 0.65 ms).
  if (leaf_count_ >= k_min_leaves_to_rebuild && moves.size() * 4 > leaf_count_) {
    for (const LeafMove& move : moves) nodes_[move.proxy].box = move.box;
    const float area = refit_subtree(root_);
    if (!(area <= k_refit_area_limit * rebuilt_area_)) rebuild();
    return Ok{};
  }
  for (const LeafMove& move : moves) reinsert(move.proxy, move.box);
  return Ok{};
}

float DynamicTree::refit_subtree(uint32_t index) {
  Node& node = nodes_[index];
  if (node.height == 0) return 0.0f;
  const float below = refit_subtree(node.child[0]) + refit_subtree(node.child[1]);
  node.box = AABox::merged(nodes_[node.child[0]].box, nodes_[node.child[1]].box);
  return below + node.box.surface_area();
}

void DynamicTree::clear() {
  nodes_.clear();
  root_ = k_null_node;
  free_list_ = k_null_node;
  leaf_count_ = 0;
}

void DynamicTree::rebuild() {
  if (leaf_count_ < 3) return;
  std::vector<BuildLeaf>& leaves = build_scratch_;
  leaves.clear();
  leaves.reserve(leaf_count_);
  // Collect the leaves in node order (not tree order), so that the result depends only on the
  // set of leaves and their boxes; free the internal nodes for reuse.
  free_list_ = k_null_node;
  for (uint32_t i = static_cast<uint32_t>(nodes_.size()); i-- > 0;) {
    if (nodes_[i].height == 0) {
      const AABox& box = nodes_[i].box;
      leaves.push_back({box.min + box.max, i});
    } else {
      free_node(i);
    }
  }
  root_ = build_top_down(leaves.data(), static_cast<uint32_t>(leaves.size()));
  nodes_[root_].parent = k_null_node;
  rebuilt_area_ = 0.0f;
  for (const Node& node : nodes_)
    if (node.height > 0) rebuilt_area_ += node.box.surface_area();
}

uint32_t DynamicTree::build_top_down(BuildLeaf* leaves, uint32_t count) {
  if (count == 1) return leaves[0].node;
  AABox centers;
  for (uint32_t i = 0; i < count; ++i) centers.encapsulate(0.5f * leaves[i].center_sum);
  const int axis = centers.size().max_component_index();
  // Ties broken by node index: a strict total order, so which leaves form each half, and so
  // the tree, is fully determined. Only the halves matter (each is split again on its own
  // axis), so a selection does instead of a sort: O(n) per level instead of O(n log n), on
  // the leaves' centres copied side by side; this makes a rebuild cheap enough to replace
  // mass re-insertion (DynamicTree::move_leaves).
  const uint32_t half = count / 2;
  std::nth_element(leaves, leaves + half, leaves + count,
                   [axis](const BuildLeaf& a, const BuildLeaf& b) {
                     const float ca = a.center_sum[axis];
                     const float cb = b.center_sum[axis];
                     return ca < cb || (ca == cb && a.node < b.node);
                   });
  const uint32_t left = build_top_down(leaves, half);
  const uint32_t right = build_top_down(leaves + half, count - half);
  const uint32_t node = allocate_node();
  nodes_[node].child[0] = left;
  nodes_[node].child[1] = right;
  nodes_[left].parent = node;
  nodes_[right].parent = node;
  refit(node);
  return node;
}

uint32_t DynamicTree::find_best_sibling(const AABox& box) const {
  // Greedy descent on the surface-area heuristic: placing the leaf next to node N creates a
  // parent of area(N ∪ leaf) and grows every ancestor of N. Descend while a child promises a
  // lower cost than making the new parent here.
  const float box_area = box.surface_area();
  float inherited = 0.0f;  // growth of the ancestors' areas when the leaf goes below `index`
  uint32_t index = root_;
  while (nodes_[index].height > 0) {
    const Node& node = nodes_[index];
    const float merged_area = AABox::merged(node.box, box).surface_area();
    const float cost_here = merged_area + inherited;
    const float child_inherited = inherited + (merged_area - node.box.surface_area());
    float child_cost[2];
    for (int c = 0; c < 2; ++c) {
      const Node& child = nodes_[node.child[c]];
      const float child_merged = AABox::merged(child.box, box).surface_area();
      // A leaf child would become the sibling; below an internal child the new parent has at
      // least the leaf's area and the child grows: a lower bound of that subtree's cost.
      child_cost[c] = child.height == 0
                          ? child_merged + child_inherited
                          : child_merged - child.box.surface_area() + box_area + child_inherited;
    }
    if (cost_here <= child_cost[0] && cost_here <= child_cost[1]) break;
    index = node.child[child_cost[1] < child_cost[0] ? 1 : 0];
  }
  return index;
}

void DynamicTree::insert_leaf(uint32_t leaf) {
  if (root_ == k_null_node) {
    root_ = leaf;
    nodes_[leaf].parent = k_null_node;
    return;
  }
  const uint32_t sibling = find_best_sibling(nodes_[leaf].box);
  const uint32_t old_parent = nodes_[sibling].parent;
  const uint32_t new_parent = allocate_node();  // may reallocate nodes_: no references above
  Node& parent = nodes_[new_parent];
  parent.parent = old_parent;
  parent.child[0] = sibling;
  parent.child[1] = leaf;
  nodes_[sibling].parent = new_parent;
  nodes_[leaf].parent = new_parent;
  if (old_parent == k_null_node) {
    root_ = new_parent;
  } else {
    Node& op = nodes_[old_parent];
    op.child[op.child[0] == sibling ? 0 : 1] = new_parent;
  }
  refit_to_root(new_parent);
}

void DynamicTree::remove_leaf(uint32_t leaf) {
  if (leaf == root_) {
    root_ = k_null_node;
    return;
  }
  const uint32_t parent = nodes_[leaf].parent;
  const uint32_t grand_parent = nodes_[parent].parent;
  const uint32_t sibling = nodes_[parent].child[nodes_[parent].child[0] == leaf ? 1 : 0];
  nodes_[sibling].parent = grand_parent;
  free_node(parent);
  if (grand_parent == k_null_node) {
    root_ = sibling;
    return;
  }
  Node& gp = nodes_[grand_parent];
  gp.child[gp.child[0] == parent ? 0 : 1] = sibling;
  refit_to_root(grand_parent);
}

void DynamicTree::refit(uint32_t index) {
  Node& node = nodes_[index];
  const Node& a = nodes_[node.child[0]];
  const Node& b = nodes_[node.child[1]];
  node.box = AABox::merged(a.box, b.box);
  node.height = 1 + (a.height > b.height ? a.height : b.height);
}

void DynamicTree::refit_to_root(uint32_t index) {
  while (index != k_null_node) {
    refit(index);
    const uint32_t balanced = balance(index);
    if (balanced == index) rotate_for_area(index);
    index = nodes_[balanced].parent;
  }
}

uint32_t DynamicTree::balance(uint32_t a) {
  Node& node_a = nodes_[a];
  if (node_a.height < 2) return a;
  const int32_t diff = nodes_[node_a.child[1]].height - nodes_[node_a.child[0]].height;
  if (diff >= -1 && diff <= 1) return a;
  // Rotate the taller child `up` into A's place. Children have no order, so of up's two
  // children the taller stays with up and the shorter moves down to A. An ordered AVL tree is
  // never more than 2 out of balance; here a leaf inserted next to a tall subtree (which the
  // SAH picks for large boxes) unbalances its new parent by that subtree's height, so A, now
  // holding its old short child and the moved one, is balanced recursively: the short subtree
  // sinks until it meets a subtree of its height, O(height) rotations in all.
  const int s = diff > 0 ? 1 : 0;
  const uint32_t up = node_a.child[s];
  Node& node_up = nodes_[up];
  const int keep = nodes_[node_up.child[0]].height >= nodes_[node_up.child[1]].height ? 0 : 1;
  const uint32_t moved = node_up.child[1 - keep];

  node_up.parent = node_a.parent;
  if (node_a.parent == k_null_node) {
    root_ = up;
  } else {
    Node& p = nodes_[node_a.parent];
    p.child[p.child[0] == a ? 0 : 1] = up;
  }
  node_up.child[1 - keep] = a;
  node_a.parent = up;
  node_a.child[s] = moved;
  nodes_[moved].parent = a;
  refit(a);
  // With h = up's height before the rotation, its kept child has height h - 1 and the moved
  // one h - 1 or h - 2 (up was balanced). Rebalancing never makes a subtree lower than its
  // taller child, so A ends at h - 2 .. h and up is balanced too.
  balance(a);
  refit(up);
  return up;
}

void DynamicTree::rotate_for_area(uint32_t a) {
  Node& node_a = nodes_[a];
  if (node_a.height < 2) return;
  // Candidates: child `down` of A trades places with grandchild `up` below A's other child P.
  // A keeps its leaves and box; only P's box changes, so the gain is P's loss of area. Only
  // equally tall subtrees are swapped, which keeps every height and so the AVL balance.
  float best_gain = 0.0f;
  int best_down = -1, best_up = -1;
  for (int d = 0; d < 2; ++d) {
    const Node& p = nodes_[node_a.child[1 - d]];
    if (p.height == 0) continue;
    const Node& down = nodes_[node_a.child[d]];
    for (int u = 0; u < 2; ++u) {
      if (nodes_[p.child[u]].height != down.height) continue;
      const Node& stays = nodes_[p.child[1 - u]];
      const float gain = p.box.surface_area() - AABox::merged(down.box, stays.box).surface_area();
      if (gain > best_gain) {
        best_gain = gain;
        best_down = d;
        best_up = u;
      }
    }
  }
  if (best_down < 0) return;
  const uint32_t down = node_a.child[best_down];
  const uint32_t p = node_a.child[1 - best_down];
  const uint32_t up = nodes_[p].child[best_up];
  node_a.child[best_down] = up;
  nodes_[up].parent = a;
  nodes_[p].child[best_up] = down;
  nodes_[down].parent = p;
  refit(p);
}

float DynamicTree::area_ratio() const {
  if (root_ == k_null_node || nodes_[root_].height == 0) return 0.0f;
  float internal_area = 0.0f;
  for (const Node& node : nodes_) {
    if (node.height > 0) internal_area += node.box.surface_area();
  }
  const float root_area = nodes_[root_].box.surface_area();
  return root_area > 0.0f ? internal_area / root_area : 0.0f;
}

Status DynamicTree::validate() const {
  const size_t node_count = nodes_.size();
  std::vector<uint8_t> seen(node_count, 0);
  uint32_t leaves = 0;
  size_t reachable = 0;
  if (root_ != k_null_node) {
    if (root_ >= node_count) return node_error(root_, "root index out of range");
    if (nodes_[root_].parent != k_null_node) return node_error(root_, "root has a parent");
    std::vector<uint32_t> stack{root_};
    while (!stack.empty()) {
      const uint32_t index = stack.back();
      stack.pop_back();
      if (seen[index]) return node_error(index, "reached twice (cycle or shared child)");
      seen[index] = 1;
      ++reachable;
      const Node& node = nodes_[index];
      if (node.height < 0) return node_error(index, "free node linked into the tree");
      if (node.height == 0) {
        if (node.child[0] != k_null_node || node.child[1] != k_null_node) {
          return node_error(index, "leaf with children");
        }
        if (!check_box(node.box, "box").ok()) return node_error(index, "invalid leaf box");
        ++leaves;
        continue;
      }
      for (int c = 0; c < 2; ++c) {
        const uint32_t child = node.child[c];
        if (child >= node_count) return node_error(index, "child index out of range");
        if (nodes_[child].parent != index) return node_error(child, "wrong parent link");
        stack.push_back(child);
      }
      const Node& a = nodes_[node.child[0]];
      const Node& b = nodes_[node.child[1]];
      if (node.height != 1 + (a.height > b.height ? a.height : b.height)) {
        return node_error(index, "height is not 1 + the taller child's");
      }
      if (a.height - b.height > 1 || b.height - a.height > 1) {
        return node_error(index, "children's heights differ by more than one");
      }
      if (!(node.box == AABox::merged(a.box, b.box))) {
        return node_error(index, "box is not the union of the children's boxes");
      }
    }
  }
  if (leaves != leaf_count_) {
    return Error("DynamicTree.validate: " + std::to_string(leaves) + " leaves reachable, " +
                 std::to_string(leaf_count_) + " counted");
  }
  size_t free_count = 0;
  for (uint32_t index = free_list_; index != k_null_node; index = nodes_[index].parent) {
    if (index >= node_count) return node_error(index, "free list index out of range");
    if (seen[index]) return node_error(index, "on the free list and in the tree, or listed twice");
    if (nodes_[index].height != -1) return node_error(index, "on the free list but not free");
    seen[index] = 1;
    ++free_count;
  }
  if (reachable + free_count != node_count) {
    return Error("DynamicTree.validate: " + std::to_string(node_count - reachable - free_count) +
                 " nodes are neither in the tree nor on the free list");
  }
  return Ok{};
}

}  // namespace atl
