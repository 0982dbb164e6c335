#include "atoll/constraint/FixedConstraint.h"

#include <cmath>

namespace atl {

Result<Ref<Constraint>> FixedConstraintSettings::create(const BodyInterface& bodies, BodyID body1,
                                                        BodyID body2) const {
  constexpr std::string_view path = "FixedConstraintSettings";
  if (Status s = common.validate(path); !s) return s.error();
  if (Status s = check_finite(point1, path, "point1"); !s) return s.error();
  if (Status s = check_finite(point2, path, "point2"); !s) return s.error();
  if (!relative_rotation.is_finite() || std::fabs(relative_rotation.length() - 1.0f) > 1.0e-3f)
    return Error(std::string(path) + ".relative_rotation: must be a finite unit quaternion");
  Result<std::array<ConstraintBodyPose, 2>> poses =
      constraint_body_poses(bodies, body1, body2, path);
  if (!poses) return poses.error();
  const auto& p = poses.value();
  if (space == ConstraintSpace::WorldSpace)
    return Ref<Constraint>(new FixedConstraint(
        body1, body2, common, p[0].to_local(point1), p[1].to_local(point2),
        RotationEulerConstraintPart::relative_rotation(p[0].rotation, p[1].rotation)));
  return Ref<Constraint>(
      new FixedConstraint(body1, body2, common, point1, point2, relative_rotation.normalized()));
}

FixedConstraintSettings FixedConstraint::settings() const {
  FixedConstraintSettings s;
  s.common = common_settings();
  s.space = ConstraintSpace::LocalToBodyCOM;
  s.point1 = local1_;
  s.point2 = local2_;
  s.relative_rotation = relative_rotation_;
  return s;
}

void FixedConstraint::setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                                float /*dt*/) {
  point_.calculate_constraint_properties(body1, body1.rotation * local1_, body2,
                                         body2.rotation * local2_);
  rotation_.calculate_constraint_properties(body1, body2);
}

void FixedConstraint::warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                     float ratio) {
  rotation_.warm_start(body1, body2, ratio);
  point_.warm_start(body1, body2, ratio);
}

bool FixedConstraint::solve_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                float /*dt*/) {
  const bool rotation = rotation_.solve_velocity_constraint(body1, body2);
  const bool point = point_.solve_velocity_constraint(body1, body2);
  return rotation || point;
}

bool FixedConstraint::solve_position_constraint(SolverBody& body1, SolverBody& body2, float /*dt*/,
                                                float baumgarte) {
  rotation_.calculate_constraint_properties(body1, body2);
  const bool rotation =
      rotation_.solve_position_constraint(body1, body2, relative_rotation_, baumgarte);
  point_.calculate_constraint_properties(body1, body1.rotation * local1_, body2,
                                         body2.rotation * local2_);
  const bool point = point_.solve_position_constraint(body1, body2, baumgarte);
  return rotation || point;
}

void FixedConstraint::visit_type_state(StateStream& s) {
  point_.visit_state(s, "point_lambda");
  rotation_.visit_state(s, "rotation_lambda");
}

}  // namespace atl
