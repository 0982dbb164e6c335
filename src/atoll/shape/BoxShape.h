#pragma once
// A solid box centred on the local origin. As in Jolt, half_extent is the OUTER size: the
// convex radius is carved out of it (the core is half_extent − convex_radius), so a rounded
// box never sticks out of the box the user asked for.

#include "atoll/shape/ConvexShape.h"

namespace atl {

/// Everything needed to build a BoxShape.
struct BoxShapeSettings {
  /// Half the box size along each axis (m); every component must be > 0.
  Vec3 half_extent;
  /// Rounding of the core (m), ≥ 0; clamped to the smallest half extent. Default 0.05.
  float convex_radius = ConvexShape::k_default_convex_radius;
  /// Density (kg/m³); must be > 0.
  float density = ConvexShape::k_default_density;

  /// Validates the settings and builds the shape; the error names the offending field.
  Result<Ref<Shape>> create() const;
};

class BoxShape final : public ConvexShape {
 public:
  /// Box of `half_extent` (m, > 0) whose core is rounded by `convex_radius` (m, in
  /// [0, min half extent]); asserts validity (internal use).
  explicit BoxShape(const Vec3& half_extent, float convex_radius = k_default_convex_radius,
                    float density = k_default_density);

  /// Half the size along each axis (m), including the convex radius.
  const Vec3& half_extent() const { return half_extent_; }
  /// Rounding of the core (m).
  float convex_radius() const { return convex_radius_; }

  /// The box [−half_extent, half_extent].
  AABox local_bounds() const override;
  /// Smallest half extent (m).
  float inner_radius() const override { return half_extent_.min_component(); }
  /// Solid box of the full half extent: I_xx = m·(b² + c²)/12 for sizes a, b, c.
  MassProperties mass_properties() const override;
  /// 8·x·y·z of the half extent (m³).
  float volume() const override;
  /// Hits the full box (the convex radius is inside it); the SubShapeID is `creator`'s.
  bool cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                RayCastResult& hit) const override;
  /// True inside the full box (surface included).
  bool collide_point(const Vec3& point) const override;
  /// Normal of the box face nearest to the point.
  Vec3 surface_normal(const SubShapeID& id, const Vec3& local_point) const override;

  /// Exclude: the box shrunk by the (scaled) convex radius; Include: the full box, radius 0.
  const ConvexSupport* support_function(SupportMode mode, SupportBuffer& buffer,
                                        const Vec3& scale) const override;
  /// The 4 corners of the face whose normal is most aligned with `direction`.
  void supporting_face(const Vec3& direction, const Vec3& scale, const Mat44& transform,
                       SupportingFace& out_face) const override;

 private:
  Vec3 half_extent_;
  float convex_radius_;
};

}  // namespace atl
