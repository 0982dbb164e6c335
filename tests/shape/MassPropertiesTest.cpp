#include "atoll/shape/MassProperties.h"

#include <gtest/gtest.h>

#include "ShapeTestUtil.h"

namespace atl {
namespace mass_properties_test {
namespace {

using test::diagonal_inertia;
using test::inertia_near;
using test::near_relative;

TEST(MassProperties, BoxMatchesClosedForm) {
  const MassProperties mp = MassProperties::box(Vec3(1, 2, 3), 500.0f);
  const double m = 500.0 * 6.0;
  EXPECT_FLOAT_EQ(mp.mass, static_cast<float>(m));
  EXPECT_TRUE(inertia_near(mp.inertia, diagonal_inertia(m * 13 / 12, m * 10 / 12, m * 5 / 12)));
}

TEST(MassProperties, ScaleToMassScalesInertiaLinearly) {
  MassProperties mp = MassProperties::box(Vec3(1, 2, 3), 1.0f);  // mass 6
  const Mat44 before = mp.inertia;
  mp.scale_to_mass(3.0f);
  EXPECT_FLOAT_EQ(mp.mass, 3.0f);
  EXPECT_TRUE(inertia_near(mp.inertia, before * 0.5f, 1e-6));
}

TEST(MassProperties, TranslateAddsParallelAxisTerm) {
  MassProperties mp = MassProperties::box(Vec3(1, 1, 1), 2.0f);  // mass 2, I = 1/3 on diagonal
  mp.translate(Vec3(1, 2, 3));
  // I + m·(|d|²·1 − d·dᵀ) with |d|² = 14.
  Mat44 expected = Mat44::zero();
  const float d[3] = {1, 2, 3};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      expected.set(r, c, (r == c ? 1.0f / 3.0f + 2.0f * 14.0f : 0.0f) - 2.0f * d[r] * d[c]);
  EXPECT_TRUE(inertia_near(mp.inertia, expected, 1e-6));
  // The parallel axis term is even in the offset.
  MassProperties other = MassProperties::box(Vec3(1, 1, 1), 2.0f);
  other.translate(Vec3(-1, -2, -3));
  EXPECT_TRUE(inertia_near(other.inertia, expected, 1e-6));
}

TEST(MassProperties, RotateQuarterTurnSwapsAxes) {
  MassProperties mp = MassProperties::box(Vec3(1, 2, 3), 1.0f);
  const Mat44 original = mp.inertia;
  mp.rotate(Mat44::rotation(Quat::rotation(Vec3::axis_z(), k_half_pi)));
  EXPECT_TRUE(inertia_near(mp.inertia,
                           diagonal_inertia(original(1, 1), original(0, 0), original(2, 2)), 1e-6));
}

TEST(MassProperties, RotateThenDecomposeRecoversPrincipalFrame) {
  Random random(11);
  for (int i = 0; i < 200; ++i) {
    const Vec3 size(random.uniform(0.1f, 3), random.uniform(0.1f, 3), random.uniform(0.1f, 3));
    MassProperties mp = MassProperties::box(size, random.uniform(1, 2000));
    const Mat44 diagonal = mp.inertia;
    const Mat44 rotation = Mat44::rotation(test::random_rotation(random));
    mp.rotate(rotation);

    Mat44 axes;
    Vec3 moments;
    ASSERT_TRUE(mp.decompose_principal_moments(axes, moments));
    // Sorted largest first, and the same set as the box's moments.
    EXPECT_GE(moments.x(), moments.y());
    EXPECT_GE(moments.y(), moments.z());
    const float box_moments[3] = {diagonal(0, 0), diagonal(1, 1), diagonal(2, 2)};
    float sorted[3] = {box_moments[0], box_moments[1], box_moments[2]};
    std::sort(sorted, sorted + 3, [](float a, float b) { return a > b; });
    for (int k = 0; k < 3; ++k) EXPECT_TRUE(near_relative(moments[k], sorted[k], 1e-4));
    // A proper rotation (right-handed), orthonormal, that reproduces the tensor.
    EXPECT_NEAR(axes.determinant3x3(), 1.0f, 1e-5f);
    EXPECT_TRUE(axes.multiply3x3(axes.transposed3x3()).is_close(Mat44::identity(), 1e-10f));
    Mat44 d = Mat44::zero();
    for (int k = 0; k < 3; ++k) d.set(k, k, moments[k]);
    const Mat44 rebuilt = axes.multiply3x3(d).multiply3x3(axes.transposed3x3());
    EXPECT_TRUE(inertia_near(rebuilt, mp.inertia, 1e-5));
  }
}

TEST(MassProperties, DecomposeIsDeterministicAndHandlesDiagonalInput) {
  MassProperties mp = MassProperties::box(Vec3(1, 2, 3), 1.0f);
  Mat44 axes;
  Vec3 moments;
  ASSERT_TRUE(mp.decompose_principal_moments(axes, moments));
  // Moments (13, 10, 5)/2 belong to x, y, z: the axes are the identity permutation.
  EXPECT_EQ(moments, Vec3(6.5f, 5.0f, 2.5f));
  EXPECT_TRUE(axes.is_close(Mat44::identity()));
  Mat44 axes2;
  Vec3 moments2;
  mp.rotate(Mat44::rotation(Quat::rotation(Vec3(0.6f, 0.8f, 0.0f), 0.7f)));
  ASSERT_TRUE(mp.decompose_principal_moments(axes, moments));
  ASSERT_TRUE(mp.decompose_principal_moments(axes2, moments2));
  EXPECT_EQ(axes, axes2);
  EXPECT_EQ(moments, moments2);
}

TEST(MassProperties, DecomposeRejectsBadTensors) {
  Mat44 axes;
  Vec3 moments;
  MassProperties nan_tensor = MassProperties::box(Vec3(1, 1, 1), 1.0f);
  nan_tensor.inertia.set(1, 2, std::numeric_limits<float>::quiet_NaN());
  EXPECT_FALSE(nan_tensor.decompose_principal_moments(axes, moments));
  MassProperties asymmetric = MassProperties::box(Vec3(1, 1, 1), 1.0f);
  asymmetric.inertia.set(0, 1, 0.1f);
  EXPECT_FALSE(asymmetric.decompose_principal_moments(axes, moments));
}

TEST(MassProperties, ScaleMatchesBiggerBox) {
  MassProperties mp = MassProperties::box(Vec3(1, 2, 3), 100.0f);
  mp.scale(Vec3(2.0f, -0.5f, 3.0f));
  const MassProperties expected = MassProperties::box(Vec3(2, 1, 9), 100.0f);
  EXPECT_TRUE(near_relative(mp.mass, expected.mass, 1e-6));
  EXPECT_TRUE(inertia_near(mp.inertia, expected.inertia, 1e-6));
}

TEST(MassProperties, ScaleOfRotatedBoxMatchesHullOfTransformedCorners) {
  // A rotated box stretched along world axes is a parallelepiped: compare with the hull of its
  // corners, whose inertia comes from an independent tetrahedral integration.
  const Vec3 half(0.5f, 1.0f, 1.5f);
  const Quat q = Quat::rotation(Vec3(1, 2, 3).normalized(), 0.9f);
  const Vec3 scale(1.5f, 0.5f, -2.0f);
  MassProperties mp = MassProperties::box(2.0f * half, 1000.0f);
  mp.rotate(Mat44::rotation(q));
  mp.scale(scale);

  std::vector<Vec3> points;
  for (const Vec3& c : test::box_corners(half)) points.push_back((q * c) * scale);
  const Ref<ConvexHullShape> hull = test::make_hull(points);
  ASSERT_NE(hull, nullptr);
  const MassProperties reference = hull->mass_properties();
  EXPECT_TRUE(near_relative(mp.mass, reference.mass, 1e-5));
  EXPECT_TRUE(inertia_near(mp.inertia, reference.inertia, 1e-4));
}

}  // namespace
}  // namespace mass_properties_test
}  // namespace atl
