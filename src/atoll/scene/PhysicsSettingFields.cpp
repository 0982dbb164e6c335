// The PhysicsSettings field table (scene/FieldTable.h): a scene file's "settings" keys besides
// dt, steps and collision_steps, named exactly like the fields. The reader, the writer, --set,
// scene equality and the docs test walk it; the valid ranges are PhysicsSettings::validate()'s.

#include "atoll/scene/PhysicsSettingFields.h"

#include <limits>

namespace atl {

namespace fields {

template <>
std::span<const Field<PhysicsSettings>> FieldTable<PhysicsSettings>::fields() {
  using S = PhysicsSettings;
  using Int =
      Integer<int, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()>;
  static const Field<S> k[] = {
      field<Vector, &S::gravity>("gravity"),
      field<Int, &S::velocity_steps>("velocity_steps"),
      field<Int, &S::position_steps>("position_steps"),
      field<Real, &S::baumgarte>("baumgarte"),
      field<Bool, &S::warm_start>("warm_start"),
      field<Real, &S::penetration_slop>("penetration_slop"),
      field<Real, &S::speculative_contact_distance>("speculative_contact_distance"),
      field<Bool, &S::speculative_contacts_from_velocity>("speculative_contacts_from_velocity"),
      field<Real, &S::max_penetration_distance>("max_penetration_distance"),
      field<Real, &S::contact_point_preserve_lambda_max_dist>(
          "contact_point_preserve_lambda_max_dist"),
      field<Real, &S::contact_normal_cos_max_delta_rotation>(
          "contact_normal_cos_max_delta_rotation"),
      field<Real, &S::manifold_tolerance>("manifold_tolerance"),
      field<Real, &S::body_pair_cache_max_delta_position_sq>(
          "body_pair_cache_max_delta_position_sq"),
      field<Real, &S::body_pair_cache_cos_max_delta_rotation_div2>(
          "body_pair_cache_cos_max_delta_rotation_div2"),
      field<Real, &S::linear_cast_threshold>("linear_cast_threshold"),
      field<Real, &S::linear_cast_max_penetration>("linear_cast_max_penetration"),
      field<Real, &S::time_before_sleep>("time_before_sleep"),
      field<Real, &S::point_velocity_sleep_threshold>("point_velocity_sleep_threshold"),
      field<Bool, &S::allow_sleeping>("allow_sleeping"),
      field<Bool, &S::use_large_island_splitter>("use_large_island_splitter"),
      field<Bool, &S::use_wide_contact_solver>("use_wide_contact_solver"),
      field<Bool, &S::deterministic_simulation>("deterministic_simulation"),
      field<Real, &S::min_velocity_for_restitution>("min_velocity_for_restitution"),
      field<Bool, &S::use_friction>("use_friction"),
      field<Bool, &S::manifold_friction>("manifold_friction"),
      field<Bool, &S::face_contact_block>("face_contact_block"),
      field<Bool, &S::use_position_solver_for_contacts>("use_position_solver_for_contacts"),
      field<Int, &S::stack_solve_min_bodies>("stack_solve_min_bodies"),
      field<Real, &S::stack_solve_min_mass_ratio>("stack_solve_min_mass_ratio"),
      field<Int, &S::soft_body_substeps>("soft_body_substeps"),
      field<Int, &S::soft_body_iterations>("soft_body_iterations"),
  };
  return k;
}

}  // namespace fields

std::span<const fields::Field<PhysicsSettings>> physics_setting_fields() {
  return fields::FieldTable<PhysicsSettings>::fields();
}

}  // namespace atl
