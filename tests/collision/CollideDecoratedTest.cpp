// collide_shapes through decorators and compounds: the same answer as the equivalent plain
// shapes, and SubShapeIDs built as the shapes' own ray casts build them.

#include <gtest/gtest.h>

#include "CollideTestUtil.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/CapsuleShape.h"
#include "atoll/shape/OffsetCenterOfMassShape.h"
#include "atoll/shape/RotatedTranslatedShape.h"
#include "atoll/shape/ScaledShape.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/shape/StaticCompoundShape.h"

namespace atl::test {
namespace collide_decorated_test {
namespace {

Ref<Shape> floor_box() { return make_ref<BoxShape>(Vec3(5, 0.5f, 5)); }
Mat44 floor_transform() { return Mat44::translation(Vec3(0, -0.5f, 0)); }

// Manifolds of (a, b) and (c, d) agree in normal, depth, points and SubShapeIDs.
void expect_same_manifolds(const std::vector<ContactManifold>& actual,
                           const std::vector<ContactManifold>& expected, float tolerance = 1e-5f) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_TRUE(vec_near(actual[i].normal, expected[i].normal, tolerance));
    EXPECT_NEAR(actual[i].penetration_depth, expected[i].penetration_depth, tolerance);
    EXPECT_EQ(actual[i].sub_shape_id1, expected[i].sub_shape_id1);
    EXPECT_EQ(actual[i].sub_shape_id2, expected[i].sub_shape_id2);
    EXPECT_TRUE(same_points(actual[i].points_on_1,
                            {expected[i].points_on_1.begin(), expected[i].points_on_1.end()},
                            tolerance));
    EXPECT_TRUE(same_points(actual[i].points_on_2,
                            {expected[i].points_on_2.begin(), expected[i].points_on_2.end()},
                            tolerance));
  }
}

TEST(CollideDecorated, ScaledBoxEqualsThePlainBox) {
  const Vec3 scale(2, 0.5f, 1.5f);
  // The convex radius scales with the smallest |scale| component.
  const Ref<Shape> unit = make_ref<BoxShape>(Vec3(1, 1, 1), 0.05f);
  const Ref<Shape> scaled = ScaledShapeSettings{unit, scale}.create().value();
  const Ref<Shape> plain = make_ref<BoxShape>(scale, 0.05f * 0.5f);
  const Mat44 transform =
      Mat44::rotation_translation(Quat::rotation(Vec3::axis_y(), 0.4f), Vec3(0.3f, 0.49f, -0.2f));
  const auto expected = collide_all(*plain, transform, *floor_box(), floor_transform());
  ASSERT_EQ(expected.size(), 1u);
  EXPECT_EQ(expected[0].points_on_1.size(), 4u);
  expect_same_manifolds(collide_all(*scaled, transform, *floor_box(), floor_transform()), expected);
  // As shape 2, with a mirroring scale (a box is symmetric, so the mirror changes nothing).
  const Ref<Shape> mirrored = ScaledShapeSettings{unit, scale * Vec3(-1, 1, 1)}.create().value();
  expect_same_manifolds(collide_all(*floor_box(), floor_transform(), *mirrored, transform),
                        collide_all(*floor_box(), floor_transform(), *plain, transform));
}

TEST(CollideDecorated, RotatedTranslatedCapsuleEqualsThePlacedCapsule) {
  const Ref<Shape> capsule = make_ref<CapsuleShape>(1.0f, 0.3f);
  const Quat rotation = Quat::rotation(Vec3::axis_z(), k_half_pi);
  const Vec3 position(0.5f, 0.2f, -0.1f);
  const Ref<Shape> placed = make_ref<RotatedTranslatedShape>(capsule, position, rotation);
  const Mat44 body =
      Mat44::rotation_translation(Quat::rotation(Vec3::axis_y(), 0.7f), Vec3(1, 0.09f, 2));
  const auto expected =
      collide_all(*capsule, body * Mat44::rotation_translation(rotation, position), *floor_box(),
                  floor_transform());
  ASSERT_EQ(expected.size(), 1u);
  EXPECT_EQ(expected[0].points_on_1.size(), 2u);
  expect_same_manifolds(collide_all(*placed, body, *floor_box(), floor_transform()), expected);
  // Scaled around the rotated shape: uniform scale 2 doubles the capsule and its offset.
  const Ref<Shape> scaled = ScaledShapeSettings{placed, Vec3(2, 2, 2)}.create().value();
  const Ref<Shape> big = make_ref<CapsuleShape>(2.0f, 0.6f);
  expect_same_manifolds(
      collide_all(*scaled, body, *floor_box(), floor_transform()),
      collide_all(*big, body * Mat44::rotation_translation(rotation, 2 * position), *floor_box(),
                  floor_transform()));
}

TEST(CollideDecorated, NonUniformScaleThroughARightAngleRotation) {
  // Scale (3, 1, 1) outside a 90° turn about z reaches the box as (1, 3, 1).
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(0.5f, 0.2f, 0.5f), 0.0f);
  const Quat rotation = Quat::rotation(Vec3::axis_z(), k_half_pi);
  const Ref<Shape> turned = make_ref<RotatedTranslatedShape>(box, Vec3::zero(), rotation);
  const Ref<Shape> scaled = ScaledShapeSettings{turned, Vec3(3, 1, 1)}.create().value();
  const Ref<Shape> plain = make_ref<BoxShape>(Vec3(0.5f, 0.6f, 0.5f), 0.0f);
  const Mat44 transform = Mat44::translation(Vec3(0, 0.49f, 0));
  // The turned, stretched box: x extent 3·0.2, y extent 0.5 (the turned x), z 0.5.
  const auto expected =
      collide_all(*plain, transform * Mat44::rotation_translation(rotation, Vec3::zero()),
                  *floor_box(), floor_transform());
  ASSERT_EQ(expected.size(), 1u);
  expect_same_manifolds(collide_all(*scaled, transform, *floor_box(), floor_transform()), expected);
}

TEST(CollideDecorated, OffsetCenterOfMassDoesNotMoveTheGeometry) {
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(1, 0.5f, 1));
  const Ref<Shape> offset = make_ref<OffsetCenterOfMassShape>(box, Vec3(0, -0.4f, 0));
  const Mat44 transform = Mat44::translation(Vec3(0.2f, 0.49f, 0.1f));
  expect_same_manifolds(collide_all(*offset, transform, *floor_box(), floor_transform()),
                        collide_all(*box, transform, *floor_box(), floor_transform()));
}

Ref<StaticCompoundShape> two_boxes() {
  StaticCompoundShapeSettings settings;
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(0.5f, 0.5f, 0.5f));
  settings.children.push_back({box, Vec3(-1, 0, 0), Quat::identity()});
  settings.children.push_back({box, Vec3(1, 0, 0), Quat::rotation(Vec3::axis_y(), 0.3f)});
  return settings.create_compound().value();
}

TEST(CollideDecorated, CompoundOfTwoBoxesOnABox) {
  const Ref<StaticCompoundShape> compound = two_boxes();
  const Mat44 transform = Mat44::translation(Vec3(0.5f, 0.49f, 0.5f));
  const auto manifolds = collide_all(*compound, transform, *floor_box(), floor_transform());
  ASSERT_EQ(manifolds.size(), 2u);
  const Ref<Shape> box = compound->child(0).shape;
  for (uint32_t i = 0; i < 2; ++i) {
    const ContactManifold& m = manifolds[i];
    SubShapeID remainder;
    const uint32_t child = compound->child_index(m.sub_shape_id1, remainder);
    EXPECT_TRUE(remainder.is_empty());
    EXPECT_EQ(m.sub_shape_id1, SubShapeIDCreator().push(child, compound->sub_shape_id_bits()).id());
    EXPECT_TRUE(m.sub_shape_id2.is_empty());
    // The same as the child alone at its place in the compound.
    const auto alone = collide_all(*box, transform * compound->child(child).transform, *floor_box(),
                                   floor_transform());
    ASSERT_EQ(alone.size(), 1u);
    EXPECT_EQ(m.points_on_1.size(), 4u);
    EXPECT_TRUE(vec_near(m.normal, alone[0].normal, 1e-6f));
    EXPECT_NEAR(m.penetration_depth, alone[0].penetration_depth, 1e-6f);
    EXPECT_TRUE(same_points(m.points_on_2,
                            {alone[0].points_on_2.begin(), alone[0].points_on_2.end()}, 1e-6f));
  }
  EXPECT_NE(manifolds[0].sub_shape_id1, manifolds[1].sub_shape_id1);

  // Swapped: the compound is shape 2, its child index on sub_shape_id2.
  const auto swapped = collide_all(*floor_box(), floor_transform(), *compound, transform);
  ASSERT_EQ(swapped.size(), 2u);
  for (uint32_t i = 0; i < 2; ++i) {
    EXPECT_EQ(swapped[i].sub_shape_id2, manifolds[i].sub_shape_id1);
    EXPECT_TRUE(vec_near(swapped[i].normal, -manifolds[i].normal, 1e-4f));
  }
}

TEST(CollideDecorated, CompoundChildrenAwayFromTheOtherShapeAreSkipped) {
  const Ref<StaticCompoundShape> compound = two_boxes();
  const Ref<Shape> sphere = make_ref<SphereShape>(0.3f);
  // The sphere touches the top of child 1 (at x = 1) only.
  const auto manifolds =
      collide_all(*compound, Mat44(), *sphere, Mat44::translation(Vec3(1, 0.79f, 0)));
  ASSERT_EQ(manifolds.size(), 1u);
  EXPECT_EQ(manifolds[0].sub_shape_id1,
            SubShapeIDCreator().push(1, compound->sub_shape_id_bits()).id());
  EXPECT_TRUE(vec_near(manifolds[0].normal, Vec3(0, 1, 0), 1e-5f));
  EXPECT_NEAR(manifolds[0].penetration_depth, 0.01f, 1e-5f);
}

TEST(CollideDecorated, CompoundAgainstCompoundAndMesh) {
  const Ref<StaticCompoundShape> compound = two_boxes();
  const auto pairs =
      collide_all(*compound, Mat44::translation(Vec3(0, 0.99f, 0)), *compound, Mat44());
  // Each upper child rests on the lower child below it: child 0 on 0 and child 1 on 1.
  ASSERT_EQ(pairs.size(), 2u);
  for (const ContactManifold& m : pairs) {
    EXPECT_EQ(m.sub_shape_id1, m.sub_shape_id2);
    EXPECT_TRUE(vec_near(m.normal, Vec3(0, -1, 0), 1e-5f));
    EXPECT_NEAR(m.penetration_depth, 0.01f, 1e-4f);
  }
  // A compound on a mesh: the triangle ID comes after nothing (the mesh is the top level) and
  // the child index is on shape 1.
  const Ref<TriangleMeshShape> mesh = flat_grid(4).create_mesh().value();
  const auto on_mesh =
      collide_all(*compound, Mat44::translation(Vec3(2, 0.49f, 2)), *mesh, Mat44());
  ASSERT_EQ(on_mesh.size(), 2u);
  for (const ContactManifold& m : on_mesh) {
    EXPECT_LT(mesh->triangle_index(m.sub_shape_id2), mesh->num_triangles());
    EXPECT_TRUE(vec_near(m.normal, Vec3(0, -1, 0), 1e-5f));
  }
}

TEST(CollideDecorated, MeshInsideACompoundGetsBothLevelsInItsID) {
  const Ref<TriangleMeshShape> mesh = flat_grid(4).create_mesh().value();
  StaticCompoundShapeSettings settings;
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(1, 1, 1));
  settings.children.push_back({box, Vec3(-10, 0, 0), Quat::identity()});
  settings.children.push_back({mesh, Vec3(0, 0, 0), Quat::identity()});
  const Ref<StaticCompoundShape> compound = settings.create_compound().value();
  const Ref<Shape> sphere = make_ref<SphereShape>(0.5f);
  const auto manifolds =
      collide_all(*sphere, Mat44::translation(Vec3(1.2f, 0.49f, 2.7f)), *compound, Mat44());
  ASSERT_EQ(manifolds.size(), 1u);
  SubShapeID remainder;
  EXPECT_EQ(compound->child_index(manifolds[0].sub_shape_id2, remainder), 1u);
  // Cell (1, 2), triangle 0 (z > x within the cell).
  EXPECT_EQ(mesh->triangle_index(remainder), 2u * (2 * 4 + 1) + 0);
  // The same ID as a ray cast straight down through the contact point.
  RayCastResult hit;
  ASSERT_TRUE(compound->cast_ray({Vec3(1.2f, 1, 2.7f), Vec3(0, -2, 0)}, SubShapeIDCreator(), hit));
  EXPECT_EQ(hit.sub_shape_id, manifolds[0].sub_shape_id2);
}

}  // namespace
}  // namespace collide_decorated_test
}  // namespace atl::test
