#include "atoll/geometry/Clipping.h"

namespace atl {

namespace {

void add_vertex(Polygon& polygon, const Vec3& v) {
  if (!polygon.full()) polygon.push_back(v);
}

/// The point where segment a b crosses the plane, from the signed distances of a and b.
Vec3 crossing(const Vec3& a, const Vec3& b, float distance_a, float distance_b) {
  return a + (b - a) * (distance_a / (distance_a - distance_b));
}

}  // namespace

void clip_polygon_vs_plane(const Polygon& polygon, const Vec3& plane_point,
                           const Vec3& plane_normal, Polygon& out) {
  ATOLL_ASSERT(&polygon != &out, "clip_polygon_vs_plane: out aliases the input");
  out.clear();
  const size_t n = polygon.size();
  if (n == 0) return;
  if (n <= 2) {
    // A point or a segment is not a closed loop: clip it once, not from both directions.
    const Vec3& a = polygon[0];
    const Vec3& b = polygon[n - 1];
    const float da = (a - plane_point).dot(plane_normal);
    const float db = (b - plane_point).dot(plane_normal);
    if (da >= 0.0f) add_vertex(out, a);
    if ((da < 0.0f && db > 0.0f) || (da > 0.0f && db < 0.0f))
      add_vertex(out, crossing(a, b, da, db));
    if (n == 2 && db >= 0.0f) add_vertex(out, b);
    return;
  }
  Vec3 previous = polygon[n - 1];
  float previous_distance = (previous - plane_point).dot(plane_normal);
  for (size_t i = 0; i < n; ++i) {
    const Vec3& current = polygon[i];
    const float distance = (current - plane_point).dot(plane_normal);
    // Strict sign changes only: a vertex on the plane is kept as itself, not duplicated as a
    // crossing point.
    if (distance >= 0.0f) {
      if (previous_distance < 0.0f && distance > 0.0f)
        add_vertex(out, crossing(previous, current, previous_distance, distance));
      add_vertex(out, current);
    } else if (previous_distance > 0.0f) {
      add_vertex(out, crossing(previous, current, previous_distance, distance));
    }
    previous = current;
    previous_distance = distance;
  }
}

void clip_polygon_vs_polygon(const Polygon& polygon, const Polygon& clipping_polygon,
                             const Vec3& clipping_normal, Polygon& out) {
  const size_t n = clipping_polygon.size();
  // Newell's normal gives the winding; flip the edge normals of a clockwise clipping polygon
  // so that they always point inwards.
  Vec3 newell = Vec3::zero();
  for (size_t i = 0; i < n; ++i) newell += clipping_polygon[i].cross(clipping_polygon[(i + 1) % n]);
  const float winding = newell.dot(clipping_normal) < 0.0f ? -1.0f : 1.0f;

  Polygon buffers[2];
  const Polygon* source = &polygon;
  int target = 0;
  for (size_t i = 0; i < n; ++i) {
    const Vec3& e1 = clipping_polygon[i];
    const Vec3& e2 = clipping_polygon[(i + 1) % n];
    const Vec3 edge_normal = clipping_normal.cross(e2 - e1) * winding;
    if (edge_normal.length_sq() == 0.0f) continue;
    clip_polygon_vs_plane(*source, e1, edge_normal, buffers[target]);
    source = &buffers[target];
    target ^= 1;
    if (source->empty()) break;
  }
  out = *source;
}

void clip_polygon_vs_edge(const Polygon& polygon, const Vec3& edge_v1, const Vec3& edge_v2,
                          const Vec3& clipping_normal, Polygon& out) {
  out.clear();
  const Vec3 normal = clipping_normal.normalized_or(Vec3::zero());
  const Vec3 edge = edge_v2 - edge_v1;
  // The strip's own direction: the edge without its component along the sweep.
  const Vec3 along = edge - normal * edge.dot(normal);
  const float along_len_sq = along.length_sq();
  if (normal == Vec3::zero() || along_len_sq <= square(k_float_epsilon) * edge.length_sq()) return;
  const Vec3 strip_normal = normal.cross(along);

  // The chord: where the polygon's boundary meets the strip's plane.
  const size_t n = polygon.size();
  float s_min = k_float_max, s_max = -k_float_max;
  Vec3 p_min, p_max;
  const auto consider = [&](const Vec3& p) {
    const float s = (p - edge_v1).dot(along);
    if (s < s_min) {
      s_min = s;
      p_min = p;
    }
    if (s > s_max) {
      s_max = s;
      p_max = p;
    }
  };
  for (size_t i = 0; i < n; ++i) {
    const Vec3& a = polygon[i];
    const Vec3& b = polygon[(i + 1) % n];
    const float da = (a - edge_v1).dot(strip_normal);
    const float db = (b - edge_v1).dot(strip_normal);
    if (da == 0.0f) consider(a);
    if ((da < 0.0f && db > 0.0f) || (da > 0.0f && db < 0.0f)) consider(crossing(a, b, da, db));
  }
  if (s_min > s_max) return;

  // Limit the chord to the strip's length, s ∈ [0, |along|²].
  const float lo = s_min > 0.0f ? s_min : 0.0f;
  const float hi = s_max < along_len_sq ? s_max : along_len_sq;
  if (lo > hi) return;
  const auto at = [&](float s) {
    return s_max > s_min ? p_min + (p_max - p_min) * ((s - s_min) / (s_max - s_min)) : p_min;
  };
  out.push_back(at(lo));
  if (hi > lo) out.push_back(at(hi));
}

void clip_polygon_vs_aabox(const Polygon& polygon, const AABox& box, Polygon& out) {
  Polygon buffers[2];
  const Polygon* source = &polygon;
  int target = 0;
  for (int axis = 0; axis < 3 && !source->empty(); ++axis) {
    Vec3 normal = Vec3::zero();
    normal.set_component(axis, 1.0f);
    clip_polygon_vs_plane(*source, box.min, normal, buffers[target]);
    source = &buffers[target];
    target ^= 1;
    clip_polygon_vs_plane(*source, box.max, -normal, buffers[target]);
    source = &buffers[target];
    target ^= 1;
  }
  out = *source;
}

}  // namespace atl
