#include "atoll/state/WorldSnapshot.h"

#include <string>

namespace atl {

WorldSnapshot::WorldSnapshot() = default;
WorldSnapshot::WorldSnapshot(WorldSnapshot&&) noexcept = default;
WorldSnapshot& WorldSnapshot::operator=(WorldSnapshot&&) noexcept = default;
WorldSnapshot::~WorldSnapshot() = default;

size_t WorldSnapshot::bytes() const {
  return bodies_.bytes() + broadphase_.bytes() + soft_bodies_.bytes() +
         constraints_.size() * sizeof(Ref<Constraint>) + contacts_.bytes() + state_.data().size();
}

void WorldSnapshot::clear() { *this = WorldSnapshot(); }

void save_world_snapshot(const WorldStateRefs& world, WorldSnapshot& snapshot) {
  world.bodies.save_body_set(snapshot.bodies_);
  world.broadphase.save(snapshot.broadphase_);
  world.soft_bodies.save(snapshot.soft_bodies_);
  const std::span<const Ref<Constraint>> constraints = world.constraints.constraints();
  snapshot.constraints_.assign(constraints.begin(), constraints.end());
  world.contacts.save_cache(snapshot.contacts_);
  // The bodies' own state is in the body set, the contacts' in the copied cache; the rest of
  // what a step changes is walked.
  save_world_state(world, snapshot.state_, StateParts::global | StateParts::constraints, nullptr);
}

Status restore_world_snapshot(const WorldStateRefs& world, const WorldSnapshot& snapshot) {
  constexpr const char* call = "PhysicsSystem::restore_snapshot: snapshot: ";
  if (snapshot.empty()) return Error(std::string(call) + "is empty (nothing was saved into it)");
  if (!world.bodies.saved(snapshot.bodies_))
    return Error(std::string(call) + "was taken of another PhysicsSystem");
  for (size_t i = 0; i < snapshot.constraints_.size(); ++i) {
    const Constraint& constraint = *snapshot.constraints_[i];
    if (!world.constraints.contains(constraint) && constraint.index() != Constraint::k_not_in_world)
      return Error(std::string(call) + "constraint " + std::to_string(i) +
                   " (in the order it was saved) is now in another world: remove it there first");
  }
  // Nothing below can fail: the bodies first, then the broadphase they are in, their contacts,
  // the constraint list, and the walked state of the constraints and the world.
  world.bodies.restore_body_set(snapshot.bodies_);
  world.broadphase.restore(snapshot.broadphase_);
  world.soft_bodies.restore(snapshot.soft_bodies_);
  world.contacts.restore_cache(snapshot.contacts_);
  world.constraints.replace_all(snapshot.constraints_);
  restore_own_world_state(world, snapshot.state_);
  return Ok{};
}

}  // namespace atl
