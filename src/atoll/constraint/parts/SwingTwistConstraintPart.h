#pragma once
// The rotation limits of a swing-twist joint (a shoulder, a hip): the relative rotation of
// constraint frame 2 in constraint frame 1 is split into a swing, which tips the twist axis X
// away (a rotation about an axis in the YZ plane), and a twist about X (q = swing·twist). The
// twist is kept in [twist_min, twist_max]; the swing inside an elliptic cone with half-angles
// swing_y_half_angle (rotation about Y) and swing_z_half_angle (about Z). The cone is an
// ellipse in the swing quaternion's (y, z) components with semi-axes sin(half-angle / 2), so a
// cone with equal half-angles α is exactly "the twist axis within α of its rest direction".
//
// Each violated limit is one AngleConstraintPart row, solved one-sided (only pushes back). A
// row starts from a raw error C₀ and its gradient g with respect to the relative rotation (the
// rate of C₀ per unit of relative angular velocity, in world axes), taken by central
// differences of the swing-twist split, so the rows stay exact at large swings (where frame
// 2's X axis is no longer the twist's rotation axis). The split itself is singular at a swing
// of π; limits are meant to stay well below it. Raw errors:
//  - twist: C₀ = θ_twist − the violated bound (rad); λ ≥ 0 below the minimum, ≤ 0 above the
//    maximum (both ways when the bounds are equal);
//  - swing: C₀ = |d| ≥ 0, d the swing's (y, z) components minus their closest point on the
//    ellipse (dimensionless, ≈ half the excess angle); λ ≤ 0. A swing inside the cone but
//    within k_swing_window of it gets a speculative row on C₀ = f, the ellipse's value.
// The row is then normalised: its axis is the unit world vector a = g/|g| and its error
// C = C₀/|g| (rad: to first order the turn about a that brings the limit to its bound), so
// J = [0, −a, 0, a], Jv = a·(ω2 − ω1) = dC/dt and every row's λ is an angular impulse in
// N·m·s about a, whatever the row's state (violated or speculative) or type. (Scaling J and C
// together leaves the impulses a row applies within a step unchanged; the warm start, which
// carries λ to the next step's row, no longer jumps when |g| does, e.g. 13-fold between the
// violated and the speculative row of a 0.3 rad cone.)
//
// Pyramid swing (SwingType::Pyramid, set_pyramid_limits): instead of the cone, the swing's y
// and z components are each kept in their own range [sin(min/2), sin(max/2)] (a box in the
// (y, z) plane, whose corners round off as the swing grows), so the limits about Y and Z may
// be asymmetric (a six-dof joint's RotationY / RotationZ limits). Each swing axis is then a row
// of its own like the twist: C₀ = s − the violated bound (dimensionless, ≈ half the angle past
// it), normalised as above; λ ≥ 0 below the minimum, ≤ 0 above the maximum, both ways when the
// bounds are equal (the axis locked); the y row is total_lambda()[0], the z row
// total_lambda_swing_z().

#include <array>
#include <cstdint>
#include <string>

#include "atoll/constraint/SolverBody.h"
#include "atoll/constraint/parts/AngleConstraintPart.h"

namespace atl {

/// The shape of the swing limit.
enum class SwingType : uint8_t {
  /// An elliptic cone with symmetric half-angles about Y and Z (default).
  Cone = 0,
  /// Separate, possibly asymmetric, ranges about Y and Z.
  Pyramid = 1,
};

/// Name of a swing type ("cone", "pyramid").
inline const char* to_string(SwingType type) {
  return type == SwingType::Pyramid ? "pyramid" : "cone";
}

class SwingTwistConstraintPart {
 public:
  using Lambda = std::array<float, 2>;

  /// How close to the cone (in f = (y/e_y)² + (z/e_z)² − 1) a swing gets a speculative row.
  static constexpr float k_swing_window = 0.75f;
  /// A row whose raw error changes by less than this per radian of relative rotation (|g|,
  /// near the split's singularity at a swing of π) is left out: it has no usable axis.
  static constexpr float k_min_gradient = 1.0e-4f;

  /// Sets the limits (rad): twist in [twist_min, twist_max] ⊂ [−π, π] (equal bounds lock
  /// it; the full range frees it) and the swing half-angles in [0, π] (π frees that direction).
  void set_limits(float twist_min, float twist_max, float swing_y_half_angle,
                  float swing_z_half_angle);

  /// Sets pyramid limits (rad; the swing type becomes Pyramid): twist as set_limits, the swing
  /// about Y in [swing_y_min, swing_y_max] and about Z in [swing_z_min, swing_z_max], each
  /// within [−π, π] (min = max locks the axis; −π..π frees it). set_limits returns to the cone.
  void set_pyramid_limits(float twist_min, float twist_max, float swing_y_min, float swing_y_max,
                          float swing_z_min, float swing_z_max);
  /// The current swing type (Cone unless set_pyramid_limits was called last).
  SwingType swing_type() const { return swing_type_; }

  /// The closest point to (x, y) on or in the ellipse with semi-axes a (x) and b (y), ≥ 0 (0 =
  /// a segment or a point). A point inside is its own closest point.
  static std::array<float, 2> closest_point_on_ellipse(float a, float b, float x, float y);

  /// The relative rotation of frame 2 in frame 1 (w ≥ 0); frame i = body i's rotation ×
  /// `constraint_to_body_i`.
  static Quat relative_rotation(const SolverBody& body1, const SolverBody& body2,
                                const Quat& constraint_to_body1, const Quat& constraint_to_body2);

  /// True when relative rotation `q` (as from relative_rotation) is within the limits, with
  /// `tolerance` (rad) of slack (each excess measured as its row's error C, an angle to first
  /// order).
  bool is_within_limits(const Quat& q, float tolerance = 0.0f) const;

  /// Activates the rows of the limits the bodies' current rotations violate, and speculatively
  /// those they are near (the nearer twist bound; the cone when the swing is within
  /// k_swing_window of it): these let the rotation reach the limit within the step `dt` (s)
  /// and no further. Deactivates the others.
  void calculate_constraint_properties(float dt, const SolverBody& body1, const SolverBody& body2,
                                       const Quat& constraint_to_body1,
                                       const Quat& constraint_to_body2);

  /// True when a limit is violated (one of the rows is active).
  bool is_active() const {
    return swing_.is_active() || twist_.is_active() || swing_z_row_.is_active();
  }
  /// Stops every row and clears their impulses.
  void deactivate() {
    swing_.deactivate();
    twist_.deactivate();
    swing_z_row_.deactivate();
  }

  /// Applies last step's accumulated impulses × `ratio` (dt / previous dt; 0 = none).
  void warm_start(SolverBody& body1, SolverBody& body2, float ratio) {
    if (swing_.is_active()) swing_.warm_start(body1, body2, ratio);
    if (swing_z_row_.is_active()) swing_z_row_.warm_start(body1, body2, ratio);
    if (twist_.is_active()) twist_.warm_start(body1, body2, ratio);
  }

  /// One step of each active row (one-sided). Returns true when an impulse was applied.
  bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2) {
    bool applied = false;
    if (swing_.is_active())
      applied |=
          swing_.solve_velocity_constraint(body1, body2, swing_min_lambda_, swing_max_lambda_);
    if (swing_z_row_.is_active())
      applied |= swing_z_row_.solve_velocity_constraint(body1, body2, swing_z_min_lambda_,
                                                        swing_z_max_lambda_);
    if (twist_.is_active())
      applied |=
          twist_.solve_velocity_constraint(body1, body2, twist_min_lambda_, twist_max_lambda_);
    return applied;
  }

  /// Baumgarte step: recomputes the violations at the bodies' current rotations and turns the
  /// bodies back by `baumgarte` × each. Returns true when it moved the bodies.
  bool solve_position_constraint(SolverBody& body1, SolverBody& body2,
                                 const Quat& constraint_to_body1, const Quat& constraint_to_body2,
                                 float baumgarte) const;

  /// Accumulated angular impulses (N·m·s, each about its row's unit world axis): swing (the
  /// cone's row, or the pyramid's swing-about-Y row), twist.
  Lambda total_lambda() const { return {swing_.total_lambda(), twist_.total_lambda()}; }
  void set_total_lambda(const Lambda& lambda) {
    swing_.set_total_lambda(lambda[0]);
    twist_.set_total_lambda(lambda[1]);
  }
  /// Pyramid only: the accumulated angular impulse of the swing-about-Z row (N·m·s about its
  /// unit axis; 0 for the cone, whose one swing row is total_lambda()[0]).
  float total_lambda_swing_z() const { return swing_z_row_.total_lambda(); }
  void set_total_lambda_swing_z(float lambda) { swing_z_row_.set_total_lambda(lambda); }
  /// Walks the rows' accumulated impulses (core/StateStream.h), one float each, named with
  /// the prefix `name`: `name`_swing_lambda (the cone's row, or the pyramid's swing about Y),
  /// `name`_twist_lambda and `name`_swing_z_lambda (the pyramid's swing about Z; 0 for the cone).
  void visit_state(StateStream& s, const char* name) {
    const std::string prefix(name);
    swing_.visit_state(s, (prefix + "_swing_lambda").c_str());
    twist_.visit_state(s, (prefix + "_twist_lambda").c_str());
    swing_z_row_.visit_state(s, (prefix + "_swing_z_lambda").c_str());
  }

  /// The swing rows' accumulated angular impulse on body 2 as a world vector (N·m·s; body 1
  /// gets its opposite): the cone's row, or the sum of the pyramid's two rows, each λ times its
  /// unit axis as of the last calculate_constraint_properties. Zero when no swing row is active.
  Vec3 swing_impulse() const {
    return swing_axis_ * swing_.total_lambda() + swing_z_axis_ * swing_z_row_.total_lambda();
  }
  /// The twist row's accumulated angular impulse on body 2 as a world vector (N·m·s).
  Vec3 twist_impulse() const { return twist_axis_ * twist_.total_lambda(); }
  /// All limit rows' accumulated angular impulse on body 2 (N·m·s, world): swing + twist.
  Vec3 angular_impulse() const { return swing_impulse() + twist_impulse(); }

 private:
  // A limit row: unit world axis, error (rad), whether it is violated (else the row is
  // speculative, with a target velocity that lets the error reach 0 within the step) and the
  // allowed impulse range.
  struct Violation {
    Vec3 axis;
    float error = 0.0f;
    float target_velocity = 0.0f;
    float min_lambda = 0.0f;
    float max_lambda = 0.0f;
    bool violated = false;
  };
  // Normalises a row: `out`'s raw error and target velocity (set) divided by |gradient|, its
  // axis frame1·gradient/|gradient|. False (no row) when |gradient| ≤ k_min_gradient.
  static bool set_axis(const Vec3& gradient, const Quat& frame1, Violation& out);
  // The rows for relative rotation `q` (frame 1 → world rotation `frame1`); false when none is
  // needed. dt ≤ 0: violations only.
  bool swing_violation(const Quat& q, const Quat& frame1, float dt, Violation& out) const;
  bool twist_violation(const Quat& q, const Quat& frame1, float dt, Violation& out) const;
  // Pyramid: the row of swing component `component` (1 = y, 2 = z) against [lo, hi].
  bool pyramid_violation(const Quat& q, const Quat& frame1, float dt, int component, float lo,
                         float hi, Violation& out) const;
  // The swing rows' violations (cone: one, in `y`; pyramid: y and z); false where none.
  void swing_violations(const Quat& q, const Quat& frame1, float dt, Violation& y, bool& has_y,
                        Violation& z, bool& has_z) const;

  float twist_min_ = -k_pi;
  float twist_max_ = k_pi;
  float swing_y_ = k_pi;  // semi-axes of the ellipse: sin(half-angle / 2)
  float swing_z_ = k_pi;
  bool swing_free_ = true;
  bool twist_free_ = true;
  SwingType swing_type_ = SwingType::Cone;
  // Pyramid: the ranges of the swing's y and z components (sin of half the angles).
  float pyramid_y_min_ = -1.0f, pyramid_y_max_ = 1.0f;
  float pyramid_z_min_ = -1.0f, pyramid_z_max_ = 1.0f;
  bool pyramid_y_free_ = true, pyramid_z_free_ = true;
  float twist_min_lambda_ = 0.0f;
  float twist_max_lambda_ = 0.0f;
  float swing_min_lambda_ = -k_float_max;
  float swing_max_lambda_ = 0.0f;
  float swing_z_min_lambda_ = 0.0f;
  float swing_z_max_lambda_ = 0.0f;
  AngleConstraintPart swing_;  // the cone's row, or the pyramid's swing-about-Y row
  AngleConstraintPart twist_;
  AngleConstraintPart swing_z_row_;  // the pyramid's swing-about-Z row
  // The rows' unit world axes as of the last calculate_constraint_properties.
  Vec3 swing_axis_, swing_z_axis_, twist_axis_;
};

}  // namespace atl
