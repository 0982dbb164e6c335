// Box against box by the separating axis test (BoxBoxCollision.h) compared with the GJK + EPA
// path it replaces (collide_convex_vs_convex), on thousands of random box pairs: both report a
// contact or neither, the normals agree within 1 mrad and the depths within 0.1 mm. Where the
// normals differ, both must be minimum-penetration axes: the boxes' overlap along the EPA
// normal equals the SAT depth within EPA's tolerance (two axes tied for the minimum, either is
// right).

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "CollideTestUtil.h"
#include "atoll/collision/narrowphase/BoxBoxCollision.h"
#include "atoll/collision/narrowphase/ConvexCollision.h"
#include "atoll/shape/BoxShape.h"

namespace atl::test {
namespace box_box_collision_test {
namespace {

struct Outcome {
  bool hit = false;
  ContactManifold manifold;
};

ShapeInstance instance(const Shape& shape, const Mat44& transform) {
  ShapeInstance i;
  i.shape = &shape;
  i.transform = transform;
  return i;
}

template <class Collide>
Outcome run(Collide collide, const BoxShape& a, const Mat44& ta, const BoxShape& b, const Mat44& tb,
            const CollideShapeSettings& settings) {
  AllContactsCollector collector;
  collide(instance(a, ta), instance(b, tb), settings, collector);
  EXPECT_LE(collector.manifolds.size(), 1u);
  Outcome out;
  if (!collector.manifolds.empty()) {
    out.hit = true;
    out.manifold = collector.manifolds[0];
  }
  return out;
}

/// Overlap (m) of the projections of two sharp boxes on unit axis `l` (world).
float overlap_along(const BoxShape& a, const Mat44& ta, const BoxShape& b, const Mat44& tb,
                    const Vec3& l) {
  float r = 0.0f;
  for (int i = 0; i < 3; ++i) {
    r += a.half_extent()[i] * std::fabs(ta.column3(i).dot(l));
    r += b.half_extent()[i] * std::fabs(tb.column3(i).dot(l));
  }
  return r - std::fabs((tb.translation() - ta.translation()).dot(l));
}

struct Tally {
  int cases = 0;
  int both = 0;
  int neither = 0;
  int only_one = 0;          // one path reports a contact, the other not (touching pairs)
  int normal_disagrees = 0;  // normals more than 1 mrad apart (tied axes)
  int multi_point = 0;       // SAT manifolds of more than one point
  float max_angle = 0.0f;    // largest normal angle (rad) where the normals agree
  float max_depth_diff = 0.0f;
};

constexpr float k_max_angle = 1.0e-3f;       // rad
constexpr float k_max_depth_diff = 1.0e-4f;  // m

void compare(const BoxShape& a, const Mat44& ta, const BoxShape& b, const Mat44& tb,
             const CollideShapeSettings& settings, int n, Tally& tally) {
  ++tally.cases;
  const Outcome sat = run(collide_box_vs_box, a, ta, b, tb, settings);
  const Outcome epa = run(collide_convex_vs_convex, a, ta, b, tb, settings);
  if (!sat.hit && !epa.hit) {
    ++tally.neither;
    return;
  }
  if (sat.hit != epa.hit) {
    // Only a pair that just touches may be decided differently: the reported depth is at the
    // edge of what is accepted.
    const ContactManifold& m = sat.hit ? sat.manifold : epa.manifold;
    ASSERT_LE(std::fabs(m.penetration_depth + settings.max_separation_distance), k_max_depth_diff)
        << "case " << n << ": only " << (sat.hit ? "SAT" : "EPA") << " reports depth "
        << m.penetration_depth;
    ++tally.only_one;
    return;
  }
  ++tally.both;
  const ContactManifold& s = sat.manifold;
  const ContactManifold& e = epa.manifold;
  ASSERT_TRUE(s.normal.is_normalized(1e-5f)) << "case " << n;
  ASSERT_GE(s.points_on_1.size(), 1u);
  if (s.points_on_1.size() > 1) ++tally.multi_point;
  const float depth_diff = std::fabs(s.penetration_depth - e.penetration_depth);
  ASSERT_LE(depth_diff, k_max_depth_diff)
      << "case " << n << ": SAT " << s.penetration_depth << " EPA " << e.penetration_depth;
  tally.max_depth_diff = std::fmax(tally.max_depth_diff, depth_diff);
  // The angle from the cross product: acos of a float dot product near 1 is no finer than
  // 3.5e-4 rad.
  const float angle = std::atan2(s.normal.cross(e.normal).length(), s.normal.dot(e.normal));
  if (angle <= k_max_angle) {
    tally.max_angle = std::fmax(tally.max_angle, angle);
    return;
  }
  // Different normals: a tie. Where the cores overlap (SAT's own depth against EPA's; pairs
  // whose cores are apart both go through GJK), the boxes overlap along the EPA normal by the
  // SAT depth as well.
  ++tally.normal_disagrees;
  const Vec3 shrink_a = Vec3::replicate(a.convex_radius());
  const Vec3 shrink_b = Vec3::replicate(b.convex_radius());
  const BoxSatResult cores = box_sat(a.half_extent() - shrink_a, b.half_extent() - shrink_b,
                                     ta.inversed_rotation_translation() * tb, k_float_max);
  std::printf("  [sat] case %d: normals %g rad apart, SAT %s depth %g, EPA depth %g\n", n, angle,
              cores.overlap >= 0.0f ? "(cores overlap)" : "(cores apart)", s.penetration_depth,
              e.penetration_depth);
  if (cores.overlap >= 0.0f) {
    EXPECT_NEAR(overlap_along(a, ta, b, tb, e.normal), s.penetration_depth, 2 * k_max_depth_diff)
        << "case " << n << ": SAT " << s.normal << " EPA " << e.normal;
  }
}

/// Random pairs as in CollideRandomBox: sizes 0.1–1 m, any rotation, A's centre anywhere within
/// reach of B's.
Tally random_pairs(uint64_t seed, int cases, float convex_radius,
                   const CollideShapeSettings& settings) {
  Random random(seed);
  Tally tally;
  for (int n = 0; n < cases; ++n) {
    const Vec3 hb(random.uniform(0.1f, 1), random.uniform(0.1f, 1), random.uniform(0.1f, 1));
    const Mat44 tb = Mat44::rotation_translation(random_rotation(random), Vec3::zero());
    const Vec3 ha(random.uniform(0.1f, 1), random.uniform(0.1f, 1), random.uniform(0.1f, 1));
    const Quat ra = random_rotation(random);
    const float reach = ha.length() + hb.length();
    const Mat44 ta =
        Mat44::rotation_translation(ra, random_unit_vector(random) * random.uniform(0.0f, reach));
    const BoxShape a(ha, std::fmin(convex_radius, ha.min_component()));
    const BoxShape b(hb, std::fmin(convex_radius, hb.min_component()));
    compare(a, ta, b, tb, settings, n, tally);
    if (::testing::Test::HasFatalFailure()) return tally;
  }
  return tally;
}

void print(const char* name, const Tally& t) {
  std::printf(
      "  [sat] %s: cases %d both %d neither %d only_one %d normal_disagrees %d multi_point %d "
      "max_angle_rad %g max_depth_diff_m %g\n",
      name, t.cases, t.both, t.neither, t.only_one, t.normal_disagrees, t.multi_point, t.max_angle,
      t.max_depth_diff);
}

TEST(BoxBoxCollision, SharpBoxesAgreeWithGjkEpa) {
  const Tally t = random_pairs(20240607, 10000, 0.0f, CollideShapeSettings{});
  print("sharp", t);
  // Measured: both 6883, neither 3117, only_one 0, normal_disagrees 3 (ties: 1.3 mrad, 4.5 mrad,
  // 84 mrad apart, depths within 4e-6 m), multi_point 6378, max_angle 7.1e-5 rad,
  // max_depth_diff 3.4e-5 m (EPA stops short of the depth by up to its tolerance).
  EXPECT_GT(t.both, t.cases / 4);
  EXPECT_GT(t.multi_point, t.both / 10);
  EXPECT_LE(t.only_one, t.cases / 1000);
  EXPECT_LE(t.normal_disagrees, t.cases / 1000);
}

TEST(BoxBoxCollision, RoundedBoxesAgreeWithGjkEpa) {
  const Tally t = random_pairs(77, 5000, 0.05f, CollideShapeSettings{});
  print("rounded", t);
  // Measured: both 3379, neither 1621, only_one 0, normal_disagrees 1 (a tie, 1.3 mrad apart),
  // max_angle 6.0e-5 rad, max_depth_diff 1.8e-5 m.
  EXPECT_GT(t.both, t.cases / 4);
  EXPECT_LE(t.only_one, t.cases / 1000);
  EXPECT_LE(t.normal_disagrees, t.cases / 1000);
}

TEST(BoxBoxCollision, SpeculativePairsAgreeWithGjkEpa) {
  // With a speculative distance, separated pairs within it are reported by both (SAT hands
  // cores that are apart to GJK).
  CollideShapeSettings settings;
  settings.max_separation_distance = 0.02f;
  const Tally t = random_pairs(5, 5000, 0.0f, settings);
  print("speculative", t);
  // Measured: both 3426, neither 1574, only_one 0, normal_disagrees 2 (ties, 63 mrad and
  // 1.2 mrad apart), max_angle 4.4e-4 rad, max_depth_diff 9.2e-5 m.
  EXPECT_GT(t.both, t.cases / 4);
  EXPECT_LE(t.only_one, t.cases / 1000);
  EXPECT_LE(t.normal_disagrees, t.cases / 1000);
}

TEST(BoxBoxCollision, RestingBoxesAgreeWithGjkEpa) {
  // The pyramid's case: nearly aligned boxes of half extent 1, one on top of the other, from
  // 2 cm apart to 5 cm deep, shifted sideways and turned by up to 0.05 rad.
  Random random(9);
  CollideShapeSettings settings;
  settings.max_separation_distance = 0.02f;
  const BoxShape box(Vec3::replicate(1.0f), 0.0f);
  Tally t;
  for (int n = 0; n < 5000; ++n) {
    const Quat small_a = Quat::rotation(random_unit_vector(random), random.uniform(0.0f, 0.05f));
    const Quat small_b = Quat::rotation(random_unit_vector(random), random.uniform(0.0f, 0.05f));
    const Vec3 shift(random.uniform(-1.5f, 1.5f), 2.0f - random.uniform(-0.02f, 0.05f),
                     random.uniform(-1.5f, 1.5f));
    compare(box, Mat44::rotation_translation(small_a, Vec3::zero()), box,
            Mat44::rotation_translation(small_b, shift), settings, n, t);
    if (HasFatalFailure()) return;
  }
  print("resting", t);
  // Measured: both 4934, neither 66, only_one 0, normal_disagrees 3 (ties, 1.0, 1.5 and
  // 29 mrad apart), multi_point 4837, max_angle 1.4e-4 rad, max_depth_diff 6.8e-5 m.
  EXPECT_GT(t.both, t.cases / 2);
  EXPECT_GT(t.multi_point, t.both / 2);
  EXPECT_LE(t.only_one, t.cases / 1000);
  EXPECT_LE(t.normal_disagrees, t.cases / 1000);
}

TEST(BoxBoxCollision, SatSeparatesAndStopsEarly) {
  // Two unit cubes 3 m apart along x: A's x face separates them by 1 m.
  const Mat44 b_to_a = Mat44::translation(Vec3(3, 0, 0));
  const BoxSatResult far = box_sat(Vec3::replicate(1), Vec3::replicate(1), b_to_a, 0.5f);
  EXPECT_FLOAT_EQ(far.overlap, -1.0f);
  EXPECT_EQ(far.feature, 0);
  EXPECT_TRUE(vec_near(far.axis, Vec3(1, 0, 0), 0.0f));
  // Overlapping by 0.1 m along -y: B's centre below A's, the axis points from A to B.
  const BoxSatResult deep = box_sat(Vec3::replicate(1), Vec3::replicate(1),
                                    Mat44::translation(Vec3(0.2f, -1.9f, 0.3f)), 0.0f);
  EXPECT_NEAR(deep.overlap, 0.1f, 1e-6f);
  EXPECT_EQ(deep.feature, 1);
  EXPECT_TRUE(vec_near(deep.axis, Vec3(0, -1, 0), 0.0f));
  // Edge against edge: A turned 45° about x (its top edge along x at y = √2), B turned 45°
  // about z above it (its bottom edge along z at y = √2 − 0.05): the edges cross 5 cm deep,
  // every face axis overlaps far more (0.74 m). The axis is A's x × B's z, world +y.
  const Mat44 ta =
      Mat44::rotation_translation(Quat::rotation(Vec3(1, 0, 0), 0.25f * k_pi), Vec3::zero());
  const Mat44 tb = Mat44::rotation_translation(Quat::rotation(Vec3(0, 0, 1), 0.25f * k_pi),
                                               Vec3(0, 2.0f * std::sqrt(2.0f) - 0.05f, 0));
  const BoxSatResult e = box_sat(Vec3::replicate(1), Vec3::replicate(1),
                                 ta.inversed_rotation_translation() * tb, 0.0f);
  EXPECT_NEAR(e.overlap, 0.05f, 1e-5f);
  EXPECT_EQ(e.feature, 6 + 3 * 0 + 2);
  EXPECT_TRUE(vec_near(ta.multiply3x3(e.axis), Vec3(0, 1, 0), 1e-6f));
  // Through collide_box_vs_box: one point, at the crossing, 5 cm deep.
  const BoxShape box(Vec3::replicate(1), 0.0f);
  const Outcome hit = run(collide_box_vs_box, box, ta, box, tb, CollideShapeSettings{});
  ASSERT_TRUE(hit.hit);
  EXPECT_NEAR(hit.manifold.penetration_depth, 0.05f, 1e-5f);
  ASSERT_EQ(hit.manifold.points_on_1.size(), 1u);
  EXPECT_TRUE(vec_near(hit.manifold.points_on_1[0], Vec3(0, std::sqrt(2.0f), 0), 1e-5f));
  EXPECT_TRUE(vec_near(hit.manifold.points_on_2[0], Vec3(0, std::sqrt(2.0f) - 0.05f, 0), 1e-5f));
}

}  // namespace
}  // namespace box_box_collision_test
}  // namespace atl::test
