#include "atoll/constraint/PulleyConstraint.h"

#include <string>
#include <utility>

#include "atoll/constraint/ConstraintState.h"

namespace atl {

namespace {

Status check_lengths(float min_length, float max_length, std::string_view path) {
  if (!std::isfinite(min_length) || min_length < 0.0f)
    return Error(std::string(path) + ".min_length: must be finite and >= 0 (or -1), got " +
                 std::to_string(min_length));
  if (!std::isfinite(max_length) || max_length < min_length)
    return Error(std::string(path) + ".max_length: must be finite and >= min_length (" +
                 std::to_string(min_length) + "), got " + std::to_string(max_length));
  return Ok{};
}

// Length of the rope from `fixed` to `point`; its direction into `n` unless it has no length.
float rope(const Vec3& point, const Vec3& fixed, Vec3& n) {
  const Vec3 d = point - fixed;
  const float length = d.length();
  if (length > 1.0e-6f) n = d / length;
  return length;
}

}  // namespace

Result<Ref<Constraint>> PulleyConstraintSettings::create(const BodyInterface& bodies, BodyID body1,
                                                         BodyID body2) const {
  constexpr std::string_view path = "PulleyConstraintSettings";
  if (Status s = common.validate(path); !s) return s.error();
  if (common.break_angular_impulse != 0.0f)
    return Error(std::string(path) +
                 ".common.break_angular_impulse: a pulley has no angular part; must be 0, got " +
                 std::to_string(common.break_angular_impulse));
  for (auto [point, name] :
       {std::pair{body_point1, "body_point1"}, std::pair{fixed_point1, "fixed_point1"},
        std::pair{body_point2, "body_point2"}, std::pair{fixed_point2, "fixed_point2"}})
    if (Status s = check_finite(point, path, name); !s) return s.error();
  if (!std::isfinite(ratio) || ratio <= 0.0f)
    return Error(std::string(path) + ".ratio: must be finite and > 0, got " +
                 std::to_string(ratio));
  for (auto [value, name] :
       {std::pair{min_length, "min_length"}, std::pair{max_length, "max_length"}})
    if (!std::isfinite(value) || (value < 0.0f && value != -1.0f))
      return Error(std::string(path) + "." + name + ": must be finite and >= 0, or -1, got " +
                   std::to_string(value));
  Result<std::array<ConstraintBodyPose, 2>> poses =
      constraint_body_poses(bodies, body1, body2, path);
  if (!poses) return poses.error();
  const auto& p = poses.value();
  PulleyConstraintSettings s = *this;
  const bool world = space == ConstraintSpace::WorldSpace;
  const Vec3 world1 = world ? body_point1 : p[0].com_position + p[0].rotation * body_point1;
  const Vec3 world2 = world ? body_point2 : p[1].com_position + p[1].rotation * body_point2;
  Vec3 n;
  const float length = rope(world1, fixed_point1, n) + ratio * rope(world2, fixed_point2, n);
  if (s.min_length < 0.0f) s.min_length = length;
  if (s.max_length < 0.0f) s.max_length = length;
  if (Status valid = check_lengths(s.min_length, s.max_length, path); !valid) return valid.error();
  s.space = ConstraintSpace::LocalToBodyCOM;
  s.body_point1 = p[0].to_local(world1);
  s.body_point2 = p[1].to_local(world2);
  return Ref<Constraint>(new PulleyConstraint(body1, body2, s, length));
}

PulleyConstraintSettings PulleyConstraint::settings() const {
  PulleyConstraintSettings s = s_;
  s.common = common_settings();
  return s;
}

Status PulleyConstraint::set_length(float min_length, float max_length) {
  if (Status s = check_lengths(min_length, max_length, "PulleyConstraint"); !s) return s;
  s_.min_length = min_length;
  s_.max_length = max_length;
  return Ok{};
}

void PulleyConstraint::measure(const SolverBody& body1, const SolverBody& body2) {
  r1_ = body1.rotation * s_.body_point1;
  r2_ = body2.rotation * s_.body_point2;
  length_ = rope(body1.com_position + r1_, s_.fixed_point1, n1_) +
            s_.ratio * rope(body2.com_position + r2_, s_.fixed_point2, n2_);
}

bool PulleyConstraint::violation(float& c, float& min_lambda, float& max_lambda) const {
  if (s_.min_length == s_.max_length) {  // a rod: both directions
    c = length_ - s_.min_length;
    min_lambda = -k_float_max;
    max_lambda = k_float_max;
    return true;
  }
  return limit_violation(length_, s_.min_length, s_.max_length, c, min_lambda, max_lambda);
}

void PulleyConstraint::setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                                 float /*dt*/) {
  measure(body1, body2);
  float c = 0.0f;
  if (violation(c, min_lambda_, max_lambda_))
    part_.calculate_constraint_properties(body1, r1_, body2, r2_, n1_, n2_, s_.ratio);
  else
    part_.deactivate();
}

void PulleyConstraint::warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                      float ratio) {
  if (part_.is_active()) part_.warm_start(body1, body2, ratio);
}

bool PulleyConstraint::solve_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                 float /*dt*/) {
  if (!part_.is_active()) return false;
  return part_.solve_velocity_constraint(body1, body2, min_lambda_, max_lambda_);
}

bool PulleyConstraint::solve_position_constraint(SolverBody& body1, SolverBody& body2, float /*dt*/,
                                                 float baumgarte) {
  measure(body1, body2);
  float c = 0.0f, lo = 0.0f, hi = 0.0f;
  if (!violation(c, lo, hi) || c == 0.0f) return false;
  // A fresh row at the current pose; the velocity impulse of the step is kept.
  const float lambda = part_.total_lambda();
  part_.calculate_constraint_properties(body1, r1_, body2, r2_, n1_, n2_, s_.ratio);
  part_.set_total_lambda(lambda);
  return part_.solve_position_constraint(body1, body2, c, baumgarte);
}

void PulleyConstraint::visit_type_state(StateStream& s) {
  visit_setting<2>(s, {"min_length", "max_length"}, {s_.min_length, s_.max_length},
                   [this](const std::array<float, 2>& v) { return set_length(v[0], v[1]); });
  visit_finite(s, "rope1_direction", n1_);
  visit_finite(s, "rope2_direction", n2_);
  part_.visit_state(s, "rope_lambda");
}

}  // namespace atl
