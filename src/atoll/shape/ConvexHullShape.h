#pragma once
// A convex polyhedron built from a point cloud (geometry/ConvexHullBuilder). For GJK its core is
// the hull with every face plane moved inward by the convex radius; the radius is the largest
// one ≤ max_convex_radius for which the core grown back by it stays inside the hull and keeps
// the faces in place (up to max_error_convex_radius near vertices of more than three faces).
//
// Flat hulls (all points within hull_tolerance of one plane, e.g. a 2D box) are plates whose
// outline is the given polygon: the core is the polygon inset in its plane by the convex radius
// r (every edge moved inward by r, the intersection of those half-planes), and the shape is
// that core grown by r: in its plane the given polygon with corners rounded by r, 2r thick (a
// 2 × 4 m rectangle with r = 0.05 has the extent of a 2 × 0.1 × 4 m box). r is
// max_convex_radius, capped at half the polygon's inradius (the radius of the largest circle
// inside it) so that the core keeps an area, as thin 3D hulls get less. Mass rule: the mass and
// inertia are those of the given polygon extruded by ±r (the slab; the rounded rim and corners
// are not carved off, as for a thin plate), the volume is area · 2r. With r = 0 the hull is a
// 2D shape of zero volume and mass: for static or kinematic bodies, queries and casts (a
// dynamic body then needs an override mass). A flat hull with r > 0 needs a uniform scale (like
// a sphere).

#include <vector>

#include "atoll/geometry/ConvexHullBuilder.h"
#include "atoll/shape/ConvexShape.h"

namespace atl {

/// Default bound (m) on how far the rounded core of a hull may fall short of a face (as Jolt).
inline constexpr float k_default_max_error_convex_radius = 0.05f;

/// Everything needed to build a ConvexHullShape.
struct ConvexHullShapeSettings {
  /// Points to wrap (m); ≥ 3, finite, not all collinear; coplanar points give a flat hull (a
  /// plate, see above). Interior points are dropped.
  std::vector<Vec3> points;
  /// Upper bound for the convex radius (m), ≥ 0; thin hulls get less, flat hulls this (their
  /// half thickness) up to half their polygon's inradius. Default 0.05.
  float max_convex_radius = ConvexShape::k_default_convex_radius;
  /// Distance (m) below which points count as on a face plane (> 0). Default 1 mm.
  float hull_tolerance = 1.0e-3f;
  /// Largest distance (m, ≥ 0) the rounded core may fall short of a face near a vertex where
  /// more than three faces meet (their moved planes do not meet in one point); limits the convex
  /// radius. Default k_default_max_error_convex_radius.
  float max_error_convex_radius = k_default_max_error_convex_radius;
  /// Density (kg/m³); must be > 0.
  float density = ConvexShape::k_default_density;

  /// Validates the settings, builds the hull and the shape; the error names the field (hull
  /// errors are the builder's, e.g. "ConvexHullShapeSettings.points: all 5 points are coplanar").
  Result<Ref<Shape>> create() const;
};

class ConvexHullShape final : public ConvexShape {
 public:
  /// Most vertices supporting_face() returns; larger faces are thinned to this many.
  static constexpr size_t k_max_face_vertices = SupportingFace::capacity();

  /// Shape of a built `hull` (non-degenerate); see ConvexHullShapeSettings for the rest.
  ConvexHullShape(const ConvexHull& hull, float max_convex_radius = k_default_convex_radius,
                  float max_error_convex_radius = k_default_max_error_convex_radius,
                  float density = k_default_density);

  /// Hull vertices (m).
  const std::vector<Vec3>& vertices() const { return vertices_; }
  /// Face polygons with their planes (outward unit normals).
  const std::vector<ConvexHull::Face>& faces() const { return faces_; }
  /// Vertex indices of the faces, counter-clockwise seen from outside.
  const std::vector<uint32_t>& face_indices() const { return face_indices_; }
  /// Vertices of the core (the hull shrunk by convex_radius()), one per hull vertex (m); a flat
  /// hull's: the inset polygon in its plane, counter-clockwise seen along the first face normal.
  const std::vector<Vec3>& core_vertices() const { return core_vertices_; }
  /// Convex radius (m) actually used.
  float convex_radius() const { return convex_radius_; }
  /// True for a flat hull (coplanar points): a plate of half thickness convex_radius().
  bool flat() const { return flat_; }

  /// Bounds of the vertices (a flat hull: of its core grown by the convex radius).
  AABox local_bounds() const override { return bounds_; }
  /// Exact: bounds of the transformed vertices (a flat hull: core vertices grown by the radius).
  AABox world_bounds(const Mat44& transform) const override;
  /// A flat hull with a convex radius needs a uniform |scale|; otherwise any valid scale.
  bool is_valid_scale(const Vec3& scale) const override;
  /// Centroid of the solid hull (m).
  Vec3 center_of_mass() const override { return center_of_mass_; }
  /// Distance from the centre of mass to the nearest face plane (m).
  float inner_radius() const override { return inner_radius_; }
  /// From a tetrahedral decomposition of the faces, computed once at creation.
  MassProperties mass_properties() const override;
  /// Volume of the solid hull (m³).
  float volume() const override { return volume_; }
  /// Clips the ray against every face plane (a flat hull: GJK's ray cast against the plate);
  /// the SubShapeID is `creator`'s.
  bool cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                RayCastResult& hit) const override;
  /// True behind every face plane (a flat hull: within the convex radius of its core).
  bool collide_point(const Vec3& point) const override;
  /// Normal of the face plane the point is least inside of (or most outside of).
  Vec3 surface_normal(const SubShapeID& id, const Vec3& local_point) const override;

  /// Exclude: the core vertices with the scaled convex radius under a uniform |scale|, the hull
  /// vertices with radius 0 under a non-uniform one; Include: the hull vertices, radius 0 (a
  /// flat hull: its core grown by the convex radius, whose outline is the polygon).
  const ConvexSupport* support_function(SupportMode mode, SupportBuffer& buffer,
                                        const Vec3& scale) const override;
  /// The face polygon whose (scaled) normal is most aligned with `direction` (a flat hull: its
  /// core polygon moved out by the convex radius).
  void supporting_face(const Vec3& direction, const Vec3& scale, const Mat44& transform,
                       SupportingFace& out_face) const override;

 private:
  void compute_mass_properties();
  void compute_flat_mass_properties();
  void compute_flat_core(float max_convex_radius);
  void compute_convex_radius(float max_convex_radius, float max_error);

  std::vector<Vec3> vertices_;
  std::vector<Vec3> core_vertices_;
  std::vector<ConvexHull::Face> faces_;
  std::vector<uint32_t> face_indices_;
  AABox bounds_;
  Vec3 center_of_mass_;
  /// Inertia about the centre of mass for density 1 (kg·m² per kg/m³).
  Mat44 unit_inertia_ = Mat44::zero();
  float volume_ = 0.0f;
  float inner_radius_ = 0.0f;
  float convex_radius_ = 0.0f;
  bool flat_ = false;
};

}  // namespace atl
