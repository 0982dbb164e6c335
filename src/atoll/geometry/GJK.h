#pragma once
// Gilbert–Johnson–Keerthi distance algorithm on support objects (see ConvexSupport.h), with the
// ray cast of van den Bergen ("Ray casting against general convex objects", 2004) for rays and
// linear shape casts.
//
// Conventions. The Minkowski difference is A - B. `v` is the separating axis pointing from A to
// B: v = point_b - point_a for separated shapes, so moving B along v (or A along -v) separates.
// Tolerances are distances in metres.

#include <cmath>
#include <cstdint>

#include "atoll/geometry/ClosestPoint.h"
#include "atoll/geometry/ConvexSupport.h"

namespace atl {

class GJKClosestPoint {
 public:
  /// Cap on the iterations of every query; reaching it ends the query with the best estimate.
  static constexpr int k_max_iterations = 128;
  /// Consecutive closest_points iterations without progress before it gives up.
  static constexpr int k_max_stalls = 8;

  /// A simplex of up to 4 points: y[i] is a point of the query's Minkowski difference, p[i] and
  /// q[i] the support points on A and B that made it (y = p - q for intersects/closest_points).
  struct Simplex {
    /// Points of the Minkowski difference (m).
    Vec3 y[4];
    /// Support points on A (m).
    Vec3 p[4];
    /// Support points on B (m).
    Vec3 q[4];
    /// Number of points in use (0..4).
    int count = 0;
  };

  /// True when A and B overlap or are closer than `tolerance` (m). `io_v` is the first search
  /// direction (pass the previous result, or any non-zero vector; zero means +X); on return it
  /// is the last separating-axis estimate, from A to B (length meaningless).
  template <SupportObject A, SupportObject B>
  bool intersects(const A& a, const B& b, float tolerance, Vec3& io_v) {
    const float tolerance_sq = square(tolerance);
    Vec3 v = start_direction(io_v);
    float prev_len_sq = k_float_max;
    simplex_.count = 0;
    for (int iteration = 0; iteration < k_max_iterations; ++iteration) {
      const Vec3 p = a.get_support(v);
      const Vec3 q = b.get_support(-v);
      const Vec3 w = p - q;
      const float dot = v.dot(w);
      // All of A - B lies at least -dot/|v| behind the origin along v: a separating plane.
      if (dot < 0.0f && square(dot) > tolerance_sq * v.length_sq()) {
        io_v = v;
        return false;
      }
      push(w, p, q);
      const SimplexClosestPoint closest =
          closest_point_to_origin_on_simplex(simplex_.y, simplex_.count);
      const float len_sq = closest.point.length_sq();
      if (len_sq >= prev_len_sq) {
        // No progress: the simplex cannot get closer, so the origin is outside by about |v|.
        --simplex_.count;
        io_v = v;
        return false;
      }
      reduce(closest);
      v = -closest.point;
      if (closest.vertex_set == 0b1111u || len_sq <= tolerance_sq || is_numerically_zero(len_sq)) {
        io_v = v;
        return true;
      }
      prev_len_sq = len_sq;
    }
    io_v = v;
    return false;
  }

  /// Closest points of A and B. Returns the squared distance (m²): 0 when they overlap or are
  /// closer than `tolerance` (then io_v = 0), k_float_max when they are farther apart than
  /// sqrt(max_dist_sq) (then io_v is a separating axis and the points are not computed).
  /// Otherwise io_v = out_point_b - out_point_a, the separating axis from A to B. `io_v` in is
  /// the first search direction (previous result, or any vector; zero means +X).
  template <SupportObject A, SupportObject B>
  float closest_points(const A& a, const B& b, float tolerance, float max_dist_sq, Vec3& io_v,
                       Vec3& out_point_a, Vec3& out_point_b) {
    const float tolerance_sq = square(tolerance);
    Vec3 v = start_direction(io_v);
    float v_len_sq = k_float_max;  // |v|² of the simplex's closest point; none yet
    bool overlap = false;
    int stalls = 0;
    simplex_.count = 0;
    for (int iteration = 0; iteration < k_max_iterations; ++iteration) {
      const Vec3 p = a.get_support(v);
      const Vec3 q = b.get_support(-v);
      const Vec3 w = p - q;
      const float dot = v.dot(w);
      if (dot < 0.0f && square(dot) > v.length_sq() * max_dist_sq) {
        io_v = v;
        return k_float_max;
      }
      // Upper bound of the distance |v|, lower bound -dot/|v|: stop when they are within
      // tolerance (written without the division).
      if (simplex_.count > 0 && v_len_sq + dot <= tolerance * std::sqrt(v_len_sq)) break;
      push(w, p, q);
      const SimplexClosestPoint closest =
          closest_point_to_origin_on_simplex(simplex_.y, simplex_.count);
      const float len_sq = closest.point.length_sq();
      if (len_sq >= v_len_sq) {
        // On curved shapes a support point far from the closest point improves |v| by less
        // than the round-off of the simplex: accept a few such sideways steps (they change the
        // next search direction), but stop on a real regression or when they keep coming.
        if (++stalls > k_max_stalls ||
            len_sq > v_len_sq + 16.0f * k_float_epsilon * max_y_len_sq()) {
          --simplex_.count;
          break;
        }
      } else {
        stalls = 0;
      }
      reduce(closest);
      v = -closest.point;
      v_len_sq = len_sq;
      if (closest.vertex_set == 0b1111u || len_sq <= tolerance_sq || is_numerically_zero(len_sq)) {
        overlap = true;
        break;
      }
    }
    witness_points(out_point_a, out_point_b);
    if (overlap) {
      io_v = Vec3::zero();
      return 0.0f;
    }
    io_v = v;
    return v_len_sq;
  }

  /// Casts the ray origin + λ·direction against A for λ ∈ [0, io_lambda]. On a hit returns true
  /// and sets io_lambda to the fraction where the ray comes within `tolerance` of A (0 when the
  /// origin is inside). λ only grows towards the hit, so a query that runs out of iterations
  /// reports a hit at a conservative (early) λ.
  template <SupportObject A>
  bool cast_ray(const Vec3& origin, const Vec3& direction, float tolerance, const A& a,
                float& io_lambda) {
    const auto support = [&a](const Vec3& v, Vec3& out_p, Vec3& out_q) {
      out_p = a.get_support(v);
      out_q = Vec3::zero();
      return out_p;
    };
    Vec3 normal;
    return cast(origin, direction, tolerance, 0.0f, support, io_lambda, normal);
  }

  /// Sweeps A, placed by `start_a` and translated by λ·direction, against B at rest, both grown
  /// by their convex radii (m). On a hit at λ ∈ [0, io_lambda] returns true and sets io_lambda,
  /// the contact points on the grown surfaces at that λ (in B's space, A at its swept pose) and
  /// the separating axis from A to B (not normalized; zero when the cores already overlap at
  /// λ = 0, see EPAPenetrationDepth::cast_shape).
  template <SupportObject A, SupportObject B>
  bool cast_shape(const Mat44& start_a, const Vec3& direction, float tolerance, const A& a,
                  const B& b, float convex_radius_a, float convex_radius_b, float& io_lambda,
                  Vec3& out_point_a, Vec3& out_point_b, Vec3& out_separating_axis) {
    // A at λ touches B when λ·direction ∈ B - A(start): a ray from the origin against the set
    // C = B - A(start). p holds A's support points (at the start pose), q B's.
    const TransformedConvex<A> start(start_a, a);
    const auto support = [&start, &b](const Vec3& v, Vec3& out_p, Vec3& out_q) {
      out_p = start.get_support(-v);
      out_q = b.get_support(v);
      return out_q - out_p;
    };
    float lambda = io_lambda;
    Vec3 normal;
    if (!cast(Vec3::zero(), direction, tolerance, convex_radius_a + convex_radius_b, support,
              lambda, normal))
      return false;
    io_lambda = lambda;
    if (lambda == 0.0f) {
      // Touching at the start. The ray cast stops as soon as the grown shapes touch, before its
      // simplex resolves the cores, so measure the cores properly.
      Vec3 v = -normal, core_a, core_b;
      if (closest_points(start, b, tolerance, k_float_max, v, core_a, core_b) == 0.0f) {
        out_point_a = core_a;
        out_point_b = core_b;
        out_separating_axis = Vec3::zero();
        return true;
      }
      const Vec3 unit = v.normalized();
      out_point_a = core_a + unit * convex_radius_a;
      out_point_b = core_b - unit * convex_radius_b;
      out_separating_axis = v;
      return true;
    }
    // y = x - (q - p): the closest point of the cores, from B to A, with A moved by x.
    const Vec3 x = lambda * direction;
    Vec3 core_a, core_b;
    witness_points(core_a, core_b);
    core_a += x;
    const Vec3 b_to_a = core_a - core_b;
    // Once the cores touch the final v vanishes; the last separating plane still has a normal.
    const Vec3 axis_b_to_a = b_to_a.length_sq() > square(tolerance) ? b_to_a : normal;
    const Vec3 unit = axis_b_to_a.normalized_or(Vec3::zero());
    out_point_a = core_a - unit * convex_radius_a;
    out_point_b = core_b + unit * convex_radius_b;
    out_separating_axis = -axis_b_to_a;
    return true;
  }

  /// The simplex the last query ended on (what EPA starts from after intersects/closest_points).
  const Simplex& simplex() const { return simplex_; }

 private:
  static Vec3 start_direction(const Vec3& v) { return v.length_sq() > 0.0f ? v : Vec3::axis_x(); }

  void push(const Vec3& y, const Vec3& p, const Vec3& q) {
    ATOLL_ASSERT(simplex_.count < 4, "GJK simplex overflow");
    simplex_.y[simplex_.count] = y;
    simplex_.p[simplex_.count] = p;
    simplex_.q[simplex_.count] = q;
    ++simplex_.count;
  }

  /// Keeps the vertices in `closest.vertex_set` (in order) with their weights.
  void reduce(const SimplexClosestPoint& closest) {
    int kept = 0;
    for (int i = 0; i < simplex_.count; ++i) {
      if (!((closest.vertex_set >> i) & 1u)) continue;
      simplex_.y[kept] = simplex_.y[i];
      simplex_.p[kept] = simplex_.p[i];
      simplex_.q[kept] = simplex_.q[i];
      weights_[kept] = closest.weights[i];
      ++kept;
    }
    simplex_.count = kept;
  }

  /// True when |v|² is below what the simplex can resolve: the closest-point arithmetic has an
  /// absolute error of a few ε·|y|, so a smaller |v| is indistinguishable from 0.
  bool is_numerically_zero(float len_sq) const {
    return len_sq <= square(16.0f * k_float_epsilon) * max_y_len_sq();
  }

  /// Largest |y|² of the simplex: the scale of its round-off.
  float max_y_len_sq() const {
    float result = 0.0f;
    for (int i = 0; i < simplex_.count; ++i) {
      const float y_len_sq = simplex_.y[i].length_sq();
      result = y_len_sq > result ? y_len_sq : result;
    }
    return result;
  }

  void witness_points(Vec3& out_point_a, Vec3& out_point_b) const {
    out_point_a = Vec3::zero();
    out_point_b = Vec3::zero();
    for (int i = 0; i < simplex_.count; ++i) {
      out_point_a += simplex_.p[i] * weights_[i];
      out_point_b += simplex_.q[i] * weights_[i];
    }
  }

  /// Van den Bergen's GJK ray cast of origin + λ·direction against the set C whose support is
  /// `support(v, out_p, out_q)` (returns the point of C, stores its parts), grown by `radius`.
  /// The simplex holds y = x - c; the points of C are kept as q - p (or p for a plain ray).
  template <class Support>
  bool cast(const Vec3& origin, const Vec3& direction, float tolerance, float radius,
            const Support& support, float& io_lambda, Vec3& out_normal) {
    const float hit_dist_sq = square(radius + tolerance);
    float lambda = 0.0f;
    Vec3 x = origin;
    Vec3 c_points[4];  // points of C for the simplex, to rebuild y when x moves
    Vec3 p, q;
    Vec3 c = support(Vec3::zero(), p, q);
    simplex_.count = 0;
    push(x - c, p, q);
    c_points[0] = c;
    weights_[0] = 1.0f;
    Vec3 v = x - c;
    float v_len_sq = v.length_sq();
    float prev_len_sq = k_float_max;
    bool allow_restart = true;
    out_normal = Vec3::zero();
    for (int iteration = 0; iteration < k_max_iterations; ++iteration) {
      if (v_len_sq <= hit_dist_sq) break;
      c = support(v, p, q);
      const Vec3 w = x - c;
      const float v_len = std::sqrt(v_len_sq);
      const float gap = v.dot(w) - radius * v_len;
      if (gap > 0.0f) {
        // The plane through c (pushed out by radius) with normal v separates x from C: jump
        // x forward to it, or report a miss when the ray does not approach it.
        const float v_dot_dir = v.dot(direction);
        if (v_dot_dir >= 0.0f) return false;
        const float new_lambda = lambda - gap / v_dot_dir;
        if (new_lambda > io_lambda) return false;
        if (new_lambda == lambda) break;  // cannot move any more in float: converged
        lambda = new_lambda;
        x = origin + lambda * direction;
        out_normal = v;
        prev_len_sq = k_float_max;
        allow_restart = true;
      }
      c_points[simplex_.count] = c;
      push(x - c, p, q);
      for (int i = 0; i < simplex_.count; ++i) simplex_.y[i] = x - c_points[i];
      const SimplexClosestPoint closest =
          closest_point_to_origin_on_simplex(simplex_.y, simplex_.count);
      const float len_sq = closest.point.length_sq();
      if (len_sq >= prev_len_sq) {
        // Round-off built up in a simplex made for earlier x: restart once from the newest
        // point; if that stalls too, x is as close as float can tell.
        if (!allow_restart) {
          --simplex_.count;  // drop the point whose weight was never computed
          break;
        }
        allow_restart = false;
        simplex_.y[0] = simplex_.y[simplex_.count - 1];
        simplex_.p[0] = simplex_.p[simplex_.count - 1];
        simplex_.q[0] = simplex_.q[simplex_.count - 1];
        c_points[0] = c;
        simplex_.count = 1;
        weights_[0] = 1.0f;
        v = simplex_.y[0];
        v_len_sq = v.length_sq();
        prev_len_sq = v_len_sq;
        continue;
      }
      // Compact the points of C alongside the simplex.
      int kept = 0;
      for (int i = 0; i < simplex_.count; ++i)
        if ((closest.vertex_set >> i) & 1u) c_points[kept++] = c_points[i];
      reduce(closest);
      v = closest.point;
      v_len_sq = len_sq;
      prev_len_sq = len_sq;
      if (closest.vertex_set == 0b1111u) {
        v = Vec3::zero();
        v_len_sq = 0.0f;
      }
    }
    io_lambda = lambda;
    if (out_normal.length_sq() == 0.0f) out_normal = v;
    return true;
  }

  Simplex simplex_;
  float weights_[4] = {1.0f, 0.0f, 0.0f, 0.0f};
};

}  // namespace atl
