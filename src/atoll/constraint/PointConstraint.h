#pragma once
// Point constraint (ball joint): a point of body 1 and a point of body 2 stay together; the
// bodies turn freely. Parts: PointConstraintPart.

#include "atoll/constraint/Constraint.h"
#include "atoll/constraint/parts/PointConstraintPart.h"

namespace atl {

class PointConstraint;

struct PointConstraintSettings {
  /// Common fields (enabled, priority, overrides, user data, break thresholds).
  ConstraintSettings common;
  /// Space of point1/point2 (default world).
  ConstraintSpace space = ConstraintSpace::WorldSpace;
  /// The joint point on body 1 (m).
  Vec3 point1;
  /// The joint point on body 2 (m); in world space normally equal to point1.
  Vec3 point2;

  /// Validates every field and the bodies (see constraint_body_poses) and builds the
  /// constraint; the error names the field.
  Result<Ref<Constraint>> create(const BodyInterface& bodies, BodyID body1, BodyID body2) const;
  bool operator==(const PointConstraintSettings&) const = default;
};

class PointConstraint final : public Constraint {
 public:
  ConstraintSubType sub_type() const override { return ConstraintSubType::Point; }
  /// The settings as they are now (points in the bodies' centre-of-mass frames).
  PointConstraintSettings settings() const;
  /// This step's impulse of the point part (N·s, world vector).
  Vec3 total_lambda_position() const { return point_.total_lambda(); }

  void setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                 float dt) override;
  void warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2, float ratio) override;
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2, float dt) override;
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, float dt,
                                 float baumgarte) override;
  float linear_impulse() const override { return point_.total_lambda().length(); }
  float angular_impulse() const override { return 0.0f; }
  void reset_warm_start() override { point_.set_total_lambda(Vec3::zero()); }

 protected:
  /// Walks, in this order: point_lambda (N·s).
  void visit_type_state(StateStream& s) override;

 private:
  friend struct PointConstraintSettings;
  PointConstraint(BodyID body1, BodyID body2, const ConstraintSettings& common, const Vec3& local1,
                  const Vec3& local2)
      : Constraint(body1, body2, common), local1_(local1), local2_(local2) {}

  Vec3 local1_;  // point 1 in body 1's centre-of-mass frame (m)
  Vec3 local2_;
  PointConstraintPart point_;
};

}  // namespace atl
