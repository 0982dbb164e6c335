#include "atoll/world/ContinuousCollision.h"

#include <algorithm>

#include "atoll/collision/narrowphase/ShapeCast.h"
#include "atoll/core/QuickSort.h"
#include "atoll/core/ShareClaims.h"
#include "atoll/world/ContactOrder.h"
#include "atoll/world/StepContext.h"

namespace atl {

namespace {

constexpr uint32_t k_none = SolverBodies::k_none;

// The casts: each worker casts one contiguous share of the bodies (in solver-body order: much
// the same bodies as its share of the other stages; none below k_ccd_bodies_per_share bodies),
// k_ccd_bodies_per_take at a time, and one whose share is done takes k_ccd_bodies_steal at a
// time from the back of the others' (parallel_for_claimed_shares). A cast takes about half a
// microsecond to several (a body with many candidates), so takes of 16 cost little. Handed out
// as ranges of 16 from one counter, the 2-thread CCD of highspeed took 254 ms per 300 steps
// against 241 now (medians of 8 alternating runs).
constexpr uint32_t k_ccd_bodies_per_share = 8;
constexpr uint32_t k_ccd_bodies_per_take = 16;
constexpr uint32_t k_ccd_bodies_steal = 4;

// Chooses a CCD body's hit among every leaf hit of its casts, as Jolt does: a hit counts only
// when the body approaches the surface by more than the penetration it may end with (a surface
// it slides along or leaves cannot stop it, and must not hide a later hit), and the hit where
// the body stops first wins. Unlike Jolt, a hit that leaves the body at or beyond the end of
// its displacement is kept (LAWS.md B3): Jolt starts from "stops at 1" and so drops it.
class CcdHitCollector final : public ShapeCastCollector {
 public:
  CcdHitCollector(float max_penetration, float best_fraction_plus_slop)
      : max_penetration_(max_penetration), best_(best_fraction_plus_slop) {
    update_early_out_fraction(best_fraction_plus_slop);
  }
  /// Starts the cast against another body, along `displacement` (relative to it, m).
  void begin_target(const Vec3& displacement) {
    displacement_ = displacement;
    found = false;
  }
  void add_hit(const ShapeCastResult& hit) override {
    const float approach = hit.normal.dot(displacement_);
    if (!(approach > max_penetration_)) return;
    const float fraction_plus_slop = hit.fraction + max_penetration_ / approach;
    if (!(fraction_plus_slop < best_)) return;
    best_ = fraction_plus_slop;
    fraction = hit.fraction;
    hit_result = hit;
    found = true;
    // A later hit cannot stop the body earlier than where it stops now.
    update_early_out_fraction(fraction_plus_slop);
  }
  float fraction_plus_slop() const { return best_; }
  /// Forgets the last target's hits: back to `best_fraction_plus_slop` and `best_fraction`
  /// (what fraction_plus_slop() and fraction read before begin_target).
  void discard_target(float best_fraction_plus_slop, float best_fraction) {
    best_ = best_fraction_plus_slop;
    fraction = best_fraction;
    found = false;
    reset_early_out_fraction(best_fraction_plus_slop);
  }

  /// True when the last target gave the best hit so far.
  bool found = false;
  /// Fraction of the best hit.
  float fraction = 1.0f;
  /// The best hit.
  ShapeCastResult hit_result;

 private:
  float max_penetration_;
  float best_;
  Vec3 displacement_;
};

// Whether the contact listener lets a CCD hit of body1 (the swept body) on body2 stop it:
// on_contact_validate, then on_contact_added with the hit as a one-point manifold; a rejected
// pair or a contact made a sensor does not stop it.
bool ccd_hit_accepted(ContactListener& listener, const Body& body1, const Body& body2,
                      const ShapeCastResult& hit) {
  // Body 1 is the swept (dynamic) body; the listener sees the more dynamic body first.
  ContactManifold manifold;
  manifold.normal = hit.normal;
  manifold.penetration_depth = hit.penetration_depth;
  manifold.sub_shape_id1 = hit.sub_shape_id1;
  manifold.sub_shape_id2 = hit.sub_shape_id2;
  manifold.points_on_1.push_back(hit.point_on_shape);
  manifold.points_on_2.push_back(hit.point_on_target);
  const bool first =
      motion_rank(body1) > motion_rank(body2) ||
      (motion_rank(body1) == motion_rank(body2) && body1.id().value() < body2.id().value());
  const Body& l1 = first ? body1 : body2;
  const Body& l2 = first ? body2 : body1;
  if (listener.on_contact_validate(l1, l2) == ValidateResult::Reject) return false;
  ContactSettings cs = combined_settings(body1, body2, false);
  listener.on_contact_added(l1, l2, first ? manifold : flipped(manifold), cs);
  return !cs.is_sensor;
}

// Stage ccd for one CCD body: its earliest hit. Writes only that CcdBody and `candidates`
// (scratch), so bodies can be cast in any order, on any worker (without a listener: with one,
// its calls come in body order, on the calling thread).
void find_ccd_hit(const StepContext& ctx, CcdBody& c, AllHitsBroadPhaseCollector& candidates,
                  uint32_t ccd_index) {
  const BodyManager& bodies = *ctx.body_manager;
  const SolverBodies& solver = ctx.solver;
  const uint32_t index1 = solver.source[c.solver_index];
  const Body& body1 = *bodies.body_at_slot(index1);
  // Bodies are written back after stage solve_position, so Body still holds every body's pose
  // at the start of the step: the cast starts there, at the starting rotation, and each target
  // stays at its start pose while the cast moves relative to it (exact for two translating
  // bodies).
  const Mat44 start = body1.world_transform();
  // Candidates: bodies whose fat boxes (grown by their own predicted motion) the body's box
  // meets on its way.
  candidates.reset();
  const DefaultObjectLayerFilter layers(*ctx.object_layer_pair_filter, body1.object_layer());
  const DefaultBroadPhaseLayerFilter bp_layers(*ctx.object_vs_broadphase_filter,
                                               body1.object_layer());
  const AABox& bounds1 = body1.world_bounds();
  // The tree walk for a long cast visits many nodes (a fast body's fat box is stretched along
  // its motion, and so are all its neighbours'): half of HighSpeed's step. When the cast stays
  // inside the body's own fat box (its velocity barely changed since the box was made), every
  // body the walk would report shares a find_pairs pair with it, so testing those partners
  // alone gives the same candidates and fractions, bit for bit.
  const BroadPhase& broadphase = *ctx.broadphase;
  const Status queried =
      ctx.pairs_complete && broadphase.sweep_within_fat_box(index1, bounds1, c.delta_position)
          ? broadphase.cast_aabox_among(
                bounds1, c.delta_position,
                std::span<const uint32_t>(
                    ctx.ccd_partners.data() + ctx.ccd_partner_start[ccd_index],
                    ctx.ccd_partner_start[ccd_index + 1] - ctx.ccd_partner_start[ccd_index]),
                layers, candidates, bp_layers)
          : broadphase.cast_aabox(bounds1, c.delta_position, layers, candidates, bp_layers);
  ATOLL_ASSERT(queried.ok(), "the bounds and velocity of a valid body are finite");
  (void)queried;
  // By (entry fraction, body index): the chosen hit does not depend on the trees' shapes.
  candidates.sort();

  const ShapeCastSettings cast_settings;
  CcdHitCollector collector(c.max_penetration, k_float_max);
  for (const BroadPhaseHit& candidate : candidates.hits) {
    if (candidate.body_index == index1) continue;
    const Body& body2 = *bodies.body_at_slot(candidate.body_index);
    // A soft body's vertices collide in its own stage.
    if (body2.is_sensor() || body2.is_soft_body() || !bodies.groups_collide(body1, body2)) continue;
    Vec3 velocity2;
    const uint32_t solver2 = solver.index_of[candidate.body_index];
    if (solver2 != k_none) {
      // Two CCD bodies are cast against each other once, from the lower ID (resolve_ccd then
      // stops the other one at the hit too).
      if (solver2 < ctx.ccd_index_of.size() && ctx.ccd_index_of[solver2] != k_none &&
          body2.id().value() < c.body_id)
        continue;
      velocity2 = solver.bodies[solver2].linear_velocity;
    }
    const Vec3 displacement = c.delta_position - velocity2 * ctx.dt;
    // Moving this little relative to body 2, the discrete contacts handle the pair. A
    // displacement that overflowed (body 2's velocity did; it is quarantined after the step) is
    // not cast either: the cast refuses it.
    if (!(displacement.length_sq() > c.threshold_sq) || !displacement.is_finite()) continue;
    const float best_fraction_plus_slop = collector.fraction_plus_slop();
    const float best_fraction = collector.fraction;
    collector.begin_target(displacement);
    const Status cast = cast_shape(*body1.shape(), start, displacement, *body2.shape(),
                                   body2.world_transform(), cast_settings, collector);
    ATOLL_ASSERT(cast.ok(), "rigid body transforms and default cast settings are valid");
    (void)cast;
    if (!collector.found) continue;
    // The hit goes through the listener like a new contact (in its body order): a rejected
    // pair, or a contact it makes a sensor, does not stop the body.
    if (ctx.contact_listener != nullptr &&
        !ccd_hit_accepted(*ctx.contact_listener, body1, body2, collector.hit_result)) {
      collector.discard_target(best_fraction_plus_slop, best_fraction);
      continue;
    }
    c.hit_body = candidate.body_index;
  }
  if (c.hit_body != CcdBody::k_no_hit) {
    c.fraction = collector.fraction;
    c.fraction_plus_slop = collector.fraction_plus_slop();
  }
}

// Each CCD body's partners in ctx.pairs (CSR by CCD index, in pair order), by counting sort.
void gather_ccd_partners(StepContext& ctx) {
  const SolverBodies& solver = ctx.solver;
  const auto ccd_index = [&ctx, &solver](uint32_t body_index) {
    const uint32_t s = solver.index_of[body_index];
    return s < ctx.ccd_index_of.size() ? ctx.ccd_index_of[s] : k_none;
  };
  std::vector<uint32_t>& start = ctx.ccd_partner_start;
  start.assign(ctx.ccd_bodies.size() + 1, 0);
  for (const BodyPair& bp : ctx.pairs) {
    if (const uint32_t k = ccd_index(bp.a); k != k_none) ++start[k];
    if (const uint32_t k = ccd_index(bp.b); k != k_none) ++start[k];
  }
  // Running sums: start[k] is now where body k's partners end.
  for (size_t k = 1; k < start.size(); ++k) start[k] += start[k - 1];
  ctx.ccd_partners.resize(start.back());
  // Filled from each body's end backwards while walking the pairs backwards: pair order is kept
  // and start[k] ends where body k's partners begin.
  for (size_t i = ctx.pairs.size(); i-- > 0;) {
    const BodyPair& bp = ctx.pairs[i];
    if (const uint32_t k = ccd_index(bp.a); k != k_none) ctx.ccd_partners[--start[k]] = bp.b;
    if (const uint32_t k = ccd_index(bp.b); k != k_none) ctx.ccd_partners[--start[k]] = bp.a;
  }
}

// Stage ccd for all CCD bodies, sequential: earliest hits first, then the moves.
void resolve_ccd(StepContext& ctx) {
  std::vector<CcdBody>& ccd_bodies = ctx.ccd_bodies;
  // Earliest hits first (ties by body ID), so that a CCD body that another one hits earlier
  // stops there whatever order the bodies were cast in.
  ctx.ccd_order.clear();
  for (uint32_t k = 0; k < ccd_bodies.size(); ++k)
    if (ccd_bodies[k].hit_body != CcdBody::k_no_hit) ctx.ccd_order.push_back(k);
  quick_sort(ctx.ccd_order.begin(), ctx.ccd_order.end(), [&ccd_bodies](uint32_t a, uint32_t b) {
    const CcdBody& x = ccd_bodies[a];
    const CcdBody& y = ccd_bodies[b];
    return x.fraction < y.fraction || (x.fraction == y.fraction && x.body_id < y.body_id);
  });
  for (uint32_t k : ctx.ccd_order) {
    const CcdBody& c = ccd_bodies[k];
    // Lost its own hit to an earlier CCD body that hit it (below).
    if (c.hit_body == CcdBody::k_no_hit) continue;
    ++ctx.result->num_ccd_hits;
    const uint32_t solver2 = ctx.solver.index_of[c.hit_body];
    if (solver2 == k_none || solver2 >= ctx.ccd_index_of.size() ||
        ctx.ccd_index_of[solver2] == k_none)
      continue;
    // A CCD body hit before its own first hit stops where it was hit (Jolt: without slop; the
    // hitting body takes the penetration).
    CcdBody& other = ccd_bodies[ctx.ccd_index_of[solver2]];
    if (other.fraction > c.fraction) {
      other.hit_body = CcdBody::k_no_hit;
      other.fraction = c.fraction;
      other.fraction_plus_slop = c.fraction;
    }
  }
  // Time stealing: the body stops part of the way (stage integrate_positions moved it all the
  // way); its velocity is left as it is, so it bounces (or stops) through the ordinary contact
  // on the next step (seed 004 §4).
  ctx.ccd_stopped.clear();
  for (const CcdBody& c : ccd_bodies) {
    if (c.fraction_plus_slop >= 1.0f) continue;
    ctx.solver.bodies[c.solver_index].com_position =
        c.start_position + c.delta_position * std::max(c.fraction_plus_slop, 0.0f);
    ctx.ccd_stopped.push_back(c.body_id);
  }
  ctx.contacts->set_ccd_stopped(ctx.ccd_stopped);
}

}  // namespace

void register_ccd_bodies(StepContext& ctx) {
  const PhysicsSettings& settings = *ctx.settings;
  ctx.ccd_bodies.clear();
  for (uint32_t solver_index : ctx.solver.linear_cast_candidates) {
    const SolverBody& sb = ctx.solver.bodies[solver_index];
    const Vec3 delta_position = sb.linear_velocity * ctx.dt;
    const Body& body = *ctx.body_manager->body_at_slot(ctx.solver.source[solver_index]);
    const float inner_radius = body.shape()->inner_radius();
    const float threshold = settings.linear_cast_threshold * inner_radius;
    if (!(delta_position.length_sq() > threshold * threshold)) continue;
    // A velocity that overflowed this step (the body is quarantined after it): nothing to sweep,
    // and the broadphase refuses a non-finite cast.
    if (!delta_position.is_finite()) continue;
    CcdBody& c = ctx.ccd_bodies.emplace_back();
    c.solver_index = solver_index;
    c.body_id = body.id().value();
    c.start_position = sb.com_position;
    c.delta_position = delta_position;
    c.threshold_sq = threshold * threshold;
    c.max_penetration =
        std::min(settings.penetration_slop, settings.linear_cast_max_penetration * inner_radius);
  }
}

void ccd(StepContext& ctx) {
  if (ctx.ccd_bodies.empty()) {
    ctx.contacts->set_ccd_stopped({});
    return;
  }
  ctx.result->num_ccd_bodies += static_cast<uint32_t>(ctx.ccd_bodies.size());
  ctx.ccd_index_of.assign(ctx.solver.size(), k_none);
  for (uint32_t k = 0; k < ctx.ccd_bodies.size(); ++k)
    ctx.ccd_index_of[ctx.ccd_bodies[k].solver_index] = k;
  if (ctx.pairs_complete) gather_ccd_partners(ctx);
  const uint32_t count = static_cast<uint32_t>(ctx.ccd_bodies.size());
  // The listener's calls come in body order on the calling thread; without one, the casts run
  // on every worker, each with its own candidate list (the hits are chosen per body, and
  // resolve_ccd orders them after).
  InlineJobSystem inline_jobs;
  JobSystem& jobs =
      ctx.contact_listener == nullptr ? *ctx.jobs : static_cast<JobSystem&>(inline_jobs);
  if (ctx.ccd_workers.size() < jobs.num_workers()) ctx.ccd_workers.resize(jobs.num_workers());
  const StepContext& shared = ctx;
  parallel_for_claimed_shares(
      jobs, count, k_ccd_bodies_per_share, k_ccd_bodies_per_take, k_ccd_bodies_steal,
      [&](uint32_t begin, uint32_t end, uint32_t worker) {
        for (uint32_t k = begin; k < end; ++k)
          find_ccd_hit(shared, ctx.ccd_bodies[k], ctx.ccd_workers[worker].candidates, k);
      });
  resolve_ccd(ctx);
}

}  // namespace atl
