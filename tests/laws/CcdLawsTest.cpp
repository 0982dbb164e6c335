// LAWS.md §E (seed 004, CCD) and B3. Each test asserts the shape of a law; the comment beside
// each assertion gives Jolt's reading from the seed's experiments and Atoll's own measured
// reading (release build, this machine). The readings are also printed ("[law] …").
//
// The seed numbers its experiments differently from LAWS.md: LAWS E1 = seed E0, E2 = E2,
// E3 = E1, E4 = E3/E10, E5 = E4/E5, E6 = E9, B3 = E11.
//
// Every scene flies along +x, without gravity, into a static box whose face is at a known x, so
// that penetration and "crossed" read straight off the centre's x.

#include "laws/LawFixture.h"

namespace atl::laws {
namespace ccd_laws_test {
namespace {

// A static plate 20 mm thick (seed: "薄板厚 20 mm"), faces at x = ±0.01 m.
constexpr float k_plate_half = 0.01f;
// A thick static wall whose face is at x = 0 (for penetration readings).
constexpr Vec3 k_wall_half(0.5f, 2.0f, 2.0f);
const Vec3 k_wall_center(0.5f, 0.0f, 0.0f);

BodyID add_plate(LawWorld& world) {
  return world.add_static_box(Vec3(k_plate_half, 2.0f, 2.0f), Vec3());
}

BodyOptions flying(float speed, MotionQuality quality) {
  BodyOptions o;
  o.linear_velocity = Vec3(speed, 0.0f, 0.0f);
  o.gravity_factor = 0.0f;
  o.motion_quality = quality;
  return o;
}

// --- E1 -------------------------------------------------------------------------------------

struct PlateRun {
  float final_x = 0.0f;      // centre (m) after the run
  float max_x = 0.0f;        // largest centre x (m) during the run
  float final_speed = 0.0f;  // m/s
  int first_hit_step = -1;   // first step (1-based) with a CCD hit, −1 if none
};

// Seed E0: a sphere of radius 100 mm at 60 m/s (1 m per step) towards the 20 mm plate, 30 steps.
// It starts 1.55 m before the plate, so the discrete samples (−0.55, 0.45) straddle it.
PlateRun sphere_at_plate(MotionQuality quality) {
  LawWorld world;
  add_plate(world);
  const BodyID ball = world.add_sphere(0.1f, Vec3(-1.55f, 0.0f, 0.0f), flying(60.0f, quality));
  PlateRun r;
  r.max_x = world.position(ball).x();
  for (int step = 1; step <= 30; ++step) {
    const UpdateResult u = world.step();
    if (u.num_ccd_hits > 0 && r.first_hit_step < 0) r.first_hit_step = step;
    r.max_x = std::max(r.max_x, world.position(ball).x());
  }
  r.final_x = world.position(ball).x();
  r.final_speed = world.velocity(ball).length();
  return r;
}

TEST_F(LawFixture, E1_DiscreteTunnelsLinearCastStops) {
  const PlateRun discrete = sphere_at_plate(MotionQuality::Discrete);
  const PlateRun cast = sphere_at_plate(MotionQuality::LinearCast);
  report("E1.discrete.final_x_mm", discrete.final_x * 1000.0f);
  report("E1.linear_cast.final_x_mm", cast.final_x * 1000.0f);
  report("E1.linear_cast.max_x_mm", cast.max_x * 1000.0f);
  report("E1.linear_cast.hit_step", cast.first_hit_step);
  // Jolt: Discrete ends at 29000 mm, crossed = 1. Atoll: 28450 mm (started 550 mm further back).
  EXPECT_GT(discrete.final_x, 20.0f);
  EXPECT_EQ(discrete.first_hit_step, -1);
  // Jolt: LinearCast ends at −90 mm (in front, 20 mm into the plate), crossed = 0, stopped at
  // step 2. Atoll: −90.0 mm, never past the plate's middle, hit at step 2, at rest after it.
  EXPECT_LT(cast.max_x, 0.0f);
  EXPECT_NEAR(cast.final_x, -0.09f, 1.0e-3f);
  EXPECT_EQ(cast.first_hit_step, 2);
  EXPECT_LT(cast.final_speed, 0.01f);
}

// --- E2 -------------------------------------------------------------------------------------

struct TriggerRun {
  uint32_t cast_first_step = 0;  // num_ccd_bodies of the first step
  float final_x = 0.0f;
};

// Seed E2: a sphere of radius 10 mm at 6 m/s (100 mm per step, 10 inner radii) towards the
// plate, LinearCast, with linear_cast_threshold = `threshold`. It starts where the discrete
// samples (…, −55 mm, +45 mm) skip the plate.
TriggerRun sphere_with_threshold(float threshold) {
  LawWorld world(with(&PhysicsSettings::linear_cast_threshold, threshold));
  add_plate(world);
  const BodyID ball =
      world.add_sphere(0.01f, Vec3(-0.555f, 0.0f, 0.0f), flying(6.0f, MotionQuality::LinearCast));
  TriggerRun r;
  r.cast_first_step = world.step().num_ccd_bodies;
  world.run(20);
  r.final_x = world.position(ball).x();
  return r;
}

TEST_F(LawFixture, E2_CastingStartsSharplyAtTheThresholdRatio) {
  // |Δp| / inner radius = 10: the cast happens iff 10 > threshold.
  for (float threshold : {5.0f, 9.9f, 10.1f, 12.0f}) {
    const TriggerRun r = sphere_with_threshold(threshold);
    const std::string tag = "E2.threshold_" + std::to_string(threshold).substr(0, 4);
    report(tag + ".cast", r.cast_first_step);
    report(tag + ".final_x_mm", r.final_x * 1000.0f);
    const bool below = threshold < 10.0f;
    EXPECT_EQ(r.cast_first_step, below ? 1u : 0u) << tag;
    // Jolt: 9.90 and 10.00 stop (crossed = 0), 10.10 and 12.00 cross (end at 3399.9990 mm).
    // Atoll: 5 and 9.9 stop at −17.5 mm (2.5 mm into the plate); 10.1 and 12 end at 1545 mm.
    if (below) {
      EXPECT_LT(r.final_x, 0.0f) << tag;
    } else {
      EXPECT_GT(r.final_x, 1.0f) << tag;
    }
  }
}

// --- E3 -------------------------------------------------------------------------------------

TEST_F(LawFixture, E3_TimeStealingMovesLessAndKeepsTheVelocity) {
  // Seed E1: inner radius 100 mm, 6 m/s (100 mm per step), restitution 0.9, into a wall. The
  // hit step starts 70 mm from the wall: the cast hits at fraction 0.7 and adds
  // min(slop 20 mm, 0.25 × 100 mm) / 100 mm = 0.2.
  LawWorld world;
  world.add_static_box(k_wall_half, k_wall_center);
  BodyOptions o = flying(6.0f, MotionQuality::LinearCast);
  o.restitution = 0.9f;
  const BodyID ball = world.add_sphere(0.1f, Vec3(-0.57f, 0.0f, 0.0f), o);
  world.run(4);
  const float before = world.position(ball).x();
  const UpdateResult hit_step = world.step();
  const float after_hit = world.position(ball).x();
  const Vec3 hit_velocity = world.velocity(ball);
  world.step();
  const float after_bounce = world.position(ball).x();
  const Vec3 bounce_velocity = world.velocity(ball);
  report("E3.hit_step_move_mm", (after_hit - before) * 1000.0f);
  report("E3.hit_step_velocity_mps", hit_velocity.x());
  report("E3.next_step_move_mm", (after_bounce - after_hit) * 1000.0f);
  report("E3.next_step_velocity_mps", bounce_velocity.x());
  EXPECT_EQ(hit_step.num_ccd_hits, 1u);
  // Jolt: the hit step moves 90 mm instead of 100 (10 mm stolen). Atoll: 90.0 mm.
  EXPECT_NEAR(after_hit - before, 0.09f, 2.0e-4f);
  // Jolt: "CCD 不改速度，只改位置" — the velocity is untouched on the hit step. Atoll: 6 m/s,
  // exactly the velocity before.
  EXPECT_EQ(hit_velocity, Vec3(6.0f, 0.0f, 0.0f));
  // Jolt: the next step bounces back 90 mm at −5.4 m/s. Atoll: −90.0 mm at −5.40 m/s.
  EXPECT_NEAR(bounce_velocity.x(), -5.4f, 0.05f);
  EXPECT_NEAR(after_bounce - after_hit, -0.09f, 1.0e-3f);
}

// --- E4 -------------------------------------------------------------------------------------

// A sphere of `radius` at 30 m/s (0.5 m per step) into the wall, starting so that the second
// step hits at fraction 0.5; the penetration (m) right after that step.
float residual_penetration(float radius, const PhysicsSettings& settings = law_settings()) {
  LawWorld world(settings);
  world.add_static_box(k_wall_half, k_wall_center);
  const BodyID ball = world.add_sphere(radius, Vec3(-(radius + 0.75f), 0.0f, 0.0f),
                                       flying(30.0f, MotionQuality::LinearCast));
  world.step();
  const UpdateResult hit = world.step();
  EXPECT_EQ(hit.num_ccd_hits, 1u) << "radius " << radius;
  return world.position(ball).x() + radius;
}

TEST_F(LawFixture, E4_ResidualPenetrationIsTheSmallerOfSlopAndMaxPenetrationTimesRadius) {
  // Seed E10 (maxPen 0.25): Jolt 10.0000, 15.0000, 20.0000, 20.0000, 20.0001, 20.0003 mm for
  // inner radius 40, 60, 80, 100, 150, 200 mm (the fold at 0.02 / 0.25 = 80 mm).
  // Atoll: 10.0, 15.0, 20.0, 20.0, 20.0, 20.0 mm (to 0.1 mm, the cast's tolerance).
  for (float radius : {0.04f, 0.06f, 0.08f, 0.1f, 0.15f, 0.2f}) {
    const float penetration = residual_penetration(radius);
    report("E4.radius_" + std::to_string(int(radius * 1000.0f)) + "mm.penetration_mm",
           penetration * 1000.0f);
    EXPECT_NEAR(penetration, std::min(0.02f, 0.25f * radius), 2.0e-4f) << "radius " << radius;
  }
  // Seed E3 (sphere of 100 mm, maxPen 0, 0.125, 0.25, 0.5, 1): Jolt 0.0000, 12.5000, 20.0000,
  // 20.0000, 20.0000 mm. Atoll: the same to 0.1 mm.
  for (float max_penetration : {0.0f, 0.125f, 0.25f, 0.5f, 1.0f}) {
    const float penetration = residual_penetration(
        0.1f, with(&PhysicsSettings::linear_cast_max_penetration, max_penetration));
    report("E4.max_penetration_" + std::to_string(max_penetration).substr(0, 5) + ".penetration_mm",
           penetration * 1000.0f);
    EXPECT_NEAR(penetration, std::min(0.02f, max_penetration * 0.1f), 2.0e-4f)
        << "max_penetration " << max_penetration;
  }
}

// --- E5 -------------------------------------------------------------------------------------

// A rod 2 m long and 20 mm thick (inner radius 10 mm) lying along z, spinning about y at
// 40 rad/s (0.67 rad per step), moving at `speed` along −x; a plate 0.5 m away along +x.
// The rod's pose after one step and the number of bodies cast in it.
struct RodStep {
  Vec3 position;
  Quat rotation;
  float max_x = 0.0f;  // rod's largest x (m)
  uint32_t cast = 0;
};

RodStep spinning_rod(MotionQuality quality, float speed) {
  LawWorld world;
  world.add_static_box(Vec3(k_plate_half, 2.0f, 2.0f), Vec3(0.5f, 0.0f, 0.0f));
  BodyOptions o = flying(-speed, quality);
  o.angular_velocity = Vec3(0.0f, 40.0f, 0.0f);
  const BodyID rod = world.add_box(Vec3(k_plate_half, k_plate_half, 1.0f), Vec3(), o, 0.0f);
  RodStep r;
  r.cast = world.step().num_ccd_bodies;
  r.position = world.position(rod);
  r.rotation = world.body(rod).rotation();
  r.max_x = world.bounds(rod).max.x();
  return r;
}

TEST_F(LawFixture, E5_RotationIsNotSweptAThinSpinningRodStillTunnels) {
  // Moving at 1 m/s (16.7 mm per step > 0.75 × 10 mm) the rod is cast, along its starting
  // orientation, which meets nothing; the turn then swings its end through the whole plate.
  const RodStep cast = spinning_rod(MotionQuality::LinearCast, 1.0f);
  const RodStep discrete = spinning_rod(MotionQuality::Discrete, 1.0f);
  report("E5.rod.max_x_mm", cast.max_x * 1000.0f);
  EXPECT_EQ(cast.cast, 1u);
  // Atoll: the rod's end is at x = 610 mm after one step, 100 mm beyond the plate's far face
  // (510 mm), exactly where the discrete rod is.
  EXPECT_GT(cast.max_x, 0.5f + k_plate_half);
  EXPECT_EQ(cast.position, discrete.position);
  EXPECT_EQ(cast.rotation, discrete.rotation);
  // Jolt (seed E4, spin only): the two qualities are bit-identical, since the trigger looks at
  // the displacement only. Atoll: not cast, identical.
  const RodStep spin_cast = spinning_rod(MotionQuality::LinearCast, 0.0f);
  const RodStep spin_discrete = spinning_rod(MotionQuality::Discrete, 0.0f);
  EXPECT_EQ(spin_cast.cast, 0u);
  EXPECT_EQ(spin_cast.position, spin_discrete.position);
  EXPECT_EQ(spin_cast.rotation, spin_discrete.rotation);
}

TEST_F(LawFixture, E5_KinematicBodiesAndSensorsAreNeverCast) {
  LawWorld world;
  add_plate(world);
  // LinearCast asked for, but kinematic (cannot be stopped) or a sensor (does not collide).
  BodyOptions kinematic = flying(60.0f, MotionQuality::LinearCast);
  kinematic.motion_type = MotionType::Kinematic;
  BodyOptions sensor = flying(60.0f, MotionQuality::LinearCast);
  sensor.sensor = true;
  const BodyID k = world.add_sphere(0.1f, Vec3(-1.55f, 0.0f, 0.0f), kinematic);
  const BodyID s = world.add_sphere(0.1f, Vec3(-1.55f, 1.0f, 0.0f), sensor);
  uint32_t cast = 0;
  for (int i = 0; i < 10; ++i) cast += world.step().num_ccd_bodies;
  report("E5.kinematic_and_sensor.cast", cast);
  EXPECT_EQ(cast, 0u);
  // Both fly through the plate at full speed: 10 steps of 1 m.
  EXPECT_NEAR(world.position(k).x(), 8.45f, 1.0e-4f);
  EXPECT_NEAR(world.position(s).x(), 8.45f, 1.0e-4f);
}

TEST_F(LawFixture, E5_SensorsDoNotStopLinearCastBodies) {
  LawWorld world;
  BoxShapeSettings plate_shape;
  plate_shape.half_extent = Vec3(k_plate_half, 2.0f, 2.0f);
  plate_shape.convex_radius = 0.0f;
  BodyCreationSettings plate(plate_shape.create().value_or_throw(), Vec3(), Quat(),
                             MotionType::Static);
  plate.is_sensor = true;
  world.bodies().create_and_add_body(plate, Activation::DontActivate).value_or_throw();
  const BodyID ball =
      world.add_sphere(0.1f, Vec3(-1.55f, 0.0f, 0.0f), flying(60.0f, MotionQuality::LinearCast));
  // Cast every step, but the sensor is no obstacle: 5 steps of 1 m.
  uint32_t cast = 0, hits = 0;
  for (int i = 0; i < 5; ++i) {
    const UpdateResult u = world.step();
    cast += u.num_ccd_bodies;
    hits += u.num_ccd_hits;
  }
  EXPECT_EQ(cast, 5u);
  EXPECT_EQ(hits, 0u);
  EXPECT_NEAR(world.position(ball).x(), 3.45f, 1.0e-4f);
}

// Seed E5: a sphere of radius 10 mm at 40 m/s (667 mm per step) starting 2.1 m before the plate:
// the discrete samples are −100 mm (step 3) and +567 mm (step 4). Its motion quality becomes
// LinearCast before step `switch_step` (0 = never); the pose and velocity after 10 steps.
std::pair<Vec3, Vec3> switch_quality(int switch_step) {
  LawWorld world;
  add_plate(world);
  const BodyID ball =
      world.add_sphere(0.01f, Vec3(-2.1f, 0.0f, 0.0f), flying(40.0f, MotionQuality::Discrete));
  for (int step = 1; step <= 10; ++step) {
    if (step == switch_step) {
      EXPECT_TRUE(world.bodies().set_motion_quality(ball, MotionQuality::LinearCast).ok());
    }
    world.step();
  }
  return {world.position(ball), world.velocity(ball)};
}

TEST_F(LawFixture, E5_ChangingMotionQualityTakesEffectAtOnceAndNeverRewritesThePast) {
  const auto [never, never_v] = switch_quality(0);
  const auto [before, before_v] = switch_quality(4);  // just before the crossing step
  const auto [after, after_v] = switch_quality(6);    // after it
  report("E5.switch.never.final_x_mm", never.x() * 1000.0f);
  report("E5.switch.before_crossing.final_x_mm", before.x() * 1000.0f);
  report("E5.switch.after_crossing.final_x_mm", after.x() * 1000.0f);
  // Jolt: all Discrete ends at 37999.9961 mm (crossed). Atoll: 4567 mm after 10 steps.
  EXPECT_GT(never.x(), 1.0f);
  // Jolt: switched at step 2, still before the plate, it stops at −17.5000 mm. Atoll: switched
  // on the very step that would cross, it stops at −17.5 mm (2.5 mm into the plate).
  EXPECT_NEAR(before.x(), -0.0175f, 2.0e-4f);
  // Jolt: switched at step 6, after crossing, the end state equals all-Discrete bit for bit.
  // Atoll: the same.
  EXPECT_EQ(after, never);
  EXPECT_EQ(after_v, never_v);
}

// --- E6 -------------------------------------------------------------------------------------

// The built-in scene "bullets" (seed E9): 100 spheres of radius 10 mm at 40 m/s into the plate,
// 120 steps. Counts of spheres held at the plate and past it.
std::pair<int, int> bullets(MotionQuality quality) {
  std::unique_ptr<LawWorld> world = LawWorld::from_builtin("bullets", Conditions::Law);
  if (!world) return {-1, -1};
  std::vector<BodyID> spheres;
  for (const std::string& name : world->scene()->body_names()) {
    if (name == "plate") continue;
    spheres.push_back(world->scene_body(name));
    EXPECT_TRUE(world->bodies().set_motion_quality(spheres.back(), quality).ok());
  }
  world->run(world->scene()->scene().steps);
  int held = 0, past = 0;
  for (BodyID id : spheres) {
    const float x = world->position(id).x();
    held += x < 0.0f && x > -0.05f ? 1 : 0;
    past += x > k_plate_half ? 1 : 0;
  }
  return {held, past};
}

TEST_F(LawFixture, E6_LinearCastHoldsAHundredBulletsDiscreteLosesThemAll) {
  const auto [cast_held, cast_past] = bullets(MotionQuality::LinearCast);
  const auto [discrete_held, discrete_past] = bullets(MotionQuality::Discrete);
  report("E6.linear_cast.held", cast_held);
  report("E6.linear_cast.past", cast_past);
  report("E6.discrete.held", discrete_held);
  report("E6.discrete.past", discrete_past);
  // Jolt: LinearCast held_at_wall = 100, past_wall = 0; Discrete 0 and 100. Atoll: the same.
  // (The cost per step is measured by bench/CcdBench.cpp, not here.)
  EXPECT_EQ(cast_held, 100);
  EXPECT_EQ(cast_past, 0);
  EXPECT_EQ(discrete_held, 0);
  EXPECT_EQ(discrete_past, 100);
}

// --- B3 -------------------------------------------------------------------------------------

TEST_F(LawFixture, B3_AHitAtTheEndOfTheDisplacementIsKept) {
  // A sphere of radius 250 mm at 60 m/s (1 m per step) that touches the wall exactly at the end
  // of its second step: the cast hits at fraction 1. Jolt compares fraction + slop with its
  // initial 1 and drops the hit (seed E11: flush, 0.0001 mm, as if no hit). Atoll keeps it
  // (it counts, orders CCD-vs-CCD pairs and reaches the listener's validation) and clamps the
  // move to the displacement, so the body ends flush all the same.
  LawWorld world;
  world.add_static_box(k_wall_half, k_wall_center);
  const BodyID ball =
      world.add_sphere(0.25f, Vec3(-2.25f, 0.0f, 0.0f), flying(60.0f, MotionQuality::LinearCast));
  const UpdateResult first = world.step();
  const UpdateResult second = world.step();
  const float gap = -(world.position(ball).x() + 0.25f);
  report("B3.hits", second.num_ccd_hits);
  report("B3.gap_mm", gap * 1000.0f);
  EXPECT_EQ(first.num_ccd_hits, 0u);
  EXPECT_EQ(second.num_ccd_bodies, 1u);
  EXPECT_EQ(second.num_ccd_hits, 1u);
  // Jolt: flush (0.0001 mm), the hit dropped. Atoll: flush (0.00006 mm in), the hit kept.
  EXPECT_NEAR(gap, 0.0f, 1.0e-4f);
  EXPECT_EQ(world.velocity(ball), Vec3(60.0f, 0.0f, 0.0f));
}

}  // namespace
}  // namespace ccd_laws_test
}  // namespace atl::laws
