// Ray casts, point containment, surface normals and bounds of every shape, directly and through
// decorators (including non-uniform scale), against references that do not use the shape code:
// closed-form inside tests, marching plus bisection along rays, and support-function bounds.

#include <gtest/gtest.h>

#include <functional>
#include <string>

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
namespace shape_query_test {
namespace {

using Inside = std::function<bool(const Vec3&)>;

struct QueryCase {
  std::string name;
  Ref<Shape> shape;
  /// Closed-form inside test of the same solid.
  Inside inside;
};

Inside sphere_inside(float r) {
  return [r](const Vec3& p) { return p.length_sq() <= r * r; };
}
Inside box_inside(const Vec3& h) {
  return [h](const Vec3& p) {
    return std::fabs(p.x()) <= h.x() && std::fabs(p.y()) <= h.y() && std::fabs(p.z()) <= h.z();
  };
}
Inside capsule_inside(float h, float r) {
  return [h, r](const Vec3& p) {
    const float y = std::fabs(p.y()) > h ? std::fabs(p.y()) - h : 0.0f;
    return p.x() * p.x() + y * y + p.z() * p.z() <= r * r;
  };
}
Inside cylinder_inside(float h, float r) {
  return [h, r](const Vec3& p) {
    return std::fabs(p.y()) <= h && p.x() * p.x() + p.z() * p.z() <= r * r;
  };
}
Inside transformed(const Inside& inner, const Vec3& position, const Quat& rotation) {
  return [=](const Vec3& p) { return inner(rotation.conjugated() * (p - position)); };
}
Inside scaled(const Inside& inner, const Vec3& scale) {
  return [=](const Vec3& p) { return inner(p / scale); };
}

std::vector<Vec3> hull_points() {
  Random random(23);
  std::vector<Vec3> points;
  for (int i = 0; i < 30; ++i)
    points.emplace_back(random.uniform(-1, 1), random.uniform(-0.7f, 0.7f),
                        random.uniform(-0.5f, 0.5f));
  return points;
}

std::vector<QueryCase> make_cases() {
  std::vector<QueryCase> cases;
  cases.push_back({"sphere", make_ref<SphereShape>(0.6f), sphere_inside(0.6f)});
  cases.push_back(
      {"box", make_ref<BoxShape>(Vec3(0.5f, 1.0f, 1.5f), 0.1f), box_inside(Vec3(0.5f, 1, 1.5f))});
  cases.push_back({"capsule", make_ref<CapsuleShape>(0.8f, 0.3f), capsule_inside(0.8f, 0.3f)});
  cases.push_back(
      {"cylinder", make_ref<CylinderShape>(0.6f, 0.4f, 0.1f), cylinder_inside(0.6f, 0.4f)});
  // The reference for the hull is the builder's own plane test (geometry code).
  const std::vector<Vec3> points = hull_points();
  const ConvexHull reference = ConvexHullBuilder::build(points).value();
  const Inside hull_inside = [reference](const Vec3& p) { return reference.contains(p, 0.0f); };
  cases.push_back({"hull", test::make_hull(points), hull_inside});

  const Quat q = Quat::rotation(Vec3(1, -2, 0.5f).normalized(), 1.1f);
  const Vec3 t(0.3f, -0.7f, 1.2f);
  cases.push_back(
      {"rotated translated box",
       make_ref<RotatedTranslatedShape>(make_ref<BoxShape>(Vec3(0.5f, 1.0f, 1.5f)), t, q),
       transformed(box_inside(Vec3(0.5f, 1, 1.5f)), t, q)});
  const Vec3 s(2.0f, -0.5f, 1.5f);
  cases.push_back({"scaled box", make_ref<ScaledShape>(make_ref<BoxShape>(Vec3(0.5f, 1, 1.5f)), s),
                   scaled(box_inside(Vec3(0.5f, 1, 1.5f)), s)});
  cases.push_back({"scaled cylinder",
                   make_ref<ScaledShape>(make_ref<CylinderShape>(0.6f, 0.4f), Vec3(-2, 0.5f, 2)),
                   scaled(cylinder_inside(0.6f, 0.4f), Vec3(-2, 0.5f, 2))});
  cases.push_back({"scaled hull", make_ref<ScaledShape>(test::make_hull(points), Vec3(1, -2, 0.5f)),
                   scaled(hull_inside, Vec3(1, -2, 0.5f))});
  // A capsule laid along X by a quarter turn, then mirrored and scaled uniformly (a capsule
  // takes no other scale).
  const Quat quarter = Quat::rotation(Vec3::axis_z(), k_half_pi);
  cases.push_back(
      {"scaled rotated capsule",
       make_ref<ScaledShape>(
           make_ref<RotatedTranslatedShape>(make_ref<CapsuleShape>(0.8f, 0.3f), t, quarter),
           Vec3(1.5f, 1.5f, -1.5f)),
       scaled(transformed(capsule_inside(0.8f, 0.3f), t, quarter), Vec3(1.5f, 1.5f, -1.5f))});
  // A box turned by quarter turns takes a non-uniform scale (it stays axis-aligned).
  cases.push_back(
      {"scaled rotated box",
       make_ref<ScaledShape>(
           make_ref<RotatedTranslatedShape>(make_ref<BoxShape>(Vec3(0.5f, 1, 1.5f)), t, quarter),
           Vec3(0.5f, 2.0f, -1.0f)),
       scaled(transformed(box_inside(Vec3(0.5f, 1, 1.5f)), t, quarter), Vec3(0.5f, 2, -1))});
  cases.push_back({"offset center of mass sphere",
                   make_ref<OffsetCenterOfMassShape>(make_ref<SphereShape>(0.6f), Vec3(0, -1, 0)),
                   sphere_inside(0.6f)});
  return cases;
}

Vec3 random_point(Random& random, const AABox& box) {
  return box.min + box.size() * Vec3(random.next_float(), random.next_float(), random.next_float());
}

// First fraction along the ray at which `inside` holds, given that it holds at `t_inside`: the
// solid is convex, so the inside part of the line is one interval and marching finds its start.
float reference_fraction(const Inside& inside, const Vec3& origin, const Vec3& direction,
                         float t_inside) {
  constexpr int k_steps = 2000;
  float lo = 0.0f, hi = t_inside;
  for (int i = 0; i <= k_steps; ++i) {
    const float t = t_inside * static_cast<float>(i) / k_steps;
    if (inside(origin + direction * t)) {
      hi = t;
      break;
    }
    lo = t;
  }
  if (hi == 0.0f) return 0.0f;
  for (int i = 0; i < 40; ++i) {
    const float mid = 0.5f * (lo + hi);
    (inside(origin + direction * mid) ? hi : lo) = mid;
  }
  return hi;
}

TEST(ShapeQuery, RayCastsMatchMarchingReference) {
  Random random(29);
  const SubShapeIDCreator creator = SubShapeIDCreator().push(5, 4);
  for (const QueryCase& c : make_cases()) {
    SCOPED_TRACE(c.name);
    ASSERT_NE(c.shape, nullptr);
    const AABox bounds = c.shape->local_bounds();
    const float size = bounds.extent().length();
    int hits = 0;
    for (int i = 0; i < 400; ++i) {
      Vec3 target = random_point(random, bounds);
      if (!c.inside(target)) continue;
      const Vec3 origin = bounds.center() + test::random_unit_vector(random) * (2.0f * size);
      const float t_target = 1.0f / random.uniform(1.2f, 3.0f);
      const Vec3 direction = (target - origin) / t_target;
      const float expected = reference_fraction(c.inside, origin, direction, t_target);
      RayCastResult hit;
      ASSERT_TRUE(c.shape->cast_ray({origin, direction}, creator, hit));
      EXPECT_NEAR(hit.fraction, expected, 2e-5f) << origin << " " << direction;
      EXPECT_EQ(hit.sub_shape_id, creator.id());  // decorators pass the ID through
      ++hits;

      // A closer hit already recorded wins.
      RayCastResult closer;
      closer.fraction = 0.5f * expected;
      closer.sub_shape_id = SubShapeID(7);
      EXPECT_FALSE(c.shape->cast_ray({origin, direction}, creator, closer));
      EXPECT_EQ(closer.fraction, 0.5f * expected);
      EXPECT_EQ(closer.sub_shape_id, SubShapeID(7));

      // Too short to reach the surface.
      RayCastResult short_hit;
      EXPECT_FALSE(c.shape->cast_ray({origin, direction * (0.99f * expected)}, creator, short_hit));

      // Starting inside hits at 0.
      RayCastResult inside_hit;
      EXPECT_TRUE(c.shape->cast_ray({target, direction}, creator, inside_hit));
      EXPECT_EQ(inside_hit.fraction, 0.0f);

      // Pointing away from the bounding sphere: miss.
      const Vec3 away = (origin - bounds.center()).normalized() * size;
      RayCastResult miss;
      EXPECT_FALSE(c.shape->cast_ray({origin, away}, creator, miss));
      EXPECT_GT(miss.fraction, 1.0f);
    }
    EXPECT_GT(hits, 50);
  }
}

TEST(ShapeQuery, RayCastsAgainstClosedForms) {
  const SubShapeIDCreator creator;
  auto cast = [&](const Shape& shape, const Vec3& origin, const Vec3& direction) {
    RayCastResult hit;
    return shape.cast_ray({origin, direction}, creator, hit) ? hit.fraction : -1.0f;
  };
  // Sphere r = 0.6 hit from x = -5 at height 0.3: x = −√(0.36 − 0.09).
  EXPECT_NEAR(cast(SphereShape(0.6f), Vec3(-5, 0.3f, 0), Vec3(10, 0, 0)),
              (5.0f - std::sqrt(0.27f)) / 10.0f, 1e-6f);
  // The box is hit at its full half extent: the convex radius is carved out, not added.
  EXPECT_NEAR(cast(BoxShape(Vec3(0.5f, 1, 1.5f), 0.2f), Vec3(0, 5, 0), Vec3(0, -10, 0)), 0.4f,
              1e-6f);
  EXPECT_NEAR(cast(BoxShape(Vec3(0.5f, 1, 1.5f), 0.2f), Vec3(2, 0.9f, 1.4f), Vec3(-4, 0, 0)),
              0.375f, 1e-6f);
  // Capsule: the cap top at y = h + r, and the side at x = r.
  EXPECT_NEAR(cast(CapsuleShape(0.8f, 0.3f), Vec3(0, 5, 0), Vec3(0, -10, 0)), 0.39f, 1e-6f);
  EXPECT_NEAR(cast(CapsuleShape(0.8f, 0.3f), Vec3(3, 0.5f, 0), Vec3(-6, 0, 0)), 0.45f, 1e-6f);
  // Cylinder: cap at y = h, side at x = r, and a miss just past the rim.
  EXPECT_NEAR(cast(CylinderShape(0.6f, 0.4f), Vec3(0.3f, 2, 0), Vec3(0, -4, 0)), 0.35f, 1e-6f);
  EXPECT_NEAR(cast(CylinderShape(0.6f, 0.4f), Vec3(0, 0.5f, -4), Vec3(0, 0, 8)), 0.45f, 1e-6f);
  EXPECT_EQ(cast(CylinderShape(0.6f, 0.4f), Vec3(0.41f, 2, 0), Vec3(0, -4, 0)), -1.0f);
  // A box scaled by (2, −0.5, 1.5) is the box of half extent (1, 0.5, 2.25).
  const ScaledShape scaled_box(make_ref<BoxShape>(Vec3(0.5f, 1, 1.5f)), Vec3(2, -0.5f, 1.5f));
  EXPECT_NEAR(cast(scaled_box, Vec3(5, 0, 0), Vec3(-10, 0, 0)), 0.4f, 1e-6f);
  EXPECT_NEAR(cast(scaled_box, Vec3(0, -5, 0), Vec3(0, 10, 0)), 0.45f, 1e-6f);
  EXPECT_NEAR(cast(scaled_box, Vec3(0, 0, 5), Vec3(0, 0, -10)), 0.275f, 1e-6f);
}

TEST(ShapeQuery, CollidePointMatchesClosedForms) {
  Random random(31);
  for (const QueryCase& c : make_cases()) {
    SCOPED_TRACE(c.name);
    const AABox box = c.shape->local_bounds().expanded(0.2f);
    int inside = 0, outside = 0;
    for (int i = 0; i < 5000; ++i) {
      const Vec3 p = random_point(random, box);
      const bool expected = c.inside(p);
      EXPECT_EQ(c.shape->collide_point(p), expected) << p;
      (expected ? inside : outside)++;
    }
    EXPECT_GT(inside, 100);
    EXPECT_GT(outside, 100);
  }
}

// Tight bounds of a convex shape after a transform, from its full support function.
AABox support_bounds(const ConvexShape& shape, const Vec3& scale, const Mat44& transform) {
  SupportBuffer buffer;
  const ConvexSupport* support =
      shape.support_function(SupportMode::IncludeConvexRadius, buffer, scale);
  AABox box;
  for (int axis = 0; axis < 3; ++axis) {
    Vec3 e;
    e.set_component(axis, 1.0f);
    box.encapsulate(transform * support->get_support(transform.multiply3x3_transposed(e)));
    box.encapsulate(transform * support->get_support(transform.multiply3x3_transposed(-e)));
  }
  return box;
}

void expect_box_near(const AABox& actual, const AABox& expected, float tolerance) {
  EXPECT_TRUE(actual.min.is_close(expected.min, tolerance * tolerance))
      << actual.min << " vs " << expected.min;
  EXPECT_TRUE(actual.max.is_close(expected.max, tolerance * tolerance))
      << actual.max << " vs " << expected.max;
}

TEST(ShapeQuery, BoundsAreTight) {
  Random random(37);
  const std::vector<Ref<ConvexShape>> shapes = {
      make_ref<SphereShape>(0.6f), make_ref<BoxShape>(Vec3(0.5f, 1, 1.5f)),
      make_ref<CapsuleShape>(0.8f, 0.3f), make_ref<CylinderShape>(0.6f, 0.4f),
      test::make_hull(hull_points())};
  for (const Ref<ConvexShape>& shape : shapes) {
    SCOPED_TRACE(shape_sub_type_name(shape->sub_type()));
    expect_box_near(shape->local_bounds(), support_bounds(*shape, Vec3(1, 1, 1), Mat44()), 1e-6f);
    for (int i = 0; i < 50; ++i) {
      const Quat q = test::random_rotation(random);
      const Vec3 t(random.uniform(-5, 5), random.uniform(-5, 5), random.uniform(-5, 5));
      const Mat44 transform = Mat44::rotation_translation(q, t);
      const AABox expected = support_bounds(*shape, Vec3(1, 1, 1), transform);
      expect_box_near(shape->world_bounds(transform), expected, 1e-5f);
      // Through a RotatedTranslatedShape the local bounds are the inner world bounds.
      const RotatedTranslatedShape rt(shape, t, q);
      expect_box_near(rt.local_bounds(), expected, 1e-5f);
      // And a further transform composes.
      const Mat44 outer = Mat44::rotation_translation(test::random_rotation(random), t);
      expect_box_near(rt.world_bounds(outer),
                      support_bounds(*shape, Vec3(1, 1, 1), outer * transform), 1e-5f);
    }
  }
  const ScaledShape scaled_hull(shapes[4], Vec3(1, -2, 0.5f));
  expect_box_near(scaled_hull.local_bounds(),
                  support_bounds(*shapes[4], Vec3(1, -2, 0.5f), Mat44()), 1e-6f);
}

TEST(ShapeQuery, SurfaceNormals) {
  const SubShapeID id;
  auto near = [](const Vec3& a, const Vec3& b) { return a.is_close(b, 1e-10f); };
  const SphereShape sphere(0.6f);
  EXPECT_TRUE(near(sphere.surface_normal(id, Vec3(0, 0, 0.6f)), Vec3(0, 0, 1)));
  EXPECT_TRUE(near(sphere.surface_normal(id, Vec3(0.3f, -0.4f, 0)), Vec3(0.6f, -0.8f, 0)));

  const BoxShape box(Vec3(0.5f, 1, 1.5f));
  EXPECT_EQ(box.surface_normal(id, Vec3(0.5f, 0.2f, 0.3f)), Vec3(1, 0, 0));
  EXPECT_EQ(box.surface_normal(id, Vec3(0.1f, -0.98f, 1.0f)), Vec3(0, -1, 0));
  EXPECT_EQ(box.surface_normal(id, Vec3(0.1f, 0.2f, -1.51f)), Vec3(0, 0, -1));

  const CapsuleShape capsule(0.8f, 0.3f);
  EXPECT_TRUE(near(capsule.surface_normal(id, Vec3(0, 0.5f, -0.3f)), Vec3(0, 0, -1)));
  EXPECT_TRUE(near(capsule.surface_normal(id, Vec3(0.18f, 1.04f, 0)), Vec3(0.6f, 0.8f, 0)));

  const CylinderShape cylinder(0.6f, 0.4f);
  EXPECT_EQ(cylinder.surface_normal(id, Vec3(0.1f, 0.6f, 0.1f)), Vec3(0, 1, 0));
  EXPECT_EQ(cylinder.surface_normal(id, Vec3(0.1f, -0.59f, 0.1f)), Vec3(0, -1, 0));
  EXPECT_TRUE(near(cylinder.surface_normal(id, Vec3(0.24f, 0.1f, -0.32f)), Vec3(0.6f, 0, -0.8f)));

  // Hull: the face normal at each face centre.
  const Ref<ConvexHullShape> hull = test::make_hull(hull_points());
  for (const ConvexHull::Face& face : hull->faces()) {
    Vec3 center;
    for (uint32_t k = 0; k < face.num_indices; ++k)
      center += hull->vertices()[hull->face_indices()[face.first_index + k]];
    center /= static_cast<float>(face.num_indices);
    EXPECT_TRUE(near(hull->surface_normal(id, center), face.normal));
  }

  // Rotated: the inner normal rotated.
  const Quat q = Quat::rotation(Vec3::axis_x(), 0.5f);
  const RotatedTranslatedShape rt(make_ref<BoxShape>(Vec3(0.5f, 1, 1.5f)), Vec3(1, 2, 3), q);
  EXPECT_TRUE(
      near(rt.surface_normal(id, q * Vec3(0.2f, 1.0f, 0.1f) + Vec3(1, 2, 3)), q * Vec3(0, 1, 0)));
}

TEST(ShapeQuery, NormalsUnderNonUniformScaleUseInverseTranspose) {
  // An octahedron scaled by (2, 1, −1) is the hull of the scaled points: compare normals at
  // the face centres.
  const std::vector<Vec3> octahedron = {Vec3(1, 0, 0),  Vec3(-1, 0, 0), Vec3(0, 1, 0),
                                        Vec3(0, -1, 0), Vec3(0, 0, 1),  Vec3(0, 0, -1)};
  const Vec3 scale(2.0f, 1.0f, -1.0f);
  std::vector<Vec3> scaled_points;
  for (const Vec3& p : octahedron) scaled_points.push_back(p * scale);
  const ScaledShape shape(test::make_hull(octahedron), scale);
  const Ref<ConvexHullShape> reference = test::make_hull(scaled_points);
  ASSERT_EQ(reference->faces().size(), 8u);
  for (const ConvexHull::Face& face : reference->faces()) {
    Vec3 center;
    for (uint32_t k = 0; k < face.num_indices; ++k)
      center += reference->vertices()[reference->face_indices()[face.first_index + k]];
    center /= static_cast<float>(face.num_indices);
    const Vec3 n = shape.surface_normal(SubShapeID(), center);
    EXPECT_TRUE(n.is_close(face.normal, 1e-10f)) << n << " vs " << face.normal;
  }
}

TEST(ShapeQuery, ValidScales) {
  const Ref<Shape> sphere = make_ref<SphereShape>(1.0f);
  const Ref<Shape> capsule = make_ref<CapsuleShape>(1.0f, 0.5f);
  const Ref<Shape> cylinder = make_ref<CylinderShape>(1.0f, 0.5f);
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(1, 1, 1));
  EXPECT_TRUE(sphere->is_valid_scale(Vec3(-2, 2, 2)));
  EXPECT_FALSE(sphere->is_valid_scale(Vec3(1, 2, 1)));
  EXPECT_TRUE(capsule->is_valid_scale(Vec3(3, 3, -3)));
  EXPECT_FALSE(capsule->is_valid_scale(Vec3(1, 1, 1.1f)));
  EXPECT_TRUE(cylinder->is_valid_scale(Vec3(2, 5, -2)));
  EXPECT_FALSE(cylinder->is_valid_scale(Vec3(2, 5, 3)));
  EXPECT_TRUE(box->is_valid_scale(Vec3(1, -2, 3)));
  EXPECT_FALSE(box->is_valid_scale(Vec3(1, 0, 3)));
  EXPECT_FALSE(box->is_valid_scale(Vec3(1, std::numeric_limits<float>::quiet_NaN(), 3)));
  // A quarter turn about Z swaps X and Y: a cylinder laid along X takes (5, 2, 2) but not
  // (2, 5, 2).
  const RotatedTranslatedShape lying(cylinder, Vec3(), Quat::rotation(Vec3::axis_z(), k_half_pi));
  EXPECT_TRUE(lying.is_valid_scale(Vec3(5, 2, 2)));
  EXPECT_FALSE(lying.is_valid_scale(Vec3(2, 5, 2)));
  EXPECT_TRUE(lying.inner_scale(Vec3(5, 2, 3)).is_close(Vec3(2, 5, 3), 1e-10f));
  // A free rotation only takes uniform scales (a box sheared would be no box).
  const RotatedTranslatedShape tilted(box, Vec3(), Quat::rotation(Vec3::axis_z(), 0.3f));
  EXPECT_TRUE(tilted.is_valid_scale(Vec3(-2, -2, -2)));
  EXPECT_FALSE(tilted.is_valid_scale(Vec3(1, 2, 1)));
  // A scaled shape combines its own scale with the further one.
  const ScaledShape stretched(cylinder, Vec3(2, 1, 2));
  EXPECT_TRUE(stretched.is_valid_scale(Vec3(3, 1, 3)));
  EXPECT_FALSE(stretched.is_valid_scale(Vec3(1, 1, 2)));
  const OffsetCenterOfMassShape offset(sphere, Vec3(0, 1, 0));
  EXPECT_FALSE(offset.is_valid_scale(Vec3(1, 2, 1)));
}

// A flat hull (issue 7 item 11) is a plate of half thickness r whose outline is its polygon
// (corners rounded by r) for rays, points and normals; with r = 0 a ray still hits the polygon (a
// 2D shape for casts).
TEST(ShapeQuery, FlatHullRaysPointsAndNormals) {
  ConvexHullShapeSettings settings;
  settings.points = {Vec3(-1, 0, -2), Vec3(1, 0, -2), Vec3(1, 0, 2), Vec3(-1, 0, 2)};
  settings.max_convex_radius = 0.05f;
  const Ref<Shape> plate = settings.create().value();
  RayCastResult hit;
  ASSERT_TRUE(plate->cast_ray({Vec3(0.3f, 2, 0.4f), Vec3(0, -4, 0)}, {}, hit));
  EXPECT_NEAR(hit.fraction, (2.0f - 0.05f) / 4.0f, 1e-5f);
  hit = {};
  ASSERT_TRUE(plate->cast_ray({Vec3(0.3f, -2, 0.4f), Vec3(0, 4, 0)}, {}, hit));  // from below
  EXPECT_NEAR(hit.fraction, (2.0f - 0.05f) / 4.0f, 1e-5f);
  hit = {};
  ASSERT_TRUE(plate->cast_ray({Vec3(3, 0, 0), Vec3(-4, 0, 0)}, {}, hit));  // edge-on: the rim
  EXPECT_NEAR(hit.fraction, (3.0f - 1.0f) / 4.0f, 1e-5f);
  hit = {};
  EXPECT_FALSE(plate->cast_ray({Vec3(1.2f, 2, 0), Vec3(0, -4, 0)}, {}, hit));  // beside it
  EXPECT_TRUE(plate->collide_point(Vec3(0.5f, 0.04f, 1)));
  EXPECT_FALSE(plate->collide_point(Vec3(0.5f, 0.06f, 1)));
  EXPECT_TRUE(plate->collide_point(Vec3(0.99f, 0, 1)));
  EXPECT_FALSE(plate->collide_point(Vec3(1.01f, 0, 1)));
  EXPECT_TRUE(plate->surface_normal({}, Vec3(0.5f, 0.05f, 1)).is_close(Vec3(0, 1, 0), 1e-8f));
  EXPECT_TRUE(plate->surface_normal({}, Vec3(0.5f, -0.05f, 1)).is_close(Vec3(0, -1, 0), 1e-8f));
  EXPECT_TRUE(plate->surface_normal({}, Vec3(1, 0, 1)).is_close(Vec3(1, 0, 0), 1e-8f));

  settings.max_convex_radius = 0.0f;
  const Ref<Shape> polygon = settings.create().value();
  hit = {};
  ASSERT_TRUE(polygon->cast_ray({Vec3(0.3f, 2, 0.4f), Vec3(0, -4, 0)}, {}, hit));
  EXPECT_NEAR(hit.fraction, 0.5f, 1e-5f);
  EXPECT_FALSE(polygon->collide_point(Vec3(0.3f, 0, 0.4f)));
  // A uniform scale is fine for a plate, a non-uniform one only without a radius.
  EXPECT_TRUE(plate->is_valid_scale(Vec3(-2, 2, 2)));
  EXPECT_FALSE(plate->is_valid_scale(Vec3(1, 2, 1)));
  EXPECT_TRUE(polygon->is_valid_scale(Vec3(1, 2, 1)));
}

// Regression: a flat hull's outline grew by the convex radius, so a user's exact 2D box came out
// larger than given. Symptom before: the 2 × 4 m rectangle with r = 0.05 had local bounds
// ±1.05 × ±0.05 × ±2.05 (a 1 × 1 box became 1.1 × 1.1), an edge-on ray hit its rim at x = 1.05
// and the point (1.04, 0, 1) was inside. Cause: the polygon itself was the core and the radius
// was added around it. Fix: the core is the polygon inset in its plane by r (the intersection of
// the edges' half-planes moved inward by r), so the outline is the given polygon with corners
// rounded by r, 2r thick; r is capped at half the polygon's inradius. Reading now: bounds
// ±1 × ±0.05 × ±2 (a 2 × 0.1 × 4 m box's), the rim hit at x = 1, core corners (±0.95, ±1.95).
TEST(ShapeQuery, FlatHullOutlineIsThePolygonNotGrownByTheRadius) {
  ConvexHullShapeSettings settings;
  settings.points = {Vec3(-1, 0, -2), Vec3(1, 0, -2), Vec3(1, 0, 2), Vec3(-1, 0, 2)};
  settings.max_convex_radius = 0.05f;
  const Ref<Shape> plate = settings.create().value();
  const auto& hull = static_cast<const ConvexHullShape&>(*plate);
  EXPECT_EQ(hull.convex_radius(), 0.05f);
  EXPECT_TRUE(plate->local_bounds().min.is_close(Vec3(-1, -0.05f, -2), 1e-10f))
      << plate->local_bounds().min;
  EXPECT_TRUE(plate->local_bounds().max.is_close(Vec3(1, 0.05f, 2), 1e-10f))
      << plate->local_bounds().max;
  // Turned 90° about y and moved: the bounds of the turned 2 × 0.1 × 4 m box.
  const Mat44 turned =
      Mat44::rotation_translation(Quat::rotation(Vec3::axis_y(), k_half_pi), Vec3(5, 1, 0));
  const AABox world = plate->world_bounds(turned);
  EXPECT_TRUE(world.min.is_close(Vec3(3, 0.95f, -1), 1e-10f)) << world.min;
  EXPECT_TRUE(world.max.is_close(Vec3(7, 1.05f, 1), 1e-10f)) << world.max;
  // The core is the rectangle inset by r; the support reaches the given edges.
  ASSERT_EQ(hull.core_vertices().size(), 4u);
  for (const Vec3& c : hull.core_vertices()) {
    EXPECT_NEAR(std::fabs(c.x()), 0.95f, 1e-6f) << c;
    EXPECT_NEAR(c.y(), 0.0f, 1e-6f) << c;
    EXPECT_NEAR(std::fabs(c.z()), 1.95f, 1e-6f) << c;
  }
  SupportBuffer buffer;
  const ConvexSupport* support =
      hull.support_function(SupportMode::IncludeConvexRadius, buffer, Vec3::replicate(1.0f));
  EXPECT_NEAR(support->get_support(Vec3(1, 0, 0)).x(), 1.0f, 1e-6f);
  EXPECT_NEAR(support->get_support(Vec3(0, 0, -1)).z(), -2.0f, 1e-6f);
  EXPECT_NEAR(support->get_support(Vec3(0, 1, 0)).y(), 0.05f, 1e-6f);
  // Rays and points: the rim is at the given edge, the corners are rounded by r.
  RayCastResult hit;
  ASSERT_TRUE(plate->cast_ray({Vec3(3, 0, 0), Vec3(-4, 0, 0)}, {}, hit));
  EXPECT_NEAR(hit.fraction, (3.0f - 1.0f) / 4.0f, 1e-5f);
  EXPECT_FALSE(plate->collide_point(Vec3(1.01f, 0, 1)));
  EXPECT_TRUE(plate->collide_point(Vec3(0.99f, 0, 1)));
  EXPECT_TRUE(plate->collide_point(Vec3(0.98f, 0, 1.98f)));   // 0.042 from the core's corner
  EXPECT_FALSE(plate->collide_point(Vec3(0.99f, 0, 1.99f)));  // 0.057 from it: rounded off
  EXPECT_TRUE(plate->surface_normal({}, Vec3(1, 0, 1)).is_close(Vec3(1, 0, 0), 1e-8f));
  // The supporting face below is the core's, r under the polygon.
  SupportingFace face;
  hull.supporting_face(Vec3(0, -1, 0), Vec3::replicate(1.0f), Mat44(), face);
  ASSERT_EQ(face.size(), 4u);
  for (const Vec3& p : face) {
    EXPECT_NEAR(std::fabs(p.x()), 0.95f, 1e-6f) << p;
    EXPECT_NEAR(p.y(), -0.05f, 1e-6f) << p;
    EXPECT_NEAR(std::fabs(p.z()), 1.95f, 1e-6f) << p;
  }

  // A right triangle with legs 3 and 4 (inradius 1, incentre (1, 1)): the core is the triangle
  // shrunk about the incentre by (1 − r)/1, its right-angle corner at (r, r).
  settings.points = {Vec3(0, 0, 0), Vec3(3, 0, 0), Vec3(0, 4, 0)};
  const Ref<Shape> triangle = settings.create().value();
  const auto& tri = static_cast<const ConvexHullShape&>(*triangle);
  EXPECT_EQ(tri.convex_radius(), 0.05f);
  ASSERT_EQ(tri.core_vertices().size(), 3u);
  const Vec3 incentre(1, 1, 0);
  for (const Vec3& v : tri.vertices()) {
    const Vec3 expected = incentre + (v - incentre) * 0.95f;
    bool found = false;
    for (const Vec3& c : tri.core_vertices()) found = found || c.is_close(expected, 1e-10f);
    EXPECT_TRUE(found) << expected;
  }
  EXPECT_TRUE(triangle->local_bounds().min.is_close(Vec3(0, 0, -0.05f), 1e-10f))
      << triangle->local_bounds().min;
  // Its acute corners are rounded off: x reaches 2.9 + r, y 3.85 + r.
  EXPECT_TRUE(triangle->local_bounds().max.is_close(Vec3(2.95f, 3.9f, 0.05f), 1e-10f))
      << triangle->local_bounds().max;

  // A strip 1 × 0.04 m (inradius 0.02) cannot be inset by 0.05: r is capped at half the
  // inradius, 0.01, and the outline stays 1 × 0.04.
  settings.points = {Vec3(-0.5f, 0, -0.02f), Vec3(0.5f, 0, -0.02f), Vec3(0.5f, 0, 0.02f),
                     Vec3(-0.5f, 0, 0.02f)};
  const Ref<Shape> strip = settings.create().value();
  const auto& thin = static_cast<const ConvexHullShape&>(*strip);
  EXPECT_NEAR(thin.convex_radius(), 0.01f, 1e-6f);
  EXPECT_TRUE(strip->local_bounds().max.is_close(Vec3(0.5f, 0.01f, 0.02f), 1e-10f))
      << strip->local_bounds().max;
  EXPECT_NEAR(strip->volume(), 1.0f * 0.04f * 0.02f, 1e-8f);
}

}  // namespace
}  // namespace shape_query_test
}  // namespace atl
