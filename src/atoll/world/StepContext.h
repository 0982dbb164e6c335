#pragma once
// Everything one collision step produces and consumes (DESIGN.md §1–§2), like Jolt's
// PhysicsUpdateContext::Step or Box2D's b2StepContext: pairs, manifolds, solver bodies, islands,
// CCD bodies, wake lists, events, removed contacts, non-finite bodies. PhysicsSystem owns one
// and hands it to every stage; its buffers are cleared, never freed, so a warmed-up step does
// not allocate.
//
// Where it lives, and how stages see it: dependencies point one way (solver/ may not include
// world/), so the context is defined here, in world/, and is made of pieces defined in the
// areas that own them (SolverBodies and IslandBuilder in solver/, BodyPair and the collectors in
// collision/). A stage in a lower area takes only the pieces it needs as arguments (for example
// solve_island_velocity takes the contact manager, the solver bodies and one island's items),
// which keeps it testable on its own and free of world/; a stage that needs world-level
// knowledge (the contact listener and its events: the narrow phase, CCD, removed contacts) lives
// in world/ and takes the whole context. The context also points at the world's long-lived parts
// (bodies, broadphase, contact cache, settings) for those stages, set by PhysicsSystem before
// each step.

#include <cstdint>
#include <vector>

#include "atoll/body/BodyManager.h"
#include "atoll/collision/broadphase/BodyPair.h"
#include "atoll/collision/broadphase/BroadPhase.h"
#include "atoll/collision/broadphase/BroadPhaseCollector.h"
#include "atoll/collision/narrowphase/ContactCollector.h"
#include "atoll/constraint/ConstraintManager.h"
#include "atoll/solver/ContactConstraintManager.h"
#include "atoll/solver/IslandBuilder.h"
#include "atoll/solver/IslandSolver.h"
#include "atoll/solver/LargeIslandSplitter.h"
#include "atoll/solver/PhysicsSettings.h"
#include "atoll/solver/SolverBodies.h"
#include "atoll/world/ContactListener.h"
#include "atoll/world/UpdateResult.h"

namespace atl {

/// A LinearCast body queued in stage integrate_positions for stage ccd (Jolt's CCDBody).
struct CcdBody {
  static constexpr uint32_t k_no_hit = 0xffffffffu;
  /// Index in the solver-body array.
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

/// Stage narrow_phase: a broadphase pair that passed the filters, and what its collision found.
struct NarrowPhasePair {
  /// Whether the pair passed the filters (admit_pair); the passes after it skip it if not.
  bool admitted = false;
  /// Body 1 has the lower ID (the cache keys on IDs).
  ContactBodyPair pair;
  bool sensor = false;
  /// Whether body 1 and body 2 are dynamic and asleep (admit_pair): a solid contact wakes them.
  bool asleep1 = false;
  bool asleep2 = false;
  /// Last step's contacts of the pair, reused (null: collided, or nothing to reuse).
  const ContactConstraintManager::CachedPair* reused = nullptr;
  /// What the look-up found out about the reused contacts (find_reusable_pair).
  ContactConstraintManager::ReuseLookup reuse;
  /// The manifolds the collision found: [first, first + count) of narrow_workers[worker]
  /// (valid until the next batch of shape tests, collide_round).
  uint32_t worker = 0;
  uint32_t first_manifold = 0;
  uint32_t num_manifolds = 0;
};

/// Stage narrow_phase: what the ordered pass adds for a pair, apart from its NarrowPhasePair,
/// so that it reads 16 bytes a pair instead of 64, most of which the other workers wrote (on 2
/// threads it read the pairs' entries where the look-ups had left them). Written by the
/// look-ups for a reused pair and, when the ordered pass only counts (no listener, no manifold
/// cap), by the shape tests for a collided one; else, for a collided pair, what the ordered
/// pass added. The fill works out each pair's places from them.
struct NarrowPhaseCounts {
  static constexpr uint32_t k_reused = 1u << 31;         // the pair's contacts are reused
  static constexpr uint32_t k_wake1 = 1u << 30;          // solid: body 1 asleep, wakes
  static constexpr uint32_t k_wake2 = 1u << 29;          // the same for body 2
  static constexpr uint32_t k_has_entry = 1u << 28;      // the pair has an entry this step
  static constexpr uint32_t k_collided = 1u << 27;       // counted collided: the fill adds it
  static constexpr uint32_t k_side_settings = 1u << 26;  // each of its manifolds has settings
  static constexpr uint32_t k_in_place = 1u << 25;  // collided: goes over last step's manifolds
  static constexpr uint32_t k_manifolds = k_in_place - 1;
  float deepest = 0.0f;     // the deepest point (reused: ReuseLookup::deepest)
  uint32_t num_points = 0;  // the pair's contact points
  uint32_t num_solved = 0;  // the constraints the pair adds
  uint32_t bits = 0;        // flags above | the pair's manifolds
  bool reused() const { return (bits & k_reused) != 0; }
  bool collided() const { return (bits & k_collided) != 0; }
  bool in_place() const { return (bits & k_in_place) != 0; }
  uint32_t num_entries() const { return (bits & k_has_entry) != 0 ? 1 : 0; }
  uint32_t num_manifolds() const { return bits & k_manifolds; }
};
static_assert(sizeof(NarrowPhaseCounts) == 16);

/// Stage ccd: one worker's candidate list (the bodies a cast may hit). One cache line or more
/// each: the workers fill theirs at once.
struct alignas(64) CcdWorker {
  AllHitsBroadPhaseCollector candidates;
};

/// Stage narrow_phase: one worker's collision scratch and the manifolds it found.
/// One cache line (or more) each: the workers append to their own lists at once.
struct alignas(64) NarrowPhaseWorker {
  AllContactsCollector collector;
  std::vector<ContactManifold> manifolds;
  /// The pairs of look-up share k (in narrow_workers[k], whichever worker ran it) that the
  /// body-pair cache misses, in order: narrow_collide is theirs, share after share.
  std::vector<uint32_t> collide;
  /// What fill share k (in narrow_workers[k]) adds, when the ordered pass only counts: its
  /// places, contact points and manifolds, its first deepest pair, and its pairs that wake a
  /// body, in order.
  ContactConstraintManager::Places fill_places;
  uint32_t fill_points = 0;
  uint32_t fill_manifolds = 0;
  uint32_t fill_deepest_pair = 0;  // narrow_pairs index; the batch's end when none
  float fill_deepest = 0.0f;
  std::vector<uint32_t> fill_wakes;
};

struct StepContext {
  // --- The world's long-lived parts this step reads and changes (set by PhysicsSystem) -------
  BodyManager* body_manager = nullptr;
  BroadPhase* broadphase = nullptr;
  ContactConstraintManager* contacts = nullptr;
  ConstraintManager* constraints = nullptr;
  const PhysicsSettings* settings = nullptr;
  /// Null: no listener.
  ContactListener* contact_listener = nullptr;
  /// The layer filters the broadphase was built with (CCD queries it with the same rules).
  const ObjectVsBroadPhaseLayerFilter* object_vs_broadphase_filter = nullptr;
  const ObjectLayerPairFilter* object_layer_pair_filter = nullptr;
  /// PhysicsSystemSettings caps (0 = none).
  uint32_t max_body_pairs = 0;
  uint32_t max_contact_manifolds = 0;

  // --- This step -------------------------------------------------------------------------------
  /// Length of the collision step (s).
  float dt = 0.0f;
  /// Index of the collision step inside the update.
  int collision_step = 0;
  /// The update's result, which the stages add their counts and problems to.
  UpdateResult* result = nullptr;
  /// Where the parallel stages run their items (the caller's, or an inline one).
  JobSystem* jobs = nullptr;

  /// Stage find_pairs: broadphase pairs of the active bodies.
  std::vector<BodyPair> pairs;
  /// Stage narrow_phase: true when `pairs` holds every broadphase pair of every body in the
  /// solver (no pair dropped by max_body_pairs this update, no body woken this step), so that
  /// stage ccd may take a body's candidates from its pairs.
  bool pairs_complete = false;
  /// Stage gather_solver_bodies on: the solver-body array and its maps.
  SolverBodies solver;
  /// Stage narrow_phase: the pairs of a round that passed the filters, each worker's collision
  /// scratch and manifolds, the manifolds of one pair reused from the cache (for the listener's
  /// events; left empty without a listener).
  std::vector<NarrowPhasePair> narrow_pairs;
  std::vector<uint8_t> needs_entry;  // per narrow pair: a body without a solver entry yet
  std::vector<NarrowPhaseWorker> narrow_workers;
  std::vector<uint32_t> narrow_collide;  // those of narrow_pairs the body-pair cache misses
  // Per narrow pair, what the ordered pass counts (NarrowPhaseCounts); and, without a listener,
  // where each share of a batch's fill starts in this step's contact lists.
  std::vector<NarrowPhaseCounts> narrow_counts;
  std::vector<ContactConstraintManager::Places> narrow_fill_starts;
  size_t narrow_most_wakes = 0;  // the most pairs of a batch that wake a body
  std::vector<ContactManifold> manifolds;
  /// Stage narrow_phase's waking: bodies queued to wake (next round), the round being woken,
  /// their pairs, and per body slot whether its pairs were found this step (WakeState).
  std::vector<uint32_t> wake;
  std::vector<uint32_t> wake_batch;
  std::vector<BodyPair> wake_pairs;
  std::vector<uint8_t> wake_state;
  /// Stage build_islands: the islands, and the body pair of each contact constraint.
  IslandBuilder islands;
  std::vector<uint32_t> constraint_body1;
  std::vector<uint32_t> constraint_body2;
  /// Stage build_islands: the (joint) constraints of each island.
  IslandConstraints island_constraints;
  /// Stages solve_velocity and solve_position: each island's step counts and iterations, each
  /// worker's scratch.
  IslandSolveScratch island_scratch;
  /// Stage split_islands (run with build_islands): the splits of the large islands, used by
  /// the velocity and the position solve.
  LargeIslandSplitter splitter;
  /// Stages integrate_positions and ccd: the bodies to cast, solver index → CCD index (or
  /// SolverBodies::k_none), the resolve order, a cast's broadphase candidates.
  std::vector<CcdBody> ccd_bodies;
  std::vector<uint32_t> ccd_index_of;
  std::vector<uint32_t> ccd_order;
  std::vector<uint32_t> ccd_stopped;  // body ID values CCD stopped this step
  std::vector<CcdWorker> ccd_workers;
  /// Stage ccd, when pairs_complete: each CCD body's pair partners (body slot indices), those
  /// of CCD body k at ccd_partners[ccd_partner_start[k] .. ccd_partner_start[k + 1]).
  std::vector<uint32_t> ccd_partner_start;
  std::vector<uint32_t> ccd_partners;
  /// Stage write_back: moving bodies whose state went non-finite.
  std::vector<NonFiniteBody> non_finite;
  /// Stage finish_contacts: last step's contacts that are gone.
  std::vector<RemovedContact> removed;
  /// Stage update_sleep: bodies that fall asleep.
  std::vector<uint32_t> to_sleep;
  /// Contact events of the whole update (all its collision steps), delivered after it to the
  /// contact listener; not collected without one.
  std::vector<ContactEvent> events;
  /// Constraints broken during the update (all its collision steps), delivered after it.
  std::vector<Ref<Constraint>> broken;
};

/// Per body slot during the narrow phase (StepContext::wake_state).
enum WakeState : uint8_t { k_not_woken = 0, k_wake_queued = 1, k_pairs_found = 2 };

}  // namespace atl
