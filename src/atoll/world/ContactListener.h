#pragma once
// Contact callbacks. Two channels, because Jolt's single channel is a trap (DESIGN.md §7):
//
//  1. During the step: on_contact_validate / on_contact_added / on_contact_persisted let the
//     listener reject a pair or change how a manifold is solved (ContactSettings). They run
//     inside the step — on worker threads once the step is parallel — so they must be
//     thread-safe and must not change the world: a call that would (creating, removing,
//     moving or waking a body, changing a constraint list, the settings or the state, or
//     update itself) returns an error naming the call and changes nothing
//     (BodyManager::check_not_stepping). Reading bodies is allowed.
//  2. After the step: on_contact_events receives every added / persisted / removed contact of
//     the step, buffered, in a deterministic order, on the thread that called update(). Here
//     the listener may freely change the world (create, move, remove bodies), and even call
//     update() again (the events it was handed stay those of their own step).
//
// Body order, in every callback and event: body1 is the more dynamic body (dynamic before
// kinematic before static), and of two bodies of the same motion type the one with the lower
// ID (as Jolt guarantees). Manifolds, normals, sub-shape IDs and ContactSettings::mass_scales
// follow that order: the normal points from body1 to body2, inv_mass1 scales body1.
//
// Sensors report overlap only (no speculative contacts) and, when they move, static bodies
// only if BodyCreationSettings::sensor_detects_static is set.
//
// It lives in world/ rather than collision/ because it speaks in bodies, which the collision
// area below body/ cannot know.

#include <span>

#include "atoll/body/Body.h"
#include "atoll/collision/ContactManifold.h"
#include "atoll/solver/ContactConstraintManager.h"

namespace atl {

/// What on_contact_validate decides for a body pair.
enum class ValidateResult : uint8_t {
  /// Collide the pair as usual.
  Accept,
  /// Ignore this pair for this step.
  Reject,
};

/// Kind of a buffered contact event. A contact between two sleeping bodies is neither
/// persisted nor removed while they sleep (it is kept); it persists again when they wake.
enum class ContactEventType : uint8_t { Added, Persisted, Removed };

/// One contact (a manifold between two sub-shapes of two bodies) as reported after the step.
struct ContactEvent {
  ContactEventType type = ContactEventType::Added;
  /// The more dynamic body (dynamic > kinematic > static; ties: lower ID), see above.
  BodyID body1;
  BodyID body2;
  SubShapeID sub_shape_id1;
  SubShapeID sub_shape_id2;
  /// World normal from body 1 to body 2 (zero for Removed).
  Vec3 normal;
  /// Penetration (m) when found; negative for speculative contacts (0 for Removed).
  float penetration_depth = 0.0f;
  /// First contact point on body 2 (world, m) (zero for Removed).
  Vec3 point;
  /// Collision step (0-based) within the update in which it happened.
  int collision_step = 0;
};

class ContactListener {
 public:
  virtual ~ContactListener() = default;

  /// Step-time, thread-safe: may the two bodies collide this step? Called once per pair when
  /// the narrow phase found a contact (within the speculative distance; not when the body-pair
  /// cache reuses last step's contacts), and when a LinearCast body's sweep hits the other (a
  /// rejected pair does not stop it).
  virtual ValidateResult on_contact_validate(const Body& /*body1*/, const Body& /*body2*/) {
    return ValidateResult::Accept;
  }
  /// Step-time, thread-safe: a manifold that did not exist last step; `settings` may be
  /// changed. Also called for a LinearCast body's sweep hit: making it a sensor lets the body
  /// pass.
  virtual void on_contact_added(const Body& /*body1*/, const Body& /*body2*/,
                                const ContactManifold& /*manifold*/,
                                ContactSettings& /*settings*/) {}
  /// Step-time, thread-safe: a manifold that existed last step (recomputed by the narrow
  /// phase); `settings` may be changed.
  virtual void on_contact_persisted(const Body& /*body1*/, const Body& /*body2*/,
                                    const ContactManifold& /*manifold*/,
                                    ContactSettings& /*settings*/) {}
  /// After the step, on the calling thread, in deterministic order: every event of the step.
  /// The world may be modified here.
  virtual void on_contact_events(std::span<const ContactEvent> /*events*/) {}
};

}  // namespace atl
