#pragma once
// The constraints of a world (seed 003 §4, §6) and their part of each step. The list keeps the
// order constraints were added in (a constraint's index is its position; removing one closes
// the gap, so the order of the others never changes). Each step the solved constraints — enabled,
// both bodies present, at least one of them movable — are listed in solve order: priority
// ascending (higher priority solved later, i.e. more exactly), equal priority by index (LAWS.md
// D7). A disabled constraint is not in that list and costs nothing in the solve.
//
// The island stages (solver/IslandSolver.h) fill the solve list with the solver indices of each
// constraint's bodies and call the solve passes with one island's items (positions in the solve
// list). Immovable entries (static, sleeping, kinematic bodies; the world) are written only
// through copies (writable_entry), so islands never write the same entry.

#include <cstdint>
#include <span>
#include <vector>

#include "atoll/constraint/Constraint.h"
#include "atoll/core/JobSystem.h"

namespace atl {

class ConstraintManager {
 public:
  /// Solver index meaning "the world" in body1()/body2() of the solve list.
  static constexpr uint32_t k_world_entry = 0xfffffffeu;

  ConstraintManager() = default;
  ConstraintManager(const ConstraintManager&) = delete;
  ConstraintManager& operator=(const ConstraintManager&) = delete;
  /// The constraints leave the world with it: a Ref kept by the user can be added to another.
  ~ConstraintManager();

  /// Adds a constraint (not in any world yet; checked by the caller).
  void add(const Ref<Constraint>& constraint);
  /// Removes a constraint of this manager; false when it is not one.
  bool remove(const Constraint& constraint);
  /// True when the constraint is in this manager.
  bool contains(const Constraint& constraint) const;
  /// Makes `list` the constraints, in its order (a rollback snapshot's list,
  /// state/WorldSnapshot.h): the ones not in it leave the world, the others take their index in
  /// it. Each of `list` must be in this manager or in none (the caller checks).
  void replace_all(std::span<const Ref<Constraint>> list);
  /// Every constraint, in index order.
  std::span<const Ref<Constraint>> constraints() const { return constraints_; }
  /// Number of constraints.
  uint32_t size() const { return static_cast<uint32_t>(constraints_.size()); }

  // --- This step's solve list -----------------------------------------------------------------

  /// What the solve list keeps of a constraint besides the constraint: read by the caller when
  /// it looks at the constraint anyway (solve_entry), so that making the list, sorting it and
  /// choosing how to set it up read no constraint again.
  struct SolveEntry {
    uint32_t priority = 0;      // Constraint::priority()
    uint32_t index = 0;         // Constraint::index()
    bool reads_others = false;  // Constraint::reads_other_constraints()
  };
  static SolveEntry solve_entry(const Constraint& constraint) {
    return {constraint.priority(), constraint.index(), constraint.reads_other_constraints()};
  }

  /// Starts the solve list of a step.
  void begin_step() {
    solving_.clear();
    solve_body1_.clear();
    solve_body2_.clear();
    solve_key_.clear();
    in_solve_order_ = true;
    num_reading_others_ = 0;
  }
  /// Appends a constraint to solve, with the solver indices of its bodies (k_world_entry for
  /// the world) and its solve_entry().
  void push_solved(Constraint* constraint, uint32_t body1, uint32_t body2,
                   const SolveEntry& entry) {
    const uint64_t key = uint64_t{entry.priority} << 32 | entry.index;
    if (!solve_key_.empty() && key <= solve_key_.back()) in_solve_order_ = false;
    solving_.push_back(constraint);
    solve_body1_.push_back(body1);
    solve_body2_.push_back(body2);
    solve_key_.push_back(key);
    num_reading_others_ += entry.reads_others ? 1 : 0;
  }
  /// Puts the solve list in solve order: priority ascending, then index. Nothing to do when
  /// the constraints were pushed in that order (pushed in index order, all of one priority).
  void sort_solved();
  /// Number of constraints solved this step.
  uint32_t num_solved() const { return static_cast<uint32_t>(solving_.size()); }
  /// Solve-list entry `i`.
  Constraint& solved(uint32_t i) const { return *solving_[i]; }
  uint32_t solved_body1(uint32_t i) const { return solve_body1_[i]; }
  uint32_t solved_body2(uint32_t i) const { return solve_body2_[i]; }
  /// The solver entries of every solve-list entry's bodies (the world is k_world_entry).
  std::span<const uint32_t> solved_bodies1() const { return solve_body1_; }
  std::span<const uint32_t> solved_bodies2() const { return solve_body2_; }

  /// Stage setup_velocity: sets up every solved constraint and sets the warm-start ratio
  /// (dt / previous dt, 0 with warm start off). With `jobs`, in shares on its workers (each
  /// constraint writes only its own data), unless a solved constraint reads others
  /// (Constraint::reads_other_constraints): then all of them in solve order on the caller.
  void setup_velocity_constraints(std::span<const SolverBody> bodies, float dt, bool warm_start,
                                  JobSystem* jobs = nullptr);
  /// Warm start of the given items (solve-list positions).
  void warm_start(std::span<SolverBody> bodies, std::span<const uint32_t> items);
  /// One velocity iteration over the items; true when one applied an impulse.
  bool solve_velocity_constraints(std::span<SolverBody> bodies, std::span<const uint32_t> items);
  /// One position iteration over the items; true when one moved a body.
  bool solve_position_constraints(std::span<SolverBody> bodies, std::span<const uint32_t> items,
                                  float baumgarte);
  /// After the solve: disables every solved constraint whose impulse this step exceeded a
  /// non-zero break threshold and appends it to `broken` (solve order).
  void break_constraints(std::vector<Ref<Constraint>>& broken);

  /// Walks the state that carries from one step to the next apart from the constraints' own
  /// (core/StateStream.h): the previous step's length, by which warm starts rescale.
  void visit_step_state(StateStream& stream) {
    stream.floats("constraint_previous_dt", &previous_dt_, 1);
  }

 private:
  // The entry of solver index `index` that the solve may write (a copy for the world and for
  // immovable entries).
  SolverBody& entry(std::span<SolverBody> bodies, uint32_t index, SolverBody& copy) const;

  std::vector<Ref<Constraint>> constraints_;
  std::vector<Constraint*> solving_;
  std::vector<uint32_t> solve_body1_;
  std::vector<uint32_t> solve_body2_;
  // Each solved constraint's place in solve order: priority in the high 32 bits, index low.
  std::vector<uint64_t> solve_key_;
  bool in_solve_order_ = true;       // the keys ascend: sort_solved has nothing to do
  uint32_t num_reading_others_ = 0;  // solved constraints whose setup reads others
  // Scratch of sort_solved.
  std::vector<uint32_t> order_;
  std::vector<Constraint*> sorted_;
  std::vector<uint32_t> sorted_body1_, sorted_body2_;
  std::vector<uint64_t> sorted_key_;
  float dt_ = 0.0f;
  float previous_dt_ = 0.0f;
  float warm_start_ratio_ = 0.0f;
};

}  // namespace atl
