#pragma once
// Moves the centre of mass of an inner shape without moving its geometry, e.g. to lower a
// vehicle's centre of mass for stability.

#include "atoll/shape/DecoratedShape.h"

namespace atl {

/// Everything needed to build an OffsetCenterOfMassShape.
struct OffsetCenterOfMassShapeSettings {
  /// The shape whose centre of mass moves; must not be null.
  Ref<Shape> inner;
  /// Added to the inner shape's centre of mass (m).
  Vec3 offset;

  /// Validates the settings and builds the shape; the error names the offending field.
  Result<Ref<Shape>> create() const;
};

class OffsetCenterOfMassShape final : public DecoratedShape {
 public:
  /// `inner` (non-null) with its centre of mass moved by `offset` (m); asserts validity.
  OffsetCenterOfMassShape(Ref<Shape> inner, const Vec3& offset);

  /// Offset added to the inner centre of mass (m).
  const Vec3& offset() const { return offset_; }

  /// The inner shape's: the geometry does not move.
  AABox local_bounds() const override { return inner()->local_bounds(); }
  /// The inner shape's.
  AABox world_bounds(const Mat44& transform) const override {
    return inner()->world_bounds(transform);
  }
  /// Inner centre of mass + offset (m).
  Vec3 center_of_mass() const override { return inner()->center_of_mass() + offset_; }
  /// The inner shape's (as Jolt): CCD thresholds keep the size of the geometry.
  float inner_radius() const override { return inner()->inner_radius(); }
  /// The inner shape's mass; its inertia moved to the new centre of mass (parallel axis term
  /// m·(|offset|²·1 − offset·offsetᵀ), as Jolt): the body turns about the moved centre.
  MassProperties mass_properties() const override;
  /// The inner shape's (m³).
  float volume() const override { return inner()->volume(); }
  /// The inner shape's rule.
  bool is_valid_scale(const Vec3& scale) const override { return inner()->is_valid_scale(scale); }
  /// The inner shape's ray cast, unchanged.
  bool cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                RayCastResult& hit) const override {
    return inner()->cast_ray(ray, creator, hit);
  }
  /// The inner shape's test, unchanged.
  bool collide_point(const Vec3& point) const override { return inner()->collide_point(point); }
  /// The inner shape's normal, unchanged.
  Vec3 surface_normal(const SubShapeID& id, const Vec3& local_point) const override {
    return inner()->surface_normal(id, local_point);
  }

 private:
  Vec3 offset_;
};

}  // namespace atl
