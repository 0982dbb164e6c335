// Cone and swing-twist constraint laws (LAWS.md §D, seed 003, issue 8 §2.2): thrown bodies keep
// the joint point and the limits; twist limits and an elliptic swing cone hold against fast
// spins; velocity and position motors reach their targets; the friction torque holds below its
// limit and slips above; the angular break threshold disables the joint. Law conditions: dt =
// 1/60 s, 10 velocity and 2 position steps, sleeping off, damping 0. The comment beside each
// assertion gives the measured reading.

#include <memory>

#include "atoll/constraint/ConeConstraint.h"
#include "atoll/constraint/SwingTwistConstraint.h"
#include "laws/ConstraintLawUtil.h"
#include "laws/LawFixture.h"

namespace atl::laws {
namespace cone_swing_twist_laws_test {
namespace {

class ConeSwingTwistLaws : public LawFixture {};

// Angle (rad) between the world images of two body-local axes.
float axis_angle(LawWorld& world, BodyID a, const Vec3& axis_a, BodyID b, const Vec3& axis_b) {
  const Quat ra = a == Constraint::k_world ? Quat() : world.body(a).rotation();
  const Vec3 u = ra * axis_a;
  const Vec3 v = world.body(b).rotation() * axis_b;
  return std::atan2(u.cross(v).length(), u.dot(v));
}

// Swing and twist of body b relative to body a (rad) for constraint frames that are the
// bodies' frames at creation (twist about x): the twist angle, and how far the swing passes
// an elliptic cone of half-angles `y_half` (about y) and `z_half` (about z) along its own
// direction (≤ 0 inside).
struct SwingTwistReading {
  float twist = 0.0f;
  float swing_excess = 0.0f;
};
SwingTwistReading swing_twist_reading(LawWorld& world, BodyID a, BodyID b, float y_half,
                                      float z_half) {
  const Quat ra = a == Constraint::k_world ? Quat() : world.body(a).rotation();
  const Quat q = (ra.conjugated() * world.body(b).rotation()).normalized().ensure_w_positive();
  Quat swing, twist;
  q.swing_twist(swing, twist);
  SwingTwistReading r;
  r.twist = 2.0f * std::atan2(twist.x(), twist.w());
  const float sy = swing.y(), sz = swing.z();
  const float s = std::sqrt(sy * sy + sz * sz);
  if (s > 1.0e-9f) {
    // The cone's edge along (sy, sz): sin(edge/2) = s/√f with f the ellipse's value there.
    const float f = square(sy / std::sin(0.5f * y_half)) + square(sz / std::sin(0.5f * z_half));
    const float edge = 2.0f * std::asin(std::min(1.0f, s / std::sqrt(f)));
    r.swing_excess = 2.0f * std::asin(std::min(1.0f, s)) - edge;
  } else {
    r.swing_excess = -std::min(y_half, z_half);
  }
  return r;
}

// A cone joint between two thrown boxes (axis x, half angle 0.15 rad, at their midpoint) keeps
// its point (< 1 mm over the second second) and never opens the cone by more than 0.01 rad
// over 2 s; the throw does reach the cone.
TEST_F(ConeSwingTwistLaws, ConeJointHoldsThrownBodies) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    LawWorld world;
    const ThrownPair p = thrown_pair(world, seed);
    ConeConstraintSettings s;
    s.point1 = s.point2 = Vec3(0.5f, 10.0f, 0.0f);
    s.half_cone_angle = 0.15f;
    const Ref<Constraint> c = add(world, s.create(world.bodies(), p.a, p.b));
    ASSERT_NE(c, nullptr);
    const ConeConstraintSettings local = static_cast<ConeConstraint&>(*c).settings();
    float error = 0.0f, angle = 0.0f;
    world.run(120, [&](int step) {
      angle = std::max(angle, axis_angle(world, p.a, local.twist_axis1, p.b, local.twist_axis2));
      if (step < 60) return;
      error = std::max(
          error,
          (world_point(world, p.a, local.point1) - world_point(world, p.b, local.point2)).length());
    });
    const std::string key = ".seed" + std::to_string(seed);
    report("Cone.thrown_separation_mm" + key, error * 1000.0f);
    report("Cone.thrown_max_angle_rad" + key, angle);
    EXPECT_LT(error, 0.001f);  // measured 0.081, 0.576, 0.330 mm
    EXPECT_LT(angle, 0.16f);   // measured 0.1500, 0.1434, 0.1500 rad
    EXPECT_GT(angle, 0.14f);   // the cone was reached
  }
}

// A swing-twist joint between two thrown boxes (twist x in [−0.1, 0.15], swing 0.1 about y and
// 0.2 about z) keeps its point (< 1 mm over the second second) and its limits (never passed by
// more than 0.01 rad over 2 s); the throws reach the cone.
TEST_F(ConeSwingTwistLaws, SwingTwistJointHoldsThrownBodies) {
  float most_excess = -1.0f;
  for (uint32_t seed : {1u, 2u, 3u}) {
    LawWorld world;
    const ThrownPair p = thrown_pair(world, seed);
    SwingTwistConstraintSettings s;
    s.position1 = s.position2 = Vec3(0.5f, 10.0f, 0.0f);
    s.plane_half_cone_angle = 0.1f;
    s.normal_half_cone_angle = 0.2f;
    s.twist_min_angle = -0.1f;
    s.twist_max_angle = 0.15f;
    const Ref<Constraint> c = add(world, s.create(world.bodies(), p.a, p.b));
    ASSERT_NE(c, nullptr);
    const SwingTwistConstraintSettings local = static_cast<SwingTwistConstraint&>(*c).settings();
    float error = 0.0f, excess = -1.0f, lo = 0.0f, hi = 0.0f;
    world.run(120, [&](int step) {
      const SwingTwistReading r = swing_twist_reading(world, p.a, p.b, 0.1f, 0.2f);
      excess = std::max(excess, r.swing_excess);
      lo = std::min(lo, r.twist);
      hi = std::max(hi, r.twist);
      if (step < 60) return;
      error = std::max(error, (world_point(world, p.a, local.position1) -
                               world_point(world, p.b, local.position2))
                                  .length());
    });
    const std::string key = ".seed" + std::to_string(seed);
    report("SwingTwist.thrown_separation_mm" + key, error * 1000.0f);
    report("SwingTwist.thrown_swing_excess_rad" + key, excess);
    report("SwingTwist.thrown_twist_min_rad" + key, lo);
    report("SwingTwist.thrown_twist_max_rad" + key, hi);
    EXPECT_LT(error, 0.001f);  // measured 0.083, 0.567, 0.350 mm
    EXPECT_LT(excess, 0.01f);  // measured 0.0012, −0.0185 (not reached), 0.0026 rad
    EXPECT_GT(lo, -0.11f);     // measured −0.1000, −0.1000, −0.0999 rad
    EXPECT_LT(hi, 0.16f);      // measured 0, 0.0538, 0 rad
    most_excess = std::max(most_excess, excess);
  }
  EXPECT_GT(most_excess, -0.01f);  // the cone was reached by a throw
}

// An arm on a swing-twist joint to the world, no gravity: a 1 m box whose joint is at its near
// end (the origin), twist axis x, plane axis y.
struct Arm {
  std::unique_ptr<LawWorld> world;
  BodyID arm;
  Ref<Constraint> joint;
  SwingTwistConstraint& st() { return static_cast<SwingTwistConstraint&>(*joint); }
};
Arm make_arm(const SwingTwistConstraintSettings& base, const Vec3& angular_velocity = Vec3(),
             bool centred = false) {
  PhysicsSettings settings = law_settings();
  settings.gravity = Vec3::zero();
  Arm arm;
  arm.world = std::make_unique<LawWorld>(settings);
  BodyOptions o;
  o.mass = 10.0f;
  o.angular_velocity = angular_velocity;
  // Centred: a sphere whose centre is the joint (the motor and friction tests, where only the
  // torque about the joint matters).
  arm.arm =
      centred ? arm.world->add_sphere(
                    0.2f, Vec3(), BodyOptions{.mass = 100.0f, .angular_velocity = angular_velocity})
              : arm.world->add_box(Vec3(0.5f, 0.1f, 0.1f), Vec3(0.5f, 0.0f, 0.0f), o);
  SwingTwistConstraintSettings s = base;
  s.position1 = s.position2 = Vec3();
  arm.joint = add(*arm.world, s.create(arm.world->bodies(), Constraint::k_world, arm.arm));
  return arm;
}

// Angle (rad) of body b's rotation from `target` (body 1 the world, frames = world axes).
float error_from(LawWorld& world, BodyID b, const Quat& target) {
  const Quat e = (world.body(b).rotation() * target.conjugated()).normalized().ensure_w_positive();
  return 2.0f * std::asin(std::min(1.0f, e.xyz().length()));
}

SwingTwistConstraintSettings free_limits() {
  SwingTwistConstraintSettings s;
  s.normal_half_cone_angle = s.plane_half_cone_angle = k_pi;
  s.twist_min_angle = -k_pi;
  s.twist_max_angle = k_pi;
  return s;
}

// The twist limits [−0.2, 0.4] hold against a twist of ±3 rad/s (passed by < 0.01 rad), and
// the arm rests at them.
TEST_F(ConeSwingTwistLaws, SwingTwistTwistLimitsHold) {
  SwingTwistConstraintSettings s;
  s.normal_half_cone_angle = s.plane_half_cone_angle = 0.5f;
  s.twist_min_angle = -0.2f;
  s.twist_max_angle = 0.4f;
  for (const float w : {3.0f, -3.0f}) {
    Arm arm = make_arm(s, Vec3(w, 0.0f, 0.0f));
    ASSERT_NE(arm.joint, nullptr);
    float lo = 0.0f, hi = 0.0f;
    arm.world->run(120, [&](int) {
      const SwingTwistReading r =
          swing_twist_reading(*arm.world, Constraint::k_world, arm.arm, 0.5f, 0.5f);
      lo = std::min(lo, r.twist);
      hi = std::max(hi, r.twist);
    });
    const std::string key = w > 0.0f ? ".w3" : ".w-3";
    report("SwingTwist.twist_limits.min_rad" + key, lo);
    report("SwingTwist.twist_limits.max_rad" + key, hi);
    EXPECT_GT(lo, -0.21f);  // measured 0 (w 3), −0.2000 (w −3)
    EXPECT_LT(hi, 0.41f);   // measured 0.4000 (w 3), 0 (w −3)
    if (w > 0.0f)
      EXPECT_GT(hi, 0.39f);  // reached the maximum
    else
      EXPECT_LT(lo, -0.19f);  // reached the minimum
  }
}

// An elliptic cone, 0.3 rad about y (plane) and 0.8 rad about z (normal): a swing about y
// stops at 0.3 rad, one about z at 0.8 rad, each passed by < 0.01 rad (measured as the angle of
// the arm's axis from x).
TEST_F(ConeSwingTwistLaws, SwingTwistEllipticConeHolds) {
  SwingTwistConstraintSettings s;
  s.plane_half_cone_angle = 0.3f;
  s.normal_half_cone_angle = 0.8f;
  s.twist_min_angle = -0.1f;
  s.twist_max_angle = 0.1f;
  struct Case {
    Vec3 w;
    float limit;
    const char* name;
  };
  for (const Case& c : {Case{Vec3(0, 3, 0), 0.3f, "y+"}, Case{Vec3(0, -3, 0), 0.3f, "y-"},
                        Case{Vec3(0, 0, 3), 0.8f, "z+"}, Case{Vec3(0, 0, -3), 0.8f, "z-"},
                        Case{Vec3(0, 3, 3), 0.8f, "yz"}}) {
    Arm arm = make_arm(s, c.w);
    ASSERT_NE(arm.joint, nullptr);
    float angle = 0.0f, excess = -1.0f;
    arm.world->run(120, [&](int) {
      angle = std::max(angle, axis_angle(*arm.world, Constraint::k_world, Vec3::axis_x(), arm.arm,
                                         Vec3::axis_x()));
      excess = std::max(
          excess,
          swing_twist_reading(*arm.world, Constraint::k_world, arm.arm, 0.3f, 0.8f).swing_excess);
    });
    report(std::string("SwingTwist.elliptic_cone.max_angle_rad.") + c.name, angle);
    report(std::string("SwingTwist.elliptic_cone.max_excess_rad.") + c.name, excess);
    // Measured excess 0.00033 (y±), 0.00034 (z±), 0.0034 (yz) rad; angle 0.3003 (y±), 0.8003
    // (z±), 0.8024 (yz) rad.
    EXPECT_LT(excess, 0.01f) << c.name;
    EXPECT_LT(angle, c.limit + 0.01f) << c.name;
    if (c.name[1] != 'z') {
      EXPECT_GT(angle, c.limit - 0.02f) << c.name;  // the cone was reached
    }
  }
}

// Velocity motors (D4): constraint space 1 with X = world z, Y = world x (Z = world y); a
// target of (0.6, −0.4, 0.3) rad/s there turns the sphere at 0.6 about z, −0.4 about x and 0.3
// about y (within 0.01 rad/s after 0.5 s).
TEST_F(ConeSwingTwistLaws, SwingTwistVelocityMotorsReachTarget) {
  SwingTwistConstraintSettings s = free_limits();
  s.twist_axis1 = s.twist_axis2 = Vec3(0, 0, 1);
  s.plane_axis1 = s.plane_axis2 = Vec3(1, 0, 0);
  Arm arm = make_arm(s, Vec3(), true);
  ASSERT_NE(arm.joint, nullptr);
  arm.st().set_swing_motor_state(MotorState::Velocity);
  arm.st().set_twist_motor_state(MotorState::Velocity);
  ASSERT_TRUE(arm.st().set_target_angular_velocity_cs(Vec3(0.6f, -0.4f, 0.3f)).ok());
  arm.world->run(30);
  const Vec3 w = arm.world->angular_velocity(arm.arm);
  report("SwingTwist.velocity_motor.wx", w.x());
  report("SwingTwist.velocity_motor.wy", w.y());
  report("SwingTwist.velocity_motor.wz", w.z());
  EXPECT_NEAR(w.x(), -0.4f, 0.01f);  // measured −0.4000
  EXPECT_NEAR(w.y(), 0.3f, 0.01f);   // measured 0.3000
  EXPECT_NEAR(w.z(), 0.6f, 0.01f);   // measured 0.6000
  // Only the twist motor: its row acts about body 2's twist axis X2 (the rows act about
  // constraint space 2's axes, as in Jolt) and drives the rate about it to the target's
  // projection, −0.5·(X1·X2) rad/s; the swing stays free (the sphere keeps the 0.5 rad/s it had
  // across X2).
  arm.st().set_swing_motor_state(MotorState::Off);
  ASSERT_TRUE(arm.st().set_target_angular_velocity_cs(Vec3(-0.5f, 0.0f, 0.0f)).ok());
  arm.world->run(30);
  const Vec3 w2 = arm.world->angular_velocity(arm.arm);
  const Vec3 twist_axis = arm.world->body(arm.arm).rotation() * arm.st().settings().twist_axis2;
  const float twist_rate = w2.dot(twist_axis);
  const float swing_rate = (w2 - twist_axis * twist_rate).length();
  const float projected = -0.5f * twist_axis.z();  // X1 = world z
  report("SwingTwist.velocity_motor.twist_only.twist_rate", twist_rate);
  report("SwingTwist.velocity_motor.twist_only.projected_target", projected);
  report("SwingTwist.velocity_motor.twist_only.swing_rate", swing_rate);
  EXPECT_LT(projected, -0.4f);
  // Measured −0.4411 against −0.4392: the row holds the rate about the axis at the start of
  // the step, which the 0.5 rad/s swing turns by 0.008 rad within it.
  EXPECT_NEAR(twist_rate, projected, 0.005f);
  EXPECT_NEAR(swing_rate, 0.5f, 0.01f);  // measured 0.5000
}

// Position motors (D4) with the default 2 Hz critically damped spring bring the arm to a target
// orientation inside the limits (within 0.01 rad); a target past the twist limit is clamped to
// it and reached there.
TEST_F(ConeSwingTwistLaws, SwingTwistPositionMotorsReachTarget) {
  SwingTwistConstraintSettings s;
  s.normal_half_cone_angle = s.plane_half_cone_angle = 1.0f;
  s.twist_min_angle = -0.5f;
  s.twist_max_angle = 0.5f;
  {
    Arm arm = make_arm(s);
    ASSERT_NE(arm.joint, nullptr);
    arm.st().set_swing_motor_state(MotorState::Position);
    arm.st().set_twist_motor_state(MotorState::Position);
    const Quat target = Quat::rotation(Vec3(1, 2, 3).normalized(), 0.7f);
    ASSERT_TRUE(arm.st().set_target_orientation_cs(target).ok());
    ASSERT_TRUE(arm.st().target_orientation_cs().is_close(target, 1.0e-10f));  // inside
    int reached = -1;
    arm.world->run(180, [&](int step) {
      const float e = error_from(*arm.world, arm.arm, target);
      if (reached < 0 && e < 0.01f) reached = step;
    });
    const float e = error_from(*arm.world, arm.arm, target);
    report("SwingTwist.position_motor.steps_to_0.01rad", reached);
    report("SwingTwist.position_motor.error_rad_after_3s", e);
    EXPECT_GE(reached, 0);  // measured: step 56
    EXPECT_LT(e, 0.01f);    // measured 2.5e-5 rad after 3 s
  }
  {
    Arm arm = make_arm(s);
    ASSERT_NE(arm.joint, nullptr);
    arm.st().set_swing_motor_state(MotorState::Position);
    arm.st().set_twist_motor_state(MotorState::Position);
    ASSERT_TRUE(arm.st().set_target_orientation_bs(Quat::rotation(Vec3::axis_x(), 1.2f)).ok());
    arm.world->run(180);
    const SwingTwistReading r =
        swing_twist_reading(*arm.world, Constraint::k_world, arm.arm, 1.0f, 1.0f);
    report("SwingTwist.position_motor.clamped_twist_rad", r.twist);
    EXPECT_NEAR(r.twist, 0.5f, 0.01f);  // measured 0.5000 rad
  }
}

// Friction (max_friction_torque 5 N·m, motors off, free limits): a 100 kg sphere (I = 1.6
// kg·m²) centred on the joint holds still under 3 N·m about the twist axis or a swing axis and
// turns under 8 N·m at the excess (8 − 5)/I = 1.875 rad/s² (0.9375 rad/s after 0.5 s).
TEST_F(ConeSwingTwistLaws, SwingTwistFrictionHoldsBelowAndSlipsAbove) {
  SwingTwistConstraintSettings s = free_limits();
  s.max_friction_torque = 5.0f;
  for (const Vec3& axis : {Vec3::axis_x(), Vec3::axis_y(), Vec3::axis_z()}) {
    for (const float torque : {3.0f, 8.0f}) {
      Arm arm = make_arm(s, Vec3(), true);
      ASSERT_NE(arm.joint, nullptr);
      for (int i = 0; i < 30; ++i) {
        ASSERT_TRUE(arm.world->bodies().add_torque(arm.arm, axis * torque).ok());
        arm.world->step();
      }
      const float w = arm.world->angular_velocity(arm.arm).dot(axis);
      const std::string key = "SwingTwist.friction.w_after_0.5s.axis" +
                              std::to_string(int(axis.y() + 2 * axis.z())) + ".torque" +
                              std::to_string(int(torque));
      report(key, w);
      if (torque < 5.0f)
        EXPECT_NEAR(w, 0.0f, 1.0e-4f) << key;  // measured 0 on each axis
      else
        EXPECT_NEAR(w, 0.9375f, 0.01f) << key;  // measured 0.9375 on each axis
    }
  }
}

// A velocity motor is held to its torque limit: a swing target of 5 rad/s about Z with the
// swing motor limited to 2 N·m turns the sphere (I = 1.6 kg·m²) at 1.25 rad/s², 0.625 rad/s
// after 0.5 s, and the motor's impulse is the limit × dt each step.
TEST_F(ConeSwingTwistLaws, SwingTwistMotorTorqueLimit) {
  SwingTwistConstraintSettings s = free_limits();
  s.swing_motor_settings.set_torque_limit(2.0f);
  Arm arm = make_arm(s, Vec3(), true);
  ASSERT_NE(arm.joint, nullptr);
  arm.st().set_swing_motor_state(MotorState::Velocity);
  ASSERT_TRUE(arm.st().set_target_angular_velocity_cs(Vec3(0.0f, 0.0f, 5.0f)).ok());
  arm.world->run(30);
  const float w = arm.world->angular_velocity(arm.arm).z();
  const Vec3 lambda = arm.st().total_lambda_motor();
  report("SwingTwist.motor_torque_limit.wz_after_0.5s", w);
  report("SwingTwist.motor_torque_limit.lambda_z", lambda.z());
  EXPECT_NEAR(w, 0.625f, 0.005f);                 // measured 0.6250
  EXPECT_NEAR(lambda.z(), 2.0f * k_dt, 1.0e-5f);  // measured 0.03333 N·m·s
  EXPECT_EQ(lambda.x(), 0.0f);                    // the twist motor is off
}

// The cone holds a fast swing (speculative row): an arm on a cone of 0.5 rad to the world,
// spun at 3 and 10 rad/s about z and about (0, 1, 1), never passes it by more than 0.01 rad.
TEST_F(ConeSwingTwistLaws, ConeLimitHoldsAgainstFastSwing) {
  for (const Vec3& w : {Vec3(0, 0, 3), Vec3(0, 0, 10), Vec3(0, 3, 3), Vec3(0, -7, 7)}) {
    PhysicsSettings settings = law_settings();
    settings.gravity = Vec3::zero();
    LawWorld world(settings);
    const BodyID arm = world.add_box(Vec3(0.5f, 0.1f, 0.1f), Vec3(0.5f, 0.0f, 0.0f),
                                     BodyOptions{.mass = 10.0f, .angular_velocity = w});
    ConeConstraintSettings s;
    s.half_cone_angle = 0.5f;
    const Ref<Constraint> c = add(world, s.create(world.bodies(), Constraint::k_world, arm));
    ASSERT_NE(c, nullptr);
    auto& cone = static_cast<ConeConstraint&>(*c);
    float angle = 0.0f, lambda = 0.0f;
    world.run(120, [&](int) {
      angle = std::max(angle,
                       axis_angle(world, Constraint::k_world, Vec3::axis_x(), arm, Vec3::axis_x()));
      lambda = std::min(lambda, cone.total_lambda_rotation());
    });
    const std::string key =
        "Cone.fast_swing.w" + std::to_string(int(w.y())) + "_" + std::to_string(int(w.z()));
    report(key + ".max_angle_rad", angle);
    report(key + ".min_lambda", lambda);
    EXPECT_LT(angle, 0.51f) << key;  // measured 0.5004, 0.5010, 0.5003, 0.5012 rad
    EXPECT_GT(angle, 0.49f) << key;  // the cone was reached
    EXPECT_LT(lambda, 0.0f) << key;  // the row pushed back (one-sided: λ ≤ 0)
  }
}

// Breaking (D5) by the angular threshold τ = 0.5 N·m·s: a torque T holds the body against a
// limit, whose row carries T·dt per step. T = 20 N·m (0.333 N·m·s) holds for a second; T = 40
// N·m (0.667 N·m·s) breaks it in the first step. Cone: body 2's axis starts on the cone (0.3
// rad), pushed outwards about z; swing-twist: the twist is locked ([0, 0]), pushed about x.
TEST_F(ConeSwingTwistLaws, BreakAngularImpulse) {
  for (const bool cone : {true, false}) {
    for (const float torque : {20.0f, 40.0f}) {
      PhysicsSettings settings = law_settings();
      settings.gravity = Vec3::zero();
      LawWorld world(settings);
      const BodyID ball = world.add_sphere(0.2f, Vec3(), BodyOptions{.mass = 10.0f});
      Result<Ref<Constraint>> made = Error("unset");
      Vec3 axis;
      if (cone) {
        ConeConstraintSettings s;
        s.twist_axis1 = Vec3::axis_x();
        s.twist_axis2 = Vec3(std::cos(0.3f), std::sin(0.3f), 0.0f);
        s.half_cone_angle = 0.3f;
        s.common.break_angular_impulse = 0.5f;
        made = s.create(world.bodies(), Constraint::k_world, ball);
        axis = Vec3::axis_z();
      } else {
        SwingTwistConstraintSettings s = free_limits();
        s.twist_min_angle = s.twist_max_angle = 0.0f;
        s.common.break_angular_impulse = 0.5f;
        made = s.create(world.bodies(), Constraint::k_world, ball);
        axis = Vec3::axis_x();
      }
      const Ref<Constraint> c = add(world, std::move(made));
      ASSERT_NE(c, nullptr);
      int broken_at = -1;
      float impulse = 0.0f;
      for (int step = 0; step < 60 && broken_at < 0; ++step) {
        ASSERT_TRUE(world.bodies().add_torque(ball, axis * torque).ok());
        const UpdateResult r = world.step();
        if (!r.broken.empty()) {
          EXPECT_EQ(r.broken[0], c);
          EXPECT_FALSE(c->is_enabled());
          broken_at = step;
        } else {
          impulse = c->angular_impulse();
        }
      }
      const std::string key =
          std::string(cone ? "Cone" : "SwingTwist") + ".break.torque" + std::to_string(int(torque));
      report(key + ".broken_at", broken_at);
      report(key + ".angular_impulse", impulse);
      if (torque < 30.0f) {
        EXPECT_EQ(broken_at, -1) << key;                    // held 60 steps (both types)
        EXPECT_NEAR(impulse, torque * k_dt, 0.01f) << key;  // measured 0.3333 (both types)
      } else {
        EXPECT_EQ(broken_at, 0) << key;  // broke in step 0 (both types)
      }
    }
  }
}

// The swing limit's impulse is the torque it holds × dt (N·m·s, LAWS.md §D: the row's λ is an
// angular impulse about a unit axis, whatever the row's state). A ball (10 kg, r 0.2 m, its
// centre on the joint) on a circular cone of 0.3 rad to the world, twist free, pushed outwards
// about z by 20 N·m: started 0.02 rad past the cone (violated row) the swing λ of step 0 is
// −20·dt; resting on the cone (speculative row) over the second half-second it stays −20·dt.
// (Before the rows were normalised these read −0.675 and −0.0504 N·m·s for −0.333.)
TEST_F(ConeSwingTwistLaws, SwingTwistSwingLimitImpulseIsTorqueTimesDt) {
  PhysicsSettings settings = law_settings();
  settings.gravity = Vec3::zero();
  LawWorld world(settings);
  const float torque = 20.0f;
  const BodyID ball = world.add_sphere(0.2f, Vec3(), BodyOptions{.mass = 10.0f});
  SwingTwistConstraintSettings s = free_limits();
  s.normal_half_cone_angle = s.plane_half_cone_angle = 0.3f;
  const float start = 0.32f;  // swing about z at creation (rad)
  s.twist_axis2 = Vec3(std::cos(start), std::sin(start), 0.0f);
  s.plane_axis2 = Vec3(-std::sin(start), std::cos(start), 0.0f);
  const Ref<Constraint> c = add(world, s.create(world.bodies(), Constraint::k_world, ball));
  ASSERT_NE(c, nullptr);
  auto& joint = static_cast<SwingTwistConstraint&>(*c);
  float first = 0.0f, rest_lo = k_float_max, rest_hi = -k_float_max, angle = 0.0f;
  Vec3 rest_vector;
  for (int step = 0; step < 60; ++step) {
    ASSERT_TRUE(world.bodies().add_torque(ball, Vec3(0.0f, 0.0f, torque)).ok());
    world.step();
    if (step == 0) first = joint.total_lambda_swing();
    if (step >= 30) {
      rest_lo = std::min(rest_lo, joint.total_lambda_swing());
      rest_hi = std::max(rest_hi, joint.total_lambda_swing());
      rest_vector = joint.swing_impulse();
    }
  }
  // The ball's twist axis (body frame = world frame at creation) from the cone's axis x.
  angle = axis_angle(world, Constraint::k_world, Vec3::axis_x(), ball, s.twist_axis2);
  const float expected = -torque * k_dt;
  report("SwingTwist.swing_impulse.first_violated", first);
  report("SwingTwist.swing_impulse.resting_min", rest_lo);
  report("SwingTwist.swing_impulse.resting_max", rest_hi);
  report("SwingTwist.swing_impulse.resting_angle_rad", angle);
  report("SwingTwist.angular_impulse", c->angular_impulse());
  EXPECT_NEAR(first, expected, 0.01f * torque * k_dt);    // measured −0.33333
  EXPECT_NEAR(rest_lo, expected, 0.01f * torque * k_dt);  // measured −0.33333
  EXPECT_NEAR(rest_hi, expected, 0.01f * torque * k_dt);  // measured −0.33333
  EXPECT_NEAR(angle, 0.3f, 1.0e-3f);  // resting on the cone: measured 0.30000 rad
  // The vector is about −z (measured (0, 0, −0.33333)); the break measure is its length.
  EXPECT_LT((rest_vector - Vec3(0.0f, 0.0f, expected)).length(), 0.01f * torque * k_dt);
  EXPECT_NEAR(c->angular_impulse(), torque * k_dt, 0.01f * torque * k_dt);  // measured 0.33333
}

// A hanging arm (10 kg box 0.1 × 1 × 0.1 m, the joint at its top end) on a cone of 0.3 rad
// whose axis is tilted 0.8 rad from straight down rests on the cone's edge 0.5 rad from
// vertical; the limit holds gravity's torque about the joint, m·g·(L/2)·sin 0.5 = 23.5 N·m, so
// its λ is 0.392 N·m·s a step once the arm has settled (second 2 to 3).
TEST_F(ConeSwingTwistLaws, HangingArmOnSwingLimitHoldsGravityTorque) {
  LawWorld world(law_settings());
  const float rest = 0.5f, tilt = 0.8f, mass = 10.0f, length = 1.0f;
  const Vec3 down_rest(std::sin(rest), -std::cos(rest), 0.0f);
  const BodyID arm =
      world.add_box(Vec3(0.05f, 0.5f * length, 0.05f), down_rest * (0.5f * length),
                    BodyOptions{.mass = mass, .rotation = Quat::rotation(Vec3::axis_z(), rest)});
  SwingTwistConstraintSettings s = free_limits();
  s.normal_half_cone_angle = s.plane_half_cone_angle = 0.3f;
  s.twist_axis1 = Vec3(std::sin(tilt), -std::cos(tilt), 0.0f);
  s.twist_axis2 = down_rest;
  s.plane_axis1 = s.plane_axis2 = Vec3::axis_z();
  const Ref<Constraint> c = add(world, s.create(world.bodies(), Constraint::k_world, arm));
  ASSERT_NE(c, nullptr);
  auto& joint = static_cast<SwingTwistConstraint&>(*c);
  float lo = k_float_max, hi = -k_float_max;
  world.run(180, [&](int step) {
    if (step < 120) return;
    lo = std::min(lo, joint.total_lambda_swing());
    hi = std::max(hi, joint.total_lambda_swing());
  });
  const Vec3 dir = world.body(arm).rotation() * Vec3(0.0f, -1.0f, 0.0f);
  const float angle = std::atan2(dir.x(), -dir.y());
  const float expected = -mass * k_g * 0.5f * length * std::sin(rest) * k_dt;
  report("SwingTwist.hanging_arm.lambda_min", lo);
  report("SwingTwist.hanging_arm.lambda_max", hi);
  report("SwingTwist.hanging_arm.expected", expected);
  report("SwingTwist.hanging_arm.angle_from_vertical_rad", angle);
  EXPECT_NEAR(angle, rest, 2.0e-3f);  // measured 0.50000 rad
  // Measured −0.39193 for −0.39193 expected (before the rows were normalised: −0.7928).
  EXPECT_NEAR(lo, expected, 0.01f * std::fabs(expected));
  EXPECT_NEAR(hi, expected, 0.01f * std::fabs(expected));  // measured −0.39193
}

// Breaking a swing limit (D5) at the angular threshold 0.5 N·m·s = 30 N·m × dt: the ball of
// SwingTwistSwingLimitImpulseIsTorqueTimesDt resting on its cone (0.3 rad) holds 60 steps of
// 29.4 N·m (2 % below) and breaks in step 0 under 30.6 N·m (2 % above).
TEST_F(ConeSwingTwistLaws, BreakAngularImpulseOfSwingLimit) {
  for (const float torque : {29.4f, 30.6f}) {
    PhysicsSettings settings = law_settings();
    settings.gravity = Vec3::zero();
    LawWorld world(settings);
    const BodyID ball = world.add_sphere(0.2f, Vec3(), BodyOptions{.mass = 10.0f});
    SwingTwistConstraintSettings s = free_limits();
    s.normal_half_cone_angle = s.plane_half_cone_angle = 0.3f;
    s.twist_axis2 = Vec3(std::cos(0.3f), std::sin(0.3f), 0.0f);
    s.plane_axis2 = Vec3(-std::sin(0.3f), std::cos(0.3f), 0.0f);
    s.common.break_angular_impulse = 0.5f;
    const Ref<Constraint> c = add(world, s.create(world.bodies(), Constraint::k_world, ball));
    ASSERT_NE(c, nullptr);
    int broken_at = -1;
    float impulse = 0.0f;
    for (int step = 0; step < 60 && broken_at < 0; ++step) {
      ASSERT_TRUE(world.bodies().add_torque(ball, Vec3(0.0f, 0.0f, torque)).ok());
      const UpdateResult r = world.step();
      impulse = c->angular_impulse();
      if (!r.broken.empty()) {
        EXPECT_EQ(r.broken[0], c);
        EXPECT_FALSE(c->is_enabled());
        broken_at = step;
      }
    }
    const std::string key = "SwingTwist.swing_break.torque" + std::to_string(torque);
    report(key + ".broken_at", broken_at);
    report(key + ".angular_impulse", impulse);
    EXPECT_NEAR(impulse, torque * k_dt, 0.01f * torque * k_dt) << key;  // measured 0.49, 0.51
    if (torque < 30.0f) {
      EXPECT_EQ(broken_at, -1) << key;  // held 60 steps
    } else {
      EXPECT_EQ(broken_at, 0) << key;  // broke in step 0
    }
  }
}

}  // namespace
}  // namespace cone_swing_twist_laws_test
}  // namespace atl::laws
