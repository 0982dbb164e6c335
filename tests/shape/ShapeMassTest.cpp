// Mass properties of every shape against closed-form formulas (≤ 1e-4 relative), directly and
// through the decorators.

#include <gtest/gtest.h>

#include "ShapeTestUtil.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/CapsuleShape.h"
#include "atoll/shape/ConvexHullShape.h"
#include "atoll/shape/CylinderShape.h"
#include "atoll/shape/OffsetCenterOfMassShape.h"
#include "atoll/shape/RotatedTranslatedShape.h"
#include "atoll/shape/ScaledShape.h"
#include "atoll/shape/SphereShape.h"

namespace atl {
namespace shape_mass_test {
namespace {

using test::diagonal_inertia;
using test::inertia_near;
using test::near_relative;

constexpr double k_pi_d = 3.14159265358979323846;

struct Analytic {
  double mass;
  Mat44 inertia;
  double volume;
};

Analytic sphere(double r, double density) {
  const double v = 4.0 / 3.0 * k_pi_d * r * r * r;
  const double m = density * v;
  const double i = 2.0 / 5.0 * m * r * r;
  return {m, diagonal_inertia(i, i, i), v};
}

Analytic box(const Vec3& half, double density) {
  const double a = 2.0 * half.x(), b = 2.0 * half.y(), c = 2.0 * half.z();
  const double v = a * b * c;
  const double m = density * v;
  return {m,
          diagonal_inertia(m * (b * b + c * c) / 12, m * (a * a + c * c) / 12,
                           m * (a * a + b * b) / 12),
          v};
}

Analytic cylinder(double half_height, double r, double density) {
  const double height = 2.0 * half_height;
  const double v = k_pi_d * r * r * height;
  const double m = density * v;
  const double across = m * (3.0 * r * r + height * height) / 12.0;
  return {m, diagonal_inertia(across, 0.5 * m * r * r, across), v};
}

Analytic capsule(double half_height, double r, double density) {
  // Textbook form with the full cylinder height H: cylinder m_c·(H²/12 + r²/4), the two
  // hemispheres together (a sphere of mass m_s) m_s·(2r²/5 + H²/4 + 3Hr/8) across the axis;
  // m_c·r²/2 + 2/5·m_s·r² along it.
  const double height = 2.0 * half_height;
  const double m_c = density * k_pi_d * r * r * height;
  const double m_s = density * 4.0 / 3.0 * k_pi_d * r * r * r;
  const double across = m_c * (height * height / 12.0 + r * r / 4.0) +
                        m_s * (2.0 * r * r / 5.0 + height * height / 4.0 + 3.0 * height * r / 8.0);
  const double axial = m_c * r * r / 2.0 + 2.0 / 5.0 * m_s * r * r;
  return {m_c + m_s, diagonal_inertia(across, axial, across),
          k_pi_d * r * r * height + 4.0 / 3.0 * k_pi_d * r * r * r};
}

void expect_matches(const Shape& shape, const Analytic& expected) {
  const MassProperties mp = shape.mass_properties();
  EXPECT_TRUE(near_relative(mp.mass, expected.mass, 1e-4));
  EXPECT_TRUE(near_relative(shape.volume(), expected.volume, 1e-4));
  EXPECT_TRUE(inertia_near(mp.inertia, expected.inertia, 1e-4));
}

Ref<Shape> create(Result<Ref<Shape>> result) {
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message());
  return result.ok() ? result.value() : nullptr;
}

TEST(ShapeMass, SphereBoxCapsuleCylinderMatchClosedForms) {
  expect_matches(SphereShape(0.7f, 800.0f), sphere(0.7, 800.0));
  expect_matches(BoxShape(Vec3(0.5f, 1.0f, 1.5f), 0.05f, 1200.0f),
                 box(Vec3(0.5f, 1.0f, 1.5f), 1200.0));
  expect_matches(CapsuleShape(0.8f, 0.3f, 900.0f), capsule(0.8, 0.3, 900.0));
  expect_matches(CylinderShape(0.6f, 0.4f, 0.05f, 700.0f), cylinder(0.6, 0.4, 700.0));
  // Default density is water's.
  expect_matches(SphereShape(1.0f), sphere(1.0, 1000.0));
}

TEST(ShapeMass, ConvexRadiusDoesNotChangeMass) {
  // half_extent is the outer size: the rounding is carved out, mass uses the full box.
  expect_matches(BoxShape(Vec3(1, 1, 1), 0.0f), box(Vec3(1, 1, 1), 1000.0));
  expect_matches(BoxShape(Vec3(1, 1, 1), 1.0f), box(Vec3(1, 1, 1), 1000.0));
}

TEST(ShapeMass, CenterOfMassAndInnerRadiusOfPrimitives) {
  EXPECT_EQ(SphereShape(0.7f).center_of_mass(), Vec3::zero());
  EXPECT_FLOAT_EQ(SphereShape(0.7f).inner_radius(), 0.7f);
  EXPECT_FLOAT_EQ(BoxShape(Vec3(0.5f, 0.2f, 0.9f)).inner_radius(), 0.2f);
  EXPECT_FLOAT_EQ(CapsuleShape(1.0f, 0.3f).inner_radius(), 0.3f);
  EXPECT_FLOAT_EQ(CylinderShape(0.25f, 0.4f).inner_radius(), 0.25f);
}

TEST(ShapeMass, ThroughScaledShape) {
  {
    const Ref<Shape> s =
        create(ScaledShapeSettings{make_ref<SphereShape>(0.5f), Vec3(2, -2, 2)}.create());
    expect_matches(*s, sphere(1.0, 1000.0));
    EXPECT_FLOAT_EQ(s->inner_radius(), 1.0f);
  }
  {
    const Ref<Shape> s =
        create(ScaledShapeSettings{make_ref<BoxShape>(Vec3(0.5f, 1.0f, 1.5f)), Vec3(2, -0.5f, 3)}
                   .create());
    expect_matches(*s, box(Vec3(1.0f, 0.5f, 4.5f), 1000.0));
    EXPECT_FLOAT_EQ(s->inner_radius(), 0.25f);
  }
  {
    const Ref<Shape> s = create(
        ScaledShapeSettings{make_ref<CylinderShape>(0.6f, 0.4f), Vec3(-1.5f, 3.0f, 1.5f)}.create());
    expect_matches(*s, cylinder(1.8, 0.6, 1000.0));
  }
  {
    const Ref<Shape> s = create(
        ScaledShapeSettings{make_ref<CapsuleShape>(0.8f, 0.3f), Vec3::replicate(1.5f)}.create());
    expect_matches(*s, capsule(1.2, 0.45, 1000.0));
  }
}

TEST(ShapeMass, ThroughRotatedTranslatedWithParallelAxis) {
  Random random(5);
  const Ref<Shape> inner = make_ref<BoxShape>(Vec3(0.5f, 1.0f, 1.5f));
  const Analytic reference = box(Vec3(0.5f, 1.0f, 1.5f), 1000.0);
  for (int i = 0; i < 20; ++i) {
    const Quat q = test::random_rotation(random);
    const Vec3 t(random.uniform(-3, 3), random.uniform(-3, 3), random.uniform(-3, 3));
    const Ref<Shape> shape = create(RotatedTranslatedShapeSettings{inner, t, q}.create());
    EXPECT_TRUE(shape->center_of_mass().is_close(t, 1e-10f));

    // About the centre of mass: R·I·Rᵀ.
    const Mat44 r = Mat44::rotation(q);
    const Mat44 rotated = r.multiply3x3(reference.inertia).multiply3x3(r.transposed3x3());
    MassProperties mp = shape->mass_properties();
    EXPECT_TRUE(near_relative(mp.mass, reference.mass, 1e-5));
    EXPECT_TRUE(inertia_near(mp.inertia, rotated, 1e-4));

    // About the shape's origin: add m·(|t|²·1 − t·tᵀ), written out independently here.
    mp.translate(shape->center_of_mass());
    Mat44 about_origin = rotated;
    const double m = reference.mass;
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        about_origin.set(a, b,
                         static_cast<float>(rotated(a, b) +
                                            m * ((a == b ? t.length_sq() : 0.0f) - t[a] * t[b])));
    EXPECT_TRUE(inertia_near(mp.inertia, about_origin, 1e-4));
  }
}

TEST(ShapeMass, ScaledRotatedShapeMatchesHullOfTransformedCorners) {
  // Non-uniform scale outside a rotation: valid only when the rotation maps axes onto axes
  // (otherwise it would shear). The decorators must agree with the hull of the transformed
  // corners.
  const Vec3 half(0.3f, 0.6f, 0.9f);
  const Quat q =
      Quat::rotation(Vec3(0, 0, 1), k_half_pi) * Quat::rotation(Vec3(1, 0, 0), k_half_pi);
  const Vec3 t(0.5f, -0.25f, 1.0f);
  const Vec3 scale(2.0f, 1.0f, 0.5f);
  const Ref<Shape> rt = make_ref<RotatedTranslatedShape>(make_ref<BoxShape>(half, 0.0f), t, q);
  const ScaledShape shape(rt, scale);
  std::vector<Vec3> points;
  for (const Vec3& c : test::box_corners(half)) points.push_back((q * c + t) * scale);
  const Ref<ConvexHullShape> hull = test::make_hull(points);
  ASSERT_NE(hull, nullptr);
  EXPECT_TRUE(shape.center_of_mass().is_close(hull->center_of_mass(), 1e-10f));
  EXPECT_TRUE(near_relative(shape.volume(), hull->volume(), 1e-5));
  EXPECT_TRUE(near_relative(shape.mass_properties().mass, hull->mass_properties().mass, 1e-5));
  EXPECT_TRUE(inertia_near(shape.mass_properties().inertia, hull->mass_properties().inertia));
}

TEST(ShapeMass, HullOfCubePointsEqualsBox) {
  // Corners plus points on faces, edges and inside: only the corners survive.
  const Vec3 half(0.5f, 0.75f, 1.25f);
  std::vector<Vec3> points;
  for (int x = -2; x <= 2; ++x)
    for (int y = -2; y <= 2; ++y)
      for (int z = -2; z <= 2; ++z) points.push_back(half * Vec3(x * 0.5f, y * 0.5f, z * 0.5f));
  const Ref<ConvexHullShape> hull = test::make_hull(points);
  ASSERT_NE(hull, nullptr);
  EXPECT_EQ(hull->vertices().size(), 8u);
  EXPECT_EQ(hull->faces().size(), 6u);
  expect_matches(*hull, box(half, 1000.0));
  EXPECT_TRUE(hull->center_of_mass().is_close(Vec3::zero(), 1e-12f));
  EXPECT_NEAR(hull->inner_radius(), 0.5f, 1e-6f);
}

TEST(ShapeMass, HullOfMovedRotatedBoxHasMovedCenterAndRotatedInertia) {
  const Vec3 half(0.4f, 0.7f, 1.1f);
  const Quat q = Quat::rotation(Vec3(-2, 1, 0.5f).normalized(), 2.1f);
  const Vec3 t(3.0f, -1.0f, 2.0f);
  std::vector<Vec3> points;
  for (const Vec3& c : test::box_corners(half)) points.push_back(q * c + t);
  const Ref<ConvexHullShape> hull = test::make_hull(points);
  ASSERT_NE(hull, nullptr);
  const Analytic reference = box(half, 1000.0);
  const Mat44 r = Mat44::rotation(q);
  EXPECT_TRUE(hull->center_of_mass().is_close(t, 1e-10f));
  expect_matches(*hull,
                 {reference.mass, r.multiply3x3(reference.inertia).multiply3x3(r.transposed3x3()),
                  reference.volume});
}

TEST(ShapeMass, HullOfTetrahedronMatchesClosedForm) {
  // Unit right tetrahedron (0, e_x, e_y, e_z): V = 1/6, centroid (1/4, 1/4, 1/4); about the
  // origin ∫x² dV = 1/60 and ∫x·y dV = 1/120.
  const Ref<ConvexHullShape> hull =
      test::make_hull({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)});
  ASSERT_NE(hull, nullptr);
  const double rho = 1000.0, v = 1.0 / 6.0, m = rho * v;
  double cov[3][3];
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) cov[a][b] = rho * (a == b ? 1.0 / 60.0 : 1.0 / 120.0) - m / 16.0;
  const double tr = cov[0][0] + cov[1][1] + cov[2][2];
  Mat44 expected = Mat44::zero();
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b)
      expected.set(a, b, static_cast<float>((a == b ? tr : 0.0) - cov[a][b]));
  expect_matches(*hull, {m, expected, v});
  EXPECT_TRUE(hull->center_of_mass().is_close(Vec3::replicate(0.25f), 1e-12f));
}

TEST(ShapeMass, OffsetCenterOfMassMovesTheCenterNotTheGeometry) {
  const Ref<Shape> inner = make_ref<BoxShape>(Vec3(1, 0.5f, 2));
  const Ref<Shape> shape =
      create(OffsetCenterOfMassShapeSettings{inner, Vec3(0, -0.4f, 0.1f)}.create());
  EXPECT_EQ(shape->center_of_mass(), Vec3(0, -0.4f, 0.1f));
  EXPECT_EQ(shape->mass_properties().mass, inner->mass_properties().mass);
  EXPECT_EQ(shape->volume(), inner->volume());
  EXPECT_EQ(shape->local_bounds(), inner->local_bounds());
  EXPECT_EQ(shape->inner_radius(), inner->inner_radius());
  // Through a RotatedTranslatedShape the offset centre moves with the inner shape.
  const RotatedTranslatedShape placed(shape, Vec3(1, 2, 3), Quat::rotation(Vec3::axis_x(), k_pi));
  EXPECT_TRUE(placed.center_of_mass().is_close(Vec3(1, 2.4f, 2.9f), 1e-10f));
}

// Regression: an offset centre of mass kept the inner shape's inertia. Symptom: a 1 × 2 × 3 m
// box (6000 kg) with its centre of mass moved 5 m along X had an inverse inertia about Y of
// 2.0e-4 /(kg·m²) instead of 6.45e-6, so an angular impulse spun the body 31× too fast. Cause:
// OffsetCenterOfMassShape returned the inner shape's inertia, which is about the inner centre
// of mass, while the body turns about the moved one. Fix: the inertia is moved to the new
// centre by the parallel axis theorem, I + m·(|d|²·1 − d·dᵀ) (as Jolt). Reading now: 6.4516e-6
// about Y, and the off-diagonal terms of an oblique offset.
TEST(ShapeMass, OffsetCenterOfMassAddsTheParallelAxisTerm) {
  const Ref<Shape> inner = make_ref<BoxShape>(Vec3(0.5f, 1, 1.5f));
  const Ref<Shape> shape = create(OffsetCenterOfMassShapeSettings{inner, Vec3(5, 0, 0)}.create());
  const MassProperties mp = shape->mass_properties();
  EXPECT_TRUE(near_relative(mp.mass, 6000.0, 1e-6));
  // About Y: m·(1² + 3²)/12 + m·5² = 5000 + 150000.
  EXPECT_TRUE(near_relative(1.0 / mp.inertia(1, 1), 1.0 / 155000.0, 1e-5));
  // About X the offset lies on the axis: unchanged.
  EXPECT_TRUE(near_relative(mp.inertia(0, 0), 6000.0 * (4.0 + 9.0) / 12.0, 1e-5));
  EXPECT_TRUE(near_relative(mp.inertia(2, 2), 6000.0 * (1.0 + 4.0) / 12.0 + 150000.0, 1e-5));

  // An oblique offset d adds m·(|d|²·1 − d·dᵀ), off-diagonal terms included.
  const Vec3 d(1, -2, 0.5f);
  const Ref<Shape> oblique = create(OffsetCenterOfMassShapeSettings{inner, d}.create());
  const Analytic base = box(Vec3(0.5f, 1, 1.5f), 1000.0);
  Mat44 expected = base.inertia;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      expected.set(
          r, c,
          static_cast<float>(expected(r, c) + base.mass * ((r == c ? 5.25 : 0.0) - d[r] * d[c])));
  expect_matches(*oblique, {base.mass, expected, base.volume});
}

// Regression (issue 7 item 11): flat convex hulls were refused at creation ("all 4 points are
// coplanar"). Fix and rule: coplanar points build a plate, the polygon inset by the convex
// radius r grown back by r (outline the polygon, thickness 2r); its mass and inertia are those of
// the polygon extruded by ±r (a 2 × 4 m rectangle with r = 0.05 weighs as a 2 × 0.1 × 4 m box), the
// volume area · 2r; r = 0 gives zero volume and mass. Reading now: the box formula to 1e-4, tilted
// and moved as the points are.
TEST(ShapeMass, FlatHullIsAPlateOfThicknessTwiceTheConvexRadius) {
  const Quat q = Quat::rotation(Vec3(1, -2, 0.5f).normalized(), 0.9f);
  const Vec3 t(1, 2, 3);
  ConvexHullShapeSettings settings;
  for (const Vec3& c : {Vec3(-1, 0, -2), Vec3(1, 0, -2), Vec3(1, 0, 2), Vec3(-1, 0, 2),
                        Vec3(0.2f, 0, 0.1f), Vec3(1, 0, 0)})
    settings.points.push_back(q * c + t);
  settings.max_convex_radius = 0.05f;
  const Ref<Shape> plate = create(settings.create());
  const auto& hull = static_cast<const ConvexHullShape&>(*plate);
  EXPECT_TRUE(hull.flat());
  EXPECT_EQ(hull.vertices().size(), 4u);
  EXPECT_EQ(hull.convex_radius(), 0.05f);
  EXPECT_EQ(hull.inner_radius(), 0.05f);
  MassProperties expected = MassProperties::box(Vec3(2, 0.1f, 4), 1000.0f);
  expected.rotate(Mat44::rotation(q));
  expect_matches(*plate, {expected.mass, expected.inertia, 0.8});
  EXPECT_TRUE(plate->center_of_mass().is_close(t, 1e-10f));
  // The bounds hold the plate (the core corners grown by r, the edge midpoints) and stay
  // within the turned 2 × 0.1 × 4 m box's bounds.
  EXPECT_TRUE(plate->local_bounds().contains(q * Vec3(0.95f, 0.05f, 1.95f) + t));
  EXPECT_TRUE(plate->local_bounds().contains(q * Vec3(1, 0, 0) + t));
  EXPECT_TRUE(plate->local_bounds().contains(q * Vec3(0, 0, -2) + t));
  const AABox box_bounds =
      BoxShape(Vec3(1, 0.05f, 2)).world_bounds(Mat44::rotation_translation(q, t));
  EXPECT_TRUE(box_bounds.expanded(1e-5f).contains(plate->local_bounds()));

  settings.max_convex_radius = 0.0f;
  const Ref<Shape> flat = create(settings.create());
  EXPECT_EQ(flat->volume(), 0.0f);
  EXPECT_EQ(flat->mass_properties().mass, 0.0f);
  EXPECT_TRUE(flat->center_of_mass().is_close(t, 1e-10f));
}

}  // namespace
}  // namespace shape_mass_test
}  // namespace atl
