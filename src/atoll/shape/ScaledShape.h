#pragma once
// Scales an inner shape per axis. Negative factors mirror it. Not every shape takes every scale
// (a sphere must stay a sphere): see Shape::is_valid_scale.

#include "atoll/shape/DecoratedShape.h"

namespace atl {

/// Everything needed to build a ScaledShape.
struct ScaledShapeSettings {
  /// The shape to scale; must not be null.
  Ref<Shape> inner;
  /// Scale factor per axis; every component finite and non-zero, and valid for `inner`.
  Vec3 scale = Vec3::replicate(1.0f);

  /// Validates the settings and builds the shape; the error names the offending field.
  Result<Ref<Shape>> create() const;
};

class ScaledShape final : public DecoratedShape {
 public:
  /// `inner` (non-null) scaled by `scale` (valid for it); asserts validity (internal use).
  ScaledShape(Ref<Shape> inner, const Vec3& scale);

  /// Scale factor per axis.
  const Vec3& scale() const { return scale_; }

  /// The inner local bounds, scaled.
  AABox local_bounds() const override;
  /// The inner centre of mass, scaled (m).
  Vec3 center_of_mass() const override { return scale_ * inner()->center_of_mass(); }
  /// The inner radius times the smallest |scale| component.
  float inner_radius() const override;
  /// The inner shape's, with mass ∝ |sx·sy·sz| and the inertia of the stretched geometry.
  MassProperties mass_properties() const override;
  /// Inner volume · |sx·sy·sz| (m³).
  float volume() const override;
  /// A further scale s is valid when the inner shape accepts s · scale().
  bool is_valid_scale(const Vec3& scale) const override;
  /// Casts the ray divided by the scale in the inner space (the fraction is unchanged).
  bool cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                RayCastResult& hit) const override;
  /// The inner test on point / scale.
  bool collide_point(const Vec3& point) const override;
  /// The inner normal transformed by the inverse transpose (n / scale), renormalized.
  Vec3 surface_normal(const SubShapeID& id, const Vec3& local_point) const override;

 private:
  Vec3 scale_;
};

}  // namespace atl
