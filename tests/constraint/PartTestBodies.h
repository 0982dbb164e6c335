#pragma once
// Solver bodies for the constraint-part tests: no world, just the numbers a part reads and
// writes, and the integration a step would do between solves.

#include "atoll/constraint/SolverBody.h"

namespace atl::test {

/// A dynamic body of `mass` (kg) with principal inertia `inertia` (kg·m², world axes).
inline SolverBody dynamic_body(float mass, const Vec3& inertia, const Vec3& position = Vec3(),
                               const Quat& rotation = Quat::identity()) {
  SolverBody b;
  b.inv_mass = Vec3::replicate(1.0f / mass);
  b.inv_inertia = Mat44::scale(inertia.reciprocal());
  b.com_position = position;
  b.rotation = rotation;
  return b;
}

/// A dynamic sphere-like body: isotropic inertia, so its world inverse inertia does not change
/// as it turns.
inline SolverBody ball(float mass, float inertia, const Vec3& position = Vec3(),
                       const Quat& rotation = Quat::identity()) {
  return dynamic_body(mass, Vec3::replicate(inertia), position, rotation);
}

/// A static body (zero inverse mass and inertia).
inline SolverBody static_body(const Vec3& position = Vec3(),
                              const Quat& rotation = Quat::identity()) {
  SolverBody b;
  b.com_position = position;
  b.rotation = rotation;
  return b;
}

/// Moves a body with its velocities for `dt` seconds (symplectic Euler, exact rotation).
inline void integrate(SolverBody& b, float dt) {
  b.apply_position_step(b.linear_velocity * dt, b.angular_velocity * dt);
}

/// Rotation angle (rad) of `q` about unit `axis` (its twist about that axis), in (−π, π].
inline float angle_about(const Quat& q, const Vec3& axis) {
  const Quat t = q.ensure_w_positive().twist(axis);
  return 2.0f * std::atan2(t.xyz().dot(axis), t.w());
}

}  // namespace atl::test
