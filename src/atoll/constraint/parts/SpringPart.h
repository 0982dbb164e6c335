#pragma once
// The soft-constraint coefficients of one constraint row (Catto, "Soft Constraints:
// Reinventing the Spring", GDC 2011). A row drives its velocity Jv (J the row's Jacobian, v the
// bodies' velocities) towards a target. Made soft by a spring of stiffness k and damping c on
// the position error C (same units and sign as Jv integrated: m or rad), the implicit-Euler
// step of m·a = −k·C − c·(Jv − target) gives the accumulated-impulse solve
//   λ = m' · (target' − Jv − γ·λ_total),  γ = 1 / (dt·(c + dt·k)),
//   target' = target − k·C / (c + dt·k),  m' = 1 / (K + γ),
// with K = J·M⁻¹·Jᵀ. A hard row has γ = 0, target' = target and m' = 1/K; its position error
// is then the position solver's (Baumgarte), while a soft row does no position solve.
//
// Units: target in m/s (linear rows) or rad/s (angular), C in m or rad, k in N/m or N·m/rad,
// c in N·s/m or N·m·s/rad, K in 1/kg or 1/(kg·m²), γ in the same units as K.

#include "atoll/constraint/SpringSettings.h"
#include "atoll/math/Math.h"

namespace atl {

class SpringPart {
 public:
  /// Hard row: the solve drives Jv to `target` (m/s or rad/s).
  void calculate_spring_properties_with_target(float target) {
    target_ = target;
    softness_ = 0.0f;
  }

  /// Soft row with absolute stiffness `k` and damping coefficient `c` on the error `error`;
  /// `inv_effective_mass` is K. Returns the effective mass m' (0 when K ≤ 0). k ≤ 0 = hard.
  float calculate_spring_properties(float dt, float inv_effective_mass, float target, float error,
                                    float k, float c) {
    if (!(inv_effective_mass > 0.0f)) {
      calculate_spring_properties_with_target(target);
      return 0.0f;
    }
    const float denominator = dt * (c + dt * k);
    if (!(k > 0.0f) || !(denominator > 0.0f)) {
      calculate_spring_properties_with_target(target);
      return 1.0f / inv_effective_mass;
    }
    softness_ = 1.0f / denominator;
    target_ = target - dt * k * softness_ * error;
    return 1.0f / (inv_effective_mass + softness_);
  }

  /// Soft row oscillating at `frequency` (Hz) with damping ratio `damping` whatever the mass:
  /// k = m·ω², c = 2·m·ζ·ω with m = 1/K. Frequency ≤ 0 = hard.
  float calculate_spring_properties_with_frequency_and_damping(float dt, float inv_effective_mass,
                                                               float target, float error,
                                                               float frequency, float damping) {
    if (!(frequency > 0.0f) || !(inv_effective_mass > 0.0f))
      return calculate_spring_properties(dt, inv_effective_mass, target, error, 0.0f, 0.0f);
    const float mass = 1.0f / inv_effective_mass;
    const float omega = k_two_pi * frequency;
    return calculate_spring_properties(dt, inv_effective_mass, target, error, mass * omega * omega,
                                       2.0f * mass * damping * omega);
  }

  /// Soft row of absolute `stiffness` and damping coefficient `damping`; stiffness ≤ 0 = hard.
  float calculate_spring_properties_with_stiffness_and_damping(float dt, float inv_effective_mass,
                                                               float target, float error,
                                                               float stiffness, float damping) {
    return calculate_spring_properties(dt, inv_effective_mass, target, error, stiffness, damping);
  }

  /// Soft row of `stiffness` (1/s²) and `damping` (1/s) per unit effective mass: k = m·stiffness,
  /// c = m·damping. Stiffness ≤ 0 = hard.
  float calculate_spring_properties_with_mass_normalized_stiffness_and_damping(
      float dt, float inv_effective_mass, float target, float error, float stiffness,
      float damping) {
    if (!(stiffness > 0.0f) || !(inv_effective_mass > 0.0f))
      return calculate_spring_properties(dt, inv_effective_mass, target, error, 0.0f, 0.0f);
    const float mass = 1.0f / inv_effective_mass;
    return calculate_spring_properties(dt, inv_effective_mass, target, error, mass * stiffness,
                                       mass * damping);
  }

  /// Dispatches on `spring.mode`; a spring without stiffness gives a hard row.
  float calculate_spring_properties_with_settings(float dt, float inv_effective_mass, float target,
                                                  float error, const SpringSettings& spring) {
    switch (spring.mode) {
      case SpringMode::FrequencyAndDamping:
        return calculate_spring_properties_with_frequency_and_damping(
            dt, inv_effective_mass, target, error, spring.frequency, spring.damping);
      case SpringMode::StiffnessAndDamping:
        return calculate_spring_properties_with_stiffness_and_damping(
            dt, inv_effective_mass, target, error, spring.stiffness, spring.damping);
      case SpringMode::MassNormalizedStiffnessAndDamping:
        return calculate_spring_properties_with_mass_normalized_stiffness_and_damping(
            dt, inv_effective_mass, target, error, spring.stiffness, spring.damping);
    }
    return calculate_spring_properties(dt, inv_effective_mass, target, error, 0.0f, 0.0f);
  }

  /// True when the row is soft (γ > 0): it then needs no position solve.
  bool is_soft() const { return softness_ != 0.0f; }
  /// γ (same units as K).
  float softness() const { return softness_; }
  /// target' (m/s or rad/s): what Jv + γ·λ_total is driven to.
  float target() const { return target_; }

  /// The impulse that drives the row to its target given the velocity `jv` and the impulse
  /// `total_lambda` accumulated so far, for effective mass m'.
  float lambda(float effective_mass, float jv, float total_lambda) const {
    float velocity_error = target_ - jv;
    if (softness_ != 0.0f) velocity_error -= softness_ * total_lambda;
    return effective_mass * velocity_error;
  }

 private:
  float target_ = 0.0f;
  float softness_ = 0.0f;
};

}  // namespace atl
