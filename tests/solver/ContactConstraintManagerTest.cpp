// Unit tests of the contact solver on hand-made manifolds (no narrow phase): a 1 m cube
// resting on static ground through four corner contacts.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "atoll/solver/ContactConstraintManager.h"

namespace atl {
namespace contact_constraint_manager_test {
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
  // A look-up says where the pair is, or would be, in last step's pairs (ReuseLookup::position);
  // a cursor moved there, or anywhere (seek_previous, up to past the last pair), finds the same.
  for (uint32_t k = 0; k < 300; ++k) {
    size_t cursor = (k * 53) % 101;
    ContactConstraintManager::ReuseLookup lookup;
    const bool reusable = manager.find_reusable_pair({k, k + 1000, 0, 1}, bodies, settings, cursor,
                                                     lookup) != nullptr;
    ASSERT_EQ(reusable, k % 3 == 0) << "key1 " << k;
    ASSERT_EQ(lookup.position, (k + 2) / 3) << "key1 " << k;
    for (uint32_t position : {lookup.position, 0u, (k * 7) % 101, 100u}) {
      manager.seek_previous(position);
      ASSERT_EQ(manager.had_manifold({k, k + 1000, 0, 1}, SubShapeID(), SubShapeID()), k % 3 == 0)
          << "key1 " << k << " from " << position;
    }
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

// Records a state walk (ContactConstraintManager::visit_cache_state) as text, one field a line.
class TextStateStream final : public StateStream {
 public:
  TextStateStream() : StateStream(Mode::save) {}
  void floats(const char* name, float* values, uint32_t count) override {
    text << name;
    for (uint32_t i = 0; i < count; ++i) text << ' ' << values[i];
    text << '\n';
  }
  void u32s(const char* name, uint32_t* values, uint32_t count) override {
    text << name;
    for (uint32_t i = 0; i < count; ++i) text << ' ' << values[i];
    text << '\n';
  }
  void flag(const char* name, bool& value) override { text << name << ' ' << value << '\n'; }
  void count(const char* name, uint32_t& value, uint32_t) override {
    text << name << ' ' << value << '\n';
  }
  void expect(const char* name, uint32_t value) override { text << name << ' ' << value << '\n'; }
  std::ostringstream text;
};

std::string cache_text(ContactConstraintManager& manager) {
  TextStateStream stream;
  manager.visit_cache_state(stream);
  return stream.text.str();
}

// Pairs (k, 100 + k) of one or two manifolds of one to four points, some with contact
// settings in the side list, for the cache's tests.
struct CachePairs {
  PhysicsSettings settings;
  std::vector<SolverBody> bodies{2};
  CachePairs() {
    bodies[1].inv_mass = Vec3::replicate(1.0f);
    bodies[1].com_position = Vec3(0, 0.5f, 0);
  }
  // Pair k's manifold `m` (of 1 or 2), `shift` moves its points (a pair collided again).
  static ContactManifold manifold(uint32_t k, uint32_t m, float shift) {
    ContactManifold out;
    out.normal = Vec3(0, 1, 0);
    out.sub_shape_id1 = SubShapeID(m);
    out.sub_shape_id2 = SubShapeID(k);
    for (uint32_t p = 0; p <= (k + m) % 4; ++p) {
      const Vec3 at(0.01f * static_cast<float>(k) + shift, 0, 0.1f * static_cast<float>(p) + m);
      out.points_on_1.push_back(at);
      out.points_on_2.push_back(at - Vec3(0, 0.001f, 0));
    }
    return out;
  }
  static ContactSettings contact_settings(uint32_t k) {
    ContactSettings cs;
    cs.combined_friction = 0.5f;
    if (k % 3 == 0) cs.combined_rolling_resistance = 0.001f * static_cast<float>(k + 1);
    return cs;
  }
  static uint32_t num_manifolds(uint32_t k) { return k % 5 == 0 ? 2u : 1u; }
  // Adds pair k's manifolds (its first `count` of them, all by default).
  void add(ContactConstraintManager& manager, uint32_t k, float shift, uint32_t count = 2) {
    for (uint32_t m = 0; m < std::min(count, num_manifolds(k)); ++m)
      (void)manager.add_manifold({k, 100 + k, 0, 1}, manifold(k, m, shift), contact_settings(k),
                                 bodies, settings);
  }
};

// The contact cache keeps one list of manifolds and points for last step and this one: a
// reused pair keeps its manifolds in place, a pair collided again appends new ones, and
// end_step drops what only last step held and closes the gaps (Cache::compact). If a gap were
// closed wrongly, a pair would come back with another pair's points or contact settings, or
// lose a sleeping pair's manifolds. Expected: after a step that reuses, re-adds, removes and
// keeps (asleep) pairs of one to four points and one or two manifolds, some with contact
// settings in the side list, the cache walks exactly like a cache that was given the surviving
// contacts in one step, and the removed pairs are reported.
TEST(ContactConstraintManager, OneCacheKeepsEachPairsContactsThroughReuseRemovalAndSleep) {
  CachePairs pairs;
  const PhysicsSettings& settings = pairs.settings;
  std::vector<SolverBody>& bodies = pairs.bodies;
  constexpr uint32_t k_pairs = 40;
  const auto num_manifolds = CachePairs::num_manifolds;
  const auto add = [&pairs](ContactConstraintManager& manager, uint32_t k, float shift) {
    pairs.add(manager, k, shift);
  };

  ContactConstraintManager manager;
  std::vector<RemovedContact> removed;
  manager.begin_step(k_dt, settings);
  for (uint32_t k = 0; k < k_pairs; ++k) add(manager, k, 0.0f);
  manager.end_step(removed);
  ASSERT_TRUE(removed.empty());

  // k % 4: 0 collided again (moved points), 1 reused, 2 gone, 3 asleep (kept unseen).
  manager.begin_step(k_dt, settings);
  for (uint32_t k = 0; k < k_pairs; ++k) {
    if (k % 4 == 0) add(manager, k, 0.5f);
    if (k % 4 == 1) {
      ASSERT_TRUE(manager.try_reuse_body_pair({k, 100 + k, 0, 1}, bodies, settings));
    }
  }
  manager.end_step(removed, [](uint32_t key1, uint32_t) { return key1 % 4 == 3; });
  std::vector<uint32_t> removed_keys;
  for (const RemovedContact& r : removed) removed_keys.push_back(r.key1);
  std::vector<uint32_t> expected_removed;
  for (uint32_t k = 2; k < k_pairs; k += 4)
    for (uint32_t m = 0; m < num_manifolds(k); ++m) expected_removed.push_back(k);
  EXPECT_EQ(removed_keys, expected_removed);
  uint32_t expected_constraints = 0;  // the manifolds of the collided and reused pairs
  for (uint32_t k = 0; k < k_pairs; ++k)
    if (k % 4 < 2) expected_constraints += num_manifolds(k);
  EXPECT_EQ(manager.num_constraints(), expected_constraints);

  ContactConstraintManager expected;
  expected.begin_step(k_dt, settings);
  for (uint32_t k = 0; k < k_pairs; ++k)
    if (k % 4 != 2) add(expected, k, k % 4 == 0 ? 0.5f : 0.0f);
  expected.end_step(removed);
  EXPECT_EQ(cache_text(manager), cache_text(expected));

  // And once more, every pair reused in place.
  manager.begin_step(k_dt, settings);
  for (uint32_t k = 0; k < k_pairs; ++k)
    if (k % 4 != 2) {
      ASSERT_TRUE(manager.try_reuse_body_pair({k, 100 + k, 0, 1}, bodies, settings));
    }
  removed.clear();
  manager.end_step(removed);
  EXPECT_TRUE(removed.empty());
  EXPECT_EQ(cache_text(manager), cache_text(expected));
}

// find_gone_contacts, done ahead of end_step (the step does it beside the splitter, before the
// solve), must change nothing: the same removed contacts in the same order, the same pairs kept
// asleep, the same cache. The second step collides pairs again (pair 0 without its second
// manifold), reuses, drops and keeps (asleep) pairs; the third adds none and keeps none.
TEST(ContactConstraintManager, FindingTheGoneContactsAheadChangesNothing) {
  constexpr uint32_t k_pairs = 40;
  struct Outcome {
    std::vector<std::vector<RemovedContact>> removed;
    std::vector<std::string> caches;
  };
  const auto run = [](bool ahead) {
    CachePairs pairs;
    ContactConstraintManager manager;
    Outcome out;
    const auto end = [&](const std::function<bool(uint32_t, uint32_t)>& keep) {
      if (ahead) manager.find_gone_contacts();
      std::vector<RemovedContact> removed;
      manager.end_step(removed, keep);
      out.removed.push_back(removed);
      out.caches.push_back(cache_text(manager));
    };
    manager.begin_step(k_dt, pairs.settings);
    for (uint32_t k = 0; k < k_pairs; ++k) pairs.add(manager, k, 0.0f);
    end({});
    manager.begin_step(k_dt, pairs.settings);
    for (uint32_t k = 0; k < k_pairs; ++k) {
      if (k % 4 == 0) pairs.add(manager, k, 0.5f, k == 0 ? 1 : 2);
      if (k % 4 == 1) {
        EXPECT_TRUE(manager.try_reuse_body_pair({k, 100 + k, 0, 1}, pairs.bodies, pairs.settings));
      }
    }
    end([](uint32_t key1, uint32_t) { return key1 % 4 == 3; });
    manager.begin_step(k_dt, pairs.settings);
    end([](uint32_t, uint32_t) { return false; });
    return out;
  };
  const Outcome at_end = run(false);
  const Outcome ahead = run(true);
  ASSERT_EQ(at_end.removed.size(), 3u);
  ASSERT_EQ(ahead.removed.size(), 3u);
  for (size_t step = 0; step < 3; ++step) {
    ASSERT_EQ(ahead.removed[step].size(), at_end.removed[step].size()) << "step " << step;
    for (size_t i = 0; i < at_end.removed[step].size(); ++i) {
      const RemovedContact& a = ahead.removed[step][i];
      const RemovedContact& b = at_end.removed[step][i];
      EXPECT_EQ(a.key1, b.key1) << "step " << step << ", removed contact " << i;
      EXPECT_EQ(a.key2, b.key2) << "step " << step << ", removed contact " << i;
      EXPECT_EQ(a.sub_shape_id1, b.sub_shape_id1) << "step " << step << ", removed contact " << i;
      EXPECT_EQ(a.sub_shape_id2, b.sub_shape_id2) << "step " << step << ", removed contact " << i;
    }
    EXPECT_EQ(ahead.caches[step], at_end.caches[step]) << "step " << step;
  }
  // What the steps remove: nothing; pair 0's second manifold and the gone pairs' manifolds; then
  // every pair left (the collided, the reused and the ones kept asleep).
  EXPECT_TRUE(at_end.removed[0].empty());
  ASSERT_FALSE(at_end.removed[1].empty());
  EXPECT_EQ(at_end.removed[1][0].key1, 0u);
  EXPECT_EQ(at_end.removed[1][0].sub_shape_id1, SubShapeID(1));
  uint32_t expected_second = 1;
  uint32_t expected_third = 0;
  for (uint32_t k = 0; k < k_pairs; ++k) {
    if (k % 4 == 2) expected_second += CachePairs::num_manifolds(k);
    if (k % 4 == 0) expected_third += k == 0 ? 1 : CachePairs::num_manifolds(k);
    if (k % 4 == 1 || k % 4 == 3) expected_third += CachePairs::num_manifolds(k);
  }
  EXPECT_EQ(at_end.removed[1].size(), expected_second);
  EXPECT_EQ(at_end.removed[2].size(), expected_third);
}

// A pair collided again is written over its manifolds of last step when they fit
// (fits_in_place: as many manifolds, between the same sub-shapes in the same order, each with at
// least as many points, the same use of the side list), else appended; the narrow phase's fill
// does so without a listener. Where the manifolds go must change nothing else: the same
// impulses handed down to the same points, the same contacts removed, the same cache. The
// second step collides again the pairs k % 4 == 0 (moved a little) and 3 (a point fewer, the
// rest in the other order), which fit, and 1 (a point more, or, with four, a manifold fewer), which
// do not; it drops the pairs k % 4 == 2. Expected: the cache and the removed contacts as when every
// pair is appended, the fitting pairs written in place, and the lists grown by less.
TEST(ContactConstraintManager, APairCollidedAgainGoesOverItsOldManifoldsWhenTheyFit) {
  constexpr uint32_t k_pairs = 40;
  struct Outcome {
    std::vector<RemovedContact> removed;
    std::string cache;
    uint32_t in_place = 0;
    size_t grown_bytes = 0;  // by the second step's additions
  };
  const auto run = [](bool allow_in_place) {
    CachePairs pairs;
    const PhysicsSettings& settings = pairs.settings;
    ContactConstraintManager manager;
    Outcome out;
    std::vector<RemovedContact> removed;
    manager.begin_step(k_dt, settings);
    for (uint32_t k = 0; k < k_pairs; ++k) pairs.add(manager, k, 0.0f);
    // Impulses for the second step to hand down: each manifold stops the falling body alone.
    std::vector<uint32_t> all;
    for (uint32_t i = 0; i < manager.num_constraints(); ++i) all.push_back(i);
    manager.setup_velocity_constraints(pairs.bodies, {}, k_dt, settings);
    for (const uint32_t c : all) {
      pairs.bodies[1].linear_velocity = Vec3(0, -1, 0);
      pairs.bodies[1].angular_velocity = Vec3::zero();
      for (int i = 0; i < settings.velocity_steps; ++i)
        (void)manager.solve_velocity_constraints(pairs.bodies, std::span(&c, 1), i);
    }
    manager.store_applied_impulses(all);
    manager.end_step(removed);
    EXPECT_TRUE(removed.empty());
    ContactConstraintManager::CacheSnapshot first;
    manager.save_cache(first);

    manager.begin_step(k_dt, settings);
    size_t cursor = 0;
    for (uint32_t k = 0; k < k_pairs; ++k) {
      if (k % 4 == 2) continue;
      const ContactBodyPair pair{k, 100 + k, 0, 1};
      std::vector<ContactManifold> manifolds;
      for (uint32_t m = 0; m < CachePairs::num_manifolds(k); ++m)
        manifolds.push_back(CachePairs::manifold(k, m, k % 4 == 0 ? 0.001f : 0.0f));
      if (k % 4 == 3) {
        // A point fewer, the others found in the other order: a point takes its impulses from
        // a point that an earlier one, written in place, went over.
        ContactManifold& found = manifolds[0];
        found.points_on_1.pop_back();
        found.points_on_2.pop_back();
        std::reverse(found.points_on_1.begin(), found.points_on_1.end());
        std::reverse(found.points_on_2.begin(), found.points_on_2.end());
      }
      if (k % 4 == 1) {
        ContactManifold& grown = manifolds.back();
        if (grown.points_on_1.size() < 4) {
          grown.points_on_1.push_back(grown.points_on_1[0] + Vec3(0.05f, 0, 0));
          grown.points_on_2.push_back(grown.points_on_2[0] + Vec3(0.05f, 0, 0));
        } else if (manifolds.size() == 2) {
          manifolds.pop_back();
        } else {
          manifolds.push_back(CachePairs::manifold(k, 1, 0.0f));
        }
      }
      ContactConstraintManager::ReuseLookup lookup;
      (void)manager.find_reusable_pair(pair, pairs.bodies, settings, cursor, lookup);
      const ContactSettings cs = CachePairs::contact_settings(k);
      const bool side = ContactConstraintManager::has_side_settings(cs);
      const bool fits = manager.fits_in_place(pair, lookup.position, manifolds, side);
      EXPECT_EQ(fits, k % 4 != 1) << "pair " << k;
      const bool in_place = allow_in_place && fits;
      out.in_place += in_place ? 1 : 0;
      const uint32_t n = static_cast<uint32_t>(manifolds.size());
      uint32_t points = 0;
      for (const ContactManifold& m : manifolds)
        points += static_cast<uint32_t>(m.points_on_1.size());
      const ContactConstraintManager::Places places = manager.next_places();
      ContactConstraintManager::Places counts;
      counts.pair = 1;
      counts.constraint = n;
      if (!in_place) {
        counts.manifold = n;
        counts.point = points;
        counts.setting = side ? n : 0;
      }
      manager.add_later(counts, points);
      manager.fill_collided_pair(pair, manifolds, cs, pairs.bodies, settings, places,
                                 lookup.position, in_place);
    }
    ContactConstraintManager::CacheSnapshot second;
    manager.save_cache(second);
    out.grown_bytes = second.bytes() - first.bytes();
    manager.end_step(out.removed);
    out.cache = cache_text(manager);
    return out;
  };
  const Outcome appended = run(false);
  const Outcome in_place = run(true);
  EXPECT_EQ(appended.in_place, 0u);
  EXPECT_EQ(in_place.in_place, k_pairs / 2);
  EXPECT_EQ(in_place.cache, appended.cache);
  ASSERT_EQ(in_place.removed.size(), appended.removed.size());
  for (size_t i = 0; i < appended.removed.size(); ++i) {
    EXPECT_EQ(in_place.removed[i].key1, appended.removed[i].key1) << i;
    EXPECT_EQ(in_place.removed[i].sub_shape_id1, appended.removed[i].sub_shape_id1) << i;
  }
  EXPECT_FALSE(appended.removed.empty());
  EXPECT_LT(in_place.grown_bytes, appended.grown_bytes);
  // Impulses were handed down at all (else the comparison would not see a wrong copy): some
  // point of the second step holds a normal impulse.
  std::istringstream lines(appended.cache);
  uint32_t handed_down = 0;
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("point.normal_lambda ", 0) == 0 && line != "point.normal_lambda 0")
      ++handed_down;
  EXPECT_GT(handed_down, 0u);
}

// The wide solve's plan (begin_lanes … place_lanes, as plan_wide_contacts runs it on several
// workers): contacts with torsional friction go to their batch's scalar list in order, the
// others into the batch's blocks, eight a block; placing the batches in another order and
// clearing the lane slots in other pieces gives the same solve to the bit.
TEST(ContactConstraintManager, LanePlanDoesNotDependOnTheOrderBatchesArePlaced) {
  constexpr uint32_t k_cubes = 20;
  const auto solve = [&](bool reverse) {
    std::vector<SolverBody> bodies(k_cubes + 1);  // 0: static ground
    for (uint32_t i = 1; i <= k_cubes; ++i) {
      bodies[i].com_position = Vec3(3.0f * static_cast<float>(i), 0.45f, 0.0f);
      bodies[i].linear_velocity = Vec3(0.1f * static_cast<float>(i), -1.0f, 0.0f);
      bodies[i].inv_mass = Vec3::replicate(1.0f);
      bodies[i].inv_inertia = Mat44::scale(Vec3::replicate(6.0f));
    }
    PhysicsSettings settings;
    ContactConstraintManager manager;
    manager.begin_step(k_dt, settings);
    for (uint32_t i = 1; i <= k_cubes; ++i) {
      ContactManifold m;
      m.normal = Vec3(0, 1, 0);
      m.penetration_depth = 0.05f;
      for (float x : {-0.5f, 0.5f})
        for (float z : {-0.5f, 0.5f}) {
          m.points_on_1.push_back(bodies[i].com_position + Vec3(x, -0.45f, z));
          m.points_on_2.push_back(bodies[i].com_position + Vec3(x, -0.5f, z));
        }
      ContactSettings cs;
      cs.combined_friction = 0.5f;
      // Contacts 3 and 14 have torsional friction: solved one by one.
      if (i == 4 || i == 15) cs.combined_torsional_friction = 0.1f;
      (void)manager.add_manifold({0, i, 0, i}, m, cs, bodies, settings);
    }
    std::vector<uint32_t> batch_a, batch_b;
    for (uint32_t c = 0; c < 11; ++c) batch_a.push_back(c);
    for (uint32_t c = 11; c < k_cubes; ++c) batch_b.push_back(c);
    manager.begin_lanes();
    if (reverse) {
      manager.clear_lane_slots(13, k_cubes);
      manager.clear_lane_slots(0, 13);
    } else {
      manager.clear_lane_slots(0, k_cubes);
    }
    uint32_t scalar_a = 0, scalar_b = 0;
    EXPECT_EQ(manager.count_lanes(batch_a, settings, scalar_a), 10u);
    EXPECT_EQ(manager.count_lanes(batch_b, settings, scalar_b), 8u);
    EXPECT_EQ(scalar_a, 1u);
    EXPECT_EQ(scalar_b, 1u);
    // Batch a: 10 lane contacts, two blocks; batch b: 8, one block.
    const ContactConstraintManager::LaneRange lanes_a{0, 2}, lanes_b{2, 3};
    manager.set_num_lane_blocks(3);
    std::vector<uint32_t> scalar(2, 99);
    if (reverse) {
      manager.place_lanes(batch_b, settings, lanes_b, &scalar[1]);
      manager.place_lanes(batch_a, settings, lanes_a, &scalar[0]);
    } else {
      manager.place_lanes(batch_a, settings, lanes_a, &scalar[0]);
      manager.place_lanes(batch_b, settings, lanes_b, &scalar[1]);
    }
    EXPECT_EQ(scalar, (std::vector<uint32_t>{3, 14}));
    manager.setup_velocity_constraints(bodies, {}, k_dt, settings);
    manager.warm_start(bodies, scalar);
    manager.warm_start_lanes(bodies, lanes_a);
    manager.warm_start_lanes(bodies, lanes_b);
    for (int iteration = 0; iteration < 4; ++iteration) {
      manager.solve_velocity_constraints(bodies, scalar, iteration);
      manager.solve_lanes(bodies, lanes_a, iteration);
      manager.solve_lanes(bodies, lanes_b, iteration);
    }
    return bodies;
  };
  const std::vector<SolverBody> in_order = solve(false);
  const std::vector<SolverBody> reversed = solve(true);
  for (uint32_t i = 1; i <= k_cubes; ++i) {
    // Every cube's contact pushed it up (the lanes and the scalar rows both ran).
    EXPECT_GT(in_order[i].linear_velocity.y(), -0.5f) << "cube " << i;
    EXPECT_EQ(std::memcmp(&in_order[i], &reversed[i], sizeof(SolverBody)), 0) << "cube " << i;
  }
}

// Contacts in lanes are set up eight at a time (ContactLanes::setup), but a contact with surface
// velocity is set up by the scalar setup and copied into its lane: every kind solves in lanes as
// it does one by one, to round-off (the lanes fuse other multiply-adds). 24 cubes hitting the
// ground at 2 m/s or slowly, a quarter bouncing (restitution 0.5; the approach before this step's
// forces faster for some, slower for others), a quarter on a conveyor, a quarter with scaled
// masses, some a little above the ground (speculative), with and without friction and last
// step's impulses.
TEST(ContactConstraintManager, LaneSetupSolvesAsTheScalarSetup) {
  constexpr uint32_t k_cubes = 24;
  const auto solve = [&](bool lanes) {
    std::vector<SolverBody> bodies(k_cubes + 1);  // 0: static ground
    std::vector<BodyVelocity> before_forces(k_cubes + 1);
    for (uint32_t i = 1; i <= k_cubes; ++i) {
      const float f = static_cast<float>(i % 5);
      bodies[i].com_position = Vec3(3.0f * static_cast<float>(i), 0.5f, 0.0f);
      bodies[i].rotation = Quat::rotation(Vec3(0.0f, 1.0f, 0.0f), 0.3f * f);
      bodies[i].linear_velocity = Vec3(0.1f * f, i % 3 != 0 ? -2.0f : -0.01f, 0.05f);
      bodies[i].angular_velocity = Vec3(0.02f * f, 0.1f, -0.03f);
      bodies[i].inv_mass = Vec3::replicate(1.0f / (1.0f + f));
      bodies[i].inv_inertia = Mat44::scale(Vec3(6.0f, 4.0f + f, 5.0f));
      const Vec3 forces(0.0f, i % 8 == 1 ? 0.3f : -0.3f, 0.0f);
      before_forces[i] = {bodies[i].linear_velocity + forces, bodies[i].angular_velocity};
    }
    PhysicsSettings settings;
    ContactConstraintManager manager;
    // Two steps: the second warm-starts from the first's impulses.
    std::vector<SolverBody> result;
    for (int step = 0; step < 2; ++step) {
      manager.begin_step(k_dt, settings);
      std::vector<uint32_t> all;
      for (uint32_t i = 1; i <= k_cubes; ++i) {
        // Cubes 3, 8, 13, … hover 5 mm above the ground: a speculative contact.
        const float gap = i % 5 == 3 ? 0.005f : -0.01f;
        ContactManifold m;
        m.normal = Vec3(0, 1, 0);
        m.penetration_depth = -gap;
        for (float x : {-0.5f, 0.5f})
          for (float z : {-0.5f, 0.5f}) {
            if (i % 7 == 0 && x > 0.0f && z > 0.0f) continue;  // a three-point face
            const Vec3 at = bodies[i].com_position + Vec3(x, -0.5f, z);
            m.points_on_1.push_back(at - Vec3(0.0f, gap, 0.0f));
            m.points_on_2.push_back(at);
          }
        ContactSettings cs;
        cs.combined_friction = i % 6 == 5 ? 0.0f : 0.6f;
        if (i % 4 == 1) cs.combined_restitution = 0.5f;
        if (i % 4 == 2) cs.relative_linear_surface_velocity = Vec3(0.5f, 0.0f, 0.0f);
        if (i % 4 == 3) cs.mass_scales = {0.5f, 2.0f, 1.5f, 0.7f};
        (void)manager.add_manifold({0, i, 0, i}, m, cs, bodies, settings);
        all.push_back(i - 1);
      }
      std::vector<uint32_t> scalar;
      ContactConstraintManager::LaneRange range{0, 0};
      if (lanes) {
        manager.begin_lanes();
        manager.clear_lane_slots(0, k_cubes);
        uint32_t num_scalar = 0;
        EXPECT_EQ(manager.count_lanes(all, settings, num_scalar), k_cubes);
        range = {0, k_cubes / ContactLanes::k_width};
        manager.set_num_lane_blocks(range.end);
        uint32_t none = 0;
        manager.place_lanes(all, settings, range, &none);
      } else {
        scalar = all;
      }
      manager.setup_velocity_constraints(bodies, before_forces, k_dt, settings);
      manager.warm_start(bodies, scalar);
      manager.warm_start_lanes(bodies, range);
      for (int iteration = 0; iteration < 6; ++iteration) {
        manager.solve_velocity_constraints(bodies, scalar, iteration);
        manager.solve_lanes(bodies, range, iteration);
      }
      manager.store_applied_impulses(scalar);
      manager.store_lanes(range);
      result = bodies;
      std::vector<RemovedContact> removed;
      manager.end_step(removed);
    }
    return result;
  };
  const std::vector<SolverBody> one_by_one = solve(false);
  const std::vector<SolverBody> in_lanes = solve(true);
  for (uint32_t i = 1; i <= k_cubes; ++i) {
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(in_lanes[i].linear_velocity[k], one_by_one[i].linear_velocity[k], 1.0e-4f)
          << "cube " << i;
      EXPECT_NEAR(in_lanes[i].angular_velocity[k], one_by_one[i].angular_velocity[k], 1.0e-4f)
          << "cube " << i;
    }
  }
  // A bouncing cube that hit bounces (its lane was set up with restitution); a cube without
  // restitution that hit stops.
  EXPECT_GT(in_lanes[5].linear_velocity.y(), 0.8f);
  EXPECT_NEAR(in_lanes[4].linear_velocity.y(), 0.0f, 0.1f);
}

// The scalar rows live in chunks of 64 that are kept between steps and given back when a step
// needs far fewer: a contact set up in a row that held another contact last step, in a chunk
// made again after it was given back, or past a chunk's end solves as it does alone. 300 cubes,
// each on the ground through its own contact, then only the first 20 (the rows past the first
// chunk are given back), then all 300 again: every cube ends exactly as a cube that had a
// manager to itself through the same steps.
TEST(ContactConstraintManager, ARowsChunkAndWhatItHeldBeforeDoNotChangeTheSolve) {
  constexpr uint32_t k_cubes = 300;
  constexpr uint32_t k_stay = 20;
  const auto make_cube = [](uint32_t i) {
    SolverBody cube;
    const float f = static_cast<float>(i % 17);
    cube.com_position = Vec3(3.0f * static_cast<float>(i), 0.46f + 0.002f * f, 0.0f);
    cube.linear_velocity = Vec3(0.05f * f, -1.0f + 0.03f * f, 0.02f * f);
    cube.angular_velocity = Vec3(0.0f, 0.1f * f, 0.0f);
    cube.inv_mass = Vec3::replicate(1.0f);
    cube.inv_inertia = Mat44::scale(Vec3::replicate(6.0f));
    return cube;
  };
  // One step of `manager` for the cubes `cubes` (indices into `bodies`; body 0 is the ground).
  const auto step = [](ContactConstraintManager& manager, std::vector<SolverBody>& bodies,
                       const std::vector<uint32_t>& cubes) {
    PhysicsSettings settings;
    manager.begin_step(k_dt, settings);
    for (uint32_t i : cubes) {
      SolverBody& cube = bodies[i];
      cube.linear_velocity += settings.gravity * k_dt;
      const ContactBodyPair pair{0, i, 0, i};
      ContactManifold m;
      m.normal = Vec3(0, 1, 0);
      for (float x : {-0.5f, 0.5f})
        for (float z : {-0.5f, 0.5f}) {
          const Vec3 on_cube = cube.com_position + Vec3(x, -0.5f, z);
          m.points_on_2.push_back(on_cube);
          m.points_on_1.push_back(Vec3(on_cube.x(), 0.0f, on_cube.z()));
        }
      m.penetration_depth = -m.points_on_2[0].y();
      ContactSettings cs;
      cs.combined_friction = 0.5f;
      (void)manager.add_manifold(pair, m, cs, bodies, settings);
    }
    std::vector<uint32_t> all;
    for (uint32_t c = 0; c < manager.num_constraints(); ++c) all.push_back(c);
    manager.setup_velocity_constraints(bodies, {}, k_dt, settings);
    manager.warm_start(bodies, all);
    for (int iteration = 0; iteration < settings.velocity_steps; ++iteration)
      manager.solve_velocity_constraints(bodies, all, iteration);
    manager.store_applied_impulses(all);
    for (uint32_t i : cubes) bodies[i].com_position += bodies[i].linear_velocity * k_dt;
    std::vector<RemovedContact> removed;
    manager.end_step(removed);
  };
  std::vector<uint32_t> all_cubes, staying;
  for (uint32_t i = 1; i <= k_cubes; ++i) (i <= k_stay ? staying : all_cubes).push_back(i);
  all_cubes.insert(all_cubes.begin(), staying.begin(), staying.end());

  std::vector<SolverBody> together(k_cubes + 1);
  for (uint32_t i = 1; i <= k_cubes; ++i) together[i] = make_cube(i);
  ContactConstraintManager manager;
  step(manager, together, all_cubes);
  step(manager, together, staying);
  step(manager, together, all_cubes);

  for (uint32_t i = 1; i <= k_cubes; ++i) {
    std::vector<SolverBody> alone(i + 1);
    alone[i] = make_cube(i);
    ContactConstraintManager own;
    const std::vector<uint32_t> just{i};
    step(own, alone, just);
    step(own, alone, i <= k_stay ? just : std::vector<uint32_t>{});
    step(own, alone, just);
    // The contact pushed the cube up (rows were solved), and to the bit as alone.
    ASSERT_GT(together[i].linear_velocity.y(), -0.5f) << "cube " << i;
    ASSERT_EQ(std::memcmp(&together[i], &alone[i], sizeof(SolverBody)), 0) << "cube " << i;
  }
}

}  // namespace
}  // namespace contact_constraint_manager_test
}  // namespace atl
