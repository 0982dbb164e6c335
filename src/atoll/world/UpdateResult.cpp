#include "atoll/world/UpdateResult.h"

namespace atl {

std::string UpdateResult::to_string() const {
  std::string out;
  const auto next = [&out]() -> std::string& {
    if (!out.empty()) out += "; ";
    return out;
  };
  if (has(UpdateError::body_pair_cap_reached))
    next() += "PhysicsSystemSettings.max_body_pairs (" + std::to_string(max_body_pairs) +
              ") reached: " + std::to_string(skipped_body_pairs) +
              " body pairs were not collided (the first: bodies " +
              std::to_string(first_skipped_pair_body1.value()) + " and " +
              std::to_string(first_skipped_pair_body2.value()) + ")";
  if (has(UpdateError::manifold_cap_reached))
    next() += "PhysicsSystemSettings.max_contact_manifolds (" +
              std::to_string(max_contact_manifolds) +
              ") reached: " + std::to_string(skipped_manifolds) +
              " contact manifolds were not solved (the first: bodies " +
              std::to_string(first_skipped_manifold_body1.value()) + " and " +
              std::to_string(first_skipped_manifold_body2.value()) + ")";
  if (has(UpdateError::invalid_contact_settings))
    next() +=
        std::string("ContactListener::") + rejected_settings_callback + " set ContactSettings." +
        rejected_settings_field + " for bodies " + std::to_string(rejected_settings_body1.value()) +
        " and " + std::to_string(rejected_settings_body2.value()) + " (must be finite and >= 0; " +
        std::to_string(rejected_contact_settings) + " contact(s) kept their default settings)";
  if (has(UpdateError::soft_body_step_failed))
    next() += std::to_string(failed_soft_bodies) +
              " soft body step(s) gave a result that was not finite and were undone (the soft "
              "bodies stayed as they were; a smaller dt or softer constraints may help)";
  return out;
}

}  // namespace atl
