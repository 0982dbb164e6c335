// LAWS.md C2 (seed 001 §4–§5): large-island splitting. Small islands (≤ 128 contacts +
// constraints) are never split, so they are bit-identical with the splitter on and off (seed
// 001 E6c: 0.000000 mm at steps 60, 120, 300, 600). A 145-body pile, one island of several
// hundred items once it lands, is split: it stays stable and is a deterministic function of the
// input, and it follows another trajectory than with the splitter off (seed 001 E6: 0 mm while
// falling, 413 mm at step 60, 1545 mm from step 160 on in Jolt) — a reading, not an assertion.
// Small islands grouped for the wide contact solver are grouped with the splitter on and off
// alike, so the law holds for them as well.

#include <array>
#include <cstdio>

#include "atoll/state/StateHash.h"
#include "laws/LawFixture.h"

namespace atl::laws {
namespace island_split_laws_test {
namespace {

PhysicsSettings splitter_settings(bool on) {
  return with(&PhysicsSettings::use_large_island_splitter, on);
}

// Largest distance (m) between the same body in two worlds built alike.
float max_position_difference(LawWorld& a, LawWorld& b, const std::vector<BodyID>& ids) {
  float d = 0.0f;
  for (BodyID id : ids) d = std::max(d, (a.position(id) - b.position(id)).length());
  return d;
}

TEST_F(LawFixture, C2_SmallIslandsAreBitIdenticalWithTheSplitterOnAndOff) {
  // The law fixture's ten-box tower, and beside it 20 tumbling boxes dropped onto each other
  // (chaotic: any change of solve order would show), each far below 128 items.
  const auto build = [](bool on) {
    auto world = std::make_unique<LawWorld>(splitter_settings(on));
    world->add_floor();
    std::vector<BodyID> ids = world->add_tower(10, k_small_box, 0.0f);
    for (int i = 0; i < 20; ++i) {
      BodyOptions o;
      o.rotation = Quat::rotation(Vec3(1.0f, 0.3f * static_cast<float>(i), 0.5f).normalized(),
                                  0.4f * static_cast<float>(i));
      ids.push_back(world->add_box(
          k_small_box, Vec3(3.0f + 0.05f * static_cast<float>(i % 3), 0.3f + 0.3f * i, 0.0f), o));
    }
    return std::make_pair(std::move(world), ids);
  };
  auto [on, ids] = build(true);
  auto [off, ids_off] = build(false);
  ASSERT_EQ(ids, ids_off);
  int differing_steps = 0;
  float max_difference = 0.0f;
  for (int step = 1; step <= 600; ++step) {
    on->step();
    off->step();
    differing_steps +=
        state_hash(on->system().bodies()) != state_hash(off->system().bodies()) ? 1 : 0;
    max_difference = std::max(max_difference, max_position_difference(*on, *off, ids));
    if (step == 60 || step == 120 || step == 300 || step == 600)
      report("C2.small.max_position_difference_mm_step" + std::to_string(step),
             max_difference * 1000.0f);
  }
  // Measured: 0 differing steps of 600, 0 mm at steps 60, 120, 300, 600 (as Jolt's E6c).
  EXPECT_EQ(differing_steps, 0);
  EXPECT_EQ(max_difference, 0.0f);
}

// Seed 001 E6's scene kind: 145 boxes of 0.5 m, randomly rotated, dropped from up to 12 m over a
// 3 m × 3 m patch of the floor (some start overlapping and are pushed apart); sleeping off (law
// conditions). Measured difference on vs off (max over boxes, mm): step 30: 0 (falling apart),
// 60: 8.2, 120: 3180, 160: 5501, 240–600: 6176 (frozen once both have come to rest; the heap
// spreads to 7 m, so the boxes that end up elsewhere end far apart — Jolt's E6: 0, 413, 1119,
// …, 1545 mm).
constexpr const char* k_pile_scene = R"({
  "shapes": { "crate": { "type": "box", "half_extent": [0.25, 0.25, 0.25] } },
  "bodies": [ { "name": "floor", "shape": { "type": "box", "half_extent": [50, 1, 50] },
                "position": [0, -1, 0], "motion": "static" } ],
  "generators": [
    { "type": "pile", "name": "p", "shape": "crate", "count": 145, "min": [-1.5, 1, -1.5],
      "max": [1.5, 12, 1.5], "random_rotation": true, "friction": 0.5 }
  ]
})";

std::unique_ptr<LawWorld> pile_world(bool splitter) {
  std::unique_ptr<LawWorld> world = LawWorld::from_scene(k_pile_scene, "pile145");
  if (world == nullptr) return nullptr;
  PhysicsSettings settings = world->system().settings();
  settings.use_large_island_splitter = splitter;
  EXPECT_TRUE(world->system().set_settings(settings).ok());
  return world;
}

TEST_F(LawFixture, C2_LargePileIsSplitStableAndDeterministic) {
  std::unique_ptr<LawWorld> on = pile_world(true);
  std::unique_ptr<LawWorld> again = pile_world(true);
  std::unique_ptr<LawWorld> off = pile_world(false);
  ASSERT_NE(on, nullptr);
  ASSERT_NE(again, nullptr);
  ASSERT_NE(off, nullptr);
  std::vector<BodyID> boxes(on->scene()->body_ids().begin() + 1, on->scene()->body_ids().end());
  ASSERT_EQ(boxes.size(), 145u);

  int hash_mismatches = 0;
  float max_floor_penetration = 0.0f;       // whole run
  float max_floor_penetration_late = 0.0f;  // steps 301–600
  float max_difference = 0.0f;
  uint32_t fewest_islands = 0xffffffffu;
  for (int step = 1; step <= 600; ++step) {
    const UpdateResult r = on->step();
    again->step();
    off->step();
    fewest_islands = std::min(fewest_islands, r.num_islands);
    hash_mismatches +=
        state_hash(on->system().bodies()) != state_hash(again->system().bodies()) ? 1 : 0;
    for (BodyID id : boxes) {
      const float p = -on->bottom(id);
      max_floor_penetration = std::max(max_floor_penetration, p);
      if (step > 300) max_floor_penetration_late = std::max(max_floor_penetration_late, p);
    }
    const float d = max_position_difference(*on, *off, boxes);
    max_difference = std::max(max_difference, d);
    if (step == 30 || step == 60 || step == 120 || step == 160 || step == 240 || step == 420 ||
        step == 600)
      report("C2.pile.on_vs_off_max_position_difference_mm_step" + std::to_string(step),
             d * 1000.0f);
  }
  float lowest_centre = k_float_max, max_speed = 0.0f, max_radius = 0.0f;
  for (BodyID id : boxes) {
    lowest_centre = std::min(lowest_centre, on->position(id).y());
    max_speed = std::max(max_speed, on->velocity(id).length());
    const Vec3 p = on->position(id);
    max_radius = std::max(max_radius, std::sqrt(p.x() * p.x() + p.z() * p.z()));
  }
  report("C2.pile.max_floor_penetration_mm", max_floor_penetration * 1000.0f);
  report("C2.pile.max_floor_penetration_late_mm", max_floor_penetration_late * 1000.0f);
  report("C2.pile.lowest_centre_m", lowest_centre);
  report("C2.pile.final_max_speed_m_per_s", max_speed);
  report("C2.pile.final_max_horizontal_radius_m", max_radius);
  report("C2.pile.fewest_islands", fewest_islands);

  // Deterministic: two runs with the splitter on agree bit for bit at every step.
  EXPECT_EQ(hash_mismatches, 0);  // measured: 0 of 600 steps
  // The splitter engaged: the pile's solve order changed, so the trajectory left the one of the
  // unsplit solve (measured: first non-zero between steps 30 and 60, 6176 mm at the end).
  EXPECT_GT(max_difference, 0.0f);
  // Stable: no box fell through the floor (a box of 0.5 m resting rotated has its centre at
  // least 0.25 m up), and no box sank into it by more than twice the penetration slop.
  // Measured: lowest centre 0.230 m (the 20 mm slop), floor penetration 121 mm at worst while
  // landing, 20.0 mm over steps 301–600; final speed ≤ 1.0e-6 m/s, 23 islands at fewest.
  EXPECT_GT(lowest_centre, 0.2f);
  EXPECT_LT(max_floor_penetration_late, 0.04f);
}

// 160 boxes dropped tumbling onto the floor 2 m apart: 160 islands of one contact each, which
// the wide contact solver groups (key_island_groups) so that their contacts fill lane blocks.
std::unique_ptr<LawWorld> field_world(PhysicsSettings settings, std::vector<BodyID>& ids) {
  auto world = std::make_unique<LawWorld>(settings);
  world->add_floor();
  ids.clear();
  for (int i = 0; i < 160; ++i) {
    BodyOptions o;
    o.rotation = Quat::rotation(Vec3(1.0f, 0.3f * static_cast<float>(i % 7), 0.5f).normalized(),
                                0.37f * static_cast<float>(i));
    o.angular_velocity = Vec3(0.0f, 0.5f * static_cast<float>(i % 5), 0.0f);
    ids.push_back(world->add_box(k_small_box,
                                 Vec3(2.0f * static_cast<float>(i % 16), 0.3f + 0.05f * (i % 4),
                                      2.0f * static_cast<float>(i / 16)),
                                 o));
  }
  return world;
}

TEST_F(LawFixture, C2_GroupedSmallIslandsAreBitIdenticalWithTheSplitterOnAndOff) {
  std::vector<BodyID> ids, ids_off;
  std::unique_ptr<LawWorld> on = field_world(splitter_settings(true), ids);
  std::unique_ptr<LawWorld> off = field_world(splitter_settings(false), ids_off);
  ASSERT_EQ(ids, ids_off);
  int differing_steps = 0;
  uint32_t most_groups = 0;
  for (int step = 1; step <= 300; ++step) {
    const UpdateResult r = on->step();
    const UpdateResult r_off = off->step();
    EXPECT_EQ(r.num_island_groups, r_off.num_island_groups) << "step " << step;
    EXPECT_EQ(r_off.num_split_islands, 0u);
    most_groups = std::max(most_groups, r.num_island_groups);
    differing_steps +=
        state_hash(on->system().bodies()) != state_hash(off->system().bodies()) ? 1 : 0;
  }
  report("C2.grouped.most_groups", most_groups);
  // The islands were grouped (measured: 1 group of 129 islands) and gave the same bits.
  EXPECT_GE(most_groups, 1u);
  EXPECT_EQ(differing_steps, 0);
}

// A group's islands move as each would alone: with the wide solver off (no groups, every island
// solved by itself, contact by contact) the same field ends where it ends grouped and solved in
// lanes, to the lanes' round-off (they fuse other multiply-adds) and the early exit's threshold
// (an island that stops alone iterates on with its group, with impulses each under a velocity
// change of 1e-6 m/s): each island has one contact, so the solve order is the same.
TEST_F(LawFixture, C2_GroupedSmallIslandsMoveAsEachAlone) {
  std::vector<BodyID> ids, ids_alone;
  std::unique_ptr<LawWorld> grouped = field_world(PhysicsSettings{}, ids);
  std::unique_ptr<LawWorld> alone =
      field_world(with(&PhysicsSettings::use_wide_contact_solver, false), ids_alone);
  float max_difference = 0.0f;
  uint32_t most_groups = 0;
  for (int step = 1; step <= 120; ++step) {
    most_groups = std::max(most_groups, grouped->step().num_island_groups);
    EXPECT_EQ(alone->step().num_island_groups, 0u);
    max_difference = std::max(max_difference, max_position_difference(*grouped, *alone, ids));
  }
  report("C2.grouped.max_position_difference_to_alone_mm", max_difference * 1000.0f);
  // Measured: 0.0029 mm (one group of 129 islands from step 17 on).
  EXPECT_GE(most_groups, 1u);
  EXPECT_LT(max_difference, 5.0e-5f);
}

}  // namespace
}  // namespace island_split_laws_test
}  // namespace atl::laws
