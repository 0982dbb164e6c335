// A box dropped on a very large static floor rests on it, as on a small one.

#include "laws/LawFixture.h"

namespace atl::laws {
namespace large_floor_laws_test {
namespace {

struct Drop {
  float lowest_bottom = 0.0f;
  float final_bottom = 0.0f;
};

// A 1 m box (default convex radius) dropped from 0.5 m above the top (y = 0) of a static floor
// box of half extent (h, 1, h) with the default convex radius, at horizontal place `where`;
// 3 s of law conditions. Records the box's lowest and final bottom (m).
Drop drop_on_floor(float half_extent, const Vec3& where, const BodyOptions& options = {}) {
  const auto world = std::make_unique<LawWorld>();
  BoxShapeSettings floor_shape;
  floor_shape.half_extent = Vec3(half_extent, 1.0f, half_extent);
  const BodyCreationSettings floor(floor_shape.create().value_or_throw(), Vec3(0, -1, 0), Quat(),
                                   MotionType::Static);
  EXPECT_TRUE(world->bodies().create_and_add_body(floor, Activation::DontActivate).ok());
  const BodyID box = world->add_box(Vec3(0.5f, 0.5f, 0.5f), where + Vec3(0, 1.0f, 0), options);
  Drop drop;
  drop.lowest_bottom = k_float_max;
  world->run(180,
             [&](int) { drop.lowest_bottom = std::min(drop.lowest_bottom, world->bottom(box)); });
  drop.final_bottom = world->bottom(box);
  return drop;
}

// Regression: bodies fell through very large floors. Symptom: a 1 m box dropped on a static
// floor box of half extent 3e5 m or 1e6 m fell straight through it (bottom at −43.9 m after
// 3 s, no contact ever), while 1e5 m worked (bottom −17.8 mm at the centre; at x = 123 m
// lowest −25.5 mm, final −20.0 mm: already rounding). Cause: the narrow phase ran GJK/EPA on the
// floor's own support points, whose coordinates are ±3e5 m; a float resolves those to 3 cm, more
// than a resting contact's depth, so GJK saw the box's core and the floor as apart (or as one blur)
// and the contact was lost without a word. Fix: collide_convex_vs_convex cuts a box larger than 1e4
// m down to the part within a margin (≥ 1 m and twice the other shape's size) of the other shape,
// keeping the faces that are that close, and collides with that box, whose coordinates are near the
// contact (cut_large_box in ShapeInstance.h). Reading now: the box rests with its bottom 17.75 mm
// in the floor (within the 20 mm penetration slop) on every floor from 1e4 to 1e7 m, at the centre
// and 123 m away, identical to the small floor's reading.
TEST_F(LawFixture, LargeFloor_BoxRestsOnFloorsUpTo1e7Metres) {
  const Drop reference = drop_on_floor(50.0f, Vec3());
  report("LargeFloor.50m.final_bottom_mm", reference.final_bottom * 1000.0f);
  EXPECT_NEAR(reference.final_bottom, -0.0178f, 0.003f);
  for (const float h : {1.0e4f, 1.0e5f, 3.0e5f, 1.0e6f, 1.0e7f}) {
    for (const Vec3 where : {Vec3(0, 0, 0), Vec3(123.4f, 0, -56.7f)}) {
      const Drop d = drop_on_floor(h, where);
      const std::string key = "LargeFloor.h" + std::to_string(static_cast<long long>(h)) + ".x" +
                              std::to_string(static_cast<int>(where.x()));
      report(key + ".lowest_bottom_mm", d.lowest_bottom * 1000.0f);
      report(key + ".final_bottom_mm", d.final_bottom * 1000.0f);
      // Resting as on the small floor: within a millimetre of its reading, never deeper than
      // the slop plus the speculative distance.
      EXPECT_NEAR(d.final_bottom, reference.final_bottom, 1e-3f) << key;
      EXPECT_GT(d.lowest_bottom, -0.04f) << key;
    }
  }
}

// The same fix on the CCD path: a LinearCast box thrown down at 60 m/s (1 m per step, past its
// inner radius) onto the floors. Before ShapeCast.cpp cut a huge target box too, the CCD hit
// was placed by the rounded floor: lowest bottom −21.5 mm (3e5 m), −22.0 mm (1e6 m) and
// −116 mm (1e7 m) against −20.0 mm on a 50 m floor. Reading now: −20.0 mm on every floor,
// resting at −20.0 mm.
TEST_F(LawFixture, LargeFloor_FastLinearCastBoxStopsOnFloorsUpTo1e7Metres) {
  BodyOptions fast;
  fast.linear_velocity = Vec3(0, -60, 0);
  fast.motion_quality = MotionQuality::LinearCast;
  const Drop reference = drop_on_floor(50.0f, Vec3(), fast);
  report("LargeFloor.fast.50m.lowest_bottom_mm", reference.lowest_bottom * 1000.0f);
  EXPECT_GT(reference.lowest_bottom, -0.15f);
  for (const float h : {3.0e5f, 1.0e6f, 1.0e7f}) {
    const Drop d = drop_on_floor(h, Vec3(123.4f, 0, -56.7f), fast);
    const std::string key = "LargeFloor.fast.h" + std::to_string(static_cast<long long>(h));
    report(key + ".lowest_bottom_mm", d.lowest_bottom * 1000.0f);
    report(key + ".final_bottom_mm", d.final_bottom * 1000.0f);
    EXPECT_NEAR(d.final_bottom, reference.final_bottom, 1e-3f) << key;
    EXPECT_NEAR(d.lowest_bottom, reference.lowest_bottom, 2e-3f) << key;
  }
}

}  // namespace
}  // namespace large_floor_laws_test
}  // namespace atl::laws
