// Flat convex hulls (coplanar points) from a scene file behave as plates.

#include "laws/LawFixture.h"

namespace atl::laws {
namespace flat_hull_laws_test {
namespace {

// A dynamic 2 × 2 m plate built from the four corners of a 2D box (convex radius 0.05, so 0.1 m
// thick, its outline the 2 × 2 m square), dropped flat from 0.5 m; a static 2D triangle (convex
// radius 0) as a patch of ground beside the floor, with a 1 m crate dropped on it from 0.5 m.
constexpr std::string_view k_scene = R"({
  "shapes": {
    "plate": { "type": "convex_hull", "convex_radius": 0.05,
               "points": [[-1, 0, -1], [1, 0, -1], [1, 0, 1], [-1, 0, 1]] },
    "patch": { "type": "convex_hull", "convex_radius": 0,
               "points": [[-4, 0, -4], [4, 0, -4], [0, 0, 4]] },
    "crate": { "type": "box", "half_extent": [0.5, 0.5, 0.5] }
  },
  "bodies": [
    { "name": "floor", "shape": { "type": "box", "half_extent": [10, 1, 10] },
      "position": [0, -1, 0], "motion": "static" },
    { "name": "plate", "shape": "plate", "position": [0, 0.55, 0] },
    { "name": "patch", "shape": "patch", "position": [30, 0, 0], "motion": "static" },
    { "name": "crate", "shape": "crate", "position": [30, 1.0, 0] }
  ]
})";

// Regression (issue 7 item 11): flat convex hulls were refused ("points: all 4 points are
// coplanar"), so a 2D box could not be a plate and a 2D polygon could not be ground. Fix: they
// build as plates of half thickness convex_radius (the slab's mass) and collide, cast and load
// from a scene file. Reading now: the plate rests level with its polygon 32.2 mm above the
// floor's top (its 50 mm half thickness less the 17.8 mm resting penetration a crate on the
// floor shows too), speed 1.5e-9 m/s; the crate rests on the zero-thickness triangle with its
// bottom at −17.8 mm.
TEST_F(LawFixture, FlatHull_PlateRestsOnTheFloorAndACrateOnA2DTriangle) {
  const std::unique_ptr<LawWorld> world = LawWorld::from_scene(k_scene, "flat_hull.json");
  ASSERT_NE(world, nullptr);
  const BodyID plate = world->scene_body("plate");
  const BodyID crate = world->scene_body("crate");
  world->run(180);
  const float plate_y = world->position(plate).y();
  const float crate_bottom = world->position(crate).y() - 0.5f;
  report("FlatHull.plate_y_mm", plate_y * 1000.0f);
  report("FlatHull.plate_speed", world->velocity(plate).length());
  report("FlatHull.crate_bottom_mm", crate_bottom * 1000.0f);
  // Resting on its lower face: centre at r = 0.05 above the top, within the 20 mm slop.
  EXPECT_NEAR(plate_y, 0.05f, 0.021f);
  EXPECT_LT(world->velocity(plate).length(), 0.01f);
  EXPECT_GT((world->body(plate).rotation() * Vec3(0, 1, 0)).y(), 0.9999f);
  // Resting on the patch at y = 0, within the slop.
  EXPECT_NEAR(crate_bottom, 0.0f, 0.021f);
  EXPECT_LT(world->velocity(crate).length(), 0.01f);
}

}  // namespace
}  // namespace flat_hull_laws_test
}  // namespace atl::laws
