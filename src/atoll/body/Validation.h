#pragma once
// Checks of body input at the API edge (DESIGN.md §7), in the style of shape/Validation.h
// (whose format_float, field_error and check_* this builds on): each returns an Error
// "FIELD: PROBLEM" or nothing.

#include <optional>
#include <string>
#include <string_view>

#include "atoll/body/BodyID.h"
#include "atoll/shape/Shape.h"
#include "atoll/shape/Validation.h"

namespace atl {

/// Squared-length tolerance within which a body rotation counts as normalized.
inline constexpr float k_rotation_normalized_tolerance = 1.0e-3f;

/// Largest |coordinate| (m) of a body position, a move target and a new body's bounds: beyond
/// it float spacing exceeds 1 m and the broadphase bounds can overflow.
inline constexpr float k_max_position = 1.0e7f;
/// Smallest mass (kg) of a dynamic body (its inverse mass must stay finite and usable).
inline constexpr float k_min_mass = 1.0e-9f;

/// "(x, y, z, w)" with format_float components.
std::string format_quat(const Quat& value);
/// "{index 3, sequence 1}".
std::string format_body_id(BodyID id);

/// Fails when the rotation is not finite or its squared length differs from 1 by more than
/// k_rotation_normalized_tolerance.
std::optional<Error> check_rotation(std::string_view field, const Quat& value);
/// Fails when a component is not finite or its magnitude exceeds `limit` (`unit` names it).
std::optional<Error> check_bounded(std::string_view field, const Vec3& value, float limit,
                                   std::string_view unit);
/// Fails (at `field`) when a body of `shape` placed by `transform` would leave the world: its
/// centre of mass beyond ±k_max_position of the shape's origin (the body derives its position
/// from it, and 3e38 m overflowed that to NaN), or its bounds not finite or beyond
/// ±k_max_position of the origin. Body creation and set_shape share it.
std::optional<Error> check_shape_placement(std::string_view field, const Shape& shape,
                                           const Mat44& transform);
/// Where a triangle mesh or height field sits in `shape`: "" for the shape itself, else the
/// path through compounds and decorators ("children[1]", "inner.children[0].inner"); nothing
/// when it holds none.
std::optional<std::string> triangle_leaf_path(const Shape& shape);
/// Why `shape` cannot be a dynamic body's shape (no volume, so no mass to scale; a triangle
/// mesh or height field inside a compound, whose triangles would pass through static meshes and
/// height fields; a mass below k_min_mass; or a moment of inertia whose inverse overflows
/// float), or nothing.
std::optional<std::string> dynamic_shape_problem(const Shape& shape,
                                                 std::optional<float> override_mass);
/// Fails when `value` is not in [0, 1] (NaN included).
std::optional<Error> check_unit_interval(std::string_view field, float value);

}  // namespace atl
