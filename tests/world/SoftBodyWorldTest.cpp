// Soft bodies in the world (issue 11 item 3): a soft body is a body — an ID, added, removed and
// destroyed like one, its Body at the vertices' centre of mass — that BodyInterface's rigid
// calls refuse; its vertices collide with the world's rigid bodies and push the dynamic ones
// back (momentum is conserved between a cloth and the floating box it lands on); a rope tied to
// a crate carries it; saved states, rollback snapshots and the determinism contract include
// the vertices (the same bits for any thread count).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "atoll/collision/narrowphase/CollideShapes.h"
#include "atoll/constraint/DistanceConstraint.h"
#include "atoll/constraint/PointConstraint.h"
#include "atoll/core/ThreadPool.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/softbody/SoftBodyGenerators.h"
#include "atoll/state/StateRecorder.h"
#include "atoll/state/WorldSnapshot.h"
#include "laws/LawFixture.h"

namespace atl {
namespace soft_body_world_test {

using laws::BodyOptions;
using laws::LawWorld;

constexpr float k_dt = 1.0f / 60.0f;

BodyID add_soft(LawWorld& world, Ref<SoftBodySettings> settings,
                std::vector<SoftBodyTie> ties = {}) {
  SoftBodyCreationSettings s;
  s.settings = std::move(settings);
  s.ties = std::move(ties);
  const Result<BodyID> id = world.bodies().create_soft_body(s);
  EXPECT_TRUE(id.ok()) << id.error().message();
  EXPECT_TRUE(world.bodies().add_body(id.value(), Activation::Activate).ok());
  return id.value();
}

void step(LawWorld& world, int steps, JobSystem* jobs = nullptr) {
  for (int i = 0; i < steps; ++i) {
    const Result<UpdateResult> r = world.system().update(k_dt, 1, jobs);
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE(r.value().ok()) << r.value().to_string();
  }
}

Ref<SoftBodySettings> cloth(const Vec3& center, float size = 1.2f, uint32_t n = 13,
                            float mass = 0.5f) {
  return make_cloth(center, size, size, n, n, mass, 1.0e-5f, 1.0e-3f).value_or_throw();
}

TEST(SoftBodyWorld, ASoftBodyIsABodyOfTheWorld) {
  LawWorld world;
  Ref<SoftBodySettings> undamped = cloth(Vec3(0, 2, 0));
  undamped->linear_damping = 0.0f;
  const BodyID id = add_soft(world, undamped);
  ASSERT_NE(world.system().soft_body(id), nullptr);
  const Body& body = world.body(id);
  EXPECT_TRUE(body.is_soft_body());
  EXPECT_TRUE(body.is_added());
  EXPECT_FALSE(body.is_active()) << "soft bodies are not in the rigid active list";
  EXPECT_NEAR(body.inverse_mass(), 1.0f / 0.5f, 1.0e-4f);
  step(world, 30);
  // Its Body follows the vertices: centre of mass and mean velocity (falling freely).
  const SoftBody& soft = *world.system().soft_body(id);
  EXPECT_EQ(body.center_of_mass_position(), soft.center_of_mass());
  EXPECT_NEAR(body.linear_velocity().y(), -9.81f * 0.5f, 0.01f);
  // In the broadphase (queries find it) with its vertices' bounds.
  ASSERT_TRUE(world.system().broadphase().contains(id.index()));
  EXPECT_TRUE(world.system().broadphase().fat_box(id.index()).contains(body.world_bounds()));
  EXPECT_TRUE(body.world_bounds().contains(soft.bounds()));
  // Rigid calls are refused with a reason.
  const Status moved = world.bodies().set_linear_velocity(id, Vec3(1, 0, 0));
  ASSERT_FALSE(moved.ok());
  EXPECT_NE(std::string(moved.error().message()).find("is a soft body"), std::string::npos)
      << moved.error().message();
  // Removed, it stops; destroyed, it is gone.
  ASSERT_TRUE(world.bodies().remove_body(id).ok());
  EXPECT_FALSE(world.system().broadphase().contains(id.index()));
  const Vec3 at = soft.center_of_mass();
  step(world, 5);
  EXPECT_EQ(world.system().soft_body(id)->center_of_mass(), at);
  ASSERT_TRUE(world.bodies().destroy_body(id).ok());
  EXPECT_EQ(world.system().soft_body(id), nullptr);
  // A soft body created in its slot before the next step is the one found and simulated.
  const BodyID again = add_soft(world, undamped);
  ASSERT_EQ(again.index(), id.index());
  ASSERT_NE(world.system().soft_body(again), nullptr);
  const float start = world.system().soft_body(again)->center_of_mass().y();
  step(world, 1);
  EXPECT_EQ(world.system().soft_body(id), nullptr);
  ASSERT_NE(world.system().soft_body(again), nullptr);
  EXPECT_LT(world.system().soft_body(again)->center_of_mass().y(), start);
}

TEST(SoftBodyWorld, ClothDrapesOverAStaticSphereBody) {
  LawWorld world;
  world.add_sphere(0.5f, Vec3::zero(),
                   BodyOptions{.friction = 0.5f, .motion_type = MotionType::Static});
  const BodyID id = add_soft(world, cloth(Vec3(0, 0.8f, 0), 1.6f, 17));
  step(world, 180);
  const SoftBody& soft = *world.system().soft_body(id);
  float clearance = k_float_max;
  for (const Vec3& p : soft.positions())
    clearance = std::min(clearance, p.length() - 0.5f - soft.settings().vertex_radius);
  EXPECT_GE(clearance, -0.01f);
  EXPECT_GT(soft.center_of_mass().y(), 0.0f);
}

TEST(SoftBodyWorld, ClothLandingOnAFloatingBoxConservesMomentum) {
  // The box feels no gravity, only the cloth: the momentum of box and cloth together is what
  // gravity gave the cloth, −m g t, while the cloth lands, pushes and rides the box (less the
  // last step's push, which the box takes at the next step's start: ~1 % here).
  LawWorld world;
  BodyOptions floating;
  floating.mass = 2.0f;
  floating.gravity_factor = 0.0f;
  const BodyID box = world.add_box(Vec3(1, 0.2f, 1), Vec3::zero(), floating);
  const float cloth_mass = 0.5f;
  const BodyID id = add_soft(world, cloth(Vec3(0, 0.5f, 0), 1.2f, 13, cloth_mass));
  const int steps = 90;
  step(world, steps);
  const SoftBody& soft = *world.system().soft_body(id);
  Vec3 momentum = world.body(box).linear_velocity() * 2.0f;
  for (uint32_t i = 0; i < soft.vertex_count(); ++i)
    momentum += soft.velocities()[i] / soft.settings().vertices[i].inverse_mass;
  const float expected = -cloth_mass * 9.81f * k_dt * float(steps);
  EXPECT_LT(world.body(box).linear_velocity().y(), -0.5f) << "the cloth pushed the box down";
  EXPECT_NEAR(momentum.y(), expected, 0.03f * std::fabs(expected));
  EXPECT_NEAR(momentum.x(), 0.0f, 0.01f);
}

TEST(SoftBodyWorld, ClothDrapedOnAHangingBoxStaysOutAndWeighsOnIt) {
  // A 2 kg box (0.8 m cube) hangs from a rod (a hard distance constraint from the middle of its
  // top to a point above it); a 0.5 kg cloth of 1.2 m falls on it and drapes over it, touching
  // nothing else. Settled, the rod carries box and
  // cloth — the cloth's whole weight reaches the box through its vertices — and no vertex's
  // sphere is inside the box by more than slop.
  LawWorld world;
  BodyOptions options;
  options.mass = 2.0f;
  options.linear_damping = 0.5f;
  options.angular_damping = 2.0f;
  const BodyID box = world.add_box(Vec3(0.4f, 0.4f, 0.4f), Vec3(0, 1, 0), options);
  DistanceConstraintSettings rod;
  rod.point1 = Vec3(0, 2, 0);
  rod.point2 = Vec3(0, 1.4f, 0);
  const Ref<Constraint> constraint =
      rod.create(world.bodies(), Constraint::k_world, box).value_or_throw();
  ASSERT_TRUE(world.system().add_constraint(constraint).ok());
  const auto& rod_constraint = static_cast<const DistanceConstraint&>(*constraint);
  // A limp cloth (bend compliance 1): a stiff sheet (1e-3) dropped on a box smaller than itself
  // springs back from its fold over the edges like a diving board and slides off.
  const BodyID id = add_soft(
      world,
      make_cloth(Vec3(0, 1.6f, 0), 1.2f, 1.2f, 13, 13, 0.5f, 1.0e-5f, 1.0f).value_or_throw());
  double carried = 0.0;
  const int settle = 240, measure = 60;
  for (int i = 0; i < settle + measure; ++i) {
    step(world, 1);
    if (i >= settle) carried += std::fabs(rod_constraint.total_lambda_position()) / k_dt;
  }
  EXPECT_NEAR(carried / measure, 2.5 * 9.81, 0.02 * 2.5 * 9.81) << "N: box and cloth";
  // Each vertex's distance to the box's surface (a small probe sphere at the vertex, collided
  // with the box's shape), less the vertex radius.
  const SoftBody& soft = *world.system().soft_body(id);
  const Body& body = world.body(box);
  const SphereShape probe(1.0e-3f);
  CollideShapeSettings settings;
  settings.max_separation_distance = 0.2f;
  float deepest = k_float_max;
  uint32_t touching = 0;
  for (const Vec3& p : soft.positions()) {
    ClosestContactCollector closest;
    ASSERT_TRUE(collide_shapes(probe, Mat44::translation(p), *body.shape(), body.world_transform(),
                               settings, closest)
                    .ok());
    if (!closest.has_hit) continue;
    const float clearance =
        1.0e-3f - closest.closest.penetration_depth - soft.settings().vertex_radius;
    deepest = std::min(deepest, clearance);
    touching += clearance < 0.01f ? 1 : 0;
  }
  EXPECT_GE(deepest, -0.01f);
  EXPECT_GT(touching, 20u) << "the cloth lies on the box";
}

TEST(SoftBodyWorld, ACrateOnAClothOnTheFloorRestsOnTheClothAndSleeps) {
  // A cloth's vertices between a crate and the floor are kept out of both (a vertex keeps its
  // deepest contact and its deepest with a second collider). With the deepest alone they were
  // squeezed out from under the crate, which sank onto the floor, was nudged about and never
  // slept.
  LawWorld world{PhysicsSettings()};  // the engine's settings: sleeping allowed
  world.add_static_box(Vec3(5, 0.5f, 5), Vec3(0, -0.5f, 0));
  const BodyID sheet = add_soft(
      world,
      make_cloth(Vec3(0, 0.1f, 0), 2.0f, 2.0f, 21, 21, 0.5f, 1.0e-5f, 1.0f).value_or_throw());
  const BodyID crate =
      world.add_box(Vec3(0.3f, 0.3f, 0.3f), Vec3(0, 0.6f, 0), BodyOptions{.mass = 2.0f});
  step(world, 600);
  const float radius = world.system().soft_body(sheet)->settings().vertex_radius;
  const float bottom = world.body(crate).center_of_mass_position().y() - 0.3f;
  EXPECT_GT(bottom, radius) << "the cloth is between the crate and the floor";
  EXPECT_LT(bottom, 2.5f * radius);
  EXPECT_FALSE(world.body(crate).is_active()) << "at rest, the crate sleeps";
  EXPECT_TRUE(world.system().is_soft_body_sleeping(sheet));
}

TEST(SoftBodyWorld, ARopeTiedToACrateCarriesIt) {
  LawWorld world;
  Ref<SoftBodySettings> rope =
      make_rope(Vec3(0, 3, 0), Vec3(0, 1, 0), 10, 0.5f, 1.0e-5f, 0.0f, 0.02f).value_or_throw();
  rope->vertices[0].inverse_mass = 0.0f;
  rope->linear_damping = 1.0f;
  BodyOptions crate_options;
  crate_options.mass = 5.0f;
  crate_options.linear_damping = 0.5f;
  crate_options.angular_damping = 0.5f;
  const BodyID crate = world.add_box(Vec3(0.2f, 0.2f, 0.2f), Vec3(0, 0.8f, 0), crate_options);
  ASSERT_TRUE(
      world.system().set_settings(laws::with(&PhysicsSettings::soft_body_iterations, 10)).ok());
  add_soft(world, rope, {{10, crate}});
  step(world, 300);
  EXPECT_NEAR(world.body(crate).center_of_mass_position().y(), 0.8f, 0.1f);
  // Between steps the crate reads still: the rope's pull of a step is given to it with that
  // step's gravity (SoftBodyManager::apply_impulses).
  EXPECT_LT(world.body(crate).linear_velocity().length(), 0.01f);
}

TEST(SoftBodyWorld, ALightPlankRestingOnAndTiedToTwoRopesSettles) {
  // A short rope bridge: two ropes 4 m long of 16 segments (0.05 kg per vertex) pinned at both
  // ends, and a 1.5 kg plank in the middle lying on both and tied to each at its middle. The
  // soft-body step moved the plank without its gravity; the plank then sank by g·dt² every
  // step and the correction that pushed it back turned into velocity: it kept moving (0.28 m/s
  // at most over the last 5 s; 0.0007 m/s with its gravity in the step).
  LawWorld world;
  ASSERT_TRUE(
      world.system().set_settings(laws::with(&PhysicsSettings::soft_body_substeps, 8)).ok());
  BodyOptions plank_options;
  plank_options.mass = 1.5f;
  plank_options.linear_damping = 0.5f;
  plank_options.angular_damping = 0.5f;
  const BodyID plank = world.add_box(Vec3(0.3f, 0.03f, 0.7f), Vec3(0, 3.05f, 0), plank_options);
  for (const float z : {-0.5f, 0.5f}) {
    Ref<SoftBodySettings> rope =
        make_rope(Vec3(-2, 3, z), Vec3(2, 3, z), 16, 0.85f, 1.0e-6f, 0.0f, 0.02f).value_or_throw();
    rope->vertices.front().inverse_mass = 0.0f;
    rope->vertices.back().inverse_mass = 0.0f;
    rope->linear_damping = 0.5f;
    add_soft(world, rope, {{8, plank}});
  }
  float fastest_late = 0.0f;
  for (int i = 0; i < 600; ++i) {
    step(world, 1);
    if (i >= 300)
      fastest_late = std::max(fastest_late, world.body(plank).linear_velocity().length());
  }
  EXPECT_LT(fastest_late, 0.05f) << "the plank settles within 5 s";
  EXPECT_GT(world.body(plank).center_of_mass_position().y(), 2.5f) << "held up by the ropes";
}

TEST(SoftBodyWorld, AConstraintOnASoftBodyIsRefusedAndChangesNothing) {
  // Found by the api_calls fuzzer: a point constraint between a soft body and a sleeping box
  // was added; every step then woke the box's partner forever (a soft body never joins the
  // active list), and update() did not return.
  LawWorld world;
  const BodyID box = world.add_box(Vec3(0.2f, 0.2f, 0.2f), Vec3(3, 1, 0));
  const BodyID soft = add_soft(world, cloth(Vec3(0, 2, 0)));
  PointConstraintSettings s;
  s.point1 = s.point2 = Vec3(1, 2, 0);
  for (const auto& [body1, body2] : {std::pair(box, soft), std::pair(soft, box)}) {
    Result<Ref<Constraint>> made = s.create(world.bodies(), body1, body2);
    if (!made) continue;  // refused at creation: as good
    const Status added = world.system().add_constraint(made.value());
    ASSERT_FALSE(added.ok());
    EXPECT_NE(std::string(added.error().message()).find("is a soft body"), std::string::npos)
        << added.error().message();
  }
  EXPECT_TRUE(world.system().constraints().empty());
  ASSERT_TRUE(world.bodies().deactivate(box).ok());
  step(world, 3);
}

TEST(SoftBodyWorld, ASoftBodySleepsAtRestAndAFallingBodyWakesIt) {
  LawWorld world{PhysicsSettings()};  // the engine's settings: sleeping allowed
  world.add_static_box(Vec3(3, 0.5f, 3), Vec3(0, -0.5f, 0));
  const BodyID id = add_soft(world, cloth(Vec3(0, 0.3f, 0)));
  step(world, 240);
  ASSERT_TRUE(world.system().is_soft_body_sleeping(id)) << "at rest on the floor for 4 s";
  const Vec3 at = world.system().soft_body(id)->center_of_mass();
  step(world, 30);
  EXPECT_EQ(world.system().soft_body(id)->center_of_mass(), at) << "asleep, it is not stepped";
  // A ball dropped on it wakes it, and it is pushed down where the ball lands.
  const BodyID ball = world.add_sphere(0.15f, Vec3(0, 1.0f, 0), BodyOptions{.mass = 2.0f});
  bool woke = false;
  for (int i = 0; i < 60 && !woke; ++i) {
    step(world, 1);
    woke = !world.system().is_soft_body_sleeping(id);
  }
  EXPECT_TRUE(woke);
  step(world, 60);
  EXPECT_GT(world.body(ball).center_of_mass_position().y(), 0.1f) << "the cloth holds the ball";
}

TEST(SoftBodyWorld, CreationErrorsNameTheFieldAndCreateNothing) {
  LawWorld world;
  const BodyID crate = world.add_box(Vec3(0.2f, 0.2f, 0.2f), Vec3(0, 0.8f, 0));
  const BodyID other_soft = add_soft(world, cloth(Vec3(5, 2, 0)));
  const uint32_t bodies = world.system().bodies().num_bodies();
  Ref<SoftBodySettings> bad = cloth(Vec3(0, 2, 0));
  bad->edges[2].compliance = -1.0f;
  const struct {
    SoftBodyCreationSettings settings;
    const char* message;
  } cases[] = {
      {{nullptr, layers::k_moving, 0, {}}, "BodyInterface::create_soft_body: settings: is null"},
      {{bad, layers::k_moving, 0, {}},
       "BodyInterface::create_soft_body: settings.edges[2].compliance: must be >= 0, got -1"},
      {{cloth(Vec3(0, 2, 0)), layers::k_moving, 0, {{500, crate}}},
       "BodyInterface::create_soft_body: ties[0].vertex: 500 out of range (169 vertices)"},
      {{cloth(Vec3(0, 2, 0)), layers::k_moving, 0, {{3, other_soft}}},
       "BodyInterface::create_soft_body: ties[0].body: body"},
      {{cloth(Vec3(0, 2, 0)), layers::k_moving, 0, {{3, crate}, {3, crate}}},
       "BodyInterface::create_soft_body: ties[1].vertex: vertex 3 is tied twice"},
      {{cloth(Vec3(0, 2, 0)), layers::k_moving, 0, {{3, BodyID(77)}}},
       "BodyInterface::create_soft_body: ties[0].body: id: no body was ever created"},
  };
  for (const auto& c : cases) {
    const Result<BodyID> id = world.bodies().create_soft_body(c.settings);
    ASSERT_FALSE(id.ok()) << c.message;
    EXPECT_EQ(std::string(id.error().message()).rfind(c.message, 0), 0u) << id.error().message();
  }
  EXPECT_EQ(world.system().bodies().num_bodies(), bodies);
}

// A world of a floor, a box and three soft bodies (a cloth on the box, a rope tied to it, a
// pressure ball), with its soft bodies' vertices as the result.
struct SoftScene {
  LawWorld world;
  std::vector<BodyID> soft;
  SoftScene() {
    world.add_floor(0.5f);
    const BodyID box = world.add_box(Vec3(0.4f, 0.4f, 0.4f), Vec3(0, 0.4f, 0));
    soft.push_back(add_soft(world, cloth(Vec3(0, 1.2f, 0))));
    Ref<SoftBodySettings> rope =
        make_rope(Vec3(2, 2, 0), Vec3(0.3f, 0.8f, 0), 8, 0.3f, 1.0e-4f, 1.0e-3f, 0.02f)
            .value_or_throw();
    rope->vertices[0].inverse_mass = 0.0f;
    soft.push_back(add_soft(world, rope, {{8, box}}));
    soft.push_back(add_soft(
        world, make_pressure_ball(Vec3(-2, 1, 0), 0.4f, 2, 1.0f, 1.0f, 1.0e-4f).value_or_throw()));
  }
  std::vector<Vec3> vertices() {
    std::vector<Vec3> all;
    for (const BodyID id : soft)
      for (const Vec3& p : world.system().soft_body(id)->positions()) all.push_back(p);
    return all;
  }
};

TEST(SoftBodyWorld, ABodyInterfaceOfNoWorldCreatesNoSoftBody) {
  BodyManager manager;
  BodyInterface bodies(manager);
  SoftBodyCreationSettings s;
  s.settings = cloth(Vec3(0, 2, 0));
  const Result<BodyID> id = bodies.create_and_add_soft_body(s, Activation::Activate);
  ASSERT_FALSE(id.ok());
  EXPECT_NE(std::string(id.error().message()).find("BodyInterface::create_soft_body: this "),
            std::string::npos)
      << id.error().message();
  EXPECT_EQ(manager.num_bodies(), 0u);
}

TEST(SoftBodyWorld, TheSameBitsForAnyThreadCount) {
  SoftScene inline_run;
  step(inline_run.world, 120);
  for (uint32_t workers : {2u, 4u}) {
    Result<std::unique_ptr<ThreadPool>> pool = ThreadPool::create(workers);
    ASSERT_TRUE(pool.ok());
    SoftScene threaded;
    step(threaded.world, 120, pool->get());
    EXPECT_EQ(threaded.vertices(), inline_run.vertices()) << workers << " workers";
  }
}

TEST(SoftBodyWorld, SavedStatesAndSnapshotsHoldTheVertices) {
  SoftScene straight;
  step(straight.world, 100);
  const std::vector<Vec3> expected = straight.vertices();

  SoftScene world;
  step(world.world, 40);
  StateRecorder saved;
  EXPECT_TRUE(world.world.system().save_state(saved).ok());
  WorldSnapshot snapshot;
  EXPECT_TRUE(world.world.system().save_snapshot(snapshot).ok());
  step(world.world, 30);
  ASSERT_TRUE(world.world.system().restore_state(saved).ok());
  step(world.world, 60);
  EXPECT_EQ(world.vertices(), expected) << "restored state";

  // A snapshot also undoes a soft body destroyed since.
  ASSERT_TRUE(world.world.bodies().destroy_body(world.soft[1]).ok());
  step(world.world, 10);
  ASSERT_TRUE(world.world.system().restore_snapshot(snapshot).ok());
  ASSERT_NE(world.world.system().soft_body(world.soft[1]), nullptr);
  step(world.world, 60);
  EXPECT_EQ(world.vertices(), expected) << "restored snapshot";

  // Validating finds a moved vertex.
  StateRecorder now;
  EXPECT_TRUE(world.world.system().save_state(now).ok());
  now.set_validating(true);
  EXPECT_TRUE(world.world.system().restore_state(now).ok());
  step(world.world, 1);
  const Status differs = world.world.system().restore_state(now);
  ASSERT_FALSE(differs.ok());
  EXPECT_NE(std::string(differs.error().message()).find("state: "), std::string::npos);
}

TEST(SoftBodyWorld, ASnapshotKeepsTheSleepTest) {
  // Found by the api_calls fuzzer: a snapshot dropped each soft body's sleep timer and sleep
  // state (they were left out of its copy), so a restored world was not the saved one.
  LawWorld world{PhysicsSettings()};  // the engine's settings: sleeping allowed
  world.add_static_box(Vec3(3, 0.5f, 3), Vec3(0, -0.5f, 0));
  const BodyID id = add_soft(world, cloth(Vec3(0, 0.3f, 0)));
  step(world, 240);
  ASSERT_TRUE(world.system().is_soft_body_sleeping(id));
  StateRecorder at_snapshot;
  EXPECT_TRUE(world.system().save_state(at_snapshot).ok());
  WorldSnapshot snapshot;
  EXPECT_TRUE(world.system().save_snapshot(snapshot).ok());
  step(world, 5);
  ASSERT_TRUE(world.system().restore_snapshot(snapshot).ok());
  StateRecorder restored;
  EXPECT_TRUE(world.system().save_state(restored).ok());
  EXPECT_EQ(restored.data(), at_snapshot.data());
  at_snapshot.set_validating(true);
  const Status same = world.system().restore_state(at_snapshot);
  EXPECT_TRUE(same.ok()) << same.error().message();
}

}  // namespace soft_body_world_test
}  // namespace atl
