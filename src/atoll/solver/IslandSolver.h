#pragma once
// The island stages (DESIGN.md §2 stages 4, 7, 8, 11, 12): islands built from this step's
// contacts, each island solved on its own — warm start, velocity iterations, then (after
// integration and CCD) position iterations, with the island's own step counts — and whole
// islands falling asleep. An island's solve reads the shared immovable solver entries (static,
// kinematic, sleeping bodies) and writes only its own bodies' entries, so islands are solved in
// parallel (solve_velocity, solve_position). In every pass an island's constraints (the constraint
// manager, issue 8 §2) come before its contacts, so that contacts, solved last, hold best.

#include <cstdint>
#include <span>
#include <vector>

#include "atoll/body/BodyManager.h"
#include "atoll/constraint/ConstraintManager.h"
#include "atoll/core/JobSystem.h"
#include "atoll/solver/ContactConstraintManager.h"
#include "atoll/solver/IslandBuilder.h"
#include "atoll/solver/LargeIslandSplitter.h"
#include "atoll/solver/PhysicsSettings.h"
#include "atoll/solver/SolverBodies.h"
#include "atoll/solver/SplitRounds.h"

namespace atl {

/// An island's velocity and position iteration counts (seed 000 §1.3, Jolt's
/// CalculateSolverSteps): the largest override among its bodies and constraints, where an
/// object without an override (0) brings the global setting into the maximum; an island with no
/// object that overrides uses the global settings.
class SolverSteps {
 public:
  /// Counts one object's overrides (0 = none: use the global setting).
  void add(uint32_t velocity_steps_override, uint32_t position_steps_override) {
    velocity_ = std::max(velocity_, velocity_steps_override);
    position_ = std::max(position_, position_steps_override);
    default_velocity_ |= velocity_steps_override == 0;
    default_position_ |= position_steps_override == 0;
  }
  /// Velocity iterations of the island.
  int velocity_steps(const PhysicsSettings& settings) const {
    return resolve(velocity_, default_velocity_, settings.velocity_steps);
  }
  /// Position iterations of the island.
  int position_steps(const PhysicsSettings& settings) const {
    return resolve(position_, default_position_, settings.position_steps);
  }

 private:
  static int resolve(uint32_t max_override, bool any_default, int global) {
    const int value = static_cast<int>(max_override);
    return max_override == 0 || any_default ? std::max(value, global) : value;
  }
  uint32_t velocity_ = 0;
  uint32_t position_ = 0;
  bool default_velocity_ = false;
  bool default_position_ = false;
};

/// The constraints (solve-list positions in ConstraintManager) of each island, in solve order.
struct IslandConstraints {
  /// Constraints of island i.
  std::span<const uint32_t> island_items(uint32_t i) const { return island_items(i, i + 1); }
  /// Constraints of islands first … last − 1, island by island.
  std::span<const uint32_t> island_items(uint32_t first, uint32_t last) const {
    return std::span(items).subspan(begin[first], begin[last] - begin[first]);
  }
  std::vector<uint32_t> begin{0};
  std::vector<uint32_t> items;
  // Scratch: island of each solved constraint.
  std::vector<uint32_t> island_of;
  // Scratch of build_islands: what it read of each of the world's constraints (index order).
  struct Candidate {
    bool solved = false;  // enabled, both bodies present, one of them movable
    uint32_t entry1 = 0;  // solver index of body 1, k_world_entry, or SolverBodies::k_none
    uint32_t entry2 = 0;
    uint32_t slot1 = 0;  // body 1's slot (when it has no solver entry yet)
    uint32_t slot2 = 0;
    ConstraintManager::SolveEntry solve;
  };
  std::vector<Candidate> candidates;
};

/// The step counts of an island with the constraints `constraint_items`: the largest of the
/// constraints' overrides and of its bodies' (which have none yet, so at least the global
/// settings; LAWS.md D7).
/// (Inline: called for every island, thousands a step in highspeed.)
inline SolverSteps island_solver_steps(const ConstraintManager& constraints,
                                       std::span<const uint32_t> constraint_items) {
  SolverSteps steps;
  // The island's bodies: no overrides yet (0), so the global settings are in the maximum.
  steps.add(0, 0);
  for (uint32_t i : constraint_items) {
    const Constraint& c = constraints.solved(i);
    steps.add(c.velocity_steps_override(), c.position_steps_override());
  }
  return steps;
}

/// Before the step's body lists are made: wakes every sleeping dynamic body that an enabled
/// constraint joins to an awake body, until no more wake (a chain wakes whole).
/// The constraints are looked at on every worker of `jobs` first; the waking itself, when one
/// is to wake, runs on the caller.
void wake_constrained_bodies(BodyManager& body_manager, const ConstraintManager& constraints,
                             JobSystem& jobs);

/// Stage build_islands: lists this step's solved constraints (enabled, bodies present, one of
/// them movable; immovable entries created for the others) in solve order, links the movable
/// bodies of every contact and constraint (a static body, a kinematic one or the world links
/// nothing), builds the islands, sorts the constraints into them and stores each moving body's
/// island in its MotionProperties. `body1`/`body2` are scratch for the contacts' bodies. The
/// contacts' bodies are read on every worker of `jobs` and linked on the caller (on every worker
/// with more than two). `beside(beside_context)`
/// runs on another worker while the caller links and builds the islands (after it, with one
/// worker): work that needs the solved constraints and `body1`/`body2`, which are final by
/// then, but not the islands. (A plain function and its context: a step allocates nothing.)
void build_islands(const ContactConstraintManager& contacts, ConstraintManager& constraints,
                   SolverBodies& solver, BodyManager& body_manager, IslandBuilder& islands,
                   IslandConstraints& island_constraints, std::vector<uint32_t>& body1,
                   std::vector<uint32_t>& body2, JobSystem& jobs, void (*beside)(void* context),
                   void* beside_context);

/// The island stages' per-step results and per-worker scratch, kept in the step context so
/// that a warmed-up step allocates nothing.
struct IslandSolveScratch {
  /// Step counts of each island: found by solve_velocity, reused by solve_position.
  std::vector<SolverSteps> steps;
  /// Velocity iterations each island ran.
  std::vector<uint32_t> iterations;
  /// One stack solve per worker (islands solved at the same time each need their own).
  std::vector<ContactConstraintManager::StackSolve> stacks;
  /// Per solver entry: whether its body's sleep test says it may sleep (update_sleep).
  std::vector<uint8_t> ready;
  /// Whether each worker applied an impulse or moved a body in the split pass being run.
  std::vector<uint8_t> worker_changed;
  /// Per island: 1 when it is split and every worker takes part in solving it
  /// (SplitRounds::shares_work), one such island after the other; 0 when one worker solves it
  /// whole (with the islands of the group it leads, LargeIslandSplitter::group_end), beside
  /// the other workers' islands; 2 when it is solved in an earlier island's group. Made by
  /// solve_velocity, reused by solve_position.
  std::vector<uint8_t> on_every_worker;
  /// Per island, the key under which the splitter may group it with its neighbours
  /// (key_island_groups); empty when islands are not grouped.
  std::vector<uint64_t> group_keys;
  /// The islands that one worker solves whole, in contiguous shares of about equal work
  /// (contacts + constraints), one per worker: share k is islands [share_begin[k],
  /// share_begin[k + 1]). Made by solve_velocity, reused by solve_position, so that an island
  /// is solved on the same core in both (core/JobSystem.h, parallel_for_shares).
  std::vector<uint32_t> share_begin;
  /// The wide solve's plan (plan_wide_contacts) for this step's solve_velocity: per island,
  /// the index in wide_split_first_batch of its first split, or k_not_wide (scalar solve); per
  /// split of a planned island, its first batch in wide_batches (a parallel split's batches
  /// are consecutive); per batch, the contacts solved one by one (a range of wide_scalar) and
  /// the blocks of those solved eight at a time.
  static constexpr uint32_t k_not_wide = 0xffffffffu;
  struct WideBatch {
    uint32_t scalar_begin = 0;
    uint32_t scalar_end = 0;
    ContactConstraintManager::LaneRange lanes;
  };
  std::vector<uint32_t> wide_island;
  /// The planned islands, in island order.
  std::vector<uint32_t> wide_planned;
  std::vector<uint32_t> wide_split_first_batch;
  std::vector<WideBatch> wide_batches;
  std::vector<uint32_t> wide_scalar;
  /// The split islands' passes (solve_split_island_velocity, solve_split_island_position), one
  /// per worker: the first runs an island on every worker at once, each runs a worker's split
  /// islands on that worker alone.
  std::vector<SplitRounds> split_rounds;
};

/// Stage split_islands, before the splitter (LargeIslandSplitter::prepare), with
/// use_wide_contact_solver: the key under which each island may be solved in a group of
/// islands, whose contacts then fill the wide solver's lane blocks together (an island of a
/// few bodies alone fills none: its contacts share bodies; one of a few hundred items fills some
/// with its splits of a few dozen). The key is the island's velocity and position step counts,
/// so that a group's islands have the counts each would have alone, and whether it is over the
/// splitter's threshold. An island without contacts, one that the stack solve may take (it works on
/// the island's own rows), one over LargeIslandSplitter::k_max_grouped_island_items items, and,
/// with the splitter off, one over its threshold are solved alone (k_solve_alone). A group
/// iterates until none of its islands applies a significant impulse (the early exit's test, a
/// velocity change over ConstraintRow::k_min_velocity_change, 1e-6 m/s): an island that would
/// have stopped alone iterates on with its group, its further impulses each under that, so it
/// ends within about that of where it ends alone (not always with the same bits). Without the wide
/// solver, no keys: a group's split solve would only reorder its items.
void key_island_groups(const ContactConstraintManager& contacts,
                       const ConstraintManager& constraints, std::span<const SolverBody> bodies,
                       const IslandBuilder& islands, const IslandConstraints& island_constraints,
                       const PhysicsSettings& settings, IslandSolveScratch& scratch);

/// Stage solve_velocity. First the split islands (LargeIslandSplitter) whose splits are large
/// enough to share among the workers (SplitRounds::shares_work), one at a time, every worker
/// taking a share of the batches of each split (solve_split_island_velocity); then every other
/// island, split or not, whole on one worker (a group of small islands with its leader, as
/// one), in one share of islands of about equal work per worker. Islands share no moving body,
/// contact or constraint, and the items of a split share no moving body, so each is solved from
/// its own data and the result is the same bits for any number of workers. Returns the
/// iterations run, summed over the islands in order (a group's islands each count the group's).
uint32_t solve_velocity(ContactConstraintManager& contacts, ConstraintManager& constraints,
                        std::span<SolverBody> bodies, const IslandBuilder& islands,
                        const IslandConstraints& island_constraints,
                        const LargeIslandSplitter& splitter, const PhysicsSettings& settings,
                        JobSystem& jobs, IslandSolveScratch& scratch);

/// Stage solve_position: solve_island_position for every island, as solve_velocity, with the
/// step counts that solve_velocity found and the same splits (seed 001 §4.5).
void solve_position(ContactConstraintManager& contacts, ConstraintManager& constraints,
                    std::span<SolverBody> bodies, const IslandBuilder& islands,
                    const IslandConstraints& island_constraints,
                    const LargeIslandSplitter& splitter, const PhysicsSettings& settings,
                    JobSystem& jobs, IslandSolveScratch& scratch);

/// Stage setup_velocity, before the contacts are set up: with use_wide_contact_solver, plans the
/// wide solve (ContactConstraintManager::begin_lanes … place_lanes) of every split island that
/// cannot be a stack: lanes for the contacts of its parallel splits' batches that lanes take.
/// The plan holds for the next solve_velocity only.
/// The blocks are laid out island by island and, in each, share by share of the workers of
/// `jobs` (share k of every split, then share k + 1), so that setup, which gives each worker one
/// contiguous part of the blocks, writes a block on the core that solves it; worker k plans
/// share k. The bits do not depend on the layout.
void plan_wide_contacts(ContactConstraintManager& contacts, std::span<const SolverBody> bodies,
                        const IslandBuilder& islands, const LargeIslandSplitter& splitter,
                        const PhysicsSettings& settings, JobSystem& jobs,
                        IslandSolveScratch& scratch);

/// Stage solve_velocity for a split island: the warm start in its own pass, split by split
/// (iteration 0, seed 001 §4.4); then each velocity iteration runs the splits in order — a
/// parallel split's batches on every worker of `jobs`, the non-parallel split on one — with the
/// same stack solve (on the calling worker) and early exit as an unsplit island. The last iteration
/// stores each batch's impulses as it solves it; after an early exit a pass of its own stores
/// them (split_velocity_next_round). Returns the iterations run. `worker` picks the scratch
/// (stacks, split_rounds): 0 when `jobs` is every worker, else the worker that runs the island
/// alone (with an InlineJobSystem).
uint32_t solve_split_island_velocity(ContactConstraintManager& contacts,
                                     ConstraintManager& constraints, std::span<SolverBody> bodies,
                                     uint32_t island, std::span<const uint32_t> contact_items,
                                     const IslandSplits& splits, const SolverSteps& steps,
                                     const PhysicsSettings& settings, JobSystem& jobs,
                                     IslandSolveScratch& scratch, uint32_t worker);

/// The rounds of a split island's velocity solve on SplitRounds: round 0 the warm start, rounds
/// 1 … num_rounds − 2 the velocity iterations, round num_rounds − 1 the impulse store. The round
/// after `round`, given whether it applied an impulse: after the last iteration, which stored
/// the impulses itself, none (num_rounds); after an iteration that applied none, the store.
uint32_t split_velocity_next_round(uint32_t round, bool changed, uint32_t num_rounds);

/// Stage solve_position for a split island: each iteration runs the velocity solve's splits in
/// order, as solve_split_island_velocity (`worker` as there), until one moves nothing.
void solve_split_island_position(ContactConstraintManager& contacts, ConstraintManager& constraints,
                                 std::span<SolverBody> bodies, const IslandSplits& splits,
                                 const SolverSteps& steps, const PhysicsSettings& settings,
                                 JobSystem& jobs, IslandSolveScratch& scratch, uint32_t worker);

/// Stage solve_velocity for one island: warm start, then velocity iterations until one applies
/// no impulse or the island's count is reached (seed 000 §1.2), then the impulses are stored for
/// the next step; in each pass constraints come before contacts. Returns the iterations run.
/// `stack` is the worker's scratch.
uint32_t solve_island_velocity(ContactConstraintManager& contacts, ConstraintManager& constraints,
                               std::span<SolverBody> bodies,
                               std::span<const uint32_t> contact_items,
                               std::span<const uint32_t> constraint_items, const SolverSteps& steps,
                               const PhysicsSettings& settings,
                               ContactConstraintManager::StackSolve& stack);

/// Stage solve_position for one island: Baumgarte iterations (constraints, then contacts) until
/// one moves nothing or the island's count is reached.
void solve_island_position(ContactConstraintManager& contacts, ConstraintManager& constraints,
                           std::span<SolverBody> bodies, std::span<const uint32_t> contact_items,
                           std::span<const uint32_t> constraint_items, const SolverSteps& steps,
                           const PhysicsSettings& settings);

/// Stage update_sleep: advances every moving body's sleep test (in the per-body stages' shares
/// on the workers of `jobs`); whole islands whose bodies are all ready fall asleep, in island
/// order, kinematic bodies each on their own. `to_sleep` is scratch.
void update_sleep(BodyManager& body_manager, const IslandBuilder& islands,
                  const SolverBodies& solver, const PhysicsSettings& settings, float dt,
                  JobSystem& jobs, IslandSolveScratch& scratch, std::vector<uint32_t>& to_sleep);

}  // namespace atl
