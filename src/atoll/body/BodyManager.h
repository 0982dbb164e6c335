#pragma once
// Owns every body. Bodies sit in chunked contiguous storage (ChunkedArray: chunks of 256,
// never moved) indexed by BodyID::index(); destroyed slots go on a free list and are reused
// (LIFO, so reuse is deterministic) with a bumped sequence number. Moving bodies'
// MotionProperties sit in a second chunked array, also with a free list. Storage grows without
// limit, and a Body* or MotionProperties* stays valid until that body is destroyed (constraints
// and contacts may keep them across creation). An optional user cap (max_bodies) turns creation
// past it into an error instead.
//
// The active list is a dense array of body indices; each active body stores its position in it,
// so activation and deactivation are O(1) (deactivation swaps the last entry into the hole).
// Its order therefore depends on the order of calls, which is deterministic for a given
// sequence of calls; sort_active_bodies() puts it in body-index order when that matters (e.g.
// after activations that came from several threads).
//
// Not thread-safe: the world calls it between (or in ordered parts of) steps.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "atoll/body/Activation.h"
#include "atoll/body/Body.h"
#include "atoll/body/BodyActivationListener.h"
#include "atoll/body/BodyCreationSettings.h"
#include "atoll/body/ChunkedArray.h"

namespace atl {

/// What the simulation changes in a moving body, as a saved state holds it
/// (state/WorldState.h): the rest of a body (shape, mass, friction, …) is set by the user.
struct BodyState {
  Vec3 com_position;
  Quat rotation;
  Vec3 linear_velocity;
  Vec3 angular_velocity;
  /// Force and torque accumulated for the next step.
  Float3 force;
  Float3 torque;
  bool active = false;
  bool quarantined = false;
  MotionProperties::SleepTestSphere sleep_test_spheres[MotionProperties::k_num_sleep_test_points];
  float sleep_test_timer = 0.0f;
};

/// The settings a body's MotionProperties take from its BodyCreationSettings. A static body has
/// no MotionProperties, so the manager keeps these for it when they are not the defaults (given
/// at its creation, or its own when it was made static) and gives them back when
/// set_motion_type makes it move: a LinearCast bullet frozen and thawed stays LinearCast.
struct MotionSettings {
  float linear_damping = BodyCreationSettings().linear_damping;
  float angular_damping = BodyCreationSettings().angular_damping;
  float max_linear_velocity = BodyCreationSettings().max_linear_velocity;
  float max_angular_velocity = BodyCreationSettings().max_angular_velocity;
  float gravity_factor = BodyCreationSettings().gravity_factor;
  MotionQuality motion_quality = BodyCreationSettings().motion_quality;
  AllowedDOFs allowed_dofs = BodyCreationSettings().allowed_dofs;
  bool allow_sleeping = BodyCreationSettings().allow_sleeping;

  static MotionSettings of(const BodyCreationSettings& settings);
  static MotionSettings of(const MotionProperties& motion);
  /// Writes these into `settings`' motion fields.
  void apply(BodyCreationSettings& settings) const;
  bool operator==(const MotionSettings&) const = default;
};

/// Everything a BodyManager holds, copied for a rollback snapshot (state/WorldSnapshot.h):
/// every slot's body (its shape by reference, material, pose, flags), the slots' sequence
/// numbers and free list (the ID allocator), the motion properties with their free list, the
/// motion settings kept for static bodies, and the active list in its order. Move-only, so that
/// bodies are never copied by accident; saving into a used one reuses its buffers.
class BodySetSnapshot {
 public:
  BodySetSnapshot() = default;
  BodySetSnapshot(BodySetSnapshot&&) noexcept = default;
  BodySetSnapshot& operator=(BodySetSnapshot&&) noexcept = default;

  /// Bytes the copied arrays use.
  size_t bytes() const;
  /// True until a body set is saved into it.
  bool empty() const { return owner_ == nullptr; }

 private:
  friend class BodyManager;
  // The manager's identity (BodyManager::identity_): held, so that no later manager can have
  // the same one while this snapshot exists.
  std::shared_ptr<const int> owner_;
  std::vector<Body> bodies_;
  std::vector<CollisionGroup> collision_groups_;
  std::vector<uint8_t> sequences_;
  std::vector<uint32_t> free_body_slots_;
  std::vector<MotionProperties> motion_properties_;
  std::vector<MotionProperties*> free_motion_properties_;
  std::vector<std::pair<uint32_t, MotionSettings>> parked_motion_settings_;
  std::vector<uint32_t> active_;
  uint32_t num_bodies_ = 0;
};

class BodyManager {
 public:
  /// max_bodies value that means "no cap" (the default).
  static constexpr uint32_t k_no_limit = 0;

  /// A manager with an optional cap on the number of live bodies (k_no_limit: none).
  explicit BodyManager(uint32_t max_bodies = k_no_limit) : max_bodies_(max_bodies) {}
  BodyManager(const BodyManager&) = delete;
  BodyManager& operator=(const BodyManager&) = delete;

  /// Cap on the number of live bodies, or k_no_limit.
  uint32_t max_bodies() const { return max_bodies_; }
  /// Changes the cap; a cap below the current count only blocks further creation.
  void set_max_bodies(uint32_t max_bodies) { max_bodies_ = max_bodies; }

  // --- The step's lock -----------------------------------------------------------------------

  /// Held by PhysicsSystem::update while its steps run. The step holds lists of the bodies and
  /// pointers into them; a change made then (from a step-time callback: a contact listener's
  /// on_contact_validate, on_contact_added or on_contact_persisted, a layer or group filter; or
  /// from another thread) would pull them from under it, so every call that changes the world
  /// is refused meanwhile (as Box2D v3 refuses calls while its world is locked). begin_step
  /// takes the lock, or returns the error for `call` when it is held already (an update inside
  /// or beside an update).
  Status begin_step(const char* call);
  void end_step() { stepping_.store(false, std::memory_order_release); }
  bool is_stepping() const { return stepping_.load(std::memory_order_acquire); }
  /// Ok, or the error for `call` made while the world steps.
  Status check_not_stepping(const char* call) const;

  // --- Creation and lookup ------------------------------------------------------------------

  /// Validates `settings` and creates a body (not added to the simulation, inactive).
  Result<BodyID> create_body(const BodyCreationSettings& settings);
  /// Makes a body that is not added the body of a soft body (Body::is_soft_body): activate()
  /// leaves it alone, so no rigid stage sees it.
  void mark_soft_body(Body& body) {
    ATOLL_ASSERT(!body.is_added(), "mark a soft body before adding it");
    body.set_flag(Body::k_flag_soft_body, true);
  }
  /// Gives the body of a soft body its vertices' centre of mass (m), mean velocity (m/s) and
  /// bounds (m, radius included); rotation identity.
  void set_soft_body_motion(Body& body, const Vec3& center_of_mass, const Vec3& velocity,
                            const AABox& bounds) {
    ATOLL_ASSERT(body.is_soft_body() && body.motion_ != nullptr);
    body.com_position_ = center_of_mass;
    body.rotation_ = Quat();
    body.world_bounds_ = bounds;
    body.motion_->linear_velocity_ = velocity;
  }
  /// Destroys a body, removing it from the simulation first if needed; its ID becomes stale.
  Status destroy_body(BodyID id);
  /// The body, or nullptr for an invalid, destroyed or stale ID.
  Body* get(BodyID id);
  const Body* get(BodyID id) const;
  /// The body, or an Error "`call`: id: …" saying why the ID does not name one.
  Result<Body*> lookup(BodyID id, const char* call);
  Result<const Body*> lookup(BodyID id, const char* call) const;

  // --- Simulation membership and activation (unchecked: the caller validated the body) ------

  /// Marks the body as part of the simulation; activates it when asked (unless static).
  void add_body(Body& body, Activation activation);
  /// Takes the body out of the simulation (deactivating it, velocities kept).
  void remove_body(Body& body);
  /// Puts an added, non-static body in the active list and restarts its sleep test (also when
  /// it is already active, so that it stays awake for time_before_sleep). No-op when
  /// quarantined.
  void activate(Body& body);
  /// Takes a body out of the active list, zeroes its velocities and accumulated forces (a
  /// sleeping body is at rest) and clears its island index. No-op when inactive.
  void deactivate(Body& body);
  /// Quarantines a body whose state went non-finite (DESIGN.md §7): restores the centre of
  /// mass `com_position` (m) and `rotation` it had before, bit for bit, deactivates it and
  /// flags it, so that activate() ignores it until release_quarantine(). The world takes it
  /// out of the broadphase.
  void quarantine(Body& body, const Vec3& com_position, const Quat& rotation);
  /// Clears the quarantine flag; the body stays inactive.
  void release_quarantine(Body& body) { body.set_flag(Body::k_flag_quarantined, false); }

  /// The state of a moving (not static) body.
  BodyState body_state(const Body& body) const;
  /// Sets a moving body's state exactly as given (no clamping, no sleep-test restart, world
  /// bounds refreshed), activating or deactivating it without an activation event: for
  /// restoring a saved state. The caller moves its broadphase entry.
  void set_body_state(Body& body, const BodyState& state);
  /// Copies the whole body set into `snapshot` (replacing what it held).
  void save_body_set(BodySetSnapshot& snapshot) const;
  /// Makes the body set exactly what `snapshot` holds — slots, IDs, free lists, every body's
  /// fields and motion, the active list — whatever was created, destroyed or changed since;
  /// the bodies keep their addresses (slot storage never moves). Bodies created since are gone
  /// (their IDs stale), destroyed ones are back under their old IDs. No events; the activation
  /// events buffered since the last update are dropped (they describe a discarded past). The
  /// caller restores the broadphase with it. `snapshot` must come from this manager.
  void restore_body_set(const BodySetSnapshot& snapshot);
  /// Whether `snapshot` was saved from this manager.
  bool saved(const BodySetSnapshot& snapshot) const { return snapshot.owner_ == identity_; }
  /// Changes the motion type: gives a body that stops being static MotionProperties (at rest,
  /// mass from its shape and override mass, and the MotionSettings it had when it was made
  /// static or was created static with: the defaults when none), frees them when it becomes
  /// static (deactivating it, keeping its MotionSettings). Dynamic needs a shape with mass (or
  /// an override) and a DOF: the caller checks.
  void set_motion_type(Body& body, MotionType motion_type);
  /// The body's MotionSettings: its MotionProperties' when it has them, else those kept for it
  /// while static (the defaults when none).
  MotionSettings motion_settings(const Body& body) const;
  /// Replaces the shape keeping position() (the shape origin) fixed; the centre of mass moves
  /// with the new shape's. Recomputes mass and inertia (scaled to the override mass, if any)
  /// and the world bounds.
  void set_shape(Body& body, Ref<const Shape> shape);
  /// Sets the object layer, chosen: it no longer follows the motion type.
  void set_object_layer(Body& body, ObjectLayer layer) {
    body.object_layer_ = layer;
    body.set_flag(Body::k_flag_default_object_layer, false);
  }
  /// Moves a body whose layer is the default of its motion type (has_default_object_layer) to
  /// `layer`, the default of its new motion type; the layer keeps following the motion type.
  void set_default_object_layer(Body& body, ObjectLayer layer) { body.object_layer_ = layer; }
  /// The collision group of the body in slot `index` (a live body).
  const CollisionGroup& collision_group(uint32_t index) const { return collision_groups_[index]; }
  /// Sets the collision group.
  void set_collision_group(const Body& body, CollisionGroup group) {
    collision_groups_[body.id_.index()] = std::move(group);
  }
  /// Whether the collision groups of two bodies let them collide.
  bool groups_collide(const Body& a, const Body& b) const {
    return collision_groups_[a.id_.index()].can_collide(collision_groups_[b.id_.index()]);
  }

  // --- Iteration ----------------------------------------------------------------------------

  /// Number of live bodies.
  uint32_t num_bodies() const { return num_bodies_; }
  /// Number of slots (live and free); body indices are below this.
  uint32_t num_slots() const { return bodies_.size(); }
  /// The body in slot `index`, or nullptr for a free slot or an index past the end. Inline:
  /// the narrow phase asks for two bodies per pair (1.3 % of convex_vs_mesh's step out of line).
  Body* body_at_slot(uint32_t index) {
    if (index >= bodies_.size() || !bodies_[index].id().is_valid()) return nullptr;
    return &bodies_[index];
  }
  const Body* body_at_slot(uint32_t index) const {
    return const_cast<BodyManager*>(this)->body_at_slot(index);
  }
  /// Where slot `index` (< num_slots()) is stored, live or free, without reading it: for a
  /// prefetch ahead of a loop that will (core/Prefetch.h).
  const Body* slot_address(uint32_t index) const { return &bodies_[index]; }
  /// Calls f(Body&) for every live body in index order.
  template <class F>
  void for_each_body(F&& f) {
    for (uint32_t i = 0; i < bodies_.size(); ++i)
      if (bodies_[i].id_.is_valid()) f(bodies_[i]);
  }
  template <class F>
  void for_each_body(F&& f) const {
    for (uint32_t i = 0; i < bodies_.size(); ++i)
      if (bodies_[i].id_.is_valid()) f(bodies_[i]);
  }
  /// IDs of all live bodies, in index order.
  std::vector<BodyID> body_ids() const;

  /// Indices of the active bodies (order: see the file comment).
  std::span<const uint32_t> active_bodies() const { return active_; }
  uint32_t num_active_bodies() const { return uint32_t(active_.size()); }
  /// Sorts the active list by body index (deterministic, independent of activation order).
  void sort_active_bodies();

  // --- Activation events (BodyActivationListener.h) -----------------------------------------

  /// Whether changes of the active state are buffered (off by default: nobody listens).
  void set_record_activation_events(bool record);
  /// The changes buffered since the last take_activation_events, in the order they happened.
  std::span<const BodyActivationEvent> activation_events() const { return activation_events_; }
  /// Moves the buffered changes into `out` (replacing its contents) and empties the buffer.
  void take_activation_events(std::vector<BodyActivationEvent>& out);

 private:
  // PhysicsSystem::update's steps are running (begin_step).
  std::atomic<bool> stepping_{false};
  // The error of a call made while the world steps.
  static Error stepping_error(const char* call);
  MotionProperties* allocate_motion_properties();
  void release_motion_properties(MotionProperties* motion);
  void init_motion_properties(Body& body, const BodyCreationSettings& settings);
  // Keeps `settings` for the static body in `slot` (nothing when they are the defaults).
  void park_motion_settings(uint32_t slot, const MotionSettings& settings);
  // The settings kept for `slot` (the defaults when none), no longer kept.
  MotionSettings unpark_motion_settings(uint32_t slot);

  void remove_from_active_list(Body& body);

  // Tells this manager's snapshots from others' (a pointer to the manager could be reused by a
  // later one at the same address).
  std::shared_ptr<const int> identity_ = std::make_shared<const int>(0);
  ChunkedArray<Body> bodies_;
  // Per slot, beside the bodies rather than in them: Body keeps its hot data in two cache lines
  // (static_assert in Body.h), and the group is read once per candidate pair.
  std::vector<CollisionGroup> collision_groups_;
  // Sequence number of each slot, kept while the slot is free so that reuse can bump it.
  std::vector<uint8_t> sequences_;
  std::vector<uint32_t> free_body_slots_;
  ChunkedArray<MotionProperties> motion_properties_;
  // Addresses are stable, so the free list can hold them directly.
  std::vector<MotionProperties*> free_motion_properties_;
  // The MotionSettings of static bodies that are not the defaults, by slot, in slot order (few:
  // bodies created static with motion settings, and moving bodies made static).
  std::vector<std::pair<uint32_t, MotionSettings>> parked_motion_settings_;
  std::vector<uint32_t> active_;
  std::vector<BodyActivationEvent> activation_events_;
  bool record_activation_events_ = false;
  uint32_t num_bodies_ = 0;
  uint32_t max_bodies_ = k_no_limit;
};

}  // namespace atl
