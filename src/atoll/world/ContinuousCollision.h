#pragma once
// LinearCast CCD (DESIGN.md §2 stages 9–10): a body that moves more than linear_cast_threshold ×
// its inner radius in a step is cast along its displacement and stopped at its earliest hit
// ("time stealing"; seed 004 §4). It lives in world/ because a hit goes through the contact
// listener like a new contact.

namespace atl {

struct StepContext;

/// Stage integrate_positions, first half (before the move): queues the LinearCast candidates
/// that move too far this step to be moved blindly into ctx.ccd_bodies.
void register_ccd_bodies(StepContext& ctx);

/// Stage ccd: the earliest accepted hit of each queued body (any order: each cast writes only
/// its own CcdBody), then, sequentially, earliest hits first, the moves back to the hits.
void ccd(StepContext& ctx);

}  // namespace atl
