#include "atoll/constraint/Constraint.h"

#include <cmath>

namespace atl {

namespace {

constexpr std::array<const char*, k_num_constraint_sub_types> k_sub_type_names{
    "fixed",   "point", "hinge",   "slider",          "distance", "cone",   "swing_twist",
    "six_dof", "path",  "vehicle", "rack_and_pinion", "gear",     "pulley", "user1",
    "user2",   "user3", "user4"};

std::string field_path(std::string_view path, const char* field) {
  return std::string(path) + "." + field;
}

Status check_threshold(float value, std::string_view path, const char* field) {
  if (!std::isfinite(value) || value < 0.0f)
    return Error(field_path(path, field) + ": must be finite and >= 0 (0 = unbreakable), got " +
                 std::to_string(value));
  return Ok{};
}

}  // namespace

const char* to_string(ConstraintSubType type) {
  const auto i = static_cast<size_t>(type);
  return i < k_sub_type_names.size() ? k_sub_type_names[i] : "unknown";
}

Result<ConstraintSubType> constraint_sub_type_from_name(std::string_view name) {
  for (size_t i = 0; i < k_sub_type_names.size(); ++i)
    if (name == k_sub_type_names[i]) return static_cast<ConstraintSubType>(i);
  return Error("constraint type: unknown name \"" + std::string(name) + "\"");
}

Status ConstraintSettings::validate(std::string_view path) const {
  if (Status s = check_threshold(break_impulse, path, "break_impulse"); !s) return s;
  return check_threshold(break_angular_impulse, path, "break_angular_impulse");
}

void Constraint::set_enabled(bool enabled) {
  // Re-enabled: last impulses belong to a configuration that may be long gone. Disabled: the
  // impulses stay readable (e.g. the one that broke it).
  if (enabled && !common_.enabled) reset_warm_start();
  common_.enabled = enabled;
}

Status Constraint::set_break_impulses(float linear, float angular) {
  if (Status s = check_threshold(linear, "Constraint", "break_impulse"); !s) return s;
  if (Status s = check_threshold(angular, "Constraint", "break_angular_impulse"); !s) return s;
  common_.break_impulse = linear;
  common_.break_angular_impulse = angular;
  return Ok{};
}

Result<std::array<ConstraintBodyPose, 2>> constraint_body_poses(const BodyInterface& bodies,
                                                                BodyID body1, BodyID body2,
                                                                std::string_view path) {
  if (body1 == Constraint::k_world && body2 == Constraint::k_world)
    return Error(field_path(path, "body2") + ": body1 and body2 are both the world");
  if (body1 == body2)
    return Error(field_path(path, "body2") + ": the same body as body1 (" +
                 std::to_string(body1.value()) + ")");
  std::array<ConstraintBodyPose, 2> poses{};
  const BodyID ids[2] = {body1, body2};
  const char* names[2] = {"body1", "body2"};
  for (int i = 0; i < 2; ++i) {
    if (ids[i] == Constraint::k_world) {
      poses[i] = ConstraintBodyPose{Vec3::zero(), Quat()};
      continue;
    }
    Result<const Body*> body = bodies.body(ids[i]);
    if (!body)
      return Error(field_path(path, names[i]) + ": no such body (" + body.error().what() + ")");
    poses[i] =
        ConstraintBodyPose{body.value()->center_of_mass_position(), body.value()->rotation()};
  }
  return poses;
}

Status check_finite(const Vec3& v, std::string_view path, const char* field) {
  if (!v.is_finite()) return Error(field_path(path, field) + ": must be finite");
  return Ok{};
}

Status check_direction(const Vec3& v, std::string_view path, const char* field) {
  if (!v.is_finite() || v.length_sq() < 1.0e-12f)
    return Error(field_path(path, field) + ": must be a finite direction of non-zero length");
  return Ok{};
}

}  // namespace atl
