#pragma once
// Fixed constraint: welds body 2 to body 1 — a point of each stays together and their relative
// rotation stays what it was. Parts: PointConstraintPart + RotationEulerConstraintPart.

#include "atoll/constraint/Constraint.h"
#include "atoll/constraint/parts/PointConstraintPart.h"
#include "atoll/constraint/parts/RotationEulerConstraintPart.h"

namespace atl {

struct FixedConstraintSettings {
  /// Common fields (enabled, priority, overrides, user data, break thresholds).
  ConstraintSettings common;
  /// Space of the points (default world). In world space the held relative rotation is the
  /// bodies' rotation at creation; in local space it is `relative_rotation`.
  ConstraintSpace space = ConstraintSpace::WorldSpace;
  /// The weld point on body 1 (m).
  Vec3 point1;
  /// The weld point on body 2 (m).
  Vec3 point2;
  /// Local space only: body 2's rotation relative to body 1's (q1⁻¹·q2) to hold (unit).
  Quat relative_rotation;

  /// Validates every field and the bodies and builds the constraint; the error names the field.
  Result<Ref<Constraint>> create(const BodyInterface& bodies, BodyID body1, BodyID body2) const;
  bool operator==(const FixedConstraintSettings&) const = default;
};

class FixedConstraint final : public Constraint {
 public:
  ConstraintSubType sub_type() const override { return ConstraintSubType::Fixed; }
  /// The settings as they are now (local space).
  FixedConstraintSettings settings() const;
  /// This step's impulse of the point part (N·s, world vector).
  Vec3 total_lambda_position() const { return point_.total_lambda(); }
  /// This step's angular impulse of the rotation part (N·m·s, world vector).
  Vec3 total_lambda_rotation() const { return rotation_.total_lambda(); }

  void setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                 float dt) override;
  void warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2, float ratio) override;
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2, float dt) override;
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, float dt,
                                 float baumgarte) override;
  float linear_impulse() const override { return point_.total_lambda().length(); }
  float angular_impulse() const override { return rotation_.total_lambda().length(); }
  void reset_warm_start() override {
    point_.set_total_lambda(Vec3::zero());
    rotation_.set_total_lambda(Vec3::zero());
  }

 protected:
  /// Walks, in this order: point_lambda (N·s), rotation_lambda (N·m·s).
  void visit_type_state(StateStream& s) override;

 private:
  friend struct FixedConstraintSettings;
  FixedConstraint(BodyID body1, BodyID body2, const ConstraintSettings& common, const Vec3& local1,
                  const Vec3& local2, const Quat& relative_rotation)
      : Constraint(body1, body2, common),
        local1_(local1),
        local2_(local2),
        relative_rotation_(relative_rotation) {}

  Vec3 local1_;
  Vec3 local2_;
  Quat relative_rotation_;  // q1⁻¹·q2 held
  PointConstraintPart point_;
  RotationEulerConstraintPart rotation_;
};

}  // namespace atl
