#pragma once
// The part of a body that only moving (kinematic and dynamic) bodies have: velocities, mass,
// damping, limits, accumulated forces and sleep bookkeeping. Static bodies carry none, which
// keeps large static worlds small. All vectors are in world space unless stated otherwise;
// velocities are those of the centre of mass. The BodyManager fills the settings from
// BodyCreationSettings, whose initializers are the one source of the defaults; the in-class
// values here are neutral (no damping, no limits).

#include <cstdint>

#include "atoll/body/AllowedDOFs.h"
#include "atoll/body/MotionQuality.h"
#include "atoll/math/Float3.h"
#include "atoll/math/Mat44.h"
#include "atoll/shape/MassProperties.h"

namespace atl {

class MotionProperties {
 public:
  /// index_in_active_bodies() of a body that is not active.
  static constexpr uint32_t k_inactive_index = 0xffffffffu;
  /// island_index() of a body that is in no island this step.
  static constexpr uint32_t k_no_island = 0xffffffffu;
  /// Number of points whose motion decides whether a body may sleep.
  static constexpr int k_num_sleep_test_points = 3;

  /// A sphere that encloses every position one sleep test point had since the last reset.
  struct SleepTestSphere {
    /// Centre (m, world space).
    Float3 center;
    /// Radius (m); 0 right after a reset.
    float radius = 0.0f;
  };

  // --- Velocities ---------------------------------------------------------------------------

  /// Linear velocity of the centre of mass (m/s, world space). Default zero.
  const Vec3& linear_velocity() const { return linear_velocity_; }
  /// Angular velocity (rad/s, world space). Default zero.
  const Vec3& angular_velocity() const { return angular_velocity_; }
  /// Sets the linear velocity: locked translation axes are zeroed, the length is clamped to
  /// max_linear_velocity().
  void set_linear_velocity(const Vec3& velocity);
  /// Sets the angular velocity: locked rotation axes are zeroed, the length is clamped to
  /// max_angular_velocity().
  void set_angular_velocity(const Vec3& velocity);
  /// Adds a velocity change (solver use): locked axes zeroed, no clamping.
  void add_linear_velocity_step(const Vec3& delta) {
    linear_velocity_ = lock_translation(linear_velocity_ + delta);
  }
  /// Adds an angular velocity change (solver use): locked axes zeroed, no clamping.
  void add_angular_velocity_step(const Vec3& delta) {
    angular_velocity_ = lock_angular(angular_velocity_ + delta);
  }
  /// Scales the linear velocity down to max_linear_velocity() if it is faster.
  void clamp_linear_velocity();
  /// Scales the angular velocity down to max_angular_velocity() if it is faster.
  void clamp_angular_velocity();
  /// Sets the velocities that take the centre of mass from (current_com, current_rotation) to
  /// (target_com, target_rotation) in `dt` s (> 0), by the shortest rotation. Not clamped, so
  /// that a kinematic body arrives exactly; locked axes are zeroed.
  void move_kinematic(const Vec3& current_com, const Quat& current_rotation, const Vec3& target_com,
                      const Quat& target_rotation, float dt);

  // --- Mass ---------------------------------------------------------------------------------

  /// Sets the allowed DOFs and derives inverse mass and principal inverse inertia from `mass`
  /// (about the centre of mass). Without translation DOFs (or with mass ≤ 0) the inverse mass
  /// is 0; without rotation DOFs the inverse inertia is 0. A tensor that cannot be decomposed
  /// falls back to that of a solid sphere of radius 1 (I = 0.4·m), as Jolt does.
  void set_mass_properties(AllowedDOFs allowed_dofs, const MassProperties& mass);
  /// 1 / mass (1/kg); 0 for infinite mass.
  float inverse_mass() const { return inverse_mass_; }
  /// Inverse of the principal moments of inertia (1/(kg·m²)), in principal-axis space.
  const Vec3& inverse_inertia_diagonal() const { return inverse_inertia_diagonal_; }
  /// Rotation from principal-axis space to body space.
  const Quat& inertia_rotation() const { return inertia_rotation_; }
  /// Sets inverse mass and principal inverse inertia directly (no DOF processing).
  void set_inverse_mass_and_inertia(float inverse_mass, const Vec3& inverse_inertia_diagonal,
                                    const Quat& inertia_rotation) {
    inverse_mass_ = inverse_mass;
    inverse_inertia_diagonal_ = inverse_inertia_diagonal;
    inertia_rotation_ = inertia_rotation;
  }
  /// World-space inverse inertia tensor for a body with rotation `body_rotation` (upper 3×3 of
  /// a rotation matrix); rows and columns of locked rotation axes are zero.
  Mat44 inverse_inertia_world(const Mat44& body_rotation) const;
  /// inverse_inertia_world(rotation) · v without building the matrix.
  Vec3 multiply_world_space_inverse_inertia(const Quat& body_rotation, const Vec3& v) const;

  // --- Settings -----------------------------------------------------------------------------

  /// Linear damping coefficient c (1/s): v *= max(0, 1 − c·dt) every step.
  float linear_damping() const { return linear_damping_; }
  void set_linear_damping(float damping) { linear_damping_ = damping; }
  /// Angular damping coefficient (1/s), applied like linear damping.
  float angular_damping() const { return angular_damping_; }
  void set_angular_damping(float damping) { angular_damping_ = damping; }
  /// Largest linear speed (m/s).
  float max_linear_velocity() const { return max_linear_velocity_; }
  void set_max_linear_velocity(float max_velocity) { max_linear_velocity_ = max_velocity; }
  /// Largest angular speed (rad/s).
  float max_angular_velocity() const { return max_angular_velocity_; }
  void set_max_angular_velocity(float max_velocity) { max_angular_velocity_ = max_velocity; }
  /// Multiplier of the world's gravity for this body.
  float gravity_factor() const { return gravity_factor_; }
  void set_gravity_factor(float factor) { gravity_factor_ = factor; }
  /// Collision quality (CCD).
  MotionQuality motion_quality() const { return motion_quality_; }
  void set_motion_quality(MotionQuality quality) { motion_quality_ = quality; }
  /// Degrees of freedom; set together with the mass through set_mass_properties.
  AllowedDOFs allowed_dofs() const { return allowed_dofs_; }
  /// Whether the body may fall asleep.
  bool allow_sleeping() const { return allow_sleeping_; }
  void set_allow_sleeping(bool allow) { allow_sleeping_ = allow; }

  // --- Forces -------------------------------------------------------------------------------

  /// Force (N, world space) accumulated since the last step; applied at the centre of mass.
  Vec3 accumulated_force() const { return Vec3(force_); }
  /// Torque (N·m, world space) accumulated since the last step.
  Vec3 accumulated_torque() const { return Vec3(torque_); }
  /// Adds a force (N) at the centre of mass for the next step.
  void add_force(const Vec3& force) { force_ = (Vec3(force_) + force).to_float3(); }
  /// Adds a torque (N·m) for the next step.
  void add_torque(const Vec3& torque) { torque_ = (Vec3(torque_) + torque).to_float3(); }
  /// Clears the accumulated force and torque (after every step).
  void reset_force_and_torque() {
    force_ = Float3();
    torque_ = Float3();
  }
  /// Integrates velocities over `dt` s (step stage 1, dynamic bodies only):
  /// v += (gravity·gravity_factor + F/m)·dt, ω += I⁻¹τ·dt, then damping v *= max(0, 1 − c·dt),
  /// then clamping to the max velocities. Locked axes stay zero. Does not reset the forces.
  void apply_force_torque_and_gravity(const Quat& body_rotation, float dt, const Vec3& gravity);

  /// `v` with the components of locked translation axes zeroed.
  Vec3 lock_translation(const Vec3& v) const;
  /// `v` with the components of locked rotation axes zeroed.
  Vec3 lock_angular(const Vec3& v) const;

  // --- Bookkeeping for the world ------------------------------------------------------------

  /// Position of the body in the BodyManager's active list, k_inactive_index when inactive.
  uint32_t index_in_active_bodies() const { return index_in_active_bodies_; }
  void set_index_in_active_bodies(uint32_t index) { index_in_active_bodies_ = index; }
  /// Island of the body in the current step (written by the island builder), or k_no_island.
  uint32_t island_index() const { return island_index_; }
  void set_island_index(uint32_t index) { island_index_ = index; }

  /// Sleep test sphere `i` (< k_num_sleep_test_points).
  const SleepTestSphere& sleep_test_sphere(int i) const { return sleep_test_spheres_[i]; }
  /// Seconds the body has been still enough to sleep.
  float sleep_test_timer() const { return sleep_test_timer_; }
  /// Restarts the sleep test: spheres of radius 0 at `points`, timer 0.
  void reset_sleep_test(const Vec3 (&points)[k_num_sleep_test_points]);
  /// Grows each sphere to enclose its point. When one grows beyond `max_movement` (m) the test
  /// restarts at `points` and false is returned; otherwise `dt` is added to the timer and the
  /// result is whether it reached `time_before_sleep` (s).
  bool update_sleep_test(const Vec3 (&points)[k_num_sleep_test_points], float dt,
                         float max_movement, float time_before_sleep);

 private:
  friend class BodyManager;  // set_body_state restores velocities and forces exactly

 private:
  Vec3 linear_velocity_;
  Vec3 angular_velocity_;
  Vec3 inverse_inertia_diagonal_;
  Quat inertia_rotation_;
  Float3 force_;
  Float3 torque_;
  float inverse_mass_ = 0.0f;
  float linear_damping_ = 0.0f;
  float angular_damping_ = 0.0f;
  float max_linear_velocity_ = k_float_max;
  float max_angular_velocity_ = k_float_max;
  float gravity_factor_ = 1.0f;
  uint32_t index_in_active_bodies_ = k_inactive_index;
  uint32_t island_index_ = k_no_island;
  SleepTestSphere sleep_test_spheres_[k_num_sleep_test_points];
  float sleep_test_timer_ = 0.0f;
  MotionQuality motion_quality_ = MotionQuality::Discrete;
  AllowedDOFs allowed_dofs_ = AllowedDOFs::All;
  bool allow_sleeping_ = true;
};

// Velocities, inertia and forces first (what the solver touches), sleep data last.
static_assert(sizeof(MotionProperties) == 176);

}  // namespace atl
