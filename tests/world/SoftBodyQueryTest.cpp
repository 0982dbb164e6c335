// Soft bodies in the broadphase (issue 11 item 3): queries find a soft body by its vertices —
// rays and points by its faces, vertex spheres, edge capsules and closed volume, boxes by its
// bounds, shapes by its vertex spheres — and its entry follows the vertices every step; the
// pair finder never pairs it with a rigid body (its stage collides the vertices), nor does CCD
// stop a fast body at it; activate_bodies_in_aabox wakes it; a restored state puts its bounds
// back.

#include <gtest/gtest.h>

#include <vector>

#include "atoll/shape/BoxShape.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/softbody/SoftBodyGenerators.h"
#include "atoll/state/StateRecorder.h"
#include "atoll/world/WorldQuery.h"
#include "laws/LawFixture.h"

namespace atl {
namespace soft_body_query_test {

using laws::BodyOptions;
using laws::LawWorld;

constexpr float k_dt = 1.0f / 60.0f;

BodyID add_soft(LawWorld& world, Ref<SoftBodySettings> settings) {
  SoftBodyCreationSettings s;
  s.settings = std::move(settings);
  const Result<BodyID> id = world.bodies().create_and_add_soft_body(s, Activation::Activate);
  EXPECT_TRUE(id.ok()) << id.error().message();
  return id.value();
}

UpdateResult step(LawWorld& world, int steps) {
  UpdateResult last;
  for (int i = 0; i < steps; ++i) {
    const Result<UpdateResult> r = world.system().update(k_dt, 1);
    EXPECT_TRUE(r.ok() && r.value().ok());
    last = r.value();
  }
  return last;
}

// A 2 × 2 m cloth of 5 × 5 vertices (cells of 0.5 m, vertex radius 0.02 m) at height y.
Ref<SoftBodySettings> cloth(float y) {
  return make_cloth(Vec3(0, y, 0), 2.0f, 2.0f, 5, 5, 0.5f, 1.0e-5f, 1.0e-3f).value_or_throw();
}

// A rope from (−1, 2, 0) to (1, 2, 0) of 4 segments, vertex radius 0.05 m.
Ref<SoftBodySettings> rope() {
  return make_rope(Vec3(-1, 2, 0), Vec3(1, 2, 0), 4, 1.0f, 0.0f, 0.0f, 0.05f).value_or_throw();
}

TEST(SoftBodyQuery, ARayHitsAClothsFacesFromEitherSideAndARopesCapsules) {
  LawWorld world;
  const BodyID sheet = add_soft(world, cloth(1.0f));
  const BodyID line = add_soft(world, rope());
  const WorldQuery query(world.system());
  // (0.25, 0.1) lies in a cell more than the vertex radius from its sides and diagonal: the
  // ray meets the face itself, at y = 1.
  Result<std::optional<RayHit>> down = query.cast_ray(Vec3(0.25f, 1.5f, 0.1f), Vec3(0, -1, 0));
  ASSERT_TRUE(down.ok() && down->has_value());
  EXPECT_EQ((*down)->body, sheet);
  EXPECT_NEAR((*down)->fraction, 0.5f, 1e-5f);
  EXPECT_NEAR(((*down)->normal - Vec3(0, 1, 0)).length(), 0.0f, 1e-5f) << "toward the ray";
  Result<std::optional<RayHit>> up = query.cast_ray(Vec3(0.25f, 0.0f, 0.1f), Vec3(0, 2, 0));
  ASSERT_TRUE(up.ok() && up->has_value());
  EXPECT_EQ((*up)->body, sheet);
  EXPECT_NEAR((*up)->fraction, 0.5f, 1e-5f);
  EXPECT_NEAR(((*up)->normal - Vec3(0, -1, 0)).length(), 0.0f, 1e-5f);
  // Between two rope vertices (x = 0 and 0.5) the segment's capsule is hit, at y = 2.05; the
  // ray then goes on to the cloth at y = 1.
  // 3 cm beside the rope's axis: its surface is at y = 2 + √(0.05² − 0.03²) = 2.04.
  Result<std::vector<RayHit>> all = query.cast_ray_all(Vec3(0.25f, 3.0f, 0.03f), Vec3(0, -4, 0));
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].body, line);
  EXPECT_NEAR((*all)[0].fraction, (3.0f - 2.04f) / 4.0f, 1e-5f);
  // The capsule's normal there: (0, 0.04, 0.03) / 0.05.
  EXPECT_NEAR(((*all)[0].normal - Vec3(0, 0.8f, 0.6f)).length(), 0.0f, 1e-3f);
  EXPECT_EQ((*all)[1].body, sheet);
  EXPECT_NEAR((*all)[1].fraction, 0.5f, 1e-5f);
  // Past the cloth's edge, or beside the rope by more than its radius: nothing.
  Result<std::optional<RayHit>> miss = query.cast_ray(Vec3(1.2f, 1.5f, 0.3f), Vec3(0, -1, 0));
  ASSERT_TRUE(miss.ok());
  EXPECT_FALSE(miss->has_value());
  // A filter that leaves soft bodies out sees nothing here.
  QueryFilter rigid_only;
  rigid_only.bodies = [](const Body& body) { return !body.is_soft_body(); };
  Result<std::vector<RayHit>> none =
      query.cast_ray_all(Vec3(0.25f, 3.0f, 0.03f), Vec3(0, -4, 0), rigid_only);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST(SoftBodyQuery, APointIsInAClosedVolumeOrWithinTheRadiusOfAnEdge) {
  LawWorld world;
  const BodyID ball = add_soft(
      world, make_pressure_ball(Vec3(0, 5, 0), 1.0f, 2, 1.0f, 1.0f, 0.0f).value_or_throw());
  const BodyID line = add_soft(world, rope());
  const BodyID sheet = add_soft(world, cloth(1.0f));
  const WorldQuery query(world.system());
  const auto at = [&](const Vec3& p) { return query.collide_point(p).value_or_throw(); };
  EXPECT_EQ(at(Vec3(0, 5, 0)), std::vector<BodyID>{ball});
  EXPECT_EQ(at(Vec3(0.5f, 5.3f, -0.2f)), std::vector<BodyID>{ball});
  EXPECT_TRUE(at(Vec3(0, 6.2f, 0)).empty());
  EXPECT_TRUE(at(Vec3(1.05f, 5, 0)).empty());
  // 3 cm from the rope's segment (radius 5 cm); 8 cm is outside.
  EXPECT_EQ(at(Vec3(0.25f, 2.03f, 0)), std::vector<BodyID>{line});
  EXPECT_TRUE(at(Vec3(0.25f, 2.08f, 0)).empty());
  // A cloth encloses nothing: only its vertex spheres and edge capsules hold points.
  EXPECT_TRUE(at(Vec3(0.25f, 0.99f, 0.1f)).empty());
  EXPECT_EQ(at(Vec3(0.5f, 1.01f, 0.5f)), std::vector<BodyID>{sheet});
}

TEST(SoftBodyQuery, ShapesMeetTheVertexSpheres) {
  LawWorld world;
  const BodyID sheet = add_soft(world, cloth(1.0f));
  const WorldQuery query(world.system());
  // The vertices of the cloth are at x, z ∈ {−1, −0.5, 0, 0.5, 1}.
  const BoxShape small(Vec3(0.3f, 0.1f, 0.3f));
  const BoxShape large(Vec3(0.6f, 0.1f, 0.6f));
  const Mat44 at = Mat44::translation(Vec3(0, 1, 0));
  Result<std::vector<ShapeHit>> one = query.collide_shape(small, at);
  ASSERT_TRUE(one.ok());
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ((*one)[0].body, sheet);
  Result<std::vector<ShapeHit>> nine = query.collide_shape(large, at);
  ASSERT_TRUE(nine.ok());
  EXPECT_EQ(nine->size(), 9u);
  // Between the vertices (the box fits in a cell) nothing is met: shapes see only the spheres.
  Result<std::vector<ShapeHit>> between = query.collide_shape(
      BoxShape(Vec3(0.1f, 0.1f, 0.1f)), Mat44::translation(Vec3(0.25f, 1, 0.25f)));
  ASSERT_TRUE(between.ok());
  EXPECT_TRUE(between->empty());
  // A ball of 0.1 m cast down onto the vertex at (0, 1, 0) (radius 0.02) stops at y = 1.12.
  const SphereShape probe(0.1f);
  Result<std::optional<ShapeCastHit>> cast =
      query.cast_shape(probe, Mat44::translation(Vec3(0, 3, 0)), Vec3(0, -4, 0));
  ASSERT_TRUE(cast.ok() && cast->has_value());
  EXPECT_EQ((*cast)->body, sheet);
  EXPECT_NEAR((*cast)->result.fraction, (3.0f - 1.12f) / 4.0f, 1e-3f);
}

TEST(SoftBodyQuery, TheEntryIsNeverPaired) {
  // Without gravity the cloth stays put over a box inside its fattened bounds: the cloth's
  // stage makes their contacts, the pair finder reports no pair.
  PhysicsSettings settings = laws::law_settings();
  settings.gravity = Vec3::zero();
  LawWorld world{settings};
  add_soft(world, cloth(1.0f));
  world.add_box(Vec3(0.03f, 0.03f, 0.03f), Vec3(0.25f, 0.95f, 0.1f));
  EXPECT_EQ(step(world, 1).num_body_pairs, 0u);
}

TEST(SoftBodyQuery, TheEntryFollowsTheVertices) {
  LawWorld world;
  const BodyID sheet = add_soft(world, cloth(1.0f));
  step(world, 30);
  // Falling freely for 0.5 s: the cloth is about 1.2 m lower, and so is its entry.
  const float y = world.system().soft_body(sheet)->center_of_mass().y();
  ASSERT_LT(y, -0.1f);
  const WorldQuery query(world.system());
  const AABox old_place(Vec3(-1, 0.9f, -1), Vec3(1, 1.1f, 1));
  const AABox new_place(Vec3(-1, y - 0.05f, -1), Vec3(1, y + 0.05f, 1));
  EXPECT_TRUE(query.collide_aabox(old_place).value_or_throw().empty());
  EXPECT_EQ(query.collide_aabox(new_place).value_or_throw(), std::vector<BodyID>{sheet});
  Result<std::optional<RayHit>> hit = query.cast_ray(Vec3(0.25f, 1.0f, 0.1f), Vec3(0, -3, 0));
  ASSERT_TRUE(hit.ok() && hit->has_value());
  EXPECT_EQ((*hit)->body, sheet);
}

TEST(SoftBodyQuery, AFastBodyPassesBetweenTwoVerticesUnstoppedByCcd) {
  // Two pinned vertices 4 m apart joined by an edge: the soft body's Body (a placeholder at
  // their centre) lies in the path of a LinearCast ball fired at 200 m/s between them. Only
  // vertices collide, so the ball flies on.
  LawWorld world;
  Ref<SoftBodySettings> pair = new SoftBodySettings();
  pair->vertices = {{Vec3(-2, 1, 0), Vec3::zero(), 0.0f}, {Vec3(2, 1, 0), Vec3::zero(), 0.0f}};
  pair->edges = {{{0, 1}, 0.0f, 0.0f}};
  pair->compute_rest_values();
  add_soft(world, pair);
  const BodyID ball = world.add_sphere(0.1f, Vec3(0, 1, -5),
                                       BodyOptions{.linear_velocity = Vec3(0, 0, 200),
                                                   .gravity_factor = 0,
                                                   .motion_quality = MotionQuality::LinearCast});
  step(world, 3);
  EXPECT_NEAR(world.body(ball).center_of_mass_position().z(), -5.0f + 200.0f * 3 * k_dt, 1e-3f);
  EXPECT_NEAR(world.body(ball).linear_velocity().z(), 200.0f, 1e-3f);
}

TEST(SoftBodyQuery, ASensorHoldsNothingUp) {
  // A cloth falls through a static sensor box and lands on the floor under it.
  LawWorld world;
  world.add_static_box(Vec3(3, 0.5f, 3), Vec3(0, -0.5f, 0));
  world.add_box(Vec3(1.5f, 0.1f, 1.5f), Vec3(0, 2, 0),
                BodyOptions{.motion_type = MotionType::Static, .sensor = true});
  const BodyID sheet = add_soft(world, cloth(3.0f));
  step(world, 120);
  const float y = world.system().soft_body(sheet)->center_of_mass().y();
  EXPECT_LT(y, 0.2f) << "on the floor, not on the sensor";
  EXPECT_GT(y, -0.05f);
}

TEST(SoftBodyQuery, ActivateBodiesInABoxWakesASleepingSoftBody) {
  LawWorld world{PhysicsSettings()};  // the engine's settings: sleeping allowed
  world.add_static_box(Vec3(3, 0.5f, 3), Vec3(0, -0.5f, 0));
  const BodyID sheet = add_soft(world, cloth(0.3f));
  step(world, 240);
  ASSERT_TRUE(world.system().is_soft_body_sleeping(sheet));
  // A box away from it wakes nothing; one over it wakes it.
  EXPECT_EQ(
      world.system().activate_bodies_in_aabox(AABox(Vec3(5, 0, 5), Vec3(6, 1, 6))).value_or_throw(),
      0u);
  EXPECT_TRUE(world.system().is_soft_body_sleeping(sheet));
  EXPECT_EQ(world.system()
                .activate_bodies_in_aabox(AABox(Vec3(-0.1f, -0.1f, -0.1f), Vec3(0.1f, 0.5f, 0.1f)))
                .value_or_throw(),
            1u);
  EXPECT_FALSE(world.system().is_soft_body_sleeping(sheet));
}

TEST(SoftBodyQuery, ARestoredStatePutsTheBoundsBack) {
  LawWorld world;
  const BodyID sheet = add_soft(world, cloth(1.0f));
  step(world, 10);
  const AABox saved_bounds = world.body(sheet).world_bounds();
  StateRecorder state;
  EXPECT_TRUE(world.system().save_state(state).ok());
  step(world, 20);
  ASSERT_TRUE(world.system().restore_state(state).ok());
  EXPECT_EQ(world.body(sheet).world_bounds().min, saved_bounds.min);
  EXPECT_EQ(world.body(sheet).world_bounds().max, saved_bounds.max);
  const WorldQuery query(world.system());
  EXPECT_EQ(query.collide_aabox(saved_bounds).value_or_throw(), std::vector<BodyID>{sheet});
}

}  // namespace soft_body_query_test
}  // namespace atl
