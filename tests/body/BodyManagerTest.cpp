#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "atoll/body/BodyManager.h"
#include "atoll/core/Random.h"
#include "atoll/shape/OffsetCenterOfMassShape.h"
#include "body/BodyTestUtil.h"

namespace atl {
namespace body_manager_test {
namespace {

using test::expect_near_rel;
using test::expect_vec_near;

Body& create(BodyManager& manager, const BodyCreationSettings& settings) {
  Result<BodyID> id = manager.create_body(settings);
  EXPECT_TRUE(id.ok()) << (id.ok() ? "" : id.error().message());
  return *manager.get(*id);
}

TEST(BodyManager, CreatedBodyCarriesTheSettings) {
  BodyManager manager;
  BodyCreationSettings settings(test::unit_cube(), Vec3(1, 2, 3),
                                Quat::rotation(Vec3::axis_y(), 0.5f), MotionType::Dynamic);
  settings.linear_velocity = Vec3(1, 0, 0);
  settings.angular_velocity = Vec3(0, 2, 0);
  settings.user_data = 42;
  settings.is_sensor = true;
  settings.friction = 0.7f;
  settings.restitution = 0.3f;
  settings.rolling_resistance = 0.01f;
  settings.torsional_friction = 0.02f;
  settings.gravity_factor = 0.5f;
  settings.motion_quality = MotionQuality::LinearCast;
  settings.allow_sleeping = false;
  const Body& body = create(manager, settings);
  EXPECT_TRUE(body.id().is_valid());
  EXPECT_EQ(body.position(), Vec3(1, 2, 3));
  EXPECT_EQ(body.center_of_mass_position(), Vec3(1, 2, 3));
  test::expect_rotation_near(body.rotation(), settings.rotation);
  EXPECT_EQ(body.linear_velocity(), Vec3(1, 0, 0));
  EXPECT_EQ(body.angular_velocity(), Vec3(0, 2, 0));
  EXPECT_EQ(body.user_data(), 42u);
  EXPECT_TRUE(body.is_sensor());
  EXPECT_EQ(body.friction(), 0.7f);
  EXPECT_EQ(body.restitution(), 0.3f);
  EXPECT_EQ(body.rolling_resistance(), 0.01f);
  EXPECT_EQ(body.torsional_friction(), 0.02f);
  EXPECT_EQ(body.object_layer(), layers::k_moving);
  EXPECT_FALSE(body.is_added());
  EXPECT_FALSE(body.is_active());
  const MotionProperties& motion = *body.motion_properties();
  EXPECT_EQ(motion.gravity_factor(), 0.5f);
  EXPECT_EQ(motion.motion_quality(), MotionQuality::LinearCast);
  EXPECT_FALSE(motion.allow_sleeping());
  EXPECT_EQ(manager.num_bodies(), 1u);
}

TEST(BodyManager, DefaultSettingsReachTheBody) {
  BodyManager manager;
  const Body& body =
      create(manager, BodyCreationSettings(test::unit_cube(), Vec3(), Quat(), MotionType::Dynamic));
  const MotionProperties& motion = *body.motion_properties();
  EXPECT_EQ(body.friction(), 0.2f);
  EXPECT_EQ(body.restitution(), 0.0f);
  EXPECT_EQ(motion.linear_damping(), 0.05f);
  EXPECT_EQ(motion.angular_damping(), 0.05f);
  EXPECT_EQ(motion.max_linear_velocity(), 500.0f);
  EXPECT_FLOAT_EQ(motion.max_angular_velocity(), 0.25f * k_pi * 60.0f);
  EXPECT_EQ(motion.gravity_factor(), 1.0f);
  EXPECT_EQ(motion.motion_quality(), MotionQuality::Discrete);
  EXPECT_TRUE(motion.allow_sleeping());
  EXPECT_EQ(motion.allowed_dofs(), AllowedDOFs::All);
  EXPECT_FALSE(body.override_mass().has_value());
}

TEST(BodyManager, UnitCubeOfWaterWeighsOneTonne) {
  BodyManager manager;
  const Body& body = create(manager, test::dynamic_cube());
  expect_near_rel(body.inverse_mass(), 1.0e-3f);
  // I = m(1² + 1²)/12 = 1000/6 kg·m² about each axis.
  const Mat44 inv = body.inverse_inertia();
  for (int i = 0; i < 3; ++i) {
    expect_near_rel(inv(i, i), 6.0f / 1000.0f);
    for (int j = 0; j < 3; ++j) {
      if (i != j) {
        EXPECT_NEAR(inv(i, j), 0.0f, 1.0e-9f);
      }
    }
  }
}

TEST(BodyManager, OverrideMassScalesInertia) {
  BodyManager manager;
  BodyCreationSettings settings = test::dynamic_cube();
  settings.override_mass = 10.0f;
  const Body& body = create(manager, settings);
  ASSERT_TRUE(body.override_mass().has_value());
  EXPECT_EQ(*body.override_mass(), 10.0f);
  expect_near_rel(body.inverse_mass(), 0.1f);
  for (int i = 0; i < 3; ++i) expect_near_rel(body.inverse_inertia()(i, i), 0.6f);
}

TEST(BodyManager, SphereMassAndInertia) {
  BodyManager manager;
  const Body& body = create(manager, BodyCreationSettings(make_ref<SphereShape>(0.5f), Vec3(),
                                                          Quat(), MotionType::Dynamic));
  const float mass = 1000.0f * 4.0f / 3.0f * k_pi * 0.125f;
  expect_near_rel(body.inverse_mass(), 1.0f / mass);
  expect_near_rel(body.inverse_inertia()(1, 1), 1.0f / (0.4f * mass * 0.25f));
}

TEST(BodyManager, StaticAndKinematicBodiesHaveInfiniteMass) {
  BodyManager manager;
  BodyCreationSettings settings = test::dynamic_cube();
  settings.motion_type = MotionType::Static;
  const Body& fixed = create(manager, settings);
  EXPECT_EQ(fixed.motion_properties(), nullptr);
  EXPECT_EQ(fixed.inverse_mass(), 0.0f);
  EXPECT_EQ(fixed.inverse_inertia(), Mat44::zero());
  EXPECT_EQ(fixed.linear_velocity(), Vec3());
  EXPECT_EQ(fixed.point_velocity(Vec3(1, 1, 1)), Vec3());
  EXPECT_EQ(fixed.object_layer(), layers::k_non_moving);
  settings.motion_type = MotionType::Kinematic;
  const Body& kinematic = create(manager, settings);
  ASSERT_NE(kinematic.motion_properties(), nullptr);
  EXPECT_EQ(kinematic.inverse_mass(), 0.0f);
  EXPECT_EQ(kinematic.inverse_inertia(), Mat44::zero());
}

TEST(BodyManager, PositionIsShapeOriginAndCenterOfMassFollowsRotation) {
  BodyManager manager;
  const Vec3 offset(0.0f, -0.25f, 0.0f);
  Ref<const Shape> shape =
      make_ref<OffsetCenterOfMassShape>(make_ref<BoxShape>(Vec3(1.0f, 0.5f, 0.5f), 0.0f), offset);
  const Quat rotation = Quat::rotation(Vec3::axis_z(), k_half_pi);
  const Body& body =
      create(manager, BodyCreationSettings(shape, Vec3(5, 0, 0), rotation, MotionType::Dynamic));
  expect_vec_near(body.position(), Vec3(5, 0, 0));
  // The local −Y offset turned by 90° about Z points along +X.
  expect_vec_near(body.center_of_mass_position(), Vec3(5.25f, 0, 0));
  expect_vec_near(body.world_transform().translation(), Vec3(5, 0, 0));
  expect_vec_near(body.center_of_mass_transform().translation(), Vec3(5.25f, 0, 0));
  // World bounds of the 2 × 1 × 1 box turned upright around the shape origin.
  expect_vec_near(body.world_bounds().min, Vec3(4.5f, -1.0f, -0.5f));
  expect_vec_near(body.world_bounds().max, Vec3(5.5f, 1.0f, 0.5f));
}

TEST(BodyManager, PointVelocityAddsRotation) {
  BodyManager manager;
  BodyCreationSettings settings = test::dynamic_cube(Vec3(1, 0, 0));
  settings.linear_velocity = Vec3(0, 0, 1);
  settings.angular_velocity = Vec3(0, 0, 2);
  const Body& body = create(manager, settings);
  // v + ω × r with r = (0, 1, 0): (0,0,2) × (0,1,0) = (−2, 0, 0).
  expect_vec_near(body.point_velocity(Vec3(1, 1, 0)), Vec3(-2, 0, 1));
}

TEST(BodyManager, ImpulseAtPointChangesLinearAndAngularVelocity) {
  BodyManager manager;
  Body& body = create(manager, test::dynamic_cube());
  body.add_impulse(Vec3(0, 0, 10), Vec3(0.5f, 0, 0));
  expect_vec_near(body.linear_velocity(), Vec3(0, 0, 0.01f));
  // r × J = (0.5,0,0) × (0,0,10) = (0, −5, 0); ω = I⁻¹ (r × J) with I = 1000/6.
  expect_vec_near(body.angular_velocity(), Vec3(0, -5.0f * 6.0f / 1000.0f, 0), 1.0e-7f);
  body.add_angular_impulse(Vec3(0, 5, 0));
  expect_vec_near(body.angular_velocity(), Vec3(), 1.0e-7f);
}

TEST(BodyManager, ForceAtPointAccumulatesTorque) {
  BodyManager manager;
  Body& body = create(manager, test::dynamic_cube(Vec3(0, 1, 0)));
  body.add_force(Vec3(2, 0, 0), Vec3(0, 2, 0));
  body.add_torque(Vec3(0, 0, 1));
  EXPECT_EQ(body.motion_properties()->accumulated_force(), Vec3(2, 0, 0));
  // (0,1,0) × (2,0,0) = (0, 0, −2); plus the pure torque.
  EXPECT_EQ(body.motion_properties()->accumulated_torque(), Vec3(0, 0, -1));
}

TEST(BodyManager, RotationStepIsExactAxisAngle) {
  BodyManager manager;
  Body& body = create(manager, test::dynamic_cube());
  for (int i = 0; i < 90; ++i) body.add_rotation_step(Vec3(0, 0, k_half_pi / 90.0f));
  test::expect_rotation_near(body.rotation(), Quat::rotation(Vec3::axis_z(), k_half_pi), 1.0e-5f);
  EXPECT_TRUE(body.rotation().is_normalized(1.0e-6f));
  body.add_position_step(Vec3(1, 2, 3));
  EXPECT_EQ(body.center_of_mass_position(), Vec3(1, 2, 3));
  body.update_world_bounds();
  expect_vec_near(body.world_bounds().center(), Vec3(1, 2, 3));
}

TEST(BodyManager, SleepTestPointsAreCenterAndLargestAxes) {
  BodyManager manager;
  const Body& body = create(manager, BodyCreationSettings(test::box(Vec3(3, 1, 2)), Vec3(1, 0, 0),
                                                          Quat(), MotionType::Dynamic));
  Vec3 points[3];
  body.sleep_test_points(points);
  EXPECT_EQ(points[0], Vec3(1, 0, 0));
  EXPECT_EQ(points[1], Vec3(4, 0, 0));  // largest axis X (3)
  EXPECT_EQ(points[2], Vec3(1, 0, 2));  // second largest Z (2)
}

TEST(BodyManager, SensorsAndSleeplessBodiesNeverSleep) {
  BodyManager manager;
  BodyCreationSettings settings = test::dynamic_cube();
  Body& sleeper = create(manager, settings);
  settings.is_sensor = true;
  Body& sensor = create(manager, settings);
  settings.is_sensor = false;
  settings.allow_sleeping = false;
  Body& awake = create(manager, settings);
  for (Body* body : {&sleeper, &sensor, &awake}) body->reset_sleep_test();
  bool sleeper_can = false;
  for (int i = 0; i < 40; ++i) {
    sleeper_can = sleeper.update_sleep_test(1.0f / 60.0f, 0.015f, 0.5f);
    EXPECT_FALSE(sensor.update_sleep_test(1.0f / 60.0f, 0.015f, 0.5f));
    EXPECT_FALSE(awake.update_sleep_test(1.0f / 60.0f, 0.015f, 0.5f));
  }
  EXPECT_TRUE(sleeper_can);
}

TEST(BodyManager, StaleIdsAreRejectedAfterDestroyAndReuse) {
  BodyManager manager;
  const BodyID first = *manager.create_body(test::dynamic_cube());
  const BodyID other = *manager.create_body(test::dynamic_cube(Vec3(3, 0, 0)));
  ASSERT_TRUE(manager.destroy_body(first).ok());
  EXPECT_EQ(manager.get(first), nullptr);
  EXPECT_EQ(manager.lookup(first, "f").error().message(),
            std::string("f: id: body {index 0, sequence 0} was destroyed"));
  const BodyID reused = *manager.create_body(test::dynamic_cube(Vec3(9, 0, 0)));
  EXPECT_EQ(reused.index(), first.index());
  EXPECT_EQ(reused.sequence(), first.sequence() + 1);
  EXPECT_NE(reused, first);
  EXPECT_EQ(manager.get(first), nullptr);
  ASSERT_NE(manager.get(reused), nullptr);
  EXPECT_EQ(manager.get(reused)->position(), Vec3(9, 0, 0));
  EXPECT_EQ(manager.get(other)->position(), Vec3(3, 0, 0));
  EXPECT_EQ(manager.lookup(first, "f").error().message(),
            std::string("f: id: stale BodyID {index 0, sequence 0}: that body was destroyed and "
                        "its slot reused"));
  EXPECT_EQ(manager.destroy_body(first).error().message(),
            std::string("BodyManager::destroy_body: id: stale BodyID {index 0, sequence 0}: that "
                        "body was destroyed and its slot reused"));
  EXPECT_EQ(manager.lookup(BodyID(), "f").error().message(), std::string("f: id: invalid BodyID"));
  EXPECT_EQ(manager.lookup(BodyID(77, uint8_t(0)), "f").error().message(),
            std::string("f: id: no body was ever created with BodyID {index 77, sequence 0}"));
  EXPECT_EQ(manager.num_bodies(), 2u);
}

TEST(BodyManager, SequenceWrapsAfter256Reuses) {
  BodyManager manager;
  BodyID id = *manager.create_body(test::dynamic_cube());
  const BodyID original = id;
  for (int i = 0; i < 256; ++i) {
    ASSERT_TRUE(manager.destroy_body(id).ok());
    id = *manager.create_body(test::dynamic_cube());
    EXPECT_EQ(id.index(), 0u);
  }
  EXPECT_EQ(id, original);  // a 24+8-bit ID can only tell 256 generations of a slot apart
}

TEST(BodyManager, DestroyReleasesTheShape) {
  BodyManager manager;
  Ref<const Shape> shape = test::unit_cube();
  BodyCreationSettings settings(shape, Vec3(), Quat(), MotionType::Dynamic);
  const BodyID id = *manager.create_body(settings);
  settings.shape = nullptr;
  EXPECT_EQ(shape->ref_count(), 2u);
  ASSERT_TRUE(manager.destroy_body(id).ok());
  EXPECT_EQ(shape->ref_count(), 1u);
}

TEST(BodyManager, MaxBodiesCapReturnsAnErrorNamingIt) {
  BodyManager manager(2);
  EXPECT_TRUE(manager.create_body(test::dynamic_cube()).ok());
  const BodyID second = *manager.create_body(test::dynamic_cube());
  Result<BodyID> third = manager.create_body(test::dynamic_cube());
  ASSERT_FALSE(third.ok());
  EXPECT_EQ(std::string(third.error().message()),
            "BodyManager::create_body: max_bodies: cap of 2 bodies reached");
  EXPECT_EQ(manager.num_bodies(), 2u);
  ASSERT_TRUE(manager.destroy_body(second).ok());
  EXPECT_TRUE(manager.create_body(test::dynamic_cube()).ok());
  manager.set_max_bodies(BodyManager::k_no_limit);
  EXPECT_TRUE(manager.create_body(test::dynamic_cube()).ok());
}

TEST(BodyManager, InvalidSettingsCreateNothing) {
  BodyManager manager;
  BodyCreationSettings settings = test::dynamic_cube();
  settings.friction = -1.0f;
  Result<BodyID> id = manager.create_body(settings);
  ASSERT_FALSE(id.ok());
  EXPECT_EQ(std::string(id.error().message()),
            "BodyCreationSettings.friction: must be >= 0, got -1");
  EXPECT_EQ(manager.num_bodies(), 0u);
  EXPECT_EQ(manager.num_slots(), 0u);
}

TEST(BodyManager, BodiesNeverMoveWhileStorageGrows) {
  BodyManager manager;
  std::vector<BodyID> ids;
  std::vector<const Body*> addresses;
  std::vector<const MotionProperties*> motions;
  for (int i = 0; i < 1000; ++i) {
    BodyCreationSettings settings = test::dynamic_cube(Vec3(float(i), 0, 0));
    settings.motion_type = i % 3 == 0 ? MotionType::Static : MotionType::Dynamic;
    if (settings.motion_type != MotionType::Static)
      settings.linear_velocity = Vec3(float(i) * 0.01f, 0, 0);
    ids.push_back(*manager.create_body(settings));
    addresses.push_back(manager.get(ids.back()));
    motions.push_back(addresses.back()->motion_properties());
  }
  for (int i = 0; i < 1000; ++i) {
    const Body* body = manager.get(ids[i]);
    EXPECT_EQ(body, addresses[i]);
    EXPECT_EQ(body->motion_properties(), motions[i]);
    EXPECT_EQ(body->position().x(), float(i));
    EXPECT_EQ(body->linear_velocity().x(), i % 3 == 0 ? 0.0f : float(i) * 0.01f);
  }
}

TEST(BodyManager, MotionTypeChangesAllocateAndFreeMotionProperties) {
  BodyManager manager;
  BodyCreationSettings settings = test::dynamic_cube();
  settings.override_mass = 4.0f;
  Body& body = create(manager, settings);
  manager.add_body(body, Activation::Activate);
  EXPECT_TRUE(body.is_active());
  manager.set_motion_type(body, MotionType::Static);
  EXPECT_EQ(body.motion_properties(), nullptr);
  EXPECT_FALSE(body.is_active());
  EXPECT_EQ(manager.num_active_bodies(), 0u);
  manager.set_motion_type(body, MotionType::Dynamic);
  ASSERT_NE(body.motion_properties(), nullptr);
  // Fresh motion properties at rest: the body's override mass, and the motion settings it had
  // when it was made static (the test cube's damping of 0, not the default 0.05).
  expect_near_rel(body.inverse_mass(), 0.25f);
  EXPECT_EQ(body.motion_properties()->linear_damping(), settings.linear_damping);
  EXPECT_EQ(body.linear_velocity(), Vec3());
  manager.set_motion_type(body, MotionType::Kinematic);
  EXPECT_EQ(body.inverse_mass(), 0.0f);
  manager.set_motion_type(body, MotionType::Dynamic);
  expect_near_rel(body.inverse_mass(), 0.25f);
}

TEST(BodyManager, SetShapeKeepsOriginAndRecomputesMass) {
  BodyManager manager;
  Body& body = create(manager, test::dynamic_cube(Vec3(0, 2, 0)));
  Ref<const Shape> offset_shape =
      make_ref<OffsetCenterOfMassShape>(make_ref<BoxShape>(Vec3(1, 1, 1), 0.0f), Vec3(0, 0.5f, 0));
  manager.set_shape(body, offset_shape);
  EXPECT_EQ(body.position(), Vec3(0, 2, 0));
  EXPECT_EQ(body.center_of_mass_position(), Vec3(0, 2.5f, 0));
  expect_near_rel(body.inverse_mass(), 1.0f / 8000.0f);
  expect_vec_near(body.world_bounds().max, Vec3(1, 3, 1));
}

TEST(BodyManager, SetShapeKeepsOverrideMass) {
  BodyManager manager;
  BodyCreationSettings settings = test::dynamic_cube();
  settings.override_mass = 2.0f;
  Body& body = create(manager, settings);
  manager.set_shape(body, test::box(Vec3(1, 1, 1)));
  expect_near_rel(body.inverse_mass(), 0.5f);
  // A 2 m cube of 2 kg: I = 2·(4 + 4)/12.
  expect_near_rel(body.inverse_inertia()(0, 0), 12.0f / 16.0f);
}

TEST(BodyManager, DeactivateStopsTheBody) {
  BodyManager manager;
  BodyCreationSettings settings = test::dynamic_cube();
  settings.linear_velocity = Vec3(1, 2, 3);
  settings.angular_velocity = Vec3(1, 0, 0);
  Body& body = create(manager, settings);
  manager.add_body(body, Activation::Activate);
  body.add_force(Vec3(5, 0, 0));
  manager.deactivate(body);
  EXPECT_FALSE(body.is_active());
  EXPECT_EQ(body.linear_velocity(), Vec3());
  EXPECT_EQ(body.angular_velocity(), Vec3());
  EXPECT_EQ(body.motion_properties()->accumulated_force(), Vec3());
}

TEST(BodyManager, RemoveKeepsVelocity) {
  BodyManager manager;
  BodyCreationSettings settings = test::dynamic_cube();
  settings.linear_velocity = Vec3(1, 2, 3);
  Body& body = create(manager, settings);
  manager.add_body(body, Activation::Activate);
  manager.remove_body(body);
  EXPECT_FALSE(body.is_added());
  EXPECT_FALSE(body.is_active());
  EXPECT_EQ(body.linear_velocity(), Vec3(1, 2, 3));
}

// Checks that the active list and the per-body back indices agree exactly.
void expect_consistent(const BodyManager& manager) {
  const std::span<const uint32_t> active = manager.active_bodies();
  std::set<uint32_t> seen;
  for (uint32_t i = 0; i < active.size(); ++i) {
    const Body* body = manager.body_at_slot(active[i]);
    ASSERT_NE(body, nullptr) << "active entry " << i << " is a free slot";
    EXPECT_TRUE(body->is_added());
    EXPECT_FALSE(body->is_static());
    EXPECT_EQ(body->motion_properties()->index_in_active_bodies(), i);
    EXPECT_TRUE(seen.insert(active[i]).second) << "duplicate " << active[i];
  }
  uint32_t active_count = 0;
  manager.for_each_body([&](const Body& body) {
    if (body.is_active()) {
      ++active_count;
      EXPECT_TRUE(seen.count(body.id().index()) == 1);
    }
  });
  EXPECT_EQ(active_count, active.size());
}

TEST(BodyManager, ActiveListStaysConsistentUnderRandomOperations) {
  BodyManager manager;
  Random random(1234);
  std::vector<BodyID> live;
  std::vector<const Body*> addresses;  // bodies never move while they live
  int destroyed = 0;
  for (int step = 0; step < 4000; ++step) {
    const int op = random.uniform_int(0, 9);
    if (op <= 1 || live.empty()) {
      BodyCreationSettings settings = test::dynamic_cube();
      settings.motion_type = MotionType(random.uniform_int(0, 2));
      live.push_back(*manager.create_body(settings));
      addresses.push_back(manager.get(live.back()));
      continue;
    }
    const size_t pick = size_t(random.uniform_int(0, int32_t(live.size()) - 1));
    Body& body = *manager.get(live[pick]);
    ASSERT_EQ(&body, addresses[pick]);
    switch (op) {
      case 2:
        ASSERT_TRUE(manager.destroy_body(live[pick]).ok());
        live[pick] = live.back();
        live.pop_back();
        addresses[pick] = addresses.back();
        addresses.pop_back();
        ++destroyed;
        break;
      case 3:
      case 4:
        if (!body.is_added())
          manager.add_body(
              body, random.uniform_int(0, 1) ? Activation::Activate : Activation::DontActivate);
        break;
      case 5:
        if (body.is_added()) manager.remove_body(body);
        break;
      case 6:
        if (body.is_added() && !body.is_static()) manager.activate(body);
        break;
      case 7:
        manager.deactivate(body);
        break;
      default:
        manager.set_motion_type(body, MotionType(random.uniform_int(0, 2)));
        break;
    }
    if (step % 50 == 0) manager.sort_active_bodies();
    expect_consistent(manager);
    if (::testing::Test::HasFailure()) FAIL() << "inconsistent after step " << step;
  }
  // The walk covered a large population with many reused slots.
  EXPECT_GT(manager.num_bodies(), 300u);
  EXPECT_GT(destroyed, 300);
  EXPECT_GT(manager.num_active_bodies(), 20u);
  manager.sort_active_bodies();
  const std::span<const uint32_t> active = manager.active_bodies();
  for (size_t i = 1; i < active.size(); ++i) EXPECT_LT(active[i - 1], active[i]);
  expect_consistent(manager);
}

TEST(BodyManager, IterationVisitsLiveBodiesInIndexOrder) {
  BodyManager manager;
  const BodyID a = *manager.create_body(test::dynamic_cube());
  const BodyID b = *manager.create_body(test::dynamic_cube());
  const BodyID c = *manager.create_body(test::dynamic_cube());
  ASSERT_TRUE(manager.destroy_body(b).ok());
  EXPECT_EQ(manager.body_ids(), (std::vector<BodyID>{a, c}));
  EXPECT_EQ(manager.num_slots(), 3u);
  EXPECT_EQ(manager.body_at_slot(1), nullptr);
  EXPECT_EQ(manager.body_at_slot(3), nullptr);
  EXPECT_EQ(manager.body_at_slot(2)->id(), c);
}

}  // namespace
}  // namespace body_manager_test
}  // namespace atl
