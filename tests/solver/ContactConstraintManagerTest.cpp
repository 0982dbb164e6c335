// Unit tests of the contact solver on hand-made manifolds (no narrow phase): a 1 m cube
// resting on static ground through four corner contacts.

#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "atoll/solver/ContactConstraintManager.h"

namespace atl {
namespace {

constexpr float k_dt = 1.0f / 60.0f;

struct CubeOnGround {
  std::vector<SolverBody> bodies{2};
  PhysicsSettings settings;
  ContactConstraintManager manager;
  std::vector<uint32_t> all;

  explicit CubeOnGround(float height, Vec3 velocity = Vec3()) {
    // Body 0: static ground (zero inverse mass). Body 1: 1 kg cube of side 1.
    SolverBody& cube = bodies[1];
    cube.com_position = Vec3(0, height, 0);
    cube.linear_velocity = velocity;
    cube.inv_mass = Vec3::replicate(1.0f);
    const float inv_i = 1.0f / (1.0f * (1.0f + 1.0f) / 12.0f);
    cube.inv_inertia = Mat44::scale(Vec3::replicate(inv_i));
  }

  // The cube's bottom face against the plane y = 0.
  ContactManifold manifold() const {
    ContactManifold m;
    m.normal = Vec3(0, 1, 0);  // from ground (1) to cube (2)
    const SolverBody& cube = bodies[1];
    for (float x : {-0.5f, 0.5f})
      for (float z : {-0.5f, 0.5f}) {
        const Vec3 on_cube = cube.com_position + cube.rotation * Vec3(x, -0.5f, z);
        m.points_on_2.push_back(on_cube);
        m.points_on_1.push_back(Vec3(on_cube.x(), 0.0f, on_cube.z()));
      }
    m.penetration_depth = -m.points_on_2[0].y();
    return m;
  }

  // One step: gravity, contacts, position integration, position solve.
  void step(float friction = 0.5f) {
    SolverBody& cube = bodies[1];
    cube.linear_velocity += settings.gravity * k_dt;
    manager.begin_step(k_dt, settings);
    const ContactBodyPair pair{1, 2, 0, 1};
    ContactSettings cs;
    cs.combined_friction = friction;
    if (!manager.try_reuse_body_pair(pair, bodies, settings))
      (void)manager.add_manifold(pair, manifold(), cs, bodies, settings);
    all.clear();
    for (uint32_t i = 0; i < manager.num_constraints(); ++i) all.push_back(i);
    manager.setup_velocity_constraints(bodies, {}, k_dt, settings);
    manager.warm_start(bodies, all);
    for (int i = 0; i < settings.velocity_steps; ++i)
      if (!manager.solve_velocity_constraints(bodies, all, i)) break;
    manager.store_applied_impulses(all);
    cube.com_position += cube.linear_velocity * k_dt;
    for (int i = 0; i < settings.position_steps; ++i)
      if (!manager.solve_position_constraints(bodies, all, settings)) break;
    std::vector<RemovedContact> removed;
    manager.end_step(removed);
  }
};

TEST(ContactConstraintManager, LastStepsPairsAreFoundInAnyLookupOrder) {
  // Last step's pairs are looked up by a cursor that walks forward and searches on a jump: the
  // narrow phase's sorted order, backwards, repeated, jumps and absent pairs must all find
  // exactly the pairs that had a manifold (every third key1 of 0..299, key2 = key1 + 1000).
  std::vector<SolverBody> bodies(2);
  PhysicsSettings settings;
  ContactConstraintManager manager;
  ContactManifold m;
  m.normal = Vec3(0, 1, 0);
  m.points_on_1.push_back(Vec3(0, 0, 0));
  m.points_on_2.push_back(Vec3(0, 0, 0));
  manager.begin_step(k_dt, settings);
  for (uint32_t k = 0; k < 300; k += 3)
    (void)manager.add_manifold({k, k + 1000, 0, 1}, m, ContactSettings{}, bodies, settings);
  std::vector<RemovedContact> removed;
  manager.end_step(removed);
  manager.begin_step(k_dt, settings);
  std::vector<uint32_t> order;
  for (uint32_t k = 0; k < 300; ++k) order.push_back(k);                   // sorted
  for (uint32_t k = 300; k-- > 0;) order.push_back(k);                     // backwards
  for (uint32_t k = 0; k < 300; k += 37) order.insert(order.end(), 3, k);  // repeats, jumps
  for (uint32_t k = 0; k < 300; ++k) order.push_back((k * 101) % 300);     // scattered
  for (uint32_t k : order) {
    const bool had = manager.had_manifold({k, k + 1000, 0, 1}, SubShapeID(), SubShapeID());
    ASSERT_EQ(had, k % 3 == 0) << "key1 " << k;
    ASSERT_FALSE(manager.had_manifold({k, k + 999, 0, 1}, SubShapeID(), SubShapeID()));
  }
}

TEST(ContactConstraintManager, OverlappingCubeRecoversToTheSlop) {
  CubeOnGround scene(0.45f);  // 5 cm overlap, as in seed 000 E4
  for (int i = 0; i < 300; ++i) scene.step();
  const SolverBody& cube = scene.bodies[1];
  // Resting penetration settles at the slop (seed 000 E4: 20.0001 mm).
  EXPECT_NEAR(0.5f - cube.com_position.y(), scene.settings.penetration_slop, 1.0e-3f);
  EXPECT_NEAR(cube.linear_velocity.length(), 0.0f, 1.0e-3f);
  // The normal impulses carry the weight: Σλ = m g dt.
  EXPECT_NEAR(scene.manager.total_normal_lambda(0), 9.81f * k_dt, 1.0e-3f);
}

TEST(ContactConstraintManager, WarmStartCarriesImpulsesBetweenSteps) {
  CubeOnGround scene(0.49f);
  for (int i = 0; i < 60; ++i) scene.step();
  // After warm-up, a step's first iteration already holds the cube: solving once more from
  // the warm-started state changes (almost) nothing.
  scene.settings.velocity_steps = 1;
  const float before = scene.bodies[1].com_position.y();
  for (int i = 0; i < 60; ++i) scene.step();
  EXPECT_NEAR(scene.bodies[1].com_position.y(), before, 1.0e-3f);
}

TEST(ContactConstraintManager, FrictionStopsASlidingCubeAtOneIteration) {
  // LAWS.md B1: with one velocity iteration friction must still act.
  CubeOnGround scene(0.48f);
  scene.settings.velocity_steps = 1;
  for (int i = 0; i < 30; ++i) scene.step();  // settle
  scene.bodies[1].linear_velocity = Vec3(5, 0, 0);
  const float x0 = scene.bodies[1].com_position.x();
  for (int i = 0; i < 300; ++i) scene.step(0.5f);
  const float distance = scene.bodies[1].com_position.x() - x0;
  const float expected = 25.0f / (2.0f * 0.5f * 9.81f);  // v²/(2μg) = 2.548 m
  EXPECT_NEAR(distance, expected, 0.2f * expected);
  EXPECT_NEAR(scene.bodies[1].linear_velocity.length(), 0.0f, 1.0e-3f);
}

TEST(ContactConstraintManager, ContactsOnlyPushAndFrictionStaysInTheCone) {
  CubeOnGround scene(0.48f, Vec3(3, 0, 0));
  for (int i = 0; i < 20; ++i) {
    scene.step(0.3f);
    ASSERT_EQ(scene.manager.num_constraints(), 1u);
    EXPECT_GE(scene.manager.total_normal_lambda(0), 0.0f);
    EXPECT_LE(scene.manager.total_friction_lambda(0),
              0.3f * scene.manager.total_normal_lambda(0) * (1.0f + 1e-5f));
  }
}

TEST(ContactConstraintManager, ContactSettingsProblemNamesNegativeRollingAndTorsion) {
  ContactSettings settings;
  EXPECT_EQ(settings.problem(), "");
  settings.combined_rolling_resistance = -1.0f;
  EXPECT_EQ(settings.problem(), "combined_rolling_resistance = -1.000000");
  settings.combined_rolling_resistance = 0.01f;
  settings.combined_torsional_friction = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(settings.problem(), "combined_torsional_friction = nan");
}

// Rolling resistance acts without friction and its couple is bounded by c × Σλ: a resting
// ball (1 kg, I = 0.1 kg·m²) on one contact point, turning about a tangent at 1 rad/s with
// c = 0.1 m and friction 0, loses exactly c·Σλ/I (≈ 0.16 rad/s) of that in a step; at
// c = 0 it loses nothing.
TEST(ContactConstraintManager, RollingRowsApplyTheirBoundOnOnePoint) {
  for (const float c : {0.0f, 0.1f}) {
    std::vector<SolverBody> bodies(2);
    SolverBody& ball = bodies[1];
    ball.com_position = Vec3(0, 0.5f, 0);
    ball.inv_mass = Vec3::replicate(1.0f);
    ball.inv_inertia = Mat44::scale(Vec3::replicate(10.0f));
    PhysicsSettings settings;
    ContactConstraintManager manager;
    ContactSettings cs;
    cs.combined_rolling_resistance = c;
    ContactManifold m;
    m.normal = Vec3(0, 1, 0);
    m.points_on_1.push_back(Vec3(0, 0, 0));
    m.points_on_2.push_back(Vec3(0, 0, 0));
    ball.linear_velocity = settings.gravity * k_dt;
    ball.angular_velocity = Vec3(1.0f, 0.0f, 0.0f);
    manager.begin_step(k_dt, settings);
    (void)manager.add_manifold({1, 2, 0, 1}, m, cs, bodies, settings);
    const std::vector<uint32_t> all{0};
    manager.setup_velocity_constraints(bodies, {}, k_dt, settings);
    manager.warm_start(bodies, all);
    for (int i = 0; i < settings.velocity_steps; ++i)
      if (!manager.solve_velocity_constraints(bodies, all, i)) break;
    const float sum = manager.total_normal_lambda(0);
    EXPECT_NEAR(sum, 9.81f * k_dt, 1e-4f);
    EXPECT_NEAR(1.0f - ball.angular_velocity.x(), c * sum * 10.0f, 1e-5f);
  }
}

TEST(ContactConstraintManager, RemovedContactsAreReported) {
  ContactConstraintManager manager;
  PhysicsSettings settings;
  std::vector<SolverBody> bodies(2);
  bodies[1].inv_mass = Vec3::replicate(1.0f);
  ContactManifold m;
  m.normal = Vec3(0, 1, 0);
  m.points_on_1.push_back(Vec3(0, 0, 0));
  m.points_on_2.push_back(Vec3(0, -0.01f, 0));
  manager.begin_step(k_dt, settings);
  EXPECT_EQ(manager.add_manifold({3, 7, 0, 1}, m, {}, bodies, settings), ContactState::Added);
  std::vector<RemovedContact> removed;
  manager.end_step(removed);
  EXPECT_TRUE(removed.empty());
  manager.begin_step(k_dt, settings);
  EXPECT_EQ(manager.add_manifold({3, 7, 0, 1}, m, {}, bodies, settings), ContactState::Persisted);
  manager.end_step(removed);
  EXPECT_TRUE(removed.empty());
  manager.begin_step(k_dt, settings);
  manager.end_step(removed);
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ(removed[0].key1, 3u);
  EXPECT_EQ(removed[0].key2, 7u);
}

}  // namespace
}  // namespace atl
