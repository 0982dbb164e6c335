#pragma once
// This step's solver bodies (DESIGN.md §2 stages 1, 6–11): the compact array the impulses work
// on, the maps between it and the body storage, and the stages that fill it from the bodies and
// write it back. Entries: the active bodies first (in active-list order, = their solver
// indices), then an immovable entry for each static, sleeping or inactive kinematic body a
// contact reaches (created on demand), whose slot a body woken during the narrow phase turns
// movable. Immovable entries are read-only during the solve (ContactConstraintManager writes
// through copies), so islands never write the same entry.

#include <cstdint>
#include <vector>

#include "atoll/body/BodyManager.h"
#include "atoll/constraint/SolverBody.h"
#include "atoll/core/JobSystem.h"
#include "atoll/solver/ContactConstraintManager.h"

namespace atl {

/// An active body whose state went non-finite this step, and the pose it started it with.
struct NonFiniteBody {
  /// Body slot index.
  uint32_t body_index;
  /// Centre of mass (m) at the start of the step.
  Vec3 com_position;
  /// Rotation at the start of the step.
  Quat rotation;
  /// Its entry's place in SolverBodies::moving (the order in which they are listed).
  uint32_t moving_position;
};

/// The solver-body array of one step and its index maps; buffers are kept between steps.
struct SolverBodies {
  /// "No entry" in index_of.
  static constexpr uint32_t k_none = 0xffffffffu;

  /// The entries the solver works on.
  std::vector<SolverBody> bodies;
  /// Velocities of the active bodies (in active-list order, = their solver indices) before
  /// stage 1 added gravity and forces: restitution bounces with these (issue 7 item 4).
  std::vector<BodyVelocity> velocities_before_forces;
  /// Solver index → body slot index.
  std::vector<uint32_t> source;
  /// Scratch of gather_solver_bodies: the last step's `source`, whose entries' index_of it resets.
  std::vector<uint32_t> last_source;
  /// How many of the first entries are active bodies (in index order); the entries after them
  /// were added by the narrow phase (index_for, add_woken).
  uint32_t num_active = 0;
  /// Body slot index → solver index (or k_none); as large as the body storage.
  std::vector<uint32_t> index_of;
  /// Per solver index: 1 when impulses move it (dynamic), 0 otherwise.
  std::vector<uint8_t> movable;
  /// Solver indices of the bodies that move this step: the active bodies (the first entries),
  /// then the bodies woken during the narrow phase.
  std::vector<uint32_t> moving;
  /// Solver indices of the active dynamic LinearCast non-sensors (CCD candidates).
  std::vector<uint32_t> linear_cast_candidates;
  /// Scratch of gather_solver_bodies: per active body's entry, 1 when it is a CCD candidate.
  std::vector<uint8_t> cast_candidate;

  /// Number of entries.
  uint32_t size() const { return static_cast<uint32_t>(bodies.size()); }
  /// The entry of body slot `body_index`, created immovable (zero inverse mass and velocity, its
  /// real pose so that contact points are in the right place) when it has none yet.
  uint32_t index_for(const BodyManager& body_manager, uint32_t body_index);
  /// Turns the entry of a body woken this step (after it was activated and its forces applied)
  /// movable and moving; returns its solver index.
  uint32_t add_woken(const BodyManager& body_manager, uint32_t body_index);
};

/// Stage apply_forces: gravity × gravity factor, forces, torques and damping into the velocities
/// of the active dynamic bodies; records every active body's velocity before it. In shares as
/// write_back (each body on its own).
void apply_forces(BodyManager& body_manager, const Vec3& gravity, float dt, SolverBodies& solver,
                  JobSystem& jobs);

/// After the last collision step of an update: clears the accumulated force and torque of every
/// active body (forces apply for one update, as in Jolt). In shares as apply_forces, so that each
/// core clears the bodies it reads there next.
void clear_forces(BodyManager& body_manager, JobSystem& jobs);

/// Stage gather_solver_bodies: one movable entry per active body, in active-list order; resets
/// the entries of the last step. In shares as write_back (each entry on its own).
void gather_solver_bodies(const BodyManager& body_manager, SolverBodies& solver, JobSystem& jobs);

/// Stage integrate_positions: velocities × dt into the positions of the moving entries, in
/// one share per worker of at least k_body_share entries on `jobs` (each entry on its own: any
/// division gives the same bits).
void integrate_positions(SolverBodies& solver, float dt, JobSystem& jobs);

/// Stage write_back: the moving entries' poses and (dynamic) velocities into their bodies, in
/// shares as integrate_positions. An entry whose state is non-finite is listed in `non_finite`
/// (cleared first; in the moving list's order) with its body's pose at the start of the step,
/// which the body still holds, and gets that pose and zero velocity, so that every body is
/// written finite numbers.
void write_back(BodyManager& body_manager, SolverBodies& solver, JobSystem& jobs,
                std::vector<NonFiniteBody>& non_finite);

}  // namespace atl
