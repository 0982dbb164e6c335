#include "atoll/shape/TriangleMeshShape.h"

#include <algorithm>
#include <string>
#include <utility>

#include "atoll/core/QuickSort.h"
#include "atoll/geometry/RayIntersections.h"
#include "atoll/shape/Validation.h"

namespace atl {

namespace {

/// Largest triangle count whose indices fit a SubShapeID (all ones stays reserved).
constexpr size_t k_max_triangles = (size_t{1} << 31) - 2;

std::string field(const std::string& path) { return "TriangleMeshShapeSettings." + path; }

/// True when a triangle has (almost) no area: its sharpest angle has a sine below 1e-6, or it
/// collapsed to a point. Such triangles have no usable normal.
bool is_degenerate_triangle(const Vec3& v0, const Vec3& v1, const Vec3& v2) {
  const Vec3 e01 = v1 - v0;
  const Vec3 e02 = v2 - v0;
  const Vec3 e12 = v2 - v1;
  const float max_edge_sq = std::max(std::max(e01.length_sq(), e02.length_sq()), e12.length_sq());
  // |e01 × e02| = |e01|·|e02|·sin(angle) ≤ max_edge²; comparing squares avoids a sqrt.
  const float twice_area_sq = e01.cross(e02).length_sq();
  return !(twice_area_sq > 0.0f && twice_area_sq > square(1.0e-6f * max_edge_sq));
}

Vec3 triangle_normal(const Vec3 v[3]) {
  return (v[1] - v[0]).cross(v[2] - v[0]).normalized_or(Vec3::axis_y());
}

}  // namespace

Result<Ref<TriangleMeshShape>> TriangleMeshShapeSettings::create_mesh() const {
  if (vertices.empty()) return field_error(field("vertices"), "must not be empty");
  if (triangles.empty()) return field_error(field("triangles"), "must not be empty");
  if (triangles.size() > k_max_triangles)
    return field_error(field("triangles"), "must hold at most " + std::to_string(k_max_triangles) +
                                               " triangles, got " +
                                               std::to_string(triangles.size()));
  if (!(active_edge_cos_threshold >= -1.0f && active_edge_cos_threshold <= 1.0f))
    return field_error(field("active_edge_cos_threshold"),
                       "must be in [-1, 1], got " + format_float(active_edge_cos_threshold));
  for (size_t i = 0; i < vertices.size(); ++i) {
    if (auto error = check_finite(field("vertices[" + std::to_string(i) + "]"), Vec3(vertices[i])))
      return *error;
  }
  std::vector<uint8_t> flags(triangles.size(), 0);
  size_t degenerate = 0;
  for (size_t i = 0; i < triangles.size(); ++i) {
    const IndexedTriangle& t = triangles[i];
    for (int j = 0; j < 3; ++j) {
      if (t.idx[j] >= vertices.size())
        return field_error(
            field("triangles[" + std::to_string(i) + "].idx[" + std::to_string(j) + "]"),
            "vertex index " + std::to_string(t.idx[j]) + " out of range (" +
                std::to_string(vertices.size()) + " vertices)");
    }
    if (is_degenerate_triangle(Vec3(vertices[t.idx[0]]), Vec3(vertices[t.idx[1]]),
                               Vec3(vertices[t.idx[2]]))) {
      flags[i] = TriangleMeshShape::k_degenerate;
      ++degenerate;
    }
  }
  if (degenerate == triangles.size())
    return field_error(field("triangles"), "all " + std::to_string(degenerate) +
                                               " triangles are degenerate (zero area)");
  return Ref<TriangleMeshShape>(new TriangleMeshShape(*this, std::move(flags)));
}

Result<Ref<Shape>> TriangleMeshShapeSettings::create() const {
  Result<Ref<TriangleMeshShape>> mesh = create_mesh();
  if (!mesh.ok()) return mesh.error();
  return Ref<Shape>(std::move(mesh).value());
}

TriangleMeshShape::TriangleMeshShape(const TriangleMeshShapeSettings& settings,
                                     std::vector<uint8_t> flags)
    : Shape(ShapeType::Mesh, ShapeSubType::TriangleMesh),
      vertices_(settings.vertices),
      triangles_(settings.triangles),
      active_edges_(std::move(flags)),
      id_bits_(atl::sub_shape_id_bits(static_cast<uint32_t>(settings.triangles.size()))) {
  // The BVH holds only the triangles that take part in queries; its primitive indices are
  // the triangle indices, so SubShapeIDs match the settings' triangle list.
  std::vector<AABox> bounds;
  std::vector<uint32_t> indices;
  bounds.reserve(triangles_.size());
  indices.reserve(triangles_.size());
  for (uint32_t i = 0; i < num_triangles(); ++i) {
    if (is_degenerate(i)) {
      ++degenerate_count_;
      continue;
    }
    Vec3 v[3];
    triangle_vertices(i, v);
    bounds.push_back(triangle_bounds(v));
    indices.push_back(i);
  }
  bvh_.build(bounds);
  bvh_.remap_primitives(indices);
  compute_active_edges(settings.active_edge_cos_threshold);
}

void TriangleMeshShape::compute_active_edges(float cos_threshold) {
  // Welds vertices by exact position first, so that meshes whose triangles do not share
  // vertex indices (a triangle soup) still find their neighbours.
  const uint32_t num_vertices = static_cast<uint32_t>(vertices_.size());
  std::vector<uint32_t> order(num_vertices);
  for (uint32_t i = 0; i < num_vertices; ++i) order[i] = i;
  quick_sort(order.begin(), order.end(), [this](uint32_t a, uint32_t b) {
    const Float3& pa = vertices_[a];
    const Float3& pb = vertices_[b];
    if (pa.x != pb.x) return pa.x < pb.x;
    if (pa.y != pb.y) return pa.y < pb.y;
    if (pa.z != pb.z) return pa.z < pb.z;
    return a < b;
  });
  std::vector<uint32_t> canonical(num_vertices);
  for (uint32_t i = 0; i < num_vertices; ++i) {
    const bool same = i > 0 && vertices_[order[i]] == vertices_[order[i - 1]];
    canonical[order[i]] = same ? canonical[order[i - 1]] : order[i];
  }

  struct EdgeRecord {
    uint64_t key;
    /// triangle · 3 + edge slot.
    uint32_t triangle_edge;
  };
  std::vector<EdgeRecord> edges;
  edges.reserve(3 * (triangles_.size() - degenerate_count_));
  for (uint32_t t = 0; t < num_triangles(); ++t) {
    if (is_degenerate(t)) continue;
    for (uint32_t e = 0; e < 3; ++e) {
      uint32_t a = canonical[triangles_[t].idx[e]];
      uint32_t b = canonical[triangles_[t].idx[(e + 1) % 3]];
      if (a > b) std::swap(a, b);
      edges.push_back({(uint64_t{a} << 32) | b, 3 * t + e});
    }
  }
  quick_sort(edges.begin(), edges.end(), [](const EdgeRecord& a, const EdgeRecord& b) {
    return a.key != b.key ? a.key < b.key : a.triangle_edge < b.triangle_edge;
  });

  auto normal_of = [this](uint32_t t) {
    Vec3 v[3];
    triangle_vertices(t, v);
    return triangle_normal(v);
  };
  for (size_t begin = 0; begin < edges.size();) {
    size_t end = begin + 1;
    while (end < edges.size() && edges[end].key == edges[begin].key) ++end;
    // Boundary edges (one triangle) and non-manifold edges (three or more) are always active.
    bool active = true;
    if (end - begin == 2) {
      active = is_edge_active(normal_of(edges[begin].triangle_edge / 3),
                              normal_of(edges[begin + 1].triangle_edge / 3), cos_threshold);
    }
    if (active) {
      for (size_t i = begin; i < end; ++i) {
        const uint32_t t = edges[i].triangle_edge / 3;
        active_edges_[t] |= static_cast<uint8_t>(1u << (edges[i].triangle_edge % 3));
      }
    }
    begin = end;
  }
}

bool TriangleMeshShape::cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                                 RayCastResult& hit) const {
  uint32_t best = UINT32_MAX;
  float best_fraction = hit.fraction;
  bvh_.cast_ray(ray.origin, ray.direction, hit.fraction, [&](uint32_t index, float max_fraction) {
    Vec3 v[3];
    triangle_vertices(index, v);
    const float f = ray_triangle(ray.origin, ray.direction, v[0], v[1], v[2]);
    if (f < max_fraction) {
      best = index;
      best_fraction = f;
      return f;
    }
    return max_fraction;
  });
  if (best == UINT32_MAX) return false;
  hit.fraction = best_fraction;
  hit.sub_shape_id = creator.push(best, id_bits_).id();
  return true;
}

uint32_t TriangleMeshShape::triangle_index(const SubShapeID& id) const {
  SubShapeID remainder;
  const uint32_t index = id.pop(id_bits_, remainder);
  ATOLL_ASSERT(index < num_triangles(), "SubShapeID does not name a triangle of this mesh");
  return index;
}

void TriangleMeshShape::triangle(const SubShapeID& id, Vec3 out_vertices[3]) const {
  triangle_vertices(triangle_index(id), out_vertices);
}

Vec3 TriangleMeshShape::surface_normal(const SubShapeID& id, const Vec3& /*local_point*/) const {
  Vec3 v[3];
  triangle(id, v);
  return triangle_normal(v);
}

uint32_t TriangleMeshShape::material_index(const SubShapeID& id) const {
  return triangles_[triangle_index(id)].material_index;
}

}  // namespace atl
