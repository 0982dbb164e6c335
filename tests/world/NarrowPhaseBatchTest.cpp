// The narrow phase's shape tests run in batches of pairs, and the contacts of the pairs up to
// each batch's end are added before the next batch overwrites the workers' manifold lists
// (world/ContactFinding.cpp, collide_round; it bounds that scratch, which held all of a step's
// manifolds at once: 0.9 MB in the pyramid's first step).
//
// What would go wrong: a pair whose contacts were added after its batch's manifolds were
// dropped would get another pair's manifold, none, or a stale one; a pair added twice or never
// would change the counts. Expected here: 1600 boxes resting on a floor, apart from each other,
// so that every pair is a floor–box pair with one face manifold — many batches of shape tests in
// the first step (all pairs new), and in a later step every other box moved by more than the
// body-pair cache allows, so that collided and reused pairs alternate across the batches. Every
// box gets exactly one event per step, with the normal up and the point under that box.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "atoll/core/ThreadPool.h"
#include "laws/LawFixture.h"

namespace atl {
namespace narrow_phase_batch_test {
namespace {

using laws::LawWorld;

constexpr int k_side = 40;  // boxes per row and column: 1600 pairs, several batches
constexpr float k_half = 0.25f;
constexpr float k_spacing = 1.0f;

struct EventLog final : ContactListener {
  std::vector<ContactEvent> events;
  void on_contact_events(std::span<const ContactEvent> e) override {
    events.assign(e.begin(), e.end());
  }
};

PhysicsSettings weightless() {
  PhysicsSettings s;
  s.gravity = Vec3::zero();
  s.allow_sleeping = false;
  return s;
}

// Every box has exactly one event of `type`, between it and the floor, whose normal is vertical
// and whose point lies under that box.
void expect_one_event_per_box(LawWorld& w, const EventLog& log, BodyID floor,
                              const std::vector<BodyID>& boxes, ContactEventType type) {
  std::vector<int> seen(boxes.size(), 0);
  ASSERT_EQ(log.events.size(), boxes.size());
  for (const ContactEvent& e : log.events) {
    ASSERT_EQ(e.type, type);
    const BodyID box = e.body1 == floor ? e.body2 : e.body1;
    ASSERT_TRUE(e.body1 == floor || e.body2 == floor);
    const size_t i = static_cast<size_t>(box.index() - boxes.front().index());
    ASSERT_LT(i, boxes.size());
    ASSERT_EQ(boxes[i], box);
    ++seen[i];
    EXPECT_NEAR(std::fabs(e.normal.y()), 1.0f, 1e-4f);
    const Vec3 centre = w.position(box);
    EXPECT_LE(std::fabs(e.point.x() - centre.x()), k_half + 1e-3f) << "box " << i;
    EXPECT_LE(std::fabs(e.point.z() - centre.z()), k_half + 1e-3f) << "box " << i;
  }
  for (size_t i = 0; i < boxes.size(); ++i) EXPECT_EQ(seen[i], 1) << "box " << i;
}

TEST(NarrowPhaseBatch, EveryPairOfManyBatchesGetsItsOwnContactsInOrder) {
  LawWorld w(weightless());
  EventLog log;
  w.system().set_contact_listener(&log);
  const BodyID floor = w.add_floor();
  std::vector<BodyID> boxes;
  for (int i = 0; i < k_side; ++i)
    for (int j = 0; j < k_side; ++j)
      boxes.push_back(w.add_box(Vec3(k_half, k_half, k_half),
                                Vec3(k_spacing * static_cast<float>(i - k_side / 2), k_half,
                                     k_spacing * static_cast<float>(j - k_side / 2)),
                                {}, 0.0f));

  // First step: every pair is new and collided.
  const UpdateResult first = w.step();
  EXPECT_EQ(first.num_manifolds, boxes.size());
  EXPECT_EQ(first.num_contact_points, 4 * boxes.size());
  expect_one_event_per_box(w, log, floor, boxes, ContactEventType::Added);

  // Every other box moved sideways by 5 cm (the body-pair cache allows 1 mm): its pair is
  // collided again, its neighbours' pairs are reused.
  for (size_t i = 0; i < boxes.size(); i += 2)
    ASSERT_TRUE(w.bodies().set_position(boxes[i], w.position(boxes[i]) + Vec3(0.05f, 0, 0)).ok());
  const UpdateResult second = w.step();
  EXPECT_EQ(second.num_manifolds, boxes.size());
  EXPECT_EQ(second.num_contact_points, 4 * boxes.size());
  expect_one_event_per_box(w, log, floor, boxes, ContactEventType::Persisted);
}

// Without a listener, a reused pair's constraints are filled after the narrow phase on every
// worker (ContactConstraintManager::reuse_body_pairs_later); with one, in order as the pair is
// added (reuse_body_pair). Both must give the same constraints in the same order: a tower, and a
// row of boxes sliding and spinning to a stop (pairs reused and collided again), some inside a
// sensor (its pairs reused too, with no constraint), the same bits step for step with and without a
// listener.
TEST(NarrowPhaseBatch, ReusedPairsGetTheSameConstraintsWithAndWithoutAListener) {
  const auto build = [](LawWorld& w) {
    w.add_floor();
    w.add_tower(8, Vec3(0.3f, 0.2f, 0.4f), 0.01f);
    // Sliding (friction at its bound) and spinning, so that every row of the constraints shows.
    for (int i = 0; i < 12; ++i) {
      laws::BodyOptions o;
      o.linear_velocity = Vec3(0.5f + 0.1f * static_cast<float>(i), 0.0f, 0.3f);
      o.angular_velocity = Vec3(0.0f, 1.0f, 0.0f);
      w.add_box(Vec3(0.2f, 0.2f, 0.2f), Vec3(1.0f + 0.45f * static_cast<float>(i), 0.25f, 0.0f), o);
    }
    laws::BodyOptions sensor;
    sensor.sensor = true;
    sensor.motion_type = MotionType::Kinematic;
    w.add_box(Vec3(1.5f, 1.0f, 1.0f), Vec3(2.0f, 0.5f, 0.0f), sensor);
  };
  PhysicsSettings settings = laws::law_settings();
  settings.allow_sleeping = false;
  LawWorld quiet(settings);
  LawWorld heard(settings);
  build(quiet);
  build(heard);
  EventLog log;
  heard.system().set_contact_listener(&log);
  for (int step = 0; step < 120; ++step) {
    const UpdateResult a = quiet.step();
    const UpdateResult b = heard.step();
    ASSERT_EQ(a.num_manifolds, b.num_manifolds) << "step " << step;
    ASSERT_EQ(a.num_contact_points, b.num_contact_points) << "step " << step;
    ASSERT_EQ(quiet.system().state_hash(), heard.system().state_hash()) << "step " << step;
  }
  EXPECT_FALSE(log.events.empty());
}

// Without a listener, the ordered pass only counts the pairs, reused or collided (from counts
// the look-ups and the shape tests wrote), and the fill works out each pair's places from where
// its share starts and the counts before it (collide_round); with a manifold cap, the ordered
// pass adds the collided pairs itself and the fill the reused ones. On several workers the fill
// runs in several shares. Expected: the same steps, bit for bit, on one worker and on three
// (three shares of the pairs), with a cap that is not reached, and with a listener (every pair
// added in order); the deepest point (the first pair of equal depths, in pair order) the same. The
// scene: boxes resting on a floor, every fifth one under a second box, the stacks falling
// asleep, then hit by a box dropped from higher up, which wakes the top box by a new contact and
// the bottom one through the pair the two kept while asleep (a reused pair that wakes a body).
TEST(NarrowPhaseBatch, ReusedPairsOfEveryShareGetTheirPlacesOnAnyNumberOfWorkers) {
  const auto build = [](LawWorld& w) {
    w.add_floor();
    for (int i = 0; i < k_side; ++i)
      for (int j = 0; j < k_side; ++j) {
        const float x = k_spacing * static_cast<float>(i - k_side / 2);
        const float z = k_spacing * static_cast<float>(j - k_side / 2);
        const Vec3 half(k_half, k_half, k_half);
        w.add_box(half, Vec3(x, k_half, z), {}, 0.0f);
        if ((i * k_side + j) % 5 != 0) continue;
        w.add_box(half, Vec3(x, 3.0f * k_half, z), {}, 0.0f);
        laws::BodyOptions spinning;
        spinning.angular_velocity = Vec3(0.3f, 1.0f, 0.2f);
        w.add_box(half, Vec3(x + 0.1f, 5.0f * k_half + 1.5f, z), spinning, 0.0f);
      }
  };
  PhysicsSettings settings = laws::law_settings();
  settings.allow_sleeping = true;
  settings.time_before_sleep = 0.1f;
  LawWorld one(settings);
  LawWorld three(settings);
  PhysicsSystemSettings cap;
  cap.max_contact_manifolds = 1'000'000;
  LawWorld capped(settings, cap);
  LawWorld heard(settings);
  for (LawWorld* w : {&one, &three, &capped, &heard}) build(*w);
  EventLog log;
  heard.system().set_contact_listener(&log);
  std::unique_ptr<ThreadPool> pool3 = ThreadPool::create(3).value();
  std::unique_ptr<ThreadPool> pool2 = ThreadPool::create(2).value();
  const auto update = [](LawWorld& w, JobSystem* jobs) {
    Result<UpdateResult> r = w.system().update(laws::k_dt, 1, jobs);
    EXPECT_TRUE(r.ok());
    return r ? *r : UpdateResult{};
  };
  uint32_t fewest_active = UINT32_MAX;
  bool woken_after_sleep = false;
  uint32_t most_pairs = 0;
  for (int step = 0; step < 60; ++step) {
    const UpdateResult a = update(one, nullptr);
    const UpdateResult b = update(three, pool3.get());
    const UpdateResult c = update(heard, pool2.get());
    const UpdateResult d = update(capped, pool3.get());
    for (const UpdateResult* r : {&b, &c, &d}) {
      ASSERT_EQ(a.num_manifolds, r->num_manifolds) << "step " << step;
      ASSERT_EQ(a.num_contact_points, r->num_contact_points) << "step " << step;
      ASSERT_EQ(a.num_active_bodies, r->num_active_bodies) << "step " << step;
      ASSERT_EQ(a.max_penetration, r->max_penetration) << "step " << step;
      ASSERT_EQ(a.max_penetration_body1, r->max_penetration_body1) << "step " << step;
      ASSERT_EQ(a.max_penetration_body2, r->max_penetration_body2) << "step " << step;
    }
    ASSERT_EQ(one.system().state_hash(), three.system().state_hash()) << "step " << step;
    ASSERT_EQ(one.system().state_hash(), heard.system().state_hash()) << "step " << step;
    ASSERT_EQ(one.system().state_hash(), capped.system().state_hash()) << "step " << step;
    woken_after_sleep |= a.num_active_bodies > fewest_active;
    fewest_active = std::min(fewest_active, a.num_active_bodies);
    most_pairs = std::max(most_pairs, a.num_body_pairs);
  }
  // The scene did what the comment says: more pairs than one share, sleep, then waking.
  EXPECT_GT(most_pairs, 1024u);
  EXPECT_TRUE(woken_after_sleep);
  EXPECT_FALSE(log.events.empty());
}

}  // namespace
}  // namespace narrow_phase_batch_test
}  // namespace atl
