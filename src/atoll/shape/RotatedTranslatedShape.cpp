#include "atoll/shape/RotatedTranslatedShape.h"

#include "atoll/shape/Validation.h"

namespace atl {

Result<Ref<Shape>> RotatedTranslatedShapeSettings::create() const {
  if (inner == nullptr)
    return field_error("RotatedTranslatedShapeSettings.inner", "must not be null");
  if (auto e = check_finite("RotatedTranslatedShapeSettings.position", position)) return *e;
  if (auto e = check_normalized("RotatedTranslatedShapeSettings.rotation", rotation)) return *e;
  // A huge inner shape turned or moved may leave float: such a shape had infinite bounds
  // (found by the shapes fuzzer), and a body would take a NaN pose from it.
  const Mat44 placed = Mat44::rotation_translation(rotation.normalized(), position);
  const AABox bounds = inner->world_bounds(placed);
  if (!bounds.min.is_finite() || !bounds.max.is_finite() ||
      !(placed * inner->center_of_mass()).is_finite())
    return field_error("RotatedTranslatedShapeSettings.inner",
                       "its bounds, rotated and moved, overflow float (got " +
                           format_vec3(bounds.min) + " to " + format_vec3(bounds.max) + ")");
  return Ref<Shape>(make_ref<RotatedTranslatedShape>(inner, position, rotation));
}

RotatedTranslatedShape::RotatedTranslatedShape(Ref<Shape> inner, const Vec3& position,
                                               const Quat& rotation)
    : DecoratedShape(ShapeSubType::RotatedTranslated, std::move(inner)),
      position_(position),
      // Renormalize: the settings accept |q| within 1e-4 of 1, and the transforms below assume
      // an exact rotation.
      rotation_(rotation.normalized()),
      inner_transform_(Mat44::rotation_translation(rotation_, position)) {
  ATOLL_ASSERT(position.is_finite(), "RotatedTranslatedShape: position must be finite");
  ATOLL_ASSERT(rotation.is_finite() && rotation.is_normalized(),
               "RotatedTranslatedShape: rotation must be a unit quaternion");
}

Vec3 RotatedTranslatedShape::inner_scale(const Vec3& scale) const {
  // (Rᵀ·S·R)_ii = Σ_k R_ki²·s_k: column i of R is the inner axis i in outer space.
  Vec3 result;
  for (int i = 0; i < 3; ++i) {
    const Vec3 axis = inner_transform_.column3(i);
    result.set_component(i, (axis * axis).dot(scale));
  }
  return result;
}

AABox RotatedTranslatedShape::local_bounds() const {
  return inner()->world_bounds(inner_transform_);
}

AABox RotatedTranslatedShape::world_bounds(const Mat44& transform) const {
  return inner()->world_bounds(transform * inner_transform_);
}

Vec3 RotatedTranslatedShape::center_of_mass() const {
  return inner_transform_ * inner()->center_of_mass();
}

MassProperties RotatedTranslatedShape::mass_properties() const {
  MassProperties mp = inner()->mass_properties();
  mp.rotate(inner_transform_);
  return mp;
}

bool RotatedTranslatedShape::is_valid_scale(const Vec3& scale) const {
  if (!Shape::is_valid_scale(scale)) return false;
  // S·(R·x + t) = R·(Rᵀ·S·R)·x + S·t: the scale passes to the inner shape only when Rᵀ·S·R is
  // diagonal, which holds for a uniform scale (including its sign) or a rotation that maps
  // axes onto axes.
  const float max_scale = scale.abs().max_component();
  const float tolerance = 1.0e-5f * max_scale;
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j) {
      const Vec3 a = inner_transform_.column3(i), b = inner_transform_.column3(j);
      if (std::fabs((a * b).dot(scale)) > tolerance) return false;
    }
  return inner()->is_valid_scale(inner_scale(scale));
}

bool RotatedTranslatedShape::cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                                      RayCastResult& hit) const {
  // A rigid transform keeps the fraction along the ray.
  const RayCast inner_ray{to_inner(ray.origin), rotation_.inverse_rotate(ray.direction)};
  return inner()->cast_ray(inner_ray, creator, hit);
}

bool RotatedTranslatedShape::collide_point(const Vec3& point) const {
  return inner()->collide_point(to_inner(point));
}

Vec3 RotatedTranslatedShape::surface_normal(const SubShapeID& id, const Vec3& local_point) const {
  return rotation_ * inner()->surface_normal(id, to_inner(local_point));
}

}  // namespace atl
