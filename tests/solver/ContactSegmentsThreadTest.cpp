// The narrow phase adds a step's pairs in shares on several threads, each share into a segment
// of the contact manager, and joins the segments in order (ContactConstraintManager::Segment).
// The joined contacts must be exactly those one thread adds in order: the cache (pairs,
// manifolds, points, impulses, settings), the solver's contact list, and the deepest point.
// Run under ThreadSanitizer with the other thread tests.

#include <gtest/gtest.h>

#include <bit>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "atoll/core/Random.h"
#include "atoll/core/ThreadPool.h"
#include "atoll/solver/ContactConstraintManager.h"

namespace atl {
namespace {

constexpr float k_dt = 1.0f / 60.0f;
constexpr uint32_t k_num_pairs = 700;
constexpr uint32_t k_num_bodies = 64;

// Pair k joins solver bodies k % 64 and (k * 7 + 1) % 64 (never the same), keys k and k + 1000.
ContactBodyPair pair_of(uint32_t k) {
  uint32_t b = (k * 7 + 1) % k_num_bodies;
  if (b == k % k_num_bodies) b = (b + 1) % k_num_bodies;
  return {k, k + 1000, k % k_num_bodies, b};
}

// A manifold of 1 to 4 points between the bodies of pair k; its depth and points vary with the
// step, so some points keep last step's impulses and some do not.
ContactManifold manifold_of(uint32_t k, int step, const std::vector<SolverBody>& bodies) {
  const ContactBodyPair pair = pair_of(k);
  const Vec3 base = bodies[pair.solver_body1].com_position;
  ContactManifold m;
  m.normal = Vec3(0, 1, 0);
  m.sub_shape_id1 = SubShapeID();
  m.sub_shape_id2 = SubShapeID();
  const uint32_t points = 1 + (k + static_cast<uint32_t>(step)) % 4;
  for (uint32_t p = 0; p < points; ++p) {
    const Vec3 at = base + Vec3(0.1f * static_cast<float>(p), 0.0f,
                                0.003f * static_cast<float>(step * (k % 5)));
    m.points_on_1.push_back(at);
    m.points_on_2.push_back(at - m.normal * (0.001f * static_cast<float>((k * 13 + p) % 17)));
  }
  m.penetration_depth = 0.016f;
  return m;
}

ContactSettings settings_of(uint32_t k) {
  ContactSettings cs;
  cs.combined_friction = 0.2f + 0.01f * static_cast<float>(k % 7);
  if (k % 11 == 0) cs.combined_rolling_resistance = 0.05f;  // in the side list
  if (k % 23 == 0) cs.is_sensor = true;                     // no solver contact
  return cs;
}

// Adds pair k as the narrow phase would: reused when the cache allows, else a new manifold.
void add_pair(ContactConstraintManager& manager, ContactConstraintManager::Segment& segment,
              size_t& cursor, uint32_t k, int step, const std::vector<SolverBody>& bodies,
              const PhysicsSettings& settings) {
  const ContactBodyPair pair = pair_of(k);
  float deepest = 0.0f;
  const ContactConstraintManager::CachedPair* reused =
      manager.find_reusable_pair(pair, bodies, settings, cursor, deepest);
  if (reused != nullptr && k % 3 != 0) {
    manager.reuse_body_pair(segment, *reused, pair, bodies, deepest);
    return;
  }
  (void)manager.had_manifold(segment, pair, SubShapeID(), SubShapeID());
  (void)manager.add_manifold(segment, pair, manifold_of(k, step, bodies), settings_of(k), bodies,
                             settings);
}

// The cache as its state walk saves it: every number, as bits.
class SaveToWords final : public StateStream {
 public:
  SaveToWords() : StateStream(Mode::save) {}
  std::vector<uint32_t> words;
  void floats(const char*, float* values, uint32_t count) override {
    for (uint32_t i = 0; i < count; ++i) words.push_back(std::bit_cast<uint32_t>(values[i]));
  }
  void u32s(const char*, uint32_t* values, uint32_t count) override {
    words.insert(words.end(), values, values + count);
  }
  void flag(const char*, bool& value) override { words.push_back(value ? 1u : 0u); }
  void count(const char*, uint32_t& value, uint32_t) override { words.push_back(value); }
  void expect(const char*, uint32_t world_value) override { words.push_back(world_value); }
};

std::vector<uint32_t> cache_words(ContactConstraintManager& manager) {
  SaveToWords stream;
  manager.visit_cache_state(stream);
  return stream.words;
}

struct Outcome {
  std::vector<uint32_t> cache;
  std::vector<uint32_t> contacts;  // body1, body2 and friction bits of every solver contact
  uint32_t num_points = 0;
  float max_penetration = 0.0f;
  std::pair<uint32_t, uint32_t> max_keys;
};

// Three steps of all pairs; the last one added in `shares` segments on `pool` (null: one
// segment on this thread, in order).
Outcome run(uint32_t shares, ThreadPool* pool) {
  Random rng(5);
  std::vector<SolverBody> bodies(k_num_bodies);
  for (SolverBody& body : bodies) {
    body.com_position = Vec3(rng.uniform(-5, 5), rng.uniform(0, 5), rng.uniform(-5, 5));
    body.inv_mass = Vec3::replicate(1.0f);
    body.inv_inertia = Mat44::scale(Vec3::replicate(6.0f));
  }
  PhysicsSettings settings;
  ContactConstraintManager manager;
  Outcome out;
  for (int step = 0; step < 3; ++step) {
    manager.begin_step(k_dt, settings);
    // Some bodies move, so that their pairs are not reusable.
    for (uint32_t b = 0; b < k_num_bodies; b += 5)
      bodies[b].com_position += Vec3(0.0f, 0.1f * static_cast<float>(step), 0.0f);
    const bool last = step == 2;
    const uint32_t count = last ? shares : 1;
    std::span<ContactConstraintManager::Segment> segments = manager.begin_segments(count);
    const auto fill = [&](uint32_t k_share) {
      size_t cursor = 0;
      const uint32_t end = k_num_pairs * (k_share + 1) / count;
      for (uint32_t k = k_num_pairs * k_share / count; k < end; ++k)
        add_pair(manager, segments[k_share], cursor, k, step, bodies, settings);
    };
    InlineJobSystem inline_jobs;
    JobSystem& jobs = last && pool != nullptr ? static_cast<JobSystem&>(*pool) : inline_jobs;
    parallel_for(jobs, count, 1, [&](uint32_t first, uint32_t end, uint32_t) {
      for (uint32_t s = first; s < end; ++s) fill(s);
    });
    manager.join_segments(jobs);
    if (last) {
      for (uint32_t i = 0; i < manager.num_constraints(); ++i) {
        out.contacts.push_back(manager.constraint_body1(i));
        out.contacts.push_back(manager.constraint_body2(i));
        out.contacts.push_back(std::bit_cast<uint32_t>(manager.friction(i)));
      }
      out.num_points = manager.num_contact_points();
      out.max_penetration = manager.max_penetration();
      out.max_keys = manager.max_penetration_keys();
    }
    std::vector<RemovedContact> removed;
    manager.end_step(removed);
  }
  out.cache = cache_words(manager);
  return out;
}

TEST(ContactSegmentsThreads, JoinedSegmentsAreTheContactsOfOneThread) {
  const Outcome one = run(1, nullptr);
  ASSERT_GT(one.contacts.size(), 3u * 600u);
  ASSERT_GT(one.max_penetration, 0.0f);
  ASSERT_GT(one.cache.size(), 10000u);
  const std::unique_ptr<ThreadPool> pool = ThreadPool::create(3).value();
  for (const uint32_t shares : {2u, 3u, 5u}) {
    for (ThreadPool* jobs : {static_cast<ThreadPool*>(nullptr), pool.get()}) {
      const Outcome joined = run(shares, jobs);
      const std::string where =
          std::to_string(shares) + " shares, " + (jobs != nullptr ? "3 workers" : "inline");
      EXPECT_EQ(joined.contacts, one.contacts) << where;
      EXPECT_EQ(joined.num_points, one.num_points) << where;
      EXPECT_EQ(joined.max_penetration, one.max_penetration) << where;
      EXPECT_EQ(joined.max_keys, one.max_keys) << where;
      EXPECT_EQ(joined.cache, one.cache) << where;
    }
  }
}

}  // namespace
}  // namespace atl
