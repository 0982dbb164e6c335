#include "atoll/constraint/Constraint.h"

#include <cmath>
#include <string>

#include "atoll/constraint/ConstraintState.h"

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

Status check_steps(uint32_t steps, std::string_view path, const char* field) {
  if (steps > k_max_solver_steps)
    return Error(field_path(path, field) + ": must be <= " + std::to_string(k_max_solver_steps) +
                 " (0 = the global setting), got " + std::to_string(steps));
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
  if (Status s = check_threshold(break_angular_impulse, path, "break_angular_impulse"); !s)
    return s;
  if (Status s = check_steps(velocity_steps_override, path, "velocity_steps_override"); !s)
    return s;
  return check_steps(position_steps_override, path, "position_steps_override");
}

void Constraint::set_enabled(bool enabled) {
  // Re-enabled: last impulses belong to a configuration that may be long gone. Disabled: the
  // impulses stay readable (e.g. the one that broke it).
  if (enabled && !common_.enabled) reset_warm_start();
  common_.enabled = enabled;
}

Status Constraint::set_velocity_steps_override(uint32_t steps) {
  if (Status s = check_steps(steps, "Constraint::set_velocity_steps_override", "steps"); !s)
    return s;
  common_.velocity_steps_override = steps;
  return Ok{};
}

Status Constraint::set_position_steps_override(uint32_t steps) {
  if (Status s = check_steps(steps, "Constraint::set_position_steps_override", "steps"); !s)
    return s;
  common_.position_steps_override = steps;
  return Ok{};
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

// The helpers of ConstraintState.h (here rather than in a file of their own: a translation unit
// of their own cost 4.6 s of compile time, nearly all of it the math headers this one parses
// anyway).

void visit_motor_states(StateStream& s, const char* name, MotorState* states, uint32_t count) {
  constexpr uint32_t k_max_state = static_cast<uint32_t>(MotorState::PositionAndVelocity);
  constexpr uint32_t k_max_count = 8;
  uint32_t values[k_max_count];
  if (count > k_max_count) {
    s.fail(std::string(name) + ": " + std::to_string(count) + " motor states, at most " +
           std::to_string(k_max_count));
    return;
  }
  for (uint32_t i = 0; i < count; ++i) values[i] = static_cast<uint32_t>(states[i]);
  s.u32s(name, values, count);
  if (!s.restoring() || !s.ok()) return;
  for (uint32_t i = 0; i < count; ++i)
    if (values[i] > k_max_state) {
      const std::string field =
          count == 1 ? name : std::string(name) + "[" + std::to_string(i) + "]";
      s.fail(field + ": saved " + std::to_string(values[i]) + ", not a motor state (0 … " +
             std::to_string(k_max_state) + ")");
      return;
    }
  for (uint32_t i = 0; i < count; ++i) states[i] = static_cast<MotorState>(values[i]);
}

void visit_rotation(StateStream& s, const char* name, Quat& value) {
  Quat q = value;
  visit_state(s, name, q);
  if (!s.restoring() || !s.ok()) return;
  if (!q.is_finite() || std::fabs(q.length() - 1.0f) > 1.0e-3f) {
    s.fail(std::string(name) + ": saved a quaternion that is not a finite unit quaternion");
    return;
  }
  value = q;
}

}  // namespace atl
