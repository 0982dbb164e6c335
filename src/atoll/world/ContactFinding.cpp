#include "atoll/world/ContactFinding.h"

#include <algorithm>
#include <cmath>
#include <span>

#include "atoll/collision/narrowphase/CollideShapes.h"
#include "atoll/core/Prefetch.h"
#include "atoll/core/QuickSort.h"
#include "atoll/core/ShareClaims.h"
#include "atoll/world/ContactOrder.h"
#include "atoll/world/StepContext.h"

namespace atl {

namespace {

// What the narrow phase tallies over all the pairs of a step (its rounds included).
struct NarrowPhaseTally {
  CollideShapeSettings collide_settings;
  uint32_t num_manifolds = 0;
};

// Activates a sleeping body during the narrow phase and lets it take full part in this step.
void wake_body(StepContext& ctx, uint32_t body_index) {
  Body& body = *ctx.body_manager->body_at_slot(body_index);
  ctx.body_manager->activate(body);
  // Stage apply_forces for it, which it missed while asleep.
  body.motion_properties()->apply_force_torque_and_gravity(body.rotation(), ctx.dt,
                                                           ctx.settings->gravity);
  ctx.solver.add_woken(*ctx.body_manager, body_index);
}

// How far the surfaces of two bodies can move towards each other in a step of `dt`: their
// relative speed plus each one's spin times the farthest its bounds reach from its centre of
// mass (PhysicsSettings::speculative_contacts_from_velocity).
float closing_reach(const Body& a, const SolverBody& sa, const Body& b, const SolverBody& sb,
                    float dt) {
  const auto reach = [](const Body& body) {
    const AABox& bounds = body.world_bounds();
    return (bounds.center() - body.center_of_mass_position()).length() + bounds.extent().length();
  };
  return dt * ((sa.linear_velocity - sb.linear_velocity).length() +
               sa.angular_velocity.length() * reach(a) + sb.angular_velocity.length() * reach(b));
}

// Whether a manifold found beyond the speculative distance closes within this step: one of its
// points approaches at least as fast as the gap needs. The others would be contacts the bodies
// never reach (and events for them).
bool closes_this_step(const ContactManifold& m, const SolverBody& s1, const SolverBody& s2,
                      float speculative, float dt) {
  const float separation = -m.penetration_depth;
  if (separation <= speculative) return true;
  float closing = 0.0f;
  for (size_t i = 0; i < m.points_on_1.size(); ++i) {
    const Vec3 v1 =
        s1.linear_velocity + s1.angular_velocity.cross(m.points_on_1[i] - s1.com_position);
    const Vec3 v2 =
        s2.linear_velocity + s2.angular_velocity.cross(m.points_on_2[i] - s2.com_position);
    closing = std::max(closing, (v1 - v2).dot(m.normal));
  }
  return separation <= closing * dt;
}

// The body's transform after a step of `dt` at the solver's velocities (a free flight).
Mat44 end_of_step_transform(const Body& body, const SolverBody& s, float dt) {
  const Vec3 com = body.center_of_mass_position();
  const Vec3 offset = body.rotation().conjugated() * (com - body.position());
  Quat rotation = body.rotation();
  const float spin = s.angular_velocity.length();
  // A spin that overflows float (the body is quarantined after this step) keeps the rotation.
  if (spin * dt > 1.0e-12f && spin * dt <= k_float_max)
    rotation = (Quat::rotation(s.angular_velocity / spin, spin * dt) * rotation).normalized();
  return Mat44::rotation_translation(rotation, com + s.linear_velocity * dt - rotation * offset);
}

// The narrow phase of a round of pairs runs in three passes. The first (filters) and the
// second (the body-pair cache's look-ups and the shape tests) run on every worker, each worker
// writing only its pairs' entries and its own manifold list; what depends on order in the first
// (new solver entries) is done after it in pair order. The last goes through the pairs in order
// on the calling thread and hands out their places in the contact lists; without a listener
// (and a manifold cap) it only counts, each worker the pairs of its fill share, then the shares'
// places are summed in order, and a fill on every worker adds the pairs at those places. So the
// contacts, the listener's calls and the events come out in the same order for any number of
// workers. The shape tests, the last pass and the fill take turns in batches of pairs
// (collide_round), which changes no order either.

// Pass 1, on any worker: the filters, the pair's body order and its solver entries where the
// bodies have them; `np` is the pair's own entry of ctx.narrow_pairs. A body that does not move
// gets an immovable solver entry at its first use, and the order of first uses fixes the solver
// array, so those are made afterwards, in pair order (collide_round).
void admit_pair(const StepContext& ctx, const BodyPair& bp, NarrowPhasePair& np,
                uint8_t& needs_entry) {
  const BodyManager& bodies = *ctx.body_manager;
  const Body* a = bodies.body_at_slot(bp.a);
  const Body* b = bodies.body_at_slot(bp.b);
  // The entry may hold a pair of an earlier round: nothing of it may pass for this one's.
  np.admitted = false;
  np.reused = nullptr;
  np.num_manifolds = 0;
  needs_entry = 0;
  const bool sensor = a->is_sensor() || b->is_sensor();
  // Only pairs in which something can respond: a dynamic body, or a sensor that reports.
  if (!a->is_dynamic() && !b->is_dynamic()) {
    if (!sensor || (a->is_static() && b->is_static())) return;
  }
  // A moving sensor reports static bodies only when asked to (a static sensor reports the
  // moving bodies that enter it).
  if (a->is_static() != b->is_static()) {
    const Body& fixed = a->is_static() ? *a : *b;
    const Body& moving = a->is_static() ? *b : *a;
    if (!fixed.is_sensor() && moving.is_sensor() && !moving.sensor_detects_static()) return;
  }
  // Collision groups (a ragdoll's own limbs): after the layers, before any contact work.
  if (!bodies.groups_collide(*a, *b)) return;
  // Body 1 has the lower ID: the cache keys on IDs, which are stable (the listener and the
  // events see the listener order, add_pair_contacts).
  if (b->id().value() < a->id().value()) std::swap(a, b);
  np.admitted = true;
  const uint32_t s1 = ctx.solver.index_of[a->id().index()];
  const uint32_t s2 = ctx.solver.index_of[b->id().index()];
  needs_entry = s1 == SolverBodies::k_none || s2 == SolverBodies::k_none ? 1 : 0;
  np.pair = ContactBodyPair{a->id().value(), b->id().value(), s1, s2};
  np.sensor = sensor;
  // Bodies wake between rounds only, so this holds until the round's contacts are added.
  np.asleep1 = a->is_dynamic() && !a->is_active();
  np.asleep2 = b->is_dynamic() && !b->is_active();
}

// Pass 2, on any worker, after the body-pair cache's look-ups (collide_round): the collision of
// a pair the cache does not cover, whose manifolds go to the worker's list. Reads the bodies and
// the solver entries only. With `count`, also what the ordered pass counts for the pair, and
// whether the fill may write it over last step's manifolds of the pair (which no fill writes
// before this round's shape tests are done).
void collide_pair(const StepContext& ctx, const CollideShapeSettings& base_settings,
                  NarrowPhasePair& np, NarrowPhaseCounts* count, NarrowPhaseWorker& worker,
                  uint32_t worker_index) {
  const PhysicsSettings& settings = *ctx.settings;
  np.worker = worker_index;
  np.first_manifold = static_cast<uint32_t>(worker.manifolds.size());

  const BodyManager& bodies = *ctx.body_manager;
  const Body* a = bodies.body_at_slot(BodyID(np.pair.key1).index());
  const Body* b = bodies.body_at_slot(BodyID(np.pair.key2).index());
  const bool sensor = np.sensor;
  AllContactsCollector& collector = worker.collector;
  collector.manifolds.clear();
  // A sensor reports overlap only: no speculative contacts.
  CollideShapeSettings collide_settings = base_settings;
  const float speculative = collide_settings.max_separation_distance;
  const SolverBody& s1 = ctx.solver.bodies[np.pair.solver_body1];
  const SolverBody& s2 = ctx.solver.bodies[np.pair.solver_body2];
  if (sensor)
    collide_settings.max_separation_distance = 0.0f;
  else if (settings.speculative_contacts_from_velocity)
    collide_settings.max_separation_distance =
        std::max(speculative, closing_reach(*a, s1, *b, s2, ctx.dt));
  collide_shapes_unchecked(*a->shape(), a->world_transform(), *b->shape(), b->world_transform(),
                           collide_settings, collector);
  if (sensor)
    std::erase_if(collector.manifolds,
                  [](const ContactManifold& m) { return !(m.penetration_depth >= 0.0f); });
  else if (collide_settings.max_separation_distance > speculative) {
    std::erase_if(collector.manifolds, [&](const ContactManifold& m) {
      return !closes_this_step(m, s1, s2, speculative, ctx.dt);
    });
    // A plane through an edge can seem to close while the shapes pass by (a ball skimming
    // over a box's edge was thrown up): keep contacts found this far out only when the
    // shapes, flown freely to the end of the step, meet.
    const bool far =
        std::any_of(collector.manifolds.begin(), collector.manifolds.end(),
                    [&](const ContactManifold& m) { return -m.penetration_depth > speculative; });
    if (far) {
      CollideShapeSettings end_settings = base_settings;
      ClosestContactCollector end_hit;
      collide_shapes_unchecked(*a->shape(), end_of_step_transform(*a, s1, ctx.dt), *b->shape(),
                               end_of_step_transform(*b, s2, ctx.dt), end_settings, end_hit);
      if (!end_hit.has_hit)
        std::erase_if(collector.manifolds,
                      [&](const ContactManifold& m) { return -m.penetration_depth > speculative; });
    }
  }
  worker.manifolds.insert(worker.manifolds.end(), collector.manifolds.begin(),
                          collector.manifolds.end());
  np.num_manifolds = static_cast<uint32_t>(collector.manifolds.size());
  if (count == nullptr) return;
  // What add_pair_contacts would add without a listener or a cap: every manifold, with the
  // combined settings; the deepest point as add_manifold notes them one by one.
  NarrowPhaseCounts& c = *count;
  const uint32_t n = np.num_manifolds;
  ATOLL_ASSERT(n <= NarrowPhaseCounts::k_manifolds);
  c.deepest = -k_float_max;
  c.num_points = 0;
  for (const ContactManifold& m : collector.manifolds) {
    c.num_points += static_cast<uint32_t>(m.points_on_1.size());
    for (size_t i = 0; i < m.points_on_1.size(); ++i) {
      const float depth = (m.points_on_1[i] - m.points_on_2[i]).dot(m.normal);
      if (depth > c.deepest) c.deepest = depth;
    }
  }
  // A sensor's manifolds take no impulses (ContactConstraintManager::is_solved).
  c.num_solved = sensor ? 0 : n;
  c.bits = NarrowPhaseCounts::k_collided | n;
  if (n == 0) return;
  c.bits |= NarrowPhaseCounts::k_has_entry;
  const bool side = ContactConstraintManager::has_side_settings(combined_settings(*a, *b, sensor));
  if (side) c.bits |= NarrowPhaseCounts::k_side_settings;
  if (ctx.contacts->fits_in_place(np.pair, np.reuse.position,
                                  std::span(collector.manifolds).first(n), side))
    c.bits |= NarrowPhaseCounts::k_in_place;
  if (!sensor) {
    if (np.asleep1) c.bits |= NarrowPhaseCounts::k_wake1;
    if (np.asleep2) c.bits |= NarrowPhaseCounts::k_wake2;
  }
}

// Queues a sleeping dynamic body that a solid contact reaches to wake (in the next round of
// this step's narrow phase); sensors wake nothing.
void queue_wake(StepContext& ctx, uint32_t index) {
  if (ctx.wake_state[index] != k_not_woken) return;
  ctx.wake_state[index] = k_wake_queued;
  ctx.wake.push_back(index);
}

// Queues the bodies a counted pair's look-up or shape tests noted to wake (k_wake1, k_wake2).
void queue_counted_wakes(StepContext& ctx, const NarrowPhaseCounts& counts,
                         const ContactBodyPair& pair) {
  if ((counts.bits & NarrowPhaseCounts::k_wake1) != 0) queue_wake(ctx, BodyID(pair.key1).index());
  if ((counts.bits & NarrowPhaseCounts::k_wake2) != 0) queue_wake(ctx, BodyID(pair.key2).index());
}

// Pass 3, in order, for a collided pair and, with a listener, a reused one (collide_round adds
// the others): the listener's calls, the manifold cap, the contact settings, the contact
// cache, the events; queues the sleeping dynamic bodies a solid contact touches for waking.
void add_pair_contacts(StepContext& ctx, NarrowPhasePair& np, NarrowPhaseTally& tally) {
  BodyManager& bodies = *ctx.body_manager;
  ContactConstraintManager& contacts = *ctx.contacts;
  const PhysicsSettings& settings = *ctx.settings;
  UpdateResult& result = *ctx.result;
  const ContactBodyPair& pair = np.pair;
  const uint32_t i1 = BodyID(pair.key1).index(), i2 = BodyID(pair.key2).index();
  ContactListener* listener = ctx.contact_listener;
  const Body* a = bodies.body_at_slot(i1);
  const Body* b = bodies.body_at_slot(i2);
  const int collision_step = ctx.collision_step;
  // What the listener and the events see (ContactListener.h): the more dynamic body first.
  const bool swapped = listener_swaps(*a, *b);
  const Body& l1 = swapped ? *b : *a;
  const Body& l2 = swapped ? *a : *b;

  bool solid = false;  // a manifold takes impulses (wakes a sleeping body)
  if (np.reused != nullptr) {
    const uint32_t num_reused = np.reused->num_manifolds;
    solid = num_reused > 0 && !np.sensor;
    tally.num_manifolds += num_reused;
    // The reused manifolds are rebuilt in world space for the listener's events.
    ctx.manifolds.clear();
    contacts.reuse_body_pair(*np.reused, pair, ctx.solver.bodies, np.reuse, &ctx.manifolds);
    for (const ContactManifold& manifold : ctx.manifolds)
      ctx.events.push_back(contact_event(ContactEventType::Persisted, l1.id(), l2.id(),
                                         swapped ? flipped(manifold) : manifold, collision_step));
  } else {
    // Validation only for pairs that touch (within the speculative distance), as in Jolt.
    if (np.num_manifolds == 0) return;
    contacts.seek_previous(np.reuse.position);
    if (listener != nullptr && listener->on_contact_validate(l1, l2) == ValidateResult::Reject)
      return;
    const std::vector<ContactManifold>& found = ctx.narrow_workers[np.worker].manifolds;
    for (uint32_t k = 0; k < np.num_manifolds; ++k) {
      const ContactManifold& manifold = found[np.first_manifold + k];
      if (ctx.max_contact_manifolds != 0 && tally.num_manifolds >= ctx.max_contact_manifolds) {
        if (result.skipped_manifolds++ == 0) {
          result.first_skipped_manifold_body1 = l1.id();
          result.first_skipped_manifold_body2 = l2.id();
        }
        result.max_contact_manifolds = ctx.max_contact_manifolds;
        result.flag(UpdateError::manifold_cap_reached);
        continue;
      }
      ++tally.num_manifolds;
      ContactSettings cs = combined_settings(*a, *b, np.sensor);
      // Only the listener's calls and the events tell persisted from added.
      const bool existed =
          listener != nullptr &&
          contacts.had_manifold(pair, manifold.sub_shape_id1, manifold.sub_shape_id2);
      if (listener != nullptr) {
        const ContactSettings defaults = cs;
        if (swapped) swap_bodies(cs, a->center_of_mass_position(), b->center_of_mass_position());
        const ContactManifold seen = swapped ? flipped(manifold) : manifold;
        if (existed)
          listener->on_contact_persisted(l1, l2, seen, cs);
        else
          listener->on_contact_added(l1, l2, seen, cs);
        // A NaN friction or a negative mass scale would poison the solve: keep the defaults and
        // say so.
        if (std::string problem = cs.problem(); !problem.empty()) {
          if (result.rejected_contact_settings++ == 0) {
            result.rejected_settings_callback =
                existed ? "on_contact_persisted" : "on_contact_added";
            result.rejected_settings_field = std::move(problem);
            result.rejected_settings_body1 = l1.id();
            result.rejected_settings_body2 = l2.id();
          }
          result.flag(UpdateError::invalid_contact_settings);
          cs = defaults;
        } else if (swapped) {
          // Back to the cache's order (lower ID first).
          swap_bodies(cs, b->center_of_mass_position(), a->center_of_mass_position());
        }
      }
      solid |= !cs.is_sensor;
      contacts.add_manifold(pair, manifold, cs, ctx.solver.bodies, settings);
      // Events are delivered to the listener only (PhysicsSystem::deliver_events).
      if (listener != nullptr)
        ctx.events.push_back(
            contact_event(existed ? ContactEventType::Persisted : ContactEventType::Added, l1.id(),
                          l2.id(), swapped ? flipped(manifold) : manifold, collision_step));
    }
  }
  if (solid) {
    if (a->is_dynamic() && !a->is_active()) queue_wake(ctx, i1);
    if (b->is_dynamic() && !b->is_active()) queue_wake(ctx, i2);
  }
}

// Fewest pairs per share of pass 2's look-ups (parallel_for_shares): below, handing a share to
// another core costs more than it saves. The same for pass 1.
constexpr uint32_t k_lookup_share = 256;
constexpr uint32_t k_admit_share = 256;
// Pass 2's shape tests run in one contiguous share of the batch's pairs per worker (none below
// k_pair_share pairs: a few pairs of two boxes are not worth waking another core for), taken
// k_pair_take at a time, a worker whose share is done taking k_pair_steal at a time from the
// back of the others' (parallel_for_claimed_shares): the pairs are in body order, so a share
// reads much the same bodies as the look-ups' share on that core, and pairs of very different
// cost (two spheres, a convex hull against a mesh) still end together. Handed out as ranges of
// 16 from one counter, the 2-thread narrow phase took, in ms per 300 steps (medians of 5
// alternating runs), 364 against 321 now on convex_vs_mesh, 112 against 102 on highspeed, 192
// against 186 on the pyramid.
constexpr uint32_t k_pair_share = 8;
constexpr uint32_t k_pair_take = 16;
constexpr uint32_t k_pair_steal = 4;
// Pairs whose shape tests run before pass 3 adds their contacts (collide_round): bounds the
// workers' manifold lists to about this many manifolds (192 bytes each), where one batch of
// all pairs held the manifolds of the largest step at once. Large enough that a batch still
// gives every worker many ranges and that a step of few collisions runs one batch.
constexpr uint32_t k_collide_batch = 512;
// Fewest pairs per share of the fill (collide_round).
constexpr uint32_t k_fill_share = 512;
// How far ahead (pairs) the passes ask for the lines they will store into, which another core
// touched since (prefetch_for_write): the fill the cache entries and headers (the caller's
// end_step read the entries), pass 1 the pair entries (the fill read them). On 2
// threads (many_pyramids, pyramid) the narrow phase took 282 and 360 ms per 500 steps without,
// 176 and 265 with.
constexpr uint32_t k_fill_ahead = 16;
constexpr uint32_t k_admit_ahead = 8;

// Moves `places` past pair `counts`: its entry and constraints and, a counted collided pair's,
// the manifolds, points and settings it appends.
void advance(ContactConstraintManager::Places& places, const NarrowPhaseCounts& counts) {
  places.pair += counts.num_entries();
  places.constraint += counts.num_solved;
  if (!counts.collided() || counts.in_place()) return;
  places.manifold += counts.num_manifolds();
  places.point += counts.num_points;
  if ((counts.bits & NarrowPhaseCounts::k_side_settings) != 0)
    places.setting += counts.num_manifolds();
}

// The narrow phase of one round of pairs (the three passes above).
void collide_round(StepContext& ctx, std::span<const BodyPair> pairs, NarrowPhaseTally& tally) {
  JobSystem& jobs = *ctx.jobs;
  const StepContext& shared = ctx;
  ContactConstraintManager& contacts = *ctx.contacts;
  const bool listener = ctx.contact_listener != nullptr;
  // Without a listener or a manifold cap, pass 3 only counts every pair, collided or reused:
  // the fill on every worker adds them. Else it adds the collided pairs itself, in order.
  const bool counting = !listener && ctx.max_contact_manifolds == 0;
  // Pass 1 on every worker, each pair into its own entry; then, in pair order, the solver
  // entries of the bodies that had none (in order, so that the first uses fix them).
  const uint32_t count = static_cast<uint32_t>(pairs.size());
  ctx.narrow_pairs.resize(count);
  ctx.narrow_counts.resize(count);
  ctx.needs_entry.resize(count);
  parallel_for_shares(jobs, count, k_admit_share, [&](uint32_t begin, uint32_t end, uint32_t) {
    for (uint32_t k = begin; k < end; ++k) {
      // The last round's fill read the entries, on any worker (prefetch_for_write).
      if (k + k_admit_ahead < end) {
        prefetch_object_for_write(&ctx.narrow_pairs[k + k_admit_ahead]);
        // The pair's bodies, at random, written by the other core's write_back.
        prefetch_object(ctx.body_manager->slot_address(pairs[k + k_admit_ahead].a));
        prefetch_object(ctx.body_manager->slot_address(pairs[k + k_admit_ahead].b));
      }
      admit_pair(shared, pairs[k], ctx.narrow_pairs[k], ctx.needs_entry[k]);
    }
  });
  BodyManager& bodies = *ctx.body_manager;
  for (uint32_t k = 0; k < count; ++k) {
    if (ctx.needs_entry[k] == 0) continue;
    ContactBodyPair& pair = ctx.narrow_pairs[k].pair;
    pair.solver_body1 = ctx.solver.index_for(bodies, BodyID(pair.key1).index());
    pair.solver_body2 = ctx.solver.index_for(bodies, BodyID(pair.key2).index());
  }
  if (ctx.narrow_workers.size() < jobs.num_workers()) ctx.narrow_workers.resize(jobs.num_workers());
  // Pass 2 in two parts. The look-ups in one contiguous share of the pairs per worker: the
  // pairs and last step's contacts are both in key order, so a share reads one stretch of each
  // (handed out in small ranges, the workers' reads interleaved and each missed more). A
  // reused pair's counts are what the ordered pass adds for it.
  // Each share also lists its pairs that the cache misses, for the shape tests: the caller
  // listing them after the look-ups read every pair's entry, half of them from the other core.
  const Shares lookup_shares(jobs.num_workers(), count, k_lookup_share);
  // Each as large as the whole list has been: a warmed-up step allocates nothing, however the
  // pairs fall into the shares.
  for (uint32_t share = 0; share < lookup_shares.shares; ++share)
    ctx.narrow_workers[share].collide.reserve(ctx.narrow_collide.capacity());
  parallel_for_shares(jobs, count, k_lookup_share, [&](uint32_t begin, uint32_t end, uint32_t) {
    uint32_t share = 0;
    while (share + 1 < lookup_shares.shares && lookup_shares.begin(share + 1) <= begin) ++share;
    std::vector<uint32_t>& collide = ctx.narrow_workers[share].collide;
    collide.clear();
    size_t cache_cursor = 0;
    for (uint32_t k = begin; k < end; ++k) {
      NarrowPhasePair& np = ctx.narrow_pairs[k];
      NarrowPhaseCounts& counts = ctx.narrow_counts[k];
      counts = NarrowPhaseCounts{};
      if (!np.admitted) continue;
      // Sensor pairs use the cache too, so that a resting overlap persists without the
      // narrow phase or the listener (as in Jolt).
      np.reused = shared.contacts->find_reusable_pair(np.pair, shared.solver.bodies,
                                                      *shared.settings, cache_cursor, np.reuse);
      if (np.reused == nullptr) {
        collide.push_back(k);
        continue;
      }
      const uint32_t num_reused = np.reused->num_manifolds;
      ATOLL_ASSERT(num_reused <= NarrowPhaseCounts::k_manifolds);
      counts.deepest = np.reuse.deepest;
      counts.num_points = np.reuse.num_points;
      counts.num_solved = np.reuse.num_solved;
      counts.bits = NarrowPhaseCounts::k_reused | NarrowPhaseCounts::k_has_entry | num_reused;
      // A solid reused contact wakes a sleeping body (admit_pair noted which).
      if (num_reused > 0 && !np.sensor) {
        if (np.asleep1) counts.bits |= NarrowPhaseCounts::k_wake1;
        if (np.asleep2) counts.bits |= NarrowPhaseCounts::k_wake2;
      }
    }
  });
  // Then the shape tests of the pairs the cache does not cover, in small ranges, a batch at a
  // time: after each batch, pass 3 adds the contacts of every pair up to the batch's last one
  // (the pairs between that the cache covers included), in order, and the workers' manifold
  // lists start again empty. Colliding every pair first would hold the manifolds of all of them
  // at once (the pyramid's first step collides 4 500 pairs: 0.9 MB), which then stayed
  // resident for the whole run. The order of the additions is the same either way, and a
  // batch's shape tests read only bodies and shapes, which pass 3 does not change.
  // One by one: the list grows by doubling, as before, so that a step allocates only when the
  // list reaches a new high.
  ctx.narrow_collide.clear();
  for (uint32_t share = 0; share < lookup_shares.shares; ++share)
    for (const uint32_t k : ctx.narrow_workers[share].collide) ctx.narrow_collide.push_back(k);
  const uint32_t num_collide = static_cast<uint32_t>(ctx.narrow_collide.size());
  // The pairs pass 3 counts since it last made room for them in the contact lists (it does
  // before adding a collided pair itself, and before a fill).
  ContactConstraintManager::Places run;
  uint32_t run_points = 0;
  const auto make_room = [&] {
    contacts.add_later(run, run_points);
    run = {};
    run_points = 0;
  };
  // Without a listener, the pairs' additions that pass 3 counted, after each batch on every
  // worker, in shares: each pair fills only its own places, which the counts of the pairs
  // before it in the share give (from where pass 3 found the share to start).
  const auto fill_share = [&](uint32_t begin, uint32_t end, ContactConstraintManager::Places at) {
    // The places of pair `ahead`, k_fill_ahead pairs on, whose lines are asked for.
    ContactConstraintManager::Places ahead_at = at;
    uint32_t ahead = begin;
    for (; ahead < std::min(end, begin + k_fill_ahead); ++ahead)
      advance(ahead_at, ctx.narrow_counts[ahead]);
    for (uint32_t k = begin; k < end; ++k) {
      if (ahead < end) {
        if (ctx.narrow_counts[ahead].reused()) contacts.prefetch_reused_places(ahead_at);
        advance(ahead_at, ctx.narrow_counts[ahead++]);
      }
      const NarrowPhaseCounts& counts = ctx.narrow_counts[k];
      if (counts.reused()) {
        const NarrowPhasePair& np = ctx.narrow_pairs[k];
        contacts.fill_reused_pair(*np.reused, np.pair, at);
      } else if (counts.collided() && counts.num_manifolds() > 0) {
        const NarrowPhasePair& np = ctx.narrow_pairs[k];
        const Body& a = *shared.body_manager->body_at_slot(BodyID(np.pair.key1).index());
        const Body& b = *shared.body_manager->body_at_slot(BodyID(np.pair.key2).index());
        const std::vector<ContactManifold>& found = ctx.narrow_workers[np.worker].manifolds;
        contacts.fill_collided_pair(np.pair,
                                    std::span(found).subspan(np.first_manifold, np.num_manifolds),
                                    combined_settings(a, b, np.sensor), shared.solver.bodies,
                                    *shared.settings, at, np.reuse.position, counts.in_place());
      }
      advance(at, counts);
    }
  };
  uint32_t next_add = 0;       // the first pair of narrow_pairs whose contacts are not added yet
  uint32_t next_collided = 0;  // the first of narrow_collide not added yet
  for (uint32_t first = 0; first < num_collide || next_add < count; first += k_collide_batch) {
    const uint32_t last = std::min(num_collide, first + k_collide_batch);
    for (NarrowPhaseWorker& worker : ctx.narrow_workers) worker.manifolds.clear();
    parallel_for_claimed_shares(jobs, last - first, k_pair_share, k_pair_take, k_pair_steal,
                                [&](uint32_t begin, uint32_t end, uint32_t worker) {
                                  for (uint32_t k = first + begin; k < first + end; ++k) {
                                    const uint32_t pair = ctx.narrow_collide[k];
                                    collide_pair(shared, tally.collide_settings,
                                                 ctx.narrow_pairs[pair],
                                                 counting ? &ctx.narrow_counts[pair] : nullptr,
                                                 ctx.narrow_workers[worker], worker);
                                  }
                                });
    // Up to the batch's last pair; after the last batch, to the end.
    const uint32_t add_begin = next_add;
    const uint32_t add_end = last < num_collide ? ctx.narrow_collide[last - 1] + 1 : count;
    const Shares fill(jobs.num_workers(), add_end - add_begin, k_fill_share);
    ctx.narrow_fill_starts.resize(fill.shares);
    if (counting) {
      // Every pair is counted (or not admitted): each fill share sums its own on its worker,
      // then the shares' places follow in order, and what the ordered pass notes — the deepest
      // pair, the bodies to wake — goes in share after share, which is pair order. On the
      // caller the pass read every pair's counts, half of them from the other core.
      const auto count_share = [&](uint32_t share) {
        NarrowPhaseWorker& out = ctx.narrow_workers[share];
        out.fill_places = {};
        out.fill_points = 0;
        out.fill_manifolds = 0;
        out.fill_deepest_pair = add_end;
        out.fill_wakes.clear();
        for (uint32_t k = add_begin + fill.begin(share); k < add_begin + fill.end(share); ++k) {
          const NarrowPhaseCounts& counts = ctx.narrow_counts[k];
          if (!counts.reused() && !counts.collided()) continue;  // not admitted
          advance(out.fill_places, counts);
          out.fill_points += counts.num_points;
          out.fill_manifolds += counts.num_manifolds();
          // The first of the deepest, as note_pair_penetration keeps them (never a NaN).
          if (!std::isnan(counts.deepest) &&
              (out.fill_deepest_pair == add_end || counts.deepest > out.fill_deepest)) {
            out.fill_deepest = counts.deepest;
            out.fill_deepest_pair = k;
          }
          if ((counts.bits & (NarrowPhaseCounts::k_wake1 | NarrowPhaseCounts::k_wake2)) != 0)
            out.fill_wakes.push_back(k);
        }
      };
      // Each as large as the most a batch has had (see the look-ups' lists).
      for (uint32_t share = 0; share < fill.shares; ++share)
        ctx.narrow_workers[share].fill_wakes.reserve(ctx.narrow_most_wakes);
      parallel_for(jobs, fill.shares, 1, [&](uint32_t first_share, uint32_t last_share, uint32_t) {
        for (uint32_t share = first_share; share < last_share; ++share) count_share(share);
      });
      size_t num_wakes = 0;
      for (uint32_t share = 0; share < fill.shares; ++share) {
        const NarrowPhaseWorker& counted = ctx.narrow_workers[share];
        num_wakes += counted.fill_wakes.size();
        ContactConstraintManager::Places start = contacts.next_places();
        start += run;
        ctx.narrow_fill_starts[share] = start;
        run += counted.fill_places;
        run_points += counted.fill_points;
        tally.num_manifolds += counted.fill_manifolds;
        if (counted.fill_deepest_pair != add_end)
          contacts.note_pair_penetration(counted.fill_deepest,
                                         ctx.narrow_pairs[counted.fill_deepest_pair].pair);
        for (const uint32_t k : counted.fill_wakes)
          queue_counted_wakes(ctx, ctx.narrow_counts[k], ctx.narrow_pairs[k].pair);
      }
      ctx.narrow_most_wakes = std::max(ctx.narrow_most_wakes, num_wakes);
      next_add = add_end;
    }
    uint32_t next_fill = 0;
    for (; next_add < add_end; ++next_add) {
      if (!listener && next_fill < fill.shares && next_add == add_begin + fill.begin(next_fill)) {
        ContactConstraintManager::Places start = contacts.next_places();
        start += run;
        ctx.narrow_fill_starts[next_fill++] = start;
      }
      const NarrowPhaseCounts& counts = ctx.narrow_counts[next_add];
      if (!listener && (counts.reused() || counts.collided())) {
        // Most pairs: nothing reads their manifolds in world space, and the bodies are not read
        // (the look-up or the shape tests noted which wake).
        advance(run, counts);
        run_points += counts.num_points;
        tally.num_manifolds += counts.num_manifolds();
        contacts.note_pair_penetration(counts.deepest, ctx.narrow_pairs[next_add].pair);
        queue_counted_wakes(ctx, counts, ctx.narrow_pairs[next_add].pair);
        continue;
      }
      const bool collided =
          next_collided < num_collide && ctx.narrow_collide[next_collided] == next_add;
      if (collided) ++next_collided;
      // With a listener, a reused pair is added whole here (its manifolds make events).
      if (!collided && !counts.reused()) continue;  // not admitted
      make_room();
      const ContactConstraintManager::Places before = contacts.next_places();
      add_pair_contacts(ctx, ctx.narrow_pairs[next_add], tally);
      if (!collided) continue;
      // For the fill after this batch: the entry and constraints added (the manifolds, points
      // and settings are not the fill's).
      const ContactConstraintManager::Places after = contacts.next_places();
      ATOLL_ASSERT(after.pair - before.pair <= 1, "a collided pair makes at most one entry");
      NarrowPhaseCounts& added = ctx.narrow_counts[next_add];
      added.num_solved = after.constraint - before.constraint;
      added.bits = after.pair != before.pair ? NarrowPhaseCounts::k_has_entry : 0;
    }
    make_room();
    if (listener) continue;
    if (fill.shares <= 1) {
      if (fill.shares == 1) fill_share(add_begin, add_end, ctx.narrow_fill_starts[0]);
      continue;
    }
    parallel_for(jobs, fill.shares, 1, [&](uint32_t first_share, uint32_t last_share, uint32_t) {
      for (uint32_t share = first_share; share < last_share; ++share)
        fill_share(add_begin + fill.begin(share), add_begin + fill.end(share),
                   ctx.narrow_fill_starts[share]);
    });
  }
}

}  // namespace

void narrow_phase(StepContext& ctx) {
  BodyManager& bodies = *ctx.body_manager;
  UpdateResult& result = *ctx.result;
  ctx.contacts->begin_step(ctx.dt, *ctx.settings);
  NarrowPhaseTally tally;
  tally.collide_settings.max_separation_distance = ctx.settings->speculative_contact_distance;
  tally.collide_settings.manifold_tolerance = ctx.settings->manifold_tolerance;

  // Which bodies' pairs were found this step (k_pairs_found), or are queued to wake
  // (k_wake_queued): the bodies active at the start of the step were found by find_pairs.
  ctx.wake_state.resize(bodies.num_slots(), k_not_woken);
  for (uint32_t index : bodies.active_bodies()) ctx.wake_state[index] = k_pairs_found;
  ctx.wake.clear();
  ctx.wake_batch.clear();
  // Every mark is taken off when the stage ends, returning or throwing (a listener or a filter
  // is user code): a mark left on a body that sleeps in a restored world kept it from waking.
  // Every body marked k_pairs_found is active by then (those that were and those woken); the
  // bodies queued to wake are in the wake lists.
  struct ClearMarks {
    StepContext& ctx;
    ~ClearMarks() {
      for (uint32_t index : ctx.body_manager->active_bodies()) ctx.wake_state[index] = k_not_woken;
      for (uint32_t index : ctx.wake) ctx.wake_state[index] = k_not_woken;
      for (uint32_t index : ctx.wake_batch) ctx.wake_state[index] = k_not_woken;
    }
  } clear_marks{ctx};
  collide_round(ctx, ctx.pairs, tally);
  ctx.pairs_complete = ctx.wake.empty() && result.skipped_body_pairs == 0;

  // A sleeping dynamic body that a contact reached wakes now and takes full part in this step
  // (as in Jolt): it gets a movable solver body, and its own pairs are found and collided, which
  // may wake more. Rounds in body-index order until none is added keep this deterministic.
  while (!ctx.wake.empty()) {
    quick_sort(ctx.wake.begin(), ctx.wake.end());
    ctx.wake_batch.swap(ctx.wake);
    ctx.wake.clear();
    for (uint32_t index : ctx.wake_batch) wake_body(ctx, index);
    const Status found = ctx.broadphase->find_pairs(ctx.wake_batch, ctx.wake_pairs, ctx.jobs);
    ATOLL_ASSERT(found.ok(), "a sleeping body is in the broadphase, and is queued once");
    (void)found;
    // A pair with a body whose pairs were already found has been collided (from that side).
    uint32_t kept = 0;
    for (const BodyPair& bp : ctx.wake_pairs)
      if (ctx.wake_state[bp.a] != k_pairs_found && ctx.wake_state[bp.b] != k_pairs_found)
        ctx.wake_pairs[kept++] = bp;
    ctx.wake_pairs.resize(kept);
    for (uint32_t index : ctx.wake_batch) ctx.wake_state[index] = k_pairs_found;
    if (ctx.max_body_pairs != 0) {
      const uint32_t room = ctx.max_body_pairs > result.num_body_pairs
                                ? ctx.max_body_pairs - result.num_body_pairs
                                : 0;
      if (ctx.wake_pairs.size() > room) {
        if (result.skipped_body_pairs == 0) {
          result.first_skipped_pair_body1 = bodies.body_at_slot(ctx.wake_pairs[room].a)->id();
          result.first_skipped_pair_body2 = bodies.body_at_slot(ctx.wake_pairs[room].b)->id();
        }
        result.skipped_body_pairs += static_cast<uint32_t>(ctx.wake_pairs.size() - room);
        result.max_body_pairs = ctx.max_body_pairs;
        result.flag(UpdateError::body_pair_cap_reached);
        ctx.wake_pairs.resize(room);
      }
    }
    result.num_body_pairs += static_cast<uint32_t>(ctx.wake_pairs.size());
    collide_round(ctx, ctx.wake_pairs, tally);
  }

  result.num_manifolds = tally.num_manifolds;
  result.num_contact_points = ctx.contacts->num_contact_points();
  if (ctx.contacts->max_penetration() > result.max_penetration) {
    result.max_penetration = ctx.contacts->max_penetration();
    result.max_penetration_body1 = BodyID(ctx.contacts->max_penetration_keys().first);
    result.max_penetration_body2 = BodyID(ctx.contacts->max_penetration_keys().second);
  }
}

void finish_contacts(StepContext& ctx) {
  BodyManager& bodies = *ctx.body_manager;
  ctx.removed.clear();
  // A pair that nobody collided because both bodies sleep keeps its contacts, as in Jolt: no
  // removed event when an island falls asleep, persisted events and warm start when it wakes.
  // Bodies taken out of the simulation (removed, destroyed, quarantined) lose theirs.
  ctx.contacts->end_step(ctx.removed, [&bodies](uint32_t key1, uint32_t key2) {
    for (uint32_t key : {key1, key2}) {
      const Body* body = bodies.get(BodyID(key));
      if (body == nullptr || !body->is_added() || body->is_active() || body->is_quarantined())
        return false;
    }
    return true;
  });
  // Removed contacts are only reported as events, which only the listener receives.
  if (ctx.contact_listener == nullptr) return;
  for (const RemovedContact& r : ctx.removed) {
    ContactManifold gone;  // no geometry: only the sub-shapes are reported
    BodyID id1(r.key1), id2(r.key2);
    gone.sub_shape_id1 = r.sub_shape_id1;
    gone.sub_shape_id2 = r.sub_shape_id2;
    // Listener order; a body destroyed since keeps the ID order.
    const Body* b1 = bodies.get(id1);
    const Body* b2 = bodies.get(id2);
    if (b1 != nullptr && b2 != nullptr && listener_swaps(*b1, *b2)) {
      std::swap(id1, id2);
      std::swap(gone.sub_shape_id1, gone.sub_shape_id2);
    }
    ctx.events.push_back(
        contact_event(ContactEventType::Removed, id1, id2, gone, ctx.collision_step));
  }
}

}  // namespace atl
