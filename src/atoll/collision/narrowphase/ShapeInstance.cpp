#include "atoll/collision/narrowphase/ShapeInstance.h"

#include <algorithm>
#include <cmath>

#include "atoll/shape/RotatedTranslatedShape.h"
#include "atoll/shape/ScaledShape.h"
#include "atoll/shape/StaticCompoundShape.h"
#include "atoll/shape/Validation.h"

namespace atl {

namespace {

bool is_uniform(const Vec3& scale) { return scale.x() == scale.y() && scale.x() == scale.z(); }

/// diag(Rᵀ·S·R) for rotation `r`; false when Rᵀ·S·R is not diagonal, i.e. S·R ≠ R·S'.
bool rotated_scale(const Mat44& r, const Vec3& scale, Vec3& out_scale) {
  const float tolerance = 1.0e-5f * scale.abs().max_component();
  for (int i = 0; i < 3; ++i) {
    const Vec3 axis = r.column3(i);
    out_scale.set_component(i, (axis * axis).dot(scale));
    for (int j = i + 1; j < 3; ++j)
      if (std::fabs((axis * r.column3(j)).dot(scale)) > tolerance) return false;
  }
  return true;
}

}  // namespace

ShapeInstance unwrap_decorated(const ShapeInstance& decorated) {
  ShapeInstance inner = decorated;
  inner.shape = static_cast<const DecoratedShape&>(*decorated.shape).inner().get();
  switch (decorated.shape->sub_type()) {
    case ShapeSubType::RotatedTranslated: {
      // T·(S·(R·x + t)) = T·translate(S·t)·R·(S'·x) with S' = diag(Rᵀ·S·R), which the shape's
      // is_valid_scale guaranteed to be the whole of Rᵀ·S·R.
      const auto& rt = static_cast<const RotatedTranslatedShape&>(*decorated.shape);
      inner.transform = decorated.transform *
                        Mat44::rotation_translation(rt.rotation(), decorated.scale * rt.position());
      if (!is_uniform(decorated.scale)) inner.scale = rt.inner_scale(decorated.scale);
      break;
    }
    case ShapeSubType::Scaled:
      inner.scale = decorated.scale * static_cast<const ScaledShape&>(*decorated.shape).scale();
      break;
    default:
      // OffsetCenterOfMass moves only the centre of mass, not the geometry.
      break;
  }
  return inner;
}

bool compound_child(const ShapeInstance& compound, uint32_t index, ShapeInstance& out_child) {
  const auto& shape = static_cast<const StaticCompoundShape&>(*compound.shape);
  const StaticCompoundShape::Child& child = shape.child(index);
  out_child.shape = child.shape.get();
  out_child.id = compound.id.push(index, shape.sub_shape_id_bits());
  out_child.transform = compound.transform * Mat44::rotation_translation(
                                                 child.rotation, compound.scale * child.position);
  if (is_uniform(compound.scale)) {
    out_child.scale = compound.scale;
    return true;
  }
  return rotated_scale(child.transform, compound.scale, out_child.scale) &&
         child.shape->is_valid_scale(out_child.scale);
}

AABox instance_bounds(const ShapeInstance& instance) {
  if (instance.scale == Vec3::replicate(1.0f))
    return instance.shape->world_bounds(instance.transform);
  return instance.shape->local_bounds().scaled(instance.scale).transformed(instance.transform);
}

AABox world_box_to_local(const ShapeInstance& instance, const AABox& world_box) {
  return world_box.transformed(instance.transform.inversed_rotation_translation())
      .scaled(instance.scale.reciprocal());
}

bool is_large_box(const ShapeInstance& instance) {
  return instance.shape->sub_type() == ShapeSubType::Box &&
         static_cast<const BoxShape&>(*instance.shape).half_extent().max_component() >
             k_large_box_half_extent;
}

bool cut_large_box(const ShapeInstance& box, const AABox& near, float margin,
                   std::optional<BoxShape>& out_shape, ShapeInstance& out) {
  if (!is_large_box(box)) return false;
  const auto& shape = static_cast<const BoxShape&>(*box.shape);
  const Vec3 half = shape.half_extent();
  const AABox local = world_box_to_local(box, near.expanded(margin));
  // A cut side is at least this long, so that the box's convex radius always fits in it.
  const float min_length = 2.0f * std::max(margin, shape.convex_radius());
  Vec3 lo = -half, hi = half;
  bool cut = false;
  for (int axis = 0; axis < 3; ++axis) {
    if (half[axis] <= k_large_box_half_extent || half[axis] <= min_length) continue;
    const float new_lo = std::max(-half[axis], std::min(local.min[axis], half[axis] - min_length));
    const float new_hi = std::min(half[axis], std::max(local.max[axis], -half[axis] + min_length));
    if (!(new_lo < new_hi)) continue;
    lo.set_component(axis, new_lo);
    hi.set_component(axis, new_hi);
    cut = true;
  }
  if (!cut) return false;
  const Vec3 center = 0.5f * (lo + hi);
  // Far from the box's centre, hi − lo rounds (by up to an ulp of the half extent, 8 mm at
  // 100 km): keep the half extent at least the convex radius (found by the shapes fuzz target).
  const Vec3 cut_half = Vec3::max(0.5f * (hi - lo), Vec3::replicate(shape.convex_radius()));
  out_shape.emplace(cut_half, shape.convex_radius(), shape.density());
  out = box;
  out.shape = &*out_shape;
  out.transform = box.transform * Mat44::translation(center * box.scale);
  return true;
}

ShapeType shape_type_of(ShapeSubType sub_type) {
  switch (sub_type) {
    case ShapeSubType::Sphere:
    case ShapeSubType::Box:
    case ShapeSubType::Capsule:
    case ShapeSubType::Cylinder:
    case ShapeSubType::ConvexHull:
      return ShapeType::Convex;
    case ShapeSubType::TriangleMesh:
      return ShapeType::Mesh;
    case ShapeSubType::HeightField:
      return ShapeType::HeightField;
    case ShapeSubType::StaticCompound:
      return ShapeType::Compound;
    case ShapeSubType::RotatedTranslated:
    case ShapeSubType::Scaled:
    case ShapeSubType::OffsetCenterOfMass:
      return ShapeType::Decorated;
  }
  return ShapeType::Decorated;
}

std::optional<Error> check_rigid_transform(std::string_view field, const Mat44& transform) {
  if (!transform.is_finite()) return field_error(field, "must be finite");
  // The narrow phase assumes an orthonormal rotation: scale belongs in a ScaledShape.
  constexpr float k_tolerance = 1.0e-3f;
  for (int i = 0; i < 3; ++i) {
    const Vec3 a = transform.column3(i);
    if (std::fabs(a.length_sq() - 1.0f) > k_tolerance)
      return field_error(field, "must be a rotation and translation, but column " +
                                    std::to_string(i) + " has length " + format_float(a.length()) +
                                    " (use a ScaledShape for scale)");
    for (int j = i + 1; j < 3; ++j)
      if (std::fabs(a.dot(transform.column3(j))) > k_tolerance)
        return field_error(field, "must be a rotation and translation, but columns " +
                                      std::to_string(i) + " and " + std::to_string(j) +
                                      " are not orthogonal");
  }
  if (transform.determinant3x3() < 0.0f)
    return field_error(field, "must be a rotation, but it mirrors (use a ScaledShape)");
  const Vec4 last_row(transform(3, 0), transform(3, 1), transform(3, 2), transform(3, 3));
  if (!(last_row == Vec4(0, 0, 0, 1)))
    return field_error(field, "must be affine (last row 0, 0, 0, 1)");
  return std::nullopt;
}

}  // namespace atl
