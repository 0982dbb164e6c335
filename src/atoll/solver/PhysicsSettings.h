#pragma once
// Simulation settings. They live in solver/ because the solver reads them and may not include
// world/ (dependencies point one way); the world owns an instance. Each field's default is its
// in-class initializer: the one source of truth (Jolt's defaults, so that the seeds' figures can be
// compared; DESIGN.md §3).

#include "atoll/core/Result.h"
#include "atoll/math/Vec3.h"

namespace atl {

/// Largest |component| of PhysicsSettings::gravity (m/s², about 10 000 g).
inline constexpr float k_max_gravity = 1.0e5f;

struct PhysicsSettings {
  /// Gravity (m/s²); each component within ±k_max_gravity.
  Vec3 gravity{0.0f, -9.81f, 0.0f};
  /// Velocity solver iterations per step (1 … k_max_solver_steps = 10000, in
  /// constraint/Constraint.h; islands may raise it per constraint).
  int velocity_steps = 10;
  /// Position solver iterations per step (0 … k_max_solver_steps).
  int position_steps = 2;
  /// Fraction of the position error corrected per position iteration (0..1).
  float baumgarte = 0.2f;
  /// Apply last step's impulses at the start of the velocity solve.
  bool warm_start = true;
  /// Penetration (m) the position solver leaves alone, so that resting contacts persist.
  float penetration_slop = 0.02f;
  /// Pairs closer than this (m) get speculative contacts.
  float speculative_contact_distance = 0.02f;
  /// Also give a pair a speculative contact when it is further apart than
  /// speculative_contact_distance but its surfaces approach fast enough to close the gap within
  /// this step (their relative speed × dt). Default false (Jolt, LAWS.md A7): a discrete body
  /// faster than speculative_contact_distance per step sinks up to one step's motion into what
  /// it hits (a crate landing at 15 m/s: 232 mm); true stops it at the surface. Such a far
  /// contact is kept only when the shapes, flown freely to the end of the step, meet (else a
  /// ball skimming 3 cm over a box's edge at 30 m/s was thrown up). Costs a larger-separation
  /// query and an end-of-step query for fast pairs only. Not in Jolt.
  bool speculative_contacts_from_velocity = false;
  /// Largest position correction (m) per position iteration.
  float max_penetration_distance = 0.2f;
  /// Contact points within this distance (m) of last step's keep their impulses.
  float contact_point_preserve_lambda_max_dist = 0.01f;
  /// Contact-normal cos tolerance: manifolds whose normals agree this well are merged.
  float contact_normal_cos_max_delta_rotation = 0.99619469809f;  // cos(5°)
  /// Points of one manifold closer than this (m) to the contact plane are kept.
  float manifold_tolerance = 1.0e-3f;
  /// Body-pair cache reuse: max relative translation (m²) since the manifold was computed.
  float body_pair_cache_max_delta_position_sq = 1.0e-6f;
  /// Body-pair cache reuse: cos of half the max relative rotation since it was computed.
  float body_pair_cache_cos_max_delta_rotation_div2 = 0.99984769515f;  // cos(2°/2)
  /// LinearCast bodies are cast when they move more than this × inner radius in a step.
  float linear_cast_threshold = 0.75f;
  /// LinearCast hits leave at most min(penetration_slop, this × inner radius) of penetration.
  float linear_cast_max_penetration = 0.25f;
  /// Seconds a body must be still before it may sleep.
  float time_before_sleep = 0.5f;
  /// Max speed (m/s) of a body's test points for it to count as still.
  float point_velocity_sleep_threshold = 0.03f;
  /// Let bodies (whole islands) fall asleep.
  bool allow_sleeping = true;
  /// Split islands with more than 128 contacts + constraints (LargeIslandSplitter) into
  /// groups of items that share no movable body, solved group after group (and, with threads,
  /// each group's items in parallel); the position solve reuses the groups. Default true
  /// (Jolt's default, DESIGN.md §3). Islands of at most 128 items are solved exactly as with
  /// false (bit-identical). The trade-off: a split island's items are solved in another fixed
  /// order, so a large chaotic pile follows a different (equally deterministic) trajectory than
  /// with false, and on one thread the split costs a little time that only threads win back.
  bool use_large_island_splitter = true;
  /// Solve the contacts of a split island's parallel splits eight at a time in SIMD lanes
  /// (constraint/parts/ContactLanes.h; a split's contacts share no moving body). Each lane does
  /// what the scalar solve does, but rounds differently (the compiler fuses other multiply-adds),
  /// so a split island follows another, equally deterministic, trajectory than with false. Only
  /// contacts with manifold friction and neither rolling resistance nor torsional friction take
  /// lanes; islands that are not split, the non-parallel split and stack-solved islands stay
  /// scalar. Default true: faster. False: the scalar solve everywhere.
  bool use_wide_contact_solver = true;
  /// Results bit-identical for any thread count and job system. Every stage is deterministic by
  /// construction (items in fixed ranges, merged in item order; core/JobSystem.h), at no cost a
  /// non-deterministic mode could save, so validate() refuses false.
  bool deterministic_simulation = true;
  /// Below this approach speed (m/s) restitution is ignored (contacts come to rest).
  float min_velocity_for_restitution = 1.0f;
  /// Solve the friction constraints of contacts.
  bool use_friction = true;
  /// Friction once per manifold at its mean contact point — 2 linear rows bounded by μ·Σλ and
  /// 1 angular row about the normal bounded by μ·Σ(r·λ) (Jolt 5.6) — instead of a Coulomb
  /// cone per contact point (false). Default true: exact spin-down, less pyramid drift, faster.
  bool manifold_friction = true;
  /// Solve a face contact's non-penetration (3–4 coplanar points, a box on a box) as one
  /// block — push and two tilts, constraint/parts/FaceContactPart.h — instead of point by
  /// point (false: Jolt's sequential points). Default true: point by point lets the first
  /// corner take more of the load, and the built-in ten-box tower leans 115 mm within 10 s
  /// (0.0001 mm with the block). The stack solve (stack_solve_*) works on the blocks. Not in Jolt.
  bool face_contact_block = true;
  /// Run the position (Baumgarte) solver on contacts.
  bool use_position_solver_for_contacts = true;
  /// An island that is a single stack of face contacts (each moving body touches at most two
  /// others, no loops) with at least this many moving bodies has its non-penetration solved
  /// directly, all contacts at once, in every velocity iteration (0: never). Not in Jolt.
  int stack_solve_min_bodies = 12;
  /// Such a stack is also solved directly when two stacked bodies' masses differ by at least
  /// this factor (0: never). Not in Jolt.
  float stack_solve_min_mass_ratio = 50.0f;

  /// Soft bodies' sub-steps per collision step (1–1000; softbody/SoftBody.h): more resolves
  /// fast motion and contacts better at a proportional cost; compliance keeps its meaning (it
  /// is scaled by the real sub-step h²).
  int soft_body_substeps = 4;
  /// Soft bodies' constraint iterations per sub-step (1–1000): more converges long chains of
  /// constraints (a rope, cloth) further at a proportional cost; a lone constraint is solved in
  /// one, and λ carried across them keeps a compliant rope as soft (LAWS.md G1).
  int soft_body_iterations = 4;

  /// Checks every field (finite, in range); the error names the first bad field, e.g.
  /// "PhysicsSettings.velocity_steps: must be >= 1, got 0".
  Status validate() const;
};

}  // namespace atl
