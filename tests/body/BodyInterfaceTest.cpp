#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "atoll/body/BodyInterface.h"
#include "atoll/shape/OffsetCenterOfMassShape.h"
#include "body/BodyTestUtil.h"

namespace atl {
namespace body_interface_test {
namespace {

using test::expect_vec_near;

constexpr float k_nan = std::numeric_limits<float>::quiet_NaN();
constexpr float k_inf = std::numeric_limits<float>::infinity();

// Records the listener calls as text.
struct RecordingListener : BodyListener {
  void on_added(const Body& b) override { log.push_back("added " + name(b)); }
  void on_removed(const Body& b) override { log.push_back("removed " + name(b)); }
  void on_moved(const Body& b) override { log.push_back("moved " + name(b)); }
  void on_layer_changed(const Body& b, ObjectLayer old_layer) override {
    log.push_back("layer " + name(b) + " " + std::to_string(old_layer) + "->" +
                  std::to_string(b.object_layer()));
  }
  void on_shape_changed(const Body& b) override { log.push_back("shape " + name(b)); }
  void on_motion_type_changed(const Body& b, MotionType old_type) override {
    log.push_back(std::string("type ") + name(b) + " " + motion_type_name(old_type) + "->" +
                  motion_type_name(b.motion_type()));
  }
  static std::string name(const Body& b) { return std::to_string(b.id().index()); }
  std::vector<std::string> log;
};

// Everything a call could change, compared exactly.
struct Snapshot {
  Vec3 position, com, linear_velocity, angular_velocity, force, torque;
  Quat rotation;
  AABox bounds;
  const Shape* shape;
  float friction, restitution, gravity_factor, inverse_mass;
  ObjectLayer layer;
  MotionType type;
  MotionQuality quality;
  bool added, active;

  explicit Snapshot(const Body& b)
      : position(b.position()),
        com(b.center_of_mass_position()),
        linear_velocity(b.linear_velocity()),
        angular_velocity(b.angular_velocity()),
        force(b.motion_properties() ? b.motion_properties()->accumulated_force() : Vec3()),
        torque(b.motion_properties() ? b.motion_properties()->accumulated_torque() : Vec3()),
        rotation(b.rotation()),
        bounds(b.world_bounds()),
        shape(b.shape().get()),
        friction(b.friction()),
        restitution(b.restitution()),
        gravity_factor(b.motion_properties() ? b.motion_properties()->gravity_factor() : 0.0f),
        inverse_mass(b.inverse_mass()),
        layer(b.object_layer()),
        type(b.motion_type()),
        quality(b.motion_properties() ? b.motion_properties()->motion_quality()
                                      : MotionQuality::Discrete),
        added(b.is_added()),
        active(b.is_active()) {}
  bool operator==(const Snapshot& o) const {
    return position == o.position && com == o.com && linear_velocity == o.linear_velocity &&
           angular_velocity == o.angular_velocity && force == o.force && torque == o.torque &&
           rotation == o.rotation && bounds == o.bounds && shape == o.shape &&
           friction == o.friction && restitution == o.restitution &&
           gravity_factor == o.gravity_factor && inverse_mass == o.inverse_mass &&
           layer == o.layer && type == o.type && quality == o.quality && added == o.added &&
           active == o.active;
  }
};

class BodyInterfaceTest : public ::testing::Test {
 protected:
  BodyInterfaceTest() : bodies(manager, &listener) {}

  BodyID make(MotionType type, Activation activation = Activation::Activate) {
    BodyCreationSettings settings = test::dynamic_cube(Vec3(1, 2, 3));
    settings.motion_type = type;
    if (type != MotionType::Static) settings.linear_velocity = Vec3(0.5f, 0, 0);
    Result<BodyID> id = bodies.create_and_add_body(settings, activation);
    EXPECT_TRUE(id.ok());
    return *id;
  }
  const Body& get(BodyID id) { return *manager.get(id); }

  // Runs `call` on `id`, expects exactly `message`, and expects the body not to change.
  void expect_rejected(BodyID id, const std::function<Status()>& call, const std::string& message) {
    const Snapshot before(get(id));
    const size_t events = listener.log.size();
    Status status = call();
    ASSERT_FALSE(status.ok()) << "expected: " << message;
    EXPECT_EQ(std::string(status.error().message()), message);
    EXPECT_TRUE(Snapshot(get(id)) == before) << message;
    EXPECT_EQ(listener.log.size(), events) << message;
  }

  BodyManager manager;
  RecordingListener listener;
  BodyInterface bodies;
};

TEST_F(BodyInterfaceTest, LifetimeAndListener) {
  Result<BodyID> created = bodies.create_body(test::dynamic_cube());
  ASSERT_TRUE(created.ok());
  const BodyID id = *created;
  EXPECT_FALSE(*bodies.is_added(id));
  EXPECT_FALSE(*bodies.is_active(id));
  ASSERT_TRUE(bodies.add_body(id, Activation::DontActivate).ok());
  EXPECT_TRUE(*bodies.is_added(id));
  EXPECT_FALSE(*bodies.is_active(id));
  ASSERT_TRUE(bodies.activate(id).ok());
  EXPECT_TRUE(*bodies.is_active(id));
  ASSERT_TRUE(bodies.set_position(id, Vec3(0, 5, 0)).ok());
  ASSERT_TRUE(bodies.set_object_layer(id, 4).ok());
  ASSERT_TRUE(bodies.set_object_layer(id, 4).ok());  // unchanged: no event
  ASSERT_TRUE(bodies.set_shape(id, test::box(Vec3(1, 1, 1))).ok());
  ASSERT_TRUE(bodies.set_motion_type(id, MotionType::Kinematic).ok());
  ASSERT_TRUE(bodies.remove_body(id).ok());
  EXPECT_FALSE(*bodies.is_active(id));
  ASSERT_TRUE(bodies.set_position(id, Vec3(0, 6, 0)).ok());  // not added: no event
  ASSERT_TRUE(bodies.add_body(id, Activation::Activate).ok());
  ASSERT_TRUE(bodies.destroy_body(id).ok());
  EXPECT_EQ(listener.log, (std::vector<std::string>{"added 0", "moved 0", "layer 0 1->4", "shape 0",
                                                    "type 0 dynamic->kinematic", "removed 0",
                                                    "added 0", "removed 0"}));
  EXPECT_EQ(manager.num_bodies(), 0u);
  EXPECT_EQ(manager.num_active_bodies(), 0u);
}

TEST_F(BodyInterfaceTest, StaticBodiesAreNeverActivated) {
  const BodyID id = make(MotionType::Static);
  EXPECT_TRUE(*bodies.is_added(id));
  EXPECT_FALSE(*bodies.is_active(id));
  ASSERT_TRUE(bodies.set_position(id, Vec3(4, 0, 0)).ok());
  EXPECT_FALSE(*bodies.is_active(id));
  EXPECT_EQ(*bodies.position(id), Vec3(4, 0, 0));
}

TEST_F(BodyInterfaceTest, GettersAndSettersRoundTrip) {
  const BodyID id = make(MotionType::Dynamic);
  const Quat q = Quat::rotation(Vec3(0, 1, 1).normalized(), 0.3f);
  ASSERT_TRUE(bodies.set_position_and_rotation(id, Vec3(7, 8, 9), q).ok());
  expect_vec_near(*bodies.position(id), Vec3(7, 8, 9));
  test::expect_rotation_near(*bodies.rotation(id), q);
  expect_vec_near(*bodies.center_of_mass_position(id), Vec3(7, 8, 9));
  expect_vec_near(bodies.world_transform(id)->translation(), Vec3(7, 8, 9));
  ASSERT_TRUE(bodies.set_rotation(id, Quat()).ok());
  EXPECT_EQ(*bodies.rotation(id), Quat());
  ASSERT_TRUE(bodies.set_linear_velocity(id, Vec3(1, 2, 3)).ok());
  ASSERT_TRUE(bodies.set_angular_velocity(id, Vec3(0, 0, 1)).ok());
  EXPECT_EQ(*bodies.linear_velocity(id), Vec3(1, 2, 3));
  EXPECT_EQ(*bodies.angular_velocity(id), Vec3(0, 0, 1));
  expect_vec_near(*bodies.point_velocity(id, Vec3(8, 8, 9)), Vec3(1, 3, 3));
  ASSERT_TRUE(bodies.set_friction(id, 0.9f).ok());
  ASSERT_TRUE(bodies.set_restitution(id, 1.0f).ok());
  ASSERT_TRUE(bodies.set_gravity_factor(id, -1.0f).ok());
  ASSERT_TRUE(bodies.set_motion_quality(id, MotionQuality::LinearCast).ok());
  EXPECT_EQ(*bodies.friction(id), 0.9f);
  EXPECT_EQ(*bodies.restitution(id), 1.0f);
  EXPECT_EQ(*bodies.gravity_factor(id), -1.0f);
  EXPECT_EQ(*bodies.motion_quality(id), MotionQuality::LinearCast);
  EXPECT_EQ(*bodies.motion_type(id), MotionType::Dynamic);
  EXPECT_EQ(*bodies.object_layer(id), layers::k_moving);
  EXPECT_EQ(bodies.shape(id)->get(), get(id).shape().get());
  EXPECT_EQ((*bodies.body(id))->id(), id);
}

TEST_F(BodyInterfaceTest, VelocityIsClampedAndMaskedByAllowedDofs) {
  BodyCreationSettings settings = test::dynamic_cube();
  settings.allowed_dofs = AllowedDOFs::Plane2D;
  settings.max_linear_velocity = 10.0f;
  const BodyID id = *bodies.create_and_add_body(settings, Activation::Activate);
  ASSERT_TRUE(bodies.set_linear_velocity(id, Vec3(0, 30, 40)).ok());
  EXPECT_EQ(*bodies.linear_velocity(id), Vec3(0, 10, 0));
  ASSERT_TRUE(bodies.set_angular_velocity(id, Vec3(1, 1, 1)).ok());
  EXPECT_EQ(*bodies.angular_velocity(id), Vec3(0, 0, 1));
  ASSERT_TRUE(bodies.add_impulse(id, Vec3(0, 0, 1000), Vec3(0.5f, 0.5f, 0)).ok());
  EXPECT_EQ(bodies.linear_velocity(id)->z(), 0.0f);
  EXPECT_EQ(bodies.angular_velocity(id)->x(), 0.0f);
  EXPECT_EQ(bodies.angular_velocity(id)->y(), 0.0f);
}

TEST_F(BodyInterfaceTest, ForcesAndImpulsesWakeSleepingBodies) {
  const std::vector<std::function<Status(BodyID)>> pushes = {
      [&](BodyID id) { return bodies.add_force(id, Vec3(1, 0, 0)); },
      [&](BodyID id) { return bodies.add_force(id, Vec3(1, 0, 0), Vec3(1, 1, 1)); },
      [&](BodyID id) { return bodies.add_torque(id, Vec3(1, 0, 0)); },
      [&](BodyID id) { return bodies.add_impulse(id, Vec3(1, 0, 0)); },
      [&](BodyID id) { return bodies.add_impulse(id, Vec3(1, 0, 0), Vec3(0, 1, 0)); },
      [&](BodyID id) { return bodies.add_angular_impulse(id, Vec3(1, 0, 0)); },
      [&](BodyID id) { return bodies.set_linear_velocity(id, Vec3(1, 0, 0)); },
      [&](BodyID id) { return bodies.set_angular_velocity(id, Vec3(1, 0, 0)); },
  };
  for (size_t i = 0; i < pushes.size(); ++i) {
    const BodyID id = make(MotionType::Dynamic, Activation::DontActivate);
    ASSERT_FALSE(*bodies.is_active(id));
    ASSERT_TRUE(pushes[i](id).ok()) << i;
    EXPECT_TRUE(*bodies.is_active(id)) << i;
  }
}

TEST_F(BodyInterfaceTest, DontActivateLeavesSleepersAsleep) {
  const BodyID id = make(MotionType::Dynamic, Activation::DontActivate);
  ASSERT_TRUE(bodies.set_position(id, Vec3(0, 1, 0), Activation::DontActivate).ok());
  ASSERT_TRUE(bodies.set_shape(id, test::unit_cube(), Activation::DontActivate).ok());
  ASSERT_TRUE(bodies.set_linear_velocity(id, Vec3()).ok());  // zero: nothing to wake for
  EXPECT_FALSE(*bodies.is_active(id));
  ASSERT_TRUE(bodies.set_position(id, Vec3(0, 2, 0)).ok());
  EXPECT_TRUE(*bodies.is_active(id));
  ASSERT_TRUE(bodies.deactivate(id).ok());
  EXPECT_FALSE(*bodies.is_active(id));
  EXPECT_EQ(*bodies.linear_velocity(id), Vec3());
}

TEST_F(BodyInterfaceTest, MoveKinematicArrivesInDt) {
  const BodyID id = make(MotionType::Kinematic);
  const Vec3 target(3.0f, 2.0f, -1.0f);
  const Quat target_rotation = Quat::rotation(Vec3(1, 1, 0).normalized(), 0.8f);
  const float dt = 0.25f;
  ASSERT_TRUE(bodies.move_kinematic(id, target, target_rotation, dt).ok());
  // From (1, 2, 3), identity.
  expect_vec_near(*bodies.linear_velocity(id), (target - Vec3(1, 2, 3)) / dt);
  expect_vec_near(*bodies.angular_velocity(id), Vec3(1, 1, 0).normalized() * (0.8f / dt));
  // Integrating the velocities over dt lands exactly on the target.
  Body& body = *manager.get(id);
  body.add_position_step(body.linear_velocity() * dt);
  body.add_rotation_step(body.angular_velocity() * dt);
  expect_vec_near(body.position(), target);
  test::expect_rotation_near(body.rotation(), target_rotation);
  EXPECT_TRUE(*bodies.is_active(id));
}

TEST_F(BodyInterfaceTest, MoveKinematicDrivesTheCenterOfMass) {
  // The centre of mass sits 1 m along local X from the origin; turning by 90° about the origin
  // (which stays put) moves the centre of mass on a chord from (1,0,0) to (0,1,0).
  Ref<const Shape> shape =
      make_ref<OffsetCenterOfMassShape>(make_ref<BoxShape>(Vec3(2, 1, 1), 0.0f), Vec3(1, 0, 0));
  const BodyID id = *bodies.create_and_add_body(
      BodyCreationSettings(shape, Vec3(), Quat(), MotionType::Kinematic), Activation::Activate);
  const Quat target_rotation = Quat::rotation(Vec3::axis_z(), k_half_pi);
  ASSERT_TRUE(bodies.move_kinematic(id, Vec3(), target_rotation, 1.0f).ok());
  expect_vec_near(*bodies.linear_velocity(id), Vec3(-1, 1, 0));
  expect_vec_near(*bodies.angular_velocity(id), Vec3(0, 0, k_half_pi));
}

TEST_F(BodyInterfaceTest, MoveKinematicToTheCurrentPoseStopsAndDoesNotWake) {
  const BodyID id = make(MotionType::Kinematic, Activation::DontActivate);
  ASSERT_TRUE(bodies.move_kinematic(id, Vec3(1, 2, 3), Quat(), 0.1f).ok());
  EXPECT_EQ(*bodies.linear_velocity(id), Vec3());
  EXPECT_EQ(*bodies.angular_velocity(id), Vec3());
  EXPECT_FALSE(*bodies.is_active(id));
}

// Symptom: a body given 1e20 m/s (or an impulse of 3e38 N·s) ended at rest: the clamp to
// max_linear_velocity divided by the squared length, which overflows float to inf. Fix: such a
// vector is divided by its largest component first. After: 1e20 m/s along x is 500 m/s along x.
TEST_F(BodyInterfaceTest, AVelocityWhoseSquareOverflowsIsClampedNotZeroed) {
  const BodyID id = make(MotionType::Dynamic);
  ASSERT_TRUE(bodies.set_linear_velocity(id, Vec3(1e20f, 0, 0)).ok());
  EXPECT_EQ(*bodies.linear_velocity(id), Vec3(500, 0, 0));
  ASSERT_TRUE(bodies.set_linear_velocity(id, Vec3(0, -3e38f, 3e38f)).ok());
  const Vec3 v = *bodies.linear_velocity(id);
  EXPECT_NEAR(v.length(), 500.0f, 1e-3f);
  EXPECT_EQ(v.x(), 0.0f);
  EXPECT_EQ(v.y(), -v.z());
  // An impulse of 3e38 N·s on the 1000 kg cube: 3e35 m/s, clamped along its direction.
  ASSERT_TRUE(bodies.set_linear_velocity(id, Vec3()).ok());
  ASSERT_TRUE(bodies.add_impulse(id, Vec3(0, 3e38f, 0)).ok());
  EXPECT_EQ(*bodies.linear_velocity(id), Vec3(0, 500, 0));
  ASSERT_TRUE(bodies.set_angular_velocity(id, Vec3(0, 0, 1e25f)).ok());
  expect_vec_near(*bodies.angular_velocity(id), Vec3(0, 0, 0.25f * k_pi * 60.0f));
}

TEST_F(BodyInterfaceTest, MotionTypeChanges) {
  const BodyID id = make(MotionType::Static);
  ASSERT_TRUE(bodies.set_motion_type(id, MotionType::Dynamic).ok());
  EXPECT_TRUE(*bodies.is_active(id));
  EXPECT_GT(get(id).inverse_mass(), 0.0f);
  ASSERT_TRUE(bodies.set_motion_type(id, MotionType::Static).ok());
  EXPECT_FALSE(*bodies.is_active(id));
  EXPECT_EQ(get(id).motion_properties(), nullptr);
  EXPECT_EQ(listener.log.back(), "type 0 dynamic->static");
}

// The motion settings a static body was created with, or had when it was made static, come
// back when it is made to move (they used to be dropped for the defaults: a LinearCast bullet
// frozen and thawed came back Discrete, a 2D body came back free in 3D).
MotionSettings custom_motion() {
  MotionSettings m;
  m.linear_damping = 0.3f;
  m.angular_damping = 0.7f;
  m.max_linear_velocity = 50.0f;
  m.max_angular_velocity = 3.0f;
  m.gravity_factor = 0.25f;
  m.motion_quality = MotionQuality::LinearCast;
  m.allowed_dofs = AllowedDOFs::Plane2D;
  m.allow_sleeping = false;
  return m;
}

TEST_F(BodyInterfaceTest, AStaticBodyMadeToMoveKeepsItsCreationMotionSettings) {
  BodyCreationSettings settings = test::dynamic_cube(Vec3(1, 2, 3));
  settings.motion_type = MotionType::Static;
  custom_motion().apply(settings);
  const BodyID id = *bodies.create_and_add_body(settings, Activation::Activate);
  EXPECT_EQ(manager.motion_settings(get(id)), custom_motion());
  ASSERT_TRUE(bodies.set_motion_type(id, MotionType::Dynamic).ok());
  ASSERT_NE(get(id).motion_properties(), nullptr);
  EXPECT_EQ(MotionSettings::of(*get(id).motion_properties()), custom_motion());
  EXPECT_EQ(get(id).linear_velocity(), Vec3());
  EXPECT_TRUE(*bodies.is_active(id));
  // Kinematic and back keeps them too (the motion properties stay).
  ASSERT_TRUE(bodies.set_motion_type(id, MotionType::Kinematic).ok());
  ASSERT_TRUE(bodies.set_motion_type(id, MotionType::Dynamic).ok());
  EXPECT_EQ(MotionSettings::of(*get(id).motion_properties()), custom_motion());
}

TEST_F(BodyInterfaceTest, AMovingBodyMadeStaticAndBackKeepsItsMotionSettings) {
  const BodyID id = make(MotionType::Dynamic);
  ASSERT_TRUE(bodies.set_motion_quality(id, MotionQuality::LinearCast).ok());
  ASSERT_TRUE(bodies.set_gravity_factor(id, 0.25f).ok());
  const MotionSettings before = MotionSettings::of(*get(id).motion_properties());
  ASSERT_NE(before, MotionSettings());
  ASSERT_TRUE(bodies.set_motion_type(id, MotionType::Static).ok());
  EXPECT_EQ(get(id).motion_properties(), nullptr);
  EXPECT_EQ(manager.motion_settings(get(id)), before);
  ASSERT_TRUE(bodies.set_motion_type(id, MotionType::Kinematic).ok());
  EXPECT_EQ(MotionSettings::of(*get(id).motion_properties()), before);
  // A destroyed body's slot forgets them.
  ASSERT_TRUE(bodies.set_motion_type(id, MotionType::Static).ok());
  ASSERT_TRUE(bodies.remove_body(id).ok());
  ASSERT_TRUE(bodies.destroy_body(id).ok());
  BodyCreationSettings plain = test::dynamic_cube();
  plain.motion_type = MotionType::Static;
  MotionSettings().apply(plain);
  const BodyID reused = *bodies.create_and_add_body(plain, Activation::DontActivate);
  ASSERT_EQ(reused.index(), id.index());
  EXPECT_EQ(manager.motion_settings(get(reused)), MotionSettings());
}

// A static body created with no free axis may become kinematic, not dynamic: the allowed DOFs
// it would move with are checked, and the refusal changes nothing.
TEST_F(BodyInterfaceTest, AStaticBodyWithNoFreeAxisIsNotMadeDynamic) {
  BodyCreationSettings settings = test::dynamic_cube(Vec3(1, 2, 3));
  settings.motion_type = MotionType::Static;
  settings.allowed_dofs = AllowedDOFs::None;
  const BodyID id = *bodies.create_and_add_body(settings, Activation::Activate);
  expect_rejected(
      id, [&] { return bodies.set_motion_type(id, MotionType::Dynamic); },
      "BodyInterface::set_motion_type: motion_type: a dynamic body needs a free axis, but the "
      "body's allowed DOFs are None");
  EXPECT_EQ(manager.motion_settings(get(id)).allowed_dofs, AllowedDOFs::None);
  ASSERT_TRUE(bodies.set_motion_type(id, MotionType::Kinematic).ok());
}

// A snapshot holds the settings kept for static bodies.
TEST_F(BodyInterfaceTest, ASnapshotRestoresTheMotionSettingsOfStaticBodies) {
  const BodyID id = make(MotionType::Dynamic);
  ASSERT_TRUE(bodies.set_gravity_factor(id, 0.25f).ok());
  ASSERT_TRUE(bodies.set_motion_type(id, MotionType::Static).ok());
  const MotionSettings kept = manager.motion_settings(get(id));
  BodySetSnapshot snapshot;
  manager.save_body_set(snapshot);
  ASSERT_TRUE(bodies.set_motion_type(id, MotionType::Dynamic).ok());
  ASSERT_TRUE(bodies.set_gravity_factor(id, 2.0f).ok());
  ASSERT_TRUE(bodies.set_motion_type(id, MotionType::Static).ok());
  EXPECT_EQ(manager.motion_settings(get(id)).gravity_factor, 2.0f);
  manager.restore_body_set(snapshot);
  EXPECT_EQ(manager.motion_settings(get(id)), kept);
  ASSERT_TRUE(bodies.set_motion_type(id, MotionType::Dynamic).ok());
  EXPECT_EQ(get(id).motion_properties()->gravity_factor(), 0.25f);
}

TEST_F(BodyInterfaceTest, EveryErrorPathNamesCallAndArgumentAndChangesNothing) {
  const BodyID dyn = make(MotionType::Dynamic);
  const BodyID kin = make(MotionType::Kinematic);
  const BodyID fixed = make(MotionType::Static);
  const BodyID loose = *bodies.create_body(test::dynamic_cube());  // not added
  const Ref<const Shape> mesh = test::triangle_mesh();
  const std::string d = "body {index 0, sequence 0} ";
  const std::string k = "body {index 1, sequence 0} ";
  const std::string s = "body {index 2, sequence 0} ";
  const std::string l = "body {index 3, sequence 0} ";
  const Quat bad_q(0, 0, 0, 1.5f);

  struct Case {
    BodyID id;
    std::function<Status()> call;
    std::string message;
  };
  const std::vector<Case> cases = {
      {dyn, [&] { return bodies.add_body(dyn, Activation::Activate); },
       "BodyInterface::add_body: id: " + d + "is already added"},
      {loose, [&] { return bodies.remove_body(loose); },
       "BodyInterface::remove_body: id: " + l + "is not added"},
      {dyn, [&] { return bodies.set_position(dyn, Vec3(k_nan, 0, 0)); },
       "BodyInterface::set_position: position.x: must be finite, got nan"},
      {dyn, [&] { return bodies.set_rotation(dyn, bad_q); },
       "BodyInterface::set_rotation: rotation: must be a unit quaternion, got (0, 0, 0, "
       "1.5) of length 1.5"},
      {dyn, [&] { return bodies.set_rotation(dyn, Quat(0, k_inf, 0, 1)); },
       "BodyInterface::set_rotation: rotation: must be finite, got (0, inf, 0, 1)"},
      {dyn, [&] { return bodies.set_position_and_rotation(dyn, Vec3(0, 0, k_inf), Quat()); },
       "BodyInterface::set_position_and_rotation: position.z: must be finite, got inf"},
      {dyn, [&] { return bodies.set_position_and_rotation(dyn, Vec3(), bad_q); },
       "BodyInterface::set_position_and_rotation: rotation: must be a unit quaternion, "
       "got (0, 0, 0, 1.5) of length 1.5"},
      // Limits at the edge (issue 7 items 18-20): before, a body at 1e38 m aborted in the
      // broadphase and move_kinematic on a dynamic body launched it at 148 m/s.
      {dyn, [&] { return bodies.set_position(dyn, Vec3(0, 2e7f, 0)); },
       "BodyInterface::set_position: position: each component must be within ±1e+07 m, got "
       "(0, 2e+07, 0)"},
      {dyn, [&] { return bodies.add_impulse(dyn, Vec3(1, 0, 0), Vec3(0, 0, -2e7f)); },
       "BodyInterface::add_impulse: world_point: each component must be within ±1e+07 m, got (0, "
       "0, -2e+07)"},
      {dyn, [&] { return bodies.move_kinematic(dyn, Vec3(1, 0, 0), Quat(), 0.1f); },
       "BodyInterface::move_kinematic: id: " + d +
           "is dynamic: move_kinematic moves kinematic bodies only (give a dynamic body a "
           "velocity, a force or an impulse)"},
      {kin, [&] { return bodies.move_kinematic(kin, Vec3(0, 0, 1e8f), Quat(), 0.1f); },
       "BodyInterface::move_kinematic: target_position: each component must be within ±1e+07 "
       "m, got (0, 0, 1e+08)"},
      {fixed, [&] { return bodies.move_kinematic(fixed, Vec3(), Quat(), 0.1f); },
       "BodyInterface::move_kinematic: id: " + s + "is static and cannot move"},
      {kin, [&] { return bodies.move_kinematic(kin, Vec3(k_nan, 0, 0), Quat(), 0.1f); },
       "BodyInterface::move_kinematic: target_position.x: must be finite, got nan"},
      {kin, [&] { return bodies.move_kinematic(kin, Vec3(), bad_q, 0.1f); },
       "BodyInterface::move_kinematic: target_rotation: must be a unit quaternion, got "
       "(0, 0, 0, 1.5) of length 1.5"},
      {kin, [&] { return bodies.move_kinematic(kin, Vec3(), Quat(), 0.0f); },
       "BodyInterface::move_kinematic: dt: must be > 0, got 0"},
      {kin, [&] { return bodies.move_kinematic(kin, Vec3(), Quat(), -0.1f); },
       "BodyInterface::move_kinematic: dt: must be > 0, got -0.1"},
      {kin, [&] { return bodies.move_kinematic(kin, Vec3(), Quat(), k_nan); },
       "BodyInterface::move_kinematic: dt: must be finite, got nan"},
      {kin, [&] { return bodies.move_kinematic(kin, Vec3(), Quat(), k_inf); },
       "BodyInterface::move_kinematic: dt: must be finite, got inf"},
      {fixed, [&] { return bodies.set_linear_velocity(fixed, Vec3(1, 0, 0)); },
       "BodyInterface::set_linear_velocity: id: " + s + "is static and cannot have a velocity"},
      {fixed, [&] { return bodies.set_angular_velocity(fixed, Vec3(1, 0, 0)); },
       "BodyInterface::set_angular_velocity: id: " + s + "is static and cannot have a velocity"},
      {dyn, [&] { return bodies.set_linear_velocity(dyn, Vec3(k_nan, 0, 0)); },
       "BodyInterface::set_linear_velocity: velocity.x: must be finite, got nan"},
      {kin, [&] { return bodies.set_angular_velocity(kin, Vec3(0, k_inf, 0)); },
       "BodyInterface::set_angular_velocity: velocity.y: must be finite, got inf"},
      {kin, [&] { return bodies.add_force(kin, Vec3(1, 0, 0)); },
       "BodyInterface::add_force: id: " + k +
           "is kinematic: forces and impulses act on dynamic bodies only"},
      {fixed, [&] { return bodies.add_force(fixed, Vec3(1, 0, 0), Vec3()); },
       "BodyInterface::add_force: id: " + s +
           "is static: forces and impulses act on dynamic bodies only"},
      {dyn, [&] { return bodies.add_force(dyn, Vec3(k_nan, 0, 0)); },
       "BodyInterface::add_force: force.x: must be finite, got nan"},
      {dyn, [&] { return bodies.add_force(dyn, Vec3(1, 0, 0), Vec3(0, k_nan, 0)); },
       "BodyInterface::add_force: world_point.y: must be finite, got nan"},
      {kin, [&] { return bodies.add_torque(kin, Vec3(1, 0, 0)); },
       "BodyInterface::add_torque: id: " + k +
           "is kinematic: forces and impulses act on dynamic bodies only"},
      {dyn, [&] { return bodies.add_torque(dyn, Vec3(k_inf, 0, 0)); },
       "BodyInterface::add_torque: torque.x: must be finite, got inf"},
      {fixed, [&] { return bodies.add_impulse(fixed, Vec3(1, 0, 0)); },
       "BodyInterface::add_impulse: id: " + s +
           "is static: forces and impulses act on dynamic bodies only"},
      {dyn, [&] { return bodies.add_impulse(dyn, Vec3(0, 0, k_nan)); },
       "BodyInterface::add_impulse: impulse.z: must be finite, got nan"},
      {dyn, [&] { return bodies.add_impulse(dyn, Vec3(0, 0, 1), Vec3(k_inf, 0, 0)); },
       "BodyInterface::add_impulse: world_point.x: must be finite, got inf"},
      {kin, [&] { return bodies.add_angular_impulse(kin, Vec3(1, 0, 0)); },
       "BodyInterface::add_angular_impulse: id: " + k +
           "is kinematic: forces and impulses act on dynamic bodies only"},
      {dyn, [&] { return bodies.add_angular_impulse(dyn, Vec3(k_nan, 0, 0)); },
       "BodyInterface::add_angular_impulse: angular_impulse.x: must be finite, got nan"},
      {dyn, [&] { return bodies.set_motion_type(dyn, MotionType(5)); },
       "BodyInterface::set_motion_type: motion_type: invalid value 5"},
      {dyn, [&] { return bodies.set_shape(dyn, mesh); },
       "BodyInterface::set_shape: shape: a dynamic body needs a shape with volume; a mesh has none "
       "(t"
       "riangle meshes and height fields are for static and kinematic bodies)"},
      {dyn, [&] { return bodies.set_shape(dyn, nullptr); },
       "BodyInterface::set_shape: shape: must not be null"},
      {fixed, [&] { return bodies.set_motion_quality(fixed, MotionQuality::LinearCast); },
       "BodyInterface::set_motion_quality: id: " + s + "is static and has no motion quality"},
      {dyn, [&] { return bodies.set_motion_quality(dyn, MotionQuality(4)); },
       "BodyInterface::set_motion_quality: motion_quality: invalid value 4"},
      {dyn, [&] { return bodies.set_friction(dyn, -1.0f); },
       "BodyInterface::set_friction: friction: must be >= 0, got -1"},
      {dyn, [&] { return bodies.set_friction(dyn, k_nan); },
       "BodyInterface::set_friction: friction: must be finite, got nan"},
      {dyn, [&] { return bodies.set_friction(dyn, k_inf); },
       "BodyInterface::set_friction: friction: must be finite, got inf"},
      {dyn, [&] { return bodies.set_restitution(dyn, 1.5f); },
       "BodyInterface::set_restitution: restitution: must be in [0, 1], got 1.5"},
      {dyn, [&] { return bodies.set_restitution(dyn, k_nan); },
       "BodyInterface::set_restitution: restitution: must be in [0, 1], got nan"},
      {fixed, [&] { return bodies.set_gravity_factor(fixed, 2.0f); },
       "BodyInterface::set_gravity_factor: id: " + s + "is static and has no gravity factor"},
      {dyn, [&] { return bodies.set_gravity_factor(dyn, k_nan); },
       "BodyInterface::set_gravity_factor: gravity_factor: must be finite, got nan"},
      {fixed, [&] { return bodies.activate(fixed); },
       "BodyInterface::activate: id: " + s + "is static and can never be active"},
      {loose, [&] { return bodies.activate(loose); },
       "BodyInterface::activate: id: " + l + "is not added to the simulation"},
  };
  for (const Case& c : cases) expect_rejected(c.id, c.call, c.message);

  // A kinematic body without mass cannot become dynamic; nor can one without a free axis.
  BodyCreationSettings settings(mesh, Vec3(), Quat(), MotionType::Kinematic);
  const BodyID kinematic_mesh = *bodies.create_and_add_body(settings, Activation::Activate);
  expect_rejected(
      kinematic_mesh, [&] { return bodies.set_motion_type(kinematic_mesh, MotionType::Dynamic); },
      "BodyInterface::set_motion_type: motion_type: a dynamic body needs a shape with volume; a "
      "mesh has none (t"
      "riangle meshes and height fields are for static and kinematic bodies)");
  settings = test::dynamic_cube();
  settings.motion_type = MotionType::Kinematic;
  settings.allowed_dofs = AllowedDOFs::None;
  const BodyID locked = *bodies.create_and_add_body(settings, Activation::Activate);
  expect_rejected(
      locked, [&] { return bodies.set_motion_type(locked, MotionType::Dynamic); },
      "BodyInterface::set_motion_type: motion_type: a dynamic body needs a free "
      "axis, but the body's allowed DOFs are None");
  // Getters fail the same way for values a static body does not have.
  EXPECT_EQ(std::string(bodies.motion_quality(fixed).error().message()),
            "BodyInterface::motion_quality: id: " + s + "is static and has no motion quality");
  EXPECT_EQ(std::string(bodies.gravity_factor(fixed).error().message()),
            "BodyInterface::gravity_factor: id: " + s + "is static and has no gravity factor");
  EXPECT_EQ(std::string(bodies.point_velocity(dyn, Vec3(k_nan, 0, 0)).error().message()),
            "BodyInterface::point_velocity: world_point.x: must be finite, got nan");
}

TEST_F(BodyInterfaceTest, StaleInvalidAndUnknownIdsAreRejectedByEveryCall) {
  const BodyID stale = make(MotionType::Dynamic);
  ASSERT_TRUE(bodies.destroy_body(stale).ok());
  const BodyID reused = make(MotionType::Dynamic);
  ASSERT_EQ(reused.index(), stale.index());
  const Snapshot before(get(reused));
  const size_t events = listener.log.size();

  const std::vector<std::pair<std::string, std::function<Status(BodyID)>>> calls = {
      {"add_body", [&](BodyID id) { return bodies.add_body(id, Activation::Activate); }},
      {"remove_body", [&](BodyID id) { return bodies.remove_body(id); }},
      {"destroy_body", [&](BodyID id) { return bodies.destroy_body(id); }},
      {"set_position", [&](BodyID id) { return bodies.set_position(id, Vec3()); }},
      {"set_rotation", [&](BodyID id) { return bodies.set_rotation(id, Quat()); }},
      {"set_position_and_rotation",
       [&](BodyID id) { return bodies.set_position_and_rotation(id, Vec3(), Quat()); }},
      {"move_kinematic",
       [&](BodyID id) { return bodies.move_kinematic(id, Vec3(), Quat(), 1.0f); }},
      {"set_linear_velocity", [&](BodyID id) { return bodies.set_linear_velocity(id, Vec3()); }},
      {"set_angular_velocity", [&](BodyID id) { return bodies.set_angular_velocity(id, Vec3()); }},
      {"add_force", [&](BodyID id) { return bodies.add_force(id, Vec3()); }},
      {"add_force", [&](BodyID id) { return bodies.add_force(id, Vec3(), Vec3()); }},
      {"add_torque", [&](BodyID id) { return bodies.add_torque(id, Vec3()); }},
      {"add_impulse", [&](BodyID id) { return bodies.add_impulse(id, Vec3()); }},
      {"add_impulse", [&](BodyID id) { return bodies.add_impulse(id, Vec3(), Vec3()); }},
      {"add_angular_impulse", [&](BodyID id) { return bodies.add_angular_impulse(id, Vec3()); }},
      {"set_motion_type",
       [&](BodyID id) { return bodies.set_motion_type(id, MotionType::Kinematic); }},
      {"set_motion_quality",
       [&](BodyID id) { return bodies.set_motion_quality(id, MotionQuality::Discrete); }},
      {"set_shape", [&](BodyID id) { return bodies.set_shape(id, test::unit_cube()); }},
      {"set_friction", [&](BodyID id) { return bodies.set_friction(id, 0.5f); }},
      {"set_restitution", [&](BodyID id) { return bodies.set_restitution(id, 0.5f); }},
      {"set_object_layer", [&](BodyID id) { return bodies.set_object_layer(id, 3); }},
      {"set_gravity_factor", [&](BodyID id) { return bodies.set_gravity_factor(id, 0.5f); }},
      {"activate", [&](BodyID id) { return bodies.activate(id); }},
      {"deactivate", [&](BodyID id) { return bodies.deactivate(id); }},
  };
  for (const auto& [name, call] : calls) {
    Status status = call(stale);
    ASSERT_FALSE(status.ok()) << name;
    EXPECT_EQ(std::string(status.error().message()),
              "BodyInterface::" + name +
                  ": id: stale BodyID {index 0, sequence 0}: that body was destroyed and its "
                  "slot reused");
    status = call(BodyID());
    ASSERT_FALSE(status.ok()) << name;
    EXPECT_EQ(std::string(status.error().message()),
              "BodyInterface::" + name + ": id: invalid BodyID");
    status = call(BodyID(500, uint8_t(0)));
    ASSERT_FALSE(status.ok()) << name;
    EXPECT_EQ(std::string(status.error().message()),
              "BodyInterface::" + name +
                  ": id: no body was ever created with BodyID {index 500, sequence 0}");
  }
  // Getters too.
  EXPECT_FALSE(bodies.position(stale).ok());
  EXPECT_FALSE(bodies.rotation(stale).ok());
  EXPECT_FALSE(bodies.center_of_mass_position(stale).ok());
  EXPECT_FALSE(bodies.world_transform(stale).ok());
  EXPECT_FALSE(bodies.linear_velocity(stale).ok());
  EXPECT_FALSE(bodies.angular_velocity(stale).ok());
  EXPECT_FALSE(bodies.point_velocity(stale, Vec3()).ok());
  EXPECT_FALSE(bodies.motion_type(stale).ok());
  EXPECT_FALSE(bodies.motion_quality(stale).ok());
  EXPECT_FALSE(bodies.shape(stale).ok());
  EXPECT_FALSE(bodies.friction(stale).ok());
  EXPECT_FALSE(bodies.restitution(stale).ok());
  EXPECT_FALSE(bodies.object_layer(stale).ok());
  EXPECT_FALSE(bodies.gravity_factor(stale).ok());
  EXPECT_FALSE(bodies.is_active(stale).ok());
  EXPECT_FALSE(bodies.is_added(stale).ok());
  EXPECT_EQ(std::string(bodies.body(stale).error().message()),
            "BodyInterface::body: id: stale BodyID {index 0, sequence 0}: that body was "
            "destroyed and its slot reused");
  // The body that took the slot was never touched.
  EXPECT_TRUE(Snapshot(get(reused)) == before);
  EXPECT_EQ(listener.log.size(), events);
}

TEST_F(BodyInterfaceTest, CreateErrorsComeFromTheSettings) {
  BodyCreationSettings settings = test::dynamic_cube();
  settings.rotation = Quat(0, 0, 0, 0);
  Result<BodyID> id = bodies.create_and_add_body(settings, Activation::Activate);
  ASSERT_FALSE(id.ok());
  EXPECT_EQ(std::string(id.error().message()),
            "BodyCreationSettings.rotation: must be a unit quaternion, got (0, 0, 0, 0) of "
            "length 0");
  EXPECT_EQ(manager.num_bodies(), 0u);
  EXPECT_TRUE(listener.log.empty());
}

}  // namespace
}  // namespace body_interface_test
}  // namespace atl
