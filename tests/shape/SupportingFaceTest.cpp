// Supporting faces: the right vertices, counter-clockwise seen from outside, transformed, and
// with the winding kept under mirroring scales.

#include <gtest/gtest.h>

#include <limits>

#include "ShapeTestUtil.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/CapsuleShape.h"
#include "atoll/shape/CylinderShape.h"
#include "atoll/shape/SphereShape.h"

namespace atl {
namespace supporting_face_test {
namespace {

// Normal of a planar polygon by Newell's method: its direction says which side the loop is
// counter-clockwise from.
Vec3 polygon_normal(const SupportingFace& face) {
  Vec3 n;
  for (size_t i = 0; i < face.size(); ++i) {
    const Vec3& a = face[i];
    const Vec3& b = face[(i + 1) % face.size()];
    n += Vec3((a.y() - b.y()) * (a.z() + b.z()), (a.z() - b.z()) * (a.x() + b.x()),
              (a.x() - b.x()) * (a.y() + b.y()));
  }
  return n.normalized();
}

// True when every vertex of `face` is one of `expected` and all are used.
::testing::AssertionResult same_vertex_set(const SupportingFace& face,
                                           const std::vector<Vec3>& expected) {
  if (face.size() != expected.size())
    return ::testing::AssertionFailure()
           << face.size() << " vertices, expected " << expected.size();
  for (const Vec3& e : expected) {
    bool found = false;
    for (const Vec3& v : face) found = found || v.is_close(e, 1e-10f);
    if (!found) return ::testing::AssertionFailure() << "missing " << e;
  }
  return ::testing::AssertionSuccess();
}

TEST(SupportingFace, BoxGivesTheFourCornersOfTheRightFace) {
  const Vec3 h(0.5f, 1.0f, 1.5f);
  const BoxShape box(h, 0.1f);
  const Vec3 directions[6] = {Vec3(1, 0.1f, -0.2f), Vec3(-1, 0.3f, 0.2f), Vec3(0.2f, 1, 0.1f),
                              Vec3(0, -1, 0),       Vec3(0.3f, 0.3f, 1),  Vec3(-0.1f, 0, -1)};
  const Vec3 normals[6] = {Vec3(1, 0, 0),  Vec3(-1, 0, 0), Vec3(0, 1, 0),
                           Vec3(0, -1, 0), Vec3(0, 0, 1),  Vec3(0, 0, -1)};
  const Quat q = Quat::rotation(Vec3(1, 1, 0).normalized(), 0.7f);
  const Mat44 transform = Mat44::rotation_translation(q, Vec3(1, -2, 3));
  for (int i = 0; i < 6; ++i) {
    SCOPED_TRACE(i);
    SupportingFace face;
    box.supporting_face(directions[i], Vec3(1, 1, 1), Mat44::identity(), face);
    std::vector<Vec3> expected;
    for (const Vec3& c : test::box_corners(h))
      if (c.dot(normals[i]) > 0.0f) expected.push_back(c);
    // The full extent, convex radius included.
    EXPECT_TRUE(same_vertex_set(face, expected));
    EXPECT_TRUE(polygon_normal(face).is_close(normals[i], 1e-10f));

    SupportingFace moved;
    box.supporting_face(directions[i], Vec3(1, 1, 1), transform, moved);
    ASSERT_EQ(moved.size(), 4u);
    for (size_t k = 0; k < 4; ++k) EXPECT_TRUE(moved[k].is_close(transform * face[k], 1e-10f));

    // A mirroring scale: still the corners of the scaled face, still counter-clockwise.
    const Vec3 scale(-2.0f, 1.0f, 0.5f);
    SupportingFace mirrored;
    box.supporting_face(directions[i], scale, Mat44::identity(), mirrored);
    std::vector<Vec3> scaled_expected;
    for (const Vec3& c : expected) scaled_expected.push_back(c * scale.abs());
    EXPECT_TRUE(same_vertex_set(mirrored, scaled_expected));
    EXPECT_TRUE(polygon_normal(mirrored).is_close(normals[i], 1e-10f));
  }
}

TEST(SupportingFace, HullFaceIsCounterClockwiseUnderMirroring) {
  const Ref<ConvexHullShape> cube = test::make_hull(test::box_corners(Vec3(1, 2, 3)));
  ASSERT_NE(cube, nullptr);
  for (const Vec3& scale : {Vec3(1, 1, 1), Vec3(-1, 1, 1), Vec3(-1, -0.5f, 2), Vec3(-1, -1, -1)}) {
    SCOPED_TRACE(scale);
    SupportingFace face;
    cube->supporting_face(Vec3(0.1f, -0.2f, 1), scale, Mat44::identity(), face);
    const float z = 3.0f * std::fabs(scale.z());
    // The face of the scaled hull that faces +Z: the 4 corners at z, counter-clockwise.
    std::vector<Vec3> expected;
    for (const Vec3& c : test::box_corners(Vec3(1, 2, 3)))
      if ((c * scale).z() > 0.0f) expected.push_back(c * scale);
    EXPECT_TRUE(same_vertex_set(face, expected));
    for (const Vec3& v : face) EXPECT_FLOAT_EQ(v.z(), z);
    EXPECT_TRUE(polygon_normal(face).is_close(Vec3(0, 0, 1), 1e-10f));
  }
}

TEST(SupportingFace, HullFaceWithManyVerticesIsThinned) {
  // A prism over a 40-gon: its caps have more vertices than a SupportingFace holds.
  std::vector<Vec3> points;
  for (int i = 0; i < 40; ++i) {
    const float angle = k_two_pi * static_cast<float>(i) / 40.0f;
    points.emplace_back(atl::cos(angle), -0.5f, atl::sin(angle));
    points.emplace_back(atl::cos(angle), 0.5f, atl::sin(angle));
  }
  const Ref<ConvexHullShape> prism = test::make_hull(points);
  ASSERT_NE(prism, nullptr);
  SupportingFace face;
  prism->supporting_face(Vec3(0, 1, 0), Vec3(1, 1, 1), Mat44::identity(), face);
  ASSERT_EQ(face.size(), ConvexHullShape::k_max_face_vertices);
  for (const Vec3& v : face) EXPECT_FLOAT_EQ(v.y(), 0.5f);
  EXPECT_TRUE(polygon_normal(face).is_close(Vec3(0, 1, 0), 1e-10f));
  // Still convex: every turn goes the same way.
  for (size_t i = 0; i < face.size(); ++i) {
    const Vec3 a = face[(i + 1) % face.size()] - face[i];
    const Vec3 b = face[(i + 2) % face.size()] - face[(i + 1) % face.size()];
    EXPECT_GT(a.cross(b).y(), 0.0f);
  }
}

TEST(SupportingFace, CylinderCapOrSide) {
  const CylinderShape cylinder(0.6f, 0.4f, 0.1f);
  for (const float sign : {1.0f, -1.0f}) {
    SupportingFace cap;
    cylinder.supporting_face(Vec3(0.3f, sign, -0.2f), Vec3(1, 1, 1), Mat44::identity(), cap);
    ASSERT_EQ(cap.size(), static_cast<size_t>(CylinderShape::k_cap_vertices));
    for (const Vec3& v : cap) {
      EXPECT_FLOAT_EQ(v.y(), 0.6f * sign);
      EXPECT_NEAR(std::sqrt(v.x() * v.x() + v.z() * v.z()), 0.4f, 1e-6f);
    }
    EXPECT_TRUE(polygon_normal(cap).is_close(Vec3(0, sign, 0), 1e-10f));
  }
  // Scaled (x, z by 2, y by −0.5): cap radius 0.8 at y = ±0.3, still counter-clockwise.
  SupportingFace scaled_cap;
  cylinder.supporting_face(Vec3(0, 1, 0), Vec3(2, -0.5f, -2), Mat44::identity(), scaled_cap);
  for (const Vec3& v : scaled_cap) {
    EXPECT_FLOAT_EQ(v.y(), 0.3f);
    EXPECT_NEAR(std::sqrt(v.x() * v.x() + v.z() * v.z()), 0.8f, 1e-6f);
  }
  EXPECT_TRUE(polygon_normal(scaled_cap).is_close(Vec3(0, 1, 0), 1e-10f));
  // Mostly sideways: the line on the side, below and above.
  SupportingFace side;
  cylinder.supporting_face(Vec3(3, 1, 4), Vec3(1, 1, 1), Mat44::identity(), side);
  EXPECT_TRUE(same_vertex_set(side, {Vec3(0.24f, 0.6f, 0.32f), Vec3(0.24f, -0.6f, 0.32f)}));
}

TEST(SupportingFace, CapsuleLineOrPoint) {
  const CapsuleShape capsule(0.8f, 0.3f);
  const Mat44 transform = Mat44::translation(Vec3(0, 10, 0));
  SupportingFace face;
  capsule.supporting_face(Vec3(0, 0, -2), Vec3(1, 1, 1), transform, face);
  EXPECT_TRUE(same_vertex_set(face, {Vec3(0, 10.8f, -0.3f), Vec3(0, 9.2f, -0.3f)}));
  // Within 1° of perpendicular still counts as the side.
  capsule.supporting_face(Vec3(1, 0.01f, 0), Vec3(1, 1, 1), Mat44::identity(), face);
  EXPECT_TRUE(same_vertex_set(face, {Vec3(0.3f, 0.8f, 0), Vec3(0.3f, -0.8f, 0)}));
  // Tilted further: one point, the support point of the lower end.
  capsule.supporting_face(Vec3(0.6f, -0.8f, 0), Vec3(2, 2, 2), Mat44::identity(), face);
  EXPECT_TRUE(same_vertex_set(face, {Vec3(0.36f, -1.6f - 0.48f, 0)}));
}

TEST(SupportingFace, SpherePoint) {
  const SphereShape sphere(0.5f);
  SupportingFace face;
  sphere.supporting_face(Vec3(0, 3, 4), Vec3(-2, 2, 2), Mat44::translation(Vec3(1, 0, 0)), face);
  EXPECT_TRUE(same_vertex_set(face, {Vec3(1, 0.6f, 0.8f)}));
  sphere.supporting_face(Vec3(), Vec3(1, 1, 1), Mat44::identity(), face);
  EXPECT_TRUE(face.empty());
}

TEST(SupportingFace, HullWithNoAlignableFaceGivesNone) {
  // Found by the shapes fuzzer: when no face's alignment is a number (a direction that is not
  // finite, or normals that overflow under a huge scale), the face search found none and the
  // flat hull's plate offset read through a null face.
  const Ref<ConvexHullShape> cube = test::make_hull(test::box_corners(Vec3(1, 2, 3)));
  const Ref<ConvexHullShape> plate =
      test::make_hull({Vec3(-1, 0, -1), Vec3(1, 0, -1), Vec3(1, 0, 1), Vec3(-1, 0, 1)}, 0.05f);
  ASSERT_NE(cube, nullptr);
  ASSERT_NE(plate, nullptr);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const ConvexHullShape* hull : {cube.get(), plate.get()}) {
    SupportingFace face;
    face.push_back(Vec3(1, 2, 3));  // cleared
    hull->supporting_face(Vec3(nan, 0, 1), Vec3(1, 1, 1), Mat44::identity(), face);
    EXPECT_TRUE(face.empty());
    // Normals that overflow (1 / 1e-30 per axis): no face or a whole one, never a bad read.
    hull->supporting_face(Vec3(0, 1, 0), Vec3(1e-30f, 1e-30f, 1e-30f), Mat44::identity(), face);
    for (const Vec3& v : face) EXPECT_TRUE(v.is_finite());
  }
}

}  // namespace
}  // namespace supporting_face_test
}  // namespace atl
