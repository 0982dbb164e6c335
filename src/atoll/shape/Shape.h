#pragma once
// The Shape base class: what every collision shape answers. Shapes are immutable once created
// and shared between bodies through Ref<Shape>; all queries are in the shape's local space
// (not shifted to the centre of mass: the body applies center_of_mass()).

#include <cmath>
#include <cstdint>

#include "atoll/core/Ref.h"
#include "atoll/core/Result.h"
#include "atoll/geometry/AABox.h"
#include "atoll/shape/MassProperties.h"
#include "atoll/shape/SubShapeID.h"

namespace atl {

/// The family of a shape, which decides how the collision dispatch treats it.
enum class ShapeType : uint8_t { Convex, Mesh, HeightField, Compound, Decorated };

/// The concrete shape. Values are stable: they are serialized.
enum class ShapeSubType : uint8_t {
  Sphere = 0,
  Box = 1,
  Capsule = 2,
  Cylinder = 3,
  ConvexHull = 4,
  TriangleMesh = 5,
  HeightField = 6,
  StaticCompound = 7,
  RotatedTranslated = 8,
  Scaled = 9,
  OffsetCenterOfMass = 10,
};
/// Number of ShapeSubType values (size of dispatch tables).
inline constexpr int k_num_shape_sub_types = 11;
/// Lower-case name of a sub-type ("box", "sphere", …), as used in scene files.
const char* shape_sub_type_name(ShapeSubType type);

/// True when |a| and |b| agree to a relative 1e-5 (round shapes need equal scale magnitudes).
inline bool same_scale_magnitude(float a, float b) {
  const float fa = std::fabs(a), fb = std::fabs(b);
  return std::fabs(fa - fb) <= 1.0e-5f * std::fmax(fa, fb);
}

/// A ray in a shape's local space: points origin + t·direction for t ∈ [0, 1].
struct RayCast {
  Vec3 origin;
  /// Full length of the ray (not normalized).
  Vec3 direction;
};

/// Closest hit of a ray cast so far.
struct RayCastResult {
  /// Fraction along RayCast::direction of the hit; > 1 means no hit yet.
  float fraction = 1.0f + k_float_epsilon;
  /// Which leaf was hit.
  SubShapeID sub_shape_id;
};

class Shape : public RefTarget<Shape> {
 public:
  Shape(ShapeType type, ShapeSubType sub_type) : type_(type), sub_type_(sub_type) {}
  Shape(const Shape&) = delete;
  Shape& operator=(const Shape&) = delete;
  virtual ~Shape() = default;

  ShapeType type() const { return type_; }
  ShapeSubType sub_type() const { return sub_type_; }
  bool is_convex() const { return type_ == ShapeType::Convex; }

  /// Bounding box in local space (including convex radius).
  virtual AABox local_bounds() const = 0;
  /// Bounding box after `transform` (rotation + translation). Shapes with a tighter answer
  /// than the transformed local box override this.
  virtual AABox world_bounds(const Mat44& transform) const {
    return local_bounds().transformed(transform);
  }
  /// Centre of mass in local space (m).
  virtual Vec3 center_of_mass() const { return Vec3(); }
  /// Radius (m) of the largest sphere around the centre of mass that fits inside the shape;
  /// CCD thresholds scale with it.
  virtual float inner_radius() const = 0;
  /// Mass and inertia about the centre of mass, from the shape's density.
  virtual MassProperties mass_properties() const = 0;
  /// Volume (m³).
  virtual float volume() const = 0;
  /// True when the shape can be wrapped in a ScaledShape with this per-axis scale: every
  /// component finite and non-zero (the default), and shape-specific rules (a sphere needs
  /// |x| = |y| = |z|, a cylinder |x| = |z|, a rotated shape a scale its rotation keeps diagonal).
  virtual bool is_valid_scale(const Vec3& scale) const;

  /// Casts a ray in local space. When it hits closer than hit.fraction, updates `hit` (with
  /// the leaf's SubShapeID built from `creator`) and returns true. A ray starting inside a
  /// solid shape hits at fraction 0.
  virtual bool cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                        RayCastResult& hit) const = 0;
  /// True when the local point is inside the shape (meshes and height fields: never).
  virtual bool collide_point(const Vec3& point) const = 0;
  /// Outward unit normal of the leaf `id` at a local point on (or near) its surface.
  virtual Vec3 surface_normal(const SubShapeID& id, const Vec3& local_point) const = 0;
  /// Material index of a leaf (meshes store one per triangle); 0 for other shapes.
  virtual uint32_t material_index(const SubShapeID& /*id*/) const { return 0; }

  /// Free for the user (e.g. a pointer or an index into the game's own tables).
  uint64_t user_data = 0;

 private:
  ShapeType type_;
  ShapeSubType sub_type_;
};

}  // namespace atl
