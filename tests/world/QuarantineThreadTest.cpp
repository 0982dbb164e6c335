// Quarantine on several workers: write_back tests each entry for non-finite numbers in its
// share of the bodies (SolverBodies.h), so bodies poisoned in every share must be found,
// reported in the same order and put back at their start poses whatever the job system.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "BackwardsJobSystem.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {
namespace quarantine_thread_test {
namespace {

constexpr float k_dt = 1.0f / 60.0f;
constexpr float k_huge_force = 3.0e38f;  // finite; twice that is not

// Past two shares of the per-body stages (k_body_share), apart so that none touch.
constexpr uint32_t k_boxes = 2600;
// Poisoned boxes in every share of two and of three workers, and at the shares' edges.
constexpr uint32_t k_poisoned[] = {3, 700, 1299, 1300, 1301, 2047, 2048, 2599};

struct Outcome {
  std::vector<BodyID> quarantined;
  std::vector<Vec3> positions;  // of the poisoned boxes, after the step
  uint64_t hash = 0;
  uint32_t active = 0;
};

Outcome run(JobSystem* jobs) {
  PhysicsSystem system;
  BodyInterface& bodies = system.body_interface();
  const Ref<Shape> box = BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value();
  std::vector<BodyID> ids;
  for (uint32_t i = 0; i < k_boxes; ++i) {
    const Vec3 position(static_cast<float>(i % 52) * 3.0f, 10.0f,
                        static_cast<float>(i / 52) * 3.0f);
    ids.push_back(
        bodies
            .create_and_add_body({box, position, Quat(), MotionType::Dynamic}, Activation::Activate)
            .value());
  }
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(system.update(k_dt, 1, jobs).value().quarantined.empty());
  Outcome outcome;
  std::vector<Vec3> before;
  for (uint32_t k : k_poisoned) {
    EXPECT_TRUE(bodies.add_force(ids[k], Vec3(0, k_huge_force, 0)).ok());
    EXPECT_TRUE(bodies.add_force(ids[k], Vec3(0, k_huge_force, 0)).ok());
    before.push_back(bodies.body(ids[k]).value()->center_of_mass_position());
  }
  const UpdateResult result = system.update(k_dt, 1, jobs).value();
  outcome.quarantined = result.quarantined;
  for (size_t p = 0; p < std::size(k_poisoned); ++p) {
    const Body& body = *bodies.body(ids[k_poisoned[p]]).value();
    outcome.positions.push_back(body.center_of_mass_position());
    EXPECT_EQ(body.center_of_mass_position(), before[p]) << "box " << k_poisoned[p];
    EXPECT_EQ(body.linear_velocity(), Vec3::zero()) << "box " << k_poisoned[p];
    EXPECT_FALSE(body.is_active()) << "box " << k_poisoned[p];
  }
  outcome.active = result.num_active_bodies;
  outcome.hash = system.state_hash();
  return outcome;
}

TEST(QuarantineOnThreads, BodiesPoisonedInEveryShareAreFoundAndReportedInBodyOrder) {
  const Outcome inline_run = run(nullptr);
  ASSERT_EQ(inline_run.quarantined.size(), std::size(k_poisoned));
  for (size_t p = 0; p < std::size(k_poisoned); ++p)
    EXPECT_EQ(inline_run.quarantined[p].index(), k_poisoned[p] + 0u);
  EXPECT_EQ(inline_run.active, k_boxes - static_cast<uint32_t>(std::size(k_poisoned)));
  auto systems = backwards_and_pools();
  ASSERT_EQ(systems.size(), 4u);
  for (auto& [label, jobs] : systems) {
    const Outcome threaded = run(jobs.get());
    EXPECT_EQ(threaded.quarantined, inline_run.quarantined) << label;
    EXPECT_EQ(threaded.positions, inline_run.positions) << label;
    EXPECT_EQ(threaded.active, inline_run.active) << label;
    EXPECT_EQ(threaded.hash, inline_run.hash) << label;
  }
}

}  // namespace
}  // namespace quarantine_thread_test
}  // namespace atl
