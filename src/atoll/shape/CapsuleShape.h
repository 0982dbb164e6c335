#pragma once
// A capsule along the local Y axis: a cylinder of half height `half_height_of_cylinder` with a
// hemisphere of `radius` on each end. Its core is the segment between the hemisphere centres
// and its convex radius the whole radius.

#include "atoll/shape/ConvexShape.h"

namespace atl {

/// Everything needed to build a CapsuleShape.
struct CapsuleShapeSettings {
  /// Half the length of the cylindrical part (m), along Y; must be > 0.
  float half_height_of_cylinder = 0.0f;
  /// Radius of the cylinder and the end caps (m); must be > 0.
  float radius = 0.0f;
  /// Density (kg/m³); must be > 0.
  float density = ConvexShape::k_default_density;

  /// Validates the settings and builds the shape; the error names the offending field.
  Result<Ref<Shape>> create() const;
};

class CapsuleShape final : public ConvexShape {
 public:
  /// Capsule with cylinder half height and radius (m, both > 0); asserts validity.
  CapsuleShape(float half_height_of_cylinder, float radius, float density = k_default_density);

  /// Half the length of the cylindrical part (m).
  float half_height_of_cylinder() const { return half_height_; }
  /// Radius (m).
  float radius() const { return radius_; }

  /// Box of half size (r, h + r, r).
  AABox local_bounds() const override;
  /// Exact for any rotation: the transformed segment grown by the radius.
  AABox world_bounds(const Mat44& transform) const override;
  /// The radius (m).
  float inner_radius() const override { return radius_; }
  /// Cylinder plus two hemispheres (with their parallel-axis offset).
  MassProperties mass_properties() const override;
  /// π·r²·(2h + 4/3·r) (m³).
  float volume() const override;
  /// Only uniform scale magnitudes (|x| = |y| = |z|).
  bool is_valid_scale(const Vec3& scale) const override;
  /// Hits the solid capsule; the SubShapeID is `creator`'s.
  bool cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                RayCastResult& hit) const override;
  /// True within the radius of the axis segment.
  bool collide_point(const Vec3& point) const override;
  /// Direction from the nearest axis point (+X on the axis itself).
  Vec3 surface_normal(const SubShapeID& id, const Vec3& local_point) const override;

  /// Exclude: the axis segment with convex radius r·|s|; Include: the full capsule, radius 0.
  const ConvexSupport* support_function(SupportMode mode, SupportBuffer& buffer,
                                        const Vec3& scale) const override;
  /// The side line (2 points) when `direction` is within ~1° of perpendicular to the axis,
  /// else the single support point.
  void supporting_face(const Vec3& direction, const Vec3& scale, const Mat44& transform,
                       SupportingFace& out_face) const override;

 private:
  float half_height_;
  float radius_;
};

}  // namespace atl
