#pragma once
// Pulley constraint: a rope runs from a point of body 1 over a fixed world point, then over a
// second fixed world point down to a point of body 2, through a block of `ratio`: the length
// L1 + ratio·L2 (L1 from body 1's point to fixed point 1, L2 from body 2's point to fixed
// point 2) is kept within [min_length, max_length]. Like a rope it only pulls at max_length (and
// only pushes at min_length, a rod's end stop); equal limits make it a rigid rod in both
// directions. With ratio 2 body 2 moves half as far as body 1 and carries twice the tension.
// Part: IndependentAxisConstraintPart.

#include <cmath>

#include "atoll/constraint/Constraint.h"
#include "atoll/constraint/parts/IndependentAxisConstraintPart.h"

namespace atl {

struct PulleyConstraintSettings {
  /// Common fields (enabled, priority, overrides, user data, break thresholds). The pulley has
  /// no angular part: break_angular_impulse would never trigger and must be 0.
  ConstraintSettings common;
  /// Space of body_point1 and body_point2 (default world); the fixed points are always in world
  /// space.
  ConstraintSpace space = ConstraintSpace::WorldSpace;
  /// Where the rope is tied to body 1 (m).
  Vec3 body_point1;
  /// The fixed point (pulley) the rope of body 1 runs over (m, world space).
  Vec3 fixed_point1;
  /// Where the rope is tied to body 2 (m).
  Vec3 body_point2;
  /// The fixed point (pulley) the rope of body 2 runs over (m, world space).
  Vec3 fixed_point2;
  /// Weight of body 2's length in L1 + ratio·L2 (dimensionless, finite, > 0; default 1).
  float ratio = 1.0f;
  /// Shortest L1 + ratio·L2 (m, ≥ 0; default 0); −1 = the length at creation.
  float min_length = 0.0f;
  /// Longest L1 + ratio·L2 (m, ≥ min_length); −1 (default) = the length at creation.
  float max_length = -1.0f;

  /// Validates every field and the bodies and builds the constraint; the error names the field.
  Result<Ref<Constraint>> create(const BodyInterface& bodies, BodyID body1, BodyID body2) const;
  bool operator==(const PulleyConstraintSettings&) const = default;
};

class PulleyConstraint final : public Constraint {
 public:
  ConstraintSubType sub_type() const override { return ConstraintSubType::Pulley; }
  /// The settings as they are now (local space; the limits resolved, never −1).
  PulleyConstraintSettings settings() const;

  /// L1 + ratio·L2 (m) at the bodies' last solver poses (at creation before the first step).
  float current_length() const { return length_; }
  /// Changes the limits (m); error (nothing changed) unless 0 ≤ min ≤ max, finite.
  Status set_length(float min_length, float max_length);

  /// This step's impulse of the rope (N·s; negative pulls: the tension is −λ/dt on body 1 and
  /// ratio× that on body 2).
  float total_lambda() const { return part_.total_lambda(); }

  void setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                 float dt) override;
  void warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2, float ratio) override;
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2, float dt) override;
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2, float dt,
                                 float baumgarte) override;
  float linear_impulse() const override { return std::fabs(part_.total_lambda()); }
  float angular_impulse() const override { return 0.0f; }
  void reset_warm_start() override { part_.set_total_lambda(0.0f); }

 protected:
  /// Walks, in this order: min_length, max_length (m, through set_length), rope1_direction,
  /// rope2_direction (the unit directions kept while a rope has no length), rope_lambda (N·s).
  void visit_type_state(StateStream& s) override;

 private:
  friend struct PulleyConstraintSettings;
  PulleyConstraint(BodyID body1, BodyID body2, const PulleyConstraintSettings& local, float length)
      : Constraint(body1, body2, local.common), s_(local), length_(length) {}

  // Lever arms, rope directions and length_ at the bodies' poses.
  void measure(const SolverBody& body1, const SolverBody& body2);
  // The violated limit's error (m) at length_ and its impulse range; false while slack.
  bool violation(float& c, float& min_lambda, float& max_lambda) const;

  PulleyConstraintSettings s_;  // local space
  Vec3 r1_, r2_;
  // Unit directions from each fixed point to its body point; kept while a rope has no length.
  Vec3 n1_ = Vec3(0.0f, -1.0f, 0.0f);
  Vec3 n2_ = Vec3(0.0f, -1.0f, 0.0f);
  float length_ = 0.0f;
  float min_lambda_ = 0.0f, max_lambda_ = 0.0f;
  IndependentAxisConstraintPart part_;
};

}  // namespace atl
