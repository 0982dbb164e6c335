#include "atoll/solver/PhysicsSettings.h"

#include <cmath>
#include <sstream>
#include <utility>

#include "atoll/constraint/Constraint.h"

namespace atl {

namespace {

Error field_error(const char* field, const char* rule, float value) {
  std::ostringstream os;
  os << "PhysicsSettings." << field << ": " << rule << ", got " << value;
  return Error(os.str());
}

}  // namespace

Status PhysicsSettings::validate() const {
  if (!gravity.is_finite()) return Error("PhysicsSettings.gravity: must be finite");
  // Bounded so that a step's velocity change cannot overflow (gravity -1e30 used to end as a
  // body at rest in mid-air).
  if (!(gravity.abs().max_component() <= k_max_gravity)) {
    std::ostringstream os;
    os << "PhysicsSettings.gravity: each component must be within ±" << k_max_gravity
       << " m/s², got (" << gravity.x() << ", " << gravity.y() << ", " << gravity.z() << ")";
    return Error(os.str());
  }
  if (velocity_steps < 1) return field_error("velocity_steps", "must be >= 1", velocity_steps);
  if (position_steps < 0) return field_error("position_steps", "must be >= 0", position_steps);
  // The multi-threaded solve keeps some bytes per iteration and island split: 10⁶ velocity
  // steps took 2.2 GB in one step, 10⁸ ended the process (std::bad_alloc).
  constexpr int k_max_steps = static_cast<int>(k_max_solver_steps);
  for (const auto& [name, value] :
       {std::pair("velocity_steps", velocity_steps), std::pair("position_steps", position_steps)})
    if (value > k_max_steps) {
      std::ostringstream os;
      os << "PhysicsSettings." << name << ": must be <= " << k_max_steps << ", got " << value;
      return Error(os.str());
    }
  for (const auto& [name, value] : {std::pair("soft_body_substeps", soft_body_substeps),
                                    std::pair("soft_body_iterations", soft_body_iterations)})
    if (value < 1 || value > 1000)
      return field_error(name, "must be in [1, 1000]", static_cast<float>(value));
  if (stack_solve_min_bodies < 0)
    return field_error("stack_solve_min_bodies", "must be >= 0",
                       static_cast<float>(stack_solve_min_bodies));
  struct Range {
    const char* name;
    float value;
    float lo;
    float hi;
  };
  const Range ranges[] = {
      {"baumgarte", baumgarte, 0.0f, 1.0f},
      {"penetration_slop", penetration_slop, 0.0f, k_float_max},
      {"speculative_contact_distance", speculative_contact_distance, 0.0f, k_float_max},
      {"max_penetration_distance", max_penetration_distance, 0.0f, k_float_max},
      {"contact_point_preserve_lambda_max_dist", contact_point_preserve_lambda_max_dist, 0.0f,
       k_float_max},
      {"contact_normal_cos_max_delta_rotation", contact_normal_cos_max_delta_rotation, -1.0f, 1.0f},
      {"manifold_tolerance", manifold_tolerance, 0.0f, k_float_max},
      {"body_pair_cache_max_delta_position_sq", body_pair_cache_max_delta_position_sq, 0.0f,
       k_float_max},
      {"body_pair_cache_cos_max_delta_rotation_div2", body_pair_cache_cos_max_delta_rotation_div2,
       -1.0f, 1.0f},
      {"linear_cast_threshold", linear_cast_threshold, 0.0f, k_float_max},
      {"linear_cast_max_penetration", linear_cast_max_penetration, 0.0f, k_float_max},
      {"time_before_sleep", time_before_sleep, 0.0f, k_float_max},
      {"point_velocity_sleep_threshold", point_velocity_sleep_threshold, 0.0f, k_float_max},
      {"min_velocity_for_restitution", min_velocity_for_restitution, 0.0f, k_float_max},
      {"stack_solve_min_mass_ratio", stack_solve_min_mass_ratio, 0.0f, k_float_max},
  };
  // Settings that would do nothing are refused until they work (no field is validated and then
  // ignored).
  if (!deterministic_simulation)
    return Error(
        "PhysicsSettings.deterministic_simulation: every stage gives the same bits for any "
        "thread count at no cost, so there is no faster non-deterministic step; must be true");
  for (const Range& r : ranges) {
    if (!std::isfinite(r.value)) return field_error(r.name, "must be finite", r.value);
    if (r.value < r.lo || r.value > r.hi) {
      std::ostringstream rule;
      rule << "must be in [" << r.lo << ", " << (r.hi == k_float_max ? INFINITY : r.hi) << "]";
      return field_error(r.name, rule.str().c_str(), r.value);
    }
  }
  return Ok{};
}

}  // namespace atl
