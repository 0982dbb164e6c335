// Contact response (issue 7, items 4, 5, 6, 7, 15, 17): what a contact does to the bodies'
// energy, spin and relative motion. Each test's header states the symptom with the numbers
// measured before the fix, the cause, the fix and the reading after.

#include "laws/LawFixture.h"

namespace atl::laws {
namespace contact_response_laws_test {
namespace {

// Kinetic + potential energy (J) of a body: ½mv² + ½ω·Iω + m·g·y (gravity along −y).
float mechanical_energy(LawWorld& world, BodyID id, float mass) {
  const Vec3 v = world.velocity(id);
  const Vec3 w = world.angular_velocity(id);
  const float rotational = 0.5f * w.dot(world.angular_momentum(id));
  return 0.5f * mass * v.length_sq() + rotational + mass * k_g * world.position(id).y();
}

// Regression: an elastic ball gained height on every bounce. Symptom (issue 7 item 4: 6.150 vs
// 5.987 m, 9.9735 vs 9.81 m/s): here a 0.5 m ball with restitution 1 dropped from rest at
// y = 6 m rose to 6.1744 m after the first bounce, leaving at 10.464 m/s where it arrived at
// 10.3005 m/s. Cause: the restitution target −e·v_n took v_n after stage 1 had added this step's
// gravity, so every bounce returned g·dt more than arrived. Fix: the target uses the approach
// velocity before this step's forces (PhysicsSystem records it in stage 1 and hands it to the
// contact setup), or the current one when the forces pushed the bodies apart (the slower
// approach of the two), as Jolt cancels the force's velocity. Reading after: apex 6.0000 m,
// leaves at 10.3005 m/s.
TEST_F(LawFixture, Restitution_ElasticBallNeverBouncesHigherThanItStarted) {
  LawWorld world;
  world.add_floor(0.2f, 1.0f);
  BodyOptions o;
  o.restitution = 1.0f;
  const float radius = 0.5f;
  const float start = 6.0f;
  const BodyID ball = world.add_sphere(radius, Vec3(0.0f, start, 0.0f), o);
  float apex_after_bounce = 0.0f;
  float speed_up = 0.0f;
  float speed_down = 0.0f;
  bool bounced = false;
  bool past_apex = false;
  float previous_vy = 0.0f;
  world.run(240, [&](int) {
    const float vy = world.velocity(ball).y();
    if (!bounced && vy > 0.0f && previous_vy < 0.0f) {
      bounced = true;
      speed_down = -previous_vy;
      speed_up = vy;
    }
    if (bounced && !past_apex)
      apex_after_bounce = std::max(apex_after_bounce, world.position(ball).y());
    if (bounced && vy < 0.0f) past_apex = true;
    previous_vy = vy;
  });
  report("Restitution.ball.apex_after_first_bounce_m", apex_after_bounce);
  report("Restitution.ball.speed_down_m_s", speed_down);
  report("Restitution.ball.speed_up_m_s", speed_up);
  ASSERT_GT(apex_after_bounce, 0.0f);
  EXPECT_LE(apex_after_bounce, start + 1.0e-3f);
  EXPECT_LE(speed_up, speed_down + 1.0e-4f);
}

// Regression: a body allowed to rotate only about Y lost its spin in a resting contact. Symptom:
// a box with AllowedDOFs::RotationY, 1 cm into the floor, spinning at 2.5 rad/s with friction 0,
// spun at 2.5e-16 rad/s after a second (1 cm above the floor it kept 2.5 rad/s). Cause: the
// contact normal is off vertical by ~1.1e-5 rad, so r × n has a y component of a few ulps; with
// every other direction locked, K = 7.8e-13 was taken as a real effective mass, and each
// push-only impulse through that ulp-sized lever set ω_y to whatever stopped the corner's normal
// velocity. Fix: AxisConstraintPart treats K below 1e-8 of what the same lever arms give along
// the bodies' most mobile directions as round-off (no impulse, no position correction). Reading
// after: 2.5 rad/s in both cases.
TEST_F(LawFixture, AllowedDOFs_SpinAboutYSurvivesAFrictionlessRestingContact) {
  for (const float offset : {-0.01f, 0.01f}) {
    LawWorld world;
    world.add_floor(0.0f);
    BodyCreationSettings s;
    BoxShapeSettings shape;
    shape.half_extent = Vec3(0.5f, 0.5f, 0.5f);
    s.shape = shape.create().value_or_throw();
    s.position = Vec3(0.0f, 0.5f + offset, 0.0f);
    s.friction = 0.0f;
    s.allowed_dofs = AllowedDOFs::RotationY;
    s.angular_velocity = Vec3(0.0f, 2.5f, 0.0f);
    s.linear_damping = 0.0f;
    s.angular_damping = 0.0f;
    const BodyID box = world.bodies().create_and_add_body(s, Activation::Activate).value_or_throw();
    world.run(60);
    const float w = world.angular_velocity(box).y();
    report(offset < 0.0f ? "AllowedDOFs.spin_in_floor_rad_s" : "AllowedDOFs.spin_above_rad_s", w);
    EXPECT_NEAR(w, 2.5f, 1.0e-4f) << "offset " << offset;
  }
}

// Issue 7 item 7: two equal 1 m LinearCast boxes (no gravity, restitution 0) fired at each
// other at ±50 m/s are at rest in the step after the hit, then kept separating at ±1.79e-5 m/s
// with a spin of 2.5e-5 rad/s (the issue: ±4.3e-5 m/s, 6.2e-5 rad/s). Cause: the next step
// warm-started the 50 m/s stopping impulse and the solver took it back; the four points'
// impulses were added and removed in different orders (point by point, then as the face block),
// and the float round-off of a 50 m/s impulse was left as a separating velocity, which a
// push-only contact cannot take back. Fix: a contact point on a body that CCD stopped in the
// step before, starting without impulse, does not carry to the next step the part that stopped
// the bodies' approach (measured before this step's forces) — the collision is over; only a
// load beyond it (a push passed along a row of bullets) is warm-started. Jolt applies that
// impulse at the CCD hit itself, outside the contact cache. Reading after: drift 0, spin 0.
// (For every new contact the rule raised the pyramid's largest layer drift from 81 to 170 mm.)
TEST_F(LawFixture, LinearCast_BoxesMeetingInelasticallyComeToRest) {
  PhysicsSettings settings = law_settings();
  settings.gravity = Vec3();
  LawWorld world(settings);
  BodyOptions o;
  o.motion_quality = MotionQuality::LinearCast;
  o.linear_velocity = Vec3(50.0f, 0.0f, 0.0f);
  const BodyID a = world.add_box(Vec3(0.5f, 0.5f, 0.5f), Vec3(-5.0f, 0.0f, 0.0f), o);
  o.linear_velocity = Vec3(-50.0f, 0.0f, 0.0f);
  const BodyID b = world.add_box(Vec3(0.5f, 0.5f, 0.5f), Vec3(5.0f, 0.0f, 0.0f), o);
  world.run(60);
  const float drift = std::max(world.velocity(a).length(), world.velocity(b).length());
  const float spin =
      std::max(world.angular_velocity(a).length(), world.angular_velocity(b).length());
  report("LinearCast.inelastic.drift_m_s", drift);
  report("LinearCast.inelastic.spin_rad_s", spin);
  report("LinearCast.inelastic.gap_m", world.position(b).x() - world.position(a).x());
  EXPECT_LT(drift, 1.0e-6f);
  EXPECT_LT(spin, 1.0e-6f);
}

// Guard (issue 7 item 17): a 1 m box dropped spinning at 990 rad/s (max angular velocity raised
// to 1000) is thrown when a corner touches the floor (the issue: 348 m at 98 m/s). Measured here
// (spin about x): thrown at 176.9 m/s, 159.6 m far, but kinetic + potential energy fell from
// 8.17e7 J to 3.27e7 J at the touch and never rose above the start: the throw is spin turned
// into translation by a corner impact, which rigid bodies do, not energy from nowhere. Spin about
// y, (1,1,0), (1,1,1) and z gave the same: no energy above the start. The guard stays so that it
// remains so.
TEST_F(LawFixture, Energy_FastSpinningBoxTouchingTheFloorGainsNoEnergy) {
  LawWorld world;
  world.add_floor();
  BodyCreationSettings s;
  BoxShapeSettings shape;
  shape.half_extent = Vec3(0.5f, 0.5f, 0.5f);
  s.shape = shape.create().value_or_throw();
  s.position = Vec3(0.0f, 2.0f, 0.0f);
  s.max_angular_velocity = 1000.0f;
  s.angular_velocity = Vec3(990.0f, 0.0f, 0.0f);
  s.linear_damping = 0.0f;
  s.angular_damping = 0.0f;
  const BodyID box = world.bodies().create_and_add_body(s, Activation::Activate).value_or_throw();
  const float mass = 1.0f / world.body(box).motion_properties()->inverse_mass();
  const float start_energy = mechanical_energy(world, box, mass);
  float max_energy = start_energy;
  float max_speed = 0.0f;
  float max_distance = 0.0f;
  world.run(300, [&](int) {
    max_energy = std::max(max_energy, mechanical_energy(world, box, mass));
    max_speed = std::max(max_speed, world.velocity(box).length());
    max_distance = std::max(max_distance, world.horizontal_distance(box, Vec3()));
  });
  report("Energy.spinning_box.start_J", start_energy);
  report("Energy.spinning_box.max_J", max_energy);
  report("Energy.spinning_box.max_speed_m_s", max_speed);
  report("Energy.spinning_box.max_distance_m", max_distance);
  // Float round-off in ½Iω² of 990 rad/s (≈ 8e4 J) is a few joules at most.
  EXPECT_LE(max_energy, start_energy * (1.0f + 1.0e-4f));
}

// Surface velocity (issue 7 item 15, was missing): a listener that sets a relative linear
// surface velocity of 2 m/s on a static "belt" carries a box along at 2 m/s, as Jolt's
// ContactSettings::mRelativeLinearSurfaceVelocity does (friction targets). Reading: 2.0000 m/s.
class ConveyorListener : public ContactListener {
 public:
  explicit ConveyorListener(BodyID belt) : belt_(belt) {}
  void on_contact_added(const Body& body1, const Body& body2, const ContactManifold& manifold,
                        ContactSettings& settings) override {
    set(body1, body2, manifold, settings);
  }
  void on_contact_persisted(const Body& body1, const Body& body2, const ContactManifold& manifold,
                            ContactSettings& settings) override {
    set(body1, body2, manifold, settings);
  }

 private:
  void set(const Body& body1, const Body& body2, const ContactManifold&, ContactSettings& s) {
    // Surface velocity of body 2 minus that of body 1 (Jolt's convention); the box's is 0.
    const Vec3 belt_velocity(2.0f, 0.0f, 0.0f);
    if (body1.id() == belt_)
      s.relative_linear_surface_velocity = -belt_velocity;
    else if (body2.id() == belt_)
      s.relative_linear_surface_velocity = belt_velocity;
  }
  BodyID belt_;
};

TEST_F(LawFixture, SurfaceVelocity_BoxOnConveyorBeltMovesAtTheBeltSpeed) {
  LawWorld world;
  const BodyID belt = world.add_floor(1.0f);
  ConveyorListener listener(belt);
  world.system().set_contact_listener(&listener);
  BodyOptions o;
  o.friction = 1.0f;
  const BodyID box = world.add_box(Vec3(0.5f, 0.5f, 0.5f), Vec3(0.0f, 0.5f, 0.0f), o);
  world.run(120);
  const Vec3 v = world.velocity(box);
  report("SurfaceVelocity.box_vx_m_s", v.x());
  EXPECT_NEAR(v.x(), 2.0f, 1.0e-3f);
  EXPECT_NEAR(v.z(), 0.0f, 1.0e-3f);
  EXPECT_NEAR(world.angular_velocity(box).length(), 0.0f, 1.0e-3f);
  world.system().set_contact_listener(nullptr);
}

// An angular surface velocity (a turntable): the box on it turns with it.
class TurntableListener : public ContactListener {
 public:
  explicit TurntableListener(BodyID table) : table_(table) {}
  void on_contact_added(const Body& b1, const Body& b2, const ContactManifold&,
                        ContactSettings& s) override {
    set(b1, b2, s);
  }
  void on_contact_persisted(const Body& b1, const Body& b2, const ContactManifold&,
                            ContactSettings& s) override {
    set(b1, b2, s);
  }

 private:
  void set(const Body& b1, const Body& b2, ContactSettings& s) {
    const Vec3 spin(0.0f, 1.0f, 0.0f);
    // Body 2's surface relative to body 1's, about body 1's centre of mass (Jolt's convention).
    // The table's axis passes through both centres, so no linear term is needed either way.
    // The listener sees the dynamic box first (ContactListener.h), so the table is body 2 here;
    // the engine turns the settings round to its own order.
    if (b2.id() == table_)
      s.relative_angular_surface_velocity = spin;
    else if (b1.id() == table_)
      s.relative_angular_surface_velocity = -spin;
  }
  BodyID table_;
};

TEST_F(LawFixture, SurfaceVelocity_BoxOnTurntableTurnsWithIt) {
  LawWorld world;
  const BodyID table = world.add_floor(1.0f);
  TurntableListener listener(table);
  world.system().set_contact_listener(&listener);
  BodyOptions o;
  o.friction = 1.0f;
  const BodyID box = world.add_box(Vec3(0.5f, 0.5f, 0.5f), Vec3(0.0f, 0.5f, 0.0f), o);
  Series spin;
  Series speed;
  world.run(180, [&](int) {
    spin.add(world.angular_velocity(box).y());
    speed.add(world.velocity(box).length());
  });
  report("SurfaceVelocity.turntable_box_wy_mean_rad_s", spin.mean_last(60));
  report("SurfaceVelocity.turntable_box_wy_range_rad_s", spin.range_last(60));
  report("SurfaceVelocity.turntable_box_max_speed_m_s", speed.max());
  // The box turns with the table. Manifold friction (default): mean 1.0000, range 0, speed
  // 1.2e-5 m/s; per-point cones jitter (mean 0.999, range 0.015 rad/s, speed 1.1e-3 m/s).
  EXPECT_NEAR(spin.mean_last(60), 1.0f, 1.0e-3f);
  EXPECT_LT(spin.range_last(60), 1.0e-3f);
  EXPECT_LT(speed.max(), 1.0e-4f);
  world.system().set_contact_listener(nullptr);
}

}  // namespace
}  // namespace contact_response_laws_test
}  // namespace atl::laws
