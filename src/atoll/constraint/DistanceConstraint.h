#pragma once
// Distance constraint: keeps the distance between a point of body 1 and a point of body 2 in
// [min_distance, max_distance] (a rod when they are equal, a rope when min is 0), hard or soft
// by the limits spring. The bodies turn freely. Parts: AxisConstraintPart along the line
// between the points.

#include <cmath>

#include "atoll/constraint/Constraint.h"
#include "atoll/constraint/SpringSettings.h"
#include "atoll/constraint/parts/AxisConstraintPart.h"

namespace atl {

struct DistanceConstraintSettings {
  /// Common fields (enabled, priority, overrides, user data, break thresholds).
  ConstraintSettings common;
  /// Space of point1/point2 (default world).
  ConstraintSpace space = ConstraintSpace::WorldSpace;
  /// The attachment point on body 1 (m).
  Vec3 point1;
  /// The attachment point on body 2 (m).
  Vec3 point2;
  /// Shortest distance (m, ≥ 0); −1 (default) = the distance at creation.
  float min_distance = -1.0f;
  /// Longest distance (m, ≥ min); −1 (default) = the distance at creation.
  float max_distance = -1.0f;
  /// Spring of the limits; frequency 0 (default) = hard.
  SpringSettings limits_spring_settings;

  /// Validates every field and the bodies and builds the constraint; the error names the field.
  Result<Ref<Constraint>> create(const BodyInterface& bodies, BodyID body1, BodyID body2) const;
  bool operator==(const DistanceConstraintSettings&) const = default;
};

class DistanceConstraint final : public Constraint {
 public:
  ConstraintSubType sub_type() const override { return ConstraintSubType::Distance; }
  /// The settings as they are now (local space, distances resolved).
  DistanceConstraintSettings settings() const;
  /// Changes the limits (m); error (nothing changed) unless 0 ≤ min ≤ max, finite.
  Status set_distance(float min_distance, float max_distance);
  /// This step's impulse along the line (N·s, positive pushes the points apart).
  float total_lambda_position() const { return axis_.total_lambda(); }

  void setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                 float dt) override;
  void warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2, float ratio) override;
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2, float dt) override;
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, float dt,
                                 float baumgarte) override;
  float linear_impulse() const override { return std::fabs(axis_.total_lambda()); }
  float angular_impulse() const override { return 0.0f; }
  void reset_warm_start() override { axis_.set_total_lambda(0.0f); }

 protected:
  /// Walks, in this order: min_distance, max_distance (m, through set_distance), axis_direction
  /// (the unit direction kept while the points coincide), position_lambda (N·s).
  void visit_type_state(StateStream& s) override;

 private:
  friend struct DistanceConstraintSettings;
  DistanceConstraint(BodyID body1, BodyID body2, const DistanceConstraintSettings& s)
      : Constraint(body1, body2, s.common),
        local1_(s.point1),
        local2_(s.point2),
        min_distance_(s.min_distance),
        max_distance_(s.max_distance),
        spring_(s.limits_spring_settings) {}

  // Lever arms, unit axis from point 1 to point 2 and distance at the bodies' current poses.
  void measure(const SolverBody& body1, const SolverBody& body2);
  // The error of the violated limit (m) at distance_, 0 when none is; sets the impulse range.
  float violation();

  Vec3 local1_;
  Vec3 local2_;
  float min_distance_;
  float max_distance_;
  SpringSettings spring_;
  Vec3 r1_, r2_, axis_dir_ = Vec3(0.0f, 1.0f, 0.0f);
  float distance_ = 0.0f;
  float min_lambda_ = 0.0f;
  float max_lambda_ = 0.0f;
  AxisConstraintPart axis_;
};

}  // namespace atl
