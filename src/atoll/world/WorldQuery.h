#pragma once
// Queries against the bodies of a world: ray casts, point and box overlap, shape overlap and
// shape casts. The broadphase finds candidate bodies by their bounds; the narrow phase then
// tests their shapes. Results are ordered deterministically (by fraction or depth, then body ID).
// Call between steps, like BodyInterface.
//
// Soft bodies are found too, by their vertices: a ray or a point meets a soft body's faces,
// vertex spheres and edge capsules, and the volume of a closed surface (SoftBody::cast_ray,
// contains_point); a box its bounds; collide_shape and cast_shape its vertex spheres (what rigid
// bodies collide with), one manifold per touching vertex. A soft body's hits carry no
// sub-shape ID.

#include <functional>
#include <optional>
#include <vector>

#include "atoll/collision/narrowphase/CollideShapeSettings.h"
#include "atoll/collision/narrowphase/ShapeCast.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {

/// Which bodies a query sees.
struct QueryFilter {
  /// Object layers to consider; null: every layer.
  const ObjectLayerFilter* layers = nullptr;
  /// Extra test per body; empty: every body.
  std::function<bool(const Body&)> bodies;
};

/// A body hit by a ray.
struct RayHit {
  BodyID body;
  /// Fraction of the ray's direction at the hit, in [0, 1].
  float fraction = 0.0f;
  /// Leaf of the body's shape that was hit.
  SubShapeID sub_shape_id;
  /// Outward unit normal of the surface hit (world space; a soft body's as
  /// SoftBody::cast_ray gives it).
  Vec3 normal = Vec3::axis_y();
};

/// A body touched by a shape (collide_shape): one manifold per touching pair of leaves, with
/// the query shape as shape 1.
struct ShapeHit {
  BodyID body;
  ContactManifold manifold;
};

/// The first body hit by a swept shape.
struct ShapeCastHit {
  BodyID body;
  ShapeCastResult result;
};

class WorldQuery {
 public:
  /// Queries over `system`'s bodies (the system must outlive this object).
  explicit WorldQuery(const PhysicsSystem& system) : system_(system) {}

  /// The closest body hit by the ray origin + t·direction, t ∈ [0, 1] (m); none when it
  /// misses. Error for non-finite input.
  Result<std::optional<RayHit>> cast_ray(const Vec3& origin, const Vec3& direction,
                                         const QueryFilter& filter = {}) const;
  /// Every body the ray hits, by fraction (then body ID).
  Result<std::vector<RayHit>> cast_ray_all(const Vec3& origin, const Vec3& direction,
                                           const QueryFilter& filter = {}) const;
  /// Bodies whose shape contains `point` (m), by body ID.
  Result<std::vector<BodyID>> collide_point(const Vec3& point,
                                            const QueryFilter& filter = {}) const;
  /// Bodies whose world bounds overlap `box`, by body ID.
  Result<std::vector<BodyID>> collide_aabox(const AABox& box, const QueryFilter& filter = {}) const;
  /// Manifolds of `shape` placed at `transform` against every body it touches or comes within
  /// settings.max_separation_distance of, by body ID. Error (whatever bodies are near) for
  /// invalid settings, a transform that is not a finite rotation and translation, or bounds
  /// there that overflow float.
  Result<std::vector<ShapeHit>> collide_shape(const Shape& shape, const Mat44& transform,
                                              const CollideShapeSettings& settings = {},
                                              const QueryFilter& filter = {}) const;
  /// The first body hit when `shape` sweeps from `start` along `displacement` (m); a hit at
  /// exactly the end of the displacement counts. Error (whatever bodies are near) for invalid
  /// settings, a start that is not a finite rotation and translation, a non-finite
  /// displacement, or swept bounds that overflow float.
  Result<std::optional<ShapeCastHit>> cast_shape(const Shape& shape, const Mat44& start,
                                                 const Vec3& displacement,
                                                 const ShapeCastSettings& settings = {},
                                                 const QueryFilter& filter = {}) const;

 private:
  // Candidate bodies (by broadphase index) that pass the filter, in a deterministic order.
  const Body* accept(uint32_t body_index, const QueryFilter& filter) const;

  const PhysicsSystem& system_;
};

}  // namespace atl
