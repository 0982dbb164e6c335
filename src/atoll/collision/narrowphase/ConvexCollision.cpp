#include "atoll/collision/narrowphase/ConvexCollision.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "atoll/collision/narrowphase/TriangleFeature.h"
#include "atoll/geometry/EPA.h"
#include "atoll/shape/HeightFieldShape.h"
#include "atoll/shape/TriangleMeshShape.h"

namespace atl {

namespace {

/// Manifolds of one convex against many triangles, grouped by normal until all triangles have
/// been visited. A bounded number of groups keeps it on the stack; a manifold that finds no
/// group and no free slot is reported on its own.
class ManifoldMerger {
 public:
  static constexpr size_t k_max_groups = 8;

  struct Group {
    Vec3 normal;
    float depth;
    SubShapeID id2;
    ContactPoints points;
  };

  /// Merges into the first group with a nearly parallel normal, or opens a new group; false
  /// when neither is possible.
  bool add(const Vec3& normal, float depth, const SubShapeID& id2, const ContactPoints& points) {
    for (Group& g : groups_) {
      if (g.normal.dot(normal) <= k_merge_manifold_normal_cos) continue;
      // Keep the group within capacity: reducing early changes which points survive, but in
      // the same way on every run.
      if (g.points.size() + points.size() > k_max_contact_points)
        reduce_manifold(g.points, g.normal);
      for (size_t i = 0; i < points.size(); ++i) g.points.push_back(points.on_1[i], points.on_2[i]);
      // The first manifold's normal and sub-shape stay: the group's identity must not depend on
      // which triangle happens to be deepest by a rounding error.
      if (depth > g.depth) g.depth = depth;
      return true;
    }
    if (groups_.full()) return false;
    groups_.push_back(Group{normal, depth, id2, points});
    return true;
  }

  StaticArray<Group, k_max_groups>& groups() { return groups_; }

 private:
  StaticArray<Group, k_max_groups> groups_;
};

}  // namespace

void emit_manifold(const Mat44& transform_a, const Vec3& normal, float penetration_depth,
                   const SubShapeID& id1, const SubShapeID& id2, const ContactPoints& points,
                   ContactCollector& collector) {
  ContactManifold manifold;
  manifold.normal = transform_a.multiply3x3(normal);
  manifold.penetration_depth = penetration_depth;
  manifold.sub_shape_id1 = id1;
  manifold.sub_shape_id2 = id2;
  ATOLL_ASSERT(points.size() <= static_cast<size_t>(k_max_manifold_points),
               "reduce the manifold before emitting it");
  for (size_t i = 0; i < points.size(); ++i) {
    manifold.points_on_1.push_back(transform_a * points.on_1[i]);
    manifold.points_on_2.push_back(transform_a * points.on_2[i]);
  }
  collector.add(manifold);
}

// How far EPA grows A when the cores overlap: the separation, but at most a quarter of the
// shape's smallest half extent. A little growth keeps EPA's polytope well shaped for the
// shallow overlaps of resting contacts (without it the pyramid, boxes of convex radius 0 at
// the slop's overlap, drifted 164 mm instead of 96 mm at 10 iterations, 150 vs 73 at 8, 95 vs
// 40 at 12); a large one makes EPA's error grow with the separation (issue 7 item 10: a
// separation of 100 m gave a depth of 10.909 for 11, 500 m negative depths).
namespace {
float epa_growth(float max_separation, const ConvexShape& shape, const Vec3& scale) {
  const float size = (shape.local_bounds().extent() * scale.abs()).min_component();
  return std::min(max_separation, 0.25f * size);
}
}  // namespace

void collide_convex_vs_convex(const ShapeInstance& in_a, const ShapeInstance& in_b,
                              const CollideShapeSettings& settings, ContactCollector& collector) {
  // A huge box (a floor of 3e5 m) is cut down to the part near the other shape first, so that
  // GJK, EPA and the face clipping work with coordinates near the contact. The margin is far
  // enough that leaving the cut box through a cut face always costs more than leaving the real
  // box through a face that was kept.
  const auto margin = [&](const AABox& other) {
    return settings.max_separation_distance + std::max(1.0f, 2.0f * other.extent().max_component());
  };
  const auto cut = [&](const ShapeInstance& box, const ShapeInstance& other,
                       std::optional<BoxShape>& out_shape, ShapeInstance& out) {
    if (!is_large_box(box)) return false;  // the common case: no bounds needed
    const AABox near = instance_bounds(other);
    return cut_large_box(box, near, margin(near), out_shape, out);
  };
  std::optional<BoxShape> cut_a_shape, cut_b_shape;
  ShapeInstance cut_a, cut_b;
  const bool a_is_cut = cut(in_a, in_b, cut_a_shape, cut_a);
  const bool b_is_cut = cut(in_b, in_a, cut_b_shape, cut_b);
  const ShapeInstance& a = a_is_cut ? cut_a : in_a;
  const ShapeInstance& b = b_is_cut ? cut_b : in_b;
  const auto& shape_a = static_cast<const ConvexShape&>(*a.shape);
  const auto& shape_b = static_cast<const ConvexShape&>(*b.shape);
  const float max_separation = settings.max_separation_distance;

  // Everything happens in A's local space: A's support and face need no transform.
  const Mat44 b_to_a = a.transform.inversed_rotation_translation() * b.transform;
  SupportBuffer a_core_buffer, a_full_buffer, b_core_buffer, b_full_buffer;
  const ConvexSupport* a_core =
      shape_a.support_function(SupportMode::ExcludeConvexRadius, a_core_buffer, a.scale);
  const ConvexSupport* a_full =
      shape_a.support_function(SupportMode::IncludeConvexRadius, a_full_buffer, a.scale);
  const ConvexSupport* b_core_local =
      shape_b.support_function(SupportMode::ExcludeConvexRadius, b_core_buffer, b.scale);
  const ConvexSupport* b_full_local =
      shape_b.support_function(SupportMode::IncludeConvexRadius, b_full_buffer, b.scale);
  const TransformedConvex<ConvexSupport> b_core(b_to_a, *b_core_local);
  const TransformedConvex<ConvexSupport> b_full(b_to_a, *b_full_local);
  // Speculative contacts: GJK grows A's core by max_separation on top of its convex radius, so
  // A within that distance of B counts as touching; the growth is taken off the depth and the
  // point afterwards. When the cores overlap, EPA grows A by a bounded amount (epa_growth).
  Vec3 axis = b_to_a * (shape_b.local_bounds().center() * b.scale) -
              shape_a.local_bounds().center() * a.scale;
  Vec3 point_a, point_b;
  EPAPenetrationDepth epa;
  const float epa_grow = std::min(epa_growth(max_separation, shape_a, a.scale),
                                  epa_growth(max_separation, shape_b, b.scale));
  const AddConvexRadius<ConvexSupport> a_grown(*a_full, epa_grow);
  if (epa.get_penetration_depth(*a_core, a_grown, a_core->convex_radius() + max_separation, b_core,
                                b_full, b_core_local->convex_radius(), settings.collision_tolerance,
                                settings.penetration_tolerance, axis, point_a,
                                point_b) != EPAPenetrationDepth::Status::Colliding)
    return;
  const float growth = epa.cores_overlapped() ? epa_grow : max_separation;
  const float depth = (point_a - point_b).dot(axis) - growth;
  point_a -= axis * growth;
  emit_convex_contact(a, b, b_to_a, axis, depth, point_a, point_b, settings, collector);
}

void emit_convex_contact(const ShapeInstance& a, const ShapeInstance& b, const Mat44& b_to_a,
                         const Vec3& axis, float depth, const Vec3& point_a, const Vec3& point_b,
                         const CollideShapeSettings& settings, ContactCollector& collector) {
  if (!collector.accepts(depth)) return;
  ContactPoints points;
  if (settings.collect_faces) {
    const auto& shape_a = static_cast<const ConvexShape&>(*a.shape);
    const auto& shape_b = static_cast<const ConvexShape&>(*b.shape);
    SupportingFace face_a, face_b;
    shape_a.supporting_face(axis, a.scale, Mat44::identity(), face_a);
    shape_b.supporting_face(b_to_a.multiply3x3_transposed(-axis), b.scale, b_to_a, face_b);
    manifold_between_faces(point_a, point_b, axis,
                           settings.max_separation_distance + settings.manifold_tolerance, face_a,
                           face_b, points);
    reduce_manifold(points, axis);
  } else {
    points.push_back(point_a, point_b);
  }
  emit_manifold(a.transform, axis, depth, a.id.id(), b.id.id(), points, collector);
}

void collide_convex_vs_triangles(const ShapeInstance& a, const ShapeInstance& b,
                                 const CollideShapeSettings& settings,
                                 ContactCollector& collector) {
  const auto& convex = static_cast<const ConvexShape&>(*a.shape);
  const float max_separation = settings.max_separation_distance;
  const AABox mesh_box = world_box_to_local(b, instance_bounds(a).expanded(max_separation));
  // Triangles are scaled in the mesh's space, then moved into A's space, where A needs no
  // transform. A mirroring scale turns the triangles inside out: their winding is swapped.
  const Mat44 mesh_to_a = a.transform.inversed_rotation_translation() * b.transform;
  const bool inside_out = b.scale.x() * b.scale.y() * b.scale.z() < 0.0f;

  SupportBuffer core_buffer, full_buffer;
  const ConvexSupport* core =
      convex.support_function(SupportMode::ExcludeConvexRadius, core_buffer, a.scale);
  const ConvexSupport* full =
      convex.support_function(SupportMode::IncludeConvexRadius, full_buffer, a.scale);
  const float core_radius = core->convex_radius() + max_separation;
  const float epa_grow = epa_growth(max_separation, convex, a.scale);
  const AddConvexRadius<ConvexSupport> grown(*full, epa_grow);
  const AABox bounds = convex.local_bounds();
  const Vec3 center = bounds.center() * a.scale;
  // Two cheap separations before GJK (most triangles the mesh query returns do not touch A: on
  // convex_vs_mesh 82 % of them). A triangle farther than this from A's full shape cannot be
  // within GJK's reach of A's core (core_radius), so skipping it changes nothing; the collision
  // tolerance keeps the float rounding of the tests on the safe side.
  const float reject_distance = max_separation + settings.collision_tolerance;
  const AABox near_a =
      AABox::from_two_points(bounds.min * a.scale, bounds.max * a.scale).expanded(reject_distance);
  EPAPenetrationDepth epa;
  ManifoldMerger merger;

  const auto collide_triangle = [&](const Vec3& v0, const Vec3& v1, const Vec3& v2,
                                    uint8_t active_edges, const SubShapeID& id) {
    if (collector.should_early_out()) return;
    const Vec3 w0 = mesh_to_a * (v0 * b.scale);
    Vec3 w1 = mesh_to_a * (v1 * b.scale);
    Vec3 w2 = mesh_to_a * (v2 * b.scale);
    if (inside_out) {
      std::swap(w1, w2);
      active_edges = swap_winding_edges(active_edges);
    }
    // Outside A's bounds (in A's space, tighter than the mesh query's box)?
    const AABox triangle_box(Vec3::min(Vec3::min(w0, w1), w2), Vec3::max(Vec3::max(w0, w1), w2));
    if (!near_a.overlaps(triangle_box)) return;
    const Vec3 face_normal = (w1 - w0).cross(w2 - w0).normalized_or(Vec3::zero());
    // Only the front face collides (as Jolt's default): a convex whose centre is behind the
    // triangle's plane is inside or below the surface and is not pushed further through it.
    if (face_normal.is_near_zero() || (center - w0).dot(face_normal) < 0.0f) return;
    // A's deepest point toward the triangle's plane above it?
    if ((full->get_support(-face_normal) - w0).dot(face_normal) > reject_distance) return;

    const TriangleConvex triangle{w0, w1, w2};
    Vec3 axis = -face_normal;
    Vec3 point_a, point_b;
    // As in collide_convex_vs_convex: EPA grows A by the bounded epa_grow only.
    if (epa.get_penetration_depth(*core, grown, core_radius, triangle, triangle, 0.0f,
                                  settings.collision_tolerance, settings.penetration_tolerance,
                                  axis, point_a, point_b) != EPAPenetrationDepth::Status::Colliding)
      return;
    const float growth = epa.cores_overlapped() ? epa_grow : max_separation;
    float depth = (point_a - point_b).dot(axis) - growth;
    point_a -= axis * growth;
    const Vec3 fixed = active_edge_normal(w0, w1, w2, active_edges, face_normal, point_b, axis,
                                          settings.active_edge_cos);
    if (!(fixed == axis)) {
      // A contact on an inactive edge: measure along the face normal instead, from A's
      // deepest point to the triangle's plane.
      axis = fixed;
      point_a = full->get_support(axis);
      depth = (point_a - w0).dot(axis);
      if (depth < -max_separation) return;
      point_b = point_a - axis * depth;
    }
    if (!collector.accepts(depth)) return;

    ContactPoints points;
    if (settings.collect_faces) {
      SupportingFace face_a;
      const SupportingFace face_b{w0, w1, w2};
      convex.supporting_face(axis, a.scale, Mat44::identity(), face_a);
      manifold_between_faces(point_a, point_b, axis, max_separation + settings.manifold_tolerance,
                             face_a, face_b, points);
    } else {
      points.push_back(point_a, point_b);
    }
    // Reduced only once merged, so that the outline of the whole contact survives.
    if (!merger.add(axis, depth, id, points)) {
      reduce_manifold(points, axis);
      emit_manifold(a.transform, axis, depth, a.id.id(), id, points, collector);
    }
  };

  if (b.shape->sub_type() == ShapeSubType::TriangleMesh)
    static_cast<const TriangleMeshShape&>(*b.shape).collect_triangles(mesh_box, collide_triangle,
                                                                      b.id);
  else
    static_cast<const HeightFieldShape&>(*b.shape).collect_triangles(mesh_box, collide_triangle,
                                                                     b.id);

  for (ManifoldMerger::Group& group : merger.groups()) {
    if (!collector.accepts(group.depth)) continue;
    reduce_manifold(group.points, group.normal);
    emit_manifold(a.transform, group.normal, group.depth, a.id.id(), group.id2, group.points,
                  collector);
  }
}

}  // namespace atl
