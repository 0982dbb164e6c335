// Property test over many random box pairs (fixed seed): the EPA normal and depth are the
// minimum translation that separates the boxes, and every manifold point lies on both boxes'
// surfaces. The reference is computed independently: the separating axis theorem over the 15
// candidate axes of two boxes, and a fresh GJK distance query.

#include <gtest/gtest.h>

#include <cmath>

#include "CollideTestUtil.h"
#include "atoll/geometry/GJK.h"
#include "atoll/shape/BoxShape.h"

namespace atl::test {
namespace collide_random_box_test {
namespace {

struct Box {
  Vec3 half_extent;
  Mat44 transform;
};

/// Penetration of two boxes by the separating axis theorem: the smallest overlap over the face
/// normals of both and the cross products of their edges (negative when separated).
float sat_penetration(const Box& a, const Box& b) {
  Vec3 axes[15];
  int count = 0;
  for (int i = 0; i < 3; ++i) axes[count++] = a.transform.column3(i);
  for (int i = 0; i < 3; ++i) axes[count++] = b.transform.column3(i);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Vec3 c = a.transform.column3(i).cross(b.transform.column3(j));
      // Nearly parallel edges give no new axis (and a noisy one).
      if (c.length_sq() > 1e-6f) axes[count++] = c.normalized();
    }
  const Vec3 offset = b.transform.translation() - a.transform.translation();
  float best = k_float_max;
  for (int k = 0; k < count; ++k) {
    const Vec3& axis = axes[k];
    float ra = 0, rb = 0;
    for (int i = 0; i < 3; ++i) {
      ra += a.half_extent[i] * std::fabs(a.transform.column3(i).dot(axis));
      rb += b.half_extent[i] * std::fabs(b.transform.column3(i).dot(axis));
    }
    best = std::fmin(best, ra + rb - std::fabs(offset.dot(axis)));
  }
  return best;
}

/// Distance (m) between the cores of two boxes rounded by `radius` (m), the boxes shrunk by
/// the radius, by a fresh GJK query (0 when they overlap).
float core_distance(const Box& a, const Box& b, float radius) {
  const Vec3 shrink = Vec3::replicate(radius);
  const AABoxConvex box_a{AABox(shrink - a.half_extent, a.half_extent - shrink)};
  const AABoxConvex box_b{AABox(shrink - b.half_extent, b.half_extent - shrink)};
  const TransformedConvex<AABoxConvex> ta(a.transform, box_a);
  const TransformedConvex<AABoxConvex> tb(b.transform, box_b);
  GJKClosestPoint gjk;
  Vec3 v = b.transform.translation() - a.transform.translation();
  Vec3 pa, pb;
  return std::sqrt(gjk.closest_points(ta, tb, 1e-5f, k_float_max, v, pa, pb));
}

/// Distance (m) between two boxes rounded by `radius` (m) (0 when they overlap).
float gjk_distance(const Box& a, const Box& b, float radius = 0.0f) {
  return std::fmax(core_distance(a, b, radius) - 2 * radius, 0.0f);
}

/// Signed distance (m) from a world point to the surface of a box (negative inside).
float box_signed_distance(const Box& box, const Vec3& world_point) {
  const Vec3 p = box.transform.inversed_rotation_translation() * world_point;
  const Vec3 q = p.abs() - box.half_extent;
  const float outside = Vec3::max(q, Vec3::zero()).length();
  const float inside = std::fmin(q.max_component(), 0.0f);
  return outside + inside;
}

Box random_box(Random& random, const Vec3& center) {
  return {Vec3(random.uniform(0.1f, 1), random.uniform(0.1f, 1), random.uniform(0.1f, 1)),
          Mat44::rotation_translation(random_rotation(random), center)};
}

TEST(CollideRandomBox, EpaDepthSeparatesAndPointsLieOnBothSurfaces) {
  constexpr int k_cases = 10000;
  constexpr float k_point_tolerance = 1e-3f;
  Random random(20240607);
  const CollideShapeSettings settings;
  int colliding = 0, multi_point = 0;
  for (int n = 0; n < k_cases; ++n) {
    const Box b = random_box(random, Vec3::zero());
    const Box a_shape = random_box(random, Vec3::zero());
    const float reach = a_shape.half_extent.length() + b.half_extent.length();
    const Box a{a_shape.half_extent, Mat44::rotation_translation(
                                         a_shape.transform.quaternion(),
                                         random_unit_vector(random) * random.uniform(0.0f, reach))};
    const BoxShape shape_a(a.half_extent, 0.0f), shape_b(b.half_extent, 0.0f);
    const auto manifolds = collide_all(shape_a, a.transform, shape_b, b.transform, settings);
    const float sat = sat_penetration(a, b);
    if (manifolds.empty()) {
      ASSERT_LT(sat, 1e-4f) << "case " << n << ": overlapping boxes gave no manifold";
      continue;
    }
    ASSERT_EQ(manifolds.size(), 1u);
    const ContactManifold& m = manifolds[0];
    ++colliding;
    ASSERT_TRUE(m.normal.is_normalized(1e-4f)) << "case " << n;
    // The depth is the minimum translation distance.
    ASSERT_NEAR(m.penetration_depth, sat, 2e-4f) << "case " << n;
    // Moving B by normal × depth leaves the boxes touching; 1 cm further they are 1 cm apart.
    const auto moved = [&](float distance) {
      return Box{b.half_extent, Mat44::translation(m.normal * distance) * b.transform};
    };
    ASSERT_LE(gjk_distance(a, moved(m.penetration_depth)), 1e-4f) << "case " << n;
    ASSERT_GE(gjk_distance(a, moved(m.penetration_depth + 0.01f)), 0.01f - 2e-4f) << "case " << n;
    // Points on both surfaces, pairwise no deeper than the manifold and no farther apart than
    // the manifold tolerance.
    ASSERT_GE(m.points_on_1.size(), 1u);
    ASSERT_EQ(m.points_on_1.size(), m.points_on_2.size());
    if (m.points_on_1.size() > 1) ++multi_point;
    for (size_t i = 0; i < m.points_on_1.size(); ++i) {
      const Vec3& p1 = m.points_on_1[i];
      const Vec3& p2 = m.points_on_2[i];
      ASSERT_LE(std::fabs(box_signed_distance(a, p1)), k_point_tolerance)
          << "case " << n << " point " << i << " " << p1;
      ASSERT_LE(std::fabs(box_signed_distance(b, p2)), k_point_tolerance)
          << "case " << n << " point " << i << " " << p2;
      const float depth = (p1 - p2).dot(m.normal);
      ASSERT_LE(depth, m.penetration_depth + k_point_tolerance) << "case " << n;
      ASSERT_GE(depth, -settings.manifold_tolerance - 1e-4f) << "case " << n;
    }
  }
  // The distribution must exercise both outcomes and real manifolds.
  EXPECT_GT(colliding, k_cases / 4);
  EXPECT_LT(colliding, k_cases);
  EXPECT_GT(multi_point, colliding / 10);
}

TEST(CollideRandomBox, RoundedBoxesAreSeparatedByNormalTimesDepth) {
  // With a convex radius, pairs whose cores are apart are decided by GJK on the cores: the
  // shapes are the rounded boxes, and the reference is the distance of the cores minus both
  // radii. Pairs whose cores overlap go to EPA on the full, sharp boxes (as in Jolt), whose
  // reference is the plain box distance.
  constexpr int k_cases = 2000;
  constexpr float k_radius = 0.05f;
  Random random(77);
  int colliding = 0;
  for (int n = 0; n < k_cases; ++n) {
    const Box b = random_box(random, Vec3::zero());
    const Box a_shape = random_box(random, Vec3::zero());
    const float reach = a_shape.half_extent.length() + b.half_extent.length();
    const Box a{a_shape.half_extent, Mat44::rotation_translation(
                                         a_shape.transform.quaternion(),
                                         random_unit_vector(random) * random.uniform(0.0f, reach))};
    const BoxShape shape_a(a.half_extent, k_radius), shape_b(b.half_extent, k_radius);
    const auto manifolds = collide_all(shape_a, a.transform, shape_b, b.transform);
    if (manifolds.empty()) {
      ASSERT_GT(gjk_distance(a, b, k_radius), 0.0f) << "case " << n;
      continue;
    }
    ++colliding;
    const ContactManifold& m = manifolds[0];
    const auto moved = [&](float distance) {
      return Box{b.half_extent, Mat44::translation(m.normal * distance) * b.transform};
    };
    const float radius = core_distance(a, b, k_radius) > 1e-4f ? k_radius : 0.0f;
    ASSERT_LE(gjk_distance(a, moved(m.penetration_depth), radius), 1e-4f) << "case " << n;
    ASSERT_GE(gjk_distance(a, moved(m.penetration_depth + 0.01f), radius), 0.01f - 2e-4f)
        << "case " << n;
  }
  EXPECT_GT(colliding, k_cases / 4);
}

}  // namespace
}  // namespace collide_random_box_test
}  // namespace atl::test
