// Gear, RackAndPinion and Pulley laws (issue 8 "How it is checked": they keep their ratios
// within 1 %). Gears on hinges to the world keep ω1 + ratio·ω2 = 0 and the angles' ratio; the
// hinges coupled with set_constraints take back the angle drift; a rack follows its pinion;
// an Atwood machine on a pulley balances and accelerates as the closed form says, keeps its
// rope length while taut, and its min/max lengths hold. Law conditions: dt = 1/60 s, 10
// velocity and 2 position steps, sleeping off, damping 0. The comment beside each assertion
// gives the measured reading.

#include <cmath>
#include <memory>
#include <string>

#include "atoll/constraint/GearConstraint.h"
#include "atoll/constraint/HingeConstraint.h"
#include "atoll/constraint/PulleyConstraint.h"
#include "atoll/constraint/RackAndPinionConstraint.h"
#include "atoll/constraint/SliderConstraint.h"
#include "laws/ConstraintLawUtil.h"
#include "laws/LawFixture.h"

namespace atl::laws {
namespace gear_pulley_laws_test {
namespace {

class GearPulleyLaws : public LawFixture {};

// Turn of a body about world z, unwrapped across ±π from step to step.
struct TurnAboutZ {
  float last = 0.0f;
  float angle = 0.0f;
  void update(const Quat& q) {
    const float now = 2.0f * std::atan2(q.z(), q.w());
    angle += center_angle_around_zero(now - last);
    last = now;
  }
};

// A body on a hinge about world z through its centre of mass, to the world.
Ref<Constraint> hinge_to_world(LawWorld& world, BodyID body) {
  HingeConstraintSettings s;
  s.point1 = s.point2 = world.body(body).center_of_mass_position();
  s.hinge_axis1 = s.hinge_axis2 = Vec3(0.0f, 0.0f, 1.0f);
  s.normal_axis1 = s.normal_axis2 = Vec3(1.0f, 0.0f, 0.0f);
  return s.create(world.bodies(), Constraint::k_world, body).value_or_throw();
}

// How a gear train is driven.
enum class Drive { Motor, Spin };

struct GearReadings {
  float first_w_ratio_error = 0.0f;  // |ω1 + ratio·ω2| / |ω1| after the first step
  float max_w_ratio_error = 0.0f;    // max over steps of |ω1 + ratio·ω2| / |ω1|
  float angle_ratio_error = 0.0f;    // |θ1 + ratio·θ2| / |θ1| after 5 s
  float max_drift = 0.0f;            // max |θ1 + ratio·θ2| (rad)
  float end_drift = 0.0f;            // |θ1 + ratio·θ2| after 5 s (rad)
  float turns1 = 0.0f;               // θ1 after 5 s (rad)
};

// How a gear train is set up.
struct GearRun {
  float ratio = 2.0f;
  Drive drive = Drive::Motor;
  // Couple the hinges with set_constraints.
  bool couple = false;
  // Add the gear constraint before the hinges: the hinges, solved after it in every
  // iteration, leave it a residual each step (the drift the coupled hinges take back).
  bool gear_first = false;
  // Friction torque of gear 2's hinge (N·m): a load the motor drives against.
  float load = 0.0f;
};

// Two gears on hinges to the world about z: gear 1 (2 kg, 1 m square) and gear 2 (8 kg, 2 m
// square), 3 m apart (no contact), coupled at `ratio`. Driven by gear 1's hinge motor at
// 4 rad/s or by an initial spin of gear 1 at 4 rad/s; 5 s.
GearReadings run_gears(const GearRun& run) {
  LawWorld world;
  BodyOptions o1;
  o1.mass = 2.0f;
  if (run.drive == Drive::Spin) o1.angular_velocity = Vec3(0.0f, 0.0f, 4.0f);
  BodyOptions o2;
  o2.mass = 8.0f;
  const BodyID g1 = world.add_box(Vec3(0.5f, 0.5f, 0.1f), Vec3(0.0f, 5.0f, 0.0f), o1);
  const BodyID g2 = world.add_box(Vec3(1.0f, 1.0f, 0.1f), Vec3(3.0f, 5.0f, 0.0f), o2);
  GearConstraintSettings gs;
  gs.hinge_axis1 = gs.hinge_axis2 = Vec3(0.0f, 0.0f, 1.0f);
  gs.ratio = run.ratio;
  Result<Ref<Constraint>> made = gs.create(world.bodies(), g1, g2);
  const Ref<Constraint> gear = run.gear_first ? add(world, made) : made.value_or_throw();
  const Ref<Constraint> h1 = add(world, hinge_to_world(world, g1));
  const Ref<Constraint> h2 = add(world, hinge_to_world(world, g2));
  if (!run.gear_first) add(world, made);
  if (run.couple) {
    EXPECT_TRUE(static_cast<GearConstraint&>(*gear).set_constraints(h1, h2).ok());
  }
  if (run.drive == Drive::Motor) {
    auto& motor = static_cast<HingeConstraint&>(*h1);
    motor.set_motor_state(MotorState::Velocity);
    EXPECT_TRUE(motor.set_target_angular_velocity(4.0f).ok());
  }
  EXPECT_TRUE(static_cast<HingeConstraint&>(*h2).set_max_friction_torque(run.load).ok());
  GearReadings r;
  TurnAboutZ t1, t2;
  world.run(300, [&](int step) {
    t1.update(world.body(g1).rotation());
    t2.update(world.body(g2).rotation());
    const float w1 = world.angular_velocity(g1).z();
    const float w2 = world.angular_velocity(g2).z();
    const float e = std::fabs(w1 + run.ratio * w2) / std::fabs(w1);
    if (step == 0) r.first_w_ratio_error = e;
    r.max_w_ratio_error = std::max(r.max_w_ratio_error, e);
    r.max_drift = std::max(r.max_drift, std::fabs(t1.angle + run.ratio * t2.angle));
  });
  r.turns1 = t1.angle;
  r.end_drift = std::fabs(t1.angle + run.ratio * t2.angle);
  r.angle_ratio_error = r.end_drift / std::fabs(t1.angle);
  return r;
}

std::string ratio_key(float ratio) { return std::to_string(ratio).substr(0, 3); }

// Gears of ratio 2 and 1.5 keep ω1 = −ratio·ω2 at every step and θ1 = −ratio·θ2 within 1 % over
// 5 s, driven by a motor or by an initial spin (the gear solved after the hinges: it has the
// last word in every iteration).
TEST_F(GearPulleyLaws, GearsKeepTheirRatio) {
  for (const float ratio : {2.0f, 1.5f}) {
    for (const Drive drive : {Drive::Motor, Drive::Spin}) {
      for (const bool couple : {false, true}) {
        GearRun run;
        run.ratio = ratio;
        run.drive = drive;
        run.couple = couple;
        const GearReadings r = run_gears(run);
        const std::string key = "Gear.ratio" + ratio_key(ratio) +
                                (drive == Drive::Motor ? ".motor" : ".spin") +
                                (couple ? ".coupled" : "");
        report(key + ".max_w_ratio_error", r.max_w_ratio_error);
        report(key + ".angle_ratio_error", r.angle_ratio_error);
        report(key + ".turn1_rad", r.turns1);
        EXPECT_GT(std::fabs(r.turns1), 2.0f);   // measured 20 (motor), 4 / 2.47 (spin)
        EXPECT_LT(r.max_w_ratio_error, 0.01f);  // measured ≤ 5e-7
        EXPECT_LT(r.angle_ratio_error, 0.01f);  // measured ≤ 1e-6
      }
    }
  }
}

// Drift: with the gear solved before the hinges, the motor (4 rad/s) and a load on gear 2
// (friction torque 20 N·m) change the speeds after the gear's last iteration in every step, so
// θ1 + ratio·θ2 drifts. Coupled with the hinges (set_constraints), the position solve takes it
// back: the drift after 5 s is smaller and the angle ratio holds within 1 %, also for the
// non-integer ratio 1.5 (counted over many turns).
TEST_F(GearPulleyLaws, CoupledHingesTakeBackTheGearDrift) {
  for (const float ratio : {2.0f, 1.5f}) {
    GearRun run;
    run.ratio = ratio;
    run.gear_first = true;
    run.load = 20.0f;
    const GearReadings free = run_gears(run);
    run.couple = true;
    const GearReadings coupled = run_gears(run);
    const std::string key = "Gear.drift.ratio" + ratio_key(ratio);
    report(key + ".first_step_w_ratio_error", free.first_w_ratio_error);
    report(key + ".max_w_ratio_error", free.max_w_ratio_error);
    report(key + ".end_drift_rad", free.end_drift);
    report(key + ".angle_ratio_error", free.angle_ratio_error);
    report(key + ".coupled.end_drift_rad", coupled.end_drift);
    report(key + ".coupled.max_drift_rad", coupled.max_drift);
    report(key + ".coupled.angle_ratio_error", coupled.angle_ratio_error);
    report(key + ".coupled.turn1_rad", coupled.turns1);
    EXPECT_GT(std::fabs(coupled.turns1), 10.0f);  // measured 20.0 rad
    EXPECT_LT(coupled.end_drift,
              0.5f * free.end_drift);  // measured 3.8e-6 vs 3.9e-4 (r 2), 3.0e-5 vs 7.5e-4 (r 1.5)
    EXPECT_LT(coupled.angle_ratio_error, 0.01f);  // measured 1.9e-7 (r 2), 1.5e-6 (r 1.5)
  }
}

// Re-enabled, a coupled gear keeps the angles it finds: gear 1 turns alone (4 rad/s motor) for
// 1 s while the gear is disabled, then the gear is enabled again; from then on the speeds and
// the turns since re-enabling keep the ratio 2 — no jerk back towards the angles of before.
TEST_F(GearPulleyLaws, ReenabledGearKeepsTheAnglesItFinds) {
  LawWorld world;
  BodyOptions o1;
  o1.mass = 2.0f;
  BodyOptions o2;
  o2.mass = 8.0f;
  const BodyID g1 = world.add_box(Vec3(0.5f, 0.5f, 0.1f), Vec3(0.0f, 5.0f, 0.0f), o1);
  const BodyID g2 = world.add_box(Vec3(1.0f, 1.0f, 0.1f), Vec3(3.0f, 5.0f, 0.0f), o2);
  const Ref<Constraint> h1 = add(world, hinge_to_world(world, g1));
  const Ref<Constraint> h2 = add(world, hinge_to_world(world, g2));
  GearConstraintSettings gs;
  gs.hinge_axis1 = gs.hinge_axis2 = Vec3(0.0f, 0.0f, 1.0f);
  gs.ratio = 2.0f;
  const Ref<Constraint> gear = add(world, gs.create(world.bodies(), g1, g2));
  ASSERT_TRUE(static_cast<GearConstraint&>(*gear).set_constraints(h1, h2).ok());
  auto& motor = static_cast<HingeConstraint&>(*h1);
  motor.set_motor_state(MotorState::Velocity);
  ASSERT_TRUE(motor.set_target_angular_velocity(4.0f).ok());
  gear->set_enabled(false);
  world.run(60);
  const float w2_alone = world.angular_velocity(g2).z();
  gear->set_enabled(true);
  TurnAboutZ t1, t2;
  t1.update(world.body(g1).rotation());
  t2.update(world.body(g2).rotation());
  const float start1 = t1.angle, start2 = t2.angle;
  float max_drift = 0.0f, max_w_error = 0.0f;
  world.run(120, [&](int) {
    t1.update(world.body(g1).rotation());
    t2.update(world.body(g2).rotation());
    max_drift = std::max(max_drift, std::fabs((t1.angle - start1) + 2.0f * (t2.angle - start2)));
    const float w1 = world.angular_velocity(g1).z();
    const float w2 = world.angular_velocity(g2).z();
    max_w_error = std::max(max_w_error, std::fabs(w1 + 2.0f * w2) / std::fabs(w1));
  });
  report("Gear.reenabled.w2_while_disabled", w2_alone);
  report("Gear.reenabled.max_drift_rad", max_drift);
  report("Gear.reenabled.max_w_ratio_error", max_w_error);
  report("Gear.reenabled.turn1_rad", t1.angle - start1);
  EXPECT_NEAR(w2_alone, 0.0f, 1.0e-5f);                        // measured
  EXPECT_LT(max_w_error, 0.01f);                               // measured
  EXPECT_LT(max_drift, 0.01f * std::fabs(t1.angle - start1));  // measured
}

struct RackReadings {
  float max_ratio_error = 0.0f;  // max over the last 4 s of |θ1 − ratio·x2| / |θ1|
  float max_drift = 0.0f;        // max |θ1 − ratio·x2| (rad)
  float end_drift = 0.0f;        // |θ1 − ratio·x2| after 5 s (rad)
  float theta = 0.0f;            // pinion turn after 5 s (rad)
  float x = 0.0f;                // rack travel after 5 s (m)
};

// A pinion (2 kg, on a hinge about z) drives a rack (4 kg bar, on a slider along x) at ratio
// 2 rad/m: its hinge motor turns it at 3 rad/s, so the rack runs at +1.5 m/s against the
// slider's friction (20 N). The coupling is added before the joints (it is solved first, so the
// motor and the friction leave it a residual each step: drift); 5 s.
RackReadings run_rack(bool couple) {
  LawWorld world;
  BodyOptions o1;
  o1.mass = 2.0f;
  BodyOptions o2;
  o2.mass = 4.0f;
  const BodyID pinion = world.add_box(Vec3(0.5f, 0.5f, 0.1f), Vec3(0.0f, 5.0f, 0.0f), o1);
  const BodyID rack = world.add_box(Vec3(1.0f, 0.1f, 0.1f), Vec3(0.0f, 3.0f, 0.0f), o2);
  RackAndPinionConstraintSettings rs;
  rs.hinge_axis = Vec3(0.0f, 0.0f, 1.0f);
  rs.slider_axis = Vec3(1.0f, 0.0f, 0.0f);
  rs.ratio = 2.0f;
  const Ref<Constraint> coupling = add(world, rs.create(world.bodies(), pinion, rack));
  const Ref<Constraint> hinge = add(world, hinge_to_world(world, pinion));
  SliderConstraintSettings ss;
  ss.point1 = ss.point2 = Vec3(0.0f, 3.0f, 0.0f);
  ss.slider_axis1 = Vec3(1.0f, 0.0f, 0.0f);
  ss.max_friction_force = 20.0f;
  const Ref<Constraint> slider = add(world, ss.create(world.bodies(), Constraint::k_world, rack));
  if (couple) {
    EXPECT_TRUE(
        static_cast<RackAndPinionConstraint&>(*coupling).set_constraints(hinge, slider).ok());
  }
  auto& motor = static_cast<HingeConstraint&>(*hinge);
  motor.set_motor_state(MotorState::Velocity);
  EXPECT_TRUE(motor.set_target_angular_velocity(3.0f).ok());
  RackReadings r;
  TurnAboutZ t;
  const float x0 = world.position(rack).x();
  world.run(300, [&](int step) {
    t.update(world.body(pinion).rotation());
    const float x = world.position(rack).x() - x0;
    const float e = std::fabs(t.angle - 2.0f * x);
    r.max_drift = std::max(r.max_drift, e);
    if (step >= 60) r.max_ratio_error = std::max(r.max_ratio_error, e / std::fabs(t.angle));
    r.theta = t.angle;
    r.x = x;
    r.end_drift = e;
  });
  return r;
}

// The rack's travel follows the pinion's turn (x2 = θ1 / ratio, Jolt's sign) within 1 %, with and
// without the joints coupled; coupled, the drift is smaller.
TEST_F(GearPulleyLaws, RackFollowsPinion) {
  const RackReadings free = run_rack(false);
  const RackReadings coupled = run_rack(true);
  report("RackAndPinion.ratio_error", free.max_ratio_error);
  report("RackAndPinion.max_drift_rad", free.max_drift);
  report("RackAndPinion.coupled.ratio_error", coupled.max_ratio_error);
  report("RackAndPinion.coupled.max_drift_rad", coupled.max_drift);
  report("RackAndPinion.end_drift_rad", free.end_drift);
  report("RackAndPinion.coupled.end_drift_rad", coupled.end_drift);
  report("RackAndPinion.theta_rad", coupled.theta);
  report("RackAndPinion.x_m", coupled.x);
  EXPECT_NEAR(coupled.theta, 15.0f, 0.3f);    // measured 14.9998 rad
  EXPECT_NEAR(coupled.x, 7.5f, 0.075f);       // measured 7.4999 m: +θ moves the rack along +s2
  EXPECT_LT(free.max_ratio_error, 0.01f);     // measured 9.7e-5
  EXPECT_LT(coupled.max_ratio_error, 0.01f);  // measured 1.1e-6
  EXPECT_LT(coupled.end_drift, 0.5f * free.end_drift);  // measured 9.5e-6 vs 2.8e-4 rad
}

// An Atwood machine: two small boxes hang 3 m below fixed points (−1, 10, 0) and (1, 10, 0) on
// a rope of length L1 + ratio·L2 (max_length: the length at creation), tied at their centres.
struct Atwood {
  std::unique_ptr<LawWorld> world;
  BodyID b1, b2;
  Ref<Constraint> pulley;
  PulleyConstraint& p() { return static_cast<PulleyConstraint&>(*pulley); }
  // L1 + ratio·L2 from the bodies' poses (m).
  float length(const Vec3& local1 = Vec3(), const Vec3& local2 = Vec3()) {
    const PulleyConstraintSettings s = p().settings();
    return (world_point(*world, b1, local1) - s.fixed_point1).length() +
           s.ratio * (world_point(*world, b2, local2) - s.fixed_point2).length();
  }
};
Atwood make_atwood(float ratio, float m1, float m2, const PulleyConstraintSettings& base = {},
                   const Vec3& v1 = Vec3(), const Vec3& v2 = Vec3()) {
  Atwood a;
  a.world = std::make_unique<LawWorld>();
  BodyOptions o1;
  o1.mass = m1;
  o1.linear_velocity = v1;
  BodyOptions o2;
  o2.mass = m2;
  o2.linear_velocity = v2;
  a.b1 = a.world->add_box(Vec3(0.1f, 0.1f, 0.1f), Vec3(-1.0f, 7.0f, 0.0f), o1);
  a.b2 = a.world->add_box(Vec3(0.1f, 0.1f, 0.1f), Vec3(1.0f, 7.0f, 0.0f), o2);
  PulleyConstraintSettings s = base;
  s.body_point1 = Vec3(-1.0f, 7.0f, 0.0f);
  s.fixed_point1 = Vec3(-1.0f, 10.0f, 0.0f);
  s.body_point2 = Vec3(1.0f, 7.0f, 0.0f);
  s.fixed_point2 = Vec3(1.0f, 10.0f, 0.0f);
  s.ratio = ratio;
  a.pulley = add(*a.world, s.create(a.world->bodies(), a.b1, a.b2));
  return a;
}

// Balanced masses (m2 = ratio·m1) stay put; otherwise body 1 falls with the closed-form
// a1 = g·ratio·(ratio·m1 − m2) / (ratio²·m1 + m2) and body 2 moves ratio× less, the rope length
// held within 1 %: ratio 1 and 2.
TEST_F(GearPulleyLaws, AtwoodMachineBalancesAndAcceleratesAsTheRatioSays) {
  struct Case {
    float ratio, m1, m2;
  };
  for (const Case c : {Case{1.0f, 1.0f, 1.0f}, Case{1.0f, 3.0f, 1.0f}, Case{2.0f, 1.0f, 2.0f},
                       Case{2.0f, 1.0f, 3.0f}, Case{2.0f, 2.0f, 1.0f}}) {
    Atwood a = make_atwood(c.ratio, c.m1, c.m2);
    ASSERT_NE(a.pulley, nullptr);
    const float max_length = a.p().settings().max_length;
    float worst = 0.0f;
    const float t = 1.0f;
    a.world->run(
        60, [&](int) { worst = std::max(worst, std::fabs(a.length() - max_length) / max_length); });
    const float d1 = 7.0f - a.world->position(a.b1).y();  // fall of body 1 (m)
    const float d2 = a.world->position(a.b2).y() - 7.0f;  // rise of body 2 (m)
    // From the speed: the fall after 60 steps of semi-implicit Euler is a·dt²·60·61/2, 1.7 %
    // more than a·t²/2, while the speed is a·t exactly.
    const float v1 = -a.world->velocity(a.b1).y();
    const float expected =
        k_g * c.ratio * (c.ratio * c.m1 - c.m2) / (c.ratio * c.ratio * c.m1 + c.m2);
    const float measured = v1 / t;
    const std::string key = "Pulley.atwood.r" + std::to_string(int(c.ratio)) + ".m" +
                            std::to_string(int(c.m1)) + "_" + std::to_string(int(c.m2));
    report(key + ".a1_m_s2", measured);
    report(key + ".a1_closed_form", expected);
    report(key + ".rise2_times_ratio_minus_fall1", c.ratio * d2 - d1);
    report(key + ".max_length_error", worst);
    EXPECT_LT(worst, 0.01f);  // measured ≤ 5.8e-4
    if (expected == 0.0f) {
      EXPECT_NEAR(measured, 0.0f, 0.01f);  // measured 0 (r 1, 1:1 kg; r 2, 1:2 kg)
    } else {
      EXPECT_NEAR(measured / expected, 1.0f,
                  0.03f);  // measured 4.905 / 4.905, −2.80286 / −2.80286, 6.53999 / 6.54
    }
    EXPECT_NEAR(c.ratio * d2, d1, 0.01f * std::max(1.0f, std::fabs(d1)));  // measured ≤ 3e-6 m
  }
}

// Thrown: balanced pairs on ratio 1 and 2, tied at the top of their boxes, thrown sideways
// with random velocities (±3 m/s per axis), swing and spin on the rope for 3 s: while the rope
// pulls, L1 + ratio·L2 stays within 1 % of max_length, and never exceeds it by more.
TEST_F(GearPulleyLaws, ThrownPulleyKeepsItsLength) {
  for (const float ratio : {1.0f, 2.0f}) {
    for (uint32_t seed : {1u, 2u, 3u}) {
      Random random(seed);
      const Vec3 v1 = random_vec3(random, -3.0f, 3.0f);
      const Vec3 v2 = random_vec3(random, -3.0f, 3.0f);
      PulleyConstraintSettings base;
      Atwood a = make_atwood(ratio, 1.0f, ratio, base, v1, v2);
      ASSERT_NE(a.pulley, nullptr);
      // Tie the rope at the top of each box instead of its centre: the rope also turns them.
      PulleyConstraintSettings s = a.p().settings();
      ASSERT_TRUE(a.world->system().remove_constraint(a.pulley).ok());
      s.body_point1 = s.body_point2 = Vec3(0.05f, 0.1f, 0.0f);
      s.min_length = 0.0f;
      s.max_length = -1.0f;
      a.pulley = add(*a.world, s.create(a.world->bodies(), a.b1, a.b2));
      ASSERT_NE(a.pulley, nullptr);
      const Vec3 tie(0.05f, 0.1f, 0.0f);
      const float max_length = a.p().settings().max_length;
      float worst_taut = 0.0f, worst_over = 0.0f;
      int taut_steps = 0;
      a.world->run(180, [&](int) {
        const float l = a.length(tie, tie);
        worst_over = std::max(worst_over, (l - max_length) / max_length);
        if (a.p().total_lambda() < 0.0f) {
          ++taut_steps;
          worst_taut = std::max(worst_taut, std::fabs(l - max_length) / max_length);
        }
      });
      const std::string key =
          "Pulley.thrown.r" + std::to_string(int(ratio)) + ".seed" + std::to_string(seed);
      report(key + ".taut_steps", taut_steps);
      report(key + ".taut_length_error", worst_taut);
      report(key + ".over_length", worst_over);
      EXPECT_GT(taut_steps, 30);     // measured 180 of 180 (all six)
      EXPECT_LT(worst_taut, 0.01f);  // measured 5.6e-3 (r 1 seed 1), others ≤ 1.8e-3
      EXPECT_LT(worst_over, 0.01f);  // measured as worst_taut (the rope never went slack)
    }
  }
}

// max_length: a slack rope (max 1 m longer than at creation) lets equal masses fall freely until
// it is taut (after √(2·0.5 m / g) = 0.319 s), then holds them at max_length. min_length: both
// thrown up at 5 m/s (free, L would shrink by 2.5 m), the rope stops at min_length = L0 − 2 m.
TEST_F(GearPulleyLaws, PulleyLimitsHold) {
  {
    PulleyConstraintSettings s;
    s.max_length = 7.0f;  // L0 = 6 m
    Atwood a = make_atwood(1.0f, 1.0f, 1.0f, s);
    ASSERT_NE(a.pulley, nullptr);
    int taut_at = -1;
    float longest = 0.0f;
    a.world->run(180, [&](int step) {
      if (taut_at < 0 && a.p().total_lambda() < 0.0f) taut_at = step;
      longest = std::max(longest, a.length());
    });
    report("Pulley.max_length.taut_at_step", taut_at);
    report("Pulley.max_length.longest_m", longest);
    report("Pulley.max_length.final_m", a.length());
    report("Pulley.max_length.final_speed", a.world->velocity(a.b1).length());
    EXPECT_NEAR(taut_at, 19, 1);                         // measured 19 (0.319 s = step 19)
    EXPECT_LT(longest, 7.0f * 1.01f);                    // measured 7.0227 m (0.3 %)
    EXPECT_NEAR(a.length(), 7.0f, 0.01f * 7.0f);         // measured 7.0000 m
    EXPECT_LT(a.world->velocity(a.b1).length(), 0.01f);  // measured 0 m/s
  }
  {
    PulleyConstraintSettings s;
    s.min_length = 4.0f;  // L0 = 6 m
    Atwood a = make_atwood(1.0f, 1.0f, 1.0f, s, Vec3(0.0f, 5.0f, 0.0f), Vec3(0.0f, 5.0f, 0.0f));
    ASSERT_NE(a.pulley, nullptr);
    float shortest = 100.0f;
    a.world->run(60, [&](int) { shortest = std::min(shortest, a.length()); });
    report("Pulley.min_length.shortest_m", shortest);
    const float after = a.length();
    report("Pulley.min_length.after_1s_m", after);
    // Limits act from the step after the rope reaches them (no speculative limit, as Jolt): the
    // bodies closing at 10 m/s pass the stop by part of one step's travel (0.17 m) before the
    // position solve pushes them back.
    EXPECT_GT(shortest, 4.0f - 0.06f);  // measured 3.9565 m (1.1 % past the stop)
    EXPECT_LT(shortest, 4.0f + 0.05f);  // measured 3.9565 m: the stop was reached
  }
}

}  // namespace
}  // namespace gear_pulley_laws_test
}  // namespace atl::laws
