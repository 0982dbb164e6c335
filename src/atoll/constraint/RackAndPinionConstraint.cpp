#include "atoll/constraint/RackAndPinionConstraint.h"

#include <string>
#include <utility>

namespace atl {

Result<Ref<Constraint>> RackAndPinionConstraintSettings::create(const BodyInterface& bodies,
                                                                BodyID body1, BodyID body2) const {
  constexpr std::string_view path = "RackAndPinionConstraintSettings";
  if (Status s = common.validate(path); !s) return s.error();
  if (Status s = check_direction(hinge_axis, path, "hinge_axis"); !s) return s.error();
  if (Status s = check_direction(slider_axis, path, "slider_axis"); !s) return s.error();
  if (!std::isfinite(ratio) || ratio == 0.0f)
    return Error(std::string(path) + ".ratio: must be finite and non-zero (rad/m), got " +
                 std::to_string(ratio));
  Result<std::array<ConstraintBodyPose, 2>> poses =
      constraint_body_poses(bodies, body1, body2, path);
  if (!poses) return poses.error();
  const auto& p = poses.value();
  RackAndPinionConstraintSettings local = *this;
  local.space = ConstraintSpace::LocalToBodyCOM;
  local.hinge_axis = hinge_axis.normalized();
  local.slider_axis = slider_axis.normalized();
  if (space == ConstraintSpace::WorldSpace) {
    local.hinge_axis = p[0].to_local_direction(local.hinge_axis);
    local.slider_axis = p[1].to_local_direction(local.slider_axis);
  }
  return Ref<Constraint>(new RackAndPinionConstraint(body1, body2, local));
}

RackAndPinionConstraintSettings RackAndPinionConstraint::settings() const {
  RackAndPinionConstraintSettings s = s_;
  s.common = common_settings();
  return s;
}

Status RackAndPinionConstraint::set_constraints(const Ref<Constraint>& hinge,
                                                const Ref<Constraint>& slider) {
  if (hinge == nullptr && slider == nullptr) {
    hinge_ = HingeAngleReading();
    slider_ = SliderPositionReading();
    error_ = 0.0f;
    return Ok{};
  }
  Result<HingeAngleReading> h = HingeAngleReading::make(
      hinge, body1(), s_.hinge_axis, "RackAndPinionConstraint::set_constraints: hinge");
  if (!h) return h.error();
  Result<SliderPositionReading> sl = SliderPositionReading::make(
      slider, body2(), s_.slider_axis, "RackAndPinionConstraint::set_constraints: slider");
  if (!sl) return sl.error();
  hinge_ = std::move(h.value());
  slider_ = std::move(sl.value());
  error_ = 0.0f;
  return Ok{};
}

void RackAndPinionConstraint::calculate_properties(const SolverBody& body1,
                                                   const SolverBody& body2) {
  // The part keeps θ1 + ratio·x2 along the axis it is given: −s2 makes it θ1 − ratio·x2.
  part_.calculate_constraint_properties(body1, body1.rotation * s_.hinge_axis, body2,
                                        -(body2.rotation * s_.slider_axis), s_.ratio);
}

void RackAndPinionConstraint::reset_warm_start() {
  part_.set_total_lambda(0.0f);
  hinge_.restart();
  slider_.restart();
  error_ = 0.0f;
}

void RackAndPinionConstraint::read_joints() {
  // Both readings start at 0 at set_constraints, so their sum is the drift since then.
  error_ = hinge_.update() - s_.ratio * slider_.update();
}

bool RackAndPinionConstraint::follow_joints() {
  if (hinge_.constraint() == nullptr) return false;
  if (follow_both(hinge_, slider_)) return true;
  error_ = 0.0f;
  return false;
}

void RackAndPinionConstraint::setup_velocity_constraint(const SolverBody& body1,
                                                        const SolverBody& body2, float /*dt*/) {
  calculate_properties(body1, body2);
  // Follow the hinge every step, so no turn is missed when the position solve does not run;
  // suspended readings start again in the position solve (as GearConstraint).
  if (follow_joints() && !hinge_.suspended() && !slider_.suspended()) read_joints();
}

void RackAndPinionConstraint::warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                             float ratio) {
  part_.warm_start(body1, body2, ratio);
}

bool RackAndPinionConstraint::solve_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                        float /*dt*/) {
  return part_.solve_velocity_constraint(body1, body2);
}

bool RackAndPinionConstraint::solve_position_constraint(SolverBody& body1, SolverBody& body2,
                                                        float /*dt*/, float baumgarte) {
  if (!follow_joints()) return false;
  read_joints();
  if (error_ == 0.0f) return false;
  calculate_properties(body1, body2);
  return part_.solve_position_constraint(body1, body2, error_, baumgarte);
}

void RackAndPinionConstraint::visit_type_state(StateStream& s) {
  part_.visit_state(s, "rack_lambda");
  hinge_.visit_state(s, "hinge");
  slider_.visit_state(s, "slider");
}

}  // namespace atl
