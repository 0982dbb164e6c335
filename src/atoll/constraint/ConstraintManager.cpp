#include "atoll/constraint/ConstraintManager.h"

#include <algorithm>

#include "atoll/core/QuickSort.h"

namespace atl {

namespace {

// The world as a solver entry: the origin, identity rotation, immovable.
SolverBody world_entry() {
  SolverBody body;
  body.linear_velocity = Vec3::zero();
  body.angular_velocity = Vec3::zero();
  body.inv_mass = Vec3::zero();
  body.inv_inertia = Mat44::zero();
  body.com_position = Vec3::zero();
  body.rotation = Quat();
  return body;
}

}  // namespace

ConstraintManager::~ConstraintManager() {
  for (const Ref<Constraint>& constraint : constraints_)
    constraint->index_ = Constraint::k_not_in_world;
}

void ConstraintManager::add(const Ref<Constraint>& constraint) {
  constraint->index_ = static_cast<uint32_t>(constraints_.size());
  constraints_.push_back(constraint);
}

bool ConstraintManager::contains(const Constraint& constraint) const {
  return constraint.index_ < constraints_.size() &&
         constraints_[constraint.index_].get() == &constraint;
}

bool ConstraintManager::remove(const Constraint& constraint) {
  if (!contains(constraint)) return false;
  const uint32_t index = constraint.index_;
  constraints_[index]->index_ = Constraint::k_not_in_world;
  constraints_.erase(constraints_.begin() + index);
  for (uint32_t i = index; i < constraints_.size(); ++i) constraints_[i]->index_ = i;
  return true;
}

void ConstraintManager::replace_all(std::span<const Ref<Constraint>> list) {
  ATOLL_ASSERT(std::all_of(list.begin(), list.end(),
                           [this](const Ref<Constraint>& c) {
                             return contains(*c) || c->index_ == Constraint::k_not_in_world;
                           }),
               "a constraint of another world");
  for (const Ref<Constraint>& constraint : constraints_)
    constraint->index_ = Constraint::k_not_in_world;
  constraints_.assign(list.begin(), list.end());
  for (uint32_t i = 0; i < constraints_.size(); ++i) constraints_[i]->index_ = i;
}

void ConstraintManager::sort_solved() {
  if (in_solve_order_) return;
  const uint32_t n = num_solved();
  order_.resize(n);
  for (uint32_t i = 0; i < n; ++i) order_[i] = i;
  // The keys are unique (an index is), so the order is the same for any sort.
  quick_sort(order_.begin(), order_.end(),
             [this](uint32_t a, uint32_t b) { return solve_key_[a] < solve_key_[b]; });
  sorted_.resize(n);
  sorted_body1_.resize(n);
  sorted_body2_.resize(n);
  sorted_key_.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    sorted_[i] = solving_[order_[i]];
    sorted_body1_[i] = solve_body1_[order_[i]];
    sorted_body2_[i] = solve_body2_[order_[i]];
    sorted_key_[i] = solve_key_[order_[i]];
  }
  solving_.swap(sorted_);
  solve_body1_.swap(sorted_body1_);
  solve_body2_.swap(sorted_body2_);
  solve_key_.swap(sorted_key_);
  in_solve_order_ = true;
}

SolverBody& ConstraintManager::entry(std::span<SolverBody> bodies, uint32_t index,
                                     SolverBody& copy) const {
  if (index == k_world_entry) {
    copy = world_entry();
    return copy;
  }
  return writable_entry(bodies, index, copy);
}

void ConstraintManager::setup_velocity_constraints(std::span<const SolverBody> bodies, float dt,
                                                   bool warm_start, JobSystem* jobs) {
  warm_start_ratio_ = warm_start && previous_dt_ > 0.0f ? dt / previous_dt_ : 0.0f;
  previous_dt_ = dt;
  dt_ = dt;
  const SolverBody world = world_entry();
  const auto setup = [&](uint32_t begin, uint32_t end, uint32_t) {
    for (uint32_t i = begin; i < end; ++i) {
      const uint32_t b1 = solve_body1_[i];
      const uint32_t b2 = solve_body2_[i];
      solving_[i]->setup_velocity_constraint(b1 == k_world_entry ? world : bodies[b1],
                                             b2 == k_world_entry ? world : bodies[b2], dt);
    }
  };
  // Fewest constraints in a share: a setup takes a few hundred nanoseconds (a point
  // constraint) to a few microseconds (a six-DOF one), so a share of 128 is tens of
  // microseconds, well above what handing it to another core costs.
  constexpr uint32_t k_min_setup_share = 128;
  if (jobs != nullptr && num_reading_others_ == 0)
    parallel_for_shares(*jobs, num_solved(), k_min_setup_share, setup);
  else
    setup(0, num_solved(), 0);
}

void ConstraintManager::warm_start(std::span<SolverBody> bodies, std::span<const uint32_t> items) {
  SolverBody copy1, copy2;
  for (uint32_t i : items)
    solving_[i]->warm_start_velocity_constraint(entry(bodies, solve_body1_[i], copy1),
                                                entry(bodies, solve_body2_[i], copy2),
                                                warm_start_ratio_);
}

bool ConstraintManager::solve_velocity_constraints(std::span<SolverBody> bodies,
                                                   std::span<const uint32_t> items) {
  SolverBody copy1, copy2;
  bool applied = false;
  for (uint32_t i : items)
    applied |= solving_[i]->solve_velocity_constraint(entry(bodies, solve_body1_[i], copy1),
                                                      entry(bodies, solve_body2_[i], copy2), dt_);
  return applied;
}

bool ConstraintManager::solve_position_constraints(std::span<SolverBody> bodies,
                                                   std::span<const uint32_t> items,
                                                   float baumgarte) {
  SolverBody copy1, copy2;
  bool moved = false;
  for (uint32_t i : items)
    moved |= solving_[i]->solve_position_constraint(entry(bodies, solve_body1_[i], copy1),
                                                    entry(bodies, solve_body2_[i], copy2), dt_,
                                                    baumgarte);
  return moved;
}

void ConstraintManager::break_constraints(std::vector<Ref<Constraint>>& broken) {
  for (Constraint* c : solving_) {
    const bool linear = c->break_impulse() > 0.0f && c->linear_impulse() > c->break_impulse();
    const bool angular =
        c->break_angular_impulse() > 0.0f && c->angular_impulse() > c->break_angular_impulse();
    if (!linear && !angular) continue;
    c->set_enabled(false);
    broken.push_back(Ref<Constraint>(c));
  }
}

}  // namespace atl
