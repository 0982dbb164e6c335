// The direct solve of a stack (issue 7 item 16; tests/laws/StackingStressLawsTest.cpp).
//
// Gauss-Seidel passes a contact's load to the next contact one body per iteration and shares a
// push between two bodies by their masses, so a tall stack needs on the order of (height)²
// iterations to carry its weight to the floor, and a heavy box on a light one needs on the
// order of the mass ratio: at 10 iterations per step a 50-box tower keeps sinking into the
// slop until it sways over, and 1000 kg on 1 kg drives the light box 0.3 m into the floor.
//
// A stack whose contacts are faces is a chain: each moving body touches the contact below and
// the one above. The face blocks' non-penetration (push and two tilts per contact) then couple
// only through the body two neighbouring contacts share, so J M⁻¹ Jᵀ over the whole stack is
// block tridiagonal with 3×3 blocks, factorised once per step and solved in linear time per
// iteration. The solution is accepted only when every contact point still pushes (then it is
// the exact solution of the stack's complementarity problem for the current friction);
// otherwise the iteration proceeds contact by contact as before.

#include <algorithm>
#include <array>
#include <cmath>

#include "atoll/solver/ContactConstraintManager.h"

namespace atl {

namespace {

using Mat3d = double[3][3];

bool invert(const Mat3d m, Mat3d out) {
  const double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                     m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                     m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  if (!(std::fabs(det) > 1.0e-12 * std::fabs(m[0][0] * m[1][1] * m[2][2])) || !std::isfinite(det))
    return false;
  const double inv = 1.0 / det;
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) {
      const int r0 = (l + 1) % 3, r1 = (l + 2) % 3, c0 = (k + 1) % 3, c1 = (k + 2) % 3;
      out[k][l] = (m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]) * inv;
    }
  return true;
}

void multiply(const Mat3d a, const Mat3d b, Mat3d out) {
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l)
      out[k][l] = a[k][0] * b[0][l] + a[k][1] * b[1][l] + a[k][2] * b[2][l];
}

void multiply(const Mat3d a, const double v[3], double out[3]) {
  for (int k = 0; k < 3; ++k) out[k] = a[k][0] * v[0] + a[k][1] * v[1] + a[k][2] * v[2];
}

// Largest inverse mass of the body along any axis (its mass where it is lightest).
float inverse_mass(const SolverBody& body) {
  return std::max(body.inv_mass.x(), std::max(body.inv_mass.y(), body.inv_mass.z()));
}

}  // namespace

bool ContactConstraintManager::prepare_stack(std::span<const SolverBody> bodies,
                                             std::span<const uint32_t> constraints,
                                             const PhysicsSettings& settings) {
  stack_.clear();
  if (settings.stack_solve_min_bodies <= 0 && !(settings.stack_solve_min_mass_ratio > 0.0f))
    return false;
  if (constraints.size() < 2) return false;

  // Every contact a face block with unscaled masses (the couplings assume one M⁻¹ per body).
  const InverseMassScales unscaled;
  std::vector<std::pair<uint32_t, uint32_t>>& touches = stack_scratch_;
  touches.clear();
  float largest_ratio = 0.0f;
  for (uint32_t index : constraints) {
    const Constraint& c = constraints_[index];
    if (!c.face.is_active() || c.mass_scales.inv_mass1 != unscaled.inv_mass1 ||
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
    const Constraint& c = constraints_[index];
    if (neighbour(index, c.body1) < 0 || neighbour(index, c.body2) < 0) {
      start = index;
      break;
    }
  }
  if (start < 0) return false;  // a loop
  int64_t previous = -1;
  int64_t current = start;
  while (current >= 0) {
    const Constraint& c = constraints_[static_cast<uint32_t>(current)];
    const int64_t via1 = neighbour(static_cast<uint32_t>(current), c.body1);
    const int64_t via2 = neighbour(static_cast<uint32_t>(current), c.body2);
    // Two manifolds between the same bodies would make both neighbours the same contact.
    if (via1 >= 0 && via1 == via2) return false;
    const int64_t next = via1 != previous ? via1 : via2;
    StackLink& link = stack_.emplace_back();
    link.constraint = static_cast<uint32_t>(current);
    link.next_via_body2 = next >= 0 && next == via2;
    if (stack_.size() > constraints.size()) return false;
    previous = current;
    current = next;
    if (current == start) return false;
  }
  if (stack_.size() != constraints.size()) {
    stack_.clear();
    return false;
  }

  // Block Thomas factorisation: D_0 = A_0, D_k = A_k − C(k,k−1) D(k−1)⁻¹ C(k−1,k).
  for (size_t k = 0; k < stack_.size(); ++k) {
    StackLink& link = stack_[k];
    const Constraint& c = constraints_[link.constraint];
    Mat3d d;
    c.face.effective_mass(d);
    if (k > 0) {
      const StackLink& below = stack_[k - 1];
      const Constraint& b = constraints_[below.constraint];
      // This contact reaches the shared body through whichever of its bodies the one before
      // does.
      const uint32_t shared = below.next_via_body2 ? b.body2 : b.body1;
      Mat3d c_down;  // C(k, k−1)
      c.face.coupling(c.body2 == shared, b.face, below.next_via_body2, c_down);
      multiply(c_down, below.inv_d, link.down);
      Mat3d correction;
      multiply(link.down, below.up, correction);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) d[i][j] -= correction[i][j];
    }
    if (!invert(d, link.inv_d)) {
      stack_.clear();
      return false;
    }
    if (k + 1 < stack_.size()) {
      const Constraint& n = constraints_[stack_[k + 1].constraint];
      const uint32_t shared = link.next_via_body2 ? c.body2 : c.body1;
      c.face.coupling(link.next_via_body2, n.face, n.body2 == shared, link.up);
    }
  }
  return true;
}

bool ContactConstraintManager::solve_stack(std::span<SolverBody> bodies) {
  const size_t n = stack_.size();
  if (n == 0) return false;
  // Forward: y_k = e_k − C(k,k−1) D(k−1)⁻¹ y(k−1), with e the velocity errors of the blocks.
  std::vector<std::array<double, 3>>& y = stack_solution_;
  y.resize(n);
  for (size_t k = 0; k < n; ++k) {
    const Constraint& c = constraints_[stack_[k].constraint];
    float error[3];
    c.face.velocity_error(bodies[c.body1], bodies[c.body2], error);
    for (int i = 0; i < 3; ++i) y[k][i] = static_cast<double>(error[i]);
    if (k > 0) {
      double carried[3];
      multiply(stack_[k].down, y[k - 1].data(), carried);
      for (int i = 0; i < 3; ++i) y[k][i] -= carried[i];
    }
  }
  // Backward: x_k = D_k⁻¹ (y_k − C(k,k+1) x(k+1)); x is the generalised impulse of each block.
  std::vector<std::array<double, 3>>& x = y;
  for (size_t k = n; k-- > 0;) {
    double rhs[3] = {y[k][0], y[k][1], y[k][2]};
    if (k + 1 < n) {
      double carried[3];
      multiply(stack_[k].up, x[k + 1].data(), carried);
      for (int i = 0; i < 3; ++i) rhs[i] -= carried[i];
    }
    multiply(stack_[k].inv_d, rhs, x[k].data());
  }

  // Accept only a solution that pushes at every point of every contact.
  std::vector<std::array<float, 2 * FaceContactPart::k_max_points>>& lambdas = stack_lambdas_;
  lambdas.resize(n);
  for (size_t k = 0; k < n; ++k) {
    const Constraint& c = constraints_[stack_[k].constraint];
    const float impulse[3] = {static_cast<float>(x[k][0]), static_cast<float>(x[k][1]),
                              static_cast<float>(x[k][2])};
    if (!is_finite(impulse[0]) || !is_finite(impulse[1]) || !is_finite(impulse[2])) return false;
    float* old_lambdas = lambdas[k].data();
    for (uint32_t i = 0; i < c.num_points; ++i) old_lambdas[i] = c.points[i].normal.total_lambda();
    if (!c.face.push_only_lambdas(impulse, old_lambdas,
                                  old_lambdas + FaceContactPart::k_max_points))
      return false;
  }
  bool applied = false;
  for (size_t k = 0; k < n; ++k) {
    Constraint& c = constraints_[stack_[k].constraint];
    float* old_lambdas = lambdas[k].data();
    applied |= c.face.apply_lambdas(bodies[c.body1], bodies[c.body2], old_lambdas,
                                    old_lambdas + FaceContactPart::k_max_points) ==
               FaceContactPart::Outcome::Applied;
    for (uint32_t i = 0; i < c.num_points; ++i) c.points[i].normal.set_total_lambda(old_lambdas[i]);
  }
  return applied;
}

}  // namespace atl
