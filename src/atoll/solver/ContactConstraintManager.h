#pragma once
// The contact solver of seed 000: sequential impulses with warm starting, friction solved
// before non-penetration, restitution and speculative contacts as velocity targets, and a
// separate Baumgarte position pass that keeps `penetration_slop` of overlap.
// A pair with rolling resistance or torsional friction (ContactSettings, > 0) also gets angular
// rows about the contact tangents / normal, bounded by coefficient × the manifold's normal
// impulse; a pair with neither sets up no extra row.
//
// It also owns the contact cache that carries impulses from one step to the next: each step's
// manifolds are stored per body pair (keyed by stable body identities), so that next step
//  - a body pair whose relative transform barely changed reuses its manifolds without running
//    the narrow phase (body-pair cache), and
//  - a new contact point within `contact_point_preserve_lambda_max_dist` of last step's point
//    starts from last step's impulses (warm start).
// Every list here is filled in the order the caller adds pairs and read back in that order, so
// the result is deterministic when the caller's order is.

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "atoll/collision/ContactManifold.h"
#include "atoll/constraint/parts/AngularFrictionPart.h"
#include "atoll/constraint/parts/AxisConstraintPart.h"
#include "atoll/constraint/parts/ContactLanes.h"
#include "atoll/constraint/parts/ContactPart.h"
#include "atoll/constraint/parts/FaceContactPart.h"
#include "atoll/constraint/parts/FaceStackPart.h"
#include "atoll/core/FillLaterVector.h"
#include "atoll/core/JobSystem.h"
#include "atoll/core/Prefetch.h"
#include "atoll/core/ReallocVector.h"
#include "atoll/core/StateStream.h"
#include "atoll/solver/PhysicsSettings.h"

namespace atl {

/// What a contact listener may change about a manifold before it is solved.
struct ContactSettings {
  /// Friction coefficient of the pair (default: geometric mean of the bodies').
  float combined_friction = 0.0f;
  /// Restitution of the pair (default: max of the bodies').
  float combined_restitution = 0.0f;
  /// Rolling resistance of the pair (m, default: max of the bodies'): the contact resists the
  /// bodies' relative rolling with a torque of at most this × the normal force.
  float combined_rolling_resistance = 0.0f;
  /// Torsional friction of the pair (m, default: max of the bodies'): the contact resists the
  /// bodies' relative spin about the normal with a torque of at most this × the normal force.
  float combined_torsional_friction = 0.0f;
  /// Sensor contacts report events but take no impulses.
  bool is_sensor = false;
  /// Per-contact scaling of the bodies' inverse mass and inertia.
  InverseMassScales mass_scales;
  /// Velocity (m/s, world) of body 2's surface relative to body 1's at the contact, on top of
  /// the bodies' own motion (a conveyor belt); friction drives the bodies to it. Default zero.
  Vec3 relative_linear_surface_velocity;
  /// Angular velocity (rad/s, world) of body 2's surface relative to body 1's about the body 1
  /// centre of mass (a turntable); friction drives the bodies to it. Default zero.
  Vec3 relative_angular_surface_velocity;

  /// The first field that is non-finite or negative, as "name = value"; empty when all are
  /// valid. A contact listener may set these fields, so the world checks them after it.
  std::string problem() const;
};

/// Linear (m/s) and angular (rad/s) velocity of a body, world space.
struct BodyVelocity {
  Vec3 linear;
  Vec3 angular;
};

/// A body pair as the contact manager sees it this step.
struct ContactBodyPair {
  /// Stable identities of the two bodies (body ID values), key1 < key2, used by the cache.
  uint32_t key1 = 0;
  uint32_t key2 = 0;
  /// Indices of the bodies in this step's SolverBody array.
  uint32_t solver_body1 = 0;
  uint32_t solver_body2 = 0;
};

/// Whether a manifold (body pair + sub-shape pair) is new this step or was there last step.
enum class ContactState : uint8_t { Added, Persisted };

/// A contact that existed last step and is gone now.
struct RemovedContact {
  uint32_t key1;
  uint32_t key2;
  SubShapeID sub_shape_id1;
  SubShapeID sub_shape_id2;
};

class ContactConstraintManager {
 public:
  /// Last step's contacts of one body pair (callers only hold pointers to it:
  /// find_reusable_pair, reuse_body_pair).
  struct CachedPair {
    uint32_t key1 = 0;
    uint32_t key2 = 0;
    uint32_t first_manifold = 0;
    uint32_t num_manifolds = 0;
    // The relative transform when the manifolds were computed, packed (44 bytes a pair instead
    // of 64: two steps' pairs are held, the pyramid's 17 000).
    Float3 position;    // body 2's centre of mass in body 1's frame
    float rotation[4];  // body 1⁻¹ · body 2 (x, y, z, w)
    Vec3 relative_position() const { return Vec3(position); }
    Quat relative_rotation() const {
      return Quat(Vec4(rotation[0], rotation[1], rotation[2], rotation[3]));
    }
    void set_relative_transform(const Vec3& p, const Quat& q) {
      position = p.to_float3();
      rotation[0] = q.x();
      rotation[1] = q.y();
      rotation[2] = q.z();
      rotation[3] = q.w();
    }
  };
  static_assert(sizeof(CachedPair) == 44);
  /// Starts a step of length dt: last step's contacts become the cache that new contacts are
  /// matched against, and the warm-start ratio becomes dt / previous dt (0 with warm start off).
  void begin_step(float dt, const PhysicsSettings& settings);

  /// Body-pair cache: when the pair had contacts last step and body 2 moved relative to body 1
  /// by less than the settings' thresholds, re-adds last step's manifolds (moved with the
  /// bodies) and returns true; the caller then skips the narrow phase for this pair. The
  /// re-added manifolds are appended to `out_manifolds` (for contact events; null: not built)
  /// and their number is stored in `out_num_manifolds` (when not null).
  bool try_reuse_body_pair(const ContactBodyPair& pair, std::span<const SolverBody> bodies,
                           const PhysicsSettings& settings,
                           std::vector<ContactManifold>* out_manifolds = nullptr,
                           uint32_t* out_num_manifolds = nullptr);
  /// What the look-up found out about a reusable pair besides its entry.
  struct ReuseLookup {
    /// The deepest penetration (m) of the reused points where the bodies are now (for
    /// max_penetration).
    float deepest = 0.0f;
    /// The reused manifolds' points, and the manifolds that take part in the solve (not
    /// sensors): what reuse_body_pair_later adds.
    uint32_t num_points = 0;
    uint32_t num_solved = 0;
    /// Where the pair is, or would be, in last step's pairs, reusable or not (set by every
    /// look-up): for seek_previous.
    uint32_t position = 0;
  };
  /// try_reuse_body_pair in two halves, so that the narrow phase can look up pairs in parallel
  /// and add them in order. The look-up: last step's entry of the pair when it can be reused,
  /// else null. `cursor` is the caller's position in last step's pairs (start at 0; look-ups in
  /// ascending key order are fastest). Reads only last step's contacts, which nothing changes
  /// before the next begin_step: callers on several threads, each with its own cursor, may look
  /// up at the same time.
  const CachedPair* find_reusable_pair(const ContactBodyPair& pair,
                                       std::span<const SolverBody> bodies,
                                       const PhysicsSettings& settings, size_t& cursor,
                                       ReuseLookup& out) const;
  /// The addition: re-adds the manifolds of `reused` (from find_reusable_pair this step, with
  /// its `lookup`) for `pair`, as try_reuse_body_pair does.
  void reuse_body_pair(const CachedPair& reused, const ContactBodyPair& pair,
                       std::span<const SolverBody> bodies, const ReuseLookup& lookup,
                       std::vector<ContactManifold>* out_manifolds = nullptr,
                       uint32_t* out_num_manifolds = nullptr);
  /// Places in this step's lists: a pair's entry, its first constraint, and the first of the
  /// manifolds, points and side-list settings a collided pair appends (a reused pair keeps last
  /// step's where they are). Or, as a count, how many of each a run of pairs adds.
  struct Places {
    uint32_t pair = 0;
    uint32_t constraint = 0;
    uint32_t manifold = 0;
    uint32_t point = 0;
    uint32_t setting = 0;
    /// Places past those a run of pairs counted by `counts` adds.
    Places& operator+=(const Places& counts) {
      pair += counts.pair;
      constraint += counts.constraint;
      manifold += counts.manifold;
      point += counts.point;
      setting += counts.setting;
      return *this;
    }
  };
  /// reuse_body_pair in two halves, for a caller that needs no manifolds back: this one, in
  /// order, keeps a place for the pair's entry and places for its constraints (counted by the
  /// look-up of `reused`, `lookup`) and returns them; fill_reused_pair, called later with the
  /// same pair, entry and places, fills them. The fills of different pairs may run at the same
  /// time, on any threads, once every pair of the step is added; until then the places must
  /// not be read (setup and the solve come after the narrow phase). reuse_body_pair is the two
  /// at once, so the entries and constraints come out the same, in the same order, and the
  /// narrow phase's ordered pass only counts and appends: on the pyramid it spent 40 of its
  /// 75 ms reading last step's entries and manifolds and writing the new ones, on the calling
  /// thread.
  Places reuse_body_pair_later(const ContactBodyPair& pair, const ReuseLookup& lookup);
  /// reuse_body_pair_later for a run of pairs at once, collided pairs (fill_collided_pair)
  /// among them: keeps the places `counts` counts (the run's entries, constraints, and its
  /// collided pairs' manifolds, points and settings) and counts `num_points` contact points
  /// (every pair's). Each pair's places follow from next_places() before the call and the
  /// counts of the pairs before it in the run. The pairs' deepest points go to
  /// note_pair_penetration, in pair order.
  void add_later(const Places& counts, uint32_t num_points);
  /// A pair's deepest point (a reused pair's ReuseLookup::deepest, or the deepest of a collided
  /// pair's manifolds), for max_penetration: in pair order among the additions (the first of
  /// equal depths is kept).
  void note_pair_penetration(float deepest, const ContactBodyPair& pair) {
    if (!(deepest > max_penetration_)) return;
    max_penetration_ = deepest;
    max_penetration_keys_ = {pair.key1, pair.key2};
  }
  /// Where the next pair's additions go.
  Places next_places() const {
    return {static_cast<uint32_t>(cache_.pairs.size()), static_cast<uint32_t>(added_.size()),
            static_cast<uint32_t>(cache_.manifolds.size()),
            static_cast<uint32_t>(cache_.points.size()),
            static_cast<uint32_t>(cache_.settings.size())};
  }
  void fill_reused_pair(const CachedPair& reused, const ContactBodyPair& pair,
                        const Places& places);
  /// What add_manifold does for each of a collided pair's `manifolds`, into places kept
  /// before (add_later; nothing else is counted or noted), so that the pairs of a step can be
  /// filled on several threads at once, each into its own places: the pair's entry, its
  /// manifolds (impulses handed down from last step's, which `previous` locates:
  /// ReuseLookup::position of the pair's look-up), points, settings (`contact_settings` for
  /// each) and constraint headers, in the same order and with the same bits.
  /// With `in_place` (fits_in_place said so), the manifolds, points and settings go over last
  /// step's of the pair, and `places` gives only the entry and the constraints.
  void fill_collided_pair(const ContactBodyPair& pair, std::span<const ContactManifold> manifolds,
                          const ContactSettings& contact_settings,
                          std::span<const SolverBody> bodies, const PhysicsSettings& settings,
                          const Places& places, uint32_t previous, bool in_place);
  /// Whether a collided pair's `manifolds` (all with side-list settings when `side_settings`)
  /// may be written over last step's manifolds of the pair (located by `previous`, as in
  /// fill_collided_pair) instead of appended: last step's has as many manifolds, between the
  /// same sub-shapes in the same order, each with at least as many points and the same use of
  /// the side list. The pair then keeps its place in the cache; appended, it left its old
  /// manifolds behind as a gap that end_step's compaction closed by moving everything stored
  /// after it (on the pyramid every other step, 1.6 MB, on the calling thread: the other core
  /// then read its half of the cache from this one's in the next step). Nothing else tells the
  /// two apart: the same sub-shapes are found, nothing is removed, the same impulses are handed
  /// down. For the fill (without a listener) only; the listener's ordered adds append.
  bool fits_in_place(const ContactBodyPair& pair, uint32_t previous,
                     std::span<const ContactManifold> manifolds, bool side_settings) const;
  /// Whether a manifold with these settings keeps them in the cache's side list: any field but
  /// friction and restitution away from its default.
  static bool has_side_settings(const ContactSettings& settings);
  /// Asks for the lines a later fill_reused_pair into `places` writes (core/Prefetch.h,
  /// prefetch_for_write): the entry and the first constraint header.
  void prefetch_reused_places(const Places& places) const {
    prefetch_object_for_write(&cache_.pairs[places.pair]);
    if (places.constraint < added_.size()) prefetch_object_for_write(&added_[places.constraint]);
  }

  /// Moves the serial look-ups' cursor in last step's pairs (had_manifold, add_manifold) to
  /// `position` (ReuseLookup::position of the pair about to be added), so that they find the
  /// pair there instead of searching for it: on 2 threads the search read last step's pairs
  /// where the other core had left them, a few cache lines per collided pair at random. Changes
  /// no result: the look-ups find the same pair from any cursor.
  void seek_previous(uint32_t position) { lookup_cursor_ = position; }
  /// Whether last step had a manifold between these sub-shapes of this pair (so that adding
  /// one now is a "persisted" contact).
  bool had_manifold(const ContactBodyPair& pair, SubShapeID sub_shape_id1,
                    SubShapeID sub_shape_id2) const;

  /// Adds a manifold found by the narrow phase this step. Points that lie within the preserve
  /// distance of a point of last step's manifold with the same sub-shapes inherit its impulses.
  ContactState add_manifold(const ContactBodyPair& pair, const ContactManifold& manifold,
                            const ContactSettings& settings, std::span<const SolverBody> bodies,
                            const PhysicsSettings& settings_for_matching);

  /// Stage 6: Jacobians, effective masses and velocity targets (restitution, speculative).
  /// `before_forces[i]` is solver body i's velocity before this step's gravity and forces
  /// (bodies past its end had none applied); restitution bounces with it. Call after all
  /// manifolds are added and before warm_start.
  /// With `jobs`, contacts are set up in parallel shares (each writes only its own data).
  void setup_velocity_constraints(std::span<const SolverBody> bodies,
                                  std::span<const BodyVelocity> before_forces, float dt,
                                  const PhysicsSettings& settings, JobSystem* jobs = nullptr);
  /// Stage 7: applies last step's impulses × the warm-start ratio to the given constraints.
  void warm_start(std::span<SolverBody> bodies, std::span<const uint32_t> constraints);
  /// Stage 8, iteration `iteration` (0-based) over the given constraints. Returns true when
  /// any impulse was applied (the caller stops iterating when none was).
  bool solve_velocity_constraints(std::span<SolverBody> bodies,
                                  std::span<const uint32_t> constraints, int iteration);
  /// The wide solve (constraint/parts/ContactLanes.h) of contacts that share no movable body —
  /// a parallel split's: eight contacts at once, each as solve_velocity_constraints would solve
  /// it. Blocks of eight lanes are reserved after the islands are split and before setup;
  /// setup_velocity_constraints then sets a reserved contact up straight into its lane (it gets
  /// no scalar constraint; the position solve reads its header, which holds the normal), and
  /// warm_start_lanes, solve_lanes and store_lanes take the place of warm_start,
  /// solve_velocity_constraints and store_applied_impulses for it.
  /// A range of blocks (indices into this step's blocks).
  struct LaneRange {
    uint32_t begin = 0;
    uint32_t end = 0;
  };
  /// The wide solve's plan of a step (IslandSolver.h, plan_wide_contacts), after all manifolds
  /// are added, before setup_velocity_constraints; begin_step forgets it. First begin_lanes
  /// (serial), then on any workers clear_lane_slots over every contact and count_lanes for
  /// each batch of contacts; then, serially, set_num_lane_blocks with the blocks the batches
  /// take; then place_lanes for each batch, on any workers. Lanes take the contacts with
  /// manifold friction, neither rolling resistance nor torsional friction (with `settings`'
  /// friction switches), not stopped by CCD last step, with points; the others are solved one
  /// by one.
  void begin_lanes();
  /// Marks contacts [begin, end) as solved one by one (no lane yet).
  void clear_lane_slots(uint32_t begin, uint32_t end);
  /// How many of `contacts` lanes take; `num_scalar`: how many they do not.
  uint32_t count_lanes(std::span<const uint32_t> contacts, const PhysicsSettings& settings,
                       uint32_t& num_scalar) const;
  /// The number of blocks of this step's plan.
  void set_num_lane_blocks(uint32_t num_blocks);
  /// Puts the contacts of `contacts` that lanes take into the blocks of `range` (as many as
  /// count_lanes' answer needs, eight a block), in order, and writes the others, in order, from
  /// `out_scalar` on. Batches with disjoint contacts and ranges may be placed at the same time.
  void place_lanes(std::span<const uint32_t> contacts, const PhysicsSettings& settings,
                   LaneRange range, uint32_t* out_scalar);
  /// Stage 7 for the blocks of `range`.
  void warm_start_lanes(std::span<SolverBody> bodies, LaneRange range);
  /// Stage 8, iteration `iteration` (0-based) of the blocks of `range`.
  bool solve_lanes(std::span<SolverBody> bodies, LaneRange range, int iteration);
  /// store_applied_impulses for the contacts of the blocks of `range`.
  void store_lanes(LaneRange range);
  /// The direct solve of one island's stack (solver/ContactStackChain.cpp): its contacts from
  /// one end to the other, for each whether it shares a body with the next through its body 2,
  /// the stack's solver part, and scratch. Islands solved at the same time each use their own
  /// (one per worker; a cache line or more each, as they append at the same time).
  struct alignas(64) StackSolve {
    std::vector<uint32_t> chain;
    std::vector<uint8_t> next_via_body2;
    FaceStackPart part;
    std::vector<std::pair<uint32_t, uint32_t>> touches;  // (body, constraint) pairs
    std::vector<std::array<float, 3>> errors;
    std::vector<std::array<float, 3>> impulses;
    std::vector<std::array<float, 2 * FaceContactPart::k_max_points>> lambdas;  // old, new
  };
  /// Stage 8, before the iterations of an island: when the island is a stack that the
  /// settings' stack_solve_* thresholds select, prepares its direct solve in `stack` and
  /// returns true.
  bool prepare_stack(std::span<const SolverBody> bodies, std::span<const uint32_t> constraints,
                     const PhysicsSettings& settings, StackSolve& stack) const;
  /// Whether the island with the contacts `constraints` may be a stack that prepare_stack
  /// takes, judged before setup (prepare_stack also needs every contact to be a face block,
  /// which setup decides): false means prepare_stack will return false.
  bool may_be_stack(std::span<const SolverBody> bodies, std::span<const uint32_t> constraints,
                    const PhysicsSettings& settings, StackSolve& stack) const;

  /// Stage 8, each iteration of that island, before solve_velocity_constraints: solves the
  /// non-penetration of every contact of the stack prepared in `stack` at once (friction as it
  /// stands). Does nothing when the solution would pull at some point. Returns true when
  /// applied.
  bool solve_stack(std::span<SolverBody> bodies, StackSolve& stack);
  /// Copies the accumulated impulses into the cache for next step's warm start.
  void store_applied_impulses(std::span<const uint32_t> constraints);
  /// Stage 11, one position iteration. Returns true when any body was moved.
  bool solve_position_constraints(std::span<SolverBody> bodies,
                                  std::span<const uint32_t> constraints,
                                  const PhysicsSettings& settings);
  /// Ends the step: lists the contacts of last step that were not added again. A body pair of
  /// last step that was not collided at all this step and for which `keep_unseen(key1, key2)`
  /// is true (both bodies asleep) is carried over unchanged — manifolds, points and impulses —
  /// instead of being removed, so that it persists across sleep and warm-starts on waking.
  void end_step(std::vector<RemovedContact>& out_removed,
                const std::function<bool(uint32_t, uint32_t)>& keep_unseen = {});
  /// The part of end_step that needs only this step's pairs, done ahead of it: once every
  /// contact of the step is added (and while other work runs: it reads the cache's pairs and
  /// manifolds and writes only its own list), finds in key order last step's pairs that were
  /// not collided and last step's manifolds that a pair collided again no longer has. end_step
  /// then only decides which unseen pairs carry over and lists the removed contacts, the same
  /// as without it. Skipped (end_step does it) when the pairs are not in key order.
  void find_gone_contacts();

  /// Walks the state that carries from one step to the next apart from the cache
  /// (core/StateStream.h): the previous step's length (warm starts rescale by it) and the
  /// bodies CCD stopped.
  void visit_step_state(StateStream& stream);
  /// Walks the contact cache (core/StateStream.h), pair by pair in key order: each pair's
  /// relative transform, its manifolds (normal, sub-shapes, friction, restitution, impulses,
  /// contact settings) and their points (body-local positions and impulses), so that a restored
  /// world warm-starts exactly as the saved one would. When saving or validating, only the
  /// pairs for which `keep(key1, key2)` is true (all when empty); restoring replaces the whole
  /// cache with the saved pairs (in the stream's restore mode, only if the stream is still ok
  /// at the end).
  void visit_cache_state(StateStream& stream,
                         const std::function<bool(uint32_t, uint32_t)>& keep = {});
  /// The contact cache copied as it is, for a rollback snapshot (state/WorldSnapshot.h): the
  /// same content as visit_cache_state walks, in memory, ~20× faster (pyramid).
  class CacheSnapshot;
  /// Copies the cache into `snapshot` (replacing what it held; its buffers are reused).
  void save_cache(CacheSnapshot& snapshot) const;
  /// Makes the cache what `snapshot` holds (from this world: its pairs name its bodies).
  void restore_cache(const CacheSnapshot& snapshot);

  /// Number of solvable (non-sensor) contact constraints this step.
  uint32_t num_constraints() const { return static_cast<uint32_t>(added_.size()); }
  /// Solver body indices of constraint i (for island building).
  uint32_t constraint_body1(uint32_t i) const { return added_[i].body1; }
  uint32_t constraint_body2(uint32_t i) const { return added_[i].body2; }
  /// Number of contact points this step (all manifolds, sensors included).
  uint32_t num_contact_points() const { return num_points_; }
  /// Deepest penetration (m) among this step's contact points as found by the narrow phase.
  float max_penetration() const { return max_penetration_; }
  /// Body ID values (key1, key2) of the pair with the deepest penetration; (0, 0) when none.
  std::pair<uint32_t, uint32_t> max_penetration_keys() const { return max_penetration_keys_; }
  /// Stage ccd: the body ID values of the bodies CCD stopped this step (any order). Their new
  /// contacts in the next step stop the approach the CCD hit left to them; that impulse is not
  /// warm-started (setup_velocity_constraints).
  void set_ccd_stopped(std::span<const uint32_t> body_keys);
  /// Total normal impulse (N·s) of constraint i this step, summed over its points.
  float total_normal_lambda(uint32_t i) const;
  /// Total friction impulse magnitude (N·s) of constraint i this step.
  float total_friction_lambda(uint32_t i) const;
  /// Friction coefficient of constraint i.
  float friction(uint32_t i) const { return added_[i].friction; }
  /// Between steps: whether the body pair with stable keys key1 < key2 had at least one
  /// manifold (sensor and speculative ones included) in the last step.
  bool had_contact(uint32_t key1, uint32_t key2) const;

 private:
  // The cache holds every contact of a step (the pyramid's 31 500 points), so its records are
  // packed: vectors as Float3, and a manifold's rarely set contact settings in a side list.
  struct CachedPoint {
    Float3 local_on_1;  // relative to body 1's centre of mass, in its rotation frame
    Float3 local_on_2;  // relative to body 2's centre of mass, in its rotation frame
    float normal_lambda = 0.0f;
    float friction_lambda1 = 0.0f;
    float friction_lambda2 = 0.0f;
  };
  struct CachedManifold {
    Float3 local_normal;  // in body 1's rotation frame
    SubShapeID sub_shape_id1;
    SubShapeID sub_shape_id2;
    uint32_t first_point = 0;
    uint32_t num_points = 0;
    float combined_friction = 0.0f;
    float combined_restitution = 0.0f;
    // Index in Cache::settings of the manifold's ContactSettings when any field other than
    // friction and restitution differs from its default (has_side_settings); k_no_settings else.
    uint32_t settings = k_no_settings;
    // Manifold friction (PhysicsSettings::manifold_friction): impulses at the mean point.
    float friction_lambda1 = 0.0f;
    float friction_lambda2 = 0.0f;
    float twist_lambda = 0.0f;
    // Rolling resistance about the tangents (torsional friction shares twist_lambda).
    float rolling_lambda1 = 0.0f;
    float rolling_lambda2 = 0.0f;
  };
  static constexpr uint32_t k_no_settings = ~0u;
  // end_step compacts the cache when more than 1/k_compact_fraction of the manifolds it holds
  // are dropped ones.
  static constexpr uint32_t k_compact_fraction = 32;
  // One list of manifolds, points and settings serves last step and this one: during a step,
  // last step's pairs (previous_pairs_) hold their manifolds where end_step left them, this
  // step's pairs (`pairs`) take them over in place when the body-pair cache reuses them, write
  // new ones over them when they fit (fits_in_place) and append new ones otherwise, and end_step
  // drops what no pair holds (compact) when it adds up. A manifold's points are [first_point,
  // first_point + num_points), a pair's manifolds [first_manifold, first_manifold +
  // num_manifolds), and the three lists are in the same order (a later manifold's points and
  // settings come later). Where this step used to copy every contact into a second cache, the
  // pyramid's contacts took 4.1 MB in two caches; now last step's and the new ones (1.1 to 1.5
  // times one step's, before the pairs collided again wrote over their old ones).
  struct Cache {
    FillLaterVector<CachedPair> pairs;
    // Grown in place (ReallocVector): room for a step's new contacts is made at begin_step,
    // while last step's are in the lists.
    // Unwritten when grown (FillLaterVector), as the pairs: the narrow phase may keep places in
    // them for a collided pair's fill on another thread.
    FillLaterVector<CachedManifold> manifolds;
    FillLaterVector<CachedPoint> points;
    FillLaterVector<ContactSettings> settings;  // see CachedManifold::settings
    // Drops the manifolds (and their points and settings) that no pair of `pairs` holds and
    // closes the gaps, keeping the order; `owner` is scratch.
    void compact(std::vector<uint32_t>& owner);
  };
  // One manifold as the solver sees it. Warm start, every velocity iteration and the position
  // solve stream through these, so they hold only what those read (1088 bytes, where the
  // earlier layout with every row inline took 2416 and the pyramid's 8400 manifolds no longer
  // fit in the cache). What only setup reads (restitution, surface velocities) stays in the
  // cached manifold's settings; rows that only some contacts have live in side lists.
  // What the narrow phase sets when it adds a manifold (make_header); setup copies it into the
  // contact's constraint, applies this step's settings (use_friction, manifold_friction) there
  // and assigns the side rows. Kept apart from the rows so that the narrow phase writes only
  // these small records: writing into the constraints themselves moved their cache lines from
  // the core that set them up and solves them to the caller's and back, which made the narrow
  // phase slower with 2 threads than with 1.
  struct ContactHeader {
    uint32_t body1 = 0;
    uint32_t body2 = 0;
    uint32_t num_points = 0;
    uint32_t cache_manifold = 0;  // index in cache_.manifolds
    uint32_t cache_point = 0;     // first point in cache_.points
    // Index in point_friction_ (manifold friction off) or rolling_ (rolling resistance > 0);
    // k_no_rows when the contact has none. Set in the constraint, by setup.
    uint32_t point_friction = k_no_rows;
    uint32_t rolling = k_no_rows;
    float friction = 0.0f;
    // Torsional friction (m): the twist row also runs without manifold friction, and its bound
    // is the larger of manifold friction's and torsional_friction × Σλ.
    float torsional_friction = 0.0f;
    // Rolling resistance (m): two angular rows about the tangents (rolling_), bounded together
    // by rolling_resistance × Σλ.
    float rolling_resistance = 0.0f;
    bool after_ccd = false;  // a body was stopped by CCD last step (set_ccd_stopped)
    // friction1/2 and twist below, else point_friction_ (set in the constraint, by setup).
    bool manifold_friction = false;
    InverseMassScales mass_scales;
    // Contact normal (world), set by setup; the position solve reads it here, with the fields
    // above, so that it needs neither the large constraint nor one at all (a contact the wide
    // solve takes has none).
    Vec3 normal;
  };
  struct Constraint : ContactHeader {
    bool twist_row = false;  // `twist` is set up (manifold friction, or torsional friction > 0)
    Vec3 tangent1;
    Vec3 tangent2;
    // Each point's non-penetration row (λ ≥ 0), and the part of its impulse that stops a new
    // contact's approach, which is not carried to the next step's warm start.
    AxisConstraintPart normal_rows[k_max_manifold_points];
    float impact_lambda[k_max_manifold_points] = {};
    // Manifold friction: linear rows at the mean contact point, twist about the normal, and
    // each point's distance (m) from the mean point in the contact plane (its twist lever).
    AxisConstraintPart friction1;
    AxisConstraintPart friction2;
    AngularFrictionPart twist;
    float twist_lever[k_max_manifold_points] = {};
    // The points' non-penetration as one block when they form a face (inactive otherwise).
    FaceContactPart face;
  };
  static constexpr uint32_t k_no_rows = ~0u;
  // Bytes of scalar rows below which setup keeps them however few a step needs.
  static constexpr size_t k_rows_worth_giving_back = 256 * 1024;
  // Fewest contacts per share of the parallel setup (core/JobSystem.h, parallel_for_shares).
  static constexpr uint32_t k_setup_share = 256;
  // Per-point friction rows (PhysicsSettings::manifold_friction off), bounded together per
  // point by solve_friction_cone.
  struct PointFrictionRows {
    AxisConstraintPart friction1[k_max_manifold_points];
    AxisConstraintPart friction2[k_max_manifold_points];
  };
  // Rolling resistance rows about the two tangents.
  struct RollingRows {
    AngularFrictionPart rolling1;
    AngularFrictionPart rolling2;
  };

  // This step's entry for a collided `pair` (the last one, or a new one with this step's
  // relative transform; a reused pair's entry is fill_reused_pair's).
  CachedPair& current_pair_for(const ContactBodyPair& pair, std::span<const SolverBody> bodies);
  const CachedPair* find_previous_pair(uint32_t key1, uint32_t key2, size_t& cursor) const;
  const CachedManifold* find_previous_manifold(uint32_t key1, uint32_t key2, SubShapeID id1,
                                               SubShapeID id2) const;
  void add_constraint(const ContactBodyPair& pair, uint32_t manifold_index);
  // Whether a manifold's contact is solved (its settings do not make it a sensor), and its
  // constraint header.
  bool is_solved(const CachedManifold& manifold) const;
  // Writes manifold `index` of the cache, its points from `point_index` on and, unless
  // `settings_index` is k_no_settings, its settings there; `previous` is last step's manifold
  // between the same sub-shapes (null: none), with its points `previous_points`, whose
  // impulses it hands down. Neither may be where it writes.
  void write_manifold(const ContactManifold& manifold, const ContactSettings& contact_settings,
                      const SolverBody& b1, const SolverBody& b2, const CachedManifold* previous,
                      const CachedPoint* previous_points, uint32_t index, uint32_t point_index,
                      uint32_t settings_index, const PhysicsSettings& settings);
  // Last step's manifold of `old_pair` (null: none) between these sub-shapes.
  const CachedManifold* previous_manifold(const CachedPair* old_pair, SubShapeID id1,
                                          SubShapeID id2) const;
  // Writes added_[place] and added_traits_[place].
  void make_header(const ContactBodyPair& pair, uint32_t manifold_index, uint32_t place);
  // Prefetches what the loops over `constraints` read after constraints[k].
  void prefetch_ahead(std::span<const SolverBody> bodies, std::span<const uint32_t> constraints,
                      size_t k) const;
  static bool solve_normals(Constraint& c, SolverBody& b1, SolverBody& b2);
  bool solve_point_friction(Constraint& c, SolverBody& b1, SolverBody& b2);
  static bool solve_manifold_friction(Constraint& c, SolverBody& b1, SolverBody& b2);
  bool solve_contact_torques(Constraint& c, SolverBody& b1, SolverBody& b2);

  // This step's pairs and every manifold either step holds (see Cache), and last step's pairs
  // (sorted by key).
  Cache cache_;
  FillLaterVector<CachedPair> previous_pairs_;
  uint32_t num_points_ = 0;              // contact points added this step (num_contact_points)
  std::vector<uint32_t> kept_pairs_;     // end_step scratch: last step's pairs that carry over
  std::vector<uint32_t> compact_owner_;  // end_step scratch (Cache::compact)
  // find_gone_contacts' list, in last step's pair order: a pair not collided this step
  // (manifold k_not_seen), or a manifold that its pair, collided again, no longer has; and
  // whether it is this step's.
  struct Gone {
    uint32_t pair = 0;
    uint32_t manifold = 0;
  };
  static constexpr uint32_t k_not_seen = 0xffffffffu;
  std::vector<Gone> gone_;
  bool gone_found_ = false;
  uint32_t held_ = 0;  // the manifolds this step's pairs hold (collect_gone)
  // Fills gone_ (the pairs in key order), counts held_ and marks them found.
  void collect_gone();
  // The cursor of the serial look-ups (try_reuse_body_pair, had_manifold, add_manifold) in last
  // step's pairs: the first pair not below the last key asked for. Look-ups only move it (no
  // result depends on it).
  mutable size_t lookup_cursor_ = 0;
  // Whether cache_.pairs' last entry is a pair current_pair_for made, to which the next manifold
  // of the same pair is added; not when it is a reused pair's place (reuse_body_pair_later),
  // whose fields are not written yet (FillLaterVector).
  bool last_pair_open_ = false;
  // This step's contact constraints as added (narrow phase), and as set up: the contacts the
  // scalar solve takes have a constraint, row(index), in the row chunks (the first ones, in
  // contact order; rows past them are kept for the next steps, stale, unless a step needs fewer
  // than half of them: setup_velocity_constraints); those the wide solve takes have none
  // (row_of_ null), their rows live in their lanes.
  FillLaterVector<ContactHeader> added_;
  // What the serial parts of setup need to know of each header, one byte per contact
  // (k_trait_*), so that they do not read the headers: on 2 threads the caller's reads took
  // half of them from the other core, which filled them (plan_wide_contacts and the side-row
  // count: 12 -> 59 ms per 500 pyramid steps against 1 thread).
  FillLaterVector<uint8_t> added_traits_;
  static constexpr uint8_t k_trait_torques = 1;    // rolling resistance or torsional friction
  static constexpr uint8_t k_trait_rolling = 2;    // rolling resistance
  static constexpr uint8_t k_trait_after_ccd = 4;  // ContactHeader::after_ccd
  static constexpr uint8_t k_trait_no_points = 8;  // ContactHeader::num_points == 0
  // The scalar rows live in chunks of k_row_chunk (69 KB), made as a step needs more and kept,
  // as the lane blocks are (below): a row is never copied, and a row is in memory that is
  // touched once. In one vector grown by doubling, every growth zeroed and copied the rows
  // into fresh pages, and a page's first touch costs some 11 µs on this machine kind:
  // convex_vs_mesh, growing to 4 700 rows as its bodies land, took 64 % of its page faults
  // (3 700) and 50 ms of its 500 steps there.
  static constexpr uint32_t k_row_chunk = 64;
  std::vector<std::unique_ptr<Constraint[]>> row_chunks_;
  // Each contact's row (null: in a lane). A pointer rather than the row's number: the solve
  // finds a row with one load, as it did in one vector (with the number and its chunk,
  // convex_vs_mesh's velocity solve read 3-5 % slower in one comparison, within the noise in
  // the next).
  std::vector<Constraint*> row_of_;
  Constraint& row(uint32_t index) { return *row_of_[index]; }
  const Constraint& row(uint32_t index) const { return *row_of_[index]; }
  std::vector<PointFrictionRows> point_friction_;  // filled by setup_velocity_constraints
  std::vector<RollingRows> rolling_;               // filled by setup_velocity_constraints
  // setup_velocity_constraints' shares of the contacts: the first rolling row and the first
  // scalar row of share k.
  std::vector<uint32_t> share_rolling_;
  std::vector<uint32_t> share_rows_;
  std::vector<uint32_t> ccd_stopped_;  // sorted body keys (set_ccd_stopped)
  // The wide solve's blocks this step, the contact in each lane (k_no_rows: empty), and each
  // contact's lane (block × k_width + lane; k_no_rows: solved by the scalar solve). Empty when
  // no block was reserved this step.
  // The blocks live in chunks of k_lane_chunk (197 KB), which are made as the number of blocks
  // grows and kept: no block is ever copied, and the memory held is what the largest step
  // needed. (In one vector grown by doubling and copying, the pyramid's blocks took 18.5 MB at
  // their peak where they need 7; reallocated to fit, freed and grown arrays fragmented the
  // heap to more.)
  static constexpr uint32_t k_lane_chunk = 32;
  // How many blocks ahead warm_start_lanes and solve_lanes ask for the velocities they will
  // write (ContactLanes::prefetch_velocities), past the end of the range: a split's blocks are
  // numbered in batch order, so the next ones are mostly the next batch of the same share.
  static constexpr uint32_t k_lanes_ahead = 2;
  std::vector<std::unique_ptr<ContactLanes[]>> lane_chunks_;
  ContactLanes& lanes(uint32_t block) {
    return lane_chunks_[block / k_lane_chunk][block % k_lane_chunk];
  }
  const ContactLanes& lanes(uint32_t block) const {
    return lane_chunks_[block / k_lane_chunk][block % k_lane_chunk];
  }
  // lane_items_ and lane_slot_ only grow: a planned step writes every entry it uses, on the
  // workers (plan_wide_contacts), rather than the caller clearing and refilling them.
  std::vector<std::array<uint32_t, ContactLanes::k_width>> lane_items_;
  uint32_t num_lane_blocks_ = 0;
  std::vector<uint32_t> lane_slot_;
  // Whether lane_slot_ holds this step's lanes (begin_lanes); it is as long as this step's
  // contacts then, or longer (entries past them are a larger step's).
  bool lanes_planned_ = false;
  uint32_t lane_slot(uint32_t index) const {
    return lanes_planned_ && index < added_.size() ? lane_slot_[index] : k_no_rows;
  }
  bool takes_lane(uint32_t index, const PhysicsSettings& settings) const;
  // Prefetches what setting up the contacts `items` (or contact `index`) reads besides their
  // headers.
  void prefetch_setup_inputs(std::span<const SolverBody> bodies,
                             const std::array<uint32_t, ContactLanes::k_width>& items) const;
  void prefetch_setup_inputs(std::span<const SolverBody> bodies, uint32_t index) const;
  // The accumulated impulses of contact `index` when the wide solve holds them (false else).
  bool lane_lambdas(uint32_t index, float* normal, float& friction1, float& friction2,
                    float& twist) const;
  // prepare_stack and may_be_stack: with `check_faces`, every contact must be a face block.
  bool find_stack(std::span<const SolverBody> bodies, std::span<const uint32_t> constraints,
                  const PhysicsSettings& settings, StackSolve& stack, bool check_faces) const;
  float warm_start_ratio_ = 1.0f;
  float previous_dt_ = 0.0f;
  float max_penetration_ = 0.0f;
  std::pair<uint32_t, uint32_t> max_penetration_keys_{0, 0};

 public:
  class CacheSnapshot {
   public:
    /// Bytes the copied lists use.
    size_t bytes() const {
      return cache_.pairs.size() * sizeof(CachedPair) +
             cache_.manifolds.size() * sizeof(CachedManifold) +
             cache_.points.size() * sizeof(CachedPoint) +
             cache_.settings.size() * sizeof(ContactSettings);
    }

   private:
    friend class ContactConstraintManager;
    Cache cache_;
  };
};

}  // namespace atl
