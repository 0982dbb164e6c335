// The wide contact solve (constraint/parts/ContactLanes.h) against the scalar parts it packs:
// each lane must do what the scalar solve of its contact does — face block or point rows,
// manifold friction with its budget, the first iteration's normals-first rule, warm start —
// to float round-off (the lanes fuse other multiply-adds), whichever lane it sits in; empty
// lanes, immovable bodies and non-finite rows must change nothing.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "PartTestBodies.h"
#include "atoll/constraint/parts/ContactLanes.h"
#include "atoll/constraint/parts/ContactPart.h"
#include "atoll/core/Random.h"

namespace atl {
namespace contact_lanes_test {
namespace {

// One contact between bodies[body1] and bodies[body2], set up with the scalar parts.
struct TestContact {
  uint32_t body1 = 0;
  uint32_t body2 = 0;
  uint32_t num_points = 0;
  Vec3 normal, tangent1, tangent2;
  float friction = 0.0f;
  AxisConstraintPart normal_rows[4];
  float twist_lever[4] = {};
  AxisConstraintPart friction1, friction2;
  AngularFrictionPart twist;
  FaceContactPart face;
  InverseMassScales scales;
  // Each point from body 1's and body 2's centre of mass (world).
  Vec3 r1[4], r2[4];

  ContactLanes::Source source(const std::vector<SolverBody>& bodies) const {
    ContactLanes::Source s;
    s.body1 = body1;
    s.body2 = body2;
    s.write1 = !bodies[body1].is_immovable();
    s.write2 = !bodies[body2].is_immovable();
    s.num_points = num_points;
    s.normal = normal;
    s.tangent1 = tangent1;
    s.tangent2 = tangent2;
    s.friction = friction;
    s.inv_mass1 = bodies[body1].inv_mass;
    s.inv_mass2 = bodies[body2].inv_mass;
    s.inv_inertia1 = &bodies[body1].inv_inertia;
    s.inv_inertia2 = &bodies[body2].inv_inertia;
    s.scales = scales;
    s.normal_rows = normal_rows;
    s.twist_lever = twist_lever;
    s.friction1 = &friction1;
    s.friction2 = &friction2;
    s.twist = &twist;
    s.face = &face;
    return s;
  }
};

// The scalar solve of one contact in one iteration (ContactConstraintManager's order).
void scalar_normals(TestContact& c, SolverBody& b1, SolverBody& b2) {
  if (c.face.is_active()) {
    float lambdas[4];
    for (uint32_t p = 0; p < c.num_points; ++p) lambdas[p] = c.normal_rows[p].total_lambda();
    if (c.face.solve_velocity_constraint(b1, b2, lambdas) !=
        FaceContactPart::Outcome::NotPushOnly) {
      for (uint32_t p = 0; p < c.num_points; ++p) c.normal_rows[p].set_total_lambda(lambdas[p]);
      return;
    }
  }
  for (uint32_t p = 0; p < c.num_points; ++p)
    c.normal_rows[p].solve_velocity_constraint(b1, b2, c.normal, 0.0f,
                                               std::numeric_limits<float>::max());
}

void scalar_iteration(TestContact& c, SolverBody& b1, SolverBody& b2, bool first) {
  if (first && c.friction > 0.0f) {
    bool none = true;
    for (uint32_t p = 0; p < c.num_points; ++p) none &= c.normal_rows[p].total_lambda() == 0.0f;
    if (none) scalar_normals(c, b1, b2);
  }
  if (c.friction > 0.0f) {
    float sum = 0.0f;
    float moment = 0.0f;
    for (uint32_t p = 0; p < c.num_points; ++p) {
      const AxisConstraintPart& row = c.normal_rows[p];
      const float lambda = std::max(row.total_lambda(),
                                    row.total_lambda() + row.lambda_for_target(b1, b2, c.normal));
      sum += lambda;
      moment += c.twist_lever[p] * lambda;
    }
    solve_friction_cone(c.friction1, c.friction2, b1, b2, c.tangent1, c.tangent2, c.friction * sum);
    const float max_twist = std::max(c.friction * moment, 0.0f);
    c.twist.solve_velocity_constraint(b1, b2, -max_twist, max_twist);
  }
  scalar_normals(c, b1, b2);
}

void scalar_warm_start(TestContact& c, SolverBody& b1, SolverBody& b2, float ratio) {
  c.friction1.warm_start(b1, b2, ratio);
  c.friction2.warm_start(b1, b2, ratio);
  c.twist.warm_start(b1, b2, ratio);
  for (uint32_t p = 0; p < c.num_points; ++p) c.normal_rows[p].warm_start(b1, b2, ratio);
}

// A box of half extents `half` resting (tilted a little, moving) on body 1, touching at up to
// four corners of its bottom face; `points` 1–4. With a `gap` (m) the box's points lie that far
// above body 1's along the normal (the first point twice as far when `uneven`: four such targets
// are not affine over the face, and the face block does not apply), and each point's target is
// the speculative one of the contact setup, -gap / dt.
TestContact make_contact(Random& random, std::vector<SolverBody>& bodies, uint32_t body1,
                         uint32_t body2, uint32_t points, float friction, bool warm,
                         float gap = 0.0f, float inv_dt = 60.0f, bool uneven = false) {
  TestContact c;
  c.body1 = body1;
  c.body2 = body2;
  c.num_points = points;
  c.friction = friction;
  // Every other contact scales its bodies' inverse masses and inertias (a listener's
  // ContactSettings::mass_scales), which the lanes apply to the masses and inertias they hold.
  if (random.uniform(0.0f, 1.0f) < 0.5f)
    c.scales = {random.uniform(0.3f, 2.0f), random.uniform(0.3f, 2.0f), random.uniform(0.3f, 2.0f),
                random.uniform(0.3f, 2.0f)};
  const SolverBody& b1 = bodies[body1];
  const SolverBody& b2 = bodies[body2];
  c.normal = Vec3(random.uniform(-0.1f, 0.1f), 1.0f, random.uniform(-0.1f, 0.1f)).normalized();
  c.tangent1 = c.normal.normalized_perpendicular();
  c.tangent2 = c.normal.cross(c.tangent1);
  const float hx = random.uniform(0.2f, 0.6f);
  const float hz = random.uniform(0.2f, 0.6f);
  const float corners[4][2] = {{-hx, -hz}, {hx, -hz}, {hx, hz}, {-hx, hz}};
  Vec3 r1[4];
  Vec3 r2[4];
  float targets[4];
  const Vec3 contact_centre = b2.com_position - c.normal * 0.5f;
  for (uint32_t p = 0; p < points; ++p) {
    const Vec3 at = contact_centre + c.tangent1 * corners[p][0] + c.tangent2 * corners[p][1];
    r1[p] = at - b1.com_position;
    const float point_gap = uneven && p == 0 ? 2.0f * gap : gap;
    r2[p] = at + c.normal * point_gap - b2.com_position;
    c.r1[p] = r1[p];
    c.r2[p] = r2[p];
    targets[p] = -point_gap * inv_dt;
    c.normal_rows[p].calculate_constraint_properties(b1, r1[p], b2, r2[p], c.normal, targets[p],
                                                     c.scales);
    if (warm) c.normal_rows[p].set_total_lambda(random.uniform(0.0f, 2.0f));
  }
  c.face.calculate_constraint_properties(b1, b2, r1, r2, targets, points, c.normal, c.tangent1,
                                         c.tangent2, c.scales);
  if (friction > 0.0f) {
    Vec3 mean1;
    Vec3 mean2;
    for (uint32_t p = 0; p < points; ++p) {
      mean1 += r1[p];
      mean2 += r2[p];
    }
    mean1 *= 1.0f / static_cast<float>(points);
    mean2 *= 1.0f / static_cast<float>(points);
    for (uint32_t p = 0; p < points; ++p) {
      const Vec3 d = r1[p] - mean1;
      c.twist_lever[p] = (d - c.normal * d.dot(c.normal)).length();
    }
    c.friction1.calculate_constraint_properties(b1, mean1, b2, mean2, c.tangent1, 0.0f, c.scales);
    c.friction2.calculate_constraint_properties(b1, mean1, b2, mean2, c.tangent2, 0.0f, c.scales);
    c.twist.calculate_constraint_properties(b1, b2, c.normal, 0.0f, c.scales);
    if (warm) {
      c.friction1.set_total_lambda(random.uniform(-0.3f, 0.3f));
      c.friction2.set_total_lambda(random.uniform(-0.3f, 0.3f));
      c.twist.set_total_lambda(random.uniform(-0.05f, 0.05f));
    }
  }
  return c;
}

SolverBody random_body(Random& random, const Vec3& position) {
  SolverBody b = test::dynamic_body(
      random.uniform(0.5f, 5.0f),
      Vec3(random.uniform(0.05f, 1.0f), random.uniform(0.05f, 1.0f), random.uniform(0.05f, 1.0f)),
      position);
  b.linear_velocity =
      Vec3(random.uniform(-1.0f, 1.0f), random.uniform(-2.0f, 0.5f), random.uniform(-1.0f, 1.0f));
  b.angular_velocity =
      Vec3(random.uniform(-2.0f, 2.0f), random.uniform(-2.0f, 2.0f), random.uniform(-2.0f, 2.0f));
  return b;
}

void expect_near(const Vec3& a, const Vec3& b, float tolerance, const char* what, int item) {
  for (int k = 0; k < 3; ++k)
    EXPECT_NEAR(a[k], b[k], tolerance * (1.0f + std::fabs(b[k]))) << what << " of body " << item;
}

// Every body's velocities in `wide` as in `scalar`, and body 0 (the static floor) unmoved.
void expect_same_velocities(const std::vector<SolverBody>& wide,
                            const std::vector<SolverBody>& scalar, float tolerance) {
  for (size_t i = 0; i < scalar.size(); ++i) {
    expect_near(wide[i].linear_velocity, scalar[i].linear_velocity, tolerance, "linear velocity",
                static_cast<int>(i));
    expect_near(wide[i].angular_velocity, scalar[i].angular_velocity, tolerance, "angular velocity",
                static_cast<int>(i));
  }
  EXPECT_EQ(wide[0].linear_velocity, Vec3::zero()) << "the static floor was written";
}

// Eight contacts (a mix of faces, edges, single points, with and without friction, some on a
// static floor), solved in lanes and one by one from the same start: the same velocities and
// impulses to round-off after a warm start and ten iterations.
TEST(ContactLanesTest, EachLaneSolvesAsTheScalarPartsDo) {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    Random random(seed);
    std::vector<SolverBody> bodies;
    bodies.push_back(test::static_body());  // body 0: a floor, shared by several contacts
    std::vector<TestContact> contacts;
    for (uint32_t lane = 0; lane < ContactLanes::k_width; ++lane) {
      const bool on_floor = lane % 3 == 0;
      uint32_t body1 = 0;
      if (!on_floor) {
        bodies.push_back(random_body(random, Vec3(3.0f * lane, 0.0f, 0.0f)));
        body1 = static_cast<uint32_t>(bodies.size() - 1);
      }
      bodies.push_back(random_body(random, Vec3(3.0f * lane, 1.0f, 0.0f)));
      const uint32_t body2 = static_cast<uint32_t>(bodies.size() - 1);
      const uint32_t points = 1 + (lane + seed) % 4;
      const float friction = lane % 4 == 1 ? 0.0f : random.uniform(0.2f, 1.0f);
      const bool warm = (lane + seed) % 2 == 0;
      contacts.push_back(make_contact(random, bodies, body1, body2, points, friction, warm));
    }
    std::vector<SolverBody> wide_bodies = bodies;
    ContactLanes lanes;
    for (uint32_t lane = 0; lane < ContactLanes::k_width; ++lane)
      lanes.set_lane(lane, contacts[lane].source(bodies));
    ASSERT_EQ(lanes.drop_non_finite(), 0u);

    constexpr float k_ratio = 0.9f;
    lanes.warm_start(wide_bodies, k_ratio);
    for (TestContact& c : contacts) {
      SolverBody floor_copy = bodies[0];
      SolverBody& b1 = c.body1 == 0 ? floor_copy : bodies[c.body1];
      scalar_warm_start(c, b1, bodies[c.body2], k_ratio);
    }
    for (int iteration = 0; iteration < 10; ++iteration) {
      lanes.solve_velocity_constraints(wide_bodies, iteration == 0);
      for (TestContact& c : contacts) {
        SolverBody floor_copy = bodies[0];
        SolverBody& b1 = c.body1 == 0 ? floor_copy : bodies[c.body1];
        scalar_iteration(c, b1, bodies[c.body2], iteration == 0);
      }
    }
    constexpr float k_tolerance = 2.0e-4f;
    expect_same_velocities(wide_bodies, bodies, k_tolerance);
    for (uint32_t lane = 0; lane < ContactLanes::k_width; ++lane) {
      const TestContact& c = contacts[lane];
      float normal[4];
      float f1 = 0.0f;
      float f2 = 0.0f;
      float twist = 0.0f;
      ASSERT_TRUE(lanes.get_lambdas(lane, normal, f1, f2, twist));
      for (uint32_t p = 0; p < c.num_points; ++p)
        EXPECT_NEAR(normal[p], c.normal_rows[p].total_lambda(),
                    k_tolerance * (1.0f + c.normal_rows[p].total_lambda()))
            << "seed " << seed << " lane " << lane << " point " << p;
      EXPECT_NEAR(f1, c.friction1.total_lambda(), k_tolerance) << "seed " << seed;
      EXPECT_NEAR(f2, c.friction2.total_lambda(), k_tolerance) << "seed " << seed;
      EXPECT_NEAR(twist, c.twist.total_lambda(), k_tolerance) << "seed " << seed;
      // Non-penetration only pushes; friction stays in its disc.
      for (uint32_t p = 0; p < c.num_points; ++p) EXPECT_GE(normal[p], 0.0f);
    }
  }
}

// The lanes' own setup (ContactLanes::setup, eight contacts at once from the manifolds in the
// bodies' frames) against the scalar parts copied in by set_lane: the same normals, and the same
// velocities and impulses to round-off after a warm start and ten iterations — face blocks,
// edges and single points, speculative targets (some not affine over a face), friction or none,
// scaled masses, turned bodies with full inverse inertias, a static floor, and empty lanes.
TEST(ContactLanesTest, SetupInLanesMatchesTheScalarSetup) {
  constexpr float k_inv_dt = 60.0f;
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    Random random(seed);
    const auto turned = [&random](SolverBody b) {
      const Quat q = Quat(random.uniform(-1.0f, 1.0f), random.uniform(-1.0f, 1.0f),
                          random.uniform(-1.0f, 1.0f), random.uniform(0.5f, 1.0f))
                         .normalized();
      const Mat44 r = Mat44::rotation(q);
      b.rotation = q;
      b.inv_inertia = r * b.inv_inertia * r.transposed3x3();
      return b;
    };
    std::vector<SolverBody> bodies;
    bodies.push_back(test::static_body());  // body 0: a floor, shared by several contacts
    std::vector<TestContact> contacts;
    const uint32_t empty_lane = seed % ContactLanes::k_width;
    ContactLanes::SetupInputs inputs;
    for (uint32_t lane = 0; lane < ContactLanes::k_width; ++lane) {
      if (lane == empty_lane) {
        inputs.clear_lane(lane);
        contacts.emplace_back();
        continue;
      }
      const bool on_floor = lane % 3 == 0;
      uint32_t body1 = 0;
      if (!on_floor) {
        bodies.push_back(turned(random_body(random, Vec3(3.0f * lane, 0.0f, 0.0f))));
        body1 = static_cast<uint32_t>(bodies.size() - 1);
      }
      bodies.push_back(turned(random_body(random, Vec3(3.0f * lane, 1.0f, 0.0f))));
      const uint32_t body2 = static_cast<uint32_t>(bodies.size() - 1);
      const uint32_t points = 1 + (lane + seed) % 4;
      const float friction = lane % 4 == 1 ? 0.0f : random.uniform(0.2f, 1.0f);
      const bool warm = (lane + seed) % 2 == 0;
      const float gap = lane % 2 == 0 ? random.uniform(0.001f, 0.02f) : 0.0f;
      const bool uneven = seed % 3 == 0;
      const TestContact c =
          make_contact(random, bodies, body1, body2, points, friction, warm, gap, k_inv_dt, uneven);
      contacts.push_back(c);
      const Quat& q1 = bodies[body1].rotation;
      const Quat& q2 = bodies[body2].rotation;
      inputs.body1[lane] = body1;
      inputs.body2[lane] = body2;
      inputs.num_points.v[lane] = static_cast<float>(points);
      inputs.friction.v[lane] = friction;
      inputs.inv_mass_scale1.v[lane] = c.scales.inv_mass1;
      inputs.inv_inertia_scale1.v[lane] = c.scales.inv_inertia1;
      inputs.inv_mass_scale2.v[lane] = c.scales.inv_mass2;
      inputs.inv_inertia_scale2.v[lane] = c.scales.inv_inertia2;
      inputs.local_normal.set_lane(lane, q1.inverse_rotate(c.normal));
      for (uint32_t p = 0; p < points; ++p) {
        inputs.local_on_1[p].set_lane(lane, q1.inverse_rotate(c.r1[p]));
        inputs.local_on_2[p].set_lane(lane, q2.inverse_rotate(c.r2[p]));
        inputs.normal_lambda[p].v[lane] = c.normal_rows[p].total_lambda();
      }
      inputs.friction_lambda1.v[lane] = c.friction1.total_lambda();
      inputs.friction_lambda2.v[lane] = c.friction2.total_lambda();
      inputs.twist_lambda.v[lane] = c.twist.total_lambda();
    }
    ContactLanes scalar;
    ContactLanes wide;
    for (uint32_t lane = 0; lane < ContactLanes::k_width; ++lane) {
      if (lane == empty_lane)
        scalar.clear_lane(lane);
      else
        scalar.set_lane(lane, contacts[lane].source(bodies));
    }
    Vec3 normals[ContactLanes::k_width];
    wide.setup(bodies, inputs, k_inv_dt, true, normals);
    ASSERT_EQ(scalar.drop_non_finite(), 0u);
    ASSERT_EQ(wide.drop_non_finite(), 0u);
    for (uint32_t lane = 0; lane < ContactLanes::k_width; ++lane)
      if (lane != empty_lane)
        expect_near(normals[lane], contacts[lane].normal, 1.0e-6f, "normal",
                    static_cast<int>(lane));

    std::vector<SolverBody> wide_bodies = bodies;
    constexpr float k_ratio = 0.9f;
    scalar.warm_start(bodies, k_ratio);
    wide.warm_start(wide_bodies, k_ratio);
    for (int iteration = 0; iteration < 10; ++iteration) {
      scalar.solve_velocity_constraints(bodies, iteration == 0);
      wide.solve_velocity_constraints(wide_bodies, iteration == 0);
    }
    constexpr float k_tolerance = 2.0e-4f;
    expect_same_velocities(wide_bodies, bodies, k_tolerance);
    for (uint32_t lane = 0; lane < ContactLanes::k_width; ++lane) {
      float normal[4], f1 = 0.0f, f2 = 0.0f, twist = 0.0f;
      float scalar_normal[4], scalar_f1 = 0.0f, scalar_f2 = 0.0f, scalar_twist = 0.0f;
      const bool used = wide.get_lambdas(lane, normal, f1, f2, twist);
      ASSERT_EQ(used, scalar.get_lambdas(lane, scalar_normal, scalar_f1, scalar_f2, scalar_twist))
          << "seed " << seed << " lane " << lane;
      EXPECT_EQ(used, lane != empty_lane);
      if (!used) continue;
      for (uint32_t p = 0; p < contacts[lane].num_points; ++p)
        EXPECT_NEAR(normal[p], scalar_normal[p], k_tolerance * (1.0f + scalar_normal[p]))
            << "seed " << seed << " lane " << lane << " point " << p;
      EXPECT_NEAR(f1, scalar_f1, k_tolerance) << "seed " << seed << " lane " << lane;
      EXPECT_NEAR(f2, scalar_f2, k_tolerance) << "seed " << seed << " lane " << lane;
      EXPECT_NEAR(twist, scalar_twist, k_tolerance) << "seed " << seed << " lane " << lane;
    }
  }
}

// A contact whose rows are not finite (a body's pose went NaN) keeps no lane: drop_non_finite
// empties it, and the block's other lanes solve as before without a NaN reaching their bodies.
TEST(ContactLanesTest, NonFiniteRowsLeaveTheLaneEmptyAndTheOthersClean) {
  Random random(7);
  std::vector<SolverBody> bodies;
  bodies.push_back(test::static_body());
  bodies.push_back(random_body(random, Vec3(0.0f, 1.0f, 0.0f)));
  bodies.push_back(random_body(random, Vec3(3.0f, 1.0f, 0.0f)));
  TestContact good = make_contact(random, bodies, 0, 1, 4, 0.5f, true);
  TestContact bad = make_contact(random, bodies, 0, 2, 4, 0.5f, true);
  bad.normal_rows[2].set_total_lambda(std::numeric_limits<float>::quiet_NaN());
  ContactLanes lanes;
  lanes.set_lane(0, good.source(bodies));
  lanes.set_lane(1, bad.source(bodies));
  for (uint32_t lane = 2; lane < ContactLanes::k_width; ++lane) lanes.clear_lane(lane);
  EXPECT_EQ(lanes.drop_non_finite(), 1u << 1);
  const Vec3 before = bodies[2].linear_velocity;
  lanes.warm_start(bodies, 1.0f);
  for (int iteration = 0; iteration < 4; ++iteration)
    lanes.solve_velocity_constraints(bodies, iteration == 0);
  EXPECT_EQ(bodies[2].linear_velocity, before) << "the refused contact's body was moved";
  EXPECT_TRUE(bodies[1].linear_velocity.is_finite());
  EXPECT_TRUE(bodies[1].angular_velocity.is_finite());
  float normal[4];
  float f1, f2, twist;
  EXPECT_FALSE(lanes.get_lambdas(1, normal, f1, f2, twist));
}

// A block with no contact at all applies nothing and reports nothing applied.
TEST(ContactLanesTest, EmptyLanesApplyNothing) {
  std::vector<SolverBody> bodies = {test::ball(1.0f, 0.1f)};
  bodies[0].linear_velocity = Vec3(1.0f, -2.0f, 3.0f);
  ContactLanes lanes;
  for (uint32_t lane = 0; lane < ContactLanes::k_width; ++lane) lanes.clear_lane(lane);
  lanes.warm_start(bodies, 1.0f);
  EXPECT_FALSE(lanes.solve_velocity_constraints(bodies, true));
  EXPECT_EQ(bodies[0].linear_velocity, Vec3(1.0f, -2.0f, 3.0f));
}

}  // namespace
}  // namespace contact_lanes_test
}  // namespace atl
