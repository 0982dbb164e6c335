// collide_shapes against triangle meshes and height fields: active edges, merging, order swap.

#include <gtest/gtest.h>

#include "CollideTestUtil.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/HeightFieldShape.h"
#include "atoll/shape/ScaledShape.h"
#include "atoll/shape/SphereShape.h"

namespace atl::test {
namespace collide_mesh_test {
namespace {

constexpr float k_depth = 0.01f;
const Vec3 k_down(0, -1, 0);

Ref<Shape> grid_mesh() { return flat_grid(10).create().value(); }

TEST(CollideMesh, BoxAcrossInternalEdgesGetsOnlyTheFaceNormal) {
  const Ref<Shape> mesh = grid_mesh();
  // A sharp box (no convex radius): the rounded edges of a default box would not reach the
  // triangles it barely pokes into.
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(0.5f, 0.5f, 0.5f), 0.0f);
  // The box spans x ∈ [4.001, 5.001]: it pokes 1 mm into the next column of cells, less than
  // it sinks in (10 mm), so against those triangles EPA alone would push it sideways.
  for (const Vec3& center : {Vec3(4.501f, 0.5f - k_depth, 5.3f), Vec3(5.0f, 0.5f - k_depth, 5.0f),
                             Vec3(3.2f, 0.5f - k_depth, 6.999f)}) {
    const auto manifolds = collide_all(*box, Mat44::translation(center), *mesh, Mat44());
    ASSERT_FALSE(manifolds.empty());
    for (const ContactManifold& m : manifolds) {
      EXPECT_TRUE(vec_near(m.normal, k_down, 1e-5f)) << "box at " << center;
      EXPECT_NEAR(m.penetration_depth, k_depth, 1e-4f);
      for (const Vec3& p : m.points_on_2) EXPECT_NEAR(p.y(), 0, 1e-4f);
      for (const Vec3& p : m.points_on_1) EXPECT_NEAR(p.y(), -k_depth, 1e-4f);
    }
    // Parallel normals merge: one manifold with the four bottom corners.
    ASSERT_EQ(manifolds.size(), 1u) << "box at " << center;
    std::vector<Vec3> corners;
    for (const auto& [x, z] : {std::pair{0.5f, 0.5f}, {-0.5f, 0.5f}, {-0.5f, -0.5f}, {0.5f, -0.5f}})
      corners.push_back(Vec3(center.x() + x, 0, center.z() + z));
    EXPECT_TRUE(same_points(manifolds[0].points_on_2, corners, 1e-4f)) << "box at " << center;
  }
}

TEST(CollideMesh, BoxInA90DegreeCornerGetsBothNormals) {
  // Floor y = 0 (front +y) and wall x = 0 (front +x) sharing the corner edge, which bends by
  // 90° and is therefore active.
  TriangleMeshShapeSettings settings;
  for (int k = 0; k < 4; ++k) {
    const float z0 = static_cast<float>(k), z1 = z0 + 1;
    add_quad(settings, Vec3(0, 0, z0), Vec3(0, 0, z1), Vec3(4, 0, z1), Vec3(4, 0, z0));
    add_quad(settings, Vec3(0, 0, z0), Vec3(0, 4, z0), Vec3(0, 4, z1), Vec3(0, 0, z1));
  }
  const Ref<Shape> mesh = settings.create().value();
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(0.5f, 0.5f, 0.5f));
  const auto manifolds = collide_all(
      *box, Mat44::translation(Vec3(0.5f - 0.02f, 0.5f - k_depth, 2.3f)), *mesh, Mat44());
  bool floor = false, wall = false;
  for (const ContactManifold& m : manifolds) {
    if (m.normal.is_close(k_down, 1e-8f)) {
      floor = true;
      EXPECT_NEAR(m.penetration_depth, k_depth, 1e-4f);
    } else if (m.normal.is_close(Vec3(-1, 0, 0), 1e-8f)) {
      wall = true;
      EXPECT_NEAR(m.penetration_depth, 0.02f, 1e-4f);
    } else {
      ADD_FAILURE() << "unexpected normal " << m.normal;
    }
  }
  EXPECT_TRUE(floor);
  EXPECT_TRUE(wall);
}

TEST(CollideMesh, SphereOnMeshGivesOnePointWithTheTriangleID) {
  const Ref<TriangleMeshShape> mesh = flat_grid(10).create_mesh().value();
  const Ref<Shape> sphere = make_ref<SphereShape>(0.5f);
  const Vec3 center(2.3f, 0.5f - k_depth, 7.6f);
  const auto manifolds = collide_all(*sphere, Mat44::translation(center), *mesh, Mat44());
  ASSERT_EQ(manifolds.size(), 1u);
  EXPECT_TRUE(vec_near(manifolds[0].normal, k_down, 1e-5f));
  EXPECT_NEAR(manifolds[0].penetration_depth, k_depth, 1e-5f);
  EXPECT_TRUE(same_points(manifolds[0].points_on_2, {Vec3(2.3f, 0, 7.6f)}, 1e-5f));
  // Cell (2, 7), the triangle below (x, z) = (0.3, 0.6) within it: triangle 0 covers z > x.
  const uint32_t triangle = 2 * (7 * 10 + 2) + 0;
  EXPECT_EQ(mesh->triangle_index(manifolds[0].sub_shape_id2), triangle);
  EXPECT_TRUE(manifolds[0].sub_shape_id1.is_empty());
}

TEST(CollideMesh, MeshFirstIsTheFlippedConvexFirst) {
  const Ref<Shape> mesh = grid_mesh();
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(0.5f, 0.5f, 0.5f));
  const Mat44 transform = Mat44::rotation_translation(Quat::rotation(Vec3::axis_y(), 0.3f),
                                                      Vec3(4.7f, 0.5f - k_depth, 5.2f));
  const auto forward = collide_all(*box, transform, *mesh, Mat44());
  const auto backward = collide_all(*mesh, Mat44(), *box, transform);
  ASSERT_EQ(forward.size(), 1u);
  ASSERT_EQ(backward.size(), 1u);
  EXPECT_EQ(backward[0].normal, -forward[0].normal);
  EXPECT_EQ(backward[0].penetration_depth, forward[0].penetration_depth);
  EXPECT_EQ(backward[0].sub_shape_id1, forward[0].sub_shape_id2);
  EXPECT_EQ(backward[0].sub_shape_id2, forward[0].sub_shape_id1);
  ASSERT_EQ(backward[0].points_on_1.size(), forward[0].points_on_2.size());
  for (size_t i = 0; i < forward[0].points_on_1.size(); ++i) {
    EXPECT_EQ(backward[0].points_on_1[i], forward[0].points_on_2[i]);
    EXPECT_EQ(backward[0].points_on_2[i], forward[0].points_on_1[i]);
  }
}

TEST(CollideMesh, BoxBelowTheSurfaceDoesNotCollideWithBackFaces) {
  const Ref<Shape> mesh = grid_mesh();
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(0.5f, 0.5f, 0.5f));
  EXPECT_TRUE(
      collide_all(*box, Mat44::translation(Vec3(5, -0.5f + k_depth, 5)), *mesh, Mat44()).empty());
}

TEST(CollideMesh, MeshVersusMeshReportsNothing) {
  const Ref<Shape> mesh = grid_mesh();
  EXPECT_TRUE(collide_all(*mesh, Mat44(), *mesh, Mat44::translation(Vec3(0.5f, 0, 0.5f))).empty());
}

TEST(CollideMesh, ScaledAndMirroredMeshesKeepTheirFrontFace) {
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(0.5f, 0.5f, 0.5f));
  // Stretched 2× in x and z: the cell edges move to even coordinates.
  const Ref<Shape> stretched = ScaledShapeSettings{grid_mesh(), Vec3(2, 1, 2)}.create().value();
  // Mirrored in x: every triangle turns inside out unless the winding is fixed.
  const Ref<Shape> mirrored = ScaledShapeSettings{grid_mesh(), Vec3(-1, 1, 1)}.create().value();
  const Vec3 center(9.0f, 0.5f - k_depth, 9.5f);
  const Vec3 mirrored_center(-5.5f, 0.5f - k_depth, 4.999f);
  for (const auto& [mesh, c] : {std::pair{stretched, center}, {mirrored, mirrored_center}}) {
    const auto manifolds = collide_all(*box, Mat44::translation(c), *mesh, Mat44());
    ASSERT_EQ(manifolds.size(), 1u) << "box at " << c;
    EXPECT_TRUE(vec_near(manifolds[0].normal, k_down, 1e-5f));
    EXPECT_NEAR(manifolds[0].penetration_depth, k_depth, 1e-4f);
    EXPECT_EQ(manifolds[0].points_on_2.size(), 4u);
  }
}

TEST(CollideMesh, HeightFieldBehavesLikeTheEquivalentMesh) {
  HeightFieldShapeSettings settings;
  settings.sample_count = 11;
  settings.heights.assign(11 * 11, 0.0f);
  const Ref<Shape> height_field = settings.create().value();
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(0.5f, 0.5f, 0.5f));
  const Mat44 transform = Mat44::translation(Vec3(4.501f, 0.5f - k_depth, 5.3f));
  const auto manifolds = collide_all(*box, transform, *height_field, Mat44());
  ASSERT_EQ(manifolds.size(), 1u);
  EXPECT_TRUE(vec_near(manifolds[0].normal, k_down, 1e-5f));
  EXPECT_NEAR(manifolds[0].penetration_depth, k_depth, 1e-4f);
  EXPECT_EQ(manifolds[0].points_on_2.size(), 4u);
  const auto reversed = collide_all(*height_field, Mat44(), *box, transform);
  ASSERT_EQ(reversed.size(), 1u);
  EXPECT_TRUE(vec_near(reversed[0].normal, -k_down, 1e-5f));
}

TEST(CollideMesh, SpeculativeContactsAgainstTheMesh) {
  const Ref<Shape> mesh = grid_mesh();
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(0.5f, 0.5f, 0.5f));
  CollideShapeSettings settings;
  settings.max_separation_distance = 0.05f;
  const auto near =
      collide_all(*box, Mat44::translation(Vec3(5.2f, 0.53f, 5.4f)), *mesh, Mat44(), settings);
  ASSERT_EQ(near.size(), 1u);
  EXPECT_NEAR(near[0].penetration_depth, -0.03f, 1e-4f);
  EXPECT_TRUE(vec_near(near[0].normal, k_down, 1e-5f));
  EXPECT_TRUE(
      collide_all(*box, Mat44::translation(Vec3(5.2f, 0.56f, 5.4f)), *mesh, Mat44(), settings)
          .empty());
}

}  // namespace
}  // namespace collide_mesh_test
}  // namespace atl::test
