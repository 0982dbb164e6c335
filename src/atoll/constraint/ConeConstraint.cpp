#include "atoll/constraint/ConeConstraint.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "atoll/constraint/ConstraintState.h"

namespace atl {

namespace {

Status check_half_cone_angle(float angle, std::string_view path) {
  if (!std::isfinite(angle) || angle < 0.0f || angle > k_pi)
    return Error(std::string(path) + ".half_cone_angle: must be in [0, pi] rad, got " +
                 std::to_string(angle));
  return Ok{};
}

}  // namespace

Result<Ref<Constraint>> ConeConstraintSettings::create(const BodyInterface& bodies, BodyID body1,
                                                       BodyID body2) const {
  constexpr std::string_view path = "ConeConstraintSettings";
  if (Status s = common.validate(path); !s) return s.error();
  if (Status s = check_finite(point1, path, "point1"); !s) return s.error();
  if (Status s = check_finite(point2, path, "point2"); !s) return s.error();
  for (auto [axis, name] :
       {std::pair{twist_axis1, "twist_axis1"}, std::pair{twist_axis2, "twist_axis2"}})
    if (Status s = check_direction(axis, path, name); !s) return s.error();
  if (Status s = check_half_cone_angle(half_cone_angle, path); !s) return s.error();
  Result<std::array<ConstraintBodyPose, 2>> poses =
      constraint_body_poses(bodies, body1, body2, path);
  if (!poses) return poses.error();
  const auto& p = poses.value();
  ConeConstraintSettings local = *this;
  local.space = ConstraintSpace::LocalToBodyCOM;
  local.twist_axis1 = twist_axis1.normalized();
  local.twist_axis2 = twist_axis2.normalized();
  if (space == ConstraintSpace::WorldSpace) {
    local.point1 = p[0].to_local(point1);
    local.point2 = p[1].to_local(point2);
    local.twist_axis1 = p[0].to_local_direction(local.twist_axis1);
    local.twist_axis2 = p[1].to_local_direction(local.twist_axis2);
  }
  return Ref<Constraint>(new ConeConstraint(body1, body2, local));
}

ConeConstraintSettings ConeConstraint::settings() const {
  ConeConstraintSettings s = s_;
  s.common = common_settings();
  return s;
}

Status ConeConstraint::set_half_cone_angle(float angle) {
  if (Status s = check_half_cone_angle(angle, "ConeConstraint"); !s) return s;
  s_.half_cone_angle = angle;
  return Ok{};
}

void ConeConstraint::reset_warm_start() {
  point_.set_total_lambda(Vec3::zero());
  cone_.set_total_lambda(0.0f);
}

void ConeConstraint::measure(const SolverBody& body1, const SolverBody& body2) {
  r1_ = body1.rotation * s_.point1;
  r2_ = body2.rotation * s_.point2;
  const Vec3 a1 = body1.rotation * s_.twist_axis1;
  const Vec3 a2 = body2.rotation * s_.twist_axis2;
  const Vec3 n = a1.cross(a2);
  const float sin_angle = n.length();
  angle_ = atl::atan2(sin_angle, a1.dot(a2));
  // Axes (anti)parallel: any axis ⟂ a1 turns a2 away from (or towards) it.
  axis_ = sin_angle > 1.0e-6f ? n / sin_angle : a1.normalized().normalized_perpendicular();
}

void ConeConstraint::setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                               float dt) {
  measure(body1, body2);
  point_.calculate_constraint_properties(body1, r1_, body2, r2_);
  const float c = angle_ - s_.half_cone_angle;
  if (s_.half_cone_angle >= k_pi) {
    cone_.deactivate();
  } else if (c >= 0.0f) {
    cone_.calculate_constraint_properties(body1, body2, axis_, 0.0f);
  } else if (angle_ + (body2.angular_velocity - body1.angular_velocity).length() * dt >=
             s_.half_cone_angle) {
    // Speculative: the angle may grow to the cone within the step and no further.
    cone_.calculate_constraint_properties(body1, body2, axis_, -c / dt);
  } else {
    cone_.deactivate();
  }
}

void ConeConstraint::warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                    float ratio) {
  if (cone_.is_active()) cone_.warm_start(body1, body2, ratio);
  point_.warm_start(body1, body2, ratio);
}

bool ConeConstraint::solve_velocity_constraint(SolverBody& body1, SolverBody& body2, float /*dt*/) {
  bool applied = false;
  if (cone_.is_active())
    applied |= cone_.solve_velocity_constraint(body1, body2, -k_float_max, 0.0f);
  applied |= point_.solve_velocity_constraint(body1, body2);
  return applied;
}

bool ConeConstraint::solve_position_constraint(SolverBody& body1, SolverBody& body2, float /*dt*/,
                                               float baumgarte) {
  bool moved = false;
  if (s_.half_cone_angle < k_pi) {
    measure(body1, body2);
    const float c = angle_ - s_.half_cone_angle;
    if (c > 0.0f) {
      // A fresh hard row at the current pose; the velocity impulse of the step is kept.
      AngleConstraintPart row;
      row.calculate_constraint_properties(body1, body2, axis_);
      moved |= row.solve_position_constraint(body1, body2, c, baumgarte);
    }
  }
  measure(body1, body2);
  point_.calculate_constraint_properties(body1, r1_, body2, r2_);
  moved |= point_.solve_position_constraint(body1, body2, baumgarte);
  return moved;
}

void ConeConstraint::visit_type_state(StateStream& s) {
  visit_setting<1>(s, {"half_cone_angle"}, {s_.half_cone_angle},
                   [this](const std::array<float, 1>& v) { return set_half_cone_angle(v[0]); });
  point_.visit_state(s, "point_lambda");
  cone_.visit_state(s, "rotation_lambda");
}

}  // namespace atl
