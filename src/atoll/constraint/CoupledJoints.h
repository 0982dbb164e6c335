#pragma once
// Readings of the hinges and sliders that a Gear or RackAndPinion constraint couples (Jolt's
// SetConstraints): the velocity rows keep the ratio of the speeds, and these readings let the
// position solve take back the angle (or position) the rows let drift. A reading follows one
// body of the joint — the geared body — and gives its turn about the gear's axis (or its travel
// along the rack's axis) relative to the joint's other body, signed so that it grows as the
// geared body turns about (moves along) the gear's own axis.

#include <cmath>
#include <string_view>

#include "atoll/constraint/Constraint.h"

namespace atl {

/// True when both coupled joints' readings follow their bodies (the joints enabled and in a
/// world); else suspends both, so that they count again from what they read once both do (a
/// joint not solved keeps its last reading, and correcting towards it would hold the bodies).
template <class ReadingA, class ReadingB>
bool follow_both(ReadingA& a, ReadingB& b) {
  if (a.follows_bodies() && b.follows_bodies()) return true;
  a.suspend();
  b.suspend();
  return false;
}

/// The turn (rad) of one body of a HingeConstraint about a given axis of that body, unwrapped
/// across ±π: HingeConstraint::current_angle() is in (−π, π], this one keeps counting turns, so
/// a gear of a non-integer ratio is corrected towards the right angle after any number of turns.
class HingeAngleReading {
 public:
  /// A reading of `hinge` (a HingeConstraint) for its body `body` about `local_axis` (unit, in
  /// `body`'s centre-of-mass frame). Errors name `path`: not a hinge, `body` not one of its two
  /// bodies (or the world), the hinge axis not parallel to `local_axis`.
  static Result<HingeAngleReading> make(const Ref<Constraint>& hinge, BodyID body,
                                        const Vec3& local_axis, std::string_view path);
  HingeAngleReading() = default;

  /// Follows the hinge's current angle (the change since the last call, taken in (−π, π], is
  /// added) and returns the unwrapped turn (rad), 0 at make().
  float update();
  /// The unwrapped turn (rad) at the last update().
  float angle() const { return angle_; }
  /// Starts counting again from the hinge's current angle (turn 0).
  void restart();
  /// Stops counting while the hinge is not solved (follows_bodies()): the next update() starts
  /// again at turn 0 from the angle it reads then (a saved state keeps this as a last angle
  /// that is not finite).
  void suspend();
  /// True after suspend() until an update() that read a finite angle.
  bool suspended() const { return !std::isfinite(last_); }
  /// True when the hinge is enabled and in a world, so its angle follows its bodies: a hinge
  /// disabled (or broken) or removed keeps the angle of its last solve.
  bool follows_bodies() const;
  /// Walks what the reading carries from step to step (core/StateStream.h): the hinge's angle
  /// at the last update as `name`_last_angle (rad) and the unwrapped turn as `name`_turn (rad).
  /// The hinge itself and the sign are the coupling set_constraints made, not state.
  void visit_state(StateStream& s, const char* name);
  /// The hinge.
  const Ref<Constraint>& constraint() const { return joint_; }

 private:
  Ref<Constraint> joint_;
  float sign_ = 1.0f;  // +1: the geared body turns about the gear axis as the hinge angle grows
  float last_ = 0.0f;  // the hinge's angle at the last update (rad)
  float angle_ = 0.0f;
};

/// The travel (m) of one body of a SliderConstraint along a given axis of that body.
class SliderPositionReading {
 public:
  /// A reading of `slider` (a SliderConstraint) for its body `body` along `local_axis` (unit,
  /// in `body`'s centre-of-mass frame). Errors name `path`: not a slider, `body` not one of its
  /// two bodies (or the world), the slider axis not parallel to `local_axis`.
  static Result<SliderPositionReading> make(const Ref<Constraint>& slider, BodyID body,
                                            const Vec3& local_axis, std::string_view path);
  SliderPositionReading() = default;

  /// The travel (m) from the slider's current position, 0 at make().
  float update();
  /// The travel (m) at the last update().
  float position() const { return position_; }
  /// Starts counting again from the slider's current position (travel 0).
  void restart();
  /// As HingeAngleReading::suspend (a saved state keeps it as a start that is not finite).
  void suspend();
  /// True after suspend() until an update() that read a finite position.
  bool suspended() const { return !std::isfinite(start_); }
  /// As HingeAngleReading::follows_bodies.
  bool follows_bodies() const;
  /// Walks what the reading carries from step to step (core/StateStream.h): the slider's
  /// position it counts from as `name`_start (m) and the travel as `name`_travel (m).
  void visit_state(StateStream& s, const char* name);
  /// The slider.
  const Ref<Constraint>& constraint() const { return joint_; }

 private:
  Ref<Constraint> joint_;
  float sign_ = 1.0f;
  float start_ = 0.0f;  // the slider's position at make() (m)
  float position_ = 0.0f;
};

}  // namespace atl
