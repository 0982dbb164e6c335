#pragma once
// The walk over a world's state (state/StateRecorder.h): what PhysicsSystem::save_state and
// restore_state run. One function names every part's fields in order; a writing, restoring or
// validating stream (core/StateStream.h) decides what happens to them.

#include <cstdint>

#include "atoll/body/BodyManager.h"
#include "atoll/collision/broadphase/BroadPhase.h"
#include "atoll/constraint/ConstraintManager.h"
#include "atoll/core/Result.h"
#include "atoll/softbody/SoftBodyManager.h"
#include "atoll/solver/ContactConstraintManager.h"
#include "atoll/state/StateRecorder.h"

namespace atl {

/// Chooses the bodies, contact pairs and constraints a saved state holds (default: all). A
/// filtered state restores only what it holds (the contact cache is replaced by its pairs);
/// validating compares against the whole world, so validate unfiltered states only.
class StateFilter {
 public:
  virtual ~StateFilter() = default;
  /// Whether to save this moving body (static bodies have no state).
  virtual bool save_body(const Body& body) const {
    (void)body;
    return true;
  }
  /// Whether to save the cached contacts between these two bodies.
  virtual bool save_contact(const Body& body1, const Body& body2) const {
    (void)body1;
    (void)body2;
    return true;
  }
  /// Whether to save this constraint.
  virtual bool save_constraint(const Constraint& constraint) const {
    (void)constraint;
    return true;
  }
};

/// The parts of a world the walk reads and writes.
struct WorldStateRefs {
  BodyManager& bodies;
  BroadPhase& broadphase;
  ContactConstraintManager& contacts;
  ConstraintManager& constraints;
  SoftBodyManager& soft_bodies;
  Vec3& gravity;
  uint64_t& step_count;
};

/// Saves `parts` of the world into `recorder` (replacing what it held).
void save_world_state(const WorldStateRefs& world, StateRecorder& recorder, StateParts parts,
                      const StateFilter* filter);

/// Restores the parts `recorder` holds into the world, or, when the recorder is validating,
/// compares them with the world. An error (the state is not an Atoll state, another version,
/// truncated, corrupted, made for another world; or the first difference when validating)
/// leaves the world as it was.
Status restore_world_state(const WorldStateRefs& world, const StateRecorder& recorder);

/// Restores a state that fits the world by construction — one this world saved, into the same
/// bodies and constraints (a rollback snapshot's: state/WorldSnapshot.h) — without the checks
/// and the backup of restore_world_state (asserts instead).
void restore_own_world_state(const WorldStateRefs& world, const StateRecorder& recorder);

}  // namespace atl
