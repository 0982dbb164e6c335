#pragma once
// World-space queries against one placed shape: ray casts and point containment. The shape's
// own queries work in its local space; these transform the query into it.

#include "atoll/core/Result.h"
#include "atoll/shape/Shape.h"

namespace atl {

/// Casts the world-space ray origin + t·direction (direction = full length, t ∈ [0, 1])
/// against `shape` placed by the rigid `transform`. Updates `io_hit` (fraction, SubShapeID)
/// and returns true when the ray hits closer than io_hit.fraction; a ray starting inside a
/// solid shape hits at 0. Fails on a non-finite ray or a transform that is not rigid.
Result<bool> cast_ray(const Shape& shape, const Mat44& transform, const Vec3& origin,
                      const Vec3& direction, RayCastResult& io_hit);

/// True when the world-space `point` is inside `shape` placed by the rigid `transform`
/// (meshes and height fields have no inside: false). Fails on a non-finite point or a
/// transform that is not rigid.
Result<bool> collide_point(const Shape& shape, const Mat44& transform, const Vec3& point);

}  // namespace atl
