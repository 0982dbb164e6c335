#pragma once
// A height field: a square grid of height samples, each cell split into two triangles along
// the diagonal from sample (x, z) to (x + 1, z + 1). Samples equal to k_no_collision are holes:
// every triangle touching one is missing. Like a triangle mesh it is static only, has no
// volume, answers the same triangle queries (with active edges, see ActiveEdges.h), and its
// ray cast walks only the cells under the ray instead of using a tree.

#include <cstdint>
#include <vector>

#include "atoll/shape/ActiveEdges.h"
#include "atoll/shape/Shape.h"

namespace atl {

class HeightFieldShape;

/// Everything needed to build a HeightFieldShape.
struct HeightFieldShapeSettings {
  /// Height value that marks a hole (a missing sample).
  static constexpr float k_no_collision = k_float_max;

  /// sample_count² heights, row-major in z then x: the sample at (x, z) is
  /// heights[z · sample_count + x]. Finite, or k_no_collision for a hole.
  std::vector<float> heights;
  /// Samples per side (≥ 2, ≤ 32768); the grid has (sample_count − 1)² cells.
  uint32_t sample_count = 0;
  /// Local position (m) of sample (0, 0) at height 0.
  Vec3 offset = Vec3::zero();
  /// Sample spacing in x and z (m) and the factor applied to heights; all > 0. Sample (x, z)
  /// is at offset + scale · (x, height, z).
  Vec3 scale = Vec3::replicate(1.0f);
  /// Empty (all 0), or one material index per cell, row-major in z then x
  /// ((sample_count − 1)² entries).
  std::vector<uint32_t> material_indices;
  /// Cosine of the bend angle above which an edge is active; default cos(5°), in [-1, 1].
  float active_edge_cos_threshold = k_default_active_edge_cos_threshold;

  /// Validates the settings and builds the shape; the error names the offending field.
  Result<Ref<Shape>> create() const;
  /// Like create(), typed.
  Result<Ref<HeightFieldShape>> create_height_field() const;
};

class HeightFieldShape final : public Shape {
 public:
  /// Height value that marks a hole.
  static constexpr float k_no_collision = HeightFieldShapeSettings::k_no_collision;

  /// Bounds of the grid and of every non-hole sample.
  AABox local_bounds() const override { return bounds_; }
  /// 0: a height field encloses no volume.
  float inner_radius() const override { return 0.0f; }
  /// Mass 0 and zero inertia: height fields are static only.
  MassProperties mass_properties() const override { return MassProperties(); }
  /// 0: a height field encloses no volume.
  float volume() const override { return 0.0f; }
  /// Closest triangle hit (either side), walking the cells under the ray.
  bool cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                RayCastResult& hit) const override;
  /// Always false: a height field has no inside.
  bool collide_point(const Vec3& /*point*/) const override { return false; }
  /// Unit normal of the triangle `id` (facing +y for a positive height scale).
  Vec3 surface_normal(const SubShapeID& id, const Vec3& local_point) const override;
  /// Material index of the cell of triangle `id` (0 when the settings gave none).
  uint32_t material_index(const SubShapeID& id) const override;

  /// Samples per side.
  uint32_t sample_count() const { return sample_count_; }
  /// Cells per side (sample_count − 1).
  uint32_t cell_count() const { return sample_count_ - 1; }
  /// Number of triangle slots, 2 per cell (holes included).
  uint32_t num_triangles() const { return 2 * cell_count() * cell_count(); }
  /// Raw height of sample (x, z) as given in the settings (k_no_collision for a hole).
  float height(uint32_t x, uint32_t z) const { return heights_[z * sample_count_ + x]; }
  /// True when sample (x, z) is a hole.
  bool is_hole(uint32_t x, uint32_t z) const { return height(x, z) == k_no_collision; }
  /// Local position (m) of sample (0, 0) at height 0.
  const Vec3& offset() const { return offset_; }
  /// Sample spacing in x and z (m) and the factor applied to heights.
  const Vec3& scale() const { return scale_; }
  /// Local position (m) of sample (x, z); meaningless for a hole.
  Vec3 sample_position(uint32_t x, uint32_t z) const {
    return offset_ + scale_ * Vec3(static_cast<float>(x), height(x, z), static_cast<float>(z));
  }
  /// Bits this height field pushes on a SubShapeID.
  uint32_t sub_shape_id_bits() const { return id_bits_; }
  /// Triangle index encoded in `id`: (z · cell_count + x) · 2 + which (0 or 1).
  uint32_t triangle_index(const SubShapeID& id) const;
  /// Cell (x, z) and which triangle of it (0 or 1) the triangle `id` is.
  void triangle_cell(const SubShapeID& id, uint32_t& out_x, uint32_t& out_z,
                     uint32_t& out_which) const;
  /// Vertices (local space, m) of the triangle `id`; the triangle must not be a hole.
  void triangle(const SubShapeID& id, Vec3 out_vertices[3]) const;
  /// Vertices of triangle `which` (0: samples (x,z) (x,z+1) (x+1,z+1); 1: (x,z) (x+1,z+1)
  /// (x+1,z)) of cell (x, z), counter-clockwise seen from +y. False when it touches a hole.
  bool triangle_vertices(uint32_t x, uint32_t z, uint32_t which, Vec3 out_vertices[3]) const;
  /// Active-edge mask of triangle `which` of cell (x, z), edges in triangle_vertices() order.
  uint8_t active_edges(uint32_t x, uint32_t z, uint32_t which) const {
    return (active_edges_[z * cell_count() + x] >> (3 * which)) & k_active_edge_all;
  }

  /// Calls callback(v0, v1, v2, active_edges, sub_shape_id) for every triangle whose bounds
  /// overlap `local_box` (touching counts), cells in z-then-x order. Vertices are in local
  /// space; sub_shape_id is `creator` with the triangle index pushed.
  template <class F>
  void collect_triangles(const AABox& local_box, F&& callback,
                         const SubShapeIDCreator& creator = SubShapeIDCreator()) const {
    uint32_t x_begin, x_end, z_begin, z_end;
    if (!cell_range(local_box, x_begin, x_end, z_begin, z_end)) return;
    for (uint32_t z = z_begin; z < z_end; ++z) {
      for (uint32_t x = x_begin; x < x_end; ++x) {
        for (uint32_t which = 0; which < 2; ++which) {
          Vec3 v[3];
          if (!triangle_vertices(x, z, which, v)) continue;
          const AABox bounds(Vec3::min(Vec3::min(v[0], v[1]), v[2]),
                             Vec3::max(Vec3::max(v[0], v[1]), v[2]));
          if (!bounds.overlaps(local_box)) continue;
          const uint32_t index = 2 * (z * cell_count() + x) + which;
          callback(v[0], v[1], v[2], active_edges(x, z, which), creator.push(index, id_bits_).id());
        }
      }
    }
  }

 private:
  friend struct HeightFieldShapeSettings;

  /// Builds from validated settings; use HeightFieldShapeSettings::create().
  explicit HeightFieldShape(const HeightFieldShapeSettings& settings);
  /// Cells [x_begin, x_end) × [z_begin, z_end) that may hold triangles overlapping `box`
  /// (one cell of margin against rounding); false when none.
  bool cell_range(const AABox& box, uint32_t& x_begin, uint32_t& x_end, uint32_t& z_begin,
                  uint32_t& z_end) const;
  void compute_active_edges(float cos_threshold);

  std::vector<float> heights_;
  std::vector<uint32_t> material_indices_;
  /// Per cell: active edges of triangle 0 in bits 0–2 and of triangle 1 in bits 3–5.
  std::vector<uint8_t> active_edges_;
  uint32_t sample_count_ = 0;
  Vec3 offset_;
  Vec3 scale_;
  AABox bounds_;
  uint32_t id_bits_ = 1;
};

}  // namespace atl
