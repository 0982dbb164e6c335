// ConstraintManager's setup (issue 9 item 2): in shares on the job system's workers, each
// constraint once, unless a solved constraint's setup reads other constraints
// (Constraint::reads_other_constraints, a gear following its hinges): then in solve order on the
// caller. The solve list keeps its solve order whether or not it needs sorting.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "BackwardsJobSystem.h"
#include "atoll/constraint/ConstraintManager.h"

namespace atl {
namespace constraint_manager_test {
namespace {

// A constraint that only notes when it was set up.
class SetupProbe final : public Constraint {
 public:
  SetupProbe(std::vector<uint32_t>& log, uint32_t id, bool reads_others, uint32_t priority)
      : Constraint(k_world, k_world, settings(priority)),
        log_(log),
        id_(id),
        reads_others_(reads_others) {}
  ConstraintSubType sub_type() const override { return ConstraintSubType::Point; }
  void setup_velocity_constraint(const SolverBody&, const SolverBody&, float) override {
    log_.push_back(id_);
  }
  bool reads_other_constraints() const override { return reads_others_; }
  void warm_start_velocity_constraint(SolverBody&, SolverBody&, float) override {}
  bool solve_velocity_constraint(SolverBody&, SolverBody&, float) override { return false; }
  bool solve_position_constraint(SolverBody&, SolverBody&, float, float) override { return false; }
  float linear_impulse() const override { return 0.0f; }
  float angular_impulse() const override { return 0.0f; }
  void reset_warm_start() override {}

 protected:
  void visit_type_state(StateStream&) override {}

 private:
  static ConstraintSettings settings(uint32_t priority) {
    ConstraintSettings s;
    s.priority = priority;
    return s;
  }
  std::vector<uint32_t>& log_;
  uint32_t id_;
  bool reads_others_;
};

// `count` probes added to `manager` and pushed to its solve list in index order (probe `reader`
// reads others; none when out of range), each against the world.
std::vector<Ref<Constraint>> add_probes(ConstraintManager& manager, std::vector<uint32_t>& log,
                                        uint32_t count, uint32_t reader,
                                        const std::vector<uint32_t>& priorities = {}) {
  std::vector<Ref<Constraint>> probes;
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t priority = i < priorities.size() ? priorities[i] : 0;
    probes.push_back(make_ref<SetupProbe>(log, i, i == reader, priority));
    manager.add(probes.back());
  }
  manager.begin_step();
  for (const Ref<Constraint>& probe : probes)
    manager.push_solved(probe.get(), ConstraintManager::k_world_entry,
                        ConstraintManager::k_world_entry, ConstraintManager::solve_entry(*probe));
  manager.sort_solved();
  return probes;
}

constexpr uint32_t k_none = 0xffffffffu;

TEST(ConstraintManager, SetupRunsInSharesOnTheWorkers) {
  ConstraintManager manager;
  std::vector<uint32_t> log;
  const std::vector<Ref<Constraint>> probes = add_probes(manager, log, 300, k_none);
  BackwardsJobSystem jobs(2);
  manager.setup_velocity_constraints({}, 1.0f / 60.0f, true, &jobs);
  // Two shares of 150, the second run first: every probe once.
  ASSERT_EQ(log.size(), 300u);
  EXPECT_EQ(log.front(), 150u);
  EXPECT_EQ(log[150], 0u);
  std::vector<uint32_t> sorted = log;
  std::sort(sorted.begin(), sorted.end());
  for (uint32_t i = 0; i < 300; ++i) EXPECT_EQ(sorted[i], i);
}

TEST(ConstraintManager, SetupIsInSolveOrderWhenOneReadsOthers) {
  for (const uint32_t reader : {0u, 299u}) {
    ConstraintManager manager;
    std::vector<uint32_t> log;
    const std::vector<Ref<Constraint>> probes = add_probes(manager, log, 300, reader);
    BackwardsJobSystem jobs(2);
    manager.setup_velocity_constraints({}, 1.0f / 60.0f, true, &jobs);
    ASSERT_EQ(log.size(), 300u) << reader;
    for (uint32_t i = 0; i < 300; ++i) EXPECT_EQ(log[i], i) << reader;
  }
}

TEST(ConstraintManager, SetupWithoutJobsIsInSolveOrder) {
  ConstraintManager manager;
  std::vector<uint32_t> log;
  // Priorities 2, 1, 0, 2, 1, 0, …: the solve list is sorted (priority, then index).
  std::vector<uint32_t> priorities;
  for (uint32_t i = 0; i < 9; ++i) priorities.push_back(2 - i % 3);
  const std::vector<Ref<Constraint>> probes = add_probes(manager, log, 9, k_none, priorities);
  manager.setup_velocity_constraints({}, 1.0f / 60.0f, true);
  const std::vector<uint32_t> expected = {2, 5, 8, 1, 4, 7, 0, 3, 6};
  EXPECT_EQ(log, expected);
}

}  // namespace
}  // namespace constraint_manager_test
}  // namespace atl
