// Rolling resistance and torsional friction (issue 8 §1; README "Differences from Jolt").
//
// Symptom before: BodyCreationSettings::rolling_resistance and torsional_friction were
// validated and then ignored: a ball of radius 0.5 m rolling at 2 m/s on a flat floor with
// rolling resistance 0.01 m still rolled at 2.000 m/s after 5 s, and a ball spinning at
// 10 rad/s about the vertical with torsional friction 0.01 m still spun at 10.00 rad/s.
// Cause: the contact solver had no rows for them. Fix: the contact solver
// (solver/ContactConstraintManager) adds, only when the pair's coefficient is > 0, two angular
// rows about the contact tangents bounded together by rolling_resistance × Σλ (the manifold's
// normal impulse), and a twist row about the normal bounded by torsional_friction × Σλ
// (with manifold friction: the larger of that and μ·Σ(r·λ)); both are warm-started. A pair
// uses the larger of its bodies' coefficients.
//
// Closed forms (solid sphere, mass m, radius r, I = 2/5·m·r², normal force N = m·g):
//  - Rolling on a flat floor without slipping: the resisting couple c·N and the friction force
//    act on a body whose contact point is at rest, so about the contact (I + m·r²)·α = −c·m·g,
//    a = r·α = −c·g / (r·(1 + I/(m·r²))) = −(5/7)·c·g/r.
//  - Spinning about the normal on one contact point: I·dω/dt = −c·m·g, dω/dt = −(5/2)·c·g/r².
//  - On a slope of angle θ at rest: friction f = m·g·sinθ holds the centre; its moment f·r
//    about the centre must be balanced by the rolling couple ≤ c·m·g·cosθ, so the ball stays
//    when c ≥ r·tanθ. Below that it rolls with a = g·(sinθ − (c/r)·cosθ)/(1 + I/(m·r²)).
// Readings after: see each test.

#include "laws/LawFixture.h"

namespace atl::laws {
namespace rolling_resistance_laws_test {
namespace {

constexpr float k_radius = 0.5f;
constexpr float k_mass = 1.0f;
constexpr float k_inertia_ratio = 0.4f;  // I / (m r²) of a solid sphere

// Kinetic + potential energy (J) of the 1 kg ball of radius k_radius.
float ball_energy(LawWorld& w, BodyID ball) {
  const float inertia = k_inertia_ratio * k_mass * k_radius * k_radius;
  return 0.5f * k_mass * w.velocity(ball).length_sq() +
         0.5f * inertia * w.angular_velocity(ball).length_sq() +
         k_mass * k_g * w.position(ball).y();
}

// A ball rolling without slipping at `v0` (m/s, +x) on a floor (friction 0.5 both; the
// floor's rolling resistance `floor_rolling_resistance`, top at y = 0).
BodyID add_rolling_ball(LawWorld& w, float v0, float rolling_resistance,
                        float floor_rolling_resistance = 0.0f) {
  BodyOptions floor;
  floor.motion_type = MotionType::Static;
  floor.friction = 0.5f;
  floor.rolling_resistance = floor_rolling_resistance;
  w.add_box(Vec3(50.0f, 1.0f, 50.0f), Vec3(0.0f, -1.0f, 0.0f), floor);
  BodyOptions o;
  o.mass = k_mass;
  o.friction = 0.5f;
  o.linear_velocity = Vec3(v0, 0.0f, 0.0f);
  o.angular_velocity = Vec3(0.0f, 0.0f, -v0 / k_radius);
  o.rolling_resistance = rolling_resistance;
  return w.add_sphere(k_radius, Vec3(0.0f, k_radius, 0.0f), o);
}

// Regression (see the file header): the ball decelerates at (5/7)·c·g/r = 0.1401 m/s² for
// c = 0.01 m and stops after v0/a = 14.3 s, 14.3 m on. Measured: see the reported numbers.
TEST_F(LawFixture, RollingResistance_BallOnFloorDeceleratesAtClosedFormRateAndStops) {
  const float c = 0.01f;
  const float v0 = 2.0f;
  const float expected = c * k_g / (k_radius * (1.0f + k_inertia_ratio));
  LawWorld w;
  const BodyID ball = add_rolling_ball(w, v0, c);
  w.run(60);  // 1 s: settle onto the floor
  const float v1 = w.velocity(ball).x();
  w.run(5 * 60);
  const float v6 = w.velocity(ball).x();
  const float measured = (v1 - v6) / 5.0f;
  report("RollingResistance.floor.deceleration", measured);
  report("RollingResistance.floor.expected", expected);
  EXPECT_NEAR(measured, expected, 0.03f * expected);
  // Still rolling without slipping: contact point at rest.
  EXPECT_NEAR(w.velocity(ball).x() + w.angular_velocity(ball).z() * k_radius, 0.0f, 0.01f);
  // Stops (at 14.3 s) and stays stopped, within 3 % of the closed-form distance.
  w.run(14 * 60);
  report("RollingResistance.floor.stop_distance", w.position(ball).x());
  report("RollingResistance.floor.final_speed", w.velocity(ball).length());
  EXPECT_LT(w.velocity(ball).length(), 1e-3f);
  EXPECT_LT(w.angular_velocity(ball).length(), 2e-3f);
  const float distance = v0 * v0 / (2.0f * expected);
  EXPECT_NEAR(w.position(ball).x(), distance, 0.03f * distance);
}

// With coefficient 0 (the default) nothing resists: the ball rolls on at 2 m/s (damping 0).
TEST_F(LawFixture, RollingResistance_ZeroCoefficientBallRollsOn) {
  LawWorld w;
  const BodyID ball = add_rolling_ball(w, 2.0f, 0.0f);
  w.run(6 * 60);
  report("RollingResistance.zero.speed_after_6s", w.velocity(ball).x());
  EXPECT_GT(w.velocity(ball).x(), 0.99f * 2.0f);
}

// The larger coefficient of the pair counts: the same ball with the resistance on the floor
// only decelerates as with it on the ball.
TEST_F(LawFixture, RollingResistance_PairUsesTheLargerCoefficient) {
  LawWorld w;
  const BodyID ball = add_rolling_ball(w, 2.0f, 0.0f, 0.01f);
  w.run(60);
  const float v1 = w.velocity(ball).x();
  w.run(5 * 60);
  const float measured = (v1 - w.velocity(ball).x()) / 5.0f;
  const float expected = 0.01f * k_g / (k_radius * (1.0f + k_inertia_ratio));
  report("RollingResistance.floor_only.deceleration", measured);
  EXPECT_NEAR(measured, expected, 0.03f * expected);
}

// A contact listener may set the pair's coefficients: bodies at 0, the listener's
// combined_rolling_resistance = 0.01 m decelerates the ball as the body setting does.
TEST_F(LawFixture, RollingResistance_ContactListenerOverridesThePairCoefficient) {
  struct Listener : ContactListener {
    void on_contact_added(const Body&, const Body&, const ContactManifold&,
                          ContactSettings& settings) override {
      settings.combined_rolling_resistance = 0.01f;
    }
    void on_contact_persisted(const Body&, const Body&, const ContactManifold&,
                              ContactSettings& settings) override {
      settings.combined_rolling_resistance = 0.01f;
    }
  } listener;
  LawWorld w;
  w.system().set_contact_listener(&listener);
  const BodyID ball = add_rolling_ball(w, 2.0f, 0.0f);
  w.run(60);
  const float v1 = w.velocity(ball).x();
  w.run(5 * 60);
  const float measured = (v1 - w.velocity(ball).x()) / 5.0f;
  const float expected = 0.01f * k_g / (k_radius * (1.0f + k_inertia_ratio));
  report("RollingResistance.listener.deceleration", measured);
  EXPECT_NEAR(measured, expected, 0.03f * expected);
  w.system().set_contact_listener(nullptr);
}

// The scene fields reach the engine: a scene file's ball with rolling_resistance 0.01 and
// torsional_friction 0.01 (m) on a default floor slows as the closed forms say.
TEST_F(LawFixture, RollingResistance_SceneFieldsReachTheEngine) {
  const std::unique_ptr<LawWorld> w = LawWorld::from_scene(R"({
    "bodies": [
      { "name": "floor", "shape": { "type": "box", "half_extent": [50, 1, 50] },
        "position": [0, -1, 0], "motion": "static", "friction": 0.5 },
      { "name": "ball", "shape": { "type": "sphere", "radius": 0.5 }, "position": [0, 0.5, 0],
        "mass": 1, "friction": 0.5, "rolling_resistance": 0.01, "torsional_friction": 0.01,
        "linear_velocity": [2, 0, 0], "angular_velocity": [0, 10, -4] }
    ]})",
                                                           "rolling.json");
  ASSERT_NE(w, nullptr);
  const BodyID ball = w->scene_body("ball");
  EXPECT_EQ(w->body(ball).rolling_resistance(), 0.01f);
  EXPECT_EQ(w->body(ball).torsional_friction(), 0.01f);
  w->run(60);
  const Vec3 v1 = w->velocity(ball);
  const Vec3 w1 = w->angular_velocity(ball);
  w->run(2 * 60);
  const float rolling = (v1.x() - w->velocity(ball).x()) / 2.0f;
  const float spin = (w1.y() - w->angular_velocity(ball).y()) / 2.0f;
  report("RollingResistance.scene.deceleration", rolling);
  report("RollingResistance.scene.spin_decay", spin);
  const float expected_rolling = 0.01f * k_g / (k_radius * (1.0f + k_inertia_ratio));
  const float expected_spin = 0.01f * k_g / (k_inertia_ratio * k_radius * k_radius);
  EXPECT_NEAR(rolling, expected_rolling, 0.03f * expected_rolling);
  EXPECT_NEAR(spin, expected_spin, 0.03f * expected_spin);
}

// Regression (see the file header): spinning about the vertical on one contact point, the
// ball slows at (5/2)·c·g/r² = 0.981 rad/s² for c = 0.01 m; with c = 0 it keeps spinning
// (manifold friction's twist row has no lever on one point).
TEST_F(LawFixture, TorsionalFriction_SpinningBallSlowsAtClosedFormRate) {
  for (const float c : {0.0f, 0.01f}) {
    LawWorld w;
    w.add_floor(0.5f);
    BodyOptions o;
    o.mass = k_mass;
    o.friction = 0.5f;
    o.angular_velocity = Vec3(0.0f, 10.0f, 0.0f);
    o.torsional_friction = c;
    const BodyID ball = w.add_sphere(k_radius, Vec3(0.0f, k_radius, 0.0f), o);
    w.run(30);
    const float w1 = w.angular_velocity(ball).y();
    w.run(5 * 60);
    const float measured = (w1 - w.angular_velocity(ball).y()) / 5.0f;
    const float expected = c * k_g / (k_inertia_ratio * k_radius * k_radius);
    report(c == 0.0f ? "TorsionalFriction.zero.spin_decay" : "TorsionalFriction.spin_decay",
           measured);
    EXPECT_NEAR(measured, expected, c == 0.0f ? 1e-3f : 0.03f * expected);
    // It spins in place.
    EXPECT_LT(w.horizontal_distance(ball, Vec3(0.0f, k_radius, 0.0f)), 1e-3f);
  }
}

// Torsional friction and manifold friction's twist row describe the same patch: the larger
// bound counts. A box spinning flat on the floor (μ = 0.5, twist levers ≈ 0.18 m, so
// μ·Σ(r·λ) ≈ 0.088 m × N) slows the same with torsional friction 0.01 m as without, and
// faster with 0.12 m (then I·dω/dt = −0.12·m·g = 113 rad/s², stopping it in 11 steps).
TEST_F(LawFixture, TorsionalFriction_BoxFaceUsesTheLargerOfManifoldAndTorsionalBound) {
  float decay[3] = {};
  const float coefficients[3] = {0.0f, 0.01f, 0.12f};
  for (int i = 0; i < 3; ++i) {
    LawWorld w;
    w.add_floor(0.5f);
    BodyOptions o;
    o.mass = k_mass;
    o.friction = 0.5f;
    o.angular_velocity = Vec3(0.0f, 20.0f, 0.0f);
    o.torsional_friction = coefficients[i];
    const BodyID box = w.add_box(k_small_box, Vec3(0.0f, 0.125f, 0.0f), o);
    w.run(3);
    const float w1 = w.angular_velocity(box).y();
    w.run(6);
    decay[i] = (w1 - w.angular_velocity(box).y()) / (6.0f * k_dt);
  }
  report("TorsionalFriction.box.decay_0", decay[0]);
  report("TorsionalFriction.box.decay_0.01", decay[1]);
  report("TorsionalFriction.box.decay_0.12", decay[2]);
  EXPECT_NEAR(decay[1], decay[0], 1e-3f * decay[0]);
  const float inertia = k_mass * (2.0f * 0.25f * 0.25f) / 12.0f;
  const float expected = 0.12f * k_mass * k_g / inertia;
  EXPECT_NEAR(decay[2], expected, 0.03f * expected);
}

// On a slope of θ = 10°, the threshold is c = r·tanθ = 0.0882 m: 1.2× that holds the ball,
// 0.5× lets it roll at g·(sinθ − (c/r)·cosθ)/1.4.
TEST_F(LawFixture, RollingResistance_BallOnSlopeStaysAboveThresholdRollsBelow) {
  const float theta = 10.0f * k_pi / 180.0f;
  const float threshold = k_radius * std::tan(theta);
  for (const float factor : {1.2f, 0.5f}) {
    const float c = factor * threshold;
    LawWorld w;
    BodyOptions slope;
    slope.motion_type = MotionType::Static;
    slope.friction = 1.0f;
    slope.rotation = Quat::rotation(Vec3(0.0f, 0.0f, 1.0f), -theta);
    w.add_box(Vec3(30.0f, 1.0f, 5.0f), Vec3(), slope);
    const Vec3 up = slope.rotation * Vec3(0.0f, 1.0f, 0.0f);
    const Vec3 down = slope.rotation * Vec3(1.0f, 0.0f, 0.0f);
    BodyOptions o;
    o.mass = k_mass;
    o.friction = 1.0f;
    o.rolling_resistance = c;
    const Vec3 start = up * (1.0f + k_radius);
    const BodyID ball = w.add_sphere(k_radius, start, o);
    const float t = 3.0f;
    w.run(static_cast<int>(t * 60.0f));
    const float travelled = (w.position(ball) - start).dot(down);
    if (factor > 1.0f) {
      report("RollingResistance.slope.held_travel_m", travelled);
      EXPECT_LT(std::fabs(travelled), 2e-3f);
      EXPECT_LT(w.velocity(ball).length(), 1e-3f);
    } else {
      const float a =
          k_g * (std::sin(theta) - c / k_radius * std::cos(theta)) / (1.0f + k_inertia_ratio);
      const float expected = 0.5f * a * t * t;
      report("RollingResistance.slope.rolled_m", travelled);
      report("RollingResistance.slope.expected_m", expected);
      EXPECT_NEAR(travelled, expected, 0.03f * expected);
    }
  }
}

// The rolling rows are warm-started like the friction rows: with a single velocity iteration
// (LAWS.md B1 conditions) the ball at 1.2× the threshold still holds on the 10° slope, and the
// one on the flat floor still decelerates at (5/7)·c·g/r; the same with per-point friction
// (manifold_friction off), where the torsional row runs on its own.
TEST_F(LawFixture, RollingResistance_WorksWithOneVelocityIterationAndPerPointFriction) {
  const float theta = 10.0f * k_pi / 180.0f;
  for (const bool manifold : {true, false}) {
    PhysicsSettings settings = law_settings();
    settings.velocity_steps = 1;
    settings.manifold_friction = manifold;
    {
      LawWorld w(settings);
      BodyOptions slope;
      slope.motion_type = MotionType::Static;
      slope.friction = 1.0f;
      slope.rotation = Quat::rotation(Vec3(0.0f, 0.0f, 1.0f), -theta);
      w.add_box(Vec3(30.0f, 1.0f, 5.0f), Vec3(), slope);
      BodyOptions o;
      o.mass = k_mass;
      o.friction = 1.0f;
      o.rolling_resistance = 1.2f * k_radius * std::tan(theta);
      const Vec3 start = slope.rotation * Vec3(0.0f, 1.0f + k_radius, 0.0f);
      const BodyID ball = w.add_sphere(k_radius, start, o);
      w.run(3 * 60);
      const Vec3 down = slope.rotation * Vec3(1.0f, 0.0f, 0.0f);
      const float travelled = std::fabs((w.position(ball) - start).dot(down));
      report(manifold ? "RollingResistance.one_iteration.slope_travel_m"
                      : "RollingResistance.one_iteration_per_point.slope_travel_m",
             travelled);
      // Measured: 1.7 mm along the slope in 3 s (0.017 mm at 10 iterations), then at rest.
      EXPECT_LT(travelled, 2e-3f);
      EXPECT_LT(w.velocity(ball).length(), 1e-4f);
    }
    {
      LawWorld w(settings);
      const BodyID ball = add_rolling_ball(w, 2.0f, 0.01f);
      w.run(60);
      const float v1 = w.velocity(ball).x();
      w.run(5 * 60);
      const float measured = (v1 - w.velocity(ball).x()) / 5.0f;
      const float expected = 0.01f * k_g / (k_radius * (1.0f + k_inertia_ratio));
      report(manifold ? "RollingResistance.one_iteration.deceleration"
                      : "RollingResistance.one_iteration_per_point.deceleration",
             measured);
      EXPECT_NEAR(measured, expected, 0.03f * expected);
    }
    {
      LawWorld w(settings);
      w.add_floor(0.5f);
      BodyOptions o;
      o.mass = k_mass;
      o.friction = 0.5f;
      o.angular_velocity = Vec3(0.0f, 10.0f, 0.0f);
      o.torsional_friction = 0.01f;
      const BodyID ball = w.add_sphere(k_radius, Vec3(0.0f, k_radius, 0.0f), o);
      w.run(30);
      const float w1 = w.angular_velocity(ball).y();
      w.run(5 * 60);
      const float measured = (w1 - w.angular_velocity(ball).y()) / 5.0f;
      const float expected = 0.01f * k_g / (k_inertia_ratio * k_radius * k_radius);
      report(manifold ? "TorsionalFriction.one_iteration.spin_decay"
                      : "TorsionalFriction.one_iteration_per_point.spin_decay",
             measured);
      EXPECT_NEAR(measured, expected, 0.03f * expected);
    }
  }
}

// Energy never grows while rolling resistance and torsional friction act: the ball's kinetic
// plus potential energy does not rise from one step to the next.
TEST_F(LawFixture, RollingResistance_EnergyNeverGrows) {
  LawWorld w;
  w.add_floor(0.5f);
  BodyOptions o;
  o.mass = k_mass;
  o.friction = 0.5f;
  o.linear_velocity = Vec3(2.0f, 0.0f, 1.0f);
  o.angular_velocity = Vec3(1.0f / k_radius, 8.0f, -2.0f / k_radius);
  o.rolling_resistance = 0.02f;
  o.torsional_friction = 0.02f;
  const BodyID ball = w.add_sphere(k_radius, Vec3(0.0f, k_radius, 0.0f), o);
  float previous = ball_energy(w, ball);
  const float start = previous;
  float max_rise = 0.0f;
  w.run(10 * 60, [&](int) {
    const float e = ball_energy(w, ball);
    max_rise = std::max(max_rise, e - previous);
    previous = e;
  });
  report("RollingResistance.energy.start_J", start);
  report("RollingResistance.energy.end_J", previous);
  report("RollingResistance.energy.max_step_rise_J", max_rise);
  EXPECT_LT(previous, start);
  EXPECT_LT(max_rise, 1e-4f * start);
}

// A ball stopped by rolling resistance falls asleep (engine sleep settings, damping 0): at
// c = 0.02 m from 1 m/s it stops after 3.6 s.
TEST_F(LawFixture, RollingResistance_StoppedBallFallsAsleep) {
  PhysicsSettings settings;
  settings.allow_sleeping = true;
  LawWorld w(settings);
  const BodyID ball = add_rolling_ball(w, 1.0f, 0.02f);
  int asleep_at = -1;
  w.run(10 * 60, [&](int step) {
    if (asleep_at < 0 && !w.body(ball).is_active()) asleep_at = step;
  });
  report("RollingResistance.sleep.asleep_at_step", asleep_at);
  report("RollingResistance.sleep.distance_m", w.position(ball).x());
  EXPECT_GE(asleep_at, 3 * 60);  // not before it stopped
  EXPECT_FALSE(w.body(ball).is_active());
}

}  // namespace
}  // namespace rolling_resistance_laws_test
}  // namespace atl::laws
