#pragma once
// Observer of the changes to bodies that the world must mirror (in the broadphase, the contact
// cache…). The body area knows nothing of the broadphase: BodyInterface calls these hooks and
// the world implements them. Called on the caller's thread, after the change is made, and only
// for bodies that are added to the simulation (except on_removed, called right after removal).

#include "atoll/body/Body.h"

namespace atl {

class BodyListener {
 public:
  virtual ~BodyListener() = default;
  /// The body was added to the simulation.
  virtual void on_added(const Body& /*body*/) {}
  /// The body was taken out of the simulation (also when destroyed while added).
  virtual void on_removed(const Body& /*body*/) {}
  /// The user moved the body (set_position and friends); its world bounds are up to date.
  virtual void on_moved(const Body& /*body*/) {}
  /// The body's object layer changed from `old_layer`.
  virtual void on_layer_changed(const Body& /*body*/, ObjectLayer /*old_layer*/) {}
  /// The body's shape changed (bounds, mass and centre of mass are up to date).
  virtual void on_shape_changed(const Body& /*body*/) {}
  /// The body's motion type changed from `old_type`.
  virtual void on_motion_type_changed(const Body& /*body*/, MotionType /*old_type*/) {}
  /// The body left quarantine (BodyInterface::release_quarantine) and takes part again.
  virtual void on_quarantine_released(const Body& /*body*/) {}
  /// Whether a body may be on object layer `layer` (asked before one is created on it or moved
  /// to it); an error says why not, and the body is not created or changed.
  virtual Status check_object_layer(ObjectLayer /*layer*/) const { return Ok{}; }
};

}  // namespace atl
