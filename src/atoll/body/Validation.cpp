#include "atoll/body/Validation.h"

namespace atl {

std::string format_quat(const Quat& value) {
  // Appended piece by piece: g++ 12 reports a false -Wrestrict for "(" + std::string.
  std::string text = "(";
  text += format_float(value.x());
  text += ", ";
  text += format_float(value.y());
  text += ", ";
  text += format_float(value.z());
  text += ", ";
  text += format_float(value.w());
  text += ")";
  return text;
}

std::string format_body_id(BodyID id) {
  std::string text = "{index ";
  text += std::to_string(id.index());
  text += ", sequence ";
  text += std::to_string(id.sequence());
  text += "}";
  return text;
}

std::optional<Error> check_rotation(std::string_view field, const Quat& value) {
  if (!value.is_finite()) return field_error(field, "must be finite, got " + format_quat(value));
  if (value.is_normalized(k_rotation_normalized_tolerance)) return std::nullopt;
  return field_error(field, "must be a unit quaternion, got " + format_quat(value) + " of length " +
                                format_float(value.length()));
}

std::optional<Error> check_unit_interval(std::string_view field, float value) {
  if (value >= 0.0f && value <= 1.0f) return std::nullopt;
  return field_error(field, "must be in [0, 1], got " + format_float(value));
}

}  // namespace atl
