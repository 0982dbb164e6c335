#include "atoll/geometry/EPA.h"

#include <algorithm>

namespace atl {

namespace {

/// Two points closer than this fraction of the polytope's size are the same point.
constexpr float k_duplicate_fraction = 1.0e-6f;
/// A polytope thinner than this fraction of its size has no volume.
constexpr float k_flat_fraction = 1.0e-5f;
/// Squared sine of the largest angle below which a triangle is degenerate. Its normal would be
/// mostly round-off.
constexpr float k_degenerate_sin_sq = 1.0e-10f;
/// How far (as a fraction of the face area) the origin's projection may fall outside a face
/// that still counts as containing it: shared edges must not leave a gap between two faces.
constexpr float k_interior_fraction = 1.0e-5f;

}  // namespace

void EPAPenetrationDepth::reset() {
  num_points_ = 0;
  scale_sq_ = 0.0f;
  num_faces_ = 0;
  num_free_ = 0;
}

void EPAPenetrationDepth::add_candidate(const Vec3& y, const Vec3& p, const Vec3& q) {
  if (!is_duplicate(y)) add_point(y, p, q);
}

int EPAPenetrationDepth::add_point(const Vec3& y, const Vec3& p, const Vec3& q) {
  if (num_points_ >= k_max_points) return -1;
  y_[num_points_] = y;
  p_[num_points_] = p;
  q_[num_points_] = q;
  scale_sq_ = std::max(scale_sq_, y.length_sq());
  return num_points_++;
}

bool EPAPenetrationDepth::is_duplicate(const Vec3& y) const {
  const float threshold_sq = square(k_duplicate_fraction) * std::max(scale_sq_, y.length_sq());
  for (int i = 0; i < num_points_; ++i)
    if ((y_[i] - y).length_sq() <= threshold_sq) return true;
  return false;
}

bool EPAPenetrationDepth::face_plane(int i0, int i1, int i2, Face& out) const {
  // The cross product's round-off grows with the lengths of the edges used: take the two
  // shortest, which meet at the vertex opposite the longest edge.
  const Vec3& y0 = y_[i0];
  const Vec3& y1 = y_[i1];
  const Vec3& y2 = y_[i2];
  const Vec3 e01 = y1 - y0, e12 = y2 - y1, e20 = y0 - y2;
  const float l01 = e01.length_sq(), l12 = e12.length_sq(), l20 = e20.length_sq();
  Vec3 normal;
  float scale;
  if (l01 >= l12 && l01 >= l20) {
    normal = e12.cross(e20);  // at vertex 2
    scale = l12 * l20;
  } else if (l12 >= l20) {
    normal = e20.cross(e01);  // at vertex 0
    scale = l20 * l01;
  } else {
    normal = e01.cross(e12);  // at vertex 1
    scale = l01 * l12;
  }
  const float len_sq = normal.length_sq();
  if (len_sq == 0.0f || len_sq <= k_degenerate_sin_sq * scale) return false;
  const float len = std::sqrt(len_sq);
  out.normal = normal / len;
  out.distance = out.normal.dot(y0);
  // The projection d·n of the origin is parallel to n, so its weights are the signed areas
  // n·(y1 × y2), n·(y2 × y0), n·(y0 × y1) over the whole area |normal|.
  const float w0 = out.normal.dot(y1.cross(y2));
  const float w1 = out.normal.dot(y2.cross(y0));
  const float w2 = out.normal.dot(y0.cross(y1));
  const float slack = -k_interior_fraction * len;
  out.interior = w0 >= slack && w1 >= slack && w2 >= slack;
  const float inv_area = 1.0f / len;
  out.weights[0] = w0 * inv_area;
  out.weights[1] = w1 * inv_area;
  out.weights[2] = w2 * inv_area;
  return true;
}

int EPAPenetrationDepth::allocate_face() {
  if (num_free_ > 0) return free_faces_[--num_free_];
  ATOLL_ASSERT(num_faces_ < k_max_faces, "EPA face capacity checked by the caller");
  return num_faces_++;
}

int EPAPenetrationDepth::closest_face() const {
  // The depth is attained on a face that contains the origin's projection. Among coplanar
  // faces the plane distances tie, so faces whose projection falls outside are only a fallback.
  int best = -1, best_any = -1;
  float best_distance = k_float_max, best_any_distance = k_float_max;
  for (int f = 0; f < num_faces_; ++f) {
    const Face& face = faces_[f];
    if (!face.alive) continue;
    if (face.interior && face.distance < best_distance) {
      best_distance = face.distance;
      best = f;
    }
    if (face.distance < best_any_distance) {
      best_any_distance = face.distance;
      best_any = f;
    }
  }
  ATOLL_ASSERT(best_any >= 0, "EPA polytope has no faces");
  return best >= 0 ? best : best_any;
}

bool EPAPenetrationDepth::build_initial_polytope() {
  if (num_points_ < 4) return false;
  const float flat_sq = square(k_flat_fraction) * scale_sq_;
  // Greedy large tetrahedron: farthest point, farthest from that line, farthest from that plane.
  const int i0 = 0;
  int i1 = -1;
  float best = flat_sq;
  for (int i = 1; i < num_points_; ++i) {
    const float d = (y_[i] - y_[i0]).length_sq();
    if (d > best) {
      best = d;
      i1 = i;
    }
  }
  if (i1 < 0) return false;
  const Vec3 line = (y_[i1] - y_[i0]).normalized();
  int i2 = -1;
  best = flat_sq;
  for (int i = 1; i < num_points_; ++i) {
    const float d = (y_[i] - y_[i0]).cross(line).length_sq();
    if (d > best) {
      best = d;
      i2 = i;
    }
  }
  if (i2 < 0) return false;
  const Vec3 plane = (y_[i1] - y_[i0]).cross(y_[i2] - y_[i0]).normalized();
  int i3 = -1;
  best = flat_sq;
  for (int i = 1; i < num_points_; ++i) {
    const float d = square(plane.dot(y_[i] - y_[i0]));
    if (d > best) {
      best = d;
      i3 = i;
    }
  }
  if (i3 < 0) return false;

  // Wind every face counter-clockwise seen from outside: i3 must be behind face (i0, i1, i2).
  int a = i0, b = i1, c = i2;
  const int d = i3;
  if (plane.dot(y_[d] - y_[a]) > 0.0f) std::swap(b, c);
  const int tetrahedron[4][3] = {{a, b, c}, {a, d, b}, {b, d, c}, {a, c, d}};
  for (const auto& t : tetrahedron) {
    Face& face = faces_[num_faces_];
    if (!face_plane(t[0], t[1], t[2], face)) return false;
    for (int k = 0; k < 3; ++k) face.vertex[k] = t[k];
    face.alive = true;
    ++num_faces_;
  }
  for (int f = 0; f < 4; ++f) {
    for (int k = 0; k < 3; ++k) {
      const int from = faces_[f].vertex[k], to = faces_[f].vertex[(k + 1) % 3];
      for (int g = 0; g < 4; ++g)
        for (int m = 0; m < 3; ++m)
          if (faces_[g].vertex[m] == to && faces_[g].vertex[(m + 1) % 3] == from)
            faces_[f].neighbor[k] = g;
    }
  }

  // Grow the tetrahedron into the hull of the other candidates.
  const float outside = k_duplicate_fraction * std::sqrt(scale_sq_);
  for (int i = 0; i < num_points_; ++i) {
    if (i == a || i == b || i == c || i == d) continue;
    int start = -1;
    float start_distance = outside;
    for (int f = 0; f < num_faces_; ++f) {
      if (!faces_[f].alive) continue;
      const float distance = faces_[f].normal.dot(y_[i]) - faces_[f].distance;
      if (distance > start_distance) {
        start_distance = distance;
        start = f;
      }
    }
    // A point the hull already contains, or one that cannot be added cleanly, is skipped.
    if (start >= 0) expand(i, start);
  }
  return true;
}

bool EPAPenetrationDepth::expand(int point, int start_face) {
  // The marks are cleared at the first expand (most queries end in GJK and never get here) and
  // when the stamp wraps around, so that no stale mark matches.
  if (stamp_ == 0 || ++stamp_ == 0) {
    std::fill(std::begin(checked_stamp_), std::end(checked_stamp_), 0u);
    std::fill(std::begin(visible_stamp_), std::end(visible_stamp_), 0u);
    std::fill(std::begin(point_stamp_), std::end(point_stamp_), 0u);
    stamp_ = 1;
  }
  const Vec3 w = y_[point];

  // Flood fill the faces that see w, starting from one that does; the edges to faces that do
  // not are the horizon. stack_[0, num_visible) ends up listing the visible faces.
  int num_visible = 0, num_horizon = 0;
  stack_[num_visible++] = start_face;
  checked_stamp_[start_face] = visible_stamp_[start_face] = stamp_;
  for (int read = 0; read < num_visible; ++read) {
    const Face& face = faces_[stack_[read]];
    for (int k = 0; k < 3; ++k) {
      const int g = face.neighbor[k];
      if (checked_stamp_[g] != stamp_) {
        checked_stamp_[g] = stamp_;
        if (faces_[g].normal.dot(w) - faces_[g].distance > 0.0f) {
          visible_stamp_[g] = stamp_;
          stack_[num_visible++] = g;
          continue;
        }
      }
      if (visible_stamp_[g] == stamp_) continue;
      if (num_horizon >= k_max_faces) return false;
      horizon_[num_horizon++] = {face.vertex[k], face.vertex[(k + 1) % 3], g};
    }
  }

  // The new faces are only sound when the horizon is one simple loop (the visible region is a
  // disc). Round-off can make it pinched or holed: then keep the polytope as it is.
  if (num_horizon < 3) return false;
  for (int e = 0; e < num_horizon; ++e) {
    const int from = horizon_[e].from;
    if (point_stamp_[from] == stamp_) return false;
    point_stamp_[from] = stamp_;
    new_face_from_[from] = e;
  }
  int edge = 0;
  for (int step = 1; step <= num_horizon; ++step) {
    const int to = horizon_[edge].to;
    if (point_stamp_[to] != stamp_) return false;
    edge = new_face_from_[to];
    if ((edge == 0) != (step == num_horizon)) return false;
  }
  const int available = (k_max_faces - num_faces_) + num_free_ + num_visible;
  if (available < num_horizon) return false;
  for (int e = 0; e < num_horizon; ++e)
    if (!face_plane(horizon_[e].from, horizon_[e].to, point, new_planes_[e])) return false;

  // Commit: recycle the visible faces, fan the horizon to w, stitch the neighbours.
  for (int i = 0; i < num_visible; ++i) {
    faces_[stack_[i]].alive = false;
    free_faces_[num_free_++] = stack_[i];
  }
  for (int e = 0; e < num_horizon; ++e) {
    const HorizonEdge& h = horizon_[e];
    const int f = allocate_face();
    Face& face = faces_[f];
    face = new_planes_[e];
    face.vertex[0] = h.from;
    face.vertex[1] = h.to;
    face.vertex[2] = point;
    face.neighbor[0] = h.outside_face;
    face.alive = true;
    new_face_from_[h.from] = f;
    new_face_to_[h.to] = f;
    Face& outside = faces_[h.outside_face];
    for (int k = 0; k < 3; ++k)
      if (outside.vertex[k] == h.to && outside.vertex[(k + 1) % 3] == h.from)
        outside.neighbor[k] = f;
  }
  for (int e = 0; e < num_horizon; ++e) {
    const HorizonEdge& h = horizon_[e];
    Face& face = faces_[new_face_from_[h.from]];
    face.neighbor[1] = new_face_from_[h.to];  // edge to → w, shared with the next fan face
    face.neighbor[2] = new_face_to_[h.from];  // edge w → from, shared with the previous one
  }
  return true;
}

void EPAPenetrationDepth::result(int face, Vec3& out_axis, Vec3& out_point_a,
                                 Vec3& out_point_b) const {
  const Face& f = faces_[face];
  float weights[3] = {f.weights[0], f.weights[1], f.weights[2]};
  if (!f.interior) {
    // Only when no face contains the projection (round-off): use the face's closest point.
    const SimplexClosestPoint closest =
        closest_point_to_origin_on_triangle(y_[f.vertex[0]], y_[f.vertex[1]], y_[f.vertex[2]]);
    for (int k = 0; k < 3; ++k) weights[k] = closest.weights[k];
  }
  out_point_a = Vec3::zero();
  out_point_b = Vec3::zero();
  for (int k = 0; k < 3; ++k) {
    out_point_a += p_[f.vertex[k]] * weights[k];
    out_point_b += q_[f.vertex[k]] * weights[k];
  }
  out_axis = f.normal;
}

}  // namespace atl
