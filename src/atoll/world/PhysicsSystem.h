#pragma once
// The world: owns the bodies, the broadphase and the contact solver, and runs the step
// pipeline of DESIGN.md §2. This is the only place that knows the order of a step; each stage
// is a function, in the area that owns its concept, over the flat arrays of one StepContext
// (the active-body list, the pair list, the solver-body array, the island lists), so that it
// can later be cut into jobs.

#include <array>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "atoll/body/BodyActivationListener.h"
#include "atoll/body/BodyInterface.h"
#include "atoll/collision/broadphase/BroadPhase.h"
#include "atoll/collision/broadphase/DefaultLayers.h"
#include "atoll/constraint/ConstraintManager.h"
#include "atoll/core/JobSystem.h"
#include "atoll/softbody/SoftBodyManager.h"
#include "atoll/solver/ContactConstraintManager.h"
#include "atoll/solver/PhysicsSettings.h"
#include "atoll/state/DeterminismLog.h"
#include "atoll/state/WorldSnapshot.h"
#include "atoll/state/WorldState.h"
#include "atoll/world/ConstraintListener.h"
#include "atoll/world/ContactListener.h"
#include "atoll/world/StepContext.h"
#include "atoll/world/UpdateResult.h"

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

class PhysicsSystem final : private BodyListener, private SoftBodyCreator {
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
  /// The listener of broken constraints (null: none). Not owned. Delivered by update(), after
  /// the activation and contact events.
  void set_constraint_listener(ConstraintListener* listener) { constraint_listener_ = listener; }

  /// Adds a constraint made by a `…ConstraintSettings::create`. Error (nothing changed) when it
  /// is null, already in a world, or a body of it is not in this world (not added, removed or
  /// destroyed) or is a soft body. A body removed later leaves the constraint in the world,
  /// unsolved, until it is removed (or the body is added back).
  Status add_constraint(const Ref<Constraint>& constraint);
  /// Removes a constraint; error (nothing changed) when it is not in this world.
  Status remove_constraint(const Ref<Constraint>& constraint);
  /// The soft body's vertices and measures, or null when `id` is not a live soft body.
  const SoftBody* soft_body(BodyID id) const {
    return body_manager_.get(id) != nullptr ? soft_body_manager_.get(id) : nullptr;
  }
  /// The soft bodies (read only; BodyInterface creates and changes them, stepped with
  /// soft_body_substeps and soft_body_iterations of the settings).
  const SoftBodyManager& soft_bodies() const { return soft_body_manager_; }
  /// One number for the whole simulation state (the summary's `state_hash`): every body's
  /// pose and velocities and every soft body's vertices (state/StateHash.h).
  uint64_t state_hash() const;
  /// Whether the soft body `id` sleeps (SoftBodySleepSettings: the settings' allow_sleeping,
  /// time_before_sleep and point_velocity_sleep_threshold); false for any other ID.
  bool is_soft_body_sleeping(BodyID id) const {
    return body_manager_.get(id) != nullptr && soft_body_manager_.is_sleeping(id);
  }
  /// The constraints in the world, in the order they were added (index order).
  std::span<const Ref<Constraint>> constraints() const { return constraint_manager_.constraints(); }

  /// Wakes (or keeps awake, restarting their sleep test) every added non-static body (soft
  /// bodies included) whose bounds overlap `box` (m) and whose layer passes `filter`, in body-index
  /// order. Returns how many it activated or kept awake; error (nothing changed) when the box is
  /// not finite or is inverted.
  Result<uint32_t> activate_bodies_in_aabox(const AABox& box,
                                            const ObjectLayerFilter& filter = ObjectLayerFilter());

  /// Advances the world by `dt` s (> 0, finite) in `collision_steps` (≥ 1) sub-steps, running
  /// the parallel stages on `jobs` (not owned; null: on the calling thread; its num_workers()
  /// in [1, JobSystem::k_max_workers]). The result is the same bits for any job system and
  /// worker count. Invalid arguments return an error result and change nothing. A filter or
  /// step-time callback that throws ends the update with its exception, on the calling thread
  /// whichever thread it was thrown on (JobSystem::run); the world is then part-way through a
  /// step, is_interrupted() says so, and update, save_state and save_snapshot refuse it (an
  /// error naming the call) until restore_snapshot, or restore_state of a state of every part,
  /// puts back a world saved before (the next updates then give the bits of a world that never
  /// threw). An exception from a listener after the steps (on_contact_events, the activation
  /// and constraint listeners) leaves a whole step and interrupts nothing.
  Result<UpdateResult> update(float dt, int collision_steps = 1, JobSystem* jobs = nullptr);

  /// True from an update that a filter or step-time callback threw out of, part-way through a
  /// step, until a restore puts back a whole world (update).
  bool is_interrupted() const { return interrupted_; }

  /// Whether the two bodies had a contact in the last collision step of the last update():
  /// touching or within the speculative contact distance, sensor contacts included — the
  /// contacts that the last update's events reported as added or persisted. Two bodies that
  /// sleep keep the contact they fell asleep with (it persists across sleep and wake). Order of
  /// the IDs does not matter; an invalid ID is an error.
  Result<bool> were_bodies_in_contact(BodyID body1, BodyID body2) const;

  /// Number of update() calls so far.
  uint64_t step_count() const { return step_count_; }

  /// Saves `parts` of the world's state into `recorder`, replacing what it held: what the
  /// simulation changes (poses, velocities, forces, sleep tests, broadphase boxes, the contact
  /// cache with its impulses, the constraints' impulses and motor targets; StateParts), for the
  /// bodies, contact pairs and constraints `filter` chooses (null: all). What the user set up
  /// (shapes, masses, materials, settings other than gravity) is not saved. Format:
  /// docs/state-format.md. Between updates: called while update steps the world (from a
  /// step-time callback, where the world is half-stepped, or from another thread), or on a world
  /// an exception left part-way through a step (is_interrupted), an error naming the call, and
  /// `recorder` is left as it was.
  Status save_state(StateRecorder& recorder, StateParts parts = StateParts::all,
                    const StateFilter* filter = nullptr) const;
  /// Sends a hash of what every stage of every collision step left behind to `log` (null:
  /// none; not owned): the bodies' state, the solver's entries, and the stage's own results
  /// (pairs, contact cache, islands). Costs a pass over the bodies per stage. Two runs that
  /// should be identical part at the first differing line (state/DeterminismLog.h).
  void set_determinism_log(DeterminismLog* log) { determinism_log_ = log; }

  /// Restores the parts `recorder` holds: the next update() continues exactly as the saved
  /// world would have (same bits). With a validating recorder, compares instead and changes
  /// nothing; the error names the first difference. An error (not an Atoll state, another
  /// format version, truncated or corrupted, saved from a world with other bodies or
  /// constraints) leaves the world unchanged. Between updates. Restoring a state of every part
  /// (StateParts::all) ends an interruption (is_interrupted); one of fewer parts does not.
  Status restore_state(const StateRecorder& recorder);

  /// Takes a rollback snapshot into `snapshot` (replacing what it held; its buffers are reused):
  /// the whole world — the body set with its IDs, the broadphase, the constraints and the
  /// contact cache (state/WorldSnapshot.h). In memory only. Between updates: called while
  /// update steps the world, or on an interrupted one (is_interrupted), an error naming the
  /// call, and `snapshot` is left as it was.
  Status save_snapshot(WorldSnapshot& snapshot) const;
  /// Makes the world exactly the one `snapshot` was taken of, whatever bodies and constraints
  /// were created, destroyed, added, removed or changed since: same IDs, and the next update()
  /// gives the bits it would have given then. Fires no events (the activation events buffered
  /// since the last update are dropped). Error, world unchanged: the snapshot is empty, was
  /// taken of another PhysicsSystem, or holds a constraint now in another world. Between
  /// updates. Ends an interruption (is_interrupted).
  Status restore_snapshot(const WorldSnapshot& snapshot);

 private:
  // The error of `call` on an interrupted world (is_interrupted).
  static Error interrupted_error(const char* call);
  // BodyListener: keep the broadphase in sync with the body interface.
  void on_added(const Body& body) override;
  void on_removed(const Body& body) override;
  void on_moved(const Body& body) override;
  void on_layer_changed(const Body& body, ObjectLayer old_layer) override;
  void on_shape_changed(const Body& body) override;
  void on_motion_type_changed(const Body& body, MotionType old_type) override;
  void on_quarantine_released(const Body& body) override;
  Status check_object_layer(ObjectLayer layer) const override;
  // SoftBodyCreator: BodyInterface::create_soft_body.
  Result<BodyID> create_soft_body(const SoftBodyCreationSettings& settings,
                                  const char* call) override;

  // One collision step of length dt (the stage list); `last` is true for the last one of the
  // update.
  void step(float dt, bool last, int collision_step, UpdateResult& result);
  // Stage find_pairs (with the max_body_pairs cap).
  void find_pairs();
  // Stage build_islands, what runs beside the linking (build_islands' `beside`).
  void beside_island_linking();
  // Stage write_back, last part: quarantines the bodies write_back listed as non-finite.
  void quarantine_non_finite();
  // Stage update_bounds.
  void update_bounds(float dt);
  void deliver_events();
  // The parts of the world a saved state walks.
  WorldStateRefs state_refs();
  // The determinism log's hash after `stage`.
  uint64_t stage_hash(Stage stage);

  std::unique_ptr<DefaultLayers> default_layers_;
  BodyManager body_manager_;
  BodyInterface body_interface_;
  BroadPhase broadphase_;
  ContactConstraintManager contact_manager_;
  ConstraintManager constraint_manager_;
  SoftBodyManager soft_body_manager_;
  PhysicsSettings settings_;
  PhysicsSystemSettings system_settings_;
  ContactListener* contact_listener_ = nullptr;
  BodyActivationListener* activation_listener_ = nullptr;
  ConstraintListener* constraint_listener_ = nullptr;
  std::vector<BodyActivationEvent> activation_events_;
  // The layer filters the broadphase was built with (CCD queries it with the same rules).
  const ObjectVsBroadPhaseLayerFilter* object_vs_broadphase_filter_ = nullptr;
  const ObjectLayerPairFilter* object_layer_pair_filter_ = nullptr;
  uint64_t step_count_ = 0;
  // Set while update's steps run and left set when an exception leaves them: the bodies, the
  // contact cache and the constraints are then part-way through a step, a state no stage
  // expects to start from and no save should record (update).
  bool interrupted_ = false;
  DeterminismLog* determinism_log_ = nullptr;

  // The step's scratch: cleared, not freed, so that a warmed-up step does not allocate.
  StepContext ctx_;
};

}  // namespace atl
