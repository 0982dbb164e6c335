#pragma once
// A solid cylinder along the local Y axis, centred on the origin. Like the box, its size is the
// outer size: the core is the cylinder shrunk by the convex radius on every side.

#include "atoll/shape/ConvexShape.h"

namespace atl {

/// Everything needed to build a CylinderShape.
struct CylinderShapeSettings {
  /// Half the height (m), along Y; must be > 0.
  float half_height = 0.0f;
  /// Radius (m); must be > 0.
  float radius = 0.0f;
  /// Rounding of the core (m), ≥ 0; clamped to min(half_height, radius). Default 0.05.
  float convex_radius = ConvexShape::k_default_convex_radius;
  /// Density (kg/m³); must be > 0.
  float density = ConvexShape::k_default_density;

  /// Validates the settings and builds the shape; the error names the offending field.
  Result<Ref<Shape>> create() const;
};

class CylinderShape final : public ConvexShape {
 public:
  /// Number of vertices of the polygon that stands in for a cap in supporting_face().
  static constexpr int k_cap_vertices = 16;

  /// Cylinder of half height and radius (m, > 0), core rounded by `convex_radius` (m, in
  /// [0, min(half_height, radius)]); asserts validity (internal use).
  CylinderShape(float half_height, float radius, float convex_radius = k_default_convex_radius,
                float density = k_default_density);

  /// Half the height (m).
  float half_height() const { return half_height_; }
  /// Radius (m).
  float radius() const { return radius_; }
  /// Rounding of the core (m).
  float convex_radius() const { return convex_radius_; }

  /// Box of half size (r, h, r).
  AABox local_bounds() const override;
  /// Exact for any rotation: the bounds of the two cap discs.
  AABox world_bounds(const Mat44& transform) const override;
  /// min(half height, radius) (m).
  float inner_radius() const override { return std::fmin(half_height_, radius_); }
  /// Solid cylinder: I_y = m·r²/2, I_x = I_z = m·(3r² + H²)/12, H = 2h.
  MassProperties mass_properties() const override;
  /// π·r²·2h (m³).
  float volume() const override;
  /// Needs |x| = |z| (the cross-section stays a circle); any non-zero y.
  bool is_valid_scale(const Vec3& scale) const override;
  /// Hits the flat-capped cylinder (convex radius ignored); the SubShapeID is `creator`'s.
  bool cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                RayCastResult& hit) const override;
  /// True inside the flat-capped cylinder.
  bool collide_point(const Vec3& point) const override;
  /// Cap normal or radial normal, whichever surface is nearer to the point.
  Vec3 surface_normal(const SubShapeID& id, const Vec3& local_point) const override;

  /// Exclude: the cylinder shrunk by the (scaled) convex radius; Include: the full cylinder.
  const ConvexSupport* support_function(SupportMode mode, SupportBuffer& buffer,
                                        const Vec3& scale) const override;
  /// A cap as a k_cap_vertices-gon inscribed in the circle when `direction` is closer to the
  /// axis than to the side (|d.y| ≥ |d.xz|), else the side line (2 points).
  void supporting_face(const Vec3& direction, const Vec3& scale, const Mat44& transform,
                       SupportingFace& out_face) const override;

 private:
  float half_height_;
  float radius_;
  float convex_radius_;
};

}  // namespace atl
