#include "atoll/solver/IslandSolver.h"

namespace atl {

SolverSteps island_solver_steps(const IslandBuilder& /*islands*/, uint32_t /*island*/) {
  // Neither bodies nor contacts carry step overrides: every island uses the global settings.
  return SolverSteps();
}

void build_islands(const ContactConstraintManager& contacts, const SolverBodies& solver,
                   BodyManager& body_manager, IslandBuilder& islands, std::vector<uint32_t>& body1,
                   std::vector<uint32_t>& body2) {
  islands.begin(solver.movable);
  const uint32_t n = contacts.num_constraints();
  body1.resize(n);
  body2.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    body1[i] = contacts.constraint_body1(i);
    body2[i] = contacts.constraint_body2(i);
    islands.link(body1[i], body2[i]);
  }
  islands.finish(body1, body2);
  // MotionProperties::island_index: this step's island of each moving body (kinematic: none).
  for (uint32_t s : solver.moving)
    body_manager.body_at_slot(solver.source[s])
        ->motion_properties()
        ->set_island_index(solver.movable[s] ? islands.island_of_body(s)
                                             : MotionProperties::k_no_island);
}

uint32_t solve_island_velocity(ContactConstraintManager& contacts, std::span<SolverBody> bodies,
                               std::span<const uint32_t> contact_items, const SolverSteps& steps,
                               const PhysicsSettings& settings) {
  if (contact_items.empty()) return 0;
  contacts.warm_start(bodies, contact_items);
  // A tall or lopsided stack also gets its non-penetration solved directly after every
  // contact-wise pass (ContactStackChain.cpp), so that the velocities the bodies move with
  // leave no contact of the stack tilting or sinking; the early exit follows the pass.
  const bool stack = contacts.prepare_stack(bodies, contact_items, settings);
  const int count = steps.velocity_steps(settings);
  uint32_t iterations = 0;
  for (int step = 0; step < count; ++step) {
    ++iterations;
    const bool applied = contacts.solve_velocity_constraints(bodies, contact_items, step);
    if (stack) contacts.solve_stack(bodies);
    if (!applied) break;
  }
  contacts.store_applied_impulses(contact_items);
  return iterations;
}

void solve_island_position(ContactConstraintManager& contacts, std::span<SolverBody> bodies,
                           std::span<const uint32_t> contact_items, const SolverSteps& steps,
                           const PhysicsSettings& settings) {
  if (!settings.use_position_solver_for_contacts || contact_items.empty()) return;
  const int count = steps.position_steps(settings);
  for (int step = 0; step < count; ++step)
    if (!contacts.solve_position_constraints(bodies, contact_items, settings)) break;
}

void update_sleep(BodyManager& body_manager, const IslandBuilder& islands,
                  const SolverBodies& solver, const PhysicsSettings& settings, float dt,
                  std::vector<uint32_t>& to_sleep) {
  if (!settings.allow_sleeping) return;
  const float max_movement = settings.point_velocity_sleep_threshold * settings.time_before_sleep;
  // Whole islands sleep: every body must be ready (seed 001, LAWS.md C4). Every body's test
  // advances, so a body's timer does not depend on its neighbours'.
  to_sleep.clear();
  for (uint32_t i = 0; i < islands.num_islands(); ++i) {
    bool all = true;
    for (uint32_t s : islands.island_bodies(i)) {
      Body& body = *body_manager.body_at_slot(solver.source[s]);
      all &= body.update_sleep_test(dt, max_movement, settings.time_before_sleep);
    }
    if (!all) continue;
    for (uint32_t s : islands.island_bodies(i)) to_sleep.push_back(solver.source[s]);
  }
  // Kinematic bodies are in no island: each sleeps on its own when it stops.
  for (uint32_t s = 0; s < solver.movable.size(); ++s) {
    if (solver.movable[s]) continue;
    Body& body = *body_manager.body_at_slot(solver.source[s]);
    if (body.is_kinematic() && body.is_active() &&
        body.update_sleep_test(dt, max_movement, settings.time_before_sleep))
      to_sleep.push_back(solver.source[s]);
  }
  for (uint32_t index : to_sleep) body_manager.deactivate(*body_manager.body_at_slot(index));
}

}  // namespace atl
