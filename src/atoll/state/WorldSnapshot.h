#pragma once
// Rollback snapshots (DESIGN.md §7): the whole world, not only what a step changes. A saved
// state (StateRecorder) restores poses, velocities, contacts and impulses into a world that has
// the same bodies; a snapshot also holds the body set itself, so that restoring it undoes
// bodies and constraints created, destroyed, added or removed since — same IDs, same ID
// allocator, same broadphase — and the next update gives the bits the world would have given
// when the snapshot was taken. What a networked game's rollback, a replay scrubber or a
// learning environment's reset needs.
//
// What it holds:
// - every body slot as it was (shape by reference, material, mass, pose, motion, flags, user
//   data), the slots' sequence numbers and free list, the active list in its order;
// - the broadphase trees as they were (queries visit bodies in the same order);
// - every soft body's vertices, constraints' settings by reference, and ties to bodies;
// - the constraints in the world, by reference, with the state a saved state holds of them
//   (impulses, enabled, motor states and targets); settings a user changes on a constraint
//   object itself (priority, step overrides, user data, motor force limits) are not rolled back;
// - the contact cache with its impulses, copied as it is;
// - the global state (gravity, step count, previous time steps), as a StateRecorder holds it.
// Not held: the world's settings, listeners and job system; the caller's own objects.
//
// In memory only (it holds references to shapes and constraints, so it keeps them alive): for a
// file or the network, use PhysicsSystem::save_state. Saving into a used snapshot reuses its
// buffers, so a ring of snapshots stops allocating once warm.

#include <cstddef>
#include <vector>

#include "atoll/body/BodyManager.h"
#include "atoll/collision/broadphase/BroadPhase.h"
#include "atoll/constraint/Constraint.h"
#include "atoll/core/Result.h"
#include "atoll/solver/ContactConstraintManager.h"
#include "atoll/state/StateRecorder.h"
#include "atoll/state/WorldState.h"

namespace atl {

class WorldSnapshot {
 public:
  WorldSnapshot();
  WorldSnapshot(WorldSnapshot&&) noexcept;
  WorldSnapshot& operator=(WorldSnapshot&&) noexcept;
  ~WorldSnapshot();

  /// True until something is saved into it.
  bool empty() const { return bodies_.empty(); }
  /// Bytes it holds (the used part of its buffers), for budgeting a ring of snapshots.
  size_t bytes() const;
  /// Lets go of the world: empty again, shapes and constraints released.
  void clear();

 private:
  friend void save_world_snapshot(const WorldStateRefs& world, WorldSnapshot& snapshot);
  friend Status restore_world_snapshot(const WorldStateRefs& world, const WorldSnapshot& snapshot);

  BodySetSnapshot bodies_;
  BroadPhase::Snapshot broadphase_;
  SoftBodyManager::Snapshot soft_bodies_;
  std::vector<Ref<Constraint>> constraints_;
  ContactConstraintManager::CacheSnapshot contacts_;
  // Global state and the constraints' state, walked as a saved state walks them.
  StateRecorder state_;
};

/// Takes a snapshot of the world into `snapshot`, replacing what it held.
void save_world_snapshot(const WorldStateRefs& world, WorldSnapshot& snapshot);

/// Makes the world exactly the one `snapshot` was taken of. Error, world unchanged: the
/// snapshot is empty, was taken of another world, or holds a constraint that is now in another
/// world.
Status restore_world_snapshot(const WorldStateRefs& world, const WorldSnapshot& snapshot);

}  // namespace atl
