// SixDOFConstraintSettings: the axis helpers, bad input refused with the field named (nothing
// is created), and settings() reading back the local-space settings.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "atoll/body/BodyInterface.h"
#include "atoll/constraint/SixDOFConstraint.h"
#include "body/BodyTestUtil.h"

namespace atl {
namespace six_dof_settings_test {
namespace {

using Axis = SixDOFConstraintSettings::Axis;
constexpr float k_nan = std::numeric_limits<float>::quiet_NaN();
constexpr float k_inf = std::numeric_limits<float>::infinity();

class SixDOFSettingsTest : public ::testing::Test {
 protected:
  SixDOFSettingsTest() : bodies(manager) {
    a = bodies.create_and_add_body(test::dynamic_cube(), Activation::Activate).value();
    b = bodies.create_and_add_body(test::dynamic_cube(), Activation::Activate).value();
  }
  // Expects `change` applied to valid settings to be refused with a message starting with
  // `prefix`.
  void expect_refused(const std::function<void(SixDOFConstraintSettings&)>& change,
                      const std::string& prefix) {
    SixDOFConstraintSettings s;
    s.make_fixed_axis(Axis::TranslationX);
    s.set_limited_axis(Axis::RotationX, -0.5f, 0.5f);
    change(s);
    Result<Ref<Constraint>> c = s.create(bodies, a, b);
    ASSERT_FALSE(c.ok()) << prefix;
    const std::string message = c.error().message();
    EXPECT_EQ(message.rfind(prefix, 0), 0u) << message;
  }
  BodyManager manager;
  BodyInterface bodies;
  BodyID a, b;
};

TEST_F(SixDOFSettingsTest, AxisHelpers) {
  SixDOFConstraintSettings s;
  for (int i = 0; i < SixDOFConstraintSettings::k_num_axes; ++i) {
    EXPECT_TRUE(s.is_free_axis(Axis(i))) << i;  // the default: all free
    EXPECT_FALSE(s.is_fixed_axis(Axis(i))) << i;
  }
  s.make_fixed_axis(Axis::RotationY);
  EXPECT_TRUE(s.is_fixed_axis(Axis::RotationY));
  EXPECT_EQ(s.limit_min[Axis::RotationY], 0.0f);
  EXPECT_EQ(s.limit_max[Axis::RotationY], 0.0f);
  s.set_limited_axis(Axis::TranslationZ, -0.1f, 0.3f);
  EXPECT_FALSE(s.is_fixed_axis(Axis::TranslationZ));
  EXPECT_FALSE(s.is_free_axis(Axis::TranslationZ));
  s.set_limited_axis(Axis::RotationX, -k_pi, k_pi);  // the full angle range frees a rotation
  EXPECT_TRUE(s.is_free_axis(Axis::RotationX));
  s.set_limited_axis(Axis::TranslationY, -1.0e6f, 1.0e6f);  // a translation only at ±FLT_MAX
  EXPECT_FALSE(s.is_free_axis(Axis::TranslationY));
  s.make_free_axis(Axis::RotationY);
  EXPECT_TRUE(s.is_free_axis(Axis::RotationY));
  EXPECT_EQ(s.limit_min[Axis::RotationY], -k_float_max);
  EXPECT_EQ(s.swing_type, SwingType::Cone);  // Jolt's default
  EXPECT_STREQ(to_string(SwingType::Cone), "cone");
  EXPECT_STREQ(to_string(SwingType::Pyramid), "pyramid");
}

TEST_F(SixDOFSettingsTest, BadInputIsRefusedNamingTheField) {
  expect_refused([](auto& s) { s.common.break_impulse = -1.0f; }, "six_dof.break_impulse: ");
  expect_refused([](auto& s) { s.position1 = Vec3(k_nan, 0.0f, 0.0f); }, "six_dof.position1: ");
  expect_refused([](auto& s) { s.position2 = Vec3(0.0f, k_inf, 0.0f); }, "six_dof.position2: ");
  expect_refused([](auto& s) { s.axis_x1 = Vec3::zero(); }, "six_dof.axis_x1: ");
  expect_refused([](auto& s) { s.axis_y2 = Vec3(0.0f, k_nan, 0.0f); }, "six_dof.axis_y2: ");
  expect_refused([](auto& s) { s.axis_y1 = Vec3(0.1f, 1.0f, 0.0f); },
                 "six_dof.axis_y1: must be perpendicular to axis_x1");
  expect_refused([](auto& s) { s.axis_x2 = Vec3(0.0f, 1.0f, 1.0f); },
                 "six_dof.axis_y2: must be perpendicular to axis_x2");
  expect_refused([](auto& s) { s.limit_min[1] = k_nan; }, "six_dof.limit_min[1]: must be finite");
  expect_refused([](auto& s) { s.limit_max[2] = k_inf; }, "six_dof.limit_max[2]: must be finite");
  expect_refused([](auto& s) { s.set_limited_axis(Axis::TranslationY, 0.3f, 0.2f); },
                 "six_dof.limit_min[1]: must be <= limit_max[1]");
  expect_refused([](auto& s) { s.set_limited_axis(Axis::TranslationZ, k_float_max, k_float_max); },
                 "six_dof.limit_min[2]: a fixed axis (limit_min = limit_max) must be fixed at a "
                 "real value");
  expect_refused([](auto& s) { s.set_limited_axis(Axis::RotationX, -4.0f, 0.5f); },
                 "six_dof.limit_min[3]: a rotation limit must be in [-pi, pi]");
  expect_refused([](auto& s) { s.set_limited_axis(Axis::RotationZ, -0.5f, 3.5f); },
                 "six_dof.limit_max[5]: a rotation limit must be in [-pi, pi]");
  expect_refused([](auto& s) { s.set_limited_axis(Axis::RotationY, -0.2f, 0.6f); },
                 "six_dof.limit_min[4]: with swing_type cone the rotation Y and Z limits must be "
                 "symmetric");
  expect_refused([](auto& s) { s.swing_type = static_cast<SwingType>(7); },
                 "six_dof.swing_type: unknown value 7");
  expect_refused([](auto& s) { s.limits_spring_settings[2].frequency = -1.0f; },
                 "six_dof.limits_spring_settings[2].");
  expect_refused([](auto& s) { s.max_friction[4] = -0.1f; },
                 "six_dof.max_friction[4]: must be finite and >= 0");
  expect_refused([](auto& s) { s.max_friction[0] = k_nan; }, "six_dof.max_friction[0]: ");
  expect_refused([](auto& s) { s.motor_settings[5].min_torque_limit = k_nan; },
                 "six_dof.motor_settings[5].");
  expect_refused([](auto& s) { s.motor_settings[0].spring.damping = -1.0f; },
                 "six_dof.motor_settings[0].");

  // The bodies: the same body twice, both the world, an unknown body.
  SixDOFConstraintSettings s;
  Result<Ref<Constraint>> c = s.create(bodies, a, a);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(std::string(c.error().message()).rfind("six_dof.body2: ", 0), 0u);
  c = s.create(bodies, Constraint::k_world, Constraint::k_world);
  ASSERT_FALSE(c.ok());
  c = s.create(bodies, a, BodyID(12345));
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(std::string(c.error().message()).rfind("six_dof.body2: ", 0), 0u);

  // Valid edge cases are accepted: asymmetric Y limits in the pyramid, a fixed rotation at a
  // non-zero angle, the full angle range, a one-sided translation limit.
  s.swing_type = SwingType::Pyramid;
  s.set_limited_axis(Axis::RotationY, -0.2f, 0.6f);
  s.set_limited_axis(Axis::RotationZ, 0.3f, 0.3f);
  s.set_limited_axis(Axis::RotationX, -k_pi, k_pi);
  s.set_limited_axis(Axis::TranslationX, 0.0f, k_float_max);
  EXPECT_TRUE(s.create(bodies, a, b).ok());
  EXPECT_TRUE(s.create(bodies, Constraint::k_world, b).ok());
}

TEST_F(SixDOFSettingsTest, SettingsReadBackInLocalSpace) {
  // Body b at the origin of its own frame (test cube at the origin, identity rotation); a
  // world-space frame rotated by 90° about Z: X → +y, Y → −x.
  const Vec3 pa = bodies.body(a).value()->center_of_mass_position();
  const Vec3 pb = bodies.body(b).value()->center_of_mass_position();
  SixDOFConstraintSettings s;
  s.position1 = s.position2 = Vec3(0.5f, 1.0f, 2.0f);
  s.axis_x1 = s.axis_x2 = Vec3(0.0f, 2.0f, 0.0f);  // normalized by create
  s.axis_y1 = s.axis_y2 = Vec3(-1.0f, 0.0f, 0.0f);
  s.swing_type = SwingType::Pyramid;
  s.set_limited_axis(Axis::RotationY, -0.2f, 0.6f);
  s.max_friction[3] = 2.0f;
  s.limits_spring_settings[1] = SpringSettings::frequency_and_damping(3.0f, 0.5f);
  s.motor_settings[4].set_torque_limit(7.0f);
  s.common.priority = 3;
  Result<Ref<Constraint>> c = s.create(bodies, a, b);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c.value()->sub_type(), ConstraintSubType::SixDOF);
  const SixDOFConstraintSettings back = static_cast<SixDOFConstraint&>(*c.value()).settings();
  EXPECT_EQ(back.space, ConstraintSpace::LocalToBodyCOM);
  const Vec3 l1 = back.position1 - (Vec3(0.5f, 1.0f, 2.0f) - pa);
  const Vec3 l2 = back.position2 - (Vec3(0.5f, 1.0f, 2.0f) - pb);
  EXPECT_LT(l1.length(), 1.0e-6f);
  EXPECT_LT(l2.length(), 1.0e-6f);
  EXPECT_LT((back.axis_x1 - Vec3(0.0f, 1.0f, 0.0f)).length(), 1.0e-6f);
  EXPECT_LT((back.axis_y2 - Vec3(-1.0f, 0.0f, 0.0f)).length(), 1.0e-6f);
  EXPECT_EQ(back.limit_min, s.limit_min);
  EXPECT_EQ(back.limit_max, s.limit_max);
  EXPECT_EQ(back.max_friction, s.max_friction);
  EXPECT_EQ(back.limits_spring_settings, s.limits_spring_settings);
  EXPECT_EQ(back.motor_settings, s.motor_settings);
  EXPECT_EQ(back.swing_type, SwingType::Pyramid);
  EXPECT_EQ(back.common.priority, 3u);
  // Created again from the read-back settings: the same settings.
  Result<Ref<Constraint>> again = back.create(bodies, a, b);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(static_cast<SixDOFConstraint&>(*again.value()).settings() == back);

  // Run-time targets refuse non-finite input and keep the old value.
  auto& six = static_cast<SixDOFConstraint&>(*c.value());
  ASSERT_TRUE(six.set_target_velocity_cs(Vec3(1.0f, 2.0f, 3.0f)).ok());
  EXPECT_FALSE(six.set_target_velocity_cs(Vec3(k_nan, 0.0f, 0.0f)).ok());
  EXPECT_EQ(six.target_velocity_cs(), Vec3(1.0f, 2.0f, 3.0f));
  EXPECT_FALSE(six.set_target_angular_velocity_cs(Vec3(0.0f, k_inf, 0.0f)).ok());
  EXPECT_FALSE(six.set_target_position_cs(Vec3(0.0f, 0.0f, k_nan)).ok());
  EXPECT_FALSE(six.set_target_orientation_cs(Quat(0.0f, 0.0f, 0.0f, 0.0f)).ok());
  ASSERT_TRUE(six.set_target_orientation_cs(Quat(0.0f, 0.0f, 0.0f, -2.0f)).ok());
  EXPECT_EQ(six.target_orientation_cs(), Quat::identity());  // normalized, w ≥ 0
  six.set_motor_state(Axis::RotationZ, MotorState::Position);
  EXPECT_EQ(six.motor_state(Axis::RotationZ), MotorState::Position);
  EXPECT_EQ(six.motor_state(Axis::TranslationX), MotorState::Off);
}

}  // namespace
}  // namespace six_dof_settings_test
}  // namespace atl
