// PhysicsSettings::speculative_contacts_from_velocity (not in Jolt, off by default so that LAWS.md
// A7 holds): a pair whose surfaces close their gap within the step gets a speculative contact
// however far apart it starts, so a fast discrete body stops at the surface instead of sinking
// up to one step's motion into it. Found on the demo (issue 8): a crate of the "rain" pile
// landing at 15.4 m/s on a resting crate sank 232 mm (256 mm per step against the 20 mm
// speculative distance); with the setting, 81 mm, from the crate's 10 rad/s tumble after the hit.

#include "laws/LawFixture.h"

namespace atl::laws {
namespace speculative_velocity_laws_test {
namespace {

// A7's sphere (r 0.1 m, 25 mm above the floor at 5 m/s: 86.1 mm in its first step) with the
// default speculative distance: 61.06 mm deep with the setting off (A7), at the surface with it
// on, and resting at the slop afterwards either way.
TEST_F(LawFixture, SpeculativeFromVelocity_FastSphereStopsAtTheSurface) {
  const float gap = 0.025f;
  for (const bool on : {false, true}) {
    LawWorld world(with(&PhysicsSettings::speculative_contacts_from_velocity, on));
    world.add_floor();
    BodyOptions o;
    o.linear_velocity = Vec3(0.0f, -5.0f, 0.0f);
    const BodyID sphere = world.add_sphere(0.1f, Vec3(0.0f, 0.1f + gap, 0.0f), o);
    Series pen;
    world.run(120, [&](int) { pen.add(world.floor_penetration(sphere)); });
    const std::string tag = std::string("SpeculativeFromVelocity.") + (on ? "on" : "off");
    report(tag + ".max_penetration_mm", pen.max() * 1000.0f);
    if (on)
      EXPECT_LT(pen.max(), 1.0e-3f);
    else
      EXPECT_GT(pen.max(), 0.05f);
    EXPECT_LT(std::fabs(world.velocity(sphere).y()), 1.0e-3f) << tag;
  }
}

// A ball flying past a box at 30 m/s, 3 cm above it (0.5 m per step, more than the gap): its
// path never meets the box, so it gets no contact — the closing test drops the manifold found
// within the larger separation, whose points do not approach — and flies on at full speed.
TEST_F(LawFixture, SpeculativeFromVelocity_ABodyPassingBesideGetsNoContact) {
  PhysicsSettings settings = with(&PhysicsSettings::speculative_contacts_from_velocity, true);
  settings.gravity = Vec3();
  LawWorld world(settings);
  BodyOptions heavy;
  heavy.mass = 1.0e6f;
  const BodyID box = world.add_box(Vec3(0.5f, 0.5f, 0.5f), Vec3(0.0f, 0.0f, 0.0f), heavy);
  BodyOptions o;
  o.linear_velocity = Vec3(30.0f, 0.0f, 0.0f);
  const BodyID ball = world.add_sphere(0.1f, Vec3(-3.0f, 0.63f, 0.0f), o);
  uint32_t manifolds = 0;
  for (int i = 0; i < 20; ++i) manifolds += world.step().num_manifolds;
  report("SpeculativeFromVelocity.pass_by.manifolds", manifolds);
  EXPECT_EQ(manifolds, 0u);
  EXPECT_NEAR(world.velocity(ball).x(), 30.0f, 0.2f);
  EXPECT_NEAR(world.position(ball).y(), 0.63f, 1.0e-4f);
  EXPECT_LT(world.velocity(box).length(), 1.0e-6f);
}

}  // namespace
}  // namespace speculative_velocity_laws_test
}  // namespace atl::laws
