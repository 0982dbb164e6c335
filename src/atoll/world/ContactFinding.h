#pragma once
// Stages narrow_phase and finish_contacts (DESIGN.md §2 stage 3): manifolds of this step's body
// pairs into the contact cache, with the contact listener's calls and the contact events. They
// live in world/ because the listener and its events do.

namespace atl {

struct StepContext;

/// Stage narrow_phase: collides every pair of ctx.pairs (the body-pair cache first), calls the
/// listener, adds the manifolds to the contact manager and (with a listener) the events to
/// ctx.events; a sleeping dynamic body that a solid contact reaches wakes and takes full part
/// in this step (its pairs are found and collided, in rounds in body-index order).
void narrow_phase(StepContext& ctx);

/// Stage finish_contacts: ends the contact manager's step and (with a listener) reports last
/// step's contacts that were not found again as removed events.
void finish_contacts(StepContext& ctx);

}  // namespace atl
