// XPBD soft constraints (LAWS.md G1–G3; seed 002; issue 11): each distance constraint owns its
// accumulated λ, reset only at the start of a sub-step, and the solver takes the real sub-step
// h. The seed's two-particle model (1 kg each, rest 1 m, 2 m apart, compliance 0.01 s²/kg,
// h 0.1 s so α̃ = 1) and its 10 000 random cases, then what that rule means for a rope: the
// stretch a compliance allows does not depend on the iteration budget, a rigid rope does not
// stretch, and an undamped rope swings without gaining energy.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include "atoll/softbody/SoftBody.h"
#include "atoll/softbody/SoftBodyGenerators.h"
#include "laws/LawFixture.h"

namespace atl::laws {
namespace soft_body_laws_test {

// The seed's pair: two free vertices 2 m apart along x joined by an edge of rest length 1 m.
std::unique_ptr<SoftBody> seed_pair(float compliance, float wa = 1.0f, float wb = 1.0f) {
  Ref<SoftBodySettings> s = new SoftBodySettings();
  s->vertices = {{Vec3(0.0f, 0.0f, 0.0f), Vec3::zero(), wa},
                 {Vec3(2.0f, 0.0f, 0.0f), Vec3::zero(), wb}};
  s->edges = {{{0, 1}, 1.0f, compliance}};
  Result<std::unique_ptr<SoftBody>> body = SoftBody::create(s);
  EXPECT_TRUE(body.ok()) << body.error().message();
  return std::move(body.value());
}

float stretch(const SoftBody& body) {
  return (body.positions()[1] - body.positions()[0]).length() - 1.0f;
}

class SoftBodyLaws : public LawFixture {};

TEST_F(SoftBodyLaws, G1_TheFirstIterationSettlesTheConstraintAndLambdaKeepsItThere) {
  std::unique_ptr<SoftBody> pair = seed_pair(0.01f);
  pair->begin_substep();
  pair->project(0.1f);
  const float first = stretch(*pair);
  report("G1.first_residual_m", first);
  EXPECT_NEAR(first, 1.0f / 3.0f, 1.0e-6f);
  EXPECT_NEAR(pair->lambdas()[0], -1.0f / 3.0f, 1.0e-6f);
  for (int i = 0; i < 9; ++i) pair->project(0.1f);
  const float tenth = stretch(*pair);
  report("G1.retained_after_10_m", tenth);
  EXPECT_NEAR(tenth, 1.0f / 3.0f, 1.0e-6f);
  // Residual C + α̃λ = 0 with α̃ = 0.01 / 0.1² = 1.
  EXPECT_NEAR(tenth + 1.0f * pair->lambdas()[0], 0.0f, 1.0e-6f);
}

TEST_F(SoftBodyLaws, G1_ResettingLambdaEveryIterationIsTheBugThatStiffensTheRope) {
  std::unique_ptr<SoftBody> pair = seed_pair(0.01f);
  for (int i = 0; i < 10; ++i) {
    pair->begin_substep();  // the bug: λ reset per iteration
    pair->project(0.1f);
  }
  const float wrong = stretch(*pair);
  report("G1.wrong_reset_after_10_m", wrong);
  EXPECT_NEAR(wrong, std::pow(1.0f / 3.0f, 10.0f), 1.0e-7f);
}

TEST_F(SoftBodyLaws, G2_HalvingTheSubStepLeavesTwoThirds) {
  // α̃ = 0.01 / 0.05² = 4: Δλ = −1 / (2 + 4), each end moves 1/6 m, C = 2/3 m.
  std::unique_ptr<SoftBody> pair = seed_pair(0.01f);
  pair->begin_substep();
  for (int i = 0; i < 10; ++i) pair->project(0.05f);
  report("G2.half_h_residual_m", stretch(*pair));
  EXPECT_NEAR(stretch(*pair), 2.0f / 3.0f, 1.0e-6f);
}

TEST_F(SoftBodyLaws, G3_APinnedEndTakesNoMotionAndTwoPinnedEndsAreSkipped) {
  std::unique_ptr<SoftBody> one = seed_pair(0.01f, 0.0f, 1.0f);
  one->begin_substep();
  one->project(0.1f);
  // Δλ = −1 / (0 + 1 + 1): the free end moves the whole 1/2 m.
  EXPECT_EQ(one->positions()[0], Vec3(0.0f, 0.0f, 0.0f));
  EXPECT_NEAR(one->positions()[1].x(), 1.5f, 1.0e-6f);

  std::unique_ptr<SoftBody> both = seed_pair(0.01f, 0.0f, 0.0f);
  both->begin_substep();
  both->project(0.1f);
  EXPECT_EQ(both->positions()[0], Vec3(0.0f, 0.0f, 0.0f));
  EXPECT_EQ(both->positions()[1], Vec3(2.0f, 0.0f, 0.0f));
  EXPECT_EQ(both->lambdas()[0], 0.0f);

  Vec3 a(0.0f, 0.0f, 0.0f), b(2.0f, 0.0f, 0.0f);
  float lambda = 0.0f;
  const Result<bool> skipped = solve_distance(a, b, 0.0f, 0.0f, 1.0f, 0.01f, 0.1f, lambda);
  ASSERT_TRUE(skipped.ok());
  EXPECT_FALSE(skipped.value());
}

TEST_F(SoftBodyLaws, G3_InvalidInputIsRejectedAndChangesNothing) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  struct Case {
    const char* field;
    Vec3 a, b;
    float wa, wb, rest, compliance, h;
  };
  const Vec3 a0(0.0f, 0.0f, 0.0f), b0(2.0f, 0.0f, 0.0f);
  const Case cases[] = {
      {"a", Vec3(nan, 0, 0), b0, 1, 1, 1, 0.01f, 0.1f},
      {"b", a0, Vec3(0, inf, 0), 1, 1, 1, 0.01f, 0.1f},
      {"wa", a0, b0, -1, 1, 1, 0.01f, 0.1f},
      {"wb", a0, b0, 1, nan, 1, 0.01f, 0.1f},
      {"rest", a0, b0, 1, 1, 0, 0.01f, 0.1f},
      {"rest", a0, b0, 1, 1, inf, 0.01f, 0.1f},
      {"compliance", a0, b0, 1, 1, 1, -0.01f, 0.1f},
      {"compliance", a0, b0, 1, 1, 1, nan, 0.1f},
      {"h", a0, b0, 1, 1, 1, 0.01f, 0.0f},
      {"h", a0, b0, 1, 1, 1, 0.01f, -0.1f},
      {"compliance", a0, b0, 1, 1, 1, 1.0e30f, 1.0e-10f},  // α̃ overflows
  };
  for (const Case& c : cases) {
    Vec3 a = c.a, b = c.b;
    float lambda = -0.25f;
    const Result<bool> r = solve_distance(a, b, c.wa, c.wb, c.rest, c.compliance, c.h, lambda);
    ASSERT_FALSE(r.ok()) << c.field;
    EXPECT_NE(std::string(r.error().message()).find(std::string("solve_distance: ") + c.field),
              std::string::npos)
        << r.error().message();
    EXPECT_TRUE(a == c.a || !c.a.is_finite()) << c.field;
    EXPECT_TRUE(b == c.b || !c.b.is_finite()) << c.field;
    EXPECT_EQ(lambda, -0.25f) << c.field;
  }
  // A step with a bad dt leaves the soft body as it was.
  std::unique_ptr<SoftBody> pair = seed_pair(0.01f);
  const Status bad = pair->step(0.0f, SoftBodyStepSettings());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(pair->positions()[1], Vec3(2.0f, 0.0f, 0.0f));
}

TEST_F(SoftBodyLaws, G3_TenThousandRandomProjectionsSatisfyTheResidualAndKeepTheCentre) {
  // The seed's fixed seed and ranges: start in [0, 10), gap [1, 5), rest [0.2, 1), inverse
  // masses [0.1, 3.1), compliance [0, 0.05), h [0.01, 0.1). In float, residuals are bounded by
  // the positions' rounding (~1e-6 m at 10 m).
  std::mt19937 random(71104);
  std::uniform_real_distribution<float> start(0.0f, 10.0f), gap(1.0f, 5.0f), rest(0.2f, 1.0f),
      inverse_mass(0.1f, 3.1f), compliance(0.0f, 0.05f), h(0.01f, 0.1f);
  float max_residual = 0.0f, max_centre = 0.0f, max_iterate = 0.0f;
  for (int i = 0; i < 10000; ++i) {
    Vec3 a(start(random), 0.0f, 0.0f);
    Vec3 b = a + Vec3(gap(random), 0.0f, 0.0f);
    const float r = rest(random), wa = inverse_mass(random), wb = inverse_mass(random);
    const float alpha = compliance(random), dt = h(random);
    const float alpha_tilde = alpha / (dt * dt);
    const float centre = (a.x() / wa + b.x() / wb) / (1.0f / wa + 1.0f / wb);
    float lambda = 0.0f;
    ASSERT_TRUE(solve_distance(a, b, wa, wb, r, alpha, dt, lambda).ok());
    const float c = (b - a).length() - r;
    max_residual = std::max(max_residual, std::fabs(c + alpha_tilde * lambda));
    max_centre = std::max(max_centre,
                          std::fabs((a.x() / wa + b.x() / wb) / (1.0f / wa + 1.0f / wb) - centre));
    const float settled = (b - a).length();
    for (int k = 0; k < 5; ++k)
      ASSERT_TRUE(solve_distance(a, b, wa, wb, r, alpha, dt, lambda).ok());
    max_iterate = std::max(max_iterate, std::fabs((b - a).length() - settled));
  }
  report("G3.random.max_residual", max_residual);
  report("G3.random.max_centre_m", max_centre);
  report("G3.random.max_iterate_m", max_iterate);
  EXPECT_LT(max_residual, 1.0e-5f);
  EXPECT_LT(max_centre, 1.0e-5f);
  EXPECT_LT(max_iterate, 1.0e-5f);
}

// --- What the rule means for a rope -------------------------------------------------------------

constexpr float k_rope_length = 2.0f;
constexpr uint32_t k_rope_segments = 20;

// A 1 kg, 2 m rope of 20 segments hanging from its pinned first vertex, let settle for 4 s
// (damped) with `iterations` per sub-step; its stretch (m) then.
float hanging_stretch(float compliance, int iterations, bool reset_every_iteration = false) {
  Result<Ref<SoftBodySettings>> rope =
      make_rope(Vec3(0.0f, 5.0f, 0.0f), Vec3(0.0f, 5.0f - k_rope_length, 0.0f), k_rope_segments,
                1.0f, compliance, 0.0f, 0.02f);
  EXPECT_TRUE(rope.ok());
  rope.value()->bend_edges.clear();
  rope.value()->vertices[0].inverse_mass = 0.0f;
  rope.value()->linear_damping = 2.0f;
  std::unique_ptr<SoftBody> body = SoftBody::create(rope.value()).value_or_throw();
  SoftBodyStepSettings step;
  step.iterations = iterations;
  const float dt = 1.0f / 60.0f;
  for (int i = 0; i < 240; ++i) {
    if (!reset_every_iteration) {
      EXPECT_TRUE(body->step(dt, step).ok());
      continue;
    }
    const float h = dt / float(step.substeps);
    for (int s = 0; s < step.substeps; ++s) {
      body->begin_substep();
      body->predict(h, step.gravity);
      for (int k = 0; k < iterations; ++k) {
        body->begin_substep();  // the bug
        body->project(h);
      }
      body->finish_substep(h);
    }
  }
  float length = 0.0f;
  for (uint32_t i = 0; i < k_rope_segments; ++i)
    length += (body->positions()[i + 1] - body->positions()[i]).length();
  return length - k_rope_length;
}

TEST_F(SoftBodyLaws, G1_AHangingRopeStretchesTheSameWhateverTheIterationBudget) {
  // Compliance 1e-3 s²/kg: the top segment carries ~9.8 N and stretches ~1 cm.
  const float at5 = hanging_stretch(1.0e-3f, 5);
  const float at10 = hanging_stretch(1.0e-3f, 10);
  const float at20 = hanging_stretch(1.0e-3f, 20);
  const float wrong10 = hanging_stretch(1.0e-3f, 10, true);
  report("G1.rope.stretch_5_m", at5);
  report("G1.rope.stretch_10_m", at10);
  report("G1.rope.stretch_20_m", at20);
  report("G1.rope.stretch_10_reset_every_iteration_m", wrong10);
  ASSERT_GT(at10, 0.01f) << "the rope must visibly stretch for the comparison to mean anything";
  EXPECT_NEAR(at10, at20, 0.05f * at20);
  EXPECT_LE(at5, 1.25f * at20);
  EXPECT_GE(at5, at20 * 0.95f);
  // Resetting λ every iteration makes the same material far stiffer.
  EXPECT_LT(wrong10, 0.2f * at10);
}

TEST_F(SoftBodyLaws, G1_ARigidRopeDoesNotStretch) {
  const float stretched = hanging_stretch(0.0f, 10);
  report("G1.rope.rigid_strain", stretched / k_rope_length);
  EXPECT_LT(stretched, 0.01f * k_rope_length);
}

TEST_F(SoftBodyLaws, G1_AnUndampedSwingingRopeDoesNotGainEnergy) {
  // Pinned at one end, released horizontal, swinging for 20 s without damping: the solver may
  // dissipate (XPBD's projection does), never create energy.
  Result<Ref<SoftBodySettings>> rope = make_rope(Vec3(0.0f, 5.0f, 0.0f), Vec3(2.0f, 5.0f, 0.0f),
                                                 k_rope_segments, 1.0f, 1.0e-4f, 0.0f, 0.02f);
  ASSERT_TRUE(rope.ok());
  rope.value()->vertices[0].inverse_mass = 0.0f;
  rope.value()->linear_damping = 0.0f;
  std::unique_ptr<SoftBody> body = SoftBody::create(rope.value()).value_or_throw();
  const SoftBodyStepSettings step;
  const float e0 = body->kinetic_energy() + body->potential_energy(step.gravity);
  // The scale: the rope's mass times g times its length.
  const float scale = 1.0f * 9.81f * k_rope_length;
  float max_gain = -k_float_max, last = 0.0f, max_kinetic = 0.0f;
  for (int i = 0; i < 20 * 60; ++i) {
    ASSERT_TRUE(body->step(1.0f / 60.0f, step).ok());
    last = body->kinetic_energy() + body->potential_energy(step.gravity) - e0;
    max_gain = std::max(max_gain, last);
    if (i >= 19 * 60) max_kinetic = std::max(max_kinetic, body->kinetic_energy());
  }
  report("G1.swing.max_energy_gain_relative", max_gain / scale);
  report("G1.swing.energy_after_20s_relative", last / scale);
  EXPECT_LT(max_gain, 0.01f * scale);
  // And in its last second it still swings: the solver did not dissipate everything.
  report("G1.swing.max_kinetic_last_second_relative", max_kinetic / scale);
  EXPECT_GT(max_kinetic, 0.1f * scale);
}

}  // namespace soft_body_laws_test
}  // namespace atl::laws
