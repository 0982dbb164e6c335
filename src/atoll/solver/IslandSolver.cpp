#include "atoll/solver/IslandSolver.h"

#include <algorithm>
#include <atomic>

namespace atl {

namespace {

// The body of a constraint if it is present in the world (added, not destroyed); null for the
// world and for a body that is gone.
const Body* constraint_body(const BodyManager& body_manager, BodyID id) {
  if (id == Constraint::k_world) return nullptr;
  const Body* body = body_manager.get(id);
  return body != nullptr && body->is_added() ? body : nullptr;
}

// True when the body of `id` is present, or `id` is the world.
bool is_present(const BodyManager& body_manager, BodyID id) {
  return id == Constraint::k_world || constraint_body(body_manager, id) != nullptr;
}

// The body `c` wakes: when enabled and joining a present awake body to a present sleeping one
// that activate() makes active (dynamic, not quarantined, not a soft body's), the sleeping one;
// otherwise null.
const Body* body_to_wake(const BodyManager& body_manager, const Constraint& c) {
  if (!c.is_enabled()) return nullptr;
  const Body* a = constraint_body(body_manager, c.body1());
  const Body* b = constraint_body(body_manager, c.body2());
  if (a == nullptr || b == nullptr || a->is_active() == b->is_active()) return nullptr;
  const Body& asleep = a->is_active() ? *b : *a;
  if (!asleep.is_dynamic() || asleep.is_quarantined() || asleep.is_soft_body()) return nullptr;
  return &asleep;
}

// Fewest constraints in a share of the passes that read every constraint of the world (its
// object and its bodies, some 100 ns when they are not in the core's cache): a share of 256
// is tens of microseconds.
constexpr uint32_t k_min_constraint_share = 256;

}  // namespace

void wake_constrained_bodies(BodyManager& body_manager, const ConstraintManager& constraints,
                             JobSystem& jobs) {
  const std::span<const Ref<Constraint>> all = constraints.constraints();
  // Most steps wake nothing: the workers look for a constraint that would wake a body, each in
  // a share of them, and only when one is found does the caller wake them, in order.
  std::atomic<bool> any{false};
  parallel_for_shares(jobs, static_cast<uint32_t>(all.size()), k_min_constraint_share,
                      [&](uint32_t begin, uint32_t end, uint32_t) {
                        for (uint32_t k = begin; k < end; ++k)
                          if (body_to_wake(body_manager, *all[k]) != nullptr) {
                            any.store(true, std::memory_order_relaxed);
                            return;
                          }
                      });
  if (!any.load(std::memory_order_relaxed)) return;
  // Until none wakes: a body woken by a later constraint may wake one of an earlier.
  bool woke = true;
  while (woke) {
    woke = false;
    for (const Ref<Constraint>& c : all) {
      if (const Body* asleep = body_to_wake(body_manager, *c)) {
        body_manager.activate(*body_manager.body_at_slot(asleep->id().index()));
        woke = true;
      }
    }
  }
}

void build_islands(const ContactConstraintManager& contacts, ConstraintManager& constraints,
                   SolverBodies& solver, BodyManager& body_manager, IslandBuilder& islands,
                   IslandConstraints& island_constraints, std::vector<uint32_t>& body1,
                   std::vector<uint32_t>& body2, JobSystem& jobs, void (*beside)(void* context),
                   void* beside_context) {
  // This step's constraints: a constraint with no movable body has nothing to move. Each
  // constraint is read once, by a worker (the solve left each in the cache of the core that
  // solved it: on 2 threads, joint_grid's 20 000 read on the caller took 1.7 times as long as
  // on 1); then the caller lists the solved ones in index order and makes the immovable solver
  // entries their bodies lack, in that order (the order of first uses fixes the solver array).
  const std::span<const Ref<Constraint>> all = constraints.constraints();
  std::vector<IslandConstraints::Candidate>& candidates = island_constraints.candidates;
  candidates.resize(all.size());
  const BodyManager& bodies_read = body_manager;
  const auto movable = [&solver](BodyID id) {
    if (id == Constraint::k_world) return false;
    const uint32_t s = solver.index_of[id.index()];
    return s != SolverBodies::k_none && solver.movable[s] != 0;
  };
  const auto known_entry = [&solver](BodyID id) {
    return id == Constraint::k_world ? ConstraintManager::k_world_entry
                                     : solver.index_of[id.index()];
  };
  parallel_for_shares(jobs, static_cast<uint32_t>(all.size()), k_min_constraint_share,
                      [&](uint32_t begin, uint32_t end, uint32_t) {
                        for (uint32_t k = begin; k < end; ++k) {
                          const Constraint& c = *all[k];
                          IslandConstraints::Candidate& out = candidates[k];
                          out.solved = c.is_enabled() && is_present(bodies_read, c.body1()) &&
                                       is_present(bodies_read, c.body2()) &&
                                       (movable(c.body1()) || movable(c.body2()));
                          if (!out.solved) continue;
                          out.entry1 = known_entry(c.body1());
                          out.entry2 = known_entry(c.body2());
                          out.slot1 = c.body1().index();
                          out.slot2 = c.body2().index();
                          out.solve = ConstraintManager::solve_entry(c);
                        }
                      });
  constraints.begin_step();
  for (uint32_t k = 0; k < all.size(); ++k) {
    const IslandConstraints::Candidate& c = candidates[k];
    if (!c.solved) continue;
    // One of the two is movable and so has its entry: at most one is made here.
    const uint32_t entry1 =
        c.entry1 != SolverBodies::k_none ? c.entry1 : solver.index_for(body_manager, c.slot1);
    const uint32_t entry2 =
        c.entry2 != SolverBodies::k_none ? c.entry2 : solver.index_for(body_manager, c.slot2);
    constraints.push_solved(all[k].get(), entry1, entry2, c.solve);
  }
  constraints.sort_solved();

  islands.begin(solver.movable);
  const uint32_t n = contacts.num_constraints();
  body1.resize(n);
  body2.resize(n);
  // The contacts' bodies are read in shares of the contacts on several workers: the narrow
  // phase made their headers in the same order, in shares too, so each worker mostly reads what
  // its core wrote (on the caller alone, the 2-thread pyramid read them 6 ms slower per 500
  // steps than 1 thread did). Linking them on every worker too (link_concurrent) makes every
  // worker climb to the same roots: on 2 workers the pyramid's links (one island) took 28 ms
  // per 500 steps there against 15 on the caller after the shared read, and many_pyramids'
  // build_islands 90 against 70 ms. So up to k_serial_link_workers workers link on the caller,
  // without atomics; with more, the shares link as they read, as before (whether that still
  // pays at 3 or more workers is not measured: the machines here have 2 cores).
  constexpr uint32_t k_link_share = 1024;
  constexpr uint32_t k_serial_link_workers = 2;
  const bool concurrent = jobs.num_workers() > k_serial_link_workers &&
                          Shares(jobs.num_workers(), n, k_link_share).shares > 1;
  parallel_for_shares(jobs, n, k_link_share, [&](uint32_t begin, uint32_t end, uint32_t) {
    for (uint32_t i = begin; i < end; ++i) {
      body1[i] = contacts.constraint_body1(i);
      body2[i] = contacts.constraint_body2(i);
      if (concurrent) islands.link_concurrent(body1[i], body2[i]);
    }
  });
  const uint32_t m = constraints.num_solved();
  const auto link_and_build = [&] {
    if (!concurrent)
      for (uint32_t i = 0; i < n; ++i) islands.link(body1[i], body2[i]);
    for (uint32_t i = 0; i < m; ++i) {
      const uint32_t a = constraints.solved_body1(i);
      const uint32_t b = constraints.solved_body2(i);
      if (a != ConstraintManager::k_world_entry && b != ConstraintManager::k_world_entry)
        islands.link(a, b);
    }
    islands.finish(body1, body2);

    // Each constraint goes to the island of its movable body, keeping the solve order.
    const uint32_t num_islands = islands.num_islands();
    IslandConstraints& ic = island_constraints;
    ic.begin.assign(num_islands + 1, 0);
    ic.island_of.resize(m);
    for (uint32_t i = 0; i < m; ++i) {
      const uint32_t a = constraints.solved_body1(i);
      const uint32_t b = constraints.solved_body2(i);
      const uint32_t s = a != ConstraintManager::k_world_entry && solver.movable[a] != 0 ? a : b;
      ic.island_of[i] = islands.island_of_body(s);
      ++ic.begin[ic.island_of[i] + 1];
    }
    for (uint32_t i = 0; i < num_islands; ++i) ic.begin[i + 1] += ic.begin[i];
    ic.items.resize(m);
    // Fill with a moving cursor per island (island_of is reused as the cursor's source).
    for (uint32_t i = 0; i < m; ++i) ic.items[ic.begin[ic.island_of[i]]++] = i;
    for (uint32_t i = num_islands; i > 0; --i) ic.begin[i] = ic.begin[i - 1];
    ic.begin[0] = 0;
  };
  // The linking and the island lists on the caller (they read what it read above, with
  // k_serial_link_workers), `beside` on the next worker.
  parallel_for(jobs, 2, 1, [&](uint32_t first, uint32_t last, uint32_t) {
    for (uint32_t task = first; task < last; ++task) {
      if (task == 0)
        link_and_build();
      else
        beside(beside_context);
    }
  });
  // MotionProperties::island_index: this step's island of each moving body (kinematic: none),
  // in the per-body stages' shares (each core writes the bodies it wrote in apply_forces).
  parallel_for_shares(jobs, static_cast<uint32_t>(solver.moving.size()), k_body_share,
                      [&](uint32_t begin, uint32_t end, uint32_t) {
                        for (uint32_t k = begin; k < end; ++k) {
                          const uint32_t s = solver.moving[k];
                          body_manager.body_at_slot(solver.source[s])
                              ->motion_properties()
                              ->set_island_index(solver.movable[s] ? islands.island_of_body(s)
                                                                   : MotionProperties::k_no_island);
                        }
                      });
}

uint32_t solve_island_velocity(ContactConstraintManager& contacts, ConstraintManager& constraints,
                               std::span<SolverBody> bodies,
                               std::span<const uint32_t> contact_items,
                               std::span<const uint32_t> constraint_items, const SolverSteps& steps,
                               const PhysicsSettings& settings,
                               ContactConstraintManager::StackSolve& stack_solve) {
  if (contact_items.empty() && constraint_items.empty()) return 0;
  constraints.warm_start(bodies, constraint_items);
  contacts.warm_start(bodies, contact_items);
  // A tall or lopsided stack also gets its non-penetration solved directly after every
  // contact-wise pass (ContactStackChain.cpp), so that the velocities the bodies move with
  // leave no contact of the stack tilting or sinking; the early exit follows the pass.
  const bool stack = contacts.prepare_stack(bodies, contact_items, settings, stack_solve);
  const int count = steps.velocity_steps(settings);
  uint32_t iterations = 0;
  for (int step = 0; step < count; ++step) {
    ++iterations;
    bool applied = constraints.solve_velocity_constraints(bodies, constraint_items);
    applied |= contacts.solve_velocity_constraints(bodies, contact_items, step);
    if (stack) contacts.solve_stack(bodies, stack_solve);
    if (!applied) break;
  }
  contacts.store_applied_impulses(contact_items);
  return iterations;
}

void solve_island_position(ContactConstraintManager& contacts, ConstraintManager& constraints,
                           std::span<SolverBody> bodies, std::span<const uint32_t> contact_items,
                           std::span<const uint32_t> constraint_items, const SolverSteps& steps,
                           const PhysicsSettings& settings) {
  const bool solve_contacts = settings.use_position_solver_for_contacts && !contact_items.empty();
  if (!solve_contacts && constraint_items.empty()) return;
  const int count = steps.position_steps(settings);
  for (int step = 0; step < count; ++step) {
    bool moved =
        constraints.solve_position_constraints(bodies, constraint_items, settings.baumgarte);
    if (solve_contacts)
      moved |= contacts.solve_position_constraints(bodies, contact_items, settings);
    if (!moved) break;
  }
}

namespace {

// Whether the stack solve may take island `i` (ContactStackChain.cpp): its contacts are a
// chain, each moving body joining at most two of them, so it has at most one contact more than
// moving bodies (the pyramid, 8400 contacts on 1240 bodies, is not).
bool may_be_stack(const ContactConstraintManager& contacts, std::span<const SolverBody> bodies,
                  const IslandBuilder& islands, uint32_t i, const PhysicsSettings& settings,
                  ContactConstraintManager::StackSolve& stack) {
  const std::span<const uint32_t> items = islands.island_items(i);
  return items.size() <= islands.island_bodies(i).size() + 1 &&
         contacts.may_be_stack(bodies, items, settings, stack);
}

}  // namespace

void key_island_groups(const ContactConstraintManager& contacts,
                       const ConstraintManager& constraints, std::span<const SolverBody> bodies,
                       const IslandBuilder& islands, const IslandConstraints& island_constraints,
                       const PhysicsSettings& settings, IslandSolveScratch& scratch) {
  scratch.group_keys.clear();
  if (!settings.use_wide_contact_solver) return;
  if (scratch.stacks.empty()) scratch.stacks.resize(1);
  const uint32_t count = islands.num_islands();
  scratch.group_keys.resize(count);
  // The step counts, and whether the island is over the splitter's threshold: small and
  // larger islands are never in one run, so that the small islands' groups are the same with
  // the splitter on and off (LAWS.md C2).
  const auto key_of = [](int velocity_steps, int position_steps, bool large) {
    return uint64_t{static_cast<uint32_t>(velocity_steps)} << 33 |
           uint64_t{static_cast<uint32_t>(position_steps)} << 1 | (large ? 1u : 0u);
  };
  const size_t most_items = settings.use_large_island_splitter
                                ? LargeIslandSplitter::k_max_grouped_island_items
                                : LargeIslandSplitter::k_large_island_threshold;
  for (uint32_t i = 0; i < count; ++i) {
    const size_t num_contacts = islands.island_items(i).size();
    const std::span<const uint32_t> items = island_constraints.island_items(i);
    const size_t num_items = num_contacts + items.size();
    uint64_t& key = scratch.group_keys[i];
    key = LargeIslandSplitter::k_solve_alone;
    // An island without contacts brings no lanes (most of highspeed's 5 000 islands, bodies in
    // flight: keying them cost 60 µs a step).
    if (num_contacts == 0 || num_items > most_items ||
        (num_contacts >= 2 &&
         may_be_stack(contacts, bodies, islands, i, settings, scratch.stacks[0])))
      continue;
    const SolverSteps steps = island_solver_steps(constraints, items);
    key = key_of(steps.velocity_steps(settings), steps.position_steps(settings),
                 num_items > LargeIslandSplitter::k_large_island_threshold);
  }
}

namespace {

// Cuts the islands into at most `workers` contiguous shares of about equal work (an island's
// contacts + constraints + 1; the islands solved on every worker count nothing, they are solved
// before): share k is islands [share_begin[k], share_begin[k + 1]). A share smaller than
// k_min_share_work items is not worth a core (waking a worker and moving the islands' data to
// it costs more).
void plan_island_shares(const IslandBuilder& islands, const IslandConstraints& island_constraints,
                        const LargeIslandSplitter& splitter,
                        std::span<const uint8_t> on_every_worker, uint32_t workers,
                        std::vector<uint32_t>& share_begin) {
  constexpr uint64_t k_min_share_work = 128;
  const uint32_t count = islands.num_islands();
  // A group's work is its leader's.
  const auto work = [&](uint32_t i) -> uint64_t {
    if (on_every_worker[i] != 0) return 0;
    const uint32_t end = splitter.group_end(i);
    return islands.island_items(i, end).size() + island_constraints.island_items(i, end).size() + 1;
  };
  uint64_t total = 0;
  for (uint32_t i = 0; i < count; ++i) total += work(i);
  const uint64_t most = std::max<uint64_t>(1, total / k_min_share_work);
  const uint32_t shares = static_cast<uint32_t>(std::min<uint64_t>(std::max(workers, 1u), most));
  share_begin.assign(1, 0);
  uint64_t done = 0;
  uint32_t i = 0;
  for (uint32_t k = 1; k < shares; ++k) {
    // Share k starts at the first island whose middle lies past k/shares of the work, and a
    // share left empty is dropped: an island of most of the work stays in the first share, on
    // the caller, as it did when split islands were all solved on the caller. (Cut at the first
    // island past k/shares, a pile of 16 ragdolls, one island, left share 0 empty and went to
    // whichever worker took range 1.)
    const uint64_t target = total * k / shares;
    while (i < count && done + work(i) / 2 <= target) done += work(i++);
    if (i != share_begin.back()) share_begin.push_back(i);
  }
  if (count != share_begin.back()) share_begin.push_back(count);
}

// Runs `solve(island, worker)` for every island that one worker solves whole, one share of
// scratch.share_begin (plan_island_shares) per range, so that an island is solved on the same
// core by the velocity and the position solve.
template <class Solve>
void for_each_island_on_one_worker(JobSystem& jobs, const IslandSolveScratch& scratch,
                                   Solve&& solve) {
  const uint32_t shares = static_cast<uint32_t>(scratch.share_begin.size() - 1);
  parallel_for(jobs, shares, 1, [&](uint32_t first, uint32_t last, uint32_t worker) {
    for (uint32_t i = scratch.share_begin[first]; i < scratch.share_begin[last]; ++i)
      if (scratch.on_every_worker[i] == 0) solve(i, worker);
  });
}

// A group's islands have its leader's step counts (key_island_groups) and ran its iterations.
void copy_to_group(IslandSolveScratch& scratch, uint32_t leader, uint32_t end) {
  for (uint32_t i = leader + 1; i < end; ++i) {
    scratch.steps[i] = scratch.steps[leader];
    scratch.iterations[i] = scratch.iterations[leader];
  }
}

// The shares of a split's batches are SplitRounds' (plan_wide_contacts lays the lanes out by
// them, so that each worker finds its share's blocks where setup wrote them).
constexpr uint32_t k_min_share_batches = SplitRounds::k_min_share_batches;

// Runs `pass(b)` for each batch b of split `s` and returns whether any call returned true: on
// the caller in order for the non-parallel split or one worker (in order, the batches are the
// split's constraints and then its contacts), else a parallel split's batches on every worker
// (its items share no moving body, so the order does not matter).
template <class Pass>
bool run_split_batches(const IslandSplits& splits, uint32_t s, JobSystem& jobs,
                       IslandSolveScratch& scratch, Pass&& pass) {
  const uint32_t num_batches = splits.num_batches(s);
  if (splits.is_non_parallel(s) || jobs.num_workers() == 1) {
    bool changed = false;
    for (uint32_t b = 0; b < num_batches; ++b) changed |= pass(b);
    return changed;
  }
  std::fill(scratch.worker_changed.begin(), scratch.worker_changed.end(), 0);
  // One contiguous share of the split's batches per worker (parallel_for_shares): a parallel
  // split's contacts are in body order (LargeIslandSplitter), so share k of every split and every
  // iteration touches much the same bodies, which stay in one core's cache. Handed out one by
  // one, a body's constraints moved between cores from split to split, and 2 threads ran the
  // pyramid slower than 1 (64.9 vs 71.5 steps/s; with shares 83.8 vs 75.6). The items of a
  // split share no moving body, so any division gives the same bits.
  parallel_for_shares(jobs, num_batches, k_min_share_batches,
                      [&](uint32_t begin, uint32_t end, uint32_t worker) {
                        bool changed = false;
                        for (uint32_t b = begin; b < end; ++b) changed |= pass(b);
                        if (changed) scratch.worker_changed[worker] = 1;
                      });
  bool changed = false;
  for (uint8_t c : scratch.worker_changed) changed |= c != 0;
  return changed;
}

}  // namespace

void plan_wide_contacts(ContactConstraintManager& contacts, std::span<const SolverBody> bodies,
                        const IslandBuilder& islands, const LargeIslandSplitter& splitter,
                        const PhysicsSettings& settings, JobSystem& jobs,
                        IslandSolveScratch& scratch) {
  scratch.wide_island.assign(islands.num_islands(), IslandSolveScratch::k_not_wide);
  scratch.wide_split_first_batch.clear();
  scratch.wide_batches.clear();
  scratch.wide_scalar.clear();
  scratch.wide_planned.clear();
  if (!settings.use_wide_contact_solver || splitter.split_islands().empty()) return;
  if (scratch.stacks.empty()) scratch.stacks.resize(1);
  for (uint32_t i : splitter.split_islands()) {
    const IslandSplits splits = splitter.island(i);
    // The stack solve works on the contacts' own rows: an island it may take stays scalar (a
    // group holds none).
    if (splitter.group_end(i) == i + 1 &&
        may_be_stack(contacts, bodies, islands, i, settings, scratch.stacks[0]))
      continue;
    scratch.wide_island[i] = static_cast<uint32_t>(scratch.wide_split_first_batch.size());
    scratch.wide_planned.push_back(i);
    const uint32_t first_batch = static_cast<uint32_t>(scratch.wide_batches.size());
    uint32_t num_batches = 0;
    for (uint32_t s = 0; s < splits.num_splits(); ++s) {
      scratch.wide_split_first_batch.push_back(first_batch + num_batches);
      if (!splits.is_non_parallel(s)) num_batches += splits.num_batches(s);
    }
    scratch.wide_batches.resize(first_batch + num_batches);
  }
  if (scratch.wide_planned.empty()) return;

  // The blocks island by island and, in each, share by share, as run_split_batches divides each
  // split's batches among the workers (parallel_for_shares): share k of every split, then
  // share k + 1. `visit(splits, s, b, batch)` for every batch of share `share` of `island`.
  const uint32_t num_workers = jobs.num_workers();
  const auto for_each_batch = [&](uint32_t island, uint32_t share, auto&& visit) {
    const IslandSplits splits = splitter.island(island);
    for (uint32_t s = 0; s < splits.num_splits(); ++s) {
      if (splits.is_non_parallel(s)) continue;
      const Shares division(num_workers, splits.num_batches(s), k_min_share_batches);
      if (share >= division.shares) continue;
      const uint32_t first = scratch.wide_split_first_batch[scratch.wide_island[island] + s];
      for (uint32_t b = division.begin(share); b < division.end(share); ++b)
        visit(splits, s, b, scratch.wide_batches[first + b]);
    }
  };
  // Worker k counts the lane and scalar contacts of share k's batches (held in each batch's
  // lanes.end and scalar_end until they are numbered) and clears its part of the lane slots;
  // then the blocks and scalar lists are numbered in layout order, and worker k places share
  // k's contacts. On the caller alone the plan read the contacts' traits, which
  // the narrow phase wrote on both cores, and wrote lines that setup read on both: on the
  // 2-thread pyramid it took 45 Mcycles per 500 steps against 14 on one thread, and setup_velocity
  // took 626 ms per 500 steps against 615 now (medians of 6 alternating 2-thread runs).
  contacts.begin_lanes();
  const uint32_t num_contacts = contacts.num_constraints();
  parallel_for(jobs, num_workers, 1, [&](uint32_t first_share, uint32_t last_share, uint32_t) {
    for (uint32_t share = first_share; share < last_share; ++share) {
      contacts.clear_lane_slots(
          static_cast<uint32_t>(uint64_t{num_contacts} * share / num_workers),
          static_cast<uint32_t>(uint64_t{num_contacts} * (share + 1) / num_workers));
      for (uint32_t i : scratch.wide_planned)
        for_each_batch(i, share,
                       [&](const IslandSplits& splits, uint32_t s, uint32_t b,
                           IslandSolveScratch::WideBatch& batch) {
                         uint32_t num_scalar = 0;
                         batch.lanes.end = contacts.count_lanes(splits.batch(s, b).contacts,
                                                                settings, num_scalar);
                         batch.scalar_end = num_scalar;
                       });
    }
  });
  uint32_t num_blocks = 0;
  uint32_t num_scalar = 0;
  for (uint32_t i : scratch.wide_planned)
    for (uint32_t share = 0; share < num_workers; ++share)
      for_each_batch(
          i, share,
          [&](const IslandSplits&, uint32_t, uint32_t, IslandSolveScratch::WideBatch& batch) {
            const uint32_t lanes = batch.lanes.end;
            batch.lanes.begin = num_blocks;
            num_blocks += (lanes + ContactLanes::k_width - 1) / ContactLanes::k_width;
            batch.lanes.end = num_blocks;
            batch.scalar_begin = num_scalar;
            num_scalar += batch.scalar_end;
            batch.scalar_end = num_scalar;
          });
  contacts.set_num_lane_blocks(num_blocks);
  scratch.wide_scalar.resize(num_scalar);
  parallel_for(jobs, num_workers, 1, [&](uint32_t first_share, uint32_t last_share, uint32_t) {
    for (uint32_t share = first_share; share < last_share; ++share)
      for (uint32_t i : scratch.wide_planned)
        for_each_batch(i, share,
                       [&](const IslandSplits& splits, uint32_t s, uint32_t b,
                           IslandSolveScratch::WideBatch& batch) {
                         contacts.place_lanes(splits.batch(s, b).contacts, settings, batch.lanes,
                                              scratch.wide_scalar.data() + batch.scalar_begin);
                       });
  });
}

uint32_t split_velocity_next_round(uint32_t round, bool changed, uint32_t num_rounds) {
  const uint32_t store = num_rounds - 1;
  // The last iteration (round store − 1, when there are iterations) stored the impulses.
  if (round >= 1 && round + 1 == store) return num_rounds;
  const bool iteration = round >= 1 && round < store;
  return iteration && !changed ? store : round + 1;
}

uint32_t solve_split_island_velocity(ContactConstraintManager& contacts,
                                     ConstraintManager& constraints, std::span<SolverBody> bodies,
                                     uint32_t island, std::span<const uint32_t> contact_items,
                                     const IslandSplits& splits, const SolverSteps& steps,
                                     const PhysicsSettings& settings, JobSystem& jobs,
                                     IslandSolveScratch& scratch, uint32_t worker) {
  const uint32_t num_splits = splits.num_splits();
  // The contacts of a planned island's parallel splits are solved eight at a time in lanes
  // (plan_wide_contacts); each batch's contacts have blocks of their own, so a batch stays one
  // job's work in every pass. A planned island is never a stack.
  const uint32_t wide = island < scratch.wide_island.size() ? scratch.wide_island[island]
                                                            : IslandSolveScratch::k_not_wide;
  const auto wide_batch = [&](uint32_t s, uint32_t b) -> const IslandSolveScratch::WideBatch* {
    if (wide == IslandSolveScratch::k_not_wide || splits.is_non_parallel(s)) return nullptr;
    return &scratch.wide_batches[scratch.wide_split_first_batch[wide + s] + b];
  };
  const auto scalar_contacts = [&](const IslandSolveScratch::WideBatch& batch) {
    return std::span<const uint32_t>(scratch.wide_scalar)
        .subspan(batch.scalar_begin, batch.scalar_end - batch.scalar_begin);
  };

  const auto warm_start = [&](uint32_t s, uint32_t b) {
    const SplitBatch batch = splits.batch(s, b);
    constraints.warm_start(bodies, batch.constraints);
    if (const IslandSolveScratch::WideBatch* w = wide_batch(s, b)) {
      contacts.warm_start(bodies, scalar_contacts(*w));
      contacts.warm_start_lanes(bodies, w->lanes);
    } else {
      contacts.warm_start(bodies, batch.contacts);
    }
  };
  const auto solve = [&](uint32_t s, uint32_t b, int iteration) {
    const SplitBatch batch = splits.batch(s, b);
    bool any = constraints.solve_velocity_constraints(bodies, batch.constraints);
    if (const IslandSolveScratch::WideBatch* w = wide_batch(s, b)) {
      any |= contacts.solve_velocity_constraints(bodies, scalar_contacts(*w), iteration);
      any |= contacts.solve_lanes(bodies, w->lanes, iteration);
    } else {
      any |= contacts.solve_velocity_constraints(bodies, batch.contacts, iteration);
    }
    return any;
  };
  // A contact's impulses go to its own cache entries, so a parallel split's batches store them
  // on every worker (on the caller, 3 % of a 2-thread pyramid step waited for it).
  const auto store = [&](uint32_t s, uint32_t b) {
    if (const IslandSolveScratch::WideBatch* w = wide_batch(s, b)) {
      contacts.store_applied_impulses(scalar_contacts(*w));
      contacts.store_lanes(w->lanes);
    } else {
      contacts.store_applied_impulses(splits.batch(s, b).contacts);
    }
  };
  const int count = std::max(0, steps.velocity_steps(settings));

  // The stack solve (a direct solve of the whole island's non-penetration, from the bodies'
  // masses and the face blocks, after every iteration) stays whole-island, on the calling
  // worker, with a run of the job system per split and pass.
  ContactConstraintManager::StackSolve& stack_solve = scratch.stacks[worker];
  if (wide == IslandSolveScratch::k_not_wide &&
      contacts.prepare_stack(bodies, contact_items, settings, stack_solve)) {
    for (uint32_t s = 0; s < num_splits; ++s)
      run_split_batches(splits, s, jobs, scratch, [&](uint32_t b) {
        warm_start(s, b);
        return false;
      });
    uint32_t iterations = 0;
    for (int iteration = 0; iteration < count; ++iteration) {
      ++iterations;
      bool applied = false;
      for (uint32_t s = 0; s < num_splits; ++s)
        applied |= run_split_batches(splits, s, jobs, scratch,
                                     [&](uint32_t b) { return solve(s, b, iteration); });
      contacts.solve_stack(bodies, stack_solve);
      if (!applied) break;
    }
    for (uint32_t s = 0; s < num_splits; ++s)
      run_split_batches(splits, s, jobs, scratch, [&](uint32_t b) {
        store(s, b);
        return false;
      });
    return iterations;
  }

  // Otherwise every pass on every worker at once (SplitRounds): round 0 the warm start, in its
  // own pass (seed 001 §4.4); rounds 1 … count the velocity iterations, until one applies no
  // impulse. A batch's impulses are final once the last iteration has solved it (each contact
  // is in one split), so that iteration stores them as it goes, while the lanes are still in
  // the cache, and the store round runs only after an early exit: on 2 threads the round's
  // phase per split cost a wait of the workers for each other, as an iteration's does (the
  // pyramid's 16 splits: 16 of its 216 phases a step). The speed-up is below this machine's
  // noise (2-thread solve 899 ms per 500 steps with it, 891 without: medians of 12 alternating
  // runs).
  const uint32_t last_iteration = static_cast<uint32_t>(count);
  const uint32_t store_round = last_iteration + 1;
  auto pass = [&](uint32_t round, uint32_t s, uint32_t b) {
    if (round == 0) {
      warm_start(s, b);
      return false;
    }
    if (round == store_round) {
      store(s, b);
      return false;
    }
    const bool any = solve(s, b, static_cast<int>(round) - 1);
    if (round == last_iteration) store(s, b);
    return any;
  };
  using PassType = decltype(pass);
  SplitRounds& rounds = scratch.split_rounds[worker];
  rounds.run(
      jobs, splits, store_round + 1,
      [](void* context, uint32_t round, uint32_t s, uint32_t b) {
        return (*static_cast<PassType*>(context))(round, s, b);
      },
      split_velocity_next_round, &pass);
  uint32_t iterations = 0;
  for (uint32_t round = 1; round < store_round; ++round) {
    iterations = round;
    if (!rounds.changed(round)) break;
  }
  return iterations;
}

void solve_split_island_position(ContactConstraintManager& contacts, ConstraintManager& constraints,
                                 std::span<SolverBody> bodies, const IslandSplits& splits,
                                 const SolverSteps& steps, const PhysicsSettings& settings,
                                 JobSystem& jobs, IslandSolveScratch& scratch, uint32_t worker) {
  const bool solve_contacts = settings.use_position_solver_for_contacts;
  // Every iteration on every worker at once (SplitRounds), until one moves nothing.
  auto pass = [&](uint32_t, uint32_t s, uint32_t b) {
    const SplitBatch batch = splits.batch(s, b);
    bool any =
        constraints.solve_position_constraints(bodies, batch.constraints, settings.baumgarte);
    if (solve_contacts)
      any |= contacts.solve_position_constraints(bodies, batch.contacts, settings);
    return any;
  };
  using PassType = decltype(pass);
  scratch.split_rounds[worker].run(
      jobs, splits, static_cast<uint32_t>(std::max(0, steps.position_steps(settings))),
      [](void* context, uint32_t round, uint32_t s, uint32_t b) {
        return (*static_cast<PassType*>(context))(round, s, b);
      },
      [](uint32_t round, bool changed, uint32_t num_rounds) {
        return changed ? round + 1 : num_rounds;
      },
      &pass);
}

uint32_t solve_velocity(ContactConstraintManager& contacts, ConstraintManager& constraints,
                        std::span<SolverBody> bodies, const IslandBuilder& islands,
                        const IslandConstraints& island_constraints,
                        const LargeIslandSplitter& splitter, const PhysicsSettings& settings,
                        JobSystem& jobs, IslandSolveScratch& scratch) {
  const uint32_t count = islands.num_islands();
  scratch.steps.resize(count);
  scratch.iterations.resize(count);
  scratch.stacks.resize(jobs.num_workers());
  scratch.worker_changed.resize(jobs.num_workers());
  scratch.split_rounds.resize(jobs.num_workers());
  scratch.on_every_worker.resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    if (splitter.in_earlier_group(i)) {
      scratch.on_every_worker[i] = 2;
      continue;
    }
    const IslandSplits splits = splitter.island(i);
    // A split island whose splits are too small to share would run on the caller alone while
    // the other workers wait (SplitRounds::run): it is solved whole on one worker instead,
    // beside the others' islands. Eight 2D pyramids of 210 boxes (eight islands, splits of a
    // few batches) ran 278-296 steps/s on 2 threads, 1.06-1.20 times 1 thread, one island after
    // the other on the caller; 420-425 steps/s (1.51-1.53 times) beside each other.
    scratch.on_every_worker[i] =
        !splits.empty() && SplitRounds::shares_work(splits, jobs.num_workers()) ? 1 : 0;
    if (scratch.on_every_worker[i] == 0) continue;
    const std::span<const uint32_t> items = island_constraints.island_items(i);
    scratch.steps[i] = island_solver_steps(constraints, items);
    const uint32_t end = splitter.group_end(i);
    scratch.iterations[i] =
        solve_split_island_velocity(contacts, constraints, bodies, i, islands.island_items(i, end),
                                    splits, scratch.steps[i], settings, jobs, scratch, 0);
    copy_to_group(scratch, i, end);
  }
  plan_island_shares(islands, island_constraints, splitter, scratch.on_every_worker,
                     jobs.num_workers(), scratch.share_begin);
  for_each_island_on_one_worker(jobs, scratch, [&](uint32_t i, uint32_t worker) {
    const std::span<const uint32_t> items = island_constraints.island_items(i);
    scratch.steps[i] = island_solver_steps(constraints, items);
    const IslandSplits splits = splitter.island(i);
    if (splits.empty()) {
      scratch.iterations[i] =
          solve_island_velocity(contacts, constraints, bodies, islands.island_items(i), items,
                                scratch.steps[i], settings, scratch.stacks[worker]);
      return;
    }
    InlineJobSystem alone;
    const uint32_t end = splitter.group_end(i);
    scratch.iterations[i] =
        solve_split_island_velocity(contacts, constraints, bodies, i, islands.island_items(i, end),
                                    splits, scratch.steps[i], settings, alone, scratch, worker);
    copy_to_group(scratch, i, end);
  });
  // The plan was for this solve only.
  scratch.wide_island.clear();
  uint32_t total = 0;
  for (uint32_t i = 0; i < count; ++i) total += scratch.iterations[i];
  return total;
}

void solve_position(ContactConstraintManager& contacts, ConstraintManager& constraints,
                    std::span<SolverBody> bodies, const IslandBuilder& islands,
                    const IslandConstraints& island_constraints,
                    const LargeIslandSplitter& splitter, const PhysicsSettings& settings,
                    JobSystem& jobs, IslandSolveScratch& scratch) {
  const uint32_t count = islands.num_islands();
  for (uint32_t i = 0; i < count; ++i)
    if (scratch.on_every_worker[i] == 1)
      solve_split_island_position(contacts, constraints, bodies, splitter.island(i),
                                  scratch.steps[i], settings, jobs, scratch, 0);
  for_each_island_on_one_worker(jobs, scratch, [&](uint32_t i, uint32_t worker) {
    const IslandSplits splits = splitter.island(i);
    if (splits.empty()) {
      solve_island_position(contacts, constraints, bodies, islands.island_items(i),
                            island_constraints.island_items(i), scratch.steps[i], settings);
      return;
    }
    InlineJobSystem alone;
    solve_split_island_position(contacts, constraints, bodies, splits, scratch.steps[i], settings,
                                alone, scratch, worker);
  });
}

void update_sleep(BodyManager& body_manager, const IslandBuilder& islands,
                  const SolverBodies& solver, const PhysicsSettings& settings, float dt,
                  JobSystem& jobs, IslandSolveScratch& scratch, std::vector<uint32_t>& to_sleep) {
  if (!settings.allow_sleeping) return;
  const float max_movement = settings.point_velocity_sleep_threshold * settings.time_before_sleep;
  // Whole islands sleep: every body must be ready (seed 001, LAWS.md C4). Every moving body's
  // test advances, so a body's timer does not depend on its neighbours': the tests run in the
  // per-body stages' shares of the moving bodies (core/JobSystem.h, k_body_share; each core
  // tests the bodies it wrote in write_back), then the islands are read off in island order.
  // In shares of islands, a step of one large island (the pyramid) tested all its bodies on one
  // core.
  scratch.ready.resize(solver.size());
  parallel_for_shares(
      jobs, static_cast<uint32_t>(solver.moving.size()), k_body_share,
      [&](uint32_t begin, uint32_t end, uint32_t) {
        for (uint32_t k = begin; k < end; ++k) {
          const uint32_t s = solver.moving[k];
          Body& body = *body_manager.body_at_slot(solver.source[s]);
          scratch.ready[s] =
              body.update_sleep_test(dt, max_movement, settings.time_before_sleep) ? 1 : 0;
        }
      });
  to_sleep.clear();
  const uint32_t count = islands.num_islands();
  for (uint32_t i = 0; i < count; ++i) {
    const std::span<const uint32_t> bodies = islands.island_bodies(i);
    if (std::all_of(bodies.begin(), bodies.end(),
                    [&scratch](uint32_t s) { return scratch.ready[s] != 0; }))
      for (uint32_t s : bodies) to_sleep.push_back(solver.source[s]);
  }
  // Kinematic bodies (the moving entries that impulses do not move) are in no island: each
  // sleeps on its own when it stops.
  for (uint32_t s : solver.moving)
    if (solver.movable[s] == 0 && scratch.ready[s] != 0) to_sleep.push_back(solver.source[s]);
  for (uint32_t index : to_sleep) body_manager.deactivate(*body_manager.body_at_slot(index));
}

}  // namespace atl
