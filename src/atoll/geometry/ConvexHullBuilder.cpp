#include "atoll/geometry/ConvexHullBuilder.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <utility>

#include "atoll/core/QuickSort.h"

namespace atl {

bool ConvexHull::contains(const Vec3& p, float tolerance) const {
  for (const Face& face : faces)
    if (face.normal.dot(p) - face.distance > tolerance) return false;
  return true;
}

namespace {

constexpr uint32_t k_none = std::numeric_limits<uint32_t>::max();

// Planes and distances are computed in double: in float, the sign of the distance of a point
// that lies almost on a face is noise, and merge decisions taken on noise contradict each other.
struct DVec3 {
  double x = 0.0, y = 0.0, z = 0.0;

  friend DVec3 operator+(const DVec3& a, const DVec3& b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
  }
  friend DVec3 operator-(const DVec3& a, const DVec3& b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
  }
  friend DVec3 operator*(const DVec3& a, double s) { return {a.x * s, a.y * s, a.z * s}; }
  double dot(const DVec3& b) const { return x * b.x + y * b.y + z * b.z; }
  DVec3 cross(const DVec3& b) const {
    return {y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x};
  }
  double length() const { return std::sqrt(dot(*this)); }
};

enum class FaceMark : uint8_t { alive, non_convex, deleted };

// Half-edge mesh: every edge of a face loop knows its twin in the neighbouring face.
struct HalfEdge {
  uint32_t head;  // input point at the end of the edge
  uint32_t face;
  uint32_t next;
  uint32_t prev;
  uint32_t twin;
};

struct HullFace {
  uint32_t edge = k_none;  // any edge of the loop
  uint32_t num_vertices = 0;
  uint32_t outside = k_none;  // first point of the list of points above this face
  DVec3 normal;               // outward unit normal (zero for a degenerate face)
  DVec3 centroid;             // average of the vertices
  double offset = 0.0;        // dot(normal, centroid)
  double area = 0.0;          // length of the Newell vector: twice the area
  FaceMark mark = FaceMark::alive;
  bool queued = false;  // in QuickHull::queue_
};

enum class MergeRule { non_convex_wrt_larger_face, non_convex };

// Points closer to the hull than this fraction of the tolerance are not added to it. The rest
// of the tolerance is the budget for the merges, which may move the hull surface inwards by
// up to k_corner_fraction where they drop a vertex.
constexpr double k_eye_fraction = 0.8;
// A merge may tilt a face so that a point left out lies in front of its plane, but by no more
// than this fraction of the tolerance (the rest is margin for the float result).
constexpr double k_keep_fraction = 0.9;

// Faces merge only into a polygon whose vertices lie in a slab this fraction of the tolerance
// thick. The rest is margin: a later merge next to it can drop one of its vertices, which
// tilts its plane again.
constexpr double k_merge_width_fraction = 0.5;
// A merged polygon may be this fraction of the tolerance short of convex at a corner, and a
// vertex that a merge removes may be this far from where the hull surface moves.
constexpr double k_corner_fraction = 0.1;

std::string format_number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

// Quickhull (Barber et al.) on a half-edge mesh, in two phases.
//
// 1. The hull of the points that lie farther than the tolerance from it, built exactly up to
//    rounding (epsilon_): visibility and convexity are decided at epsilon_, and neighbouring
//    faces that are not convex by more than that are merged as in J. E. Lloyd's QuickHull3D,
//    which is what keeps exactly coplanar input (grids, duplicates) consistent. A point counts
//    as near the hull by its distance to the face polygon, not to the face plane: beyond a
//    sharp edge a point can be close to both planes and still far outside. Since the hull
//    only grows, a point left out once stays near it.
// 2. Neighbouring faces that together are planar within half the tolerance, stay convex and
//    keep every left-out point within the tolerance are merged into one polygon.
class QuickHull {
 public:
  QuickHull(std::span<const Vec3> points, double tolerance, double epsilon)
      : points_(points.size()),
        point_next_(points.size(), k_none),
        tolerance_(tolerance),
        eye_distance_(k_eye_fraction * tolerance),
        epsilon_(epsilon) {
    for (size_t i = 0; i < points.size(); ++i)
      points_[i] = {points[i].x(), points[i].y(), points[i].z()};
  }

  /// Ok and flat() when every point is within the tolerance of one plane (no simplex then).
  Status create_initial_simplex();
  /// True when create_initial_simplex found the points coplanar: flat_normal() and
  /// flat_origin() give their plane.
  bool flat() const { return flat_; }
  const DVec3& flat_normal() const { return flat_normal_; }
  const DVec3& flat_origin() const { return flat_origin_; }
  void add_all_points();
  // Merges neighbouring faces that together are planar within half the tolerance.
  void merge_coplanar_faces();
  ConvexHull extract(std::span<const Vec3> input) const;

 private:
  double distance(uint32_t face, const DVec3& p) const {
    return faces_[face].normal.dot(p) - faces_[face].offset;
  }
  uint32_t tail(uint32_t edge) const { return edges_[edges_[edge].prev].head; }
  uint32_t opposite_face(uint32_t edge) const { return edges_[edges_[edge].twin].face; }
  void link_twins(uint32_t a, uint32_t b) {
    edges_[a].twin = b;
    edges_[b].twin = a;
  }

  uint32_t add_triangle(uint32_t a, uint32_t b, uint32_t c);
  void compute_plane(uint32_t face);
  void add_point_to_face(uint32_t point, uint32_t face);
  void move_outside_points(uint32_t face, uint32_t absorbing_face);
  double distance_to_polygon(uint32_t face, const DVec3& p) const;
  bool next_eye(uint32_t& eye, uint32_t& eye_face);
  void add_point_to_hull(uint32_t eye, uint32_t eye_face);
  void calculate_horizon(const DVec3& eye_point, uint32_t first_face);
  void add_new_faces(uint32_t eye);
  bool do_adjacent_merge(uint32_t face, MergeRule rule);
  void merge_adjacent_face(uint32_t face, uint32_t shared_edge);
  // The ends of the chain of edges that `shared_edge`'s face shares with its neighbour: the
  // edges of each face just before and after the chain.
  struct SharedChain {
    uint32_t adj_prev, adj_next, opp_prev, opp_next;
  };
  SharedChain find_shared_chain(uint32_t shared_edge) const;
  void connect_half_edges(uint32_t face, uint32_t prev_edge, uint32_t edge);
  static double distance_to_segment(const DVec3& p, const DVec3& a, const DVec3& b);
  bool can_merge_coplanar(uint32_t face, uint32_t shared_edge);
  // Plane of a loop of points; false when they are not planar within the merge width.
  bool fit_plane(const std::vector<uint32_t>& loop, DVec3& normal, double& offset) const;
  // True when every point left out, and every vertex, is within the tolerance of the plane.
  bool keeps_points(const DVec3& normal, double offset) const;
  void resolve_unclaimed_points();
  void check_topology() const;

  std::vector<DVec3> points_;
  std::vector<uint32_t> point_next_;  // links of the per-face outside lists
  std::vector<HalfEdge> edges_;
  std::vector<HullFace> faces_;
  std::vector<uint32_t> queue_;  // faces that may have outside points (a stack)
  std::vector<uint32_t> horizon_;
  std::vector<uint32_t> new_faces_;
  std::vector<uint32_t> unclaimed_;
  std::vector<uint32_t> discarded_;
  std::vector<uint32_t> merged_loop_;
  std::vector<DVec3> kept_points_;  // copied: the merge checks stream through them
  std::vector<uint32_t> neighbour_loop_;
  struct HorizonFrame {
    uint32_t face;
    uint32_t stop_edge;
    uint32_t edge;
    bool started;
  };
  std::vector<HorizonFrame> horizon_stack_;
  uint32_t eye_ = k_none;
  bool flat_ = false;
  DVec3 flat_normal_;
  DVec3 flat_origin_;
  double tolerance_;
  // A point within this distance of the hull is not added to it.
  double eye_distance_;
  // Rounding error of a distance: decides which points are outside, visibility and convexity.
  double epsilon_;
};

uint32_t QuickHull::add_triangle(uint32_t a, uint32_t b, uint32_t c) {
  const uint32_t face = static_cast<uint32_t>(faces_.size());
  const uint32_t e0 = static_cast<uint32_t>(edges_.size());
  const uint32_t vertices[3] = {a, b, c};
  for (uint32_t i = 0; i < 3; ++i)
    edges_.push_back({vertices[(i + 1) % 3], face, e0 + (i + 1) % 3, e0 + (i + 2) % 3, k_none});
  faces_.emplace_back();
  faces_[face].edge = e0;
  compute_plane(face);
  return face;
}

void QuickHull::compute_plane(uint32_t face_index) {
  HullFace& face = faces_[face_index];
  const uint32_t e0 = face.edge;
  const DVec3& p0 = points_[edges_[e0].head];
  const uint32_t e1 = edges_[e0].next;
  DVec3 d1 = points_[edges_[e1].head] - p0;
  DVec3 sum = p0 + points_[edges_[e1].head];
  DVec3 normal;
  uint32_t count = 2;
  for (uint32_t e = edges_[e1].next; e != e0; e = edges_[e].next) {
    const DVec3& p = points_[edges_[e].head];
    const DVec3 d2 = p - p0;
    normal = normal + d1.cross(d2);
    d1 = d2;
    sum = sum + p;
    ++count;
  }
  face.num_vertices = count;
  face.area = normal.length();
  // A zero normal makes every distance to this face 0, so the merge passes absorb the face
  // into a neighbour instead of dividing by zero.
  face.normal = face.area > 0.0 ? normal * (1.0 / face.area) : DVec3{};
  face.centroid = sum * (1.0 / count);
  face.offset = face.normal.dot(face.centroid);
}

void QuickHull::add_point_to_face(uint32_t point, uint32_t face) {
  point_next_[point] = faces_[face].outside;
  faces_[face].outside = point;
  if (!faces_[face].queued) {
    faces_[face].queued = true;
    queue_.push_back(face);
  }
}

void QuickHull::move_outside_points(uint32_t face, uint32_t absorbing_face) {
  uint32_t next;
  for (uint32_t p = faces_[face].outside; p != k_none; p = next) {
    next = point_next_[p];
    if (p == eye_) continue;
    if (absorbing_face != k_none && distance(absorbing_face, points_[p]) > epsilon_)
      add_point_to_face(p, absorbing_face);
    else
      unclaimed_.push_back(p);
  }
  faces_[face].outside = k_none;
}

Status QuickHull::create_initial_simplex() {
  const uint32_t count = static_cast<uint32_t>(points_.size());
  const std::string within =
      " (within tolerance " + format_number(tolerance_) + " m); need ≥ 3 points spanning a plane";

  // The two extreme points along the axis of largest spread.
  uint32_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  const auto coord = [&](uint32_t i, int axis) {
    return axis == 0 ? points_[i].x : (axis == 1 ? points_[i].y : points_[i].z);
  };
  for (uint32_t i = 1; i < count; ++i)
    for (int axis = 0; axis < 3; ++axis) {
      if (coord(i, axis) < coord(lo[axis], axis)) lo[axis] = i;
      if (coord(i, axis) > coord(hi[axis], axis)) hi[axis] = i;
    }
  int axis = 0;
  for (int a = 1; a < 3; ++a)
    if (coord(hi[a], a) - coord(lo[a], a) > coord(hi[axis], axis) - coord(lo[axis], axis)) axis = a;
  const uint32_t v0 = lo[axis], v1 = hi[axis];
  if (coord(v1, axis) - coord(v0, axis) <= tolerance_)
    return Error("points: all " + std::to_string(count) + " points are coincident" + within);

  // The point farthest from the line v0 v1.
  const DVec3 p0 = points_[v0];
  const DVec3 line = points_[v1] - p0;
  const DVec3 dir = line * (1.0 / line.length());
  uint32_t v2 = v0;
  double max_dist = 0.0;
  for (uint32_t i = 0; i < count; ++i) {
    const double d = (points_[i] - p0).cross(dir).length();
    if (d > max_dist) {
      max_dist = d;
      v2 = i;
    }
  }
  if (max_dist <= tolerance_)
    return Error("points: all " + std::to_string(count) + " points are collinear" + within);

  // The point farthest from the plane v0 v1 v2.
  DVec3 normal = line.cross(points_[v2] - p0);
  normal = normal * (1.0 / normal.length());
  uint32_t v3 = v0;
  max_dist = 0.0;
  for (uint32_t i = 0; i < count; ++i) {
    const double d = std::fabs((points_[i] - p0).dot(normal));
    if (d > max_dist) {
      max_dist = d;
      v3 = i;
    }
  }
  if (max_dist <= tolerance_) {
    flat_ = true;
    flat_normal_ = normal;
    flat_origin_ = p0;
    return Ok{};
  }

  // Four outward triangles: the vertex not on a face must be behind it.
  const uint32_t simplex[4] = {v0, v1, v2, v3};
  for (int skip = 0; skip < 4; ++skip) {
    uint32_t tri[3];
    int n = 0;
    for (int i = 0; i < 4; ++i)
      if (i != skip) tri[n++] = simplex[i];
    const DVec3& a = points_[tri[0]];
    const DVec3 tri_normal = (points_[tri[1]] - a).cross(points_[tri[2]] - a);
    if (tri_normal.dot(points_[simplex[skip]] - a) > 0.0) std::swap(tri[1], tri[2]);
    add_triangle(tri[0], tri[1], tri[2]);
  }
  for (uint32_t e = 0; e < edges_.size(); ++e)
    for (uint32_t g = 0; g < edges_.size(); ++g)
      if (edges_[g].head == tail(e) && tail(g) == edges_[e].head) edges_[e].twin = g;

  // Every other point goes to the face it is farthest above; points inside are dropped.
  for (uint32_t i = 0; i < count; ++i) {
    if (i == v0 || i == v1 || i == v2 || i == v3) continue;
    uint32_t best = k_none;
    double best_dist = epsilon_;
    for (uint32_t f = 0; f < 4; ++f) {
      const double d = distance(f, points_[i]);
      if (d > best_dist) {
        best_dist = d;
        best = f;
      }
    }
    if (best != k_none) add_point_to_face(i, best);
  }
  return Ok{};
}

double QuickHull::distance_to_polygon(uint32_t face, const DVec3& p) const {
  const HullFace& f = faces_[face];
  // Inside every edge's side plane: the closest point is the projection onto the face plane.
  bool inside = true;
  uint32_t e = f.edge;
  do {
    const DVec3& a = points_[tail(e)];
    const DVec3 side = (points_[edges_[e].head] - a).cross(f.normal);
    inside = inside && side.dot(p - a) <= 0.0;
    e = edges_[e].next;
  } while (inside && e != f.edge);
  if (inside) return std::fabs(distance(face, p));
  double min_dist = std::numeric_limits<double>::max();
  e = f.edge;
  do {
    min_dist =
        std::fmin(min_dist, distance_to_segment(p, points_[tail(e)], points_[edges_[e].head]));
    e = edges_[e].next;
  } while (e != f.edge);
  return min_dist;
}

bool QuickHull::next_eye(uint32_t& eye, uint32_t& eye_face) {
  while (!queue_.empty()) {
    const uint32_t f = queue_.back();
    HullFace& face = faces_[f];
    if (face.mark == FaceMark::deleted || face.outside == k_none) {
      face.queued = false;
      queue_.pop_back();
      continue;
    }
    // The eye is the point farthest above the face among those farther than eye_distance_
    // from the hull. The distance to the face polygon, not to its plane, decides that: beyond
    // a sharp edge a point can be close to both planes and still far outside the hull.
    uint32_t best = k_none;
    double best_dist = -std::numeric_limits<double>::max();
    for (uint32_t p = face.outside; p != k_none; p = point_next_[p]) {
      const double d = distance(f, points_[p]);
      if (d > best_dist &&
          (d > eye_distance_ || distance_to_polygon(f, points_[p]) > eye_distance_)) {
        best_dist = d;
        best = p;
      }
    }
    if (best == k_none) {
      // Every point left here is within eye_distance_ of the hull, which only grows from now
      // on: they stay listed only in case this face is replaced.
      face.queued = false;
      queue_.pop_back();
      continue;
    }
    eye = best;
    eye_face = f;
    return true;
  }
  return false;
}

void QuickHull::add_all_points() {
  uint32_t eye, eye_face;
  while (next_eye(eye, eye_face)) add_point_to_hull(eye, eye_face);
  check_topology();
}

void QuickHull::add_point_to_hull(uint32_t eye, uint32_t eye_face) {
  eye_ = eye;
  horizon_.clear();
  unclaimed_.clear();
  calculate_horizon(points_[eye], eye_face);
  add_new_faces(eye);

  // First merge only what is non-convex with respect to the larger of two faces (its plane is
  // the more reliable one), then everything that is still non-convex.
  for (uint32_t f : new_faces_)
    if (faces_[f].mark == FaceMark::alive)
      while (do_adjacent_merge(f, MergeRule::non_convex_wrt_larger_face)) {
      }
  for (uint32_t f : new_faces_)
    if (faces_[f].mark == FaceMark::non_convex) {
      faces_[f].mark = FaceMark::alive;
      while (do_adjacent_merge(f, MergeRule::non_convex)) {
      }
    }
  resolve_unclaimed_points();
  eye_ = k_none;
}

void QuickHull::calculate_horizon(const DVec3& eye_point, uint32_t first_face) {
  // Depth-first over the faces the eye sees, walking each face's edges in loop order starting
  // after the edge it was entered by: this yields the horizon edges as one closed
  // counter-clockwise chain. An explicit stack replaces recursion, whose depth is unbounded.
  faces_[first_face].mark = FaceMark::deleted;
  move_outside_points(first_face, k_none);
  horizon_stack_.clear();
  horizon_stack_.push_back({first_face, faces_[first_face].edge, faces_[first_face].edge, false});
  while (!horizon_stack_.empty()) {
    HorizonFrame& frame = horizon_stack_.back();
    if (frame.started && frame.edge == frame.stop_edge) {
      horizon_stack_.pop_back();
      continue;
    }
    frame.started = true;
    const uint32_t edge = frame.edge;
    frame.edge = edges_[edge].next;
    const uint32_t twin = edges_[edge].twin;
    const uint32_t opposite = edges_[twin].face;
    if (faces_[opposite].mark == FaceMark::deleted) continue;
    if (distance(opposite, eye_point) > epsilon_) {
      faces_[opposite].mark = FaceMark::deleted;
      move_outside_points(opposite, k_none);
      horizon_stack_.push_back({opposite, twin, edges_[twin].next, false});
    } else {
      horizon_.push_back(edge);
    }
  }
}

void QuickHull::add_new_faces(uint32_t eye) {
  new_faces_.clear();
  uint32_t first_in = k_none, prev_out = k_none;
  for (uint32_t h : horizon_) {
    const uint32_t face = add_triangle(eye, tail(h), edges_[h].head);
    const uint32_t in = faces_[face].edge;   // eye -> tail(h)
    const uint32_t base = edges_[in].next;   // tail(h) -> head(h), replaces h
    const uint32_t out = edges_[base].next;  // head(h) -> eye
    link_twins(base, edges_[h].twin);
    if (prev_out == k_none)
      first_in = in;
    else
      link_twins(in, prev_out);
    prev_out = out;
    new_faces_.push_back(face);
  }
  link_twins(first_in, prev_out);
}

bool QuickHull::do_adjacent_merge(uint32_t face, MergeRule rule) {
  const uint32_t first = faces_[face].edge;
  bool convex = true;
  uint32_t edge = first;
  do {
    const uint32_t opposite = opposite_face(edge);
    // How far each face's centroid lies above the other's plane; > -epsilon means the edge
    // between them is not clearly convex.
    const double opp_above = distance(face, faces_[opposite].centroid);
    const double self_above = distance(opposite, faces_[face].centroid);
    bool merge = false;
    if (rule == MergeRule::non_convex) {
      merge = opp_above > -epsilon_ || self_above > -epsilon_;
    } else if (faces_[face].area > faces_[opposite].area) {
      if (opp_above > -epsilon_)
        merge = true;
      else if (self_above > -epsilon_)
        convex = false;
    } else {
      if (self_above > -epsilon_)
        merge = true;
      else if (opp_above > -epsilon_)
        convex = false;
    }
    if (merge) {
      merge_adjacent_face(face, edge);
      return true;
    }
    edge = edges_[edge].next;
  } while (edge != first);
  if (!convex) faces_[face].mark = FaceMark::non_convex;
  return false;
}

QuickHull::SharedChain QuickHull::find_shared_chain(uint32_t shared_edge) const {
  const uint32_t opposite = opposite_face(shared_edge);
  const uint32_t opp_edge = edges_[shared_edge].twin;
  SharedChain c{edges_[shared_edge].prev, edges_[shared_edge].next, edges_[opp_edge].prev,
                edges_[opp_edge].next};
  while (opposite_face(c.adj_prev) == opposite) {
    c.adj_prev = edges_[c.adj_prev].prev;
    c.opp_next = edges_[c.opp_next].next;
  }
  while (opposite_face(c.adj_next) == opposite) {
    c.opp_prev = edges_[c.opp_prev].prev;
    c.adj_next = edges_[c.adj_next].next;
  }
  return c;
}

void QuickHull::merge_adjacent_face(uint32_t face, uint32_t shared_edge) {
  const uint32_t opposite = opposite_face(shared_edge);
  discarded_.clear();
  discarded_.push_back(opposite);
  faces_[opposite].mark = FaceMark::deleted;

  const SharedChain c = find_shared_chain(shared_edge);
  const uint32_t opp_end = edges_[c.opp_prev].next;
  for (uint32_t e = c.opp_next; e != opp_end; e = edges_[e].next) edges_[e].face = face;
  faces_[face].edge = c.adj_next;

  connect_half_edges(face, c.opp_prev, c.adj_next);
  connect_half_edges(face, c.adj_prev, c.opp_next);
  // Dropping a vertex can make its neighbour redundant in turn, e.g. when the far side of an
  // absorbed triangle borders the face that the next edge borders too.
  for (bool again = true; again;) {
    again = false;
    uint32_t e = faces_[face].edge;
    do {
      const uint32_t next = edges_[e].next;
      if (opposite_face(e) == opposite_face(next)) {
        connect_half_edges(face, e, next);
        again = true;
        break;
      }
      e = next;
    } while (e != faces_[face].edge);
  }
  compute_plane(face);
  for (uint32_t d : discarded_) move_outside_points(d, face);
}

void QuickHull::connect_half_edges(uint32_t face, uint32_t prev_edge, uint32_t edge) {
  const uint32_t opposite = opposite_face(edge);
  if (opposite_face(prev_edge) != opposite) {
    edges_[prev_edge].next = edge;
    edges_[edge].prev = prev_edge;
    return;
  }
  // The vertex between prev_edge and edge now borders only two faces: it is redundant, so the
  // two edges become one (edge, spanning both). The neighbour loses the vertex too; a
  // neighbouring triangle would degenerate into an edge and is removed instead.
  if (faces_[face].edge == prev_edge) faces_[face].edge = edge;
  uint32_t opp_edge;
  if (faces_[opposite].num_vertices == 3) {
    opp_edge = edges_[edges_[edges_[edge].twin].prev].twin;
    faces_[opposite].mark = FaceMark::deleted;
    discarded_.push_back(opposite);
  } else {
    opp_edge = edges_[edges_[edge].twin].next;
    const uint32_t removed = edges_[opp_edge].prev;
    if (faces_[opposite].edge == removed) faces_[opposite].edge = opp_edge;
    edges_[opp_edge].prev = edges_[removed].prev;
    edges_[edges_[opp_edge].prev].next = opp_edge;
  }
  edges_[edge].prev = edges_[prev_edge].prev;
  edges_[edges_[edge].prev].next = edge;
  link_twins(edge, opp_edge);
  if (faces_[opposite].mark != FaceMark::deleted) compute_plane(opposite);
}

void QuickHull::resolve_unclaimed_points() {
  for (uint32_t p : unclaimed_) {
    uint32_t best = k_none;
    double best_dist = epsilon_;
    for (uint32_t f : new_faces_) {
      if (faces_[f].mark == FaceMark::deleted) continue;
      const double d = distance(f, points_[p]);
      if (d > best_dist) {
        best_dist = d;
        best = f;
        // Far above one face: good enough, skip the search for the farthest one.
        if (d > 1000.0 * tolerance_) break;
      }
    }
    if (best != k_none) add_point_to_face(p, best);
  }
}

double QuickHull::distance_to_segment(const DVec3& p, const DVec3& a, const DVec3& b) {
  const DVec3 ab = b - a;
  const double len_sq = ab.dot(ab);
  const double t = len_sq > 0.0 ? clamp((p - a).dot(ab) / len_sq, 0.0, 1.0) : 0.0;
  return (p - (a + ab * t)).length();
}

bool QuickHull::can_merge_coplanar(uint32_t face, uint32_t shared_edge) {
  const uint32_t opposite = opposite_face(shared_edge);
  const SharedChain c = find_shared_chain(shared_edge);

  // The loop the merge would make: this face's edges after the shared chain, then the
  // neighbour's. It starts after the chain's end vertex and ends with it; the chain's start
  // vertex closes this face's part.
  merged_loop_.clear();
  for (uint32_t e = c.adj_next;; e = edges_[e].next) {
    merged_loop_.push_back(edges_[e].head);
    if (e == c.adj_prev) break;
  }
  const size_t chain_start = merged_loop_.size() - 1;
  for (uint32_t e = c.opp_next;; e = edges_[e].next) {
    merged_loop_.push_back(edges_[e].head);
    if (e == c.opp_prev) break;
  }
  const size_t chain_end = merged_loop_.size() - 1;

  // A chain end whose two merged edges border the same third face is dropped by the merge
  // (connect_half_edges); a third face that is a triangle is absorbed into the merged face.
  struct ChainEnd {
    size_t index;
    uint32_t third_face;
    bool redundant;
  };
  const ChainEnd ends[2] = {{chain_end, opposite_face(c.adj_next),
                             opposite_face(c.opp_prev) == opposite_face(c.adj_next)},
                            {chain_start, opposite_face(c.opp_next),
                             opposite_face(c.adj_prev) == opposite_face(c.opp_next)}};

  // Face normals times (twice) their areas are Newell vectors, which add up over a partition:
  // their sum is the normal of the merged polygon, good enough to tell a reflex corner.
  DVec3 normal =
      faces_[face].normal * faces_[face].area + faces_[opposite].normal * faces_[opposite].area;
  for (const ChainEnd& end : ends)
    if (end.redundant && faces_[end.third_face].num_vertices == 3)
      normal = normal + faces_[end.third_face].normal * faces_[end.third_face].area;
  const double length = normal.length();
  if (length <= 0.0) return false;
  normal = normal * (1.0 / length);

  // How far a corner of the loop lies inside the chord between its neighbours (positive when
  // reflex), and how far it is from that chord.
  const double slack = k_corner_fraction * tolerance_;
  const auto corner = [&](size_t i, double& inside, double& off_chord) {
    const size_t n = merged_loop_.size();
    const DVec3& pred = points_[merged_loop_[(i + n - 1) % n]];
    const DVec3& succ = points_[merged_loop_[(i + 1) % n]];
    const DVec3& p = points_[merged_loop_[i]];
    const DVec3 chord = succ - pred;
    const double chord_length = chord.length();
    if (chord_length <= 0.0) return false;
    inside = chord.cross(p - pred).dot(normal) / chord_length;
    off_chord = distance_to_segment(p, pred, succ);
    return true;
  };
  // chain_end is the last entry, so removing it first leaves chain_start's index valid.
  uint32_t shrunk_faces[2], dropped_vertices[2];
  int num_shrunk = 0;
  for (const ChainEnd& end : ends) {
    if (!end.redundant) continue;
    double inside, off_chord;
    if (!corner(end.index, inside, off_chord)) return false;
    // An absorbed triangle fills the notch of a reflex corner; otherwise the vertex leaves
    // the hull, whose surface moves onto the chord, so the vertex must be on it.
    const bool absorbed = faces_[end.third_face].num_vertices == 3;
    if (absorbed ? inside < -slack : off_chord > slack) return false;
    if (!absorbed) {
      shrunk_faces[num_shrunk] = end.third_face;
      dropped_vertices[num_shrunk++] = merged_loop_[end.index];
    }
    merged_loop_.erase(merged_loop_.begin() + static_cast<std::ptrdiff_t>(end.index));
  }
  if (merged_loop_.size() < 3) return false;

  // The merged polygon as it will be: planar, and convex at every corner up to rounded input
  // that is never exactly collinear (not only at the chain ends: its normal differs from the
  // old faces' and tilts their corners too).
  double offset;
  if (!fit_plane(merged_loop_, normal, offset)) return false;
  for (size_t i = 0; i < merged_loop_.size(); ++i) {
    double inside, off_chord;
    if (!corner(i, inside, off_chord) || inside > slack) return false;
  }
  if (!keeps_points(normal, offset)) return false;

  // A neighbour that loses a vertex gets a new plane too.
  for (int i = 0; i < num_shrunk; ++i) {
    neighbour_loop_.clear();
    const uint32_t first = faces_[shrunk_faces[i]].edge;
    uint32_t e = first;
    do {
      if (edges_[e].head != dropped_vertices[i]) neighbour_loop_.push_back(edges_[e].head);
      e = edges_[e].next;
    } while (e != first);
    DVec3 neighbour_normal;
    double neighbour_offset;
    if (!fit_plane(neighbour_loop_, neighbour_normal, neighbour_offset) ||
        !keeps_points(neighbour_normal, neighbour_offset))
      return false;
  }
  return true;
}

bool QuickHull::fit_plane(const std::vector<uint32_t>& loop, DVec3& normal, double& offset) const {
  // Newell's normal, as compute_plane sums it, and the plane through the outermost vertex (as
  // extract places it).
  const DVec3& p0 = points_[loop[0]];
  DVec3 sum;
  for (size_t i = 1; i + 1 < loop.size(); ++i)
    sum = sum + (points_[loop[i]] - p0).cross(points_[loop[i + 1]] - p0);
  const double length = sum.length();
  if (length <= 0.0) return false;
  normal = sum * (1.0 / length);
  double lo = std::numeric_limits<double>::max();
  offset = -lo;
  for (uint32_t v : loop) {
    const double d = normal.dot(points_[v]);
    lo = std::fmin(lo, d);
    offset = std::fmax(offset, d);
  }
  return offset - lo <= k_merge_width_fraction * tolerance_;
}

bool QuickHull::keeps_points(const DVec3& normal, double offset) const {
  // A merged plane is tilted against the old ones: beyond the face's edges it can rise above
  // points that were left out as within the tolerance of the old faces.
  const double limit = offset + k_keep_fraction * tolerance_;
  for (const DVec3& p : kept_points_)
    if (normal.dot(p) > limit) return false;
  return true;
}

void QuickHull::merge_coplanar_faces() {
  // Points outside the hull that were not added (they are within the tolerance), and the
  // vertices: a merge must keep them all within the tolerance. Points inside the hull stay
  // inside as long as the vertices do.
  kept_points_.clear();
  for (const HullFace& face : faces_) {
    if (face.mark == FaceMark::deleted) continue;
    for (uint32_t p = face.outside; p != k_none; p = point_next_[p])
      kept_points_.push_back(points_[p]);
    uint32_t e = face.edge;
    do {
      kept_points_.push_back(points_[edges_[e].head]);
      e = edges_[e].next;
    } while (e != face.edge);
  }
  // Largest faces first, so that small faces join the big plane they belong to rather than
  // each other.
  std::vector<uint32_t> order;
  for (uint32_t f = 0; f < faces_.size(); ++f)
    if (faces_[f].mark != FaceMark::deleted) order.push_back(f);
  quick_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return faces_[a].area != faces_[b].area ? faces_[a].area > faces_[b].area : a < b;
  });
  for (uint32_t f : order) {
    bool merged = true;
    while (merged && faces_[f].mark != FaceMark::deleted) {
      merged = false;
      uint32_t e = faces_[f].edge;
      do {
        if (can_merge_coplanar(f, e)) {
          merge_adjacent_face(f, e);
          merged = true;
          break;
        }
        e = edges_[e].next;
      } while (e != faces_[f].edge);
    }
  }
  check_topology();
}

void QuickHull::check_topology() const {
#if defined(ATOLL_ENABLE_ASSERTS)
  size_t num_faces = 0, num_edges = 0;
  std::vector<bool> used(points_.size(), false);
  for (uint32_t f = 0; f < faces_.size(); ++f) {
    if (faces_[f].mark == FaceMark::deleted) continue;
    ++num_faces;
    uint32_t count = 0, e = faces_[f].edge;
    do {
      const HalfEdge& edge = edges_[e];
      ATOLL_ASSERT(edge.face == f, "hull edge in the wrong face");
      ATOLL_ASSERT(edges_[edge.twin].twin == e, "hull twins not mutual");
      ATOLL_ASSERT(edges_[edge.twin].head == tail(e), "hull twin runs the same way");
      ATOLL_ASSERT(faces_[edges_[edge.twin].face].mark != FaceMark::deleted,
                   "hull edge borders a deleted face");
      used[edge.head] = true;
      ++count;
      e = edge.next;
    } while (e != faces_[f].edge);
    ATOLL_ASSERT(count >= 3 && count == faces_[f].num_vertices, "hull face with < 3 vertices");
    num_edges += count;
  }
  size_t num_vertices = 0;
  for (bool u : used) num_vertices += u ? 1 : 0;
  ATOLL_ASSERT(num_vertices + num_faces == num_edges / 2 + 2, "hull violates Euler's formula");
#endif
}

ConvexHull QuickHull::extract(std::span<const Vec3> input) const {
  ConvexHull hull;
  std::vector<uint32_t> remap(points_.size(), k_none);
  for (const HullFace& face : faces_) {
    if (face.mark == FaceMark::deleted) continue;
    uint32_t e = face.edge;
    do {
      remap[edges_[e].head] = 0;
      e = edges_[e].next;
    } while (e != face.edge);
  }
  for (uint32_t i = 0; i < remap.size(); ++i)
    if (remap[i] != k_none) {
      remap[i] = static_cast<uint32_t>(hull.vertices.size());
      hull.vertices.push_back(input[i]);
    }
  for (const HullFace& face : faces_) {
    if (face.mark == FaceMark::deleted) continue;
    ConvexHull::Face out;
    out.first_index = static_cast<uint32_t>(hull.face_indices.size());
    out.num_indices = face.num_vertices;
    out.normal = Vec3(static_cast<float>(face.normal.x), static_cast<float>(face.normal.y),
                      static_cast<float>(face.normal.z));
    // The plane through the outermost vertex: every vertex of the face is on or behind it, so
    // the hull never shrinks below a point that was dropped as inside.
    double offset = -std::numeric_limits<double>::max();
    uint32_t e = face.edge;
    do {
      hull.face_indices.push_back(remap[edges_[e].head]);
      offset = std::fmax(offset, face.normal.dot(points_[edges_[e].head]));
      e = edges_[e].next;
    } while (e != face.edge);
    out.distance = static_cast<float>(offset);
    hull.faces.push_back(out);
  }
  return hull;
}

// The hull of points that all lie within the tolerance of the plane through `origin` with unit
// `normal`: the 2D hull of their projections (Andrew's monotone chain), as one polygon with two
// faces, the front along `normal` and the back against it.
Result<ConvexHull> build_flat(std::span<const Vec3> input, const DVec3& origin, const DVec3& normal,
                              double tolerance) {
  // In-plane axes u, w with u × w = normal, so that counter-clockwise in (u, w) is
  // counter-clockwise seen from the front.
  const DVec3 helper = std::fabs(normal.x) < 0.57 ? DVec3{1.0, 0.0, 0.0} : DVec3{0.0, 1.0, 0.0};
  DVec3 u = helper.cross(normal);
  u = u * (1.0 / u.length());
  const DVec3 w = normal.cross(u);
  struct Point2 {
    double x, y;
    uint32_t index;
  };
  std::vector<Point2> sorted(input.size());
  for (uint32_t i = 0; i < input.size(); ++i) {
    const DVec3 d = DVec3{input[i].x(), input[i].y(), input[i].z()} - origin;
    sorted[i] = {d.dot(u), d.dot(w), i};
  }
  std::sort(sorted.begin(), sorted.end(), [](const Point2& a, const Point2& b) {
    if (a.x != b.x) return a.x < b.x;
    if (a.y != b.y) return a.y < b.y;
    return a.index < b.index;
  });
  // A point within the tolerance of the chord from the one before it to the next is dropped.
  const auto keeps_left_turn = [tolerance](const Point2& o, const Point2& a, const Point2& b) {
    const double cross = (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
    return cross > tolerance * std::sqrt((b.x - o.x) * (b.x - o.x) + (b.y - o.y) * (b.y - o.y));
  };
  std::vector<Point2> chain;
  const auto add_to_chain = [&](const Point2& p, size_t floor) {
    while (chain.size() >= floor + 2 && !keeps_left_turn(chain[chain.size() - 2], chain.back(), p))
      chain.pop_back();
    chain.push_back(p);
  };
  for (const Point2& p : sorted) add_to_chain(p, 0);  // lower chain, left to right
  const size_t lower = chain.size() - 1;
  for (size_t i = sorted.size() - 1; i-- > 0;) add_to_chain(sorted[i], lower);  // upper chain
  chain.pop_back();  // the first point again
  if (chain.size() < 3)
    return Error("points: all " + std::to_string(input.size()) +
                 " points are collinear (within tolerance " + format_number(tolerance) +
                 " m); need ≥ 3 points spanning a plane");

  ConvexHull hull;
  std::vector<uint32_t> corners;
  for (const Point2& p : chain) corners.push_back(p.index);
  std::vector<uint32_t> by_input = corners;
  std::sort(by_input.begin(), by_input.end());
  std::vector<uint32_t> remap(input.size(), k_none);
  for (uint32_t index : by_input) {
    remap[index] = static_cast<uint32_t>(hull.vertices.size());
    hull.vertices.push_back(input[index]);
  }
  const auto count = static_cast<uint32_t>(corners.size());
  for (int side = 0; side < 2; ++side) {
    const DVec3 n = side == 0 ? normal : normal * -1.0;
    ConvexHull::Face face;
    face.first_index = static_cast<uint32_t>(hull.face_indices.size());
    face.num_indices = count;
    face.normal = Vec3(static_cast<float>(n.x), static_cast<float>(n.y), static_cast<float>(n.z));
    double offset = -std::numeric_limits<double>::max();
    for (uint32_t k = 0; k < count; ++k) {
      // The back face runs the other way round: counter-clockwise seen from behind.
      const uint32_t index = corners[side == 0 ? k : count - 1 - k];
      hull.face_indices.push_back(remap[index]);
      offset =
          std::fmax(offset, n.dot(DVec3{input[index].x(), input[index].y(), input[index].z()}));
    }
    face.distance = static_cast<float>(offset);
    hull.faces.push_back(face);
  }
  return hull;
}

}  // namespace

Result<ConvexHull> ConvexHullBuilder::build(std::span<const Vec3> points, float tolerance) {
  if (!std::isfinite(tolerance) || tolerance <= 0.0f)
    return Error("tolerance: must be finite and > 0 m, got " + format_number(tolerance));
  if (points.size() < 3)
    return Error("points: need ≥ 3 points spanning a plane, got " + std::to_string(points.size()));
  ATOLL_ASSERT(points.size() < k_none, "too many points for 32-bit indices");
  float max_abs = 0.0f;
  for (size_t i = 0; i < points.size(); ++i) {
    const Vec3& p = points[i];
    if (!p.is_finite()) {
      std::ostringstream out;
      out << "points[" << i << "]: must be finite, got " << p;
      return Error(out.str());
    }
    max_abs = std::fmax(max_abs, p.abs().max_component());
  }
  // A tolerance below the float spacing of the coordinates cannot be honoured by the float
  // planes of the result; raise it to a few units in the last place.
  const double effective = std::fmax(tolerance, 4.0 * k_float_epsilon * max_abs);
  // Rounding error of a plane distance in double, as QuickHull3D bounds it.
  const double epsilon = 3.0 * std::numeric_limits<double>::epsilon() * 3.0 * max_abs;
  QuickHull quick_hull(points, effective, epsilon);
  if (Status status = quick_hull.create_initial_simplex(); !status) return status.error();
  if (quick_hull.flat())
    return build_flat(points, quick_hull.flat_origin(), quick_hull.flat_normal(), effective);
  quick_hull.add_all_points();
  quick_hull.merge_coplanar_faces();
  return quick_hull.extract(points);
}

}  // namespace atl
