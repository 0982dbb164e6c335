#pragma once
// Expanding Polytope Algorithm: penetration depth of two overlapping convex support objects.
//
// Convention. The penetration axis n is a unit vector from A to B. For penetrating shapes
//   out_point_a - out_point_b = depth · n   (depth > 0),
// where out_point_a is the point of A deepest inside B and out_point_b the point of B deepest
// inside A. Moving A by -depth·n (or B by +depth·n) makes the shapes just touch.
//
// Shapes are given twice: their core ("excluding radius") and the full shape ("including
// radius", the core grown by the convex radius, e.g. AddConvexRadius). GJK on the cores is
// cheap and decides most cases; EPA runs only when the cores themselves overlap.

#include <cstdint>

#include "atoll/geometry/GJK.h"

namespace atl {

class EPAPenetrationDepth {
 public:
  // User-provided: the unions below need it, and it leaves their storage unconstructed.
  EPAPenetrationDepth() {}
  /// Outcome of a penetration query.
  enum class Status {
    /// Separated by more than the sum of the convex radii (or no depth could be computed).
    NotColliding,
    /// Touching or overlapping: the points and axis are valid.
    Colliding,
  };

  /// Capacity of the polytope (points of the Minkowski difference).
  static constexpr int k_max_points = 128;
  /// Capacity of the polytope (triangles, live and recycled).
  static constexpr int k_max_faces = 256;

  /// Penetration of A and B. First GJK on the cores: farther apart than radius_a + radius_b →
  /// NotColliding; closer → Colliding with points on the cores grown by the radii; cores
  /// overlapping → EPA on the full shapes, accurate to `penetration_tolerance` (m) (then
  /// cores_overlapped() is true). radius_a may exceed A's convex radius to find shapes up to a
  /// distance apart; EPA uses a_including_radius as given. `collision_tolerance` (m) is GJK's.
  /// `io_v` in is GJK's first search direction (previous axis, or zero); out, when Colliding,
  /// the unit penetration axis from A to B. The depth (point_a - point_b)·axis may be slightly
  /// negative (≥ -collision_tolerance) for shapes that just touch.
  template <SupportObject AE, SupportObject AI, SupportObject BE, SupportObject BI>
  Status get_penetration_depth(const AE& a_excluding_radius, const AI& a_including_radius,
                               float radius_a, const BE& b_excluding_radius,
                               const BI& b_including_radius, float radius_b,
                               float collision_tolerance, float penetration_tolerance, Vec3& io_v,
                               Vec3& out_point_a, Vec3& out_point_b) {
    const float radius = radius_a + radius_b;
    cores_overlapped_ = false;
    Vec3 point_a, point_b;
    Vec3 v = io_v;
    const float dist_sq =
        gjk_.closest_points(a_excluding_radius, b_excluding_radius, collision_tolerance,
                            square(radius), v, point_a, point_b);
    if (dist_sq > square(radius)) return Status::NotColliding;
    if (dist_sq > 0.0f) {
      // Cores apart but within the radii: grow the closest points along the axis.
      const Vec3 axis = v.normalized();
      out_point_a = point_a + axis * radius_a;
      out_point_b = point_b - axis * radius_b;
      io_v = axis;
      return Status::Colliding;
    }
    cores_overlapped_ = true;
    Vec3 axis;
    if (!expand_polytope(a_including_radius, b_including_radius, gjk_.simplex(),
                         penetration_tolerance, axis, out_point_a, out_point_b))
      return Status::NotColliding;
    io_v = axis;
    return Status::Colliding;
  }

  /// Whether the last get_penetration_depth found the cores overlapping (and ran EPA on the
  /// full shapes) rather than apart (GJK's closest points grown by the radii).
  bool cores_overlapped() const { return cores_overlapped_; }

  /// Like GJKClosestPoint::cast_shape (A at `start_a` swept by λ·direction against B at rest,
  /// cores `a`, `b` grown by the convex radii), but when the shapes already touch at λ = 0 and
  /// either the cores overlap or `return_deepest_point` is set, the result is the penetration
  /// at the start: io_lambda = 0, the deepest points and the penetration axis (unit, A to B).
  /// Otherwise out_axis is GJK's separating axis (A to B, not normalized). Returns false on no
  /// hit in [0, io_lambda], or when the shapes only touch at λ = 0 with no usable axis.
  template <SupportObject A, SupportObject B>
  bool cast_shape(const Mat44& start_a, const Vec3& direction, float collision_tolerance,
                  float penetration_tolerance, const A& a, const B& b, float convex_radius_a,
                  float convex_radius_b, bool return_deepest_point, float& io_lambda,
                  Vec3& out_point_a, Vec3& out_point_b, Vec3& out_axis) {
    float lambda = io_lambda;
    Vec3 point_a, point_b, axis;
    if (!gjk_.cast_shape(start_a, direction, collision_tolerance, a, b, convex_radius_a,
                         convex_radius_b, lambda, point_a, point_b, axis))
      return false;
    const bool cores_overlap = axis.length_sq() <= square(collision_tolerance);
    if (lambda == 0.0f && (cores_overlap || return_deepest_point)) {
      const TransformedConvex<A> a_start(start_a, a);
      const AddConvexRadius<TransformedConvex<A>> a_full(a_start, convex_radius_a);
      const AddConvexRadius<B> b_full(b, convex_radius_b);
      Vec3 v = axis;
      Vec3 deep_a, deep_b;
      if (get_penetration_depth(a_start, a_full, convex_radius_a, b, b_full, convex_radius_b,
                                collision_tolerance, penetration_tolerance, v, deep_a,
                                deep_b) == Status::Colliding) {
        point_a = deep_a;
        point_b = deep_b;
        axis = v;
      } else if (cores_overlap) {
        return false;
      }
    }
    io_lambda = lambda;
    out_point_a = point_a;
    out_point_b = point_b;
    out_axis = axis;
    return true;
  }

  /// EPA alone: penetration of the full shapes A and B, starting from a GJK simplex whose points
  /// lie in A - B (e.g. GJKClosestPoint::simplex() after an overlap). False when A - B is flat
  /// (no volume) or the polytope cannot be built; otherwise the unit axis and deepest points.
  template <SupportObject A, SupportObject B>
  bool expand_polytope(const A& a, const B& b, const GJKClosestPoint::Simplex& start,
                       float penetration_tolerance, Vec3& out_axis, Vec3& out_point_a,
                       Vec3& out_point_b) {
    reset();
    // Support points along the six axes outline A - B in every direction; with the simplex
    // they usually enclose the origin from the start.
    static constexpr Vec3 k_directions[6] = {Vec3(1, 0, 0),  Vec3(-1, 0, 0), Vec3(0, 1, 0),
                                             Vec3(0, -1, 0), Vec3(0, 0, 1),  Vec3(0, 0, -1)};
    for (const Vec3& d : k_directions) {
      const Vec3 p = a.get_support(d);
      const Vec3 q = b.get_support(-d);
      add_candidate(p - q, p, q);
    }
    for (int i = 0; i < start.count; ++i) add_candidate(start.y[i], start.p[i], start.q[i]);
    if (!build_initial_polytope()) return false;

    // Every pass adds a point or stops, so the point capacity bounds the loop.
    int best = closest_face();
    for (;;) {
      const Vec3 n = faces_[best].normal;
      const Vec3 p = a.get_support(n);
      const Vec3 q = b.get_support(-n);
      const Vec3 w = p - q;
      // The support distance along n bounds the depth from above, the face from below.
      if (n.dot(w) - faces_[best].distance <= penetration_tolerance) break;
      if (is_duplicate(w)) break;
      const int index = add_point(w, p, q);
      if (index < 0 || !expand(index, best)) break;
      best = closest_face();
    }
    result(best, out_axis, out_point_a, out_point_b);
    return true;
  }

 private:
  /// A triangle of the polytope, counter-clockwise seen from outside.
  struct Face {
    int vertex[3];
    /// Face across the edge vertex[k] → vertex[(k + 1) % 3].
    int neighbor[3];
    /// Outward unit normal.
    Vec3 normal;
    /// Signed distance of the plane from the origin (> 0 when the origin is behind it).
    float distance;
    /// Barycentric weights of the origin's projection onto the plane, relative to the vertices.
    float weights[3];
    /// True when the projection lies inside the triangle (weights ≥ 0, within round-off).
    bool interior;
    bool alive;
  };
  /// An edge from a face seen by the new point to one that is not.
  struct HorizonEdge {
    int from, to, outside_face;
  };

  void reset();
  void add_candidate(const Vec3& y, const Vec3& p, const Vec3& q);
  bool build_initial_polytope();
  int add_point(const Vec3& y, const Vec3& p, const Vec3& q);
  bool is_duplicate(const Vec3& y) const;
  /// Fills the plane fields of `out` for triangle i0 i1 i2; false when it is degenerate.
  bool face_plane(int i0, int i1, int i2, Face& out) const;
  int allocate_face();
  int closest_face() const;
  bool expand(int point, int start_face);
  void result(int face, Vec3& out_axis, Vec3& out_point_a, Vec3& out_point_b) const;

  GJKClosestPoint gjk_;
  bool cores_overlapped_ = false;
  // The polytope's storage, which every query fills before it reads, is left unconstructed (in
  // anonymous unions): the narrow phase makes an EPAPenetrationDepth per body pair (per
  // convex-vs-mesh pair, for all its triangles), and zeroing these 40 KB each time took a tenth of
  // the convex-vs-mesh step.
  union {
    Vec3 y_[k_max_points];
  };
  union {
    Vec3 p_[k_max_points];
  };
  union {
    Vec3 q_[k_max_points];
  };
  int num_points_ = 0;
  /// Scale of the polytope (largest |y|), for relative thresholds.
  float scale_sq_ = 0.0f;
  union {
    Face faces_[k_max_faces];
  };
  int num_faces_ = 0;
  int free_faces_[k_max_faces];
  int num_free_ = 0;
  // Flood-fill marks: a face / point is marked in the current expand when its stamp matches.
  // Cleared by the first expand (stamp_ 0), not here: zeroing their 2.5 KB for every query
  // took 12 % of collide_convex_vs_triangles' own time, where most queries never expand.
  uint32_t stamp_ = 0;
  uint32_t checked_stamp_[k_max_faces];
  uint32_t visible_stamp_[k_max_faces];
  uint32_t point_stamp_[k_max_points];
  int new_face_from_[k_max_points];
  int new_face_to_[k_max_points];
  int stack_[k_max_faces];
  HorizonEdge horizon_[k_max_faces];
  union {
    Face new_planes_[k_max_faces];
  };
};

}  // namespace atl
