#include "atoll/collision/narrowphase/BoxBoxCollision.h"

#include <algorithm>
#include <cmath>

#include "atoll/collision/narrowphase/ConvexCollision.h"
#include "atoll/shape/BoxShape.h"

namespace atl {

namespace {

/// ±1 by the sign of v (+1 for 0: any vertex of a tied feature is a deepest one).
float side(float v) { return v < 0.0f ? -1.0f : 1.0f; }

/// Points of the segments p + s·dp (|s| ≤ lp) and q + u·dq (|u| ≤ lq), dp and dq unit, that are
/// closest to each other.
void closest_points_of_segments(const Vec3& p, const Vec3& dp, float lp, const Vec3& q,
                                const Vec3& dq, float lq, Vec3& out_p, Vec3& out_q) {
  const Vec3 r = p - q;
  const float b = dp.dot(dq);
  const float c = dp.dot(r);
  const float f = dq.dot(r);
  const float denom = 1.0f - b * b;
  float s = denom > 1.0e-12f ? std::clamp((b * f - c) / denom, -lp, lp) : 0.0f;
  const float u = std::clamp(b * s + f, -lq, lq);
  s = std::clamp(b * u - c, -lp, lp);
  out_p = p + dp * s;
  out_q = q + dq * u;
}

}  // namespace

BoxSatResult box_sat(const Vec3& core_a, const Vec3& core_b, const Mat44& b_to_a, float max_gap) {
  const Vec3 t = b_to_a.translation();
  // Overlap of the projections on unit axis L (A's space): A's radius Σ a_i |L_i|, B's radius
  // Σ b_j |R_j · L|, minus the distance of the centres along L.
  const auto overlap = [&](const Vec3& l) {
    return core_a.dot(l.abs()) + core_b.dot(b_to_a.multiply3x3_transposed(l).abs()) -
           std::fabs(t.dot(l));
  };
  BoxSatResult best;
  best.overlap = k_float_max;
  const auto consider = [&](const Vec3& l, int feature, float bias) {
    const float o = overlap(l);
    if (o + bias < best.overlap) {
      best.overlap = o;
      best.axis = l;
      best.feature = feature;
    }
    return o < -max_gap;  // separated beyond interest: stop
  };
  static constexpr Vec3 k_axes[3] = {Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  // Returns at the first axis that separates by more than max_gap.
  const auto test_axes = [&] {
    for (int i = 0; i < 3; ++i)
      if (consider(k_axes[i], i, 0.0f)) return;
    for (int j = 0; j < 3; ++j)
      if (consider(b_to_a.column3(j), 3 + j, 0.0f)) return;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        const Vec3 l = k_axes[i].cross(b_to_a.column3(j));
        const float len_sq = l.length_sq();
        if (len_sq < k_box_parallel_edges_sin_sq) continue;
        if (consider(l / std::sqrt(len_sq), 6 + 3 * i + j, k_box_edge_axis_bias)) return;
      }
    }
  };
  test_axes();
  if (t.dot(best.axis) < 0.0f) best.axis = -best.axis;
  return best;
}

void collide_box_vs_box(const ShapeInstance& a, const ShapeInstance& b,
                        const CollideShapeSettings& settings, ContactCollector& collector) {
  if (is_large_box(a) || is_large_box(b)) {
    collide_convex_vs_convex(a, b, settings, collector);
    return;
  }
  const auto& box_a = static_cast<const BoxShape&>(*a.shape);
  const auto& box_b = static_cast<const BoxShape&>(*b.shape);
  // The cores, as the boxes' support functions shrink them.
  const Vec3 half_a = box_a.half_extent() * a.scale.abs();
  const Vec3 half_b = box_b.half_extent() * b.scale.abs();
  const float radius_a = ConvexShape::scaled_convex_radius(box_a.convex_radius(), a.scale);
  const float radius_b = ConvexShape::scaled_convex_radius(box_b.convex_radius(), b.scale);
  const Vec3 core_a = Vec3::max(half_a - Vec3::replicate(radius_a), Vec3::zero());
  const Vec3 core_b = Vec3::max(half_b - Vec3::replicate(radius_b), Vec3::zero());
  const float radii = radius_a + radius_b;

  const Mat44 b_to_a = a.transform.inversed_rotation_translation() * b.transform;
  const BoxSatResult sat =
      box_sat(core_a, core_b, b_to_a, radii + settings.max_separation_distance);
  if (sat.overlap < -(radii + settings.max_separation_distance)) return;
  if (sat.overlap < 0.0f) {
    // Cores apart: their distance is at least -overlap, but may be more (corner against
    // corner); GJK measures it.
    collide_convex_vs_convex(a, b, settings, collector);
    return;
  }
  // Cores overlapping: as the GJK + EPA path (and Jolt) does, the depth is that of the full,
  // sharp boxes (BoxShape's support including the radius is the sharp box). On a face axis it
  // is the cores' overlap plus both radii; on an edge axis the sharp boxes reach farther.
  const BoxSatResult full = radii > 0.0f ? box_sat(half_a, half_b, b_to_a, k_float_max) : sat;
  const Vec3& n = full.axis;
  const float depth = full.overlap;
  // The deepest points: a vertex (or edge point) of one box's supporting feature and its
  // partner at depth along the normal.
  Vec3 point_a, point_b;
  if (full.feature < 3) {
    // A's face: B's deepest vertex along -n.
    const Vec3 nb = b_to_a.multiply3x3_transposed(n);
    const Vec3 vertex_b(-side(nb.x()) * half_b.x(), -side(nb.y()) * half_b.y(),
                        -side(nb.z()) * half_b.z());
    point_b = b_to_a * vertex_b;
    point_a = point_b + n * depth;
  } else if (full.feature < 6) {
    // B's face: A's deepest vertex along n.
    point_a = Vec3(side(n.x()) * half_a.x(), side(n.y()) * half_a.y(), side(n.z()) * half_a.z());
    point_b = point_a - n * depth;
  } else {
    // Edge i of A against edge j of B: the supporting edges, their closest points.
    const int i = (full.feature - 6) / 3, j = (full.feature - 6) % 3;
    Vec3 center_a;
    for (int k = 0; k < 3; ++k)
      if (k != i) center_a.set_component(k, side(n[k]) * half_a[k]);
    const Vec3 nb = b_to_a.multiply3x3_transposed(n);
    Vec3 center_b_local;
    for (int k = 0; k < 3; ++k)
      if (k != j) center_b_local.set_component(k, -side(nb[k]) * half_b[k]);
    Vec3 dir_a;
    dir_a.set_component(i, 1.0f);
    closest_points_of_segments(center_a, dir_a, half_a[i], b_to_a * center_b_local,
                               b_to_a.column3(j), half_b[j], point_a, point_b);
  }
  emit_convex_contact(a, b, b_to_a, n, depth, point_a, point_b, settings, collector);
}

}  // namespace atl
