// gather_solver_bodies on several workers: each share resets the last step's body → entry map
// for its own body slots and then writes its own entries (no reset on the caller), so the map
// must come out exactly as this step's entries say, whatever left or joined the active list
// since the last step, on any job system.

#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

#include "BackwardsJobSystem.h"
#include "atoll/body/BodyManager.h"
#include "atoll/solver/SolverBodies.h"
#include "body/BodyTestUtil.h"

namespace atl {
namespace solver_bodies_thread_test {
namespace {

// Every body slot maps to the entry that holds it, and a slot no entry holds maps to none.
void expect_map_matches_entries(const BodyManager& manager, const SolverBodies& solver,
                                const std::string& label) {
  ASSERT_GE(solver.index_of.size(), manager.num_slots()) << label;
  std::vector<uint32_t> expected(solver.index_of.size(), SolverBodies::k_none);
  for (uint32_t s = 0; s < solver.source.size(); ++s) expected[solver.source[s]] = s;
  uint32_t wrong = 0;
  for (uint32_t slot = 0; slot < expected.size(); ++slot)
    if (solver.index_of[slot] != expected[slot]) ++wrong;
  EXPECT_EQ(wrong, 0u) << label;
}

class GatherSolverBodies : public ::testing::Test {
 protected:
  void SetUp() override {
    // Past two body shares (k_body_share), so that a pool of two or three workers splits them.
    for (uint32_t i = 0; i < 3 * k_body_share; ++i) {
      const MotionType motion = i % 97 == 0 ? MotionType::Static : MotionType::Dynamic;
      Result<BodyID> id = manager_.create_body(BodyCreationSettings(
          test::unit_cube(), Vec3(static_cast<float>(i), 0, 0), Quat::identity(), motion));
      ASSERT_TRUE(id.ok());
      Body& body = *manager_.get(*id);
      manager_.add_body(body, Activation::Activate);
      ids_.push_back(*id);
    }
  }

  uint32_t slot(size_t k) const { return ids_[k].index(); }
  Body& body(size_t k) { return *manager_.get(ids_[k]); }

  // One step's gather, then the narrow phase's additions: a static body and a sleeping one
  // that touched an active body.
  void gather_and_add(JobSystem& jobs, size_t static_body, size_t sleeping_body) {
    ASSERT_TRUE(body(static_body).is_static());
    ASSERT_FALSE(body(sleeping_body).is_active());
    manager_.sort_active_bodies();
    gather_solver_bodies(manager_, solver_, jobs);
    solver_.index_for(manager_, slot(static_body));
    solver_.index_for(manager_, slot(sleeping_body));
  }

  // Deactivates the run of active dynamic bodies before body `boundary` that makes it the first
  // body of the second share of gather's division on `workers` workers.
  void deactivate_run_before_share_boundary(uint32_t workers, size_t boundary) {
    std::vector<size_t> before;  // the active dynamic bodies before it, nearest last
    size_t active = 0;
    for (size_t k = 0; k < ids_.size(); ++k) {
      if (!body(k).is_active()) continue;
      ++active;
      if (k < boundary) before.push_back(k);
    }
    size_t run = 0;
    while (run < before.size() &&
           Shares(workers, static_cast<uint32_t>(active - run), k_body_share).begin(1) !=
               before.size() - run)
      ++run;
    ASSERT_GT(run, 0u);
    ASSERT_LT(run, before.size());
    for (size_t r = 0; r < run; ++r) manager_.deactivate(body(before[before.size() - 1 - r]));
    manager_.sort_active_bodies();
    const std::span<const uint32_t> list = manager_.active_bodies();
    const Shares division(workers, static_cast<uint32_t>(list.size()), k_body_share);
    ASSERT_EQ(list[division.begin(1)], slot(boundary));
    ASSERT_EQ(list[division.begin(1) - 1], slot(before[before.size() - 1 - run]));
  }

  BodyManager manager_;
  std::vector<BodyID> ids_;
  SolverBodies solver_;
};

TEST_F(GatherSolverBodies, TheMapHoldsExactlyThisStepsEntriesOnAnyJobSystem) {
  auto systems = backwards_and_pools();
  ASSERT_EQ(systems.size(), 4u);
  for (auto& [label, jobs] : systems) {
    SCOPED_TRACE(label);
    for (size_t k = 0; k < ids_.size(); ++k)
      if (!body(k).is_static()) manager_.activate(body(k));
    // Step 1: every dynamic body active but the last, which the narrow phase adds asleep,
    // with the static body 0.
    const size_t last = ids_.size() - 1;
    manager_.deactivate(body(last));
    gather_and_add(*jobs, 0, last);
    expect_map_matches_entries(manager_, solver_, label + ", step 1");
    // Step 2: a run of bodies in the first share and one in each later share fall asleep, the
    // last body wakes; the bodies added last step are not touched, others are.
    for (size_t k = 10; k < 400; ++k)
      if (!body(k).is_static()) manager_.deactivate(body(k));
    manager_.deactivate(body(k_body_share + 5));
    manager_.deactivate(body(2 * k_body_share + 7));
    manager_.activate(body(last));
    // And a run of bodies that ends just before the first body of the second share, so that the
    // slots between two shares' bodies hold last step's entries.
    deactivate_run_before_share_boundary(jobs->num_workers(), 2 * k_body_share);
    gather_and_add(*jobs, 97, 12);
    expect_map_matches_entries(manager_, solver_, label + ", step 2");
    EXPECT_EQ(solver_.index_of[slot(0)], SolverBodies::k_none);
    EXPECT_EQ(solver_.index_of[slot(k_body_share + 5)], SolverBodies::k_none);
    EXPECT_NE(solver_.index_of[slot(last)], SolverBodies::k_none);
    // Step 3: a body destroyed (its slot is free), the run of sleepers wakes again.
    const uint32_t destroyed = slot(k_body_share + 100);
    manager_.remove_body(body(k_body_share + 100));
    ASSERT_TRUE(manager_.destroy_body(ids_[k_body_share + 100]).ok());
    ids_.erase(ids_.begin() + k_body_share + 100);
    for (size_t k = 10; k < 400; ++k)
      if (!body(k).is_static()) manager_.activate(body(k));
    gather_and_add(*jobs, 194, k_body_share + 5);
    expect_map_matches_entries(manager_, solver_, label + ", step 3");
    EXPECT_EQ(solver_.index_of[destroyed], SolverBodies::k_none);
    // Step 4: nothing active.
    for (size_t k = 0; k < ids_.size(); ++k)
      if (body(k).is_active()) manager_.deactivate(body(k));
    manager_.sort_active_bodies();
    gather_solver_bodies(manager_, solver_, *jobs);
    EXPECT_EQ(solver_.size(), 0u);
    expect_map_matches_entries(manager_, solver_, label + ", step 4");
    // Back to every body for the next job system.
    for (size_t k = 0; k < ids_.size(); ++k)
      if (!body(k).is_static()) manager_.activate(body(k));
  }
}

}  // namespace
}  // namespace solver_bodies_thread_test
}  // namespace atl
