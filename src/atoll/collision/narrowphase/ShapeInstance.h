#pragma once
// A shape as the narrow phase sees it while descending a hierarchy: world point =
// transform · (scale ⊙ local point). Decorators and compound children are folded into the
// transform and scale on the way down, so the leaf routines only ever see convex shapes,
// meshes and height fields with a rigid transform and a per-axis scale.

#include <optional>
#include <string_view>

#include "atoll/core/Result.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/Shape.h"

namespace atl {

struct ShapeInstance {
  /// The shape (not owned).
  const Shape* shape = nullptr;
  /// Per-axis scale applied in the shape's local space, before `transform`.
  Vec3 scale = Vec3::replicate(1.0f);
  /// Rigid transform (rotation + translation) from scaled local space to world space.
  Mat44 transform;
  /// SubShapeID of the shape so far (levels pushed by compounds and meshes above it).
  SubShapeIDCreator id;
};

/// The inner shape of a decorated instance: a RotatedTranslatedShape is folded into the
/// transform, a ScaledShape into the scale, an OffsetCenterOfMassShape passes through. The
/// SubShapeID is unchanged.
ShapeInstance unwrap_decorated(const ShapeInstance& decorated);

/// Child `index` of a StaticCompoundShape instance, with the child index pushed on its
/// SubShapeID. False when the instance's scale cannot be carried to the child (a non-uniform
/// scale that the child's rotation does not keep axis-aligned, or one the child refuses).
bool compound_child(const ShapeInstance& compound, uint32_t index, ShapeInstance& out_child);

/// World-space bounds of an instance.
AABox instance_bounds(const ShapeInstance& instance);

/// A world-space box in the instance's unscaled local space (the space its own queries use).
AABox world_box_to_local(const ShapeInstance& instance, const AABox& world_box);

/// Half extent (m) beyond which cut_large_box cuts a box: float support points 1e4 m from the
/// origin are resolved to about 1 mm, the scale of the contact tolerances; at 3e5 m to 3 cm,
/// more than a resting contact's depth.
inline constexpr float k_large_box_half_extent = 1.0e4f;

/// True when the instance is a BoxShape with a half extent above k_large_box_half_extent: a
/// cheap test before computing what cut_large_box needs.
bool is_large_box(const ShapeInstance& instance);

/// When `box` is a BoxShape instance larger than k_large_box_half_extent along an axis (and
/// more than twice the larger of margin and its convex radius), sets `out_shape` to the part of
/// the box within `margin` (m) of `near` (world bounds of what it may touch) — the box's own
/// faces where they are that close, cut faces farther away; each cut side at least twice the
/// larger of margin and convex radius long — and `out` to its instance, placed so that its
/// origin lies near `near`. GJK and EPA then work with coordinates near the contact. False when
/// nothing is cut.
bool cut_large_box(const ShapeInstance& box, const AABox& near, float margin,
                   std::optional<BoxShape>& out_shape, ShapeInstance& out);

/// The structural family of a sub-type (the dispatch tables are built from it).
ShapeType shape_type_of(ShapeSubType sub_type);

/// Error naming `field` when `transform` is not finite or not a rotation plus translation.
std::optional<Error> check_rigid_transform(std::string_view field, const Mat44& transform);

}  // namespace atl
