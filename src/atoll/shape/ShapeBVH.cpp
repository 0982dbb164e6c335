#include "atoll/shape/ShapeBVH.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace atl {

namespace {

/// Number of bins the surface-area heuristic evaluates per split.
constexpr uint32_t k_num_bins = 16;

}  // namespace

/// A node of the binary tree the build makes first: a leaf when `count` > 0 (primitives
/// [right_or_first, right_or_first + count)), otherwise an internal node whose left child
/// follows it and whose right child is node `right_or_first`.
struct BinaryNode {
  AABox bounds;
  uint32_t right_or_first = 0;
  uint32_t count = 0;
};

struct ShapeBVH::BuildContext {
  const std::vector<AABox>& bounds;
  std::vector<Vec3> centers;
  uint32_t max_leaf_size;
  std::vector<BinaryNode> binary;
};

void ShapeBVH::build(const std::vector<AABox>& bounds, uint32_t max_leaf_size) {
  ATOLL_ASSERT(max_leaf_size >= 1 && max_leaf_size <= k_max_leaf_size);
  nodes_.clear();
  primitives_.clear();
  root_bounds_ = AABox();
  depth_ = 0;
  if (bounds.empty()) return;

  BuildContext context{bounds, {}, max_leaf_size, {}};
  context.centers.reserve(bounds.size());
  primitives_.reserve(bounds.size());
  for (size_t i = 0; i < bounds.size(); ++i) {
    ATOLL_ASSERT(bounds[i].is_valid(), "ShapeBVH primitive bounds must be valid");
    context.centers.push_back(bounds[i].center());
    primitives_.push_back(static_cast<uint32_t>(i));
  }
  // A binary tree with leaves of ≥ 1 primitive has fewer than 2n nodes.
  context.binary.reserve(2 * bounds.size());
  build_node(context, 0, static_cast<uint32_t>(bounds.size()), 1);
  root_bounds_ = context.binary[0].bounds;
  collapse(context, 0);
  nodes_.shrink_to_fit();
}

uint32_t ShapeBVH::collapse(const BuildContext& context, uint32_t binary_node) {
  const std::vector<BinaryNode>& binary = context.binary;
  // The node's children: the binary node's two, then repeatedly the internal child of the
  // largest area (the first of equal ones) replaced in place by its two children, which keeps
  // them in the binary tree's left-to-right order. A binary root that is a leaf becomes the
  // only child of the wide root.
  uint32_t children[k_width];
  uint32_t num_children = 0;
  const BinaryNode& top = binary[binary_node];
  if (top.count > 0) {
    children[num_children++] = binary_node;
  } else {
    children[num_children++] = binary_node + 1;
    children[num_children++] = top.right_or_first;
  }
  while (num_children < k_width) {
    uint32_t widest = k_width;
    float widest_area = -1.0f;
    for (uint32_t i = 0; i < num_children; ++i) {
      const BinaryNode& child = binary[children[i]];
      if (child.count > 0) continue;
      const float area = child.bounds.surface_area();
      if (area > widest_area) {
        widest_area = area;
        widest = i;
      }
    }
    if (widest == k_width) break;
    const uint32_t opened = children[widest];
    for (uint32_t i = num_children; i > widest + 1; --i) children[i] = children[i - 1];
    children[widest] = opened + 1;
    children[widest + 1] = binary[opened].right_or_first;
    ++num_children;
  }

  const uint32_t index = static_cast<uint32_t>(nodes_.size());
  Node node;
  for (uint32_t i = 0; i < k_width; ++i) {
    // Empty slots hold an inverted box, and `used` keeps them out of every query.
    const BinaryNode* child = i < num_children ? &binary[children[i]] : nullptr;
    const Vec3 min = child != nullptr ? child->bounds.min : Vec3::replicate(k_float_max);
    const Vec3 max = child != nullptr ? child->bounds.max : Vec3::replicate(-k_float_max);
    node.min_x[i] = min.x();
    node.min_y[i] = min.y();
    node.min_z[i] = min.z();
    node.max_x[i] = max.x();
    node.max_y[i] = max.y();
    node.max_z[i] = max.z();
    node.child[i] = child != nullptr && child->count > 0 ? child->right_or_first : 0;
    node.count[i] = child != nullptr ? static_cast<uint8_t>(child->count) : 0;
  }
  node.used = (1u << num_children) - 1u;
  nodes_.push_back(node);
  // Child nodes after their parent, depth first: the first one right after it.
  for (uint32_t i = 0; i < num_children; ++i) {
    if (binary[children[i]].count > 0) continue;
    const uint32_t child_index = collapse(context, children[i]);
    nodes_[index].child[i] = child_index;
  }
  return index;
}

uint32_t ShapeBVH::build_node(BuildContext& context, uint32_t begin, uint32_t end, uint32_t depth) {
  ATOLL_ASSERT(end > begin);
  ATOLL_ASSERT(depth <= k_max_depth, "ShapeBVH deeper than k_max_depth");
  depth_ = std::max(depth_, depth);

  AABox node_bounds;
  AABox center_bounds;
  for (uint32_t i = begin; i < end; ++i) {
    const uint32_t p = primitives_[i];
    node_bounds.encapsulate(context.bounds[p]);
    center_bounds.encapsulate(context.centers[p]);
  }
  std::vector<BinaryNode>& nodes = context.binary;
  const uint32_t index = static_cast<uint32_t>(nodes.size());
  BinaryNode node;
  node.bounds = node_bounds;
  const uint32_t count = end - begin;
  if (count <= context.max_leaf_size) {
    node.right_or_first = begin;
    node.count = count;
    nodes.push_back(node);
    return index;
  }
  nodes.push_back(node);

  const Vec3 center_extent = center_bounds.size();
  const int axis = center_extent.max_component_index();
  uint32_t mid = begin + count / 2;
  // Halving keeps pathological inputs (all centres equal, exponential spacing) at depth
  // O(log n); otherwise split at the bin boundary with the lowest surface-area cost.
  const float bin_scale = static_cast<float>(k_num_bins) / center_extent[axis];
  // Binned only over a finite extent: centres ±3e38 apart overflow it to ∞, the scale to 0 and
  // a bin to ∞ · 0 = NaN, which no integer holds (found by the shapes fuzzer).
  if (depth < k_sah_depth_limit && center_extent[axis] > 0.0f &&
      std::isfinite(center_extent[axis]) && std::isfinite(bin_scale)) {
    const float axis_min = center_bounds.min[axis];
    auto bin_of = [&](uint32_t p) {
      const float b = (context.centers[p][axis] - axis_min) * bin_scale;
      // Not above the last bin (and 0 for anything that is not a number ≥ 0).
      return b >= float(k_num_bins - 1) ? k_num_bins - 1 : (b >= 0.0f ? uint32_t(b) : 0u);
    };
    AABox bin_bounds[k_num_bins];
    uint32_t bin_count[k_num_bins] = {};
    for (uint32_t i = begin; i < end; ++i) {
      const uint32_t p = primitives_[i];
      const uint32_t b = bin_of(p);
      bin_bounds[b].encapsulate(context.bounds[p]);
      ++bin_count[b];
    }
    // Sweep from the right to get the cost of every right side, then from the left.
    float right_area[k_num_bins];
    uint32_t right_count[k_num_bins];
    AABox accumulated;
    uint32_t accumulated_count = 0;
    for (uint32_t b = k_num_bins - 1; b > 0; --b) {
      accumulated.encapsulate(bin_bounds[b]);
      accumulated_count += bin_count[b];
      right_area[b] = accumulated_count > 0 ? accumulated.surface_area() : 0.0f;
      right_count[b] = accumulated_count;
    }
    accumulated = AABox();
    accumulated_count = 0;
    float best_cost = k_float_max;
    uint32_t best_split = 0;
    for (uint32_t b = 1; b < k_num_bins; ++b) {
      accumulated.encapsulate(bin_bounds[b - 1]);
      accumulated_count += bin_count[b - 1];
      if (accumulated_count == 0 || right_count[b] == 0) continue;
      const float cost = accumulated.surface_area() * static_cast<float>(accumulated_count) +
                         right_area[b] * static_cast<float>(right_count[b]);
      if (cost < best_cost) {
        best_cost = cost;
        best_split = b;
      }
    }
    if (best_split > 0) {
      // In-place partition with a fixed algorithm (std::partition's order is unspecified).
      uint32_t i = begin;
      uint32_t j = end;
      while (i < j) {
        if (bin_of(primitives_[i]) < best_split) {
          ++i;
        } else {
          --j;
          std::swap(primitives_[i], primitives_[j]);
        }
      }
      mid = i;
    }
  }
  ATOLL_ASSERT(mid > begin && mid < end);
  build_node(context, begin, mid, depth + 1);
  const uint32_t right = build_node(context, mid, end, depth + 1);
  nodes[index].right_or_first = right;
  return index;
}

}  // namespace atl
