#pragma once
// Observer of bodies waking up and falling asleep (Jolt's BodyActivationListener), with Atoll's
// delivery rule for events (DESIGN.md §7): nothing is called from inside a step or from a
// worker thread. The BodyManager buffers every change of a body's active state — caused by the
// step (a contact wakes a sleeping body, an island falls asleep) or by a BodyInterface call
// between steps (activate, add_body, set_linear_velocity, remove_body…) — and
// PhysicsSystem::update delivers the buffer after its step, on the thread that called it, in
// the order the changes happened (so the calls made before the update come first). The
// listener may change the world from these callbacks; changes it makes are delivered after
// the next update.

#include <cstdint>

#include "atoll/body/BodyID.h"

namespace atl {

/// One change of a body's active state, as buffered for the listener.
struct BodyActivationEvent {
  /// The body (it may have been destroyed since: the ID is then stale).
  BodyID body;
  /// True: it woke up (entered the active list); false: it went to sleep or left the
  /// simulation.
  bool activated = false;
};

class BodyActivationListener {
 public:
  virtual ~BodyActivationListener() = default;
  /// The body entered the active list.
  virtual void on_body_activated(BodyID /*body*/) {}
  /// The body left the active list (fell asleep, was deactivated, made static or removed).
  virtual void on_body_deactivated(BodyID /*body*/) {}
};

}  // namespace atl
