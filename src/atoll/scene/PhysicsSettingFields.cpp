#include "atoll/scene/PhysicsSettingFields.h"

namespace atl {

namespace {

using S = PhysicsSettings;

const PhysicsSettingField k_fields[] = {
    {"gravity", &S::gravity},
    {"velocity_steps", &S::velocity_steps},
    {"position_steps", &S::position_steps},
    {"baumgarte", &S::baumgarte},
    {"warm_start", &S::warm_start},
    {"penetration_slop", &S::penetration_slop},
    {"speculative_contact_distance", &S::speculative_contact_distance},
    {"speculative_contacts_from_velocity", &S::speculative_contacts_from_velocity},
    {"max_penetration_distance", &S::max_penetration_distance},
    {"contact_point_preserve_lambda_max_dist", &S::contact_point_preserve_lambda_max_dist},
    {"contact_normal_cos_max_delta_rotation", &S::contact_normal_cos_max_delta_rotation},
    {"manifold_tolerance", &S::manifold_tolerance},
    {"body_pair_cache_max_delta_position_sq", &S::body_pair_cache_max_delta_position_sq},
    {"body_pair_cache_cos_max_delta_rotation_div2",
     &S::body_pair_cache_cos_max_delta_rotation_div2},
    {"linear_cast_threshold", &S::linear_cast_threshold},
    {"linear_cast_max_penetration", &S::linear_cast_max_penetration},
    {"time_before_sleep", &S::time_before_sleep},
    {"point_velocity_sleep_threshold", &S::point_velocity_sleep_threshold},
    {"allow_sleeping", &S::allow_sleeping},
    {"use_large_island_splitter", &S::use_large_island_splitter},
    {"deterministic_simulation", &S::deterministic_simulation},
    {"min_velocity_for_restitution", &S::min_velocity_for_restitution},
    {"use_friction", &S::use_friction},
    {"manifold_friction", &S::manifold_friction},
    {"face_contact_block", &S::face_contact_block},
    {"use_position_solver_for_contacts", &S::use_position_solver_for_contacts},
    {"stack_solve_min_bodies", &S::stack_solve_min_bodies},
    {"stack_solve_min_mass_ratio", &S::stack_solve_min_mass_ratio},
};

}  // namespace

std::span<const PhysicsSettingField> physics_setting_fields() { return k_fields; }

bool same_setting(const PhysicsSettingField& field, const PhysicsSettings& a,
                  const PhysicsSettings& b) {
  return std::visit([&](auto member) { return a.*member == b.*member; }, field.member);
}

}  // namespace atl
