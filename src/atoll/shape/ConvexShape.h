#pragma once
// Convex shapes: everything GJK/EPA need. A convex shape is described as an inner core
// (its support function without convex radius) grown by a convex radius: GJK runs on the
// core, which is cheaper and more robust, and the radius is added back to the result.

#include <cstddef>
#include <new>

#include "atoll/core/StaticArray.h"
#include "atoll/shape/Shape.h"

namespace atl {

/// Which support function to hand out.
enum class SupportMode {
  /// The inner core; convex_radius() says how much to grow it.
  ExcludeConvexRadius,
  /// The full shape; convex_radius() is 0.
  IncludeConvexRadius,
};

/// A support function object: the point of the shape farthest along a direction.
class ConvexSupport {
 public:
  virtual ~ConvexSupport() = default;
  /// Farthest point along `direction` (need not be normalized; may be zero).
  virtual Vec3 get_support(const Vec3& direction) const = 0;
  /// Radius to add around get_support's shape to get the real shape (m).
  virtual float convex_radius() const = 0;
};

/// Inline storage for the ConvexSupport object a shape hands out (no heap in the hot loop).
struct alignas(16) SupportBuffer {
  /// Bytes available. Support objects hold a few parameters, or point into their shape's own
  /// arrays (a hull's vertices) instead of copying them, so a small buffer fits all of them
  /// and the narrow phase can keep several on the stack cheaply.
  static constexpr size_t k_size = 128;
  /// Constructs a T in the buffer. Its destructor never runs: support objects own nothing.
  template <class T, class... Args>
  const T* emplace(Args&&... args) {
    static_assert(sizeof(T) <= k_size && alignof(T) <= 16);
    return new (data) T(std::forward<Args>(args)...);
  }
  /// Raw storage.
  std::byte data[k_size];
};

/// Up to 32 vertices of the face of a shape that best supports a direction, in world space.
using SupportingFace = StaticArray<Vec3, 32>;

class ConvexShape : public Shape {
 public:
  /// Density used for mass properties (kg/m³); default that of water.
  static constexpr float k_default_density = 1000.0f;
  /// Convex radius (m) that shapes with rounded cores (box, cylinder, hull) use by default.
  static constexpr float k_default_convex_radius = 0.05f;
  /// Convex radius under a per-axis scale: scaled by the smallest |component|, so that the
  /// rounded core stays inside the scaled shape.
  static float scaled_convex_radius(float radius, const Vec3& scale) {
    return radius * scale.abs().min_component();
  }

  ConvexShape(ShapeSubType sub_type, float density = k_default_density)
      : Shape(ShapeType::Convex, sub_type), density_(density) {}

  /// The shape's support function in local space, scaled per axis by `scale` (shapes that
  /// only allow uniform scale assert it). The returned object lives in `buffer`.
  virtual const ConvexSupport* support_function(SupportMode mode, SupportBuffer& buffer,
                                                const Vec3& scale) const = 0;
  /// The face of the (scaled) shape whose outward normal is most aligned with `direction`
  /// (local space), transformed by `transform`, including the convex radius. Vertices are in
  /// counter-clockwise order seen from outside. Curved shapes return an edge or a point.
  virtual void supporting_face(const Vec3& direction, const Vec3& scale, const Mat44& transform,
                               SupportingFace& out_face) const = 0;

  /// Density (kg/m³) used by mass_properties().
  float density() const { return density_; }

 private:
  float density_;
};

}  // namespace atl
