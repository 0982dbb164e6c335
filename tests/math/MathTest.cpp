#include <gtest/gtest.h>

#include <cmath>

#include "atoll/core/Random.h"
#include "atoll/math/Mat44.h"

namespace atl {
namespace math_test {
namespace {

TEST(Trig, SinCosTanAgreeWithLibm) {
  for (int i = -200000; i <= 200000; ++i) {
    const float x = static_cast<float>(i) * 0.005f;  // [-1000, 1000]
    EXPECT_NEAR(atl::sin(x), std::sin(static_cast<double>(x)), 1e-6) << x;
    EXPECT_NEAR(atl::cos(x), std::cos(static_cast<double>(x)), 1e-6) << x;
  }
  for (int i = -1000; i <= 1000; ++i) {
    const float x = static_cast<float>(i) * 0.0015f;  // [-1.5, 1.5], away from the poles
    const double expected = std::tan(static_cast<double>(x));
    EXPECT_NEAR(atl::tan(x), expected, 1e-6 * std::max(1.0, std::fabs(expected))) << x;
  }
}

TEST(Trig, InverseFunctionsAgreeWithLibm) {
  for (int i = -10000; i <= 10000; ++i) {
    const float x = static_cast<float>(i) * 1e-4f;
    EXPECT_NEAR(atl::asin(x), std::asin(static_cast<double>(x)), 1e-6) << x;
    EXPECT_NEAR(atl::acos(x), std::acos(static_cast<double>(x)), 1e-6) << x;
  }
  for (int i = -5000; i <= 5000; ++i) {
    const float x = static_cast<float>(i) * 0.01f;
    EXPECT_NEAR(atl::atan(x), std::atan(static_cast<double>(x)), 1e-6) << x;
  }
  Random random(3);
  for (int i = 0; i < 20000; ++i) {
    const float y = random.uniform(-10, 10), x = random.uniform(-10, 10);
    EXPECT_NEAR(atl::atan2(y, x), std::atan2(static_cast<double>(y), static_cast<double>(x)), 1e-6)
        << y << ", " << x;
  }
  EXPECT_EQ(atl::atan2(0.0f, 1.0f), 0.0f);
  EXPECT_FLOAT_EQ(atl::atan2(1.0f, 0.0f), k_half_pi);
  EXPECT_FLOAT_EQ(atl::atan2(0.0f, -1.0f), k_pi);
  EXPECT_EQ(atl::asin(2.0f), atl::asin(1.0f));  // clamped, not NaN
}

TEST(Trig, ExactIdentities) {
  EXPECT_EQ(atl::sin(0.0f), 0.0f);
  EXPECT_EQ(atl::cos(0.0f), 1.0f);
  EXPECT_EQ(atl::sin(-0.3f), -atl::sin(0.3f));  // odd function, bit for bit
  EXPECT_EQ(atl::cos(-0.3f), atl::cos(0.3f));   // even function, bit for bit
  float s, c;
  sin_cos(1.234f, s, c);
  EXPECT_EQ(s, atl::sin(1.234f));
  EXPECT_EQ(c, atl::cos(1.234f));
}

TEST(Scalar, Helpers) {
  EXPECT_EQ(square(3.0f), 9.0f);
  EXPECT_EQ(clamp(5, 0, 3), 3);
  EXPECT_EQ(sign(-2.0f), -1.0f);
  EXPECT_EQ(sign(0.0f), 1.0f);
  EXPECT_NEAR(center_angle_around_zero(2.5f * k_pi), 0.5f * k_pi, 1e-5f);
  EXPECT_NEAR(center_angle_around_zero(-0.5f), -0.5f, 0.0f);
}

TEST(Vec3, ArithmeticAndProducts) {
  const Vec3 a(1, 2, 3), b(-4, 5, 0.5f);
  EXPECT_EQ(a + b, Vec3(-3, 7, 3.5f));
  EXPECT_EQ(a - b, Vec3(5, -3, 2.5f));
  EXPECT_EQ(a * 2.0f, Vec3(2, 4, 6));
  EXPECT_EQ(a.dot(b), 1 * -4 + 2 * 5 + 3 * 0.5f);
  EXPECT_EQ(a.cross(b), Vec3(2 * 0.5f - 3 * 5, 3 * -4 - 1 * 0.5f, 1 * 5 - 2 * -4));
  EXPECT_EQ(Vec3::axis_x().cross(Vec3::axis_y()), Vec3::axis_z());
  EXPECT_EQ(Vec3::min(a, b), Vec3(-4, 2, 0.5f));
  EXPECT_EQ(Vec3::max(a, b), Vec3(1, 5, 3));
  EXPECT_EQ((-a).abs(), a);
  EXPECT_NEAR(a.normalized().length(), 1.0f, 1e-6f);
  EXPECT_EQ(Vec3().normalized_or(Vec3::axis_y()), Vec3::axis_y());
  EXPECT_EQ(a.max_component_index(), 2);
  EXPECT_EQ(b.min_component_index(), 0);
  EXPECT_FALSE(Vec3(1, NAN, 0).is_finite());
  for (const Vec3& n : {Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1), a.normalized()}) {
    const Vec3 p = n.normalized_perpendicular();
    EXPECT_NEAR(p.dot(n), 0.0f, 1e-6f);
    EXPECT_NEAR(p.length(), 1.0f, 1e-6f);
  }
}

TEST(Quat, RotationsCompose) {
  const Quat qz = Quat::rotation(Vec3::axis_z(), k_half_pi);
  EXPECT_TRUE((qz * Vec3::axis_x()).is_close(Vec3::axis_y(), 1e-12f));
  const Quat qx = Quat::rotation(Vec3::axis_x(), k_half_pi);
  // (qz * qx) applies qx first: Y -> Z, then qz leaves Z.
  EXPECT_TRUE(((qz * qx) * Vec3::axis_y()).is_close(Vec3::axis_z(), 1e-12f));
  EXPECT_TRUE((qz.conjugated() * (qz * Vec3(1, 2, 3))).is_close(Vec3(1, 2, 3), 1e-10f));
  Vec3 axis;
  float angle;
  Quat::rotation(Vec3(1, 2, 2) / 3.0f, 0.7f).to_axis_angle(axis, angle);
  EXPECT_NEAR(angle, 0.7f, 1e-5f);
  EXPECT_TRUE(axis.is_close(Vec3(1, 2, 2) / 3.0f, 1e-10f));
  const Quat q = Quat::from_to(Vec3::axis_x(), Vec3(0, 0.6f, 0.8f));
  EXPECT_TRUE((q * Vec3::axis_x()).is_close(Vec3(0, 0.6f, 0.8f), 1e-10f));
  const Quat opposite = Quat::from_to(Vec3::axis_x(), -Vec3::axis_x());
  EXPECT_TRUE((opposite * Vec3::axis_x()).is_close(-Vec3::axis_x(), 1e-10f));
}

TEST(Quat, EulerSwingTwistSlerp) {
  const Vec3 angles(0.3f, -0.2f, 1.1f);
  const Quat q = Quat::from_euler(angles);
  EXPECT_TRUE(q.to_euler().is_close(angles, 1e-10f));
  Quat swing, twist;
  q.swing_twist(swing, twist);
  EXPECT_TRUE((swing * twist).is_close(q, 1e-10f));
  EXPECT_NEAR(twist.y(), 0.0f, 1e-7f);
  EXPECT_NEAR(swing.x(), 0.0f, 1e-7f);
  const Quat a = Quat::identity(), b = Quat::rotation(Vec3::axis_y(), 1.0f);
  const Quat half = a.slerp(b, 0.5f);
  EXPECT_TRUE(half.is_close(Quat::rotation(Vec3::axis_y(), 0.5f), 1e-10f));
}

TEST(Mat44, TransformsAndInverses) {
  const Quat q = Quat::rotation(Vec3(0, 0.6f, 0.8f), 0.9f);
  const Vec3 t(1, -2, 3);
  const Mat44 m = Mat44::rotation_translation(q, t);
  const Vec3 p(0.5f, 0.25f, -1);
  EXPECT_TRUE((m * p).is_close(q * p + t, 1e-10f));
  EXPECT_TRUE(m.quaternion().is_close(q, 1e-10f) || m.quaternion().is_close(-q, 1e-10f));
  EXPECT_TRUE((m.inversed_rotation_translation() * (m * p)).is_close(p, 1e-10f));
  EXPECT_TRUE((m.inversed() * m).is_close(Mat44::identity(), 1e-10f));
  Mat44 inv3;
  const Mat44 s = Mat44::scale(Vec3(2, 4, 8));
  ASSERT_TRUE(s.try_inverse3x3(inv3));
  EXPECT_TRUE(inv3.is_close(Mat44::scale(Vec3(0.5f, 0.25f, 0.125f))));
  EXPECT_FALSE(Mat44::scale(Vec3(1, 0, 1)).try_inverse3x3(inv3));
  EXPECT_NEAR(s.determinant3x3(), 64.0f, 0.0f);
  const Vec3 a(1, 2, 3), b(3, -1, 2);
  EXPECT_TRUE(Mat44::cross_product(a).multiply3x3(b).is_close(a.cross(b)));
  EXPECT_TRUE(m.transposed().transposed() == m);
  EXPECT_TRUE(m.multiply3x3_transposed(m.multiply3x3(b)).is_close(b, 1e-10f));
}

// transposed3x3 swaps the upper 3×3 exactly and leaves the identity's last row and column,
// whatever the matrix holds there.
TEST(Mat44, Transposed3x3IsTheUpperBlocksTransposeAndTheIdentityOutside) {
  Mat44 m;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) m.set(r, c, static_cast<float>(1 + 4 * r + c) * 0.37f);
  const Mat44 t = m.transposed3x3();
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      const float expected = r < 3 && c < 3 ? m(c, r) : (r == c ? 1.0f : 0.0f);
      EXPECT_EQ(t(r, c), expected) << "row " << r << " column " << c;
    }
}

TEST(Mat44, QuaternionRoundTripForManyRotations) {
  Random random(11);
  for (int i = 0; i < 1000; ++i) {
    const Quat q = Quat(random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1),
                        random.uniform(-1, 1))
                       .normalized();
    const Quat back = Mat44::rotation(q).quaternion();
    EXPECT_TRUE(back.is_close(q, 1e-10f) || back.is_close(-q, 1e-10f)) << q << " " << back;
  }
}

}  // namespace
}  // namespace math_test
}  // namespace atl
