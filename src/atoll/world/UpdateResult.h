#pragma once
// What PhysicsSystem::update() reports: counts, per-stage timings and problems. Problems are
// flags plus counts plus the first offender (like Jolt's EPhysicsUpdateError), so that a caller
// can test for one without parsing text; to_string() words them for people.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "atoll/body/BodyID.h"
#include "atoll/constraint/Constraint.h"
#include "atoll/world/Stage.h"

namespace atl {

/// A problem update() met; UpdateResult::errors is a bit set of these.
enum class UpdateError : uint32_t {
  /// PhysicsSystemSettings::max_body_pairs was reached: some body pairs were not collided.
  body_pair_cap_reached = 1u << 0,
  /// PhysicsSystemSettings::max_contact_manifolds was reached: some manifolds were not solved.
  manifold_cap_reached = 1u << 1,
  /// A contact listener set invalid ContactSettings; those contacts kept their defaults.
  invalid_contact_settings = 1u << 2,
  /// A soft body's step gave a result that was not finite; it stayed as it was
  /// (UpdateResult::failed_soft_bodies).
  soft_body_step_failed = 1u << 3,
};

/// What happened during update().
struct UpdateResult {
  /// Bit set of UpdateError; 0 when every pair and contact was handled as asked (nothing is
  /// ever dropped silently).
  uint32_t errors = 0;
  /// True when no problem was met.
  bool ok() const { return errors == 0; }
  /// True when `error` was met.
  bool has(UpdateError error) const { return (errors & static_cast<uint32_t>(error)) != 0; }
  /// Sets `error`.
  void flag(UpdateError error) { errors |= static_cast<uint32_t>(error); }
  /// Every problem in words, "; "-separated (empty when ok()).
  std::string to_string() const;

  /// The max_body_pairs cap in force when body_pair_cap_reached was set.
  uint32_t max_body_pairs = 0;
  /// Body pairs not collided because of the cap, summed over collision steps.
  uint32_t skipped_body_pairs = 0;
  /// Bodies of the first pair not collided (invalid IDs when none).
  BodyID first_skipped_pair_body1, first_skipped_pair_body2;
  /// The max_contact_manifolds cap in force when manifold_cap_reached was set.
  uint32_t max_contact_manifolds = 0;
  /// Manifolds not solved because of the cap, summed over collision steps.
  uint32_t skipped_manifolds = 0;
  /// Bodies of the first manifold not solved (invalid IDs when none).
  BodyID first_skipped_manifold_body1, first_skipped_manifold_body2;
  /// Contacts whose listener-set ContactSettings were rejected, summed over collision steps.
  uint32_t rejected_contact_settings = 0;
  /// The first of them: its bodies in listener order, the callback that set it
  /// ("on_contact_added" or "on_contact_persisted") and the bad field ("combined_friction = nan").
  BodyID rejected_settings_body1, rejected_settings_body2;
  const char* rejected_settings_callback = "";
  std::string rejected_settings_field;
  /// Soft body steps undone because their result was not finite, summed over collision steps.
  uint32_t failed_soft_bodies = 0;

  /// Broadphase pairs collided in the last collision step.
  uint32_t num_body_pairs = 0;
  /// Contact manifolds (sensors included) in the last collision step.
  uint32_t num_manifolds = 0;
  /// Contact points in the last collision step.
  uint32_t num_contact_points = 0;
  /// Islands in the last collision step.
  uint32_t num_islands = 0;
  /// Bodies in the largest of them (0 without islands).
  uint32_t largest_island_bodies = 0;
  /// Islands of the last collision step solved through splits (LargeIslandSplitter).
  uint32_t num_split_islands = 0;
  /// Groups of small islands of the last collision step solved together through splits, so
  /// that their contacts fill the wide solver's lane blocks (key_island_groups).
  uint32_t num_island_groups = 0;
  /// Velocity iterations run, summed over islands and collision steps (early exit makes this
  /// less than islands × velocity_steps).
  uint32_t num_velocity_iterations = 0;
  /// Active bodies after the update.
  uint32_t num_active_bodies = 0;
  /// Deepest penetration (m) found by the narrow phase during the update.
  float max_penetration = 0.0f;
  /// The two bodies of that deepest contact (invalid IDs when there was none).
  BodyID max_penetration_body1, max_penetration_body2;
  /// LinearCast bodies that moved far enough to be cast (stage ccd), summed over collision
  /// steps.
  uint32_t num_ccd_bodies = 0;
  /// Of those, the ones whose cast hit something (a hit at the very end of the displacement
  /// included), summed over collision steps.
  uint32_t num_ccd_hits = 0;
  /// Wall time per stage (ms), summed over collision steps.
  std::array<double, k_num_stages> stage_ms{};
  /// Bodies quarantined during the update because their state went non-finite (DESIGN.md §7;
  /// see BodyInterface::is_quarantined), by collision step, then body index.
  std::vector<BodyID> quarantined;
  /// Constraints that broke during the update: their impulse in a step exceeded a non-zero
  /// break threshold, and they were disabled after that step (by collision step, then solve
  /// order).
  std::vector<Ref<Constraint>> broken;
};

}  // namespace atl
