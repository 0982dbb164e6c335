#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "body/BodyTestUtil.h"

namespace atl {
namespace body_creation_settings_test {
namespace {

constexpr float k_nan = std::numeric_limits<float>::quiet_NaN();
constexpr float k_inf = std::numeric_limits<float>::infinity();

std::string error_of(const BodyCreationSettings& settings) {
  Status status = settings.validate();
  return status.ok() ? std::string("<ok>") : std::string(status.error().message());
}

TEST(BodyCreationSettings, DefaultsAreDesignSection3) {
  const BodyCreationSettings s;
  EXPECT_EQ(s.shape, nullptr);
  EXPECT_EQ(s.position, Vec3());
  EXPECT_EQ(s.rotation, Quat::identity());
  EXPECT_EQ(s.linear_velocity, Vec3());
  EXPECT_EQ(s.angular_velocity, Vec3());
  EXPECT_EQ(s.motion_type, MotionType::Dynamic);
  EXPECT_EQ(s.motion_quality, MotionQuality::Discrete);
  EXPECT_FALSE(s.object_layer.has_value());
  EXPECT_TRUE(s.allow_sleeping);
  EXPECT_FALSE(s.is_sensor);
  EXPECT_EQ(s.friction, 0.2f);
  EXPECT_EQ(s.restitution, 0.0f);
  EXPECT_EQ(s.linear_damping, 0.05f);
  EXPECT_EQ(s.angular_damping, 0.05f);
  EXPECT_EQ(s.max_linear_velocity, 500.0f);
  EXPECT_FLOAT_EQ(s.max_angular_velocity, 0.25f * 3.14159265f * 60.0f);
  EXPECT_EQ(s.gravity_factor, 1.0f);
  EXPECT_FALSE(s.override_mass.has_value());
  EXPECT_EQ(s.allowed_dofs, AllowedDOFs::All);
  EXPECT_EQ(s.user_data, 0u);
  EXPECT_EQ(s.rolling_resistance, 0.0f);
  EXPECT_EQ(s.torsional_friction, 0.0f);
}

TEST(BodyCreationSettings, LayerDefaultsFollowMotionType) {
  BodyCreationSettings s = test::dynamic_cube();
  EXPECT_EQ(s.resolved_object_layer(), layers::k_moving);
  s.motion_type = MotionType::Kinematic;
  EXPECT_EQ(s.resolved_object_layer(), layers::k_moving);
  s.motion_type = MotionType::Static;
  EXPECT_EQ(s.resolved_object_layer(), layers::k_non_moving);
  s.object_layer = 7;
  EXPECT_EQ(s.resolved_object_layer(), 7);
}

TEST(BodyCreationSettings, ValidSettingsPass) {
  EXPECT_EQ(error_of(test::dynamic_cube()), "<ok>");
  BodyCreationSettings s = test::dynamic_cube();
  s.rotation = Quat(0.0f, 0.0f, 0.0f, 1.0004f);  // within the 1e-3 tolerance
  s.restitution = 1.0f;
  s.friction = 0.0f;
  s.override_mass = 3.0f;
  s.allowed_dofs = AllowedDOFs::Plane2D;
  EXPECT_EQ(error_of(s), "<ok>");
}

TEST(BodyCreationSettings, EachBadFieldIsNamed) {
  struct Case {
    void (*mutate)(BodyCreationSettings&);
    const char* message;
  };
  const Case cases[] = {
      {[](BodyCreationSettings& s) { s.shape = nullptr; },
       "BodyCreationSettings.shape: must not be null"},
      {[](BodyCreationSettings& s) { s.position = Vec3(k_nan, 0, 0); },
       "BodyCreationSettings.position.x: must be finite, got nan"},
      {[](BodyCreationSettings& s) { s.position = Vec3(0, k_inf, 0); },
       "BodyCreationSettings.position.y: must be finite, got inf"},
      {[](BodyCreationSettings& s) { s.rotation = Quat(0, 0, 0, 2); },
       "BodyCreationSettings.rotation: must be a unit quaternion, got (0, 0, 0, 2) of length 2"},
      {[](BodyCreationSettings& s) { s.rotation = Quat(0, 0, 0, 1.01f); },
       "BodyCreationSettings.rotation: must be a unit quaternion, got (0, 0, 0, 1.01) of "
       "length 1.01"},
      {[](BodyCreationSettings& s) { s.rotation = Quat(k_nan, 0, 0, 1); },
       "BodyCreationSettings.rotation: must be finite, got (nan, 0, 0, 1)"},
      {[](BodyCreationSettings& s) { s.linear_velocity = Vec3(0, 0, k_nan); },
       "BodyCreationSettings.linear_velocity.z: must be finite, got nan"},
      {[](BodyCreationSettings& s) { s.angular_velocity = Vec3(-k_inf, 0, 0); },
       "BodyCreationSettings.angular_velocity.x: must be finite, got -inf"},
      {[](BodyCreationSettings& s) { s.motion_type = MotionType(9); },
       "BodyCreationSettings.motion_type: invalid value 9"},
      {[](BodyCreationSettings& s) {
         s.motion_type = MotionType::Static;
         s.linear_velocity = Vec3(1, 0, 0);
       },
       "BodyCreationSettings.linear_velocity: must be zero for a static body, got (1, 0, 0)"},
      {[](BodyCreationSettings& s) {
         s.motion_type = MotionType::Static;
         s.angular_velocity = Vec3(0, 0.5f, 0);
       },
       "BodyCreationSettings.angular_velocity: must be zero for a static body, got (0, 0.5, 0)"},
      {[](BodyCreationSettings& s) { s.motion_quality = MotionQuality(3); },
       "BodyCreationSettings.motion_quality: invalid value 3"},
      {[](BodyCreationSettings& s) { s.friction = -1.0f; },
       "BodyCreationSettings.friction: must be >= 0, got -1"},
      {[](BodyCreationSettings& s) { s.friction = k_nan; },
       "BodyCreationSettings.friction: must be finite, got nan"},
      {[](BodyCreationSettings& s) { s.friction = k_inf; },
       "BodyCreationSettings.friction: must be finite, got inf"},
      {[](BodyCreationSettings& s) { s.restitution = 1.5f; },
       "BodyCreationSettings.restitution: must be in [0, 1], got 1.5"},
      {[](BodyCreationSettings& s) { s.restitution = -0.1f; },
       "BodyCreationSettings.restitution: must be in [0, 1], got -0.1"},
      {[](BodyCreationSettings& s) { s.linear_damping = -0.5f; },
       "BodyCreationSettings.linear_damping: must be >= 0, got -0.5"},
      {[](BodyCreationSettings& s) { s.angular_damping = k_nan; },
       "BodyCreationSettings.angular_damping: must be finite, got nan"},
      {[](BodyCreationSettings& s) { s.max_linear_velocity = 0.0f; },
       "BodyCreationSettings.max_linear_velocity: must be > 0, got 0"},
      {[](BodyCreationSettings& s) { s.max_angular_velocity = -3.0f; },
       "BodyCreationSettings.max_angular_velocity: must be > 0, got -3"},
      {[](BodyCreationSettings& s) { s.gravity_factor = k_nan; },
       "BodyCreationSettings.gravity_factor: must be finite, got nan"},
      {[](BodyCreationSettings& s) { s.override_mass = -2.0f; },
       "BodyCreationSettings.override_mass: must be > 0, got -2"},
      {[](BodyCreationSettings& s) { s.override_mass = k_nan; },
       "BodyCreationSettings.override_mass: must be finite, got nan"},
      {[](BodyCreationSettings& s) { s.override_mass = 0.0f; },
       "BodyCreationSettings.override_mass: must be > 0, got 0"},
      {[](BodyCreationSettings& s) { s.allowed_dofs = AllowedDOFs(0x41); },
       "BodyCreationSettings.allowed_dofs: invalid flags 65 (valid: a combination of the six "
       "bits of All = 63)"},
      {[](BodyCreationSettings& s) { s.rolling_resistance = -0.01f; },
       "BodyCreationSettings.rolling_resistance: must be >= 0, got -0.01"},
      {[](BodyCreationSettings& s) { s.torsional_friction = k_nan; },
       "BodyCreationSettings.torsional_friction: must be finite, got nan"},
      {[](BodyCreationSettings& s) { s.allowed_dofs = AllowedDOFs::None; },
       "BodyCreationSettings.allowed_dofs: a dynamic body must be free along at least one axis, "
       "got None"},
      // Before: 1e38 m aborted in the broadphase; density 1e-40 was quarantined at step 0.
      {[](BodyCreationSettings& s) { s.position = Vec3(3e38f, 0, 0); },
       "BodyCreationSettings.position: each component must be within ±1e+07 m, got (3e+38, 0, "
       "0)"},
      {[](BodyCreationSettings& s) {
         // At the limit, a shape reaching 1 m past it.
         s.shape = test::triangle_mesh();
         s.motion_type = MotionType::Static;
         s.position = Vec3(1e7f, 0, 0);
       },
       "BodyCreationSettings.shape: the body's bounds must lie within ±1e+07 m of the origin, "
       "got (9999999, 0, -1) to (10000001, 0, 1)"},
      {[](BodyCreationSettings& s) { s.override_mass = 1e-12f; },
       "BodyCreationSettings.override_mass: a dynamic body needs a mass of at least 1e-09 kg, "
       "got 1e-12 kg"},
      {[](BodyCreationSettings& s) { s.shape = test::triangle_mesh(); },
       "BodyCreationSettings.shape: a dynamic body needs a shape with volume; a mesh has none "
       "(triangle meshes and height fields are for static and kinematic bodies)"},
  };
  for (const Case& c : cases) {
    BodyCreationSettings s = test::dynamic_cube();
    c.mutate(s);
    EXPECT_EQ(error_of(s), c.message);
  }
}

TEST(BodyCreationSettings, MasslessShapesAreFineWhenNotDynamic) {
  BodyCreationSettings s(test::triangle_mesh(), Vec3(), Quat(), MotionType::Static);
  EXPECT_EQ(error_of(s), "<ok>");
  s.motion_type = MotionType::Kinematic;
  EXPECT_EQ(error_of(s), "<ok>");
  // A dynamic mesh is refused even with a mass (it fell through the floor: the docs say static
  // or kinematic only).
  s.motion_type = MotionType::Dynamic;
  s.override_mass = 50.0f;
  EXPECT_NE(error_of(s), "<ok>");
  // Locked DOFs are fine on bodies that the solver never moves.
  s.motion_type = MotionType::Kinematic;
  s.allowed_dofs = AllowedDOFs::None;
  EXPECT_EQ(error_of(s), "<ok>");
}

TEST(BodyCreationSettings, MassPropertiesScaleToOverride) {
  BodyCreationSettings s = test::dynamic_cube();
  const MassProperties shape_mass = s.mass_properties();
  EXPECT_FLOAT_EQ(shape_mass.mass, 1000.0f);
  EXPECT_FLOAT_EQ(shape_mass.inertia(0, 0), 1000.0f / 6.0f);
  s.override_mass = 10.0f;
  const MassProperties scaled = s.mass_properties();
  EXPECT_FLOAT_EQ(scaled.mass, 10.0f);
  EXPECT_FLOAT_EQ(scaled.inertia(0, 0), 10.0f / 6.0f);
  EXPECT_FLOAT_EQ(scaled.inertia(2, 2), 10.0f / 6.0f);
  EXPECT_FLOAT_EQ(scaled.inertia(0, 1), 0.0f);
}

TEST(BodyCreationSettings, MasslessShapeWithOverrideGetsInertiaOfItsBounds) {
  BodyCreationSettings s(test::triangle_mesh(), Vec3(), Quat(), MotionType::Dynamic);
  s.override_mass = 12.0f;
  const MassProperties mass = s.mass_properties();
  // Bounds 2 × 0 × 2: I = m/12 · (sy² + sz², sx² + sz², sx² + sy²).
  EXPECT_FLOAT_EQ(mass.mass, 12.0f);
  EXPECT_FLOAT_EQ(mass.inertia(0, 0), 4.0f);
  EXPECT_FLOAT_EQ(mass.inertia(1, 1), 8.0f);
  EXPECT_FLOAT_EQ(mass.inertia(2, 2), 4.0f);
}

}  // namespace
}  // namespace body_creation_settings_test
}  // namespace atl
