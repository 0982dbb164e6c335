#pragma once
// The solver's view of a body: the few numbers an impulse touches, gathered into a contiguous
// array at the start of the solve and written back at the end (DESIGN.md §6). Immovable bodies
// (static, kinematic, sleeping) have zero inverse mass, so constraints never branch on the
// motion type; kinematic bodies keep their velocity. An immovable entry is shared by every
// island that touches the body and is read-only during the solve: solvers write to it only
// through writable_entry(), which hands out a copy, so islands solved in parallel never write
// the same entry.

#include <cstdint>
#include <limits>
#include <span>

#include "atoll/math/Mat44.h"

namespace atl {

struct SolverBody {
  // The velocity solve touches the first 112 bytes only (velocities, inverse mass, inverse
  // inertia); the pose, which setup and the position solve read, comes last.

  /// Linear velocity of the centre of mass (m/s).
  Vec3 linear_velocity;
  /// Angular velocity (rad/s).
  Vec3 angular_velocity;
  /// Inverse mass (1/kg) per world axis: 0 on locked translation axes, all 0 when not dynamic.
  Vec3 inv_mass;
  /// World-space inverse inertia (upper 3×3), with locked rotation axes removed.
  Mat44 inv_inertia = Mat44::zero();
  /// Centre of mass in world space (m); moved by the position solver.
  Vec3 com_position;
  /// Orientation; rotated by the position solver.
  Quat rotation;

  /// True when impulses cannot move the body (static or kinematic).
  bool is_immovable() const { return inv_mass.is_near_zero(0.0f) && inv_inertia == Mat44::zero(); }

  /// Velocity change for an impulse along `axis` at lever arm `r_cross_axis_inv_inertia`.
  void apply_linear(const Vec3& impulse) { linear_velocity += inv_mass * impulse; }
  void apply_angular(const Vec3& delta_angular_velocity) {
    angular_velocity += delta_angular_velocity;
  }
  /// Moves the body by a position-level impulse (used by the position solver): Δx = M⁻¹·P,
  /// Δθ = I⁻¹·(r × P), applied as an exact rotation.
  void apply_position_step(const Vec3& delta_position, const Vec3& delta_rotation) {
    com_position += delta_position;
    const float angle = delta_rotation.length();
    // A turn whose length overflows float (an infinite angular velocity, or a finite one of
    // ~1e19 rad per step under a huge max_angular_velocity) has no axis: the rotation becomes
    // NaN and the step's non-finite check quarantines the body (Quat::rotation asserted).
    if (angle > k_float_max)
      rotation = Quat(Vec4::replicate(std::numeric_limits<float>::quiet_NaN()));
    else if (angle > 1.0e-12f)
      rotation = (Quat::rotation(delta_rotation / angle, angle) * rotation).normalized();
  }
};
// Five 16-byte vectors and a 4×4 matrix: two and a quarter cache lines. Growing it slows every
// solver loop; think twice.
static_assert(sizeof(SolverBody) == 144, "SolverBody is the solver's hot data: keep it compact");

/// The entry a solver may write for `bodies[index]`: the entry itself when impulses move the
/// body, otherwise `copy`, filled with it (an immovable entry is read-only: see above; the
/// impulses on it would not move it anyway).
inline SolverBody& writable_entry(std::span<SolverBody> bodies, uint32_t index, SolverBody& copy) {
  SolverBody& body = bodies[index];
  if (!body.is_immovable()) return body;
  copy = body;
  return copy;
}

}  // namespace atl
