#pragma once
// Cone constraint: a point of each body stays together and the twist axis of body 2 stays
// within half_cone_angle of the twist axis of body 1 (a ball joint whose swing is limited to a
// circular cone; the twist about the axis is free). Parts: PointConstraintPart (the point) +
// AngleConstraintPart (the cone, one-sided).
//
// The cone row: θ = the angle between the world twist axes a1 and a2 (rad, in [0, π]), axis
// n = a1 × a2 / |a1 × a2| (so θ̇ = n·(ω2 − ω1)), C = θ − half_cone_angle ≤ 0 wanted, λ ≤ 0.
// It is active when the cone is violated (target rate 0, the position solve takes the excess
// back) and, speculatively, when the relative rotation could reach the cone within the step
// (θ + |ω2 − ω1|·dt ≥ half_cone_angle; target rate (half_cone_angle − θ)/dt, so a fast swing
// stops at the cone instead of passing it by up to ω·dt).

#include <cmath>

#include "atoll/constraint/Constraint.h"
#include "atoll/constraint/parts/AngleConstraintPart.h"
#include "atoll/constraint/parts/PointConstraintPart.h"

namespace atl {

struct ConeConstraintSettings {
  /// Common fields (enabled, priority, overrides, user data, break thresholds).
  ConstraintSettings common;
  /// Space of the points and axes (default world).
  ConstraintSpace space = ConstraintSpace::WorldSpace;
  /// The joint point on body 1 (m).
  Vec3 point1;
  /// The joint point on body 2 (m).
  Vec3 point2;
  /// The cone's axis on body 1 (non-zero; normalized). Default +x.
  Vec3 twist_axis1 = Vec3(1.0f, 0.0f, 0.0f);
  /// The axis on body 2 that stays inside the cone (non-zero; normalized). Default +x.
  Vec3 twist_axis2 = Vec3(1.0f, 0.0f, 0.0f);
  /// Largest angle (rad, in [0, π]) between the two twist axes; default 0 (axes aligned);
  /// π = no limit.
  float half_cone_angle = 0.0f;

  /// Validates every field and the bodies and builds the constraint; the error names the field.
  Result<Ref<Constraint>> create(const BodyInterface& bodies, BodyID body1, BodyID body2) const;
  bool operator==(const ConeConstraintSettings&) const = default;
};

class ConeConstraint final : public Constraint {
 public:
  ConstraintSubType sub_type() const override { return ConstraintSubType::Cone; }
  /// The settings as they are now (local space).
  ConeConstraintSettings settings() const;

  /// Angle (rad, in [0, π]) between the world twist axes at the bodies' last solver poses (0
  /// before the first step it was solved in).
  float current_angle() const { return angle_; }
  /// Changes the half cone angle; error (nothing changed) unless in [0, π].
  Status set_half_cone_angle(float angle);

  /// This step's impulse of the point part (N·s, world vector).
  Vec3 total_lambda_position() const { return point_.total_lambda(); }
  /// This step's angular impulse of the cone row (N·m·s, ≤ 0).
  float total_lambda_rotation() const { return cone_.total_lambda(); }

  void setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                 float dt) override;
  void warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2, float ratio) override;
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2, float dt) override;
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, float dt,
                                 float baumgarte) override;
  float linear_impulse() const override { return point_.total_lambda().length(); }
  float angular_impulse() const override { return std::fabs(cone_.total_lambda()); }
  void reset_warm_start() override;

 protected:
  /// Walks, in this order: half_cone_angle (rad, through set_half_cone_angle), point_lambda
  /// (N·s), rotation_lambda (N·m·s).
  void visit_type_state(StateStream& s) override;

 private:
  friend struct ConeConstraintSettings;
  ConeConstraint(BodyID body1, BodyID body2, const ConeConstraintSettings& local)
      : Constraint(body1, body2, local.common), s_(local) {}

  // Lever arms, the angle between the twist axes and the cone row's axis at the bodies' poses.
  void measure(const SolverBody& body1, const SolverBody& body2);

  ConeConstraintSettings s_;  // local space
  Vec3 r1_, r2_, axis_;
  float angle_ = 0.0f;
  PointConstraintPart point_;
  AngleConstraintPart cone_;
};

}  // namespace atl
