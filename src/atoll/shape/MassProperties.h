#pragma once
// Mass and inertia tensor of a shape or body.

#include "atoll/core/Result.h"
#include "atoll/math/Mat44.h"

namespace atl {

struct MassProperties {
  /// Mass (kg).
  float mass = 0.0f;
  /// Inertia tensor (kg·m²) about the centre of mass, upper 3×3; translation part unused.
  Mat44 inertia = Mat44::zero();

  /// Scales mass and inertia so that the mass becomes `new_mass` (> 0).
  void scale_to_mass(float new_mass);
  /// Moves the reference point of the inertia by `offset` (parallel axis theorem).
  void translate(const Vec3& offset);
  /// Rotates the inertia tensor: I' = R I Rᵀ.
  void rotate(const Mat44& rotation);
  /// Scales the body's geometry per axis (mass scales with the volume |sx·sy·sz|).
  void scale(const Vec3& scale);
  /// Principal moments and the rotation whose columns are the principal axes
  /// (inertia = R · diag(moments) · Rᵀ). Returns false for a non-finite or non-symmetric tensor.
  bool decompose_principal_moments(Mat44& out_rotation, Vec3& out_moments) const;

  /// Solid box with the given full size (m) and density (kg/m³).
  static MassProperties box(const Vec3& size, float density);
};

}  // namespace atl
