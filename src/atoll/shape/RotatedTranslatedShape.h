#pragma once
// Places an inner shape at a position and rotation inside its parent's local space, e.g. to
// put a capsule on its side or move a box off the body's origin.

#include "atoll/shape/DecoratedShape.h"

namespace atl {

/// Everything needed to build a RotatedTranslatedShape.
struct RotatedTranslatedShapeSettings {
  /// The shape to place; must not be null.
  Ref<Shape> inner;
  /// Where the inner shape's origin goes (m).
  Vec3 position;
  /// Rotation of the inner shape; must be a unit quaternion. Default identity.
  Quat rotation;

  /// Validates the settings and builds the shape; the error names the offending field.
  Result<Ref<Shape>> create() const;
};

class RotatedTranslatedShape final : public DecoratedShape {
 public:
  /// `inner` (non-null) placed at `position` (m) with unit `rotation`; asserts validity.
  RotatedTranslatedShape(Ref<Shape> inner, const Vec3& position, const Quat& rotation);

  /// Position of the inner shape's origin (m).
  const Vec3& position() const { return position_; }
  /// Rotation of the inner shape (unit).
  const Quat& rotation() const { return rotation_; }
  /// Inner local space → this shape's local space.
  const Mat44& inner_transform() const { return inner_transform_; }
  /// A scale applied outside this shape as the inner shape sees it: diag(Rᵀ·S·R). Meaningful
  /// when is_valid_scale(scale), i.e. when that matrix is diagonal.
  Vec3 inner_scale(const Vec3& scale) const;

  /// The inner shape's world_bounds under inner_transform() (tight for convex shapes).
  AABox local_bounds() const override;
  /// The inner shape's world_bounds under transform · inner_transform().
  AABox world_bounds(const Mat44& transform) const override;
  /// The inner centre of mass, moved and rotated (m).
  Vec3 center_of_mass() const override;
  /// The inner shape's (a rigid motion changes no size).
  float inner_radius() const override { return inner()->inner_radius(); }
  /// The inner shape's, with the inertia rotated (it stays about the centre of mass).
  MassProperties mass_properties() const override;
  /// The inner shape's (m³).
  float volume() const override { return inner()->volume(); }
  /// A uniform scale, or one the rotation keeps axis-aligned (e.g. 90° turns), that the inner
  /// shape accepts after inner_scale().
  bool is_valid_scale(const Vec3& scale) const override;
  /// Casts the ray in the inner space (a rigid motion keeps the fraction).
  bool cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                RayCastResult& hit) const override;
  /// The inner test on the point moved into the inner space.
  bool collide_point(const Vec3& point) const override;
  /// The inner normal, rotated.
  Vec3 surface_normal(const SubShapeID& id, const Vec3& local_point) const override;

 private:
  Vec3 to_inner(const Vec3& point) const { return rotation_.inverse_rotate(point - position_); }

  Vec3 position_;
  Quat rotation_;
  Mat44 inner_transform_;
};

}  // namespace atl
