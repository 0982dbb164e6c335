#include "atoll/collision/narrowphase/ShapeQueries.h"

#include "atoll/collision/narrowphase/ShapeInstance.h"
#include "atoll/shape/Validation.h"

namespace atl {

Result<bool> cast_ray(const Shape& shape, const Mat44& transform, const Vec3& origin,
                      const Vec3& direction, RayCastResult& io_hit) {
  if (auto e = check_rigid_transform("cast_ray.transform", transform)) return *e;
  if (auto e = check_finite("cast_ray.origin", origin)) return *e;
  if (auto e = check_finite("cast_ray.direction", direction)) return *e;
  // A rigid transform keeps the fraction along the ray.
  const Mat44 to_local = transform.inversed_rotation_translation();
  const RayCast local{to_local * origin, to_local.multiply3x3(direction)};
  return shape.cast_ray(local, SubShapeIDCreator(), io_hit);
}

Result<bool> collide_point(const Shape& shape, const Mat44& transform, const Vec3& point) {
  if (auto e = check_rigid_transform("collide_point.transform", transform)) return *e;
  if (auto e = check_finite("collide_point.point", point)) return *e;
  return shape.collide_point(transform.inversed_rotation_translation() * point);
}

}  // namespace atl
