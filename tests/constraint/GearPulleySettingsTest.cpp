// Gear, RackAndPinion and Pulley settings (issue 8 §2.2, §2.6): bad input is refused with the
// field named and nothing created (create returns no constraint) or changed; settings() reads back
// what was set (in local space, the pulley's −1 limits resolved); set_constraints checks the joint
// types and bodies.

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "atoll/constraint/GearConstraint.h"
#include "atoll/constraint/HingeConstraint.h"
#include "atoll/constraint/PulleyConstraint.h"
#include "atoll/constraint/RackAndPinionConstraint.h"
#include "atoll/constraint/SliderConstraint.h"
#include "atoll/shape/BoxShape.h"

namespace atl {
namespace gear_pulley_settings_test {
namespace {

constexpr float k_nan = std::numeric_limits<float>::quiet_NaN();

// Expects `made` to be an error whose message contains `text`.
void expect_error(const Result<Ref<Constraint>>& made, const std::string& text) {
  ASSERT_FALSE(made.ok()) << "expected an error naming " << text;
  EXPECT_NE(std::string(made.error().message()).find(text), std::string::npos)
      << made.error().message();
}
void expect_error(const Status& status, const std::string& text) {
  ASSERT_FALSE(status.ok()) << "expected an error naming " << text;
  EXPECT_NE(std::string(status.error().message()).find(text), std::string::npos)
      << status.error().message();
}

// Two dynamic unit cubes at (0, 5, 0) and (2, 5, 0).
struct TwoBodies {
  BodyManager manager;
  BodyInterface interface { manager };
  BodyID a, b;
  TwoBodies() {
    const Ref<const Shape> cube = make_ref<BoxShape>(Vec3(0.5f, 0.5f, 0.5f), 0.0f);
    const auto add = [&](const Vec3& at) {
      BodyCreationSettings s(cube, at, Quat::identity(), MotionType::Dynamic);
      return interface.create_and_add_body(s, Activation::Activate).value_or_throw();
    };
    a = add(Vec3(0.0f, 5.0f, 0.0f));
    b = add(Vec3(2.0f, 5.0f, 0.0f));
  }
};

TEST(GearPulleySettings, GearRefusesBadFields) {
  TwoBodies t;
  const BodyInterface& bodies = t.interface;
  GearConstraintSettings s;
  s.ratio = 0.0f;
  expect_error(s.create(bodies, t.a, t.b), "GearConstraintSettings.ratio: must be finite");
  s.ratio = k_nan;
  expect_error(s.create(bodies, t.a, t.b), "GearConstraintSettings.ratio");
  s.ratio = std::numeric_limits<float>::infinity();
  expect_error(s.create(bodies, t.a, t.b), "GearConstraintSettings.ratio");
  s = GearConstraintSettings{};
  s.hinge_axis1 = Vec3::zero();
  expect_error(s.create(bodies, t.a, t.b), "GearConstraintSettings.hinge_axis1");
  s = GearConstraintSettings{};
  s.hinge_axis2 = Vec3(k_nan, 0.0f, 0.0f);
  expect_error(s.create(bodies, t.a, t.b), "GearConstraintSettings.hinge_axis2");
  s = GearConstraintSettings{};
  s.common.break_impulse = 1.0f;
  expect_error(s.create(bodies, t.a, t.b), "GearConstraintSettings.common.break_impulse");
  s = GearConstraintSettings{};
  s.common.break_angular_impulse = -1.0f;
  expect_error(s.create(bodies, t.a, t.b), "GearConstraintSettings.break_angular_impulse");
  s = GearConstraintSettings{};
  expect_error(s.create(bodies, t.a, t.a), "GearConstraintSettings.body2");
  expect_error(s.create(bodies, Constraint::k_world, Constraint::k_world),
               "GearConstraintSettings.body2");
}

TEST(GearPulleySettings, RackAndPinionRefusesBadFields) {
  TwoBodies t;
  const BodyInterface& bodies = t.interface;
  RackAndPinionConstraintSettings s;
  s.ratio = 0.0f;
  expect_error(s.create(bodies, t.a, t.b), "RackAndPinionConstraintSettings.ratio: must be");
  s.ratio = k_nan;
  expect_error(s.create(bodies, t.a, t.b), "RackAndPinionConstraintSettings.ratio");
  s = RackAndPinionConstraintSettings{};
  s.hinge_axis = Vec3::zero();
  expect_error(s.create(bodies, t.a, t.b), "RackAndPinionConstraintSettings.hinge_axis");
  s = RackAndPinionConstraintSettings{};
  s.slider_axis = Vec3(0.0f, k_nan, 0.0f);
  expect_error(s.create(bodies, t.a, t.b), "RackAndPinionConstraintSettings.slider_axis");
  s = RackAndPinionConstraintSettings{};
  expect_error(s.create(bodies, t.b, t.b), "RackAndPinionConstraintSettings.body2");
}

TEST(GearPulleySettings, PulleyRefusesBadFields) {
  TwoBodies t;
  const BodyInterface& bodies = t.interface;
  PulleyConstraintSettings base;
  base.body_point1 = Vec3(0.0f, 5.5f, 0.0f);
  base.fixed_point1 = Vec3(0.0f, 8.0f, 0.0f);
  base.body_point2 = Vec3(2.0f, 5.5f, 0.0f);
  base.fixed_point2 = Vec3(2.0f, 8.0f, 0.0f);
  PulleyConstraintSettings s = base;
  s.ratio = 0.0f;
  expect_error(s.create(bodies, t.a, t.b),
               "PulleyConstraintSettings.ratio: must be finite and > 0");
  s.ratio = -2.0f;
  expect_error(s.create(bodies, t.a, t.b), "PulleyConstraintSettings.ratio");
  s.ratio = k_nan;
  expect_error(s.create(bodies, t.a, t.b), "PulleyConstraintSettings.ratio");
  s = base;
  s.fixed_point1 = Vec3(k_nan, 0.0f, 0.0f);
  expect_error(s.create(bodies, t.a, t.b), "PulleyConstraintSettings.fixed_point1");
  s = base;
  s.body_point2 = Vec3(0.0f, 0.0f, std::numeric_limits<float>::infinity());
  expect_error(s.create(bodies, t.a, t.b), "PulleyConstraintSettings.body_point2");
  s = base;
  s.min_length = -0.5f;
  expect_error(s.create(bodies, t.a, t.b), "PulleyConstraintSettings.min_length");
  s = base;
  s.max_length = k_nan;
  expect_error(s.create(bodies, t.a, t.b), "PulleyConstraintSettings.max_length");
  s = base;
  s.min_length = 4.0f;
  s.max_length = 3.0f;
  expect_error(s.create(bodies, t.a, t.b),
               "PulleyConstraintSettings.max_length: must be finite and >= min_length");
  s = base;
  s.min_length = 6.0f;  // max −1 resolves to the length at creation, 5 m: below min
  expect_error(s.create(bodies, t.a, t.b), "PulleyConstraintSettings.max_length");
  s = base;
  s.common.break_angular_impulse = 1.0f;
  expect_error(s.create(bodies, t.a, t.b), "PulleyConstraintSettings.common.break_angular_impulse");
  s = base;
  expect_error(s.create(bodies, t.a, BodyID(12345)), "PulleyConstraintSettings.body2");
}

TEST(GearPulleySettings, SettingsReadBackInLocalSpace) {
  TwoBodies t;
  const BodyInterface& bodies = t.interface;
  {
    GearConstraintSettings s;
    s.hinge_axis1 = Vec3(0.0f, 0.0f, 2.0f);
    s.hinge_axis2 = Vec3(0.0f, 0.0f, -1.0f);
    s.ratio = 2.5f;
    s.common.priority = 3;
    Result<Ref<Constraint>> c = s.create(bodies, t.a, t.b);
    ASSERT_TRUE(c.ok());
    const GearConstraintSettings back = static_cast<GearConstraint&>(*c.value()).settings();
    EXPECT_EQ(back.space, ConstraintSpace::LocalToBodyCOM);
    EXPECT_NEAR((back.hinge_axis1 - Vec3(0.0f, 0.0f, 1.0f)).length(), 0.0f, 1.0e-6f);
    EXPECT_NEAR((back.hinge_axis2 - Vec3(0.0f, 0.0f, -1.0f)).length(), 0.0f, 1.0e-6f);
    EXPECT_EQ(back.ratio, 2.5f);
    EXPECT_EQ(back.common.priority, 3u);
    // Created again from what it reads back, it is the same constraint.
    Result<Ref<Constraint>> again = back.create(bodies, t.a, t.b);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(static_cast<GearConstraint&>(*again.value()).settings(), back);
  }
  {
    RackAndPinionConstraintSettings s;
    s.hinge_axis = Vec3(0.0f, 0.0f, 1.0f);
    s.slider_axis = Vec3(3.0f, 0.0f, 0.0f);
    s.ratio = 10.0f;
    Result<Ref<Constraint>> c = s.create(bodies, t.a, t.b);
    ASSERT_TRUE(c.ok());
    const auto back = static_cast<RackAndPinionConstraint&>(*c.value()).settings();
    EXPECT_EQ(back.space, ConstraintSpace::LocalToBodyCOM);
    EXPECT_NEAR((back.slider_axis - Vec3(1.0f, 0.0f, 0.0f)).length(), 0.0f, 1.0e-6f);
    EXPECT_EQ(back.ratio, 10.0f);
  }
  {
    PulleyConstraintSettings s;
    s.body_point1 = Vec3(0.0f, 5.5f, 0.0f);
    s.fixed_point1 = Vec3(0.0f, 8.0f, 0.0f);
    s.body_point2 = Vec3(2.0f, 5.5f, 0.0f);
    s.fixed_point2 = Vec3(2.0f, 8.0f, 0.0f);
    s.ratio = 2.0f;
    Result<Ref<Constraint>> c = s.create(bodies, t.a, t.b);
    ASSERT_TRUE(c.ok());
    const auto& p = static_cast<PulleyConstraint&>(*c.value());
    const PulleyConstraintSettings back = p.settings();
    EXPECT_EQ(back.space, ConstraintSpace::LocalToBodyCOM);
    EXPECT_NEAR((back.body_point1 - Vec3(0.0f, 0.5f, 0.0f)).length(), 0.0f, 1.0e-5f);
    EXPECT_EQ(back.fixed_point2, s.fixed_point2);  // fixed points stay in world space
    EXPECT_EQ(back.min_length, 0.0f);
    EXPECT_NEAR(back.max_length, 2.5f + 2.0f * 2.5f, 1.0e-5f);  // −1: the length at creation
    EXPECT_NEAR(p.current_length(), 7.5f, 1.0e-5f);
  }
}

TEST(GearPulleySettings, PulleySetLengthRefusesBadLimits) {
  TwoBodies t;
  PulleyConstraintSettings s;
  s.body_point1 = Vec3(0.0f, 5.5f, 0.0f);
  s.fixed_point1 = Vec3(0.0f, 8.0f, 0.0f);
  s.body_point2 = Vec3(2.0f, 5.5f, 0.0f);
  s.fixed_point2 = Vec3(2.0f, 8.0f, 0.0f);
  Result<Ref<Constraint>> c = s.create(t.interface, t.a, t.b);
  ASSERT_TRUE(c.ok());
  auto& p = static_cast<PulleyConstraint&>(*c.value());
  expect_error(p.set_length(3.0f, 2.0f), "PulleyConstraint.max_length");
  expect_error(p.set_length(-1.0f, 2.0f), "PulleyConstraint.min_length");
  expect_error(p.set_length(1.0f, k_nan), "PulleyConstraint.max_length");
  EXPECT_EQ(p.settings().min_length, 0.0f);
  EXPECT_NEAR(p.settings().max_length, 5.0f, 1.0e-5f);
  ASSERT_TRUE(p.set_length(1.0f, 6.0f).ok());
  EXPECT_EQ(p.settings().max_length, 6.0f);
}

// set_constraints: the joints must be hinges (sliders) attaching the coupled bodies with
// parallel axes; a refused call changes nothing.
TEST(GearPulleySettings, SetConstraintsChecksJoints) {
  TwoBodies t;
  const BodyInterface& bodies = t.interface;
  HingeConstraintSettings hs;
  hs.hinge_axis1 = hs.hinge_axis2 = Vec3(0.0f, 0.0f, 1.0f);
  hs.normal_axis1 = hs.normal_axis2 = Vec3(1.0f, 0.0f, 0.0f);
  hs.point1 = hs.point2 = Vec3(0.0f, 5.0f, 0.0f);
  Result<Ref<Constraint>> h1 = hs.create(bodies, Constraint::k_world, t.a);
  hs.point1 = hs.point2 = Vec3(2.0f, 5.0f, 0.0f);
  Result<Ref<Constraint>> h2 = hs.create(bodies, t.b, Constraint::k_world);
  hs.hinge_axis1 = hs.hinge_axis2 = Vec3(0.0f, 1.0f, 0.0f);
  Result<Ref<Constraint>> h_tilted = hs.create(bodies, Constraint::k_world, t.b);
  SliderConstraintSettings ss;
  ss.slider_axis1 = Vec3(1.0f, 0.0f, 0.0f);
  Result<Ref<Constraint>> slider = ss.create(bodies, Constraint::k_world, t.b);
  ASSERT_TRUE(h1.ok() && h2.ok() && h_tilted.ok() && slider.ok());

  GearConstraintSettings gs;
  gs.hinge_axis1 = gs.hinge_axis2 = Vec3(0.0f, 0.0f, 1.0f);
  Result<Ref<Constraint>> g = gs.create(bodies, t.a, t.b);
  ASSERT_TRUE(g.ok());
  auto& gear = static_cast<GearConstraint&>(*g.value());
  expect_error(gear.set_constraints(slider.value(), h2.value()),
               "GearConstraint::set_constraints: hinge1: must be a hinge constraint, got a "
               "slider constraint");
  expect_error(gear.set_constraints(h2.value(), h2.value()),
               "GearConstraint::set_constraints: hinge1: does not attach the coupled body");
  expect_error(gear.set_constraints(h1.value(), h_tilted.value()),
               "GearConstraint::set_constraints: hinge2: its hinge axis is not parallel");
  expect_error(gear.set_constraints(h1.value(), nullptr),
               "GearConstraint::set_constraints: hinge2: is null");
  EXPECT_EQ(gear.constraint1(), nullptr);  // nothing changed
  EXPECT_EQ(gear.constraint2(), nullptr);
  // Hinge 2 has the gear's body as its body1 and its axis is the gear's: accepted.
  ASSERT_TRUE(gear.set_constraints(h1.value(), h2.value()).ok());
  EXPECT_EQ(gear.constraint1(), h1.value());
  EXPECT_EQ(gear.constraint2(), h2.value());
  expect_error(gear.set_constraints(h2.value(), h1.value()), "hinge1: does not attach");
  EXPECT_EQ(gear.constraint1(), h1.value());  // the refused call left the pair in place
  ASSERT_TRUE(gear.set_constraints(nullptr, nullptr).ok());
  EXPECT_EQ(gear.constraint1(), nullptr);

  RackAndPinionConstraintSettings rs;
  rs.hinge_axis = Vec3(0.0f, 0.0f, 1.0f);
  rs.slider_axis = Vec3(1.0f, 0.0f, 0.0f);
  Result<Ref<Constraint>> r = rs.create(bodies, t.a, t.b);
  ASSERT_TRUE(r.ok());
  auto& rack = static_cast<RackAndPinionConstraint&>(*r.value());
  expect_error(rack.set_constraints(h1.value(), h_tilted.value()),
               "RackAndPinionConstraint::set_constraints: slider: must be a slider constraint, "
               "got a hinge constraint");
  expect_error(rack.set_constraints(slider.value(), slider.value()),
               "RackAndPinionConstraint::set_constraints: hinge: must be a hinge constraint");
  rs.slider_axis = Vec3(0.0f, 1.0f, 0.0f);
  Result<Ref<Constraint>> r_tilted = rs.create(bodies, t.a, t.b);
  ASSERT_TRUE(r_tilted.ok());
  expect_error(static_cast<RackAndPinionConstraint&>(*r_tilted.value())
                   .set_constraints(h1.value(), slider.value()),
               "slider: its slider axis is not parallel");
  EXPECT_EQ(rack.constraint1(), nullptr);
  ASSERT_TRUE(rack.set_constraints(h1.value(), slider.value()).ok());
  EXPECT_EQ(rack.constraint2(), slider.value());
}

}  // namespace
}  // namespace gear_pulley_settings_test
}  // namespace atl
