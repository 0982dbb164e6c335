#include "atoll/shape/Validation.h"

#include <charconv>
#include <cmath>

namespace atl {

namespace {

constexpr const char* k_axis_suffix[3] = {".x", ".y", ".z"};

std::string component_field(std::string_view field, int axis) {
  std::string name(field);
  name += k_axis_suffix[axis];
  return name;
}

// "(a, b, …)", appended piece by piece: g++ 12 reports a false -Wrestrict for "(" + std::string.
std::string format_tuple(const float* values, int count) {
  std::string text = "(";
  for (int i = 0; i < count; ++i) {
    if (i > 0) text += ", ";
    text += format_float(values[i]);
  }
  text += ")";
  return text;
}

}  // namespace

std::string format_float(float value) {
  // std::to_chars is locale independent and gives the shortest round-trip form.
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

std::string format_vec3(const Vec3& value) {
  const float components[3] = {value.x(), value.y(), value.z()};
  return format_tuple(components, 3);
}

Error field_error(std::string_view field, std::string_view problem) {
  std::string message(field);
  message += ": ";
  message += problem;
  return Error(std::move(message));
}

std::optional<Error> check_finite(std::string_view field, float value) {
  if (std::isfinite(value)) return std::nullopt;
  return field_error(field, "must be finite, got " + format_float(value));
}

std::optional<Error> check_positive(std::string_view field, float value) {
  if (auto error = check_finite(field, value)) return error;
  if (value > 0.0f) return std::nullopt;
  return field_error(field, "must be > 0, got " + format_float(value));
}

std::optional<Error> check_non_negative(std::string_view field, float value) {
  if (auto error = check_finite(field, value)) return error;
  if (value >= 0.0f) return std::nullopt;
  return field_error(field, "must be >= 0, got " + format_float(value));
}

std::optional<Error> check_finite(std::string_view field, const Vec3& value) {
  // The component names are built only for a bad value: CCD checks its cast inputs every step,
  // and a warmed-up step does not allocate.
  if (value.is_finite()) return std::nullopt;
  for (int axis = 0; axis < 3; ++axis)
    if (auto error = check_finite(component_field(field, axis), value[axis])) return error;
  return std::nullopt;
}

std::optional<Error> check_positive(std::string_view field, const Vec3& value) {
  for (int axis = 0; axis < 3; ++axis)
    if (auto error = check_positive(component_field(field, axis), value[axis])) return error;
  return std::nullopt;
}

std::optional<Error> check_non_zero(std::string_view field, const Vec3& value) {
  for (int axis = 0; axis < 3; ++axis) {
    const std::string name = component_field(field, axis);
    if (auto error = check_finite(name, value[axis])) return error;
    if (value[axis] == 0.0f) return field_error(name, "must be non-zero, got 0");
  }
  return std::nullopt;
}

std::optional<Error> check_normalized(std::string_view field, const Quat& value) {
  if (!value.is_finite()) {
    const float components[4] = {value.x(), value.y(), value.z(), value.w()};
    return field_error(field, "must be finite, got " + format_tuple(components, 4));
  }
  if (value.is_normalized()) return std::nullopt;
  return field_error(
      field, "must be a unit quaternion, got length " + format_float(std::sqrt(value.length_sq())));
}

}  // namespace atl
