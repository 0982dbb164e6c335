#pragma once
// A compound of child shapes placed at fixed positions and rotations, with a BVH over the
// children's bounds. Its local space is the space the children are placed in (not moved to the
// centre of mass: the body applies center_of_mass()). A SubShapeID from a compound holds the
// child index first, then the child's own ID.

#include <cstdint>
#include <vector>

#include "atoll/math/Quat.h"
#include "atoll/shape/Shape.h"
#include "atoll/shape/ShapeBVH.h"

namespace atl {

class StaticCompoundShape;

/// Everything needed to build a StaticCompoundShape.
struct StaticCompoundShapeSettings {
  /// One child shape and its placement in the compound's local space.
  struct Child {
    /// The shape (not null).
    Ref<Shape> shape;
    /// Position (m) of the child's origin.
    Vec3 position = Vec3::zero();
    /// Rotation of the child (normalized).
    Quat rotation = Quat::identity();
  };

  /// The children (at least one).
  std::vector<Child> children;

  /// Validates the settings and builds the shape; the error names the offending field.
  Result<Ref<Shape>> create() const;
  /// Like create(), typed.
  Result<Ref<StaticCompoundShape>> create_compound() const;
};

class StaticCompoundShape final : public Shape {
 public:
  /// A child as stored: the shape and its transform into the compound's local space.
  struct Child {
    /// The shape.
    Ref<Shape> shape;
    /// Child local space → compound local space (rotation + translation).
    Mat44 transform;
    /// Rotation part of `transform`.
    Quat rotation;
    /// Translation part of `transform` (m).
    Vec3 position;
  };

  AABox local_bounds() const override { return bounds_; }
  /// Mass-weighted centre of the children's centres of mass (their mean when all are massless).
  Vec3 center_of_mass() const override { return center_of_mass_; }
  /// The largest child inner radius: a conservative size for CCD thresholds.
  float inner_radius() const override { return inner_radius_; }
  /// Sum of the children's mass properties about the compound's centre of mass.
  MassProperties mass_properties() const override { return mass_properties_; }
  /// Sum of the children's volumes (m³); overlaps are counted twice.
  float volume() const override { return volume_; }
  /// A scale every child can take: one that each child's rotation keeps axis-aligned (uniform,
  /// or 90° turns) and that the child accepts after child_scale().
  bool is_valid_scale(const Vec3& scale) const override;
  /// Closest hit over the children; SubShapeID = child index, then the child's ID.
  bool cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                RayCastResult& hit) const override;
  /// True when the point is inside any child.
  bool collide_point(const Vec3& point) const override;
  /// Normal of the child leaf named by `id`, in the compound's local space.
  Vec3 surface_normal(const SubShapeID& id, const Vec3& local_point) const override;
  /// Material index of the child leaf named by `id`.
  uint32_t material_index(const SubShapeID& id) const override;

  /// Number of children.
  uint32_t num_children() const { return static_cast<uint32_t>(children_.size()); }
  /// Child `index` (< num_children()).
  const Child& child(uint32_t index) const { return children_[index]; }
  /// Bits this compound pushes on a SubShapeID (enough for a child index).
  uint32_t sub_shape_id_bits() const { return id_bits_; }
  /// A scale applied to the compound as child `index` sees it in its own space: diag(Rᵀ·S·R).
  /// Meaningful when is_valid_scale(scale).
  Vec3 child_scale(uint32_t index, const Vec3& scale) const;
  /// Child index encoded in `id`; `out_remainder` receives the child's own ID.
  uint32_t child_index(const SubShapeID& id, SubShapeID& out_remainder) const;
  /// The tree over the children's bounds.
  const ShapeBVH& bvh() const { return bvh_; }

  /// Calls callback(child_shape, child_transform, child_index) for every child whose bounds
  /// (in the compound's local space) overlap `local_box`, in a deterministic order.
  template <class F>
  void collect_children(const AABox& local_box, F&& callback) const {
    bvh_.for_each_overlapping(local_box, [&](uint32_t index) {
      if (!child_bounds_[index].overlaps(local_box)) return;
      const Child& c = children_[index];
      callback(static_cast<const Shape&>(*c.shape), c.transform, index);
    });
  }

 private:
  friend struct StaticCompoundShapeSettings;

  /// Builds from validated settings; use StaticCompoundShapeSettings::create().
  explicit StaticCompoundShape(const StaticCompoundShapeSettings& settings);

  std::vector<Child> children_;
  /// Per child: its bounds in the compound's local space.
  std::vector<AABox> child_bounds_;
  ShapeBVH bvh_;
  AABox bounds_;
  MassProperties mass_properties_;
  Vec3 center_of_mass_;
  float inner_radius_ = k_float_max;  // min over the children
  float volume_ = 0.0f;
  uint32_t id_bits_ = 1;
};

}  // namespace atl
