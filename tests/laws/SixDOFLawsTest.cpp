// Six-dof constraint laws (LAWS.md §D, seed 003, issue 8 §2.2): configured as a fixed, point,
// slider-like, cone-like or pyramid joint it holds like those; translation and rotation limits
// hold; per-axis velocity and position motors reach their targets; friction stops motion; a
// spring on a translation limit oscillates at its frequency. Law conditions: dt = 1/60 s, 10
// velocity and 2 position steps, sleeping off, damping 0. The comment beside each assertion
// gives the measured reading.

#include <memory>

#include "atoll/constraint/SixDOFConstraint.h"
#include "laws/ConstraintLawUtil.h"
#include "laws/LawFixture.h"

namespace atl::laws {
namespace six_dof_laws_test {
namespace {

using Axis = SixDOFConstraintSettings::Axis;

class SixDOFLaws : public LawFixture {};

SixDOFConstraintSettings all_fixed() {
  SixDOFConstraintSettings s;
  for (int i = 0; i < SixDOFConstraintSettings::k_num_axes; ++i) s.make_fixed_axis(Axis(i));
  return s;
}

// Swing angles of a frame rotation (rad): twist about X, 2·asin of the swing's y and z (the
// angles SwingTwistConstraintPart limits).
Vec3 swing_twist_angles(const Quat& q) {
  Quat swing, twist;
  q.ensure_w_positive().swing_twist(swing, twist);
  return Vec3(2.0f * std::atan2(twist.x(), twist.w()), 2.0f * std::asin(swing.y()),
              2.0f * std::asin(swing.z()));
}

// The thrown pair of ConstraintLawUtil.h joined at (0.5, 10, 0) by `s`: the largest separation
// of the two points (m) and rotation error (rad) over the second second.
struct Held {
  float separation = 0.0f;
  float angle = 0.0f;
};
Held throw_pair(const SixDOFConstraintSettings& base, uint32_t seed) {
  LawWorld world;
  const ThrownPair p = thrown_pair(world, seed);
  SixDOFConstraintSettings s = base;
  s.position1 = s.position2 = Vec3(0.5f, 10.0f, 0.0f);
  const Ref<Constraint> c = add(world, s.create(world.bodies(), p.a, p.b));
  if (c == nullptr) return {1.0e9f, 1.0e9f};
  const SixDOFConstraintSettings local = static_cast<SixDOFConstraint&>(*c).settings();
  const Quat q0 = world.body(p.a).rotation().conjugated() * world.body(p.b).rotation();
  Held held;
  world.run(120, [&](int step) {
    if (step < 60) return;
    held.separation = std::max(held.separation, (world_point(world, p.a, local.position1) -
                                                 world_point(world, p.b, local.position2))
                                                    .length());
    held.angle = std::max(held.angle, rotation_error(world, p.a, p.b, q0));
  });
  return held;
}

// All six axes fixed: like the fixed joint (< 1 mm, < 0.01 rad), 3 seeds.
TEST_F(SixDOFLaws, AllFixedHoldsThrownBodiesLikeAFixedJoint) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    const Held h = throw_pair(all_fixed(), seed);
    report("SixDOF.all_fixed.thrown_separation_mm.seed" + std::to_string(seed),
           h.separation * 1000.0f);
    report("SixDOF.all_fixed.thrown_angle_rad.seed" + std::to_string(seed), h.angle);
    EXPECT_LT(h.separation, 0.001f);  // measured 0.08, 0.56, 0.31 mm (fixed joint: same scheme)
    EXPECT_LT(h.angle, 0.01f);        // measured 5.3e-8, 3.5e-8, 5.9e-8 rad
  }
}

// Translations fixed, rotations free: like the point joint (< 1 mm) while the bodies turn
// freely relative to each other.
TEST_F(SixDOFLaws, TranslationFixedRotationFreeHoldsLikeAPointJoint) {
  SixDOFConstraintSettings s;
  for (const Axis a : {Axis::TranslationX, Axis::TranslationY, Axis::TranslationZ})
    s.make_fixed_axis(a);
  for (uint32_t seed : {1u, 2u, 3u}) {
    const Held h = throw_pair(s, seed);
    report("SixDOF.point_like.thrown_separation_mm.seed" + std::to_string(seed),
           h.separation * 1000.0f);
    report("SixDOF.point_like.thrown_angle_rad.seed" + std::to_string(seed), h.angle);
    EXPECT_LT(h.separation, 0.001f);  // measured 0.11, 0.58, 0.48 mm
    EXPECT_GT(h.angle, 0.1f);         // free to turn: measured 0.80, 0.86, 1.31 rad
  }
}

// Slider-like on the thrown pair: translation X limited to [−0.05, 0.05] m, the rest fixed
// (per-axis translation rows at lever arms of 0.5 m, and the fixed rotation): along X within
// the limits, off the axis < 1 mm, rotation < 0.01 rad.
TEST_F(SixDOFLaws, SliderLikeHoldsThrownBodies) {
  SixDOFConstraintSettings s = all_fixed();
  s.set_limited_axis(Axis::TranslationX, -0.05f, 0.05f);
  for (uint32_t seed : {1u, 2u, 3u}) {
    LawWorld world;
    const ThrownPair p = thrown_pair(world, seed);
    s.position1 = s.position2 = Vec3(0.5f, 10.0f, 0.0f);
    const Ref<Constraint> c = add(world, s.create(world.bodies(), p.a, p.b));
    ASSERT_NE(c, nullptr);
    const SixDOFConstraintSettings local = static_cast<SixDOFConstraint&>(*c).settings();
    const Quat q0 = world.body(p.a).rotation().conjugated() * world.body(p.b).rotation();
    float along = 0.0f, off_axis = 0.0f, angle = 0.0f;
    world.run(120, [&](int step) {
      if (step < 60) return;
      const Vec3 d =
          world_point(world, p.b, local.position2) - world_point(world, p.a, local.position1);
      const Vec3 axis = world.body(p.a).rotation() * local.axis_x1;
      along = std::max(along, std::fabs(d.dot(axis)));
      off_axis = std::max(off_axis, (d - axis * d.dot(axis)).length());
      angle = std::max(angle, rotation_error(world, p.a, p.b, q0));
    });
    const std::string key = "SixDOF.slider_like.thrown";
    report(key + ".along_m.seed" + std::to_string(seed), along);
    report(key + ".off_axis_mm.seed" + std::to_string(seed), off_axis * 1000.0f);
    report(key + ".angle_rad.seed" + std::to_string(seed), angle);
    EXPECT_LT(along, 0.051f);     // measured 0.05062, 0.05048, 0.05026 m
    EXPECT_LT(off_axis, 0.001f);  // measured 0.061, 0.127, 0.095 mm
    EXPECT_LT(angle, 0.01f);      // measured 6.9e-6, 1.3e-5, 1.0e-5 rad
  }
}

// Pyramid limits between the two thrown bodies (frames on moving bodies): twist [−0.1, 0.1],
// Y [−0.05, 0.15], Z [−0.15, 0.05] rad, translations fixed. Over 2 s the relative rotation
// reaches the limits and stays within each range by < 0.02 rad; over the second second the
// points stay within 1 mm.
TEST_F(SixDOFLaws, PyramidLimitsHoldBetweenThrownBodies) {
  SixDOFConstraintSettings s;
  for (const Axis a : {Axis::TranslationX, Axis::TranslationY, Axis::TranslationZ})
    s.make_fixed_axis(a);
  s.swing_type = SwingType::Pyramid;
  s.set_limited_axis(Axis::RotationX, -0.1f, 0.1f);
  s.set_limited_axis(Axis::RotationY, -0.05f, 0.15f);
  s.set_limited_axis(Axis::RotationZ, -0.15f, 0.05f);
  for (uint32_t seed : {1u, 2u, 3u}) {
    LawWorld world;
    const ThrownPair p = thrown_pair(world, seed);
    s.position1 = s.position2 = Vec3(0.5f, 10.0f, 0.0f);
    const Ref<Constraint> c = add(world, s.create(world.bodies(), p.a, p.b));
    ASSERT_NE(c, nullptr);
    const SixDOFConstraintSettings local = static_cast<SixDOFConstraint&>(*c).settings();
    // The largest of (angle − max, min − angle) over the axes: ≤ 0 inside, 0 at a limit.
    float worst = -10.0f, separation = 0.0f;
    world.run(120, [&](int step) {
      // Both frames have the world's axes at creation, so frame i's rotation is body i's
      // rotation relative to its rotation at creation; the bodies start unrotated.
      const Quat q = world.body(p.a).rotation().conjugated() * world.body(p.b).rotation();
      const Vec3 a = swing_twist_angles(q);
      for (int i = 0; i < 3; ++i)
        worst = std::max({worst, s.limit_min[3 + i] - a[i], a[i] - s.limit_max[3 + i]});
      if (step < 60) return;
      separation = std::max(separation, (world_point(world, p.a, local.position1) -
                                         world_point(world, p.b, local.position2))
                                            .length());
    });
    report("SixDOF.pyramid.thrown_worst_excess_rad.seed" + std::to_string(seed), worst);
    report("SixDOF.pyramid.thrown_separation_mm.seed" + std::to_string(seed), separation * 1000.0f);
    EXPECT_LT(worst, 0.02f);        // held: measured 1.1e-5, 1.6e-5, −8.4e-6 rad
    EXPECT_GT(worst, -0.01f);       // and reached (the same readings)
    EXPECT_LT(separation, 0.001f);  // measured 0.08, 0.57, 0.31 mm
  }
}

// A 10 kg box (0.4 m cube) at (0, 1, 0) joined to the world at its centre, no gravity.
struct Rig {
  std::unique_ptr<LawWorld> world;
  BodyID box;
  Ref<Constraint> joint;
  SixDOFConstraint& j() { return static_cast<SixDOFConstraint&>(*joint); }
  Vec3 x() { return world->body(box).center_of_mass_position() - Vec3(0.0f, 1.0f, 0.0f); }
  // Frame 2 in frame 1 (the world's axes) as swing-twist angles.
  Vec3 angles() { return swing_twist_angles(world->body(box).rotation()); }
};
Rig make_rig(const SixDOFConstraintSettings& base, const Vec3& velocity = Vec3(),
             const Vec3& angular_velocity = Vec3()) {
  PhysicsSettings settings = law_settings();
  settings.gravity = Vec3::zero();
  Rig r;
  r.world = std::make_unique<LawWorld>(settings);
  BodyOptions o;
  o.mass = 10.0f;
  o.linear_velocity = velocity;
  o.angular_velocity = angular_velocity;
  r.box = r.world->add_box(Vec3(0.2f, 0.2f, 0.2f), Vec3(0.0f, 1.0f, 0.0f), o);
  SixDOFConstraintSettings s = base;
  s.position1 = s.position2 = Vec3(0.0f, 1.0f, 0.0f);
  r.joint = add(*r.world, s.create(r.world->bodies(), Constraint::k_world, r.box));
  return r;
}

// Slider-like: translation X limited to [−0.2, 0.3] m, the rest fixed. A box sent at ±3 m/s
// (and 1 m/s sideways, which the fixed axes take) passes the limits by < 1 mm and stays on
// the axis.
TEST_F(SixDOFLaws, SliderLikeTranslationLimitsHold) {
  SixDOFConstraintSettings s = all_fixed();
  s.set_limited_axis(Axis::TranslationX, -0.2f, 0.3f);
  for (const float v : {3.0f, -3.0f}) {
    Rig r = make_rig(s, Vec3(v, 1.0f, 0.5f), Vec3(0.0f, 2.0f, 0.0f));
    ASSERT_NE(r.joint, nullptr);
    float lo = 0.0f, hi = 0.0f, off_axis = 0.0f, angle = 0.0f;
    r.world->run(120, [&](int) {
      lo = std::min(lo, r.x().x());
      hi = std::max(hi, r.x().x());
      off_axis = std::max(off_axis, std::hypot(r.x().y(), r.x().z()));
      angle = std::max(angle, r.angles().length());
    });
    const std::string key = "SixDOF.slider_like.v" + std::to_string(int(v));
    report(key + ".min_m", lo);
    report(key + ".max_m", hi);
    report(key + ".off_axis_mm", off_axis * 1000.0f);
    report(key + ".angle_rad", angle);
    EXPECT_GT(lo, -0.201f);       // measured −0.2000 (v −3)
    EXPECT_LT(hi, 0.301f);        // measured 0.3000 (v 3)
    EXPECT_LT(off_axis, 0.001f);  // measured 8e-11 m
    EXPECT_LT(angle, 0.01f);      // measured 0 rad
  }
}

// Rotation limits: translations fixed; spun at ±4 rad/s about each axis in turn, the box stays
// within its limits (by < 0.02 rad) and reaches them. Cone-like: twist [−0.3, 0.5], a cone of
// 0.5 rad; pyramid: twist [−0.3, 0.5], Y in [−0.2, 0.6], Z in [−0.7, 0.1].
struct RotationRun {
  Vec3 lo, hi;
  float worst = 0.0f;       // the largest excess over any limit (rad)
  float worst_cone = 0.0f;  // cone: the swing angle past the cone (rad)
  float largest_swing = 0.0f;
  float separation = 0.0f;  // of the joint's points (m)
};
RotationRun spin_in_limits(const SixDOFConstraintSettings& s, const Vec3& w) {
  Rig r = make_rig(s, Vec3(), w);
  RotationRun run;
  if (r.joint == nullptr) return run;
  run.lo = Vec3::replicate(10.0f);
  run.hi = Vec3::replicate(-10.0f);
  r.world->run(120, [&](int) {
    const Vec3 a = r.angles();
    for (int i = 0; i < 3; ++i) {
      run.lo = Vec3::min(run.lo, a);
      run.hi = Vec3::max(run.hi, a);
      const float lo = std::max(s.limit_min[3 + i], -k_pi);
      const float hi = std::min(s.limit_max[3 + i], k_pi);
      run.worst = std::max({run.worst, lo - a[i], a[i] - hi});
    }
    // The swing: the angle between the box's X axis and the world's.
    const Vec3 x = r.world->body(r.box).rotation().rotate_axis_x();
    const float swing = std::acos(std::clamp(x.x(), -1.0f, 1.0f));
    run.largest_swing = std::max(run.largest_swing, swing);
    run.separation = std::max(run.separation, r.x().length());
  });
  return run;
}

TEST_F(SixDOFLaws, ConeLikeRotationLimitsHold) {
  SixDOFConstraintSettings s;
  for (const Axis a : {Axis::TranslationX, Axis::TranslationY, Axis::TranslationZ})
    s.make_fixed_axis(a);
  s.set_limited_axis(Axis::RotationX, -0.3f, 0.5f);
  s.set_limited_axis(Axis::RotationY, -0.5f, 0.5f);
  s.set_limited_axis(Axis::RotationZ, -0.5f, 0.5f);
  const Vec3 spins[] = {Vec3(4.0f, 0.0f, 0.0f), Vec3(-4.0f, 0.0f, 0.0f), Vec3(0.0f, 4.0f, 0.0f),
                        Vec3(0.0f, 2.8f, -2.8f)};
  for (const Vec3& w : spins) {
    const RotationRun run = spin_in_limits(s, w);
    const std::string key = "SixDOF.cone_like.w" + std::to_string(int(w.x())) + "_" +
                            std::to_string(int(w.y())) + "_" + std::to_string(int(w.z()));
    report(key + ".twist_range_lo_rad", run.lo.x());
    report(key + ".twist_range_hi_rad", run.hi.x());
    report(key + ".largest_swing_rad", run.largest_swing);
    report(key + ".separation_mm", run.separation * 1000.0f);
    EXPECT_GT(run.lo.x(), -0.32f);        // measured −0.3000
    EXPECT_LT(run.hi.x(), 0.52f);         // measured 0.5000
    EXPECT_LT(run.largest_swing, 0.52f);  // measured 0.5007 (about Y), 0.5009 (about Y−Z)
    EXPECT_LT(run.separation, 0.001f);    // measured 0
    if (w.x() > 0.0f) {
      EXPECT_GT(run.hi.x(), 0.48f);  // the limit is reached: measured 0.5000
    }
    if (w.x() < 0.0f) {
      EXPECT_LT(run.lo.x(), -0.28f);  // measured −0.3000
    }
    if (w.x() == 0.0f) {
      EXPECT_GT(run.largest_swing, 0.48f);  // measured 0.5007, 0.5009
    }
  }
}

TEST_F(SixDOFLaws, PyramidAsymmetricRotationLimitsHold) {
  SixDOFConstraintSettings s;
  for (const Axis a : {Axis::TranslationX, Axis::TranslationY, Axis::TranslationZ})
    s.make_fixed_axis(a);
  s.swing_type = SwingType::Pyramid;
  s.set_limited_axis(Axis::RotationX, -0.3f, 0.5f);
  s.set_limited_axis(Axis::RotationY, -0.2f, 0.6f);
  s.set_limited_axis(Axis::RotationZ, -0.7f, 0.1f);
  for (int axis = 0; axis < 3; ++axis) {
    for (const float sign : {1.0f, -1.0f}) {
      Vec3 w;
      w.set_component(axis, 4.0f * sign);
      const RotationRun run = spin_in_limits(s, w);
      const std::string key =
          "SixDOF.pyramid.axis" + std::to_string(axis) + (sign > 0.0f ? ".plus" : ".minus");
      const float bound = sign > 0.0f ? s.limit_max[3 + axis] : s.limit_min[3 + axis];
      const float reached = sign > 0.0f ? run.hi[axis] : run.lo[axis];
      report(key + ".reached_rad", reached);
      report(key + ".bound_rad", bound);
      report(key + ".worst_excess_rad", run.worst);
      EXPECT_LT(run.worst, 0.02f) << key;         // measured ≤ 3e-8 rad on all six
      EXPECT_NEAR(reached, bound, 0.02f) << key;  // reached: measured = bound (1e-7)
      EXPECT_LT(run.separation, 0.001f) << key;   // measured 0
    }
  }
}

// Velocity motors: translation X at 1 m/s, rotation Z at 2 rad/s (the other axes fixed).
// Position motors (default 2 Hz critically damped spring): translation Y to 0.3 m, rotation
// about Z to 1 rad, and a full orientation target with all rotations free; their impulses
// return to 0 at rest.
TEST_F(SixDOFLaws, PerAxisMotorsReachTheirTargets) {
  {
    SixDOFConstraintSettings s = all_fixed();
    s.make_free_axis(Axis::TranslationX);
    s.make_free_axis(Axis::RotationZ);
    Rig r = make_rig(s);
    ASSERT_NE(r.joint, nullptr);
    r.j().set_motor_state(Axis::TranslationX, MotorState::Velocity);
    r.j().set_motor_state(Axis::RotationZ, MotorState::Velocity);
    ASSERT_TRUE(r.j().set_target_velocity_cs(Vec3(1.0f, 0.0f, 0.0f)).ok());
    ASSERT_TRUE(r.j().set_target_angular_velocity_cs(Vec3(0.0f, 0.0f, 2.0f)).ok());
    r.world->run(30);
    const Vec3 v = r.world->velocity(r.box);
    const Vec3 w = r.world->angular_velocity(r.box);
    report("SixDOF.velocity_motor.v_x_m_s", v.x());
    report("SixDOF.velocity_motor.w_z_rad_s", w.z());
    EXPECT_NEAR(v.x(), 1.0f, 0.01f);                       // measured 1.0000 m/s
    EXPECT_NEAR(w.z(), 2.0f, 0.01f);                       // measured 2.0000 rad/s
    EXPECT_NEAR(std::hypot(v.y(), v.z()), 0.0f, 1.0e-3f);  // fixed axes: measured 0
    EXPECT_NEAR(std::hypot(w.x(), w.y()), 0.0f, 1.0e-3f);  // measured 0
  }
  {
    SixDOFConstraintSettings s = all_fixed();
    s.make_free_axis(Axis::TranslationY);
    s.make_free_axis(Axis::RotationZ);
    Rig r = make_rig(s);
    ASSERT_NE(r.joint, nullptr);
    r.j().set_motor_state(Axis::TranslationY, MotorState::Position);
    r.j().set_motor_state(Axis::RotationZ, MotorState::Position);
    ASSERT_TRUE(r.j().set_target_position_cs(Vec3(0.0f, 0.3f, 0.0f)).ok());
    ASSERT_TRUE(r.j().set_target_orientation_cs(Quat::rotation(Vec3::axis_z(), 1.0f)).ok());
    r.world->run(300);
    const float y = r.x().y();
    const float angle = r.angles().z();
    report("SixDOF.position_motor.y_m", y);
    report("SixDOF.position_motor.angle_z_rad", angle);
    report("SixDOF.position_motor.lambda_translation_at_rest",
           r.j().total_lambda_motor_translation().y());
    report("SixDOF.position_motor.lambda_rotation_at_rest",
           r.j().total_lambda_motor_rotation().z());
    EXPECT_NEAR(y, 0.3f, 0.001f);      // measured 0.3000 m after 5 s
    EXPECT_NEAR(angle, 1.0f, 0.001f);  // measured 1.0000 rad
    EXPECT_NEAR(r.j().total_lambda_motor_translation().y(), 0.0f, 1.0e-4f);  // measured ~0
    EXPECT_NEAR(r.j().total_lambda_motor_rotation().z(), 0.0f, 1.0e-4f);     // measured 0
  }
  {
    // All rotations free, a position motor on each: reaches a general orientation.
    SixDOFConstraintSettings s;
    for (const Axis a : {Axis::TranslationX, Axis::TranslationY, Axis::TranslationZ})
      s.make_fixed_axis(a);
    Rig r = make_rig(s);
    ASSERT_NE(r.joint, nullptr);
    for (const Axis a : {Axis::RotationX, Axis::RotationY, Axis::RotationZ})
      r.j().set_motor_state(a, MotorState::Position);
    const Quat target = Quat::rotation(Vec3(0.3f, -0.5f, 0.8f).normalized(), 1.2f);
    ASSERT_TRUE(r.j().set_target_orientation_cs(target).ok());
    r.world->run(300);
    const Quat e = (target.conjugated() * r.world->body(r.box).rotation()).ensure_w_positive();
    const float error = 2.0f * e.xyz().length();
    report("SixDOF.orientation_motor.error_rad", error);
    EXPECT_LT(error, 0.001f);  // measured 3.1e-7 rad
  }
}

// Rigid rotation position motors (springs of frequency 0; LAWS.md B2: they move, and reach
// the target within their torque limits) on all three axes, about frame 2's axes with errors
// 2·e_i of the rotation e left to turn: a 2.5 rad turn about a skew axis is reached within
// 0.01 rad in two steps, with and without (never reached) torque limits. (Tried: holding the
// whole orientation with a RotationQuatConstraintPart instead, which has no target velocity
// and closes the error only through the position solve, took 11 steps.) Without limits, an
// unlimited torque × dt passed as a finite impulse bound froze the motor (see impulse_limit in
// SixDOFConstraint.cpp); this case keeps that fixed.
TEST_F(SixDOFLaws, RigidOrientationMotorReachesAFarTarget) {
  for (const bool limited : {false, true}) {
    SixDOFConstraintSettings s;
    for (const Axis a : {Axis::TranslationX, Axis::TranslationY, Axis::TranslationZ})
      s.make_fixed_axis(a);
    for (const Axis a : {Axis::RotationX, Axis::RotationY, Axis::RotationZ}) {
      s.motor_settings[a].spring = SpringSettings::frequency_and_damping(0.0f, 0.0f);
      if (limited) s.motor_settings[a].set_torque_limit(1.0e6f);
    }
    Rig r = make_rig(s);
    ASSERT_NE(r.joint, nullptr);
    for (const Axis a : {Axis::RotationX, Axis::RotationY, Axis::RotationZ})
      r.j().set_motor_state(a, MotorState::Position);
    const Quat target = Quat::rotation(Vec3(0.3f, -0.5f, 0.8f).normalized(), 2.5f);
    ASSERT_TRUE(r.j().set_target_orientation_cs(target).ok());
    int reached = -1;
    float error = 0.0f;
    r.world->run(120, [&](int step) {
      const Quat e = (target.conjugated() * r.world->body(r.box).rotation()).ensure_w_positive();
      error = 2.0f * e.xyz().length();
      if (reached < 0 && error < 0.01f) reached = step;
    });
    const std::string key =
        std::string("SixDOF.rigid_orientation_motor.") + (limited ? "limited" : "unlimited");
    report(key + ".steps_to_0.01rad", reached);
    report(key + ".error_after_2s_rad", error);
    report(key + ".w_after_2s_rad_s", r.world->angular_velocity(r.box).length());
    EXPECT_GE(reached, 0);      // measured 1 (the second step), both
    EXPECT_LE(reached, 3);      // measured 1
    EXPECT_LT(error, 1.0e-4f);  // measured 3.6e-8 rad after 2 s, both
  }
}

// Friction: a 10 kg box sliding at 1 m/s along a free X with 20 N of friction stops after
// 0.5 s; one spinning at 2 rad/s about a free Z with 1 N·m stops after 2·I/1 = 0.53 s
// (I = 10·(0.4² + 0.4²)/12 = 0.267 kg·m²).
TEST_F(SixDOFLaws, FrictionStopsMotion) {
  SixDOFConstraintSettings s = all_fixed();
  s.make_free_axis(Axis::TranslationX);
  s.make_free_axis(Axis::RotationZ);
  s.max_friction[Axis::TranslationX] = 20.0f;
  s.max_friction[Axis::RotationZ] = 1.0f;
  Rig r = make_rig(s, Vec3(1.0f, 0.0f, 0.0f), Vec3(0.0f, 0.0f, 2.0f));
  ASSERT_NE(r.joint, nullptr);
  r.world->run(15);  // 0.25 s: half-way
  const float v_half = r.world->velocity(r.box).x();
  const float w_half = r.world->angular_velocity(r.box).z();
  r.world->run(45);
  const float v_end = r.world->velocity(r.box).x();
  const float w_end = r.world->angular_velocity(r.box).z();
  report("SixDOF.friction.v_after_0.25s", v_half);
  report("SixDOF.friction.w_after_0.25s", w_half);
  report("SixDOF.friction.v_after_1s", v_end);
  report("SixDOF.friction.w_after_1s", w_end);
  EXPECT_NEAR(v_half, 0.5f, 0.01f);            // 1 − 2 m/s² · 0.25 s: measured 0.5000
  EXPECT_NEAR(w_half, 2.0f - 0.9375f, 0.01f);  // 2 − (1 / 0.2667) · 0.25: measured 1.0625
  EXPECT_NEAR(v_end, 0.0f, 1.0e-4f);           // measured 0
  EXPECT_NEAR(w_end, 0.0f, 1.0e-4f);           // measured 0
}

// A spring on translation limits: X limited to [0, 0] (pinned by its 2 Hz spring, damping 0)
// and the box sent at 0.5 m/s: it oscillates with period 0.5 s (within 3 %); a 1 Hz spring
// gives 1 s.
TEST_F(SixDOFLaws, SpringOnTranslationLimitOscillatesAtItsFrequency) {
  for (const float frequency : {1.0f, 2.0f}) {
    SixDOFConstraintSettings s = all_fixed();
    s.limits_spring_settings[0] = SpringSettings::frequency_and_damping(frequency, 0.0f);
    Rig r = make_rig(s, Vec3(0.5f, 0.0f, 0.0f));
    ASSERT_NE(r.joint, nullptr);
    std::vector<float> crossings;  // times (s) of upward zero crossings of x
    float last = 0.0f, amplitude = 0.0f;
    r.world->run(360, [&](int step) {
      const float x = r.x().x();
      if (step > 0 && last < 0.0f && x >= 0.0f)
        crossings.push_back((static_cast<float>(step) + last / (last - x)) / 60.0f);
      amplitude = std::max(amplitude, std::fabs(x));
      last = x;
    });
    ASSERT_GE(crossings.size(), 3u);
    const float period =
        (crossings.back() - crossings.front()) / static_cast<float>(crossings.size() - 1);
    const std::string key = "SixDOF.limit_spring.f" + std::to_string(int(frequency));
    report(key + ".period_s", period);
    report(key + ".amplitude_m", amplitude);
    // Measured 1.0036 s (1 Hz) and 0.5072 s (2 Hz): +0.4 % and +1.4 %.
    EXPECT_NEAR(period, 1.0f / frequency, 0.03f / frequency);
    // Not damped away: the largest excursion is v/ω less the implicit step's own damping
    // (measured 0.0733 m = 0.92·v/ω at 1 Hz, 0.0340 m = 0.85·v/ω at 2 Hz).
    EXPECT_GT(amplitude, 0.5f / (k_two_pi * frequency) * 0.8f);
  }
}

// The frame's axes come from the settings: frame X = world +y, frame Y = world −x (frame Z =
// world +z). A velocity motor on TranslationX moves the box along world +y, one on RotationX
// turns it about world +y; the fixed axes hold the rest.
TEST_F(SixDOFLaws, FrameAxesFollowTheSettings) {
  SixDOFConstraintSettings s = all_fixed();
  s.axis_x1 = s.axis_x2 = Vec3(0.0f, 1.0f, 0.0f);
  s.axis_y1 = s.axis_y2 = Vec3(-1.0f, 0.0f, 0.0f);
  s.make_free_axis(Axis::TranslationX);
  s.make_free_axis(Axis::RotationX);
  Rig r = make_rig(s);
  ASSERT_NE(r.joint, nullptr);
  r.j().set_motor_state(Axis::TranslationX, MotorState::Velocity);
  r.j().set_motor_state(Axis::RotationX, MotorState::Velocity);
  ASSERT_TRUE(r.j().set_target_velocity_cs(Vec3(1.0f, 0.0f, 0.0f)).ok());
  ASSERT_TRUE(r.j().set_target_angular_velocity_cs(Vec3(2.0f, 0.0f, 0.0f)).ok());
  r.world->run(30);
  const Vec3 v = r.world->velocity(r.box);
  const Vec3 w = r.world->angular_velocity(r.box);
  report("SixDOF.frame_axes.v_y_m_s", v.y());
  report("SixDOF.frame_axes.w_y_rad_s", w.y());
  report("SixDOF.frame_axes.translation_cs_x_m", r.j().current_translation_cs().x());
  EXPECT_NEAR(v.y(), 1.0f, 0.01f);                       // measured 1.0000 m/s
  EXPECT_NEAR(w.y(), 2.0f, 0.01f);                       // measured 2.0000 rad/s
  EXPECT_NEAR(std::hypot(v.x(), v.z()), 0.0f, 1.0e-3f);  // measured 0
  EXPECT_NEAR(std::hypot(w.x(), w.z()), 0.0f, 1.0e-3f);  // measured 0
  // The measured translation is along frame X: 0.5 s at 1 m/s.
  EXPECT_NEAR(r.j().current_translation_cs().x(), r.x().y(),
              1.0e-4f);  // measured 0.5000 = 0.5000 m
}

// Total lambdas are this step's impulses (D5): a 10 kg box hanging from the world at its centre
// on an all-fixed six-dof carries m·g·dt = 1.635 N·s upwards in total_lambda_position (the
// point part), and the same through the per-axis rows when X is limited instead of fixed.
TEST_F(SixDOFLaws, TotalLambdasAreThisStepsImpulse) {
  for (const bool per_axis : {false, true}) {
    LawWorld world;
    BodyOptions o;
    o.mass = 10.0f;
    const BodyID box = world.add_box(Vec3(0.2f, 0.2f, 0.2f), Vec3(0.0f, 1.0f, 0.0f), o);
    SixDOFConstraintSettings s = all_fixed();
    if (per_axis) s.set_limited_axis(Axis::TranslationX, -0.1f, 0.1f);
    s.position1 = s.position2 = Vec3(0.0f, 1.0f, 0.0f);
    const Ref<Constraint> c = add(world, s.create(world.bodies(), Constraint::k_world, box));
    ASSERT_NE(c, nullptr);
    world.run(60);
    auto& six = static_cast<SixDOFConstraint&>(*c);
    const Vec3 l = six.total_lambda_position();
    const std::string key = std::string("SixDOF.hanging.") + (per_axis ? "per_axis" : "point");
    report(key + ".lambda_y_N_s", l.y());
    report(key + ".linear_impulse_N_s", six.linear_impulse());
    report(key + ".angular_impulse_N_m_s", six.angular_impulse());
    EXPECT_NEAR(l.y(), 10.0f * k_g / 60.0f, 1.0e-3f);                 // measured 1.6350 (both)
    EXPECT_NEAR(six.linear_impulse(), 10.0f * k_g / 60.0f, 1.0e-3f);  // measured 1.6350 (both)
    EXPECT_NEAR(six.angular_impulse(), 0.0f, 1.0e-5f);                // measured 0
    EXPECT_NEAR(world.position(box).y(), 1.0f, 1.0e-4f);  // measured 1.0000 (hangs in place)
  }
}

// A rotation limit's impulse is the torque it holds × dt (N·m·s about a unit axis, LAWS.md §D):
// a ball (10 kg, r 0.2 m, on the joint) with fixed translations, pushed about z by 20 N·m
// from rest, reaches its swing limit about Z (pyramid: [−0.2, 0.3] rad; cone: ±0.3 rad) and
// rests on it; over the second half-second that row's λ is −20·dt and angular_impulse 20·dt.
// (Before the rows were normalised the resting cone read −0.0504 N·m·s, the pyramid −0.674.)
TEST_F(SixDOFLaws, SwingLimitImpulseIsTorqueTimesDt) {
  for (const SwingType type : {SwingType::Pyramid, SwingType::Cone}) {
    PhysicsSettings settings = law_settings();
    settings.gravity = Vec3::zero();
    LawWorld world(settings);
    const float torque = 20.0f;
    const BodyID ball = world.add_sphere(0.2f, Vec3(), BodyOptions{.mass = 10.0f});
    SixDOFConstraintSettings s;
    for (const Axis a : {Axis::TranslationX, Axis::TranslationY, Axis::TranslationZ})
      s.make_fixed_axis(a);
    s.swing_type = type;
    s.set_limited_axis(Axis::RotationY, -0.3f, 0.3f);
    s.set_limited_axis(Axis::RotationZ, type == SwingType::Pyramid ? -0.2f : -0.3f, 0.3f);
    const Ref<Constraint> c = add(world, s.create(world.bodies(), Constraint::k_world, ball));
    ASSERT_NE(c, nullptr);
    auto& six = static_cast<SixDOFConstraint&>(*c);
    float lo = k_float_max, hi = -k_float_max, impulse = 0.0f;
    for (int step = 0; step < 60; ++step) {
      ASSERT_TRUE(world.bodies().add_torque(ball, Vec3(0.0f, 0.0f, torque)).ok());
      world.step();
      if (step < 30) continue;
      // The cone is one row (reported as Y), the pyramid's Z limit its own row.
      const Vec3 l = six.total_lambda_rotation();
      const float row = type == SwingType::Pyramid ? l.z() : l.y();
      lo = std::min(lo, row);
      hi = std::max(hi, row);
      impulse = six.angular_impulse();
    }
    const float angle = swing_twist_angles(world.body(ball).rotation()).z();
    const std::string key =
        std::string("SixDOF.swing_impulse.") + (type == SwingType::Pyramid ? "pyramid" : "cone");
    report(key + ".lambda_min", lo);
    report(key + ".lambda_max", hi);
    report(key + ".angular_impulse", impulse);
    report(key + ".angle_rad", angle);
    const float expected = torque * k_dt;
    EXPECT_NEAR(angle, 0.3f, 2.0e-3f) << key;                 // measured 0.3000 (both)
    EXPECT_NEAR(lo, -expected, 0.01f * expected) << key;      // measured −0.33333 (both)
    EXPECT_NEAR(hi, -expected, 0.01f * expected) << key;      // measured −0.33333 (both)
    EXPECT_NEAR(impulse, expected, 0.01f * expected) << key;  // measured 0.33333 (both)
  }
}

// Bad settings add nothing to the world.
TEST_F(SixDOFLaws, BadSettingsAddNothing) {
  LawWorld world;
  const BodyID a = world.add_sphere(0.1f, Vec3(0.0f, 1.0f, 0.0f));
  SixDOFConstraintSettings s;
  s.set_limited_axis(Axis::RotationY, -0.1f, 0.4f);  // asymmetric in a cone
  Result<Ref<Constraint>> c = s.create(world.bodies(), Constraint::k_world, a);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(std::string(c.error().message()).rfind("six_dof.limit_min[4]: ", 0), 0u);
  EXPECT_EQ(world.system().constraints().size(), 0u);
  world.run(10);
  EXPECT_EQ(world.system().constraints().size(), 0u);
}

}  // namespace
}  // namespace six_dof_laws_test
}  // namespace atl::laws
