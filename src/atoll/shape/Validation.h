#pragma once
// Checks for shape settings. Each returns an Error whose message names the field and the
// problem ("BoxShapeSettings.half_extent.y: must be > 0, got -1"), or nothing when the value is
// fine, so that a settings object's create() reads as a list of checks.

#include <optional>
#include <string>
#include <string_view>

#include "atoll/core/Result.h"
#include "atoll/math/Quat.h"

namespace atl {

/// Shortest text that reads back as the same float ("-1", "0.05", "nan", "inf").
std::string format_float(float value);
/// "(x, y, z)" with format_float per component.
std::string format_vec3(const Vec3& value);
/// Error "FIELD: PROBLEM".
Error field_error(std::string_view field, std::string_view problem);

/// Fails when `value` is NaN or infinite.
std::optional<Error> check_finite(std::string_view field, float value);
/// Fails when `value` is not finite or not > 0.
std::optional<Error> check_positive(std::string_view field, float value);
/// Fails when `value` is not finite or < 0.
std::optional<Error> check_non_negative(std::string_view field, float value);
/// check_finite per component, naming "FIELD.x" / ".y" / ".z".
std::optional<Error> check_finite(std::string_view field, const Vec3& value);
/// check_positive per component.
std::optional<Error> check_positive(std::string_view field, const Vec3& value);
/// Fails when a component is not finite or is 0 (scale factors).
std::optional<Error> check_non_zero(std::string_view field, const Vec3& value);
/// Fails when the quaternion is not finite or its length differs from 1 by more than 1e-4.
std::optional<Error> check_normalized(std::string_view field, const Quat& value);

}  // namespace atl
