#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "atoll/core/Random.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/shape/StaticCompoundShape.h"
#include "atoll/shape/TriangleMeshShape.h"

namespace atl {
namespace static_compound_shape_test {
namespace {

Ref<StaticCompoundShape> make(const StaticCompoundShapeSettings& settings) {
  auto result = settings.create_compound();
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message());
  return result.value();
}

Quat random_rotation(Random& random) {
  const Vec3 axis = Vec3(random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1))
                        .normalized_or(Vec3::axis_x());
  return Quat::rotation(axis, random.uniform(0, k_two_pi));
}

// 40 spheres and boxes at random places and rotations in a 20 m cube.
StaticCompoundShapeSettings random_settings(Random& random) {
  StaticCompoundShapeSettings settings;
  for (int i = 0; i < 40; ++i) {
    Ref<Shape> shape;
    if (i % 2 == 0)
      shape = make_ref<SphereShape>(random.uniform(0.2f, 1.5f));
    else
      shape = make_ref<BoxShape>(
          Vec3(random.uniform(0.2f, 2), random.uniform(0.2f, 2), random.uniform(0.2f, 2)), 0.0f);
    settings.children.push_back(
        {shape, Vec3(random.uniform(-10, 10), random.uniform(-10, 10), random.uniform(-10, 10)),
         random_rotation(random)});
  }
  return settings;
}

void expect_inertia_near(const Mat44& actual, const Mat44& expected, float tolerance) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(actual(r, c), expected(r, c), tolerance) << "(" << r << ", " << c << ")";
}

TEST(StaticCompoundShape, MassPropertiesOfTwoSpheres) {
  constexpr float r = 0.5f, d = 2.0f;
  StaticCompoundShapeSettings settings;
  Ref<Shape> sphere = make_ref<SphereShape>(r);
  settings.children = {{sphere, Vec3(-d, 1, 0), Quat::identity()},
                       {sphere, Vec3(d, 1, 0), Quat::rotation(Vec3::axis_y(), 1.0f)}};
  Ref<StaticCompoundShape> compound = make(settings);
  EXPECT_EQ(compound->type(), ShapeType::Compound);
  EXPECT_EQ(compound->sub_type(), ShapeSubType::StaticCompound);
  const float m = sphere->mass_properties().mass;
  const MassProperties mp = compound->mass_properties();
  EXPECT_FLOAT_EQ(mp.mass, 2 * m);
  EXPECT_TRUE(compound->center_of_mass().is_close(Vec3(0, 1, 0)));
  const float own = 0.4f * m * r * r;
  Mat44 expected = Mat44::zero();
  expected.set(0, 0, 2 * own);
  expected.set(1, 1, 2 * (own + m * d * d));
  expected.set(2, 2, 2 * (own + m * d * d));
  expect_inertia_near(mp.inertia, expected, 1e-4f * expected(1, 1));
  EXPECT_FLOAT_EQ(compound->volume(), 2 * sphere->volume());
  EXPECT_EQ(compound->inner_radius(), r);
  EXPECT_TRUE(compound->local_bounds().min.is_close(Vec3(-d - r, 1 - r, -r), 1e-10f));
  EXPECT_TRUE(compound->local_bounds().max.is_close(Vec3(d + r, 1 + r, r), 1e-10f));
}

TEST(StaticCompoundShape, CenterOfMassIsMassWeighted) {
  StaticCompoundShapeSettings settings;
  settings.children = {{make_ref<SphereShape>(1.0f), Vec3(0, 0, 0), Quat::identity()},
                       {make_ref<SphereShape>(0.5f), Vec3(3, 0, 0), Quat::identity()}};
  Ref<StaticCompoundShape> compound = make(settings);
  // Masses 8 : 1, so the centre is 1/9 of the way: x = 3/9.
  EXPECT_NEAR(compound->center_of_mass().x(), 1.0f / 3.0f, 1e-6f);
  // The smallest child's, so that CCD notices the small sphere's motion.
  EXPECT_EQ(compound->inner_radius(), 0.5f);
}

TEST(StaticCompoundShape, RotatedChildInertia) {
  // A 2×4×6 box turned 90° about z is a 4×2×6 box.
  StaticCompoundShapeSettings settings;
  settings.children = {{make_ref<BoxShape>(Vec3(1, 2, 3), 0.0f), Vec3(5, -1, 2),
                        Quat::rotation(Vec3::axis_z(), k_half_pi)}};
  Ref<StaticCompoundShape> compound = make(settings);
  const MassProperties expected = BoxShape(Vec3(2, 1, 3), 0.0f).mass_properties();
  EXPECT_FLOAT_EQ(compound->mass_properties().mass, expected.mass);
  expect_inertia_near(compound->mass_properties().inertia, expected.inertia,
                      1e-5f * expected.inertia(0, 0));
  EXPECT_TRUE(compound->center_of_mass().is_close(Vec3(5, -1, 2), 1e-10f));
}

TEST(StaticCompoundShape, RayCastMatchesBruteForce) {
  Random random(21);
  Ref<StaticCompoundShape> compound = make(random_settings(random));
  int hits = 0;
  for (int k = 0; k < 2000; ++k) {
    const Vec3 origin(random.uniform(-15, 15), random.uniform(-15, 15), random.uniform(-15, 15));
    Vec3 direction(random.uniform(-30, 30), random.uniform(-30, 30), random.uniform(-30, 30));
    // Every other ray aims near a child, so that most of those hit something.
    if (k % 2 == 0) {
      const uint32_t target = static_cast<uint32_t>(
          random.uniform_int(0, static_cast<int32_t>(compound->num_children()) - 1));
      direction = (compound->child(target).position - origin) * 1.5f + direction * 0.02f;
    }
    float best = 1.0f + k_float_epsilon;
    for (uint32_t i = 0; i < compound->num_children(); ++i) {
      const StaticCompoundShape::Child& c = compound->child(i);
      RayCastResult r;
      if (c.shape->cast_ray({c.rotation.inverse_rotate(origin - c.position),
                             c.rotation.inverse_rotate(direction)},
                            {}, r))
        best = std::min(best, r.fraction);
    }
    RayCastResult hit;
    const bool found = compound->cast_ray({origin, direction}, {}, hit);
    ASSERT_EQ(found, best <= 1.0f) << k;
    if (!found) continue;
    ++hits;
    EXPECT_EQ(hit.fraction, best) << k;
    SubShapeID rest;
    const uint32_t index = compound->child_index(hit.sub_shape_id, rest);
    const StaticCompoundShape::Child& c = compound->child(index);
    RayCastResult own;
    ASSERT_TRUE(c.shape->cast_ray(
        {c.rotation.inverse_rotate(origin - c.position), c.rotation.inverse_rotate(direction)}, {},
        own));
    EXPECT_EQ(own.fraction, best);
    EXPECT_TRUE(rest.is_empty());
  }
  EXPECT_GT(hits, 800);
}

TEST(StaticCompoundShape, CollidePointMatchesChildren) {
  Random random(8);
  Ref<StaticCompoundShape> compound = make(random_settings(random));
  int inside = 0;
  for (int k = 0; k < 5000; ++k) {
    const Vec3 p(random.uniform(-12, 12), random.uniform(-12, 12), random.uniform(-12, 12));
    bool expected = false;
    for (uint32_t i = 0; i < compound->num_children(); ++i) {
      const StaticCompoundShape::Child& c = compound->child(i);
      expected |= c.shape->collide_point(c.rotation.inverse_rotate(p - c.position));
    }
    EXPECT_EQ(compound->collide_point(p), expected) << k;
    inside += expected;
  }
  EXPECT_GT(inside, 50);
}

TEST(StaticCompoundShape, SurfaceNormalOfRotatedChild) {
  StaticCompoundShapeSettings settings;
  // The box's local +x face looks along compound −z after a 90° turn about y.
  settings.children = {{make_ref<SphereShape>(1.0f), Vec3(-5, 0, 0), Quat::identity()},
                       {make_ref<BoxShape>(Vec3(1, 2, 3), 0.0f), Vec3(5, 0, 0),
                        Quat::rotation(Vec3::axis_y(), k_half_pi)}};
  Ref<StaticCompoundShape> compound = make(settings);
  RayCastResult hit;
  ASSERT_TRUE(compound->cast_ray({Vec3(5.5f, 0.5f, -10), Vec3(0, 0, 20)}, {}, hit));
  EXPECT_NEAR(hit.fraction, 0.45f, 1e-5f);
  SubShapeID rest;
  EXPECT_EQ(compound->child_index(hit.sub_shape_id, rest), 1u);
  const Vec3 normal = compound->surface_normal(hit.sub_shape_id, Vec3(5.5f, 0.5f, -1));
  EXPECT_TRUE(normal.is_close(Vec3(0, 0, -1), 1e-10f)) << normal;
  RayCastResult sphere_hit;
  ASSERT_TRUE(compound->cast_ray({Vec3(-5, 10, 0), Vec3(0, -20, 0)}, {}, sphere_hit));
  EXPECT_TRUE(compound->surface_normal(sphere_hit.sub_shape_id, Vec3(-5, 1, 0))
                  .is_close(Vec3(0, 1, 0), 1e-10f));
}

TEST(StaticCompoundShape, NestedMeshMaterialAndIDs) {
  TriangleMeshShapeSettings mesh_settings;
  mesh_settings.vertices = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {1, 0, 1}};
  mesh_settings.triangles = {{{0, 1, 2}, 7}, {{2, 1, 3}, 9}};
  Ref<Shape> mesh = mesh_settings.create().value();
  StaticCompoundShapeSettings inner_settings;
  inner_settings.children = {{make_ref<SphereShape>(0.5f), Vec3(10, 0, 0), Quat::identity()},
                             {mesh, Vec3(0, 2, 0), Quat::identity()}};
  Ref<Shape> inner = inner_settings.create().value();
  StaticCompoundShapeSettings outer_settings;
  outer_settings.children = {{make_ref<SphereShape>(0.5f), Vec3(-10, 0, 0), Quat::identity()},
                             {make_ref<SphereShape>(0.5f), Vec3(-20, 0, 0), Quat::identity()},
                             {inner, Vec3(0, 0, 5), Quat::rotation(Vec3::axis_x(), k_pi)}};
  Ref<StaticCompoundShape> outer = make(outer_settings);
  // Mesh point (0.8, 0, 0.8) (triangle 1) is at (0.8, -2, 4.2) after the 180° turn about x.
  RayCastResult hit;
  ASSERT_TRUE(outer->cast_ray({Vec3(0.8f, -10, 4.2f), Vec3(0, 20, 0)}, {}, hit));
  EXPECT_NEAR(hit.fraction, 0.4f, 1e-5f);
  EXPECT_EQ(outer->material_index(hit.sub_shape_id), 9u);
  SubShapeID rest;
  EXPECT_EQ(outer->child_index(hit.sub_shape_id, rest), 2u);
  const auto& inner_compound = static_cast<const StaticCompoundShape&>(*inner);
  SubShapeID mesh_id;
  EXPECT_EQ(inner_compound.child_index(rest, mesh_id), 1u);
  EXPECT_EQ(static_cast<const TriangleMeshShape&>(*mesh).triangle_index(mesh_id), 1u);
  // The mesh's front face (+y) is turned to −y; the ray from below hits it head on.
  EXPECT_TRUE(outer->surface_normal(hit.sub_shape_id, Vec3(0.8f, -2, 4.2f))
                  .is_close(Vec3(0, -1, 0), 1e-10f));
  // Massless children add nothing; the centre of mass comes from the spheres only.
  const float m = make_ref<SphereShape>(0.5f)->mass_properties().mass;
  EXPECT_FLOAT_EQ(outer->mass_properties().mass, 3 * m);
}

TEST(StaticCompoundShape, CollectChildrenMatchesBruteForce) {
  Random random(77);
  Ref<StaticCompoundShape> compound = make(random_settings(random));
  size_t total = 0;
  for (int k = 0; k < 500; ++k) {
    const Vec3 center(random.uniform(-12, 12), random.uniform(-12, 12), random.uniform(-12, 12));
    const Vec3 half(random.uniform(0, 4), random.uniform(0, 4), random.uniform(0, 4));
    const AABox box(center - half, center + half);
    std::vector<uint32_t> expected;
    for (uint32_t i = 0; i < compound->num_children(); ++i) {
      const StaticCompoundShape::Child& c = compound->child(i);
      if (c.shape->world_bounds(c.transform).overlaps(box)) expected.push_back(i);
    }
    std::vector<uint32_t> found;
    compound->collect_children(box,
                               [&](const Shape& shape, const Mat44& transform, uint32_t index) {
                                 EXPECT_EQ(&shape, compound->child(index).shape.get());
                                 EXPECT_EQ(transform, compound->child(index).transform);
                                 found.push_back(index);
                               });
    std::sort(found.begin(), found.end());
    EXPECT_EQ(found, expected) << k;
    total += found.size();
  }
  EXPECT_GT(total, 200u);
}

TEST(StaticCompoundShape, ValidScaleFollowsChildRotations) {
  StaticCompoundShapeSettings settings;
  settings.children = {
      {make_ref<BoxShape>(Vec3(1, 2, 3)), Vec3(4, 0, 0), Quat::rotation(Vec3::axis_z(), k_half_pi)},
      {make_ref<SphereShape>(1.0f), Vec3(-4, 0, 0), Quat::identity()}};
  Ref<StaticCompoundShape> compound = make(settings);
  // Uniform scales always pass; a non-uniform one squashes the sphere child.
  EXPECT_TRUE(compound->is_valid_scale(Vec3(2, 2, 2)));
  EXPECT_TRUE(compound->is_valid_scale(Vec3(-2, -2, -2)));
  EXPECT_FALSE(compound->is_valid_scale(Vec3(1, 2, 1)));
  EXPECT_FALSE(compound->is_valid_scale(Vec3(0, 1, 1)));
  // The box child turned 90° about z sees compound x as its y.
  EXPECT_TRUE(compound->child_scale(0, Vec3(1, 2, 3)).is_close(Vec3(2, 1, 3), 1e-10f));
  // With the sphere gone, axis-aligned non-uniform scales work; a 45° turn shears the box.
  settings.children.pop_back();
  EXPECT_TRUE(make(settings)->is_valid_scale(Vec3(1, 2, 3)));
  settings.children[0].rotation = Quat::rotation(Vec3::axis_z(), 0.25f * k_pi);
  EXPECT_FALSE(make(settings)->is_valid_scale(Vec3(1, 2, 3)));
  EXPECT_TRUE(make(settings)->is_valid_scale(Vec3(1, 1, 3)));
}

std::string create_error(const StaticCompoundShapeSettings& settings) {
  auto result = settings.create();
  return result.ok() ? std::string("ok") : std::string(result.error().message());
}

TEST(StaticCompoundShape, ValidationNamesTheField) {
  StaticCompoundShapeSettings settings;
  EXPECT_EQ(create_error(settings), "StaticCompoundShapeSettings.children: must not be empty");
  Ref<Shape> sphere = make_ref<SphereShape>(1.0f);
  settings.children = {{sphere, Vec3(), Quat::identity()}, {nullptr, Vec3(), Quat::identity()}};
  EXPECT_EQ(create_error(settings),
            "StaticCompoundShapeSettings.children[1].shape: must not be null");
  settings.children[1].shape = sphere;
  EXPECT_EQ(create_error(settings), "ok");
  settings.children[1].position = Vec3(0, std::nanf(""), 0);
  EXPECT_EQ(create_error(settings),
            "StaticCompoundShapeSettings.children[1].position.y: must be finite, got nan");
  settings.children[1].position = Vec3();
  settings.children[0].rotation = Quat(0, 0, 0, 2);
  EXPECT_EQ(create_error(settings),
            "StaticCompoundShapeSettings.children[0].rotation: must be a unit quaternion, got "
            "length 2");
  settings.children[0].rotation = Quat(0, std::nanf(""), 0, 1);
  EXPECT_EQ(create_error(settings),
            "StaticCompoundShapeSettings.children[0].rotation: must be finite, got (0, nan, 0, 1)");
}

TEST(StaticCompoundShape, HierarchyDeeperThanSubShapeIDIsAnError) {
  // Each one-child compound pushes 1 bit: 32 levels fit in a SubShapeID, 33 do not.
  Ref<Shape> shape = make_ref<SphereShape>(1.0f);
  for (int level = 1; level <= 32; ++level) {
    StaticCompoundShapeSettings settings;
    settings.children = {{shape, Vec3(), Quat::identity()}};
    shape = settings.create().value();
  }
  RayCastResult hit;
  ASSERT_TRUE(shape->cast_ray({Vec3(0, 5, 0), Vec3(0, -8, 0)}, {}, hit));
  EXPECT_FLOAT_EQ(hit.fraction, 0.5f);
  EXPECT_EQ(hit.sub_shape_id.value(), 0u);  // 32 levels, each child index 0
  EXPECT_TRUE(shape->surface_normal(hit.sub_shape_id, Vec3(0, 1, 0)).is_close(Vec3(0, 1, 0)));
  StaticCompoundShapeSettings settings;
  settings.children = {{shape, Vec3(), Quat::identity()}};
  EXPECT_EQ(create_error(settings),
            "StaticCompoundShapeSettings.children[0].shape: hierarchy too deep: SubShapeIDs "
            "would need 33 bits (compound 1 + child 32), at most 32");
}

}  // namespace
}  // namespace static_compound_shape_test
}  // namespace atl
