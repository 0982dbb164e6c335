#include "atoll/collision/narrowphase/ShapeCast.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "atoll/collision/narrowphase/ShapeInstance.h"
#include "atoll/collision/narrowphase/TriangleFeature.h"
#include "atoll/geometry/EPA.h"
#include "atoll/shape/ConvexShape.h"
#include "atoll/shape/HeightFieldShape.h"
#include "atoll/shape/StaticCompoundShape.h"
#include "atoll/shape/TriangleMeshShape.h"
#include "atoll/shape/Validation.h"

namespace atl {

namespace {

struct CastContext {
  const Vec3& displacement;
  const ShapeCastSettings& settings;
  ShapeCastCollector& collector;
};

/// Keeps the earliest hit (the deeper one among hits at fraction 0): cast_shape's result.
class EarliestHitCollector final : public ShapeCastCollector {
 public:
  explicit EarliestHitCollector(ShapeCastResult& result) : result_(result) {
    reset_early_out_fraction(result.fraction);
  }
  void add_hit(const ShapeCastResult& hit) override {
    const bool better = result_.has_hit ? hit.fraction < result_.fraction ||
                                              (hit.fraction == result_.fraction &&
                                               hit.penetration_depth > result_.penetration_depth)
                                        : hit.fraction <= result_.fraction;
    if (!better) return;
    result_ = hit;
    updated = true;
    update_early_out_fraction(hit.fraction);
  }
  bool updated = false;

 private:
  ShapeCastResult& result_;
};

/// World bounds of `a` over the whole sweep.
AABox swept_bounds(const ShapeInstance& a, const Vec3& displacement) {
  const AABox start = instance_bounds(a);
  return AABox::merged(start, start.translated(displacement));
}

/// Hands a hit found in the space of `query_transform` to the collector, in world space.
void offer_hit(CastContext& context, const Mat44& query_transform, float fraction,
               const Vec3& normal, const Vec3& point_a, const Vec3& point_b, const SubShapeID& id1,
               const SubShapeID& id2) {
  ShapeCastResult hit;
  hit.fraction = fraction;
  hit.has_hit = true;
  hit.normal = query_transform.multiply3x3(normal);
  hit.point_on_shape = query_transform * point_a;
  hit.point_on_target = query_transform * point_b;
  hit.penetration_depth = fraction == 0.0f ? (point_a - point_b).dot(normal) : 0.0f;
  hit.sub_shape_id1 = id1;
  hit.sub_shape_id2 = id2;
  context.collector.add_hit(hit);
}

/// Unit normal from a cast's axis; the cast direction when the axis vanished.
Vec3 cast_normal(const Vec3& axis, const Vec3& direction) {
  return axis.normalized_or(direction.normalized_or(Vec3::axis_y()));
}

void cast_convex_vs_convex(const ShapeInstance& a, const ShapeInstance& in_b,
                           CastContext& context) {
  // A huge box target (a floor of 3e5 m) is cut down to the part near the sweep first (see
  // cut_large_box), so that the cast works with coordinates near the hit.
  std::optional<BoxShape> cut_b_shape;
  ShapeInstance cut_b;
  const bool b_is_cut =
      is_large_box(in_b) &&
      cut_large_box(in_b, swept_bounds(a, context.displacement),
                    std::max(1.0f, 2.0f * instance_bounds(a).extent().max_component()), cut_b_shape,
                    cut_b);
  const ShapeInstance& b = b_is_cut ? cut_b : in_b;
  const auto& shape_a = static_cast<const ConvexShape&>(*a.shape);
  const auto& shape_b = static_cast<const ConvexShape&>(*b.shape);
  // The cast runs in B's space, where B needs no transform.
  const Mat44 to_b = b.transform.inversed_rotation_translation();
  const Mat44 start = to_b * a.transform;
  const Vec3 direction = to_b.multiply3x3(context.displacement);
  SupportBuffer a_buffer, b_buffer;
  const ConvexSupport* a_core =
      shape_a.support_function(SupportMode::ExcludeConvexRadius, a_buffer, a.scale);
  const ConvexSupport* b_core =
      shape_b.support_function(SupportMode::ExcludeConvexRadius, b_buffer, b.scale);
  float fraction = context.collector.early_out_fraction();
  Vec3 point_a, point_b, axis;
  EPAPenetrationDepth epa;
  if (!epa.cast_shape(start, direction, context.settings.collision_tolerance,
                      context.settings.penetration_tolerance, *a_core, *b_core,
                      a_core->convex_radius(), b_core->convex_radius(),
                      context.settings.return_deepest_point, fraction, point_a, point_b, axis))
    return;
  offer_hit(context, b.transform, fraction, cast_normal(axis, direction), point_a, point_b,
            a.id.id(), b.id.id());
}

void cast_convex_vs_triangles(const ShapeInstance& a, const ShapeInstance& b,
                              CastContext& context) {
  const auto& shape_a = static_cast<const ConvexShape&>(*a.shape);
  const AABox mesh_box = world_box_to_local(b, swept_bounds(a, context.displacement));
  // The cast runs in B's (scaled) space: triangles only need the scale.
  const Mat44 to_b = b.transform.inversed_rotation_translation();
  const Mat44 start = to_b * a.transform;
  const Vec3 direction = to_b.multiply3x3(context.displacement);
  const bool inside_out = b.scale.x() * b.scale.y() * b.scale.z() < 0.0f;
  SupportBuffer a_buffer;
  const ConvexSupport* a_core =
      shape_a.support_function(SupportMode::ExcludeConvexRadius, a_buffer, a.scale);
  EPAPenetrationDepth epa;

  const auto cast_triangle = [&](const Vec3& v0, const Vec3& v1, const Vec3& v2,
                                 uint8_t active_edges, const SubShapeID& id) {
    const Vec3 w0 = v0 * b.scale;
    Vec3 w1 = v1 * b.scale;
    Vec3 w2 = v2 * b.scale;
    if (inside_out) {
      std::swap(w1, w2);
      active_edges = swap_winding_edges(active_edges);
    }
    const Vec3 face_normal = (w1 - w0).cross(w2 - w0).normalized_or(Vec3::zero());
    // Front faces only: a shape moving along the face normal approaches from behind.
    if (face_normal.is_near_zero() || face_normal.dot(direction) > 0.0f) return;
    const TriangleConvex triangle{w0, w1, w2};
    float fraction = context.collector.early_out_fraction();
    Vec3 point_a, point_b, axis;
    if (!epa.cast_shape(start, direction, context.settings.collision_tolerance,
                        context.settings.penetration_tolerance, *a_core, triangle,
                        a_core->convex_radius(), 0.0f, context.settings.return_deepest_point,
                        fraction, point_a, point_b, axis))
      return;
    const Vec3 normal =
        active_edge_normal(w0, w1, w2, active_edges, face_normal, point_b,
                           cast_normal(axis, direction), context.settings.active_edge_cos);
    offer_hit(context, b.transform, fraction, normal, point_a, point_b, a.id.id(), id);
  };

  if (b.shape->sub_type() == ShapeSubType::TriangleMesh)
    static_cast<const TriangleMeshShape&>(*b.shape).collect_triangles(mesh_box, cast_triangle,
                                                                      b.id);
  else
    static_cast<const HeightFieldShape&>(*b.shape).collect_triangles(mesh_box, cast_triangle, b.id);
}

void cast_dispatch(const ShapeInstance& a, const ShapeInstance& b, CastContext& context) {
  const ShapeType type_a = shape_type_of(a.shape->sub_type());
  const ShapeType type_b = shape_type_of(b.shape->sub_type());
  if (type_a == ShapeType::Decorated) return cast_dispatch(unwrap_decorated(a), b, context);
  if (type_b == ShapeType::Decorated) return cast_dispatch(a, unwrap_decorated(b), context);
  if (type_a == ShapeType::Compound) {
    const auto& compound = static_cast<const StaticCompoundShape&>(*a.shape);
    const AABox target_bounds = instance_bounds(b);
    for (uint32_t index = 0; index < compound.num_children(); ++index) {
      ShapeInstance child;
      if (compound_child(a, index, child) &&
          swept_bounds(child, context.displacement).overlaps(target_bounds))
        cast_dispatch(child, b, context);
    }
    return;
  }
  // Meshes and height fields are static: they are never the moving shape.
  if (type_a != ShapeType::Convex) return;
  if (type_b == ShapeType::Compound) {
    const auto& compound = static_cast<const StaticCompoundShape&>(*b.shape);
    const AABox box = world_box_to_local(b, swept_bounds(a, context.displacement));
    compound.collect_children(box, [&](const Shape&, const Mat44&, uint32_t index) {
      ShapeInstance child;
      if (compound_child(b, index, child)) cast_dispatch(a, child, context);
    });
    return;
  }
  if (type_b == ShapeType::Convex)
    cast_convex_vs_convex(a, b, context);
  else
    cast_convex_vs_triangles(a, b, context);
}

}  // namespace

Status ShapeCastSettings::validate() const {
  if (auto e = check_positive("ShapeCastSettings.collision_tolerance", collision_tolerance))
    return *e;
  if (auto e = check_positive("ShapeCastSettings.penetration_tolerance", penetration_tolerance))
    return *e;
  if (!(active_edge_cos >= -1.0f && active_edge_cos <= 1.0f))
    return field_error("ShapeCastSettings.active_edge_cos",
                       "must be in [-1, 1], got " + format_float(active_edge_cos));
  return Ok{};
}

namespace {

Status check_cast_inputs(const Mat44& start, const Vec3& displacement,
                         const Mat44& target_transform, const ShapeCastSettings& settings) {
  if (Status status = settings.validate(); !status.ok()) return status.error();
  if (auto e = check_rigid_transform("cast_shape.start", start)) return *e;
  if (auto e = check_finite("cast_shape.displacement", displacement)) return *e;
  if (auto e = check_rigid_transform("cast_shape.target_transform", target_transform)) return *e;
  return Ok{};
}

void cast_validated(const Shape& shape, const Mat44& start, const Vec3& displacement,
                    const Shape& target, const Mat44& target_transform,
                    const ShapeCastSettings& settings, ShapeCastCollector& collector) {
  ShapeInstance a, b;
  a.shape = &shape;
  a.transform = start;
  b.shape = &target;
  b.transform = target_transform;
  CastContext context{displacement, settings, collector};
  cast_dispatch(a, b, context);
}

}  // namespace

Status cast_shape(const Shape& shape, const Mat44& start, const Vec3& displacement,
                  const Shape& target, const Mat44& target_transform,
                  const ShapeCastSettings& settings, ShapeCastCollector& collector) {
  if (Status status = check_cast_inputs(start, displacement, target_transform, settings); !status)
    return status;
  cast_validated(shape, start, displacement, target, target_transform, settings, collector);
  return Ok{};
}

Result<bool> cast_shape(const Shape& shape, const Mat44& start, const Vec3& displacement,
                        const Shape& target, const Mat44& target_transform,
                        const ShapeCastSettings& settings, ShapeCastResult& io_result) {
  if (Status status = check_cast_inputs(start, displacement, target_transform, settings); !status)
    return status.error();
  if (auto e = check_non_negative("ShapeCastResult.fraction", io_result.fraction)) return *e;
  EarliestHitCollector collector(io_result);
  cast_validated(shape, start, displacement, target, target_transform, settings, collector);
  return collector.updated;
}

}  // namespace atl
