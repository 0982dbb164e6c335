#include "atoll/world/WorldQuery.h"

#include "atoll/collision/narrowphase/CollideShapes.h"
#include "atoll/collision/narrowphase/ShapeInstance.h"
#include "atoll/collision/narrowphase/ShapeQueries.h"
#include "atoll/core/QuickSort.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/shape/Validation.h"

namespace atl {

namespace {

const ObjectLayerFilter& layers_of(const QueryFilter& filter) {
  static const ObjectLayerFilter k_all;
  return filter.layers != nullptr ? *filter.layers : k_all;
}

bool by_id(BodyID a, BodyID b) { return a.value() < b.value(); }

// The query's bounds, which the broadphase is asked for: an error naming `field` (the input
// that placed them) when they overflow float.
std::optional<Error> check_query_bounds(std::string_view field, const AABox& bounds) {
  if (bounds.min.is_finite() && bounds.max.is_finite()) return std::nullopt;
  return field_error(field, "the shape's bounds there overflow float, got " +
                                format_vec3(bounds.min) + " to " + format_vec3(bounds.max));
}

}  // namespace

const Body* WorldQuery::accept(uint32_t body_index, const QueryFilter& filter) const {
  const Body* body = system_.bodies().body_at_slot(body_index);
  if (body == nullptr || !body->is_added()) return nullptr;
  if (filter.bodies && !filter.bodies(*body)) return nullptr;
  return body;
}

Result<std::vector<RayHit>> WorldQuery::cast_ray_all(const Vec3& origin, const Vec3& direction,
                                                     const QueryFilter& filter) const {
  AllHitsBroadPhaseCollector candidates;
  if (Status ok = system_.broadphase().cast_ray(origin, direction, layers_of(filter), candidates);
      !ok)
    return Error("WorldQuery::cast_ray: " + std::string(ok.error().message()));
  std::vector<RayHit> hits;
  for (const BroadPhaseHit& candidate : candidates.hits) {
    const Body* body = accept(candidate.body_index, filter);
    if (body == nullptr) continue;
    if (const SoftBody* soft = system_.soft_body(body->id())) {
      Vec3 normal;
      const float fraction = soft->cast_ray(origin, direction, &normal);
      if (fraction <= 1.0f) hits.push_back({body->id(), fraction, SubShapeID(), normal});
      continue;
    }
    RayCastResult hit;
    Result<bool> found =
        atl::cast_ray(*body->shape(), body->world_transform(), origin, direction, hit);
    if (found.ok() && *found && hit.fraction <= 1.0f) {
      // The shape's outward normal at the point hit, on the leaf hit.
      const Vec3 point = origin + direction * hit.fraction;
      const Vec3 local = body->rotation().conjugated() * (point - body->position());
      const Vec3 normal = body->rotation() * body->shape()->surface_normal(hit.sub_shape_id, local);
      hits.push_back({body->id(), hit.fraction, hit.sub_shape_id, normal});
    }
  }
  quick_sort(hits.begin(), hits.end(), [](const RayHit& a, const RayHit& b) {
    return a.fraction < b.fraction || (a.fraction == b.fraction && by_id(a.body, b.body));
  });
  return hits;
}

Result<std::optional<RayHit>> WorldQuery::cast_ray(const Vec3& origin, const Vec3& direction,
                                                   const QueryFilter& filter) const {
  Result<std::vector<RayHit>> all = cast_ray_all(origin, direction, filter);
  if (!all) return all.error();
  if (all->empty()) return std::optional<RayHit>();
  return std::optional<RayHit>(all->front());
}

Result<std::vector<BodyID>> WorldQuery::collide_point(const Vec3& point,
                                                      const QueryFilter& filter) const {
  AllHitsBroadPhaseCollector candidates;
  if (Status ok = system_.broadphase().collide_point(point, layers_of(filter), candidates); !ok)
    return Error("WorldQuery::collide_point: " + std::string(ok.error().message()));
  std::vector<BodyID> inside;
  for (const BroadPhaseHit& candidate : candidates.hits) {
    const Body* body = accept(candidate.body_index, filter);
    if (body == nullptr) continue;
    const SoftBody* soft = system_.soft_body(body->id());
    Result<bool> in = soft != nullptr
                          ? Result<bool>(soft->contains_point(point))
                          : atl::collide_point(*body->shape(), body->world_transform(), point);
    if (in.ok() && *in) inside.push_back(body->id());
  }
  quick_sort(inside.begin(), inside.end(), by_id);
  return inside;
}

Result<std::vector<BodyID>> WorldQuery::collide_aabox(const AABox& box,
                                                      const QueryFilter& filter) const {
  AllHitsBroadPhaseCollector candidates;
  if (Status ok = system_.broadphase().collide_aabox(box, layers_of(filter), candidates); !ok)
    return Error("WorldQuery::collide_aabox: " + std::string(ok.error().message()));
  std::vector<BodyID> overlapping;
  for (const BroadPhaseHit& candidate : candidates.hits) {
    const Body* body = accept(candidate.body_index, filter);
    // The broadphase stores fattened boxes: check the body's own bounds.
    if (body != nullptr && body->world_bounds().overlaps(box)) overlapping.push_back(body->id());
  }
  quick_sort(overlapping.begin(), overlapping.end(), by_id);
  return overlapping;
}

Result<std::vector<ShapeHit>> WorldQuery::collide_shape(const Shape& shape, const Mat44& transform,
                                                        const CollideShapeSettings& settings,
                                                        const QueryFilter& filter) const {
  // Every input is checked here, not only when a body is near: a scaled transform was refused
  // next to a body and accepted in empty space.
  if (Status ok = settings.validate(); !ok)
    return Error("WorldQuery::collide_shape: " + std::string(ok.error().message()));
  if (auto e = check_rigid_transform("WorldQuery::collide_shape: transform", transform)) return *e;
  const AABox bounds = shape.world_bounds(transform).expanded(settings.max_separation_distance);
  if (auto e = check_query_bounds("WorldQuery::collide_shape: transform", bounds)) return *e;
  Result<std::vector<BodyID>> candidates = collide_aabox(bounds, filter);
  if (!candidates) return candidates.error();
  std::vector<ShapeHit> hits;
  for (BodyID id : *candidates) {
    const Body& body = *system_.bodies().get(id);
    if (const SoftBody* soft = system_.soft_body(id)) {
      // The vertices' spheres (the soft body's contacts with rigid shapes are theirs), in
      // vertex order.
      const SphereShape sphere(soft->vertex_sphere_radius());
      const float reach = sphere.radius() + settings.max_separation_distance;
      for (const Vec3& vertex : soft->positions()) {
        if (!AABox::from_center(vertex, Vec3::replicate(reach)).overlaps(bounds)) continue;
        AllContactsCollector collector;
        if (Status ok = collide_shapes(shape, transform, sphere, Mat44::translation(vertex),
                                       settings, collector);
            !ok)
          return Error("WorldQuery::collide_shape: " + std::string(ok.error().message()));
        for (const ContactManifold& m : collector.manifolds) hits.push_back({id, m});
      }
      continue;
    }
    AllContactsCollector collector;
    if (Status ok = collide_shapes(shape, transform, *body.shape(), body.world_transform(),
                                   settings, collector);
        !ok)
      return Error("WorldQuery::collide_shape: " + std::string(ok.error().message()));
    for (const ContactManifold& m : collector.manifolds) hits.push_back({id, m});
  }
  return hits;
}

Result<std::optional<ShapeCastHit>> WorldQuery::cast_shape(const Shape& shape, const Mat44& start,
                                                           const Vec3& displacement,
                                                           const ShapeCastSettings& settings,
                                                           const QueryFilter& filter) const {
  // Every input is checked here, not only when a body is near (as collide_shape).
  if (Status ok = settings.validate(); !ok)
    return Error("WorldQuery::cast_shape: " + std::string(ok.error().message()));
  if (auto e = check_rigid_transform("WorldQuery::cast_shape: start", start)) return *e;
  if (auto e = check_finite("WorldQuery::cast_shape: displacement", displacement)) return *e;
  // Candidates: bodies overlapping the swept bounds.
  AABox swept = shape.world_bounds(start);
  if (auto e = check_query_bounds("WorldQuery::cast_shape: start", swept)) return *e;
  swept.encapsulate(swept.translated(displacement));
  if (auto e = check_query_bounds("WorldQuery::cast_shape: displacement", swept)) return *e;
  Result<std::vector<BodyID>> candidates = collide_aabox(swept, filter);
  if (!candidates) return candidates.error();
  std::optional<ShapeCastHit> best;
  ShapeCastResult result;  // keeps the earliest hit across targets
  const auto cast = [&](BodyID id, const Shape& target, const Mat44& target_transform) -> Status {
    Result<bool> hit =
        atl::cast_shape(shape, start, displacement, target, target_transform, settings, result);
    if (!hit) return Error("WorldQuery::cast_shape: " + std::string(hit.error().message()));
    if (*hit) best = ShapeCastHit{id, result};
    return Ok{};
  };
  for (BodyID id : *candidates) {
    const Body& body = *system_.bodies().get(id);
    if (const SoftBody* soft = system_.soft_body(id)) {
      // The vertices' spheres, as collide_shape.
      const SphereShape sphere(soft->vertex_sphere_radius());
      for (const Vec3& vertex : soft->positions()) {
        if (!AABox::from_center(vertex, Vec3::replicate(sphere.radius())).overlaps(swept)) continue;
        if (Status ok = cast(id, sphere, Mat44::translation(vertex)); !ok) return ok.error();
      }
      continue;
    }
    if (Status ok = cast(id, *body.shape(), body.world_transform()); !ok) return ok.error();
  }
  return best;
}

}  // namespace atl
