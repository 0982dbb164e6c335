#pragma once
// The soft bodies of a world (issue 11) and their stage of the step (DESIGN.md §2, 13). A soft
// body is a body of the world: a Body (BodyID, object layer, user data, added or not, destroyed
// like any other) marked Body::is_soft_body, whose pose is its vertices' centre of mass and
// whose bounds are theirs; its vertices live here, in a SoftBody.
//
// Each step, every added soft body (in body-index order, several at once on a job system):
// the rigid bodies whose bounds come near its vertices' (through the broadphase, with its
// object layer's filters) and the bodies its vertices are tied to become its colliders; its
// SoftBody steps; then, in the same order on the calling thread, its Body takes its new centre
// of mass, velocity and bounds, and the impulses its vertices gave dynamic bodies are kept:
// apply_impulses gives them to the bodies (waking them) at the start of the next step, before
// gravity. So a crate hanging from a rope reads a velocity of 0 between steps (the rope's pull
// and gravity cancel within a step) where adding the impulse at once would show g·dt upward.
//
// A soft body sleeps once all its vertices have been slow for a while, and wakes when a rigid
// body near it or tied to it moves (SoftBodySleepSettings); asleep it costs one broadphase
// query per step and gives no impulses.
//
// An added soft body is in the broadphase with its Body's bounds (the world moves its entry
// after this stage), so queries find it (world/WorldQuery.h); find_pairs never pairs it (its
// contacts with rigid bodies are made here). Soft bodies do not collide with each other.

#include <functional>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "atoll/body/BodyManager.h"
#include "atoll/collision/broadphase/BroadPhase.h"
#include "atoll/core/JobSystem.h"
#include "atoll/core/StateStream.h"
#include "atoll/softbody/SoftBody.h"

namespace atl {

/// When soft bodies sleep (the world's PhysicsSettings of the same names).
struct SoftBodySleepSettings {
  bool allow_sleeping = true;
  /// A soft body whose every vertex moved slower than this (m/s) for time_before_sleep (s)
  /// falls asleep: its velocities are zeroed and it is not stepped until a rigid body near it
  /// (or tied to it) moves faster than this.
  float point_velocity_sleep_threshold = 0.03f;
  float time_before_sleep = 0.5f;
};

/// A vertex tied to a rigid body: it follows the point of the body it is at when the soft body
/// is created.
struct SoftBodyTie {
  uint32_t vertex = 0;
  BodyID body;
};

/// What a soft body is made of and how it sits in the world.
struct SoftBodyCreationSettings {
  /// The vertices and constraints (validated at creation; shared, not copied).
  Ref<const SoftBodySettings> settings;
  /// Object layer: which rigid bodies its vertices collide with (the world's filters).
  ObjectLayer object_layer = layers::k_moving;
  uint64_t user_data = 0;
  /// Vertices tied to rigid bodies (each a free vertex, once; the body added and not soft).
  std::vector<SoftBodyTie> ties;
};

/// Sets `linear` (m/s²) and `angular` (rad/s²) to the acceleration the dynamic body `body` had
/// over the rigid part of this step without the soft bodies' impulses (its velocity change from
/// after those impulses to now, over dt): gravity and whatever holds it. Called from several
/// threads at once.
using BodyAccelerationOf = std::function<void(const Body& body, Vec3& linear, Vec3& angular)>;

class SoftBodyManager {
 public:
  /// Checks `settings` before the world creates the soft body's Body: the soft body settings,
  /// the layer's range is the caller's. Error "`call`: …" naming the field.
  Status validate(const SoftBodyCreationSettings& settings, const BodyManager& bodies,
                  const char* call) const;
  /// Takes the soft body of the Body `id` (created, marked soft, not yet added) with validated
  /// settings.
  void add(BodyID id, const SoftBodyCreationSettings& settings, BodyManager& bodies);

  /// The soft body of `id`, or null when `id` names no live soft body.
  const SoftBody* get(BodyID id) const;
  SoftBody* get(BodyID id);
  /// Number of soft bodies (added or not).
  uint32_t size() const { return uint32_t(entries_.size()); }

  /// The stage: steps every added soft body by dt with `step_settings` (gravity included)
  /// against the rigid bodies near it (a dynamic one moving on with `acceleration_of`, zero
  /// when empty), then gives the impulses to the dynamic ones. Soft bodies whose Body was
  /// destroyed are dropped first.
  /// Returns how many soft bodies could not step (a result that was not finite: each stays as
  /// it was).
  uint32_t update(float dt, const SoftBodyStepSettings& step_settings,
                  const SoftBodySleepSettings& sleep, BodyManager& bodies,
                  const BroadPhase& broadphase, const ObjectLayerPairFilter& layer_filter,
                  JobSystem* jobs, const BodyAccelerationOf& acceleration_of = {});
  /// Body indices of the added soft bodies the last update saw, ascending: their Bodies took new
  /// bounds.
  std::span<const uint32_t> updated_body_indices() const { return updated_; }
  /// Whether the soft body `id` sleeps (false for an ID that names no soft body).
  bool is_sleeping(BodyID id) const;
  /// Wakes the soft body `id` (nothing for an ID that names no soft body, or one awake).
  void wake(BodyID id);
  /// Gives each soft body's Body the centre of mass, mean velocity and bounds of its vertices
  /// (after a restore changed them).
  void sync_bodies(BodyManager& bodies) const;

  /// Gives the dynamic bodies the impulses the soft bodies' last step left for them (waking
  /// them), in body-index order. Bodies gone or no longer dynamic since are skipped.
  void apply_impulses(BodyManager& bodies);

  /// Walks the soft bodies' vertices (positions, velocities) in body-index order, for saved
  /// states (state/WorldState.h): when saving or validating, those for which `keep(id)` is true
  /// (all when empty). A restore finds each by id and checks its vertex count. Then the
  /// impulses waiting for the next step (body ids and impulses).
  void visit_state(StateStream& stream, const std::function<bool(BodyID)>& keep = {});

  /// Every soft body as it is, for a rollback snapshot (state/WorldSnapshot.h).
  class Snapshot;
  void save(Snapshot& snapshot) const;
  void restore(const Snapshot& snapshot);

 private:
  struct Tie {
    uint32_t vertex;
    BodyID body;
    // The point in the body's shape space.
    Vec3 local_point;
  };
  struct Entry {
    BodyID id;
    std::unique_ptr<SoftBody> body;
    std::vector<Tie> ties;
    // The step's scratch: colliders, their bodies' indices, attachments.
    std::vector<SoftBodyCollider> colliders;
    std::vector<uint32_t> collider_bodies;
    std::vector<SoftBodyAttachment> attachments;
    bool failed = false;
    // The sleep test: how long every vertex has been slow (s), and whether it sleeps.
    float sleep_timer = 0.0f;
    bool asleep = false;
  };
  // The entry of `id` (entries_ is in body-index order), or null.
  const Entry* find(BodyID id) const;
  Entry* find(BodyID id) { return const_cast<Entry*>(std::as_const(*this).find(id)); }
  // Drops the entries whose Body is gone.
  void prune(const BodyManager& bodies);
  void step_entry(Entry& entry, float dt, const SoftBodyStepSettings& step_settings,
                  const SoftBodySleepSettings& sleep, const BodyManager& bodies,
                  const BroadPhase& broadphase, const ObjectLayerPairFilter& layer_filter,
                  const BodyAccelerationOf& acceleration_of) const;

  // In body-index order.
  std::vector<Entry> entries_;
  // updated_body_indices().
  std::vector<uint32_t> updated_;
  // Impulses for dynamic bodies, applied at the next step's start; by body index, one entry
  // per body.
  struct Pending {
    BodyID body;
    Vec3 impulse;
    Vec3 angular_impulse;
  };
  std::vector<Pending> pending_;

 public:
  class Snapshot {
   public:
    size_t bytes() const;

   private:
    friend class SoftBodyManager;
    struct Saved {
      BodyID id;
      SoftBody body;
      std::vector<Tie> ties;
      float sleep_timer;
      bool asleep;
    };
    std::vector<Saved> saved_;
    std::vector<Pending> pending_;
  };
};

}  // namespace atl
