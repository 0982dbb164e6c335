#pragma once
// Degrees of freedom a dynamic body may move in, as bit flags. Axes are world axes: a locked
// translation axis keeps zero velocity along it, a locked rotation axis gets zero inverse
// inertia (rows and columns of the world-space inverse inertia are masked).

#include <cstdint>

namespace atl {

/// Bit flags of the world axes a body may translate along or rotate about.
enum class AllowedDOFs : uint8_t {
  /// Nothing may move (only valid for static and kinematic bodies).
  None = 0,
  TranslationX = 1 << 0,
  TranslationY = 1 << 1,
  TranslationZ = 1 << 2,
  RotationX = 1 << 3,
  RotationY = 1 << 4,
  RotationZ = 1 << 5,
  /// Translation along all axes.
  AllTranslation = TranslationX | TranslationY | TranslationZ,
  /// Rotation about all axes.
  AllRotation = RotationX | RotationY | RotationZ,
  /// Full 3D motion (default).
  All = AllTranslation | AllRotation,
  /// Motion in the XY plane: translation along X and Y, rotation about Z.
  Plane2D = TranslationX | TranslationY | RotationZ,
};

constexpr AllowedDOFs operator|(AllowedDOFs a, AllowedDOFs b) {
  return AllowedDOFs(uint8_t(a) | uint8_t(b));
}
constexpr AllowedDOFs operator&(AllowedDOFs a, AllowedDOFs b) {
  return AllowedDOFs(uint8_t(a) & uint8_t(b));
}
/// Complement within All (never sets bits outside the six flags).
constexpr AllowedDOFs operator~(AllowedDOFs a) {
  return AllowedDOFs(~uint8_t(a) & uint8_t(AllowedDOFs::All));
}
/// True when every flag of `flags` is set in `dofs`.
constexpr bool has_dofs(AllowedDOFs dofs, AllowedDOFs flags) { return (dofs & flags) == flags; }
/// True when `dofs` holds only the six defined flags.
constexpr bool is_valid_dofs(AllowedDOFs dofs) {
  return (uint8_t(dofs) & ~uint8_t(AllowedDOFs::All)) == 0;
}

}  // namespace atl
