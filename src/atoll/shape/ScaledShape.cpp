#include "atoll/shape/ScaledShape.h"

#include <cmath>

#include "atoll/shape/Validation.h"

namespace atl {

namespace {

// Why `shape` may refuse a scale, for the error message. Scaled and offset shapes pass the
// scale on, so the rule is that of the shape they wrap.
const char* scale_rule(const Shape& shape) {
  const Shape* rule_owner = &shape;
  while (rule_owner->sub_type() == ShapeSubType::Scaled ||
         rule_owner->sub_type() == ShapeSubType::OffsetCenterOfMass)
    rule_owner = static_cast<const DecoratedShape*>(rule_owner)->inner().get();
  switch (rule_owner->sub_type()) {
    case ShapeSubType::Sphere:
    case ShapeSubType::Capsule:
      return "needs |x| = |y| = |z|";
    case ShapeSubType::Cylinder:
      return "needs |x| = |z|";
    case ShapeSubType::RotatedTranslated:
      return "needs a uniform scale or one its rotation keeps axis-aligned, valid for its inner "
             "shape";
    default:
      return "does not accept it";
  }
}

}  // namespace

Result<Ref<Shape>> ScaledShapeSettings::create() const {
  if (inner == nullptr) return field_error("ScaledShapeSettings.inner", "must not be null");
  if (auto e = check_non_zero("ScaledShapeSettings.scale", scale)) return *e;
  if (!inner->is_valid_scale(scale))
    return field_error("ScaledShapeSettings.scale", format_vec3(scale) +
                                                        " is not valid for the inner " +
                                                        shape_sub_type_name(inner->sub_type()) +
                                                        " shape, which " + scale_rule(*inner));
  // A scale so large that the inner shape's bounds overflow float gave a shape with infinite
  // bounds.
  const AABox bounds = inner->local_bounds().scaled(scale);
  if (!bounds.min.is_finite() || !bounds.max.is_finite())
    return field_error("ScaledShapeSettings.scale",
                       format_vec3(scale) + " makes the inner shape's bounds overflow float");
  return Ref<Shape>(make_ref<ScaledShape>(inner, scale));
}

ScaledShape::ScaledShape(Ref<Shape> inner, const Vec3& scale)
    : DecoratedShape(ShapeSubType::Scaled, std::move(inner)), scale_(scale) {
  ATOLL_ASSERT(this->inner()->is_valid_scale(scale),
               "ScaledShape: invalid scale for the inner shape");
}

AABox ScaledShape::local_bounds() const { return inner()->local_bounds().scaled(scale_); }

float ScaledShape::inner_radius() const {
  return inner()->inner_radius() * scale_.abs().min_component();
}

MassProperties ScaledShape::mass_properties() const {
  MassProperties mp = inner()->mass_properties();
  mp.scale(scale_);
  return mp;
}

float ScaledShape::volume() const {
  return inner()->volume() * std::fabs(scale_.x() * scale_.y() * scale_.z());
}

bool ScaledShape::is_valid_scale(const Vec3& scale) const {
  return Shape::is_valid_scale(scale) && inner()->is_valid_scale(scale * scale_);
}

bool ScaledShape::cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                           RayCastResult& hit) const {
  // An affine map keeps the fraction along the ray, so the hit needs no conversion back.
  const RayCast inner_ray{ray.origin / scale_, ray.direction / scale_};
  return inner()->cast_ray(inner_ray, creator, hit);
}

bool ScaledShape::collide_point(const Vec3& point) const {
  return inner()->collide_point(point / scale_);
}

Vec3 ScaledShape::surface_normal(const SubShapeID& id, const Vec3& local_point) const {
  const Vec3 inner_normal = inner()->surface_normal(id, local_point / scale_);
  // Normals map by the inverse scale (then normalized). In double: a valid scale may be any
  // finite non-zero float, and in float n / scale overflowed (a scale of 1e-40) or underflowed
  // to zero (1e30), which normalized to NaN.
  double n[3];
  double length_sq = 0.0;
  for (int axis = 0; axis < 3; ++axis) {
    n[axis] = double(inner_normal[axis]) / double(scale_[axis]);
    length_sq += n[axis] * n[axis];
  }
  const double length = std::sqrt(length_sq);
  ATOLL_ASSERT(length > 0.0 && std::isfinite(length));
  return Vec3(float(n[0] / length), float(n[1] / length), float(n[2] / length));
}

}  // namespace atl
