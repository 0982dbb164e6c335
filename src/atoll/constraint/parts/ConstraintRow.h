#pragma once
// The accumulated impulse of one scalar constraint row, shared by the one-degree-of-freedom
// parts (Axis, Angle, IndependentAxis, Gear, RackAndPinion). A part computes its Jacobian and
// K = J·M⁻¹·Jᵀ and applies impulses to the bodies; the row turns K into the effective mass
// (hard, or soft through SpringPart), accumulates and clamps λ, and gives the Baumgarte
// position impulse. Units follow the part: λ in N·s (linear) or N·m·s (angular).

#include <algorithm>
#include <cmath>

#include "atoll/constraint/SpringSettings.h"
#include "atoll/constraint/parts/SpringPart.h"
#include "atoll/math/Math.h"
#include "atoll/math/MathState.h"

namespace atl {

class ConstraintRow {
 public:
  /// Relative-velocity change (m/s or rad/s) below which an impulse does not count as applied
  /// for the solver's early exit (see AxisConstraintPart).
  static constexpr float k_min_velocity_change = 1.0e-6f;

  /// Hard row driving Jv to `target`; k = K (≤ 0 deactivates the row's solve).
  void set(float k, float target) {
    effective_mass_ = k > 0.0f ? 1.0f / k : 0.0f;
    spring_.calculate_spring_properties_with_target(target);
  }
  /// Soft row of `frequency` Hz and damping ratio `damping` on the error `error`.
  void set_with_frequency_and_damping(float dt, float k, float target, float error, float frequency,
                                      float damping) {
    effective_mass_ = spring_.calculate_spring_properties_with_frequency_and_damping(
        dt, k, target, error, frequency, damping);
  }
  /// Soft row of `stiffness` and `damping`: absolute, or per unit effective mass when
  /// `mass_normalized`.
  void set_with_stiffness_and_damping(float dt, float k, float target, float error, float stiffness,
                                      float damping, bool mass_normalized) {
    effective_mass_ =
        mass_normalized
            ? spring_.calculate_spring_properties_with_mass_normalized_stiffness_and_damping(
                  dt, k, target, error, stiffness, damping)
            : spring_.calculate_spring_properties_with_stiffness_and_damping(dt, k, target, error,
                                                                             stiffness, damping);
  }
  /// A limit: soft by `spring` when it has stiffness, else hard (Baumgarte position solve).
  void set_for_limit(float dt, float k, float target, float error, const SpringSettings& spring) {
    effective_mass_ =
        spring_.calculate_spring_properties_with_settings(dt, k, target, error, spring);
  }
  /// A motor driving the error `error` to 0 (and Jv to `target`): soft by `spring` when it has
  /// stiffness, else rigid — the velocity target −error/dt closes the error within one step
  /// (LAWS.md B2: Jolt's position motor with frequency 0 never moves). [min_lambda,
  /// max_lambda] are the impulse bounds the solve will use (the motor's force or torque
  /// limits × dt): a rigid motor whose braking impulse is bounded approaches no faster than
  /// the speed from which it can still stop at the target, v = √(2·a·|error| + (a·dt/2)²) −
  /// a·dt/2 with a = bound·K/dt; without that it overshoots and circles the target for ever.
  void set_for_motor(float dt, float k, float target, float error, const SpringSettings& spring,
                     float min_lambda = -k_float_max, float max_lambda = k_float_max) {
    if (spring.has_stiffness()) {
      set_for_limit(dt, k, target, error, spring);
      return;
    }
    float velocity = -error / dt;
    const float brake = error < 0.0f ? -min_lambda : max_lambda;
    if (k > 0.0f && brake > 0.0f && brake < k_float_max) {
      const double a = double(brake) * k / dt;
      const double h = 0.5 * a * dt;
      // √(2·a·|e| + h²) − h, written without the difference: for an unlimited motor (bound
      // FLT_MAX·dt) h² dwarfs 2·a·|e| and the difference rounds to 0 (the motor never moved).
      const double twice_ae = 2.0 * a * std::fabs(error);
      const double safe = twice_ae / (std::sqrt(twice_ae + h * h) + h);
      if (std::fabs(velocity) > safe) velocity = std::copysign(static_cast<float>(safe), velocity);
    }
    set(k, target + velocity);
  }

  /// The impulse that drives the row to its target at velocity `jv`, before clamping.
  float lambda_for(float jv) const { return spring_.lambda(effective_mass_, jv, total_lambda_); }

  /// Accumulates the impulse for velocity `jv` with the total clamped to [min, max]; returns
  /// the change to apply (N·s or N·m·s).
  float accumulate(float jv, float min_lambda, float max_lambda) {
    const float new_total = std::clamp(total_lambda_ + lambda_for(jv), min_lambda, max_lambda);
    const float delta = new_total - total_lambda_;
    total_lambda_ = new_total;
    return delta;
  }

  /// True when `delta` changes Jv by more than k_min_velocity_change.
  bool is_significant(float delta) const {
    return std::fabs(delta) > k_min_velocity_change * effective_mass_;
  }

  /// The Baumgarte position impulse for error `error` (0 for a soft or inactive row).
  float position_lambda(float error, float baumgarte) const {
    if (spring_.is_soft() || effective_mass_ == 0.0f) return 0.0f;
    return -baumgarte * error * effective_mass_;
  }

  /// True when the row can act (K > 0).
  bool is_active() const { return effective_mass_ != 0.0f; }
  /// Stops the row: no solve acts and the accumulated impulse is 0.
  void deactivate() {
    effective_mass_ = 0.0f;
    total_lambda_ = 0.0f;
  }
  /// m' (kg or kg·m²).
  float effective_mass() const { return effective_mass_; }
  const SpringPart& spring() const { return spring_; }
  /// Accumulated impulse of this step so far.
  float total_lambda() const { return total_lambda_; }
  void set_total_lambda(float lambda) { total_lambda_ = lambda; }
  /// Walks the accumulated impulse as `name` (one float; core/StateStream.h).
  void visit_state(StateStream& s, const char* name) { visit_finite(s, name, total_lambda_); }
  /// Scales the accumulated impulse by `ratio` (warm start) and returns it.
  float warm_start(float ratio) { return total_lambda_ *= ratio; }

 private:
  SpringPart spring_;
  float effective_mass_ = 0.0f;
  float total_lambda_ = 0.0f;
};

}  // namespace atl
