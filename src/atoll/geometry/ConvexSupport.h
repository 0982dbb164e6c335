#pragma once
// Support objects for GJK and EPA. A support object is any type with
// `Vec3 get_support(const Vec3& direction) const` returning a point of the convex set that is
// farthest along `direction` (any point of the set when `direction` is zero). GJK and EPA are
// templates over such types, so shapes plug in their own support functions without a virtual
// call per query. The wrappers hold references: the wrapped objects must outlive them.

#include <concepts>
#include <cstddef>
#include <span>

#include "atoll/geometry/AABox.h"
#include "atoll/math/Mat44.h"

namespace atl {

/// A type usable by GJK / EPA: `get_support(direction)` gives the farthest point along it.
template <class T>
concept SupportObject = requires(const T& object, const Vec3& direction) {
  { object.get_support(direction) } -> std::convertible_to<Vec3>;
};

/// A single point.
struct PointConvex {
  /// The point (m).
  Vec3 point;
  /// The point, whatever the direction.
  Vec3 get_support(const Vec3& /*direction*/) const { return point; }
};

/// A solid sphere.
struct SphereConvex {
  /// Centre (m).
  Vec3 center;
  /// Radius (m).
  float radius = 0.0f;
  /// Centre + radius·direction/|direction|; the centre for a zero direction.
  Vec3 get_support(const Vec3& direction) const {
    return center + direction.normalized_or(Vec3::zero()) * radius;
  }
};

/// A solid axis-aligned box.
struct AABoxConvex {
  /// The box (m).
  AABox box;
  /// The corner farthest along the direction (max side on zero components).
  Vec3 get_support(const Vec3& direction) const {
    return Vec3(direction.x() < 0.0f ? box.min.x() : box.max.x(),
                direction.y() < 0.0f ? box.min.y() : box.max.y(),
                direction.z() < 0.0f ? box.min.z() : box.max.z());
  }
};

/// A triangle (flat, so its support is one of the three vertices).
struct TriangleConvex {
  /// The vertices (m).
  Vec3 v0, v1, v2;
  /// The first vertex of greatest projection (deterministic on ties).
  Vec3 get_support(const Vec3& direction) const {
    const float d0 = v0.dot(direction), d1 = v1.dot(direction), d2 = v2.dot(direction);
    if (d0 >= d1 && d0 >= d2) return v0;
    return d1 >= d2 ? v1 : v2;
  }
};

/// The convex hull of a set of points (a polygon, a segment, a point cloud).
struct PolygonConvex {
  /// The points (m); must not be empty.
  std::span<const Vec3> points;
  /// The first point of greatest projection (deterministic on ties).
  Vec3 get_support(const Vec3& direction) const {
    ATOLL_ASSERT(!points.empty(), "PolygonConvex needs at least one point");
    size_t best = 0;
    float best_dot = points[0].dot(direction);
    for (size_t i = 1; i < points.size(); ++i) {
      const float d = points[i].dot(direction);
      if (d > best_dot) {
        best_dot = d;
        best = i;
      }
    }
    return points[best];
  }
};

/// A support object mapped by an affine transform (rotation, translation, and also scale or
/// shear: the direction is mapped by the transposed linear part, which is exact for any).
template <SupportObject A>
class TransformedConvex {
 public:
  /// `transform` maps `object`'s space into the space of the queries.
  TransformedConvex(const Mat44& transform, const A& object)
      : transform_(transform), object_(object) {}
  /// Binding a temporary would dangle.
  TransformedConvex(const Mat44& transform, A&& object) = delete;
  /// transform · support of the object along transposed(linear part) · direction.
  Vec3 get_support(const Vec3& direction) const {
    return transform_ * object_.get_support(transform_.multiply3x3_transposed(direction));
  }

 private:
  Mat44 transform_;
  const A& object_;
};

/// A support object grown by `radius` in every direction (a Minkowski sum with a sphere).
template <SupportObject A>
class AddConvexRadius {
 public:
  /// `radius` ≥ 0 (m).
  AddConvexRadius(const A& object, float radius) : object_(object), radius_(radius) {}
  /// Binding a temporary would dangle.
  AddConvexRadius(A&& object, float radius) = delete;
  /// No growth for a zero direction.
  Vec3 get_support(const Vec3& direction) const {
    return object_.get_support(direction) + direction.normalized_or(Vec3::zero()) * radius_;
  }

 private:
  const A& object_;
  float radius_;
};

/// The Minkowski difference A - B = { a - b }.
template <SupportObject A, SupportObject B>
class MinkowskiDifference {
 public:
  /// Both objects must outlive the difference.
  MinkowskiDifference(const A& a, const B& b) : a_(a), b_(b) {}
  /// Binding temporaries would dangle.
  MinkowskiDifference(A&& a, B&& b) = delete;
  /// Support of A along the direction minus support of B against it.
  Vec3 get_support(const Vec3& direction) const {
    return a_.get_support(direction) - b_.get_support(-direction);
  }

 private:
  const A& a_;
  const B& b_;
};

}  // namespace atl
