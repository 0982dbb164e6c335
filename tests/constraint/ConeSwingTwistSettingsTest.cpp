// Cone and swing-twist settings (issue 8 §2.2, §2.6): create() refuses bad input with an error
// naming the field and creates nothing; settings() reads back what was set, in local space;
// the run-time setters refuse bad input and change nothing; motor targets clamp to the limits.

#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "atoll/body/BodyInterface.h"
#include "atoll/constraint/ConeConstraint.h"
#include "atoll/constraint/ConstraintManager.h"
#include "atoll/constraint/SwingTwistConstraint.h"
#include "body/BodyTestUtil.h"

namespace atl {
namespace cone_swing_twist_settings_test {
namespace {

constexpr float k_nan = std::numeric_limits<float>::quiet_NaN();
constexpr float k_inf = std::numeric_limits<float>::infinity();

class ConeSwingTwistSettingsTest : public ::testing::Test {
 protected:
  ConeSwingTwistSettingsTest() : bodies(manager) {
    a = bodies.create_and_add_body(test::dynamic_cube(Vec3(0, 0, 0)), Activation::Activate)
            .value_or_throw();
    BodyCreationSettings s = test::dynamic_cube(Vec3(2, 1, 0));
    s.rotation = Quat::rotation(Vec3(0, 0, 1), 0.5f);
    b = bodies.create_and_add_body(s, Activation::Activate).value_or_throw();
  }

  // Each case breaks one field; the error must name it and nothing may be created.
  template <class Settings>
  void expect_refused(
      const Settings& good,
      const std::vector<std::pair<std::function<void(Settings&)>, std::string>>& cases,
      BodyID body1, BodyID body2) {
    ASSERT_TRUE(good.create(bodies, body1, body2).ok());
    for (const auto& [breaker, field] : cases) {
      Settings s = good;
      breaker(s);
      Result<Ref<Constraint>> made = s.create(bodies, body1, body2);
      ASSERT_FALSE(made.ok()) << field;
      EXPECT_NE(std::string(made.error().message()).find(field), std::string::npos)
          << made.error().message() << " (expected " << field << ")";
      if (made) constraints.add(made.value());
    }
    EXPECT_EQ(constraints.size(), 0u);
  }

  BodyManager manager;
  BodyInterface bodies;
  ConstraintManager constraints;
  BodyID a, b;
};

TEST_F(ConeSwingTwistSettingsTest, ConeRefusesBadFields) {
  ConeConstraintSettings good;
  good.point1 = good.point2 = Vec3(1, 0.5f, 0);
  good.half_cone_angle = 0.5f;
  using S = ConeConstraintSettings;
  expect_refused<S>(
      good,
      {
          {[](S& s) { s.point1 = Vec3(k_nan, 0, 0); },
           "ConeConstraintSettings.point1: must be finite"},
          {[](S& s) { s.point2 = Vec3(0, k_inf, 0); },
           "ConeConstraintSettings.point2: must be finite"},
          {[](S& s) { s.twist_axis1 = Vec3(); },
           "ConeConstraintSettings.twist_axis1: must be a finite direction"},
          {[](S& s) { s.twist_axis2 = Vec3(0, k_nan, 1); }, "ConeConstraintSettings.twist_axis2"},
          {[](S& s) { s.half_cone_angle = -0.1f; },
           "ConeConstraintSettings.half_cone_angle: must be in [0, pi]"},
          {[](S& s) { s.half_cone_angle = 3.5f; }, "ConeConstraintSettings.half_cone_angle"},
          {[](S& s) { s.half_cone_angle = k_nan; }, "ConeConstraintSettings.half_cone_angle"},
          {[](S& s) { s.common.break_impulse = -1.0f; }, "ConeConstraintSettings.break_impulse"},
          {[](S& s) { s.common.break_angular_impulse = k_nan; },
           "ConeConstraintSettings.break_angular_impulse"},
      },
      a, b);
  // The bodies: both the world, the same body, a body that does not exist.
  EXPECT_FALSE(good.create(bodies, Constraint::k_world, Constraint::k_world).ok());
  Result<Ref<Constraint>> same = good.create(bodies, a, a);
  ASSERT_FALSE(same.ok());
  EXPECT_NE(std::string(same.error().message()).find("ConeConstraintSettings.body2"),
            std::string::npos);
  Result<Ref<Constraint>> missing = good.create(bodies, a, BodyID(1234));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(std::string(missing.error().message()).find("ConeConstraintSettings.body2"),
            std::string::npos);
}

TEST_F(ConeSwingTwistSettingsTest, ConeReadsBackLocalSettings) {
  ConeConstraintSettings s;
  s.common.priority = 3;
  s.common.break_angular_impulse = 2.0f;
  s.point1 = s.point2 = Vec3(1, 0.5f, 0);
  s.twist_axis1 = Vec3(2, 0, 0);
  s.twist_axis2 = Vec3(0, 3, 0);
  s.half_cone_angle = 0.7f;
  Result<Ref<Constraint>> made = s.create(bodies, a, b);
  ASSERT_TRUE(made.ok());
  auto& cone = static_cast<ConeConstraint&>(*made.value());
  EXPECT_EQ(cone.sub_type(), ConstraintSubType::Cone);
  const ConeConstraintSettings local = cone.settings();
  EXPECT_EQ(local.space, ConstraintSpace::LocalToBodyCOM);
  EXPECT_EQ(local.common, s.common);
  EXPECT_EQ(local.half_cone_angle, 0.7f);
  // Body a at the origin with identity rotation; b at (2, 1, 0) turned 0.5 rad about z.
  test::expect_vec_near(local.point1, Vec3(1, 0.5f, 0));
  test::expect_vec_near(local.twist_axis1, Vec3(1, 0, 0));
  const Quat rb = Quat::rotation(Vec3(0, 0, 1), 0.5f);
  test::expect_vec_near(local.point2, rb.conjugated() * Vec3(-1, -0.5f, 0));
  test::expect_vec_near(local.twist_axis2, rb.conjugated() * Vec3(0, 1, 0));
  // Local settings recreate the same constraint.
  Result<Ref<Constraint>> again = local.create(bodies, a, b);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(static_cast<ConeConstraint&>(*again.value()).settings(), local);
  // Run-time: a bad half angle changes nothing.
  EXPECT_FALSE(cone.set_half_cone_angle(-1.0f).ok());
  EXPECT_FALSE(cone.set_half_cone_angle(k_nan).ok());
  EXPECT_EQ(cone.settings().half_cone_angle, 0.7f);
  EXPECT_TRUE(cone.set_half_cone_angle(0.2f).ok());
  EXPECT_EQ(cone.settings().half_cone_angle, 0.2f);
}

SwingTwistConstraintSettings good_swing_twist() {
  SwingTwistConstraintSettings s;
  s.position1 = s.position2 = Vec3(1, 0.5f, 0);
  s.normal_half_cone_angle = 0.5f;
  s.plane_half_cone_angle = 0.3f;
  s.twist_min_angle = -0.2f;
  s.twist_max_angle = 0.4f;
  return s;
}

TEST_F(ConeSwingTwistSettingsTest, SwingTwistRefusesBadFields) {
  using S = SwingTwistConstraintSettings;
  const std::string p = "SwingTwistConstraintSettings.";
  expect_refused<S>(
      good_swing_twist(),
      {
          {[](S& s) { s.position1 = Vec3(k_nan, 0, 0); }, p + "position1: must be finite"},
          {[](S& s) { s.position2 = Vec3(0, 0, k_inf); }, p + "position2: must be finite"},
          {[](S& s) { s.twist_axis1 = Vec3(); }, p + "twist_axis1: must be a finite direction"},
          {[](S& s) { s.twist_axis2 = Vec3(k_inf, 0, 0); }, p + "twist_axis2"},
          {[](S& s) { s.plane_axis1 = Vec3(); }, p + "plane_axis1"},
          {[](S& s) { s.plane_axis2 = Vec3(k_nan, 1, 0); }, p + "plane_axis2"},
          {[](S& s) { s.plane_axis1 = Vec3(0.1f, 1, 0); },
           p + "plane_axis1: must be perpendicular to twist_axis1"},
          {[](S& s) { s.plane_axis2 = Vec3(1, 1, 0); },
           p + "plane_axis2: must be perpendicular to twist_axis2"},
          {[](S& s) { s.normal_half_cone_angle = -0.01f; },
           p + "normal_half_cone_angle: must be in [0, pi]"},
          {[](S& s) { s.normal_half_cone_angle = k_nan; }, p + "normal_half_cone_angle"},
          {[](S& s) { s.plane_half_cone_angle = 4.0f; },
           p + "plane_half_cone_angle: must be in [0, pi]"},
          {[](S& s) { s.twist_min_angle = -4.0f; }, p + "twist_min_angle: must be in [-pi, pi]"},
          {[](S& s) { s.twist_max_angle = k_inf; }, p + "twist_max_angle: must be in [-pi, pi]"},
          {[](S& s) { s.twist_min_angle = 0.5f; },
           p + "twist_max_angle: must be >= twist_min_angle"},
          {[](S& s) { s.max_friction_torque = -1.0f; },
           p + "max_friction_torque: must be finite and >= 0"},
          {[](S& s) { s.max_friction_torque = k_nan; }, p + "max_friction_torque"},
          {[](S& s) { s.swing_motor_settings.min_torque_limit = k_nan; },
           p + "swing_motor_settings"},
          {[](S& s) { s.twist_motor_settings.spring.frequency = k_nan; },
           p + "twist_motor_settings"},
          {[](S& s) {
             s.twist_motor_settings.min_torque_limit = 2.0f;
             s.twist_motor_settings.max_torque_limit = 1.0f;
           },
           p + "twist_motor_settings"},
          {[](S& s) { s.common.break_impulse = k_inf; }, p + "break_impulse"},
      },
      a, b);
  Result<Ref<Constraint>> same = good_swing_twist().create(bodies, b, b);
  ASSERT_FALSE(same.ok());
  EXPECT_NE(std::string(same.error().message()).find(p + "body2"), std::string::npos);
}

TEST_F(ConeSwingTwistSettingsTest, SwingTwistReadsBackAndSettersRefuseBadInput) {
  SwingTwistConstraintSettings s = good_swing_twist();
  s.twist_axis1 = s.twist_axis2 = Vec3(0, 0, 2);
  s.plane_axis1 = s.plane_axis2 = Vec3(1, 0, 0);
  s.max_friction_torque = 1.5f;
  s.swing_motor_settings.set_torque_limit(10.0f);
  Result<Ref<Constraint>> made = s.create(bodies, Constraint::k_world, b);
  ASSERT_TRUE(made.ok());
  auto& st = static_cast<SwingTwistConstraint&>(*made.value());
  EXPECT_EQ(st.sub_type(), ConstraintSubType::SwingTwist);
  const SwingTwistConstraintSettings local = st.settings();
  EXPECT_EQ(local.space, ConstraintSpace::LocalToBodyCOM);
  EXPECT_EQ(local.max_friction_torque, 1.5f);
  EXPECT_EQ(local.swing_motor_settings, s.swing_motor_settings);
  EXPECT_EQ(local.twist_min_angle, -0.2f);
  EXPECT_EQ(local.normal_half_cone_angle, 0.5f);
  test::expect_vec_near(local.position1, Vec3(1, 0.5f, 0));  // the world's frame is the world
  test::expect_vec_near(local.twist_axis1, Vec3(0, 0, 1));
  const Quat rb = Quat::rotation(Vec3(0, 0, 1), 0.5f);
  test::expect_vec_near(local.position2, rb.conjugated() * Vec3(-1, -0.5f, 0));
  test::expect_vec_near(local.plane_axis2, rb.conjugated() * Vec3(1, 0, 0));
  Result<Ref<Constraint>> again = local.create(bodies, Constraint::k_world, b);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(static_cast<SwingTwistConstraint&>(*again.value()).settings(), local);

  // Setters: bad input refused, nothing changed.
  EXPECT_FALSE(st.set_limits(0.5f, 0.3f, 0.5f, 0.4f).ok());  // min > max
  EXPECT_FALSE(st.set_limits(k_nan, 0.3f, -0.2f, 0.4f).ok());
  EXPECT_EQ(st.settings(), local);
  EXPECT_FALSE(st.set_max_friction_torque(-2.0f).ok());
  EXPECT_EQ(st.settings().max_friction_torque, 1.5f);
  EXPECT_FALSE(st.set_target_angular_velocity_cs(Vec3(0, k_nan, 0)).ok());
  EXPECT_EQ(st.target_angular_velocity_cs(), Vec3());
  EXPECT_FALSE(st.set_target_orientation_cs(Quat(0, 0, 0, 0)).ok());
  EXPECT_FALSE(st.set_target_orientation_bs(Quat(k_nan, 0, 0, 1)).ok());
  EXPECT_EQ(st.target_orientation_cs(), Quat::identity());

  // Targets clamp to the limits: a twist of 0.8 rad to the maximum 0.4; a swing of 1 rad
  // about Y (limit 0.3) and about Z (limit 0.5) to the cone's edge.
  ASSERT_TRUE(st.set_target_orientation_cs(Quat::rotation(Vec3::axis_x(), 0.8f)).ok());
  Vec3 axis;
  float angle = 0.0f;
  st.target_orientation_cs().to_axis_angle(axis, angle);
  EXPECT_NEAR(angle, 0.4f, 1.0e-5f);
  EXPECT_NEAR(axis.x(), 1.0f, 1.0e-5f);
  ASSERT_TRUE(st.set_target_orientation_cs(Quat::rotation(Vec3::axis_y(), -1.0f)).ok());
  st.target_orientation_cs().to_axis_angle(axis, angle);
  EXPECT_NEAR(angle, 0.3f, 1.0e-5f);
  EXPECT_NEAR(axis.y(), -1.0f, 1.0e-5f);
  ASSERT_TRUE(st.set_target_orientation_cs(Quat::rotation(Vec3::axis_z(), 1.0f)).ok());
  st.target_orientation_cs().to_axis_angle(axis, angle);
  EXPECT_NEAR(angle, 0.5f, 1.0e-5f);
  // A target inside the limits is kept; the twist range −0.2 clamps the twist part only.
  const Quat inside = Quat::rotation(Vec3(0, 1, 1).normalized(), 0.2f);
  ASSERT_TRUE(st.set_target_orientation_cs(inside).ok());
  EXPECT_TRUE(st.target_orientation_cs().is_close(inside, 1.0e-10f));
  // Narrowing the limits clamps the target: twist to [−0.1, 0.1] keeps this swing-only target.
  ASSERT_TRUE(st.set_limits(0.05f, 0.05f, -0.1f, 0.1f).ok());
  st.target_orientation_cs().to_axis_angle(axis, angle);
  EXPECT_NEAR(angle, 0.05f, 1.0e-4f);
  // Body space: body 2's rotation relative to body 1 (the world). At creation body b was turned
  // 0.5 rad about z (the twist axis) and the frames coincided, so q_bs = R_z(0.5) is the
  // identity in constraint space and R_z(0.3) is a twist of −0.2 rad.
  ASSERT_TRUE(st.set_limits(k_pi, k_pi, -k_pi, k_pi).ok());
  ASSERT_TRUE(st.set_target_orientation_bs(Quat::rotation(Vec3(0, 0, 1), 0.5f)).ok());
  st.target_orientation_cs().ensure_w_positive().to_axis_angle(axis, angle);
  EXPECT_NEAR(angle, 0.0f, 1.0e-5f);
  ASSERT_TRUE(st.set_target_orientation_bs(Quat::rotation(Vec3(0, 0, 1), 0.3f)).ok());
  st.target_orientation_cs().ensure_w_positive().to_axis_angle(axis, angle);
  EXPECT_NEAR(angle, 0.2f, 1.0e-5f);
  EXPECT_NEAR(axis.x(), -1.0f, 1.0e-4f);  // constraint X = the twist axis
}

}  // namespace
}  // namespace cone_swing_twist_settings_test
}  // namespace atl
