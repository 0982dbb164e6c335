#pragma once
// A solid sphere around the local origin. Its core is the centre point and its convex radius
// the whole radius, so GJK on a sphere is GJK on a point.

#include "atoll/shape/ConvexShape.h"

namespace atl {

/// Everything needed to build a SphereShape.
struct SphereShapeSettings {
  /// Radius (m); must be > 0.
  float radius = 0.0f;
  /// Density (kg/m³); must be > 0.
  float density = ConvexShape::k_default_density;

  /// Validates the settings and builds the shape; the error names the offending field.
  Result<Ref<Shape>> create() const;
};

class SphereShape final : public ConvexShape {
 public:
  /// Sphere of `radius` (m, > 0) and `density` (kg/m³, > 0); asserts validity (internal use).
  explicit SphereShape(float radius, float density = k_default_density);

  /// Radius (m).
  float radius() const { return radius_; }

  /// Cube of half size radius around the origin.
  AABox local_bounds() const override;
  /// Exact: the translated sphere's box (rotation changes nothing).
  AABox world_bounds(const Mat44& transform) const override;
  /// The radius (m).
  float inner_radius() const override { return radius_; }
  /// Solid sphere: I = 2/5·m·r².
  MassProperties mass_properties() const override;
  /// 4/3·π·r³ (m³).
  float volume() const override;
  /// Only uniform scale magnitudes (|x| = |y| = |z|).
  bool is_valid_scale(const Vec3& scale) const override;
  /// Hits the solid sphere; the SubShapeID is `creator`'s.
  bool cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                RayCastResult& hit) const override;
  /// True within the radius (surface included).
  bool collide_point(const Vec3& point) const override;
  /// Direction from the centre to the point (+Y at the centre).
  Vec3 surface_normal(const SubShapeID& id, const Vec3& local_point) const override;

  /// Exclude: the centre point with convex radius r·|s|; Include: the full sphere, radius 0.
  const ConvexSupport* support_function(SupportMode mode, SupportBuffer& buffer,
                                        const Vec3& scale) const override;
  /// One point: the surface point along `direction` (a sphere has no flat face).
  void supporting_face(const Vec3& direction, const Vec3& scale, const Mat44& transform,
                       SupportingFace& out_face) const override;

 private:
  float radius_;
};

}  // namespace atl
