#include "atoll/constraint/PointConstraint.h"

namespace atl {

Result<Ref<Constraint>> PointConstraintSettings::create(const BodyInterface& bodies, BodyID body1,
                                                        BodyID body2) const {
  constexpr std::string_view path = "PointConstraintSettings";
  if (Status s = common.validate(path); !s) return s.error();
  if (Status s = check_finite(point1, path, "point1"); !s) return s.error();
  if (Status s = check_finite(point2, path, "point2"); !s) return s.error();
  Result<std::array<ConstraintBodyPose, 2>> poses =
      constraint_body_poses(bodies, body1, body2, path);
  if (!poses) return poses.error();
  const bool world = space == ConstraintSpace::WorldSpace;
  const Vec3 local1 = world ? poses.value()[0].to_local(point1) : point1;
  const Vec3 local2 = world ? poses.value()[1].to_local(point2) : point2;
  return Ref<Constraint>(new PointConstraint(body1, body2, common, local1, local2));
}

PointConstraintSettings PointConstraint::settings() const {
  PointConstraintSettings s;
  s.common = common_settings();
  s.space = ConstraintSpace::LocalToBodyCOM;
  s.point1 = local1_;
  s.point2 = local2_;
  return s;
}

void PointConstraint::setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                                float /*dt*/) {
  point_.calculate_constraint_properties(body1, body1.rotation * local1_, body2,
                                         body2.rotation * local2_);
}

void PointConstraint::warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                     float ratio) {
  point_.warm_start(body1, body2, ratio);
}

bool PointConstraint::solve_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                float /*dt*/) {
  return point_.solve_velocity_constraint(body1, body2);
}

bool PointConstraint::solve_position_constraint(SolverBody& body1, SolverBody& body2, float /*dt*/,
                                                float baumgarte) {
  // The lever arms and K at the current poses; the accumulated velocity impulse is kept.
  const Vec3 lambda = point_.total_lambda();
  point_.calculate_constraint_properties(body1, body1.rotation * local1_, body2,
                                         body2.rotation * local2_);
  point_.set_total_lambda(lambda);
  return point_.solve_position_constraint(body1, body2, baumgarte);
}

void PointConstraint::visit_type_state(StateStream& s) { point_.visit_state(s, "point_lambda"); }

}  // namespace atl
