// Which islands are stacks, and their direct solve (issue 7 item 16;
// tests/laws/StackingStressLawsTest.cpp; the linear algebra is constraint/parts/FaceStackPart).
//
// A stack is an island whose contacts are all face blocks (FaceContactPart) and form one
// chain: each moving body touches at most two contacts, and no loop. It is solved directly when
// it has at least `stack_solve_min_bodies` moving bodies or two stacked bodies whose masses
// differ by at least `stack_solve_min_mass_ratio` — where Gauss-Seidel at a few iterations
// cannot carry the weight to the floor. The solution is accepted only when every contact point
// still pushes (then it is the exact solution of the stack's complementarity problem for the
// current friction); otherwise the iteration proceeds contact by contact as before.

#include <algorithm>
#include <array>
#include <cmath>

#include "atoll/solver/ContactConstraintManager.h"

namespace atl {

namespace {

// Largest inverse mass of the body along any axis (its mass where it is lightest).
float inverse_mass(const SolverBody& body) {
  return std::max(body.inv_mass.x(), std::max(body.inv_mass.y(), body.inv_mass.z()));
}

}  // namespace

bool ContactConstraintManager::prepare_stack(std::span<const SolverBody> bodies,
                                             std::span<const uint32_t> constraints,
                                             const PhysicsSettings& settings,
                                             StackSolve& stack) const {
  return find_stack(bodies, constraints, settings, stack, true);
}

bool ContactConstraintManager::may_be_stack(std::span<const SolverBody> bodies,
                                            std::span<const uint32_t> constraints,
                                            const PhysicsSettings& settings,
                                            StackSolve& stack) const {
  return find_stack(bodies, constraints, settings, stack, false);
}

bool ContactConstraintManager::find_stack(std::span<const SolverBody> bodies,
                                          std::span<const uint32_t> constraints,
                                          const PhysicsSettings& settings, StackSolve& stack,
                                          bool check_faces) const {
  // The contacts' bodies and mass scales come from the headers, which hold them before setup
  // too; the face blocks exist only after it.
  stack.chain.clear();
  if (settings.stack_solve_min_bodies <= 0 && !(settings.stack_solve_min_mass_ratio > 0.0f))
    return false;
  if (constraints.size() < 2) return false;

  // Every contact a face block with unscaled masses (the couplings assume one M⁻¹ per body).
  const InverseMassScales unscaled;
  std::vector<std::pair<uint32_t, uint32_t>>& touches = stack.touches;
  touches.clear();
  float largest_ratio = 0.0f;
  for (uint32_t index : constraints) {
    const ContactHeader& c = added_[index];
    if ((check_faces && !row(index).face.is_active()) ||
        c.mass_scales.inv_mass1 != unscaled.inv_mass1 ||
        c.mass_scales.inv_mass2 != unscaled.inv_mass2 ||
        c.mass_scales.inv_inertia1 != unscaled.inv_inertia1 ||
        c.mass_scales.inv_inertia2 != unscaled.inv_inertia2)
      return false;
    const bool moves1 = !bodies[c.body1].is_immovable();
    const bool moves2 = !bodies[c.body2].is_immovable();
    if (moves1) touches.emplace_back(c.body1, index);
    if (moves2) touches.emplace_back(c.body2, index);
    if (moves1 && moves2) {
      const float m1 = inverse_mass(bodies[c.body1]);
      const float m2 = inverse_mass(bodies[c.body2]);
      if (m1 > 0.0f && m2 > 0.0f)
        largest_ratio = std::max(largest_ratio, std::max(m1 / m2, m2 / m1));
    }
  }
  // Sorted by body, each moving body's contacts are adjacent: at most two each.
  std::sort(touches.begin(), touches.end());
  uint32_t moving = 0;
  for (size_t i = 0; i < touches.size(); ++i) {
    if (i == 0 || touches[i].first != touches[i - 1].first) ++moving;
    if (i >= 2 && touches[i].first == touches[i - 2].first) return false;
  }
  const bool tall = settings.stack_solve_min_bodies > 0 &&
                    moving >= static_cast<uint32_t>(settings.stack_solve_min_bodies);
  const bool lopsided = settings.stack_solve_min_mass_ratio > 0.0f &&
                        largest_ratio >= settings.stack_solve_min_mass_ratio;
  if (!tall && !lopsided) return false;

  // The neighbour of a contact through one of its bodies, if that body has another contact.
  auto neighbour = [&](uint32_t index, uint32_t body) -> int64_t {
    auto it = std::lower_bound(touches.begin(), touches.end(), std::pair(body, 0u));
    for (; it != touches.end() && it->first == body; ++it)
      if (it->second != index) return it->second;
    return -1;
  };
  // Start at an end of the chain: a contact with a neighbour on at most one side.
  int64_t start = -1;
  for (uint32_t index : constraints) {
    const ContactHeader& c = added_[index];
    if (neighbour(index, c.body1) < 0 || neighbour(index, c.body2) < 0) {
      start = index;
      break;
    }
  }
  if (start < 0) return false;  // a loop
  // Walk the chain from that end; each contact reaches the next through one of its bodies.
  std::vector<uint8_t>& next_via_body2 = stack.next_via_body2;
  next_via_body2.clear();
  int64_t previous = -1;
  int64_t current = start;
  while (current >= 0 && stack.chain.size() <= constraints.size()) {
    const ContactHeader& c = added_[static_cast<uint32_t>(current)];
    const int64_t via1 = neighbour(static_cast<uint32_t>(current), c.body1);
    const int64_t via2 = neighbour(static_cast<uint32_t>(current), c.body2);
    // Two manifolds between the same bodies would make both neighbours the same contact.
    if (via1 >= 0 && via1 == via2) break;
    const int64_t next = via1 != previous ? via1 : via2;
    stack.chain.push_back(static_cast<uint32_t>(current));
    next_via_body2.push_back(next >= 0 && next == via2 ? 1 : 0);
    previous = current;
    current = next;
  }
  if (current >= 0 || stack.chain.size() != constraints.size()) {
    stack.chain.clear();
    return false;
  }
  if (!check_faces) return true;

  stack.part.clear();
  for (size_t k = 0; k < stack.chain.size(); ++k) {
    const Constraint& c = row(stack.chain[k]);
    bool previous_via_body2 = false;
    if (k > 0) {
      const Constraint& below = row(stack.chain[k - 1]);
      previous_via_body2 = c.body2 == (next_via_body2[k - 1] != 0 ? below.body2 : below.body1);
    }
    if (!stack.part.push_back(c.face, previous_via_body2, next_via_body2[k] != 0)) {
      stack.chain.clear();
      return false;
    }
  }
  return true;
}

bool ContactConstraintManager::solve_stack(std::span<SolverBody> bodies, StackSolve& stack) {
  const size_t n = stack.chain.size();
  if (n == 0) return false;
  stack.errors.resize(n);
  stack.impulses.resize(n);
  for (size_t k = 0; k < n; ++k) {
    const Constraint& c = row(stack.chain[k]);
    c.face.velocity_error(bodies[c.body1], bodies[c.body2], stack.errors[k].data());
  }
  stack.part.solve(stack.errors, stack.impulses);

  // Accept only a solution that pushes at every point of every contact. (A body whose state is
  // non-finite gives non-finite impulses: nothing is applied, the world quarantines it.)
  std::vector<std::array<float, 2 * FaceContactPart::k_max_points>>& lambdas = stack.lambdas;
  lambdas.resize(n);
  for (size_t k = 0; k < n; ++k) {
    const Constraint& c = row(stack.chain[k]);
    const std::array<float, 3>& impulse = stack.impulses[k];
    if (!is_finite(impulse[0]) || !is_finite(impulse[1]) || !is_finite(impulse[2])) return false;
    float* old_lambdas = lambdas[k].data();
    for (uint32_t i = 0; i < c.num_points; ++i) old_lambdas[i] = c.normal_rows[i].total_lambda();
    if (!c.face.push_only_lambdas(impulse.data(), old_lambdas,
                                  old_lambdas + FaceContactPart::k_max_points))
      return false;
  }
  bool applied = false;
  SolverBody copy1, copy2;
  for (size_t k = 0; k < n; ++k) {
    Constraint& c = row(stack.chain[k]);
    float* old_lambdas = lambdas[k].data();
    applied |= c.face.apply_lambdas(writable_entry(bodies, c.body1, copy1),
                                    writable_entry(bodies, c.body2, copy2), old_lambdas,
                                    old_lambdas + FaceContactPart::k_max_points) ==
               FaceContactPart::Outcome::Applied;
    for (uint32_t i = 0; i < c.num_points; ++i) c.normal_rows[i].set_total_lambda(old_lambdas[i]);
  }
  return applied;
}

}  // namespace atl
