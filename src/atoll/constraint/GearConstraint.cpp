#include "atoll/constraint/GearConstraint.h"

#include <cmath>
#include <string>
#include <utility>

namespace atl {

namespace {

Status check_ratio(float ratio, std::string_view path) {
  if (!std::isfinite(ratio) || ratio == 0.0f)
    return Error(std::string(path) + ".ratio: must be finite and non-zero, got " +
                 std::to_string(ratio));
  return Ok{};
}

}  // namespace

Result<Ref<Constraint>> GearConstraintSettings::create(const BodyInterface& bodies, BodyID body1,
                                                       BodyID body2) const {
  constexpr std::string_view path = "GearConstraintSettings";
  if (Status s = common.validate(path); !s) return s.error();
  if (common.break_impulse != 0.0f)
    return Error(std::string(path) +
                 ".common.break_impulse: a gear has no linear part; must be 0, got " +
                 std::to_string(common.break_impulse));
  for (auto [axis, name] :
       {std::pair{hinge_axis1, "hinge_axis1"}, std::pair{hinge_axis2, "hinge_axis2"}})
    if (Status s = check_direction(axis, path, name); !s) return s.error();
  if (Status s = check_ratio(ratio, path); !s) return s.error();
  Result<std::array<ConstraintBodyPose, 2>> poses =
      constraint_body_poses(bodies, body1, body2, path);
  if (!poses) return poses.error();
  const auto& p = poses.value();
  GearConstraintSettings local = *this;
  local.space = ConstraintSpace::LocalToBodyCOM;
  local.hinge_axis1 = hinge_axis1.normalized();
  local.hinge_axis2 = hinge_axis2.normalized();
  if (space == ConstraintSpace::WorldSpace) {
    local.hinge_axis1 = p[0].to_local_direction(local.hinge_axis1);
    local.hinge_axis2 = p[1].to_local_direction(local.hinge_axis2);
  }
  return Ref<Constraint>(new GearConstraint(body1, body2, local));
}

GearConstraintSettings GearConstraint::settings() const {
  GearConstraintSettings s = s_;
  s.common = common_settings();
  return s;
}

Status GearConstraint::set_constraints(const Ref<Constraint>& hinge1,
                                       const Ref<Constraint>& hinge2) {
  if (hinge1 == nullptr && hinge2 == nullptr) {
    hinge1_ = HingeAngleReading();
    hinge2_ = HingeAngleReading();
    angle_error_ = 0.0f;
    return Ok{};
  }
  Result<HingeAngleReading> r1 = HingeAngleReading::make(hinge1, body1(), s_.hinge_axis1,
                                                         "GearConstraint::set_constraints: hinge1");
  if (!r1) return r1.error();
  Result<HingeAngleReading> r2 = HingeAngleReading::make(hinge2, body2(), s_.hinge_axis2,
                                                         "GearConstraint::set_constraints: hinge2");
  if (!r2) return r2.error();
  hinge1_ = std::move(r1.value());
  hinge2_ = std::move(r2.value());
  angle_error_ = 0.0f;
  return Ok{};
}

void GearConstraint::calculate_properties(const SolverBody& body1, const SolverBody& body2) {
  gear_.calculate_constraint_properties(body1, body1.rotation * s_.hinge_axis1, body2,
                                        body2.rotation * s_.hinge_axis2, s_.ratio);
}

void GearConstraint::reset_warm_start() {
  gear_.set_total_lambda(0.0f);
  hinge1_.restart();
  hinge2_.restart();
  angle_error_ = 0.0f;
}

void GearConstraint::read_hinges() {
  // Both readings start at 0 at set_constraints, so their sum is the drift since then.
  angle_error_ = hinge1_.update() + s_.ratio * hinge2_.update();
}

bool GearConstraint::follow_hinges() {
  if (hinge1_.constraint() == nullptr) return false;
  if (follow_both(hinge1_, hinge2_)) return true;
  angle_error_ = 0.0f;
  return false;
}

void GearConstraint::setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                               float /*dt*/) {
  calculate_properties(body1, body2);
  // Follow the hinges every step, so no turn is missed when the position solve does not run.
  // Suspended readings start again in the position solve, when every hinge has been set up
  // (an angle read here may be the one a hinge kept while it was not solved).
  if (follow_hinges() && !hinge1_.suspended() && !hinge2_.suspended()) read_hinges();
}

void GearConstraint::warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                    float ratio) {
  gear_.warm_start(body1, body2, ratio);
}

bool GearConstraint::solve_velocity_constraint(SolverBody& body1, SolverBody& body2, float /*dt*/) {
  return gear_.solve_velocity_constraint(body1, body2);
}

bool GearConstraint::solve_position_constraint(SolverBody& body1, SolverBody& body2, float /*dt*/,
                                               float baumgarte) {
  if (!follow_hinges()) return false;
  read_hinges();
  if (angle_error_ == 0.0f) return false;
  calculate_properties(body1, body2);
  return gear_.solve_position_constraint(body1, body2, angle_error_, baumgarte);
}

void GearConstraint::visit_type_state(StateStream& s) {
  gear_.visit_state(s, "gear_lambda");
  hinge1_.visit_state(s, "hinge1");
  hinge2_.visit_state(s, "hinge2");
}

}  // namespace atl
