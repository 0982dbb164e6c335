// Constraint laws (LAWS.md §D, seed 003): types hold their bodies together when thrown, the
// pendulum period, breaking at 2τ/dt (D5), the sag of a fixed chain (D6). Law conditions: dt =
// 1/60 s, 10 velocity and 2 position steps, sleeping off, damping 0. The comment beside each
// assertion gives the measured reading.

#include <random>

#include "atoll/constraint/DistanceConstraint.h"
#include "atoll/constraint/FixedConstraint.h"
#include "atoll/constraint/HingeConstraint.h"
#include "atoll/constraint/PointConstraint.h"
#include "atoll/constraint/SliderConstraint.h"
#include "laws/ConstraintLawUtil.h"
#include "laws/LawFixture.h"

namespace atl::laws {
namespace constraint_laws_test {
namespace {

class ConstraintLaws : public LawFixture {
 protected:
  void pendulum(LawWorld& world, bool distance, const std::string& name);
};

// A point joint between two thrown boxes keeps its two points together: max separation over
// the last second < 1 mm (measured: see report).
TEST_F(ConstraintLaws, PointJointHoldsThrownBodies) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    LawWorld world;
    const ThrownPair p = thrown_pair(world, seed);
    PointConstraintSettings s;
    s.point1 = s.point2 = Vec3(0.5f, 10.0f, 0.0f);
    const Ref<Constraint> c = add(world, s.create(world.bodies(), p.a, p.b));
    ASSERT_NE(c, nullptr);
    const PointConstraintSettings local = static_cast<PointConstraint&>(*c).settings();
    float error = 0.0f;
    world.run(120, [&](int step) {
      if (step < 60) return;
      error = std::max(
          error,
          (world_point(world, p.a, local.point1) - world_point(world, p.b, local.point2)).length());
    });
    report("Constraint.point.thrown_separation_mm.seed" + std::to_string(seed), error * 1000.0f);
    EXPECT_LT(error, 0.001f);
  }
}

// A fixed joint keeps the points together and the relative rotation: < 1 mm, < 0.01 rad.
TEST_F(ConstraintLaws, FixedJointHoldsThrownBodies) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    LawWorld world;
    const ThrownPair p = thrown_pair(world, seed);
    FixedConstraintSettings s;
    s.point1 = s.point2 = Vec3(0.5f, 10.0f, 0.0f);
    const Ref<Constraint> c = add(world, s.create(world.bodies(), p.a, p.b));
    ASSERT_NE(c, nullptr);
    const FixedConstraintSettings local = static_cast<FixedConstraint&>(*c).settings();
    float error = 0.0f, angle = 0.0f;
    world.run(120, [&](int step) {
      if (step < 60) return;
      error = std::max(
          error,
          (world_point(world, p.a, local.point1) - world_point(world, p.b, local.point2)).length());
      angle = std::max(angle, rotation_error(world, p.a, p.b, local.relative_rotation));
    });
    report("Constraint.fixed.thrown_separation_mm.seed" + std::to_string(seed), error * 1000.0f);
    report("Constraint.fixed.thrown_angle_rad.seed" + std::to_string(seed), angle);
    EXPECT_LT(error, 0.001f);
    EXPECT_LT(angle, 0.01f);
  }
}

// A rod (min = max = distance at creation) keeps its length within 1 mm (measured 0.15 to
// 0.96 mm); a rope (min 0, max 1.2 m) stretches at most 1 % past 1.2 m (measured 3.4 to
// 8.0 mm: a taut rope on a spinning pair drifts by the same r·(ω·dt)²/2 per step as a rod, at a
// larger radius, and the limit's position solve takes back only what is past the limit).
TEST_F(ConstraintLaws, DistanceJointHoldsThrownBodies) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    for (const bool rope : {false, true}) {
      LawWorld world;
      const ThrownPair p = thrown_pair(world, seed);
      DistanceConstraintSettings s;
      s.point1 = Vec3(0.25f, 10.0f, 0.0f);
      s.point2 = Vec3(0.75f, 10.0f, 0.0f);
      if (rope) {
        s.min_distance = 0.0f;
        s.max_distance = 1.2f;
      }
      const Ref<Constraint> c = add(world, s.create(world.bodies(), p.a, p.b));
      ASSERT_NE(c, nullptr);
      const DistanceConstraintSettings local = static_cast<DistanceConstraint&>(*c).settings();
      float error = 0.0f;
      world.run(120, [&](int step) {
        if (step < 60) return;
        const float d =
            (world_point(world, p.a, local.point1) - world_point(world, p.b, local.point2))
                .length();
        error = std::max(error, rope ? d - 1.2f : std::fabs(d - 0.5f));
      });
      report(std::string("Constraint.distance.") + (rope ? "rope_overshoot_mm" : "rod_error_mm") +
                 ".seed" + std::to_string(seed),
             error * 1000.0f);
      EXPECT_LT(error, rope ? 0.012f : 0.001f);
    }
  }
}

// A pendulum: a 5 cm sphere on a 1 m joint to the world, released at 0.1 rad, swings with
// period 2π√(L/g) (physical pendulum: 2π√((L² + 2r²/5)/(gL)) for the point joint, where the
// sphere turns with the arm) within 1 %, and its energy does not grow over 20 s.
void ConstraintLaws::pendulum(LawWorld& world, bool distance, const std::string& name) {
  const float length = 1.0f, radius = 0.05f, theta0 = 0.1f;
  const Vec3 start(length * std::sin(theta0), -length * std::cos(theta0), 0.0f);
  const BodyID bob = world.add_sphere(radius, start, BodyOptions{.mass = 1.0f});
  Ref<Constraint> c;
  if (distance) {
    DistanceConstraintSettings s;
    s.point1 = Vec3::zero();
    s.point2 = start;
    c = add(world, s.create(world.bodies(), Constraint::k_world, bob));
  } else {
    PointConstraintSettings s;
    s.point1 = s.point2 = Vec3::zero();
    c = add(world, s.create(world.bodies(), Constraint::k_world, bob));
  }
  ASSERT_NE(c, nullptr);
  const float inertia = 0.4f * radius * radius;  // per kg
  const auto energy = [&] {
    const Body& b = world.body(bob);
    return 0.5f * b.linear_velocity().length_sq() +
           0.5f * inertia * b.angular_velocity().length_sq() +
           k_g * b.center_of_mass_position().y();
  };
  const float e0 = energy();
  // Symplectic Euler's energy oscillates (by about ω·dt/2 of the swing's energy, here 2.6 %)
  // without growing: the peaks of the last 4 s are compared with those of the first 4 s.
  float e_first = e0, e_last = e0;
  std::vector<float> crossings;
  float last_x = start.x();
  const int steps = 20 * 60;
  world.run(steps, [&](int step) {
    const float x = world.body(bob).center_of_mass_position().x();
    if ((last_x > 0.0f) != (x > 0.0f))
      crossings.push_back((static_cast<float>(step) + last_x / (last_x - x)) * k_dt);
    last_x = x;
    if (step < 4 * 60) e_first = std::max(e_first, energy());
    if (step >= steps - 4 * 60) e_last = std::max(e_last, energy());
  });
  ASSERT_GE(crossings.size(), 10u);
  const float period =
      2.0f * (crossings.back() - crossings.front()) / static_cast<float>(crossings.size() - 1);
  const float reduced = distance ? length : (length * length + 0.4f * radius * radius) / length;
  const float expected = k_two_pi * std::sqrt(reduced / k_g);
  report("Constraint.pendulum." + name + ".period_s", period);
  report("Constraint.pendulum." + name + ".expected_s", expected);
  report("Constraint.pendulum." + name + ".energy_J", e0 - k_g * -length);
  report("Constraint.pendulum." + name + ".energy_peak_growth_J", e_last - e_first);
  EXPECT_NEAR(period, expected, 0.01f * expected);
  EXPECT_NEAR(period, k_two_pi * std::sqrt(length / k_g), 0.01f * expected);
  EXPECT_LE(e_last - e_first, 1.0e-5f);
}

TEST_F(ConstraintLaws, PendulumOnPointJointKeepsPeriodAndEnergy) {
  LawWorld world;
  pendulum(world, false, "point");
}

TEST_F(ConstraintLaws, PendulumOnDistanceJointKeepsPeriodAndEnergy) {
  LawWorld world;
  pendulum(world, true, "distance");
}

// D5: the impulse a constraint reports is this step's, not a running sum. Two 1 kg spheres
// joined at their midpoint, no gravity, force F on one along the joint: the joint carries F/2,
// so λ = (F/2)·dt each step, and a threshold τ breaks it at F_max = 2τ/dt (τ = 1 N·s at 60 Hz:
// 120 N; Atoll's block point solve reads λ = 1.000 at exactly 120 N, on the threshold, where
// Jolt's reads 0.9992, so the test holds at 0.99·F_max and breaks at 125/120·F_max). Returns
// the step it broke at (−1: not within 60 steps) and the last λ before.
struct BreakReading {
  int broken_at = -1;
  float lambda = 0.0f;
};
BreakReading pull_apart(float force, float threshold) {
  PhysicsSettings settings = law_settings();
  settings.gravity = Vec3::zero();
  LawWorld world(settings);
  const BodyID a = world.add_sphere(0.2f, Vec3(0.0f, 0.0f, 0.0f), BodyOptions{.mass = 1.0f});
  const BodyID b = world.add_sphere(0.2f, Vec3(1.0f, 0.0f, 0.0f), BodyOptions{.mass = 1.0f});
  PointConstraintSettings s;
  s.point1 = s.point2 = Vec3(0.5f, 0.0f, 0.0f);
  s.common.break_impulse = threshold;
  const Ref<Constraint> c = add(world, s.create(world.bodies(), a, b));
  BreakReading reading;
  for (int step = 0; step < 60 && reading.broken_at < 0; ++step) {
    EXPECT_TRUE(world.bodies().add_force(b, Vec3(force, 0.0f, 0.0f)).ok());
    const UpdateResult r = world.step();
    if (!r.broken.empty()) {
      EXPECT_EQ(r.broken.size(), 1u);
      EXPECT_EQ(r.broken[0], c);
      EXPECT_FALSE(c->is_enabled());
      reading.broken_at = step;
    } else {
      reading.lambda = static_cast<PointConstraint&>(*c).total_lambda_position().length();
    }
  }
  return reading;
}

TEST_F(ConstraintLaws, BreakingIsPerStepImpulseAtTwoTauOverDt) {
  const BreakReading sixty = pull_apart(60.0f, 0.0f);
  report("Constraint.break.lambda_at_60N", sixty.lambda);  // (F/2)·dt = 0.5
  EXPECT_NEAR(sixty.lambda, 0.5f, 0.005f);
  EXPECT_EQ(sixty.broken_at, -1);
  for (const float tau : {1.0f, 2.0f}) {
    const float f_max = 2.0f * tau / k_dt;  // 120 N, 240 N
    const BreakReading below = pull_apart(f_max * 0.99f, tau);
    const BreakReading above = pull_apart(f_max * 125.0f / 120.0f, tau);
    report("Constraint.break.tau" + std::to_string(int(tau)) + ".lambda_below", below.lambda);
    report("Constraint.break.tau" + std::to_string(int(tau)) + ".broken_at_above", above.broken_at);
    EXPECT_EQ(below.broken_at, -1)
        << "tau " << tau;  // 0.99·F_max holds for 60 steps (λ 0.99, 1.98)
    EXPECT_EQ(above.broken_at, 0) << "tau " << tau;  // F_max·125/120 breaks in the first step
  }
}

// D6: a chain of 0.2 m cubes (pitch 0.25 m) hanging from the world on fixed joints stretches
// under gravity: more with more links, less with more iterations, the same for any link mass
// (the solve is invariant to scaling every mass). The reading is the drop of the last link
// after 10 s: the chain starts without warm start, its first steps leave it stretched by a few
// mm (8 links at 10/2: 8.75 mm after 5 steps), and two Baumgarte passes of 0.2 take that back
// slowly (2.50 mm after 2 s, 0.045 mm after 10 s) — the stretch that remains then is what the
// iterations leave. Jolt (seed 003 §8.4, its own chain): 8 links at 10/2 0.0496 mm, 16 links
// 9.24 mm, 8 links at 1/2, 2/2 and 10/1 iterations 0.505, 0.254, 0.543 mm; Atoll's readings
// of the same sweeps are beside the assertions.
float chain_sag_mm(int links, int velocity_steps, float mass, int position_steps = 2) {
  PhysicsSettings settings = law_settings();
  settings.velocity_steps = velocity_steps;
  settings.position_steps = position_steps;
  LawWorld world(settings);
  const Vec3 half(0.1f, 0.1f, 0.1f);
  const float pitch = 0.25f;
  BodyID previous = Constraint::k_world;
  BodyID last;
  for (int i = 0; i < links; ++i) {
    const BodyID link = world.add_box(half, Vec3(0.0f, 5.0f - (float(i) + 0.5f) * pitch, 0.0f),
                                      BodyOptions{.mass = mass});
    FixedConstraintSettings s;
    s.point1 = s.point2 = Vec3(0.0f, 5.0f - float(i) * pitch, 0.0f);
    add(world, s.create(world.bodies(), previous, link));
    previous = last = link;
  }
  world.run(600);
  const float start = 5.0f - (float(links) - 0.5f) * pitch;
  return (start - world.body(last).center_of_mass_position().y()) * 1000.0f;
}

TEST_F(ConstraintLaws, FixedChainSagGrowsWithLengthShrinksWithIterationsNotWithMass) {
  const float sag4 = chain_sag_mm(4, 10, 1.0f);          // 0.0081 mm (Jolt 0.0153)
  const float sag8 = chain_sag_mm(8, 10, 1.0f);          // 0.0448 mm (Jolt 0.0496)
  const float sag16 = chain_sag_mm(16, 10, 1.0f);        // 9.236 mm (Jolt 9.237)
  const float sag8_v1 = chain_sag_mm(8, 1, 1.0f);        // 0.499 mm (Jolt 0.505)
  const float sag8_v2 = chain_sag_mm(8, 2, 1.0f);        // 0.247 mm (Jolt 0.254)
  const float sag8_v30 = chain_sag_mm(8, 30, 1.0f);      // 0.0153 mm (Jolt 0.0343)
  const float sag8_p1 = chain_sag_mm(8, 10, 1.0f, 1);    // 0.539 mm (Jolt 0.543)
  const float sag8_heavy = chain_sag_mm(8, 10, 100.0f);  // as sag8 (Jolt: the same)
  report("Constraint.fixed_chain.sag_mm.4_links", sag4);
  report("Constraint.fixed_chain.sag_mm.8_links", sag8);
  report("Constraint.fixed_chain.sag_mm.16_links", sag16);
  report("Constraint.fixed_chain.sag_mm.8_links_1_velocity_step", sag8_v1);
  report("Constraint.fixed_chain.sag_mm.8_links_2_velocity_steps", sag8_v2);
  report("Constraint.fixed_chain.sag_mm.8_links_30_velocity_steps", sag8_v30);
  report("Constraint.fixed_chain.sag_mm.8_links_1_position_step", sag8_p1);
  report("Constraint.fixed_chain.sag_mm.8_links_100kg", sag8_heavy);
  EXPECT_GT(sag8, sag4);
  EXPECT_GT(sag16, sag8);
  EXPECT_GT(sag8_v1, sag8_v2);
  EXPECT_GT(sag8_v2, sag8);
  EXPECT_LT(sag8_v30, sag8);
  EXPECT_GT(sag8_p1, sag8);
  // Within 2× of Jolt's reading where both are well above round-off.
  EXPECT_NEAR(sag8_v1, 0.505f, 0.25f);
  EXPECT_NEAR(sag16, 9.24f, 4.6f);
  EXPECT_NEAR(sag8_heavy, sag8, 0.01f * sag8 + 0.001f);
}

// A hinge between two thrown boxes (axis z, at their midpoint) keeps its point (< 1 mm) and its
// axes aligned (< 0.01 rad).
TEST_F(ConstraintLaws, HingeJointHoldsThrownBodies) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    LawWorld world;
    const ThrownPair p = thrown_pair(world, seed);
    HingeConstraintSettings s;
    s.point1 = s.point2 = Vec3(0.5f, 10.0f, 0.0f);
    s.hinge_axis1 = s.hinge_axis2 = Vec3(0.0f, 0.0f, 1.0f);
    const Ref<Constraint> c = add(world, s.create(world.bodies(), p.a, p.b));
    ASSERT_NE(c, nullptr);
    const HingeConstraintSettings local = static_cast<HingeConstraint&>(*c).settings();
    float error = 0.0f, angle = 0.0f;
    world.run(120, [&](int step) {
      if (step < 60) return;
      error = std::max(
          error,
          (world_point(world, p.a, local.point1) - world_point(world, p.b, local.point2)).length());
      const Vec3 a1 = world.body(p.a).rotation() * local.hinge_axis1;
      const Vec3 a2 = world.body(p.b).rotation() * local.hinge_axis2;
      angle = std::max(angle, std::acos(std::clamp(a1.dot(a2), -1.0f, 1.0f)));
    });
    report("Constraint.hinge.thrown_separation_mm.seed" + std::to_string(seed), error * 1000.0f);
    report("Constraint.hinge.thrown_axis_angle_rad.seed" + std::to_string(seed), angle);
    EXPECT_LT(error, 0.001f);
    EXPECT_LT(angle, 0.01f);
  }
}

// A door: a 1 m box on a hinge to the world about y, no gravity.
struct Door {
  std::unique_ptr<LawWorld> world;
  BodyID door;
  Ref<Constraint> hinge;
  HingeConstraint& h() { return static_cast<HingeConstraint&>(*hinge); }
};
Door make_door(const HingeConstraintSettings& base, const Vec3& angular_velocity = Vec3()) {
  PhysicsSettings settings = law_settings();
  settings.gravity = Vec3::zero();
  Door d;
  d.world = std::make_unique<LawWorld>(settings);
  BodyOptions o;
  o.mass = 10.0f;
  o.angular_velocity = angular_velocity;
  d.door = d.world->add_box(Vec3(0.5f, 1.0f, 0.05f), Vec3(0.5f, 1.0f, 0.0f), o);
  HingeConstraintSettings s = base;
  s.point1 = s.point2 = Vec3(0.0f, 1.0f, 0.0f);
  s.hinge_axis1 = s.hinge_axis2 = Vec3(0.0f, 1.0f, 0.0f);
  s.normal_axis1 = s.normal_axis2 = Vec3(1.0f, 0.0f, 0.0f);
  d.hinge = add(*d.world, s.create(d.world->bodies(), Constraint::k_world, d.door));
  return d;
}

// Limits hold: a door swung at 3 rad/s against limits [−0.5, 0.5] rad never passes them by more
// than 0.01 rad.
TEST_F(ConstraintLaws, HingeLimitsHold) {
  HingeConstraintSettings s;
  s.limits_min = -0.5f;
  s.limits_max = 0.5f;
  for (const float w : {3.0f, -3.0f}) {
    Door d = make_door(s, Vec3(0.0f, w, 0.0f));
    ASSERT_NE(d.hinge, nullptr);
    float lo = 0.0f, hi = 0.0f;
    d.world->run(120, [&](int) {
      lo = std::min(lo, d.h().current_angle());
      hi = std::max(hi, d.h().current_angle());
    });
    report("Constraint.hinge.limits.min_angle_rad.w" + std::to_string(int(w)), lo);
    report("Constraint.hinge.limits.max_angle_rad.w" + std::to_string(int(w)), hi);
    EXPECT_GT(lo, -0.51f);
    EXPECT_LT(hi, 0.51f);
  }
}

// Motors reach their targets (D4): a velocity motor turns the door at 2 rad/s; a position motor
// with its default 2 Hz critically damped spring brings it to π/2 (within 0.01 rad after 24
// steps; Jolt ~35) and its impulse returns to 0 at rest (after 5 s); a friction torque stops a
// spinning door.
TEST_F(ConstraintLaws, HingeMotorsReachTargets) {
  {
    Door d = make_door(HingeConstraintSettings{});
    d.h().set_motor_state(MotorState::Velocity);
    ASSERT_TRUE(d.h().set_target_angular_velocity(2.0f).ok());
    d.world->run(30);
    const float w = d.world->angular_velocity(d.door).y();
    report("Constraint.hinge.velocity_motor.w_rad_s", w);
    EXPECT_NEAR(w, 2.0f, 0.01f);
  }
  {
    Door d = make_door(HingeConstraintSettings{});
    d.h().set_motor_state(MotorState::Position);
    ASSERT_TRUE(d.h().set_target_angle(0.5f * k_pi).ok());
    int reached = -1;
    d.world->run(60, [&](int step) {
      if (reached < 0 && std::fabs(d.h().current_angle() - 0.5f * k_pi) < 0.01f) reached = step;
    });
    d.world->run(240);  // at rest after 5 s (at 2 s it still turned at 0.01 rad/s)
    report("Constraint.hinge.position_motor.steps_to_0.01rad", reached);
    report("Constraint.hinge.position_motor.angle_rad", d.h().current_angle());
    report("Constraint.hinge.position_motor.lambda_at_rest", d.h().total_lambda_motor());
    EXPECT_GE(reached, 0);
    EXPECT_NEAR(d.h().current_angle(), 0.5f * k_pi, 1.0e-4f);  // measured 1.570797
    EXPECT_NEAR(d.h().total_lambda_motor(), 0.0f, 1.0e-5f);    // measured 8e-8 N·m·s
  }
  {
    // B2: a rigid position motor (spring frequency 0) with the default unlimited torque reaches
    // its target within a step or two (an unlimited bound once rounded the motor's approach
    // speed to 0, so that it never moved, as Jolt's).
    HingeConstraintSettings s;
    s.motor_settings.spring.frequency = 0.0f;
    Door d = make_door(s);
    d.h().set_motor_state(MotorState::Position);
    ASSERT_TRUE(d.h().set_target_angle(0.5f).ok());
    int reached = -1;
    d.world->run(30, [&](int step) {
      if (reached < 0 && std::fabs(d.h().current_angle() - 0.5f) < 1.0e-3f) reached = step;
    });
    report("Constraint.hinge.rigid_position_motor.steps_to_1mrad", reached);
    report("Constraint.hinge.rigid_position_motor.angle_rad", d.h().current_angle());
    // The motor's row sees the door's inertia about its centre of mass, not about the hinge,
    // so it closes the error over a few steps (0.486 rad after 3; within 1 mrad at step 5).
    EXPECT_GE(reached, 0);
    EXPECT_LE(reached, 10);
    EXPECT_NEAR(d.h().current_angle(), 0.5f, 1.0e-4f);
  }
  {
    HingeConstraintSettings s;
    s.max_friction_torque = 5.0f;
    Door d = make_door(s, Vec3(0.0f, 2.0f, 0.0f));
    d.world->run(120);
    const float w = d.world->angular_velocity(d.door).y();
    report("Constraint.hinge.friction.w_after_2s", w);
    EXPECT_NEAR(w, 0.0f, 1.0e-4f);
  }
}

// D7: higher priority is solved later and so holds more exactly. A sphere hangs on two rods
// from the same world point that disagree (1.0 m and 1.1 m): the rod with the higher priority
// ends nearer its length; swapping the priorities swaps the winner.
TEST_F(ConstraintLaws, HigherPriorityConstraintHoldsMoreExactly) {
  for (const bool first_wins : {true, false}) {
    LawWorld world;
    const BodyID bob = world.add_sphere(0.1f, Vec3(0.0f, -1.05f, 0.0f));
    Ref<Constraint> rods[2];
    const float lengths[2] = {1.0f, 1.1f};
    for (int i = 0; i < 2; ++i) {
      DistanceConstraintSettings s;
      s.point1 = Vec3::zero();
      s.point2 = Vec3(0.0f, -1.05f, 0.0f);
      s.min_distance = s.max_distance = lengths[i];
      s.common.priority = (i == 0) == first_wins ? 1 : 0;
      rods[i] = add(world, s.create(world.bodies(), Constraint::k_world, bob));
    }
    world.run(60);
    const float d = world.body(bob).center_of_mass_position().length();
    report(std::string("Constraint.priority.length_m.") + (first_wins ? "first" : "second"), d);
    if (first_wins)
      EXPECT_LT(std::fabs(d - 1.0f), std::fabs(d - 1.1f));  // measured 1.0444 m
    else
      EXPECT_LT(std::fabs(d - 1.1f), std::fabs(d - 1.0f));  // measured 1.0556 m
  }
}

// A slider between two thrown boxes (axis x) keeps point 2 on body 1's axis line (< 1 mm off
// it) and their relative rotation (< 0.01 rad).
TEST_F(ConstraintLaws, SliderJointHoldsThrownBodies) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    LawWorld world;
    const ThrownPair p = thrown_pair(world, seed);
    SliderConstraintSettings s;
    s.point1 = s.point2 = Vec3(0.5f, 10.0f, 0.0f);
    const Ref<Constraint> c = add(world, s.create(world.bodies(), p.a, p.b));
    ASSERT_NE(c, nullptr);
    const SliderConstraintSettings local = static_cast<SliderConstraint&>(*c).settings();
    float error = 0.0f, angle = 0.0f;
    world.run(120, [&](int step) {
      if (step < 60) return;
      const Vec3 u = world_point(world, p.b, local.point2) - world_point(world, p.a, local.point1);
      const Vec3 axis = world.body(p.a).rotation() * local.slider_axis1;
      error = std::max(error, (u - axis * u.dot(axis)).length());
      angle = std::max(angle, rotation_error(world, p.a, p.b, local.relative_rotation));
    });
    report("Constraint.slider.thrown_off_axis_mm.seed" + std::to_string(seed), error * 1000.0f);
    report("Constraint.slider.thrown_angle_rad.seed" + std::to_string(seed), angle);
    EXPECT_LT(error, 0.001f);
    EXPECT_LT(angle, 0.01f);
  }
}

// A 10 kg box on a slider along x to the world, no gravity.
struct Carriage {
  std::unique_ptr<LawWorld> world;
  BodyID box;
  Ref<Constraint> slider;
  SliderConstraint& s() { return static_cast<SliderConstraint&>(*slider); }
};
Carriage make_carriage(const SliderConstraintSettings& base, const Vec3& velocity = Vec3()) {
  PhysicsSettings settings = law_settings();
  settings.gravity = Vec3::zero();
  Carriage c;
  c.world = std::make_unique<LawWorld>(settings);
  BodyOptions o;
  o.mass = 10.0f;
  o.linear_velocity = velocity;
  c.box = c.world->add_box(Vec3(0.2f, 0.2f, 0.2f), Vec3(0.0f, 1.0f, 0.0f), o);
  SliderConstraintSettings s = base;
  s.point1 = s.point2 = Vec3(0.0f, 1.0f, 0.0f);
  c.slider = add(*c.world, s.create(c.world->bodies(), Constraint::k_world, c.box));
  return c;
}

// Limits hold (a box sent at ±3 m/s against limits [−0.2, 0.2] m passes them by < 1 mm), and
// motors reach their targets: velocity 1 m/s, position 0.3 m (within 1 mm after 2 s); friction
// stops a sliding box.
TEST_F(ConstraintLaws, SliderLimitsHoldAndMotorsReachTargets) {
  SliderConstraintSettings limited;
  limited.limits_min = -0.2f;
  limited.limits_max = 0.2f;
  for (const float v : {3.0f, -3.0f}) {
    Carriage c = make_carriage(limited, Vec3(v, 1.0f, 0.0f));
    ASSERT_NE(c.slider, nullptr);
    float lo = 0.0f, hi = 0.0f;
    c.world->run(120, [&](int) {
      const float x = c.world->body(c.box).center_of_mass_position().x();
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    });
    report("Constraint.slider.limits.min_m.v" + std::to_string(int(v)), lo);
    report("Constraint.slider.limits.max_m.v" + std::to_string(int(v)), hi);
    EXPECT_GT(lo, -0.201f);
    EXPECT_LT(hi, 0.201f);
    EXPECT_NEAR(c.world->body(c.box).center_of_mass_position().y(), 1.0f, 0.001f);
  }
  {
    Carriage c = make_carriage(SliderConstraintSettings{});
    c.s().set_motor_state(MotorState::Velocity);
    ASSERT_TRUE(c.s().set_target_velocity(1.0f).ok());
    c.world->run(30);
    report("Constraint.slider.velocity_motor.v_m_s", c.world->velocity(c.box).x());
    EXPECT_NEAR(c.world->velocity(c.box).x(), 1.0f, 0.01f);
  }
  {
    Carriage c = make_carriage(SliderConstraintSettings{});
    c.s().set_motor_state(MotorState::Position);
    ASSERT_TRUE(c.s().set_target_position(0.3f).ok());
    c.world->run(120);
    const float x = c.world->body(c.box).center_of_mass_position().x();
    report("Constraint.slider.position_motor.x_m", x);
    EXPECT_NEAR(x, 0.3f, 0.001f);
  }
  {
    // B2 on the slider: rigid position motor, unlimited force.
    SliderConstraintSettings s;
    s.motor_settings.spring.frequency = 0.0f;
    Carriage c = make_carriage(s);
    c.s().set_motor_state(MotorState::Position);
    ASSERT_TRUE(c.s().set_target_position(0.3f).ok());
    c.world->run(3);
    const float x = c.world->body(c.box).center_of_mass_position().x();
    report("Constraint.slider.rigid_position_motor.x_after_3_steps", x);
    EXPECT_NEAR(x, 0.3f, 1.0e-3f);
  }
  {
    SliderConstraintSettings s;
    s.max_friction_force = 20.0f;
    Carriage c = make_carriage(s, Vec3(1.0f, 0.0f, 0.0f));
    c.world->run(60);
    report("Constraint.slider.friction.v_after_1s", c.world->velocity(c.box).x());
    EXPECT_NEAR(c.world->velocity(c.box).x(), 0.0f, 1.0e-4f);  // 10 kg at 1 m/s, 2 m/s²: 0.5 s
  }
}

}  // namespace
}  // namespace constraint_laws_test
}  // namespace atl::laws
