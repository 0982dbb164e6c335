#pragma once
// The world: owns the bodies, the broadphase and the contact solver, and runs the step
// pipeline of DESIGN.md §2. This is the only place that knows the order of a step; each stage
// is a function over flat arrays (the active-body list, the pair list, the solver-body array,
// the island lists) so that it can later be cut into jobs.

#include <array>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "atoll/body/BodyActivationListener.h"
#include "atoll/body/BodyInterface.h"
#include "atoll/collision/broadphase/BroadPhase.h"
#include "atoll/collision/broadphase/DefaultLayers.h"
#include "atoll/collision/narrowphase/ShapeCast.h"
#include "atoll/solver/ContactConstraintManager.h"
#include "atoll/solver/IslandBuilder.h"
#include "atoll/solver/PhysicsSettings.h"
#include "atoll/world/ContactListener.h"
#include "atoll/world/Stage.h"

namespace atl {

/// How the world is built: layers and optional hard caps (0 = grow without limit).
struct PhysicsSystemSettings {
  /// Maps object layers to broadphase layers; null: DefaultLayers (static vs moving).
  const BroadPhaseLayerInterface* broadphase_layers = nullptr;
  /// Which broadphase layers an object layer may touch; null: DefaultLayers.
  const ObjectVsBroadPhaseLayerFilter* object_vs_broadphase_filter = nullptr;
  /// Which object layers collide; null: DefaultLayers.
  const ObjectLayerPairFilter* object_layer_pair_filter = nullptr;
  /// Hard cap on bodies (create_body fails with an error naming the cap); 0 = no cap.
  uint32_t max_bodies = 0;
  /// Hard cap on broadphase pairs per step; pairs past it are not collided and update()
  /// reports it. 0 = no cap.
  uint32_t max_body_pairs = 0;
  /// Hard cap on contact manifolds per step; manifolds past it are not solved and update()
  /// reports it. 0 = no cap.
  uint32_t max_contact_manifolds = 0;
};

/// What happened during update().
struct UpdateResult {
  /// Empty when every pair and contact was handled as asked; otherwise names the cap that was
  /// reached and how much was left out (nothing is ever dropped silently), or the invalid
  /// ContactSettings a contact listener set (the contact kept its defaults).
  std::string error;
  bool ok() const { return error.empty(); }
  /// Broadphase pairs collided in the last collision step.
  uint32_t num_body_pairs = 0;
  /// Contact manifolds (sensors included) in the last collision step.
  uint32_t num_manifolds = 0;
  /// Contact points in the last collision step.
  uint32_t num_contact_points = 0;
  /// Islands in the last collision step.
  uint32_t num_islands = 0;
  /// Velocity iterations run, summed over islands and collision steps (early exit makes this
  /// less than islands × velocity_steps).
  uint32_t num_velocity_iterations = 0;
  /// Active bodies after the update.
  uint32_t num_active_bodies = 0;
  /// Deepest penetration (m) found by the narrow phase during the update.
  float max_penetration = 0.0f;
  /// The two bodies of that deepest contact (invalid IDs when there was none).
  BodyID max_penetration_body1, max_penetration_body2;
  /// LinearCast bodies that moved far enough to be cast (stage 10), summed over collision
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
};

class PhysicsSystem final : private BodyListener {
 public:
  explicit PhysicsSystem(const PhysicsSystemSettings& settings = {});
  PhysicsSystem(const PhysicsSystem&) = delete;
  PhysicsSystem& operator=(const PhysicsSystem&) = delete;
  ~PhysicsSystem() override;

  /// The API to create, change and remove bodies (validated).
  BodyInterface& body_interface() { return body_interface_; }
  /// Read access to all bodies.
  const BodyManager& bodies() const { return body_manager_; }
  /// The broadphase (for inspection).
  const BroadPhase& broadphase() const { return broadphase_; }

  /// The simulation settings.
  const PhysicsSettings& settings() const { return settings_; }
  /// Replaces the settings after validating them (an invalid field changes nothing).
  Status set_settings(const PhysicsSettings& settings);

  /// The listener of contact events (null: none). Not owned.
  void set_contact_listener(ContactListener* listener) { contact_listener_ = listener; }
  /// The listener of bodies waking and falling asleep (null: none). Not owned. Changes are
  /// buffered from the moment it is set and delivered by update(), after its step and before
  /// the contact events, in the order they happened (BodyActivationListener.h).
  void set_body_activation_listener(BodyActivationListener* listener);

  /// Wakes (or keeps awake, restarting their sleep test) every added non-static body whose
  /// bounds overlap `box` (m) and whose layer passes `filter`, in body-index order. Returns how
  /// many it activated or kept awake; error (nothing changed) when the box is not finite or is
  /// inverted.
  Result<uint32_t> activate_bodies_in_aabox(const AABox& box,
                                            const ObjectLayerFilter& filter = ObjectLayerFilter());

  /// Advances the world by `dt` s (> 0, finite) in `collision_steps` (≥ 1) sub-steps. Invalid
  /// arguments return an error result and change nothing.
  Result<UpdateResult> update(float dt, int collision_steps = 1);

  /// Whether the two bodies had a contact in the last collision step of the last update():
  /// touching or within the speculative contact distance, sensor contacts included — the
  /// contacts that the last update's events reported as added or persisted. Two bodies that
  /// sleep keep the contact they fell asleep with (it persists across sleep and wake). Order of
  /// the IDs does not matter; an invalid ID is an error.
  Result<bool> were_bodies_in_contact(BodyID body1, BodyID body2) const;

  /// Number of update() calls so far.
  uint64_t step_count() const { return step_count_; }

 private:
  // BodyListener: keep the broadphase in sync with the body interface.
  void on_added(const Body& body) override;
  void on_removed(const Body& body) override;
  void on_moved(const Body& body) override;
  void on_layer_changed(const Body& body, ObjectLayer old_layer) override;
  void on_shape_changed(const Body& body) override;
  void on_motion_type_changed(const Body& body, MotionType old_type) override;
  void on_quarantine_released(const Body& body) override;

  // One collision step of length dt; `last` is true for the last one of the update.
  void step(float dt, bool last, int collision_step, UpdateResult& result);
  // The stages, in order.
  void apply_forces(float dt);
  void find_pairs(UpdateResult& result);
  void gather_solver_bodies();
  void narrow_phase(int collision_step, UpdateResult& result);
  struct NarrowPhaseTally;
  // Stage 3 for one broadphase pair: contacts, listener calls, events; queues the sleeping
  // dynamic bodies it touches for waking.
  void collide_pair(const BodyPair& pair, NarrowPhaseTally& tally);
  // Activates a sleeping body during stage 3 and lets it take full part in this step.
  void wake_body(uint32_t body_index, float dt);
  void build_islands();
  void warm_start();
  void solve_velocity(UpdateResult& result);
  void integrate_positions(float dt);
  void ccd(float dt, UpdateResult& result);
  void solve_position();
  // Quarantine (DESIGN.md §7): find_non_finite runs before write_back, while every body still
  // holds its pose from the start of the step; quarantine_non_finite runs after it.
  void find_non_finite();
  void write_back();
  void quarantine_non_finite(UpdateResult& result);
  void update_sleep(float dt);
  void update_bounds(float dt);
  void deliver_events();

  uint32_t solver_index(uint32_t body_index);
  // Stage 9 for one LinearCast candidate, before the move: queues it for stage 10 when it
  // moves too far this step to be moved blindly.
  void register_ccd(uint32_t solver_index, float dt);
  // Stage 10 for one CCD body: its earliest hit. Writes only that CcdBody (and the candidate
  // scratch), so bodies can be cast in any order, or in batches once the step is parallel.
  void find_ccd_hit(uint32_t ccd_index, float dt);
  // Whether the contact listener lets a CCD hit of body1 (the swept body) on body2 stop it:
  // on_contact_validate, then on_contact_added with the hit as a one-point manifold; a
  // rejected pair or a contact made a sensor does not stop it.
  bool ccd_hit_accepted(const Body& body1, const Body& body2, const ShapeCastResult& hit);
  // Stage 10 for all CCD bodies, sequential: earliest hits first, then the moves.
  void resolve_ccd(UpdateResult& result);

  // A LinearCast body queued in stage 9 for stage 10 (Jolt's CCDBody).
  struct CcdBody {
    static constexpr uint32_t k_no_hit = 0xffffffffu;
    /// Index in solver_bodies_.
    uint32_t solver_index = 0;
    /// Body ID value (ties in the hit order).
    uint32_t body_id = 0;
    /// Centre of mass (m) at the start of the step.
    Vec3 start_position;
    /// This step's displacement (m).
    Vec3 delta_position;
    /// (linear_cast_threshold × inner radius)² (m²): relative motions below it are not cast.
    float threshold_sq = 0.0f;
    /// Penetration (m) the body may end with at a hit: min(penetration_slop,
    /// linear_cast_max_penetration × inner radius).
    float max_penetration = 0.0f;
    /// Fraction of the displacement at the chosen hit (1 without one).
    float fraction = 1.0f;
    /// Fraction the body moves: the hit's fraction plus max_penetration along the normal
    /// (1 without a hit); 1 or more leaves the whole move.
    float fraction_plus_slop = 1.0f;
    /// Body slot index of what was hit, or k_no_hit.
    uint32_t hit_body = k_no_hit;
  };

  std::unique_ptr<DefaultLayers> default_layers_;
  BodyManager body_manager_;
  BodyInterface body_interface_;
  BroadPhase broadphase_;
  ContactConstraintManager contact_manager_;
  IslandBuilder island_builder_;
  PhysicsSettings settings_;
  PhysicsSystemSettings system_settings_;
  ContactListener* contact_listener_ = nullptr;
  BodyActivationListener* activation_listener_ = nullptr;
  std::vector<BodyActivationEvent> activation_events_;
  // The layer filters the broadphase was built with (CCD queries it with the same rules).
  const ObjectVsBroadPhaseLayerFilter* object_vs_broadphase_filter_ = nullptr;
  const ObjectLayerPairFilter* object_layer_pair_filter_ = nullptr;
  uint64_t step_count_ = 0;
  float current_dt_ = 0.0f;

  // Per-step scratch, kept between steps so that the hot loop does not allocate.
  std::vector<BodyPair> pairs_;
  std::vector<SolverBody> solver_bodies_;
  // Velocities of the active bodies (in active-list order, = their solver indices) before
  // stage 1 added gravity and forces: restitution bounces with these (issue 7 item 4).
  std::vector<BodyVelocity> velocities_before_forces_;
  std::vector<uint32_t> solver_body_source_;  // solver index → body slot index
  std::vector<uint32_t> solver_index_of_;     // body slot index → solver index (or k_none)
  std::vector<uint8_t> solver_movable_;
  std::vector<uint32_t> linear_cast_candidates_;  // active dynamic LinearCast non-sensors
  std::vector<CcdBody> ccd_bodies_;
  std::vector<uint32_t> ccd_index_of_;  // solver index → index in ccd_bodies_ (or k_none)
  std::vector<uint32_t> ccd_order_;
  AllHitsBroadPhaseCollector ccd_candidates_;
  std::vector<uint32_t> constraint_body1_;
  std::vector<uint32_t> constraint_body2_;
  std::vector<ContactManifold> manifolds_;
  std::vector<ContactEvent> events_;
  std::vector<RemovedContact> removed_;
  // Stage 3's waking: bodies queued to wake (next round), the round being woken, their pairs,
  // and per body slot whether its pairs were found this step.
  static constexpr uint8_t k_not_woken = 0;
  static constexpr uint8_t k_wake_queued = 1;
  static constexpr uint8_t k_pairs_found = 2;
  std::vector<uint32_t> wake_;
  std::vector<uint32_t> wake_batch_;
  std::vector<BodyPair> wake_pairs_;
  std::vector<uint8_t> wake_state_;
  // Solver indices of the bodies that move this step: the active bodies (the first entries of
  // the solver array), then the bodies woken during stage 3.
  std::vector<uint32_t> moving_solver_bodies_;
  // An active body whose state went non-finite this step, and the pose it started it with.
  struct NonFiniteBody {
    uint32_t body_index;
    Vec3 com_position;
    Quat rotation;
  };
  std::vector<NonFiniteBody> non_finite_;
};

}  // namespace atl
