#pragma once
// A static triangle mesh: a triangle soup indexed into a vertex list, with a BVH over the
// triangles and precomputed active-edge flags (see ActiveEdges.h). Meshes have no volume and no
// mass: they are for static (or kinematic) bodies only. Triangles are double-sided for ray
// casts; the front face is the counter-clockwise one (normal (v1 − v0) × (v2 − v0)).

#include <cstdint>
#include <vector>

#include "atoll/math/Float3.h"
#include "atoll/shape/ActiveEdges.h"
#include "atoll/shape/Shape.h"
#include "atoll/shape/ShapeBVH.h"

namespace atl {

/// A triangle of a mesh: three indices into the vertex list and a material index.
struct IndexedTriangle {
  /// Vertex indices, counter-clockwise seen from the front.
  uint32_t idx[3] = {0, 0, 0};
  /// Free for the user (a surface type); returned by Shape::material_index().
  uint32_t material_index = 0;
};

class TriangleMeshShape;

/// Everything needed to build a TriangleMeshShape.
struct TriangleMeshShapeSettings {
  /// Vertex positions (m), in the shape's local space.
  std::vector<Float3> vertices;
  /// Triangles indexing into `vertices`. Zero-area triangles are dropped (see
  /// TriangleMeshShape::degenerate_triangles_removed()); at least one must remain.
  std::vector<IndexedTriangle> triangles;
  /// Cosine of the bend angle above which an edge between two triangles is active; default
  /// cos(5°). Must be in [-1, 1].
  float active_edge_cos_threshold = k_default_active_edge_cos_threshold;

  /// Validates the settings and builds the shape; the error names the offending field.
  Result<Ref<Shape>> create() const;
  /// Like create(), typed.
  Result<Ref<TriangleMeshShape>> create_mesh() const;
};

class TriangleMeshShape final : public Shape {
 public:
  /// Bounds of the non-degenerate triangles.
  AABox local_bounds() const override { return bvh_.root_bounds(); }
  /// 0: a mesh encloses no volume.
  float inner_radius() const override { return 0.0f; }
  /// Mass 0 and zero inertia: meshes are static only.
  MassProperties mass_properties() const override { return MassProperties(); }
  /// 0: a mesh encloses no volume.
  float volume() const override { return 0.0f; }
  /// Closest triangle hit (either side); SubShapeID is the triangle index.
  bool cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                RayCastResult& hit) const override;
  /// Always false: a mesh has no inside.
  bool collide_point(const Vec3& /*point*/) const override { return false; }
  /// Unit front-face normal of the triangle `id` (any point).
  Vec3 surface_normal(const SubShapeID& id, const Vec3& local_point) const override;
  /// Material index of the triangle `id`.
  uint32_t material_index(const SubShapeID& id) const override;

  /// Number of triangles, including the degenerate ones that were dropped (their indices stay
  /// reserved so that triangle indices match TriangleMeshShapeSettings::triangles).
  uint32_t num_triangles() const { return static_cast<uint32_t>(triangles_.size()); }
  /// Number of zero-area triangles that are left out of every query.
  uint32_t degenerate_triangles_removed() const { return degenerate_count_; }
  /// Bits this mesh pushes on a SubShapeID (enough for a triangle index).
  uint32_t sub_shape_id_bits() const { return id_bits_; }
  /// Triangle index encoded in `id` (this mesh's bits come first).
  uint32_t triangle_index(const SubShapeID& id) const;
  /// Vertices (local space, m) of the triangle `id`, in counter-clockwise order.
  void triangle(const SubShapeID& id, Vec3 out_vertices[3]) const;
  /// Vertices of triangle `index`.
  void triangle_vertices(uint32_t index, Vec3 out_vertices[3]) const {
    const IndexedTriangle& t = triangles_[index];
    out_vertices[0] = Vec3(vertices_[t.idx[0]]);
    out_vertices[1] = Vec3(vertices_[t.idx[1]]);
    out_vertices[2] = Vec3(vertices_[t.idx[2]]);
  }
  /// Active-edge mask of triangle `index` (k_active_edge_01 | _12 | _20 bits).
  uint8_t active_edges(uint32_t index) const { return active_edges_[index] & k_active_edge_all; }
  /// True when triangle `index` was dropped as degenerate.
  bool is_degenerate(uint32_t index) const { return (active_edges_[index] & k_degenerate) != 0; }
  /// The vertex list (m).
  const std::vector<Float3>& vertices() const { return vertices_; }
  /// The triangle list, as given in the settings.
  const std::vector<IndexedTriangle>& triangles() const { return triangles_; }
  /// The tree over the non-degenerate triangles.
  const ShapeBVH& bvh() const { return bvh_; }

  /// Calls callback(v0, v1, v2, active_edges, sub_shape_id) for every triangle whose bounds
  /// overlap `local_box` (touching counts), in a deterministic order. Vertices are in local
  /// space; sub_shape_id is `creator` with the triangle index pushed.
  template <class F>
  void collect_triangles(const AABox& local_box, F&& callback,
                         const SubShapeIDCreator& creator = SubShapeIDCreator()) const {
    bvh_.for_each_overlapping(local_box, [&](uint32_t index) {
      Vec3 v[3];
      triangle_vertices(index, v);
      if (!triangle_bounds(v).overlaps(local_box)) return;
      callback(v[0], v[1], v[2], active_edges(index), creator.push(index, id_bits_).id());
    });
  }

  /// Bounds of a triangle given by its vertices.
  static AABox triangle_bounds(const Vec3 v[3]) {
    return AABox(Vec3::min(Vec3::min(v[0], v[1]), v[2]), Vec3::max(Vec3::max(v[0], v[1]), v[2]));
  }

 private:
  friend struct TriangleMeshShapeSettings;
  /// Flag stored with the active edges of a triangle that takes part in no query.
  static constexpr uint8_t k_degenerate = 0x80u;

  /// Builds from validated settings; `flags` holds k_degenerate for the dropped triangles.
  TriangleMeshShape(const TriangleMeshShapeSettings& settings, std::vector<uint8_t> flags);
  void compute_active_edges(float cos_threshold);

  std::vector<Float3> vertices_;
  std::vector<IndexedTriangle> triangles_;
  /// Per triangle: active-edge bits, plus k_degenerate.
  std::vector<uint8_t> active_edges_;
  ShapeBVH bvh_;
  uint32_t id_bits_ = 1;
  uint32_t degenerate_count_ = 0;
};

}  // namespace atl
