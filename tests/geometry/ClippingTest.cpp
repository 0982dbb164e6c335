#include "atoll/geometry/Clipping.h"

#include <gtest/gtest.h>

#include <cmath>

#include "geometry/ConvexTestUtil.h"

namespace atl {
namespace clipping_test {
namespace {

using test::expect_vec_near;

constexpr float k_eps = 1.0e-5f;

Polygon square(float half, float z = 0.0f) {
  return Polygon{Vec3(-half, -half, z), Vec3(half, -half, z), Vec3(half, half, z),
                 Vec3(-half, half, z)};
}

Polygon rotated_z(const Polygon& polygon, float angle) {
  const Mat44 rotation = Mat44::rotation(Quat::rotation(Vec3::axis_z(), angle));
  Polygon result;
  for (const Vec3& v : polygon) result.push_back(rotation * v);
  return result;
}

/// Area of a planar polygon (half the length of Newell's normal).
float area(const Polygon& polygon) {
  Vec3 newell = Vec3::zero();
  for (size_t i = 0; i < polygon.size(); ++i)
    newell += polygon[i].cross(polygon[(i + 1) % polygon.size()]);
  return 0.5f * newell.length();
}

/// True when p is inside the square of half extent `half` around the z axis, rotated by angle.
bool inside_rotated_square(const Vec3& p, float half, float angle) {
  const Vec3 local = Quat::rotation(Vec3::axis_z(), -angle) * p;
  return std::fabs(local.x()) <= half + k_eps && std::fabs(local.y()) <= half + k_eps;
}

TEST(ClipPolygonVsPlane, CutsTriangleIntoQuad) {
  const Polygon triangle{Vec3(0, 0, 0), Vec3(4, 0, 0), Vec3(0, 4, 0)};
  Polygon out;
  clip_polygon_vs_plane(triangle, Vec3(1, 0, 0), Vec3(-1, 0, 0), out);  // keep x ≤ 1
  ASSERT_EQ(out.size(), 4u);
  EXPECT_NEAR(area(out), 8.0f - 4.5f, k_eps);
  for (const Vec3& p : out) EXPECT_LE(p.x(), 1.0f + k_eps);
}

TEST(ClipPolygonVsPlane, VertexOnPlaneIsNotDuplicated) {
  const Polygon triangle{Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(0, 2, 0)};
  Polygon out;
  clip_polygon_vs_plane(triangle, Vec3(0, 0, 0), Vec3(1, 0, 0), out);  // x ≥ 0: all, touching
  EXPECT_EQ(out.size(), 3u);
  clip_polygon_vs_plane(triangle, Vec3(2, 0, 0), Vec3(1, 0, 0), out);  // x ≥ 2: one vertex
  ASSERT_EQ(out.size(), 1u);
  expect_vec_near(out[0], Vec3(2, 0, 0), k_eps);
  clip_polygon_vs_plane(triangle, Vec3(3, 0, 0), Vec3(1, 0, 0), out);  // beyond: nothing
  EXPECT_TRUE(out.empty());
}

TEST(ClipPolygonVsPlane, SegmentsAndPoints) {
  const Polygon segment{Vec3(-1, 0, 0), Vec3(3, 0, 0)};
  Polygon out;
  clip_polygon_vs_plane(segment, Vec3(1, 0, 0), Vec3(2, 0, 0), out);
  ASSERT_EQ(out.size(), 2u);
  expect_vec_near(out[0], Vec3(1, 0, 0), k_eps);
  expect_vec_near(out[1], Vec3(3, 0, 0), k_eps);
  const Polygon point{Vec3(0.5f, 1, 2)};
  clip_polygon_vs_plane(point, Vec3(1, 0, 0), Vec3(1, 0, 0), out);
  EXPECT_TRUE(out.empty());
  clip_polygon_vs_plane(point, Vec3(0, 0, 0), Vec3(1, 0, 0), out);
  EXPECT_EQ(out.size(), 1u);
}

TEST(ClipPolygonVsPlane, FullPolygonKeepsCapacity) {
  // A 32-gon cut near one vertex would need 33 vertices: the extra one is dropped and the
  // result stays inside the half space.
  Polygon circle;
  for (int i = 0; i < 32; ++i) {
    const float a = k_two_pi * static_cast<float>(i) / 32.0f;
    circle.push_back(Vec3(atl::cos(a), atl::sin(a), 0));
  }
  Polygon out;
  clip_polygon_vs_plane(circle, Vec3(0.999f, 0, 0), Vec3(-1, 0, 0), out);
  EXPECT_EQ(out.size(), 32u);
  for (const Vec3& p : out) EXPECT_LE(p.x(), 0.999f + k_eps);
}

TEST(ClipPolygonVsPolygon, SquareVsRotatedSquareIsAnOctagon) {
  const Polygon a = square(1.0f);
  const float angle = 0.25f * k_pi;
  const Polygon b = rotated_z(square(1.0f), angle);
  Polygon out;
  clip_polygon_vs_polygon(a, b, Vec3(0, 0, 1), out);
  ASSERT_EQ(out.size(), 8u);
  EXPECT_NEAR(area(out), 8.0f * (std::sqrt(2.0f) - 1.0f), 1e-4f);
  for (const Vec3& p : out) {
    EXPECT_TRUE(inside_rotated_square(p, 1.0f, 0.0f)) << p;
    EXPECT_TRUE(inside_rotated_square(p, 1.0f, angle)) << p;
  }
  // A clockwise clipping polygon gives the same region.
  Polygon reversed;
  for (size_t i = b.size(); i-- > 0;) reversed.push_back(b[i]);
  Polygon out_reversed;
  clip_polygon_vs_polygon(a, reversed, Vec3(0, 0, 1), out_reversed);
  EXPECT_EQ(out_reversed.size(), 8u);
  EXPECT_NEAR(area(out_reversed), area(out), 1e-5f);
}

TEST(ClipPolygonVsPolygon, ClipsAlongTheNormalNotInThePlane) {
  // The clipping face lies 2 above and is tilted about x; the prism along z still cuts the
  // lower square to the face's footprint.
  Polygon clipper;
  const Mat44 tilt =
      Mat44::rotation_translation(Quat::rotation(Vec3::axis_x(), 0.3f), Vec3(0.5f, 0, 2));
  for (const Vec3& v : square(0.5f)) clipper.push_back(tilt * v);
  Polygon out;
  clip_polygon_vs_polygon(square(1.0f), clipper, Vec3(0, 0, -1), out);
  ASSERT_EQ(out.size(), 4u);
  const float half_y = 0.5f * atl::cos(0.3f);
  EXPECT_NEAR(area(out), 1.0f * 2.0f * half_y, 1e-4f);
  for (const Vec3& p : out) EXPECT_EQ(p.z(), 0.0f);
}

TEST(ClipPolygonVsPolygon, FullyInsideAndFullyOutside) {
  Polygon out;
  clip_polygon_vs_polygon(square(0.5f), square(1.0f), Vec3(0, 0, 1), out);
  ASSERT_EQ(out.size(), 4u);
  for (size_t i = 0; i < 4; ++i) expect_vec_near(out[i], square(0.5f)[i], 0.0f);
  Polygon far;
  for (const Vec3& v : square(0.5f)) far.push_back(v + Vec3(5, 0, 0));
  clip_polygon_vs_polygon(far, square(1.0f), Vec3(0, 0, 1), out);
  EXPECT_TRUE(out.empty());
  // The clipper fully inside the polygon: the result is the clipper's footprint.
  clip_polygon_vs_polygon(square(2.0f), square(1.0f, 3.0f), Vec3(0, 0, 1), out);
  EXPECT_NEAR(area(out), 4.0f, 1e-5f);
}

TEST(ClipPolygonVsPolygon, DegenerateEdgesAreIgnored) {
  // Repeated vertices in the clipper (zero-length edges) clip nothing extra.
  const Polygon clipper{Vec3(-1, -1, 0), Vec3(1, -1, 0), Vec3(1, -1, 0),
                        Vec3(1, 1, 0),   Vec3(-1, 1, 0), Vec3(-1, 1, 0)};
  const Polygon shifted = rotated_z(square(1.0f), 0.3f);
  Polygon expected, out;
  clip_polygon_vs_polygon(shifted, square(1.0f), Vec3(0, 0, 1), expected);
  clip_polygon_vs_polygon(shifted, clipper, Vec3(0, 0, 1), out);
  EXPECT_EQ(out.size(), expected.size());
  EXPECT_NEAR(area(out), area(expected), 1e-5f);
  // A polygon to clip with repeated vertices keeps its area.
  const Polygon repeated{Vec3(-2, -0.5f, 0), Vec3(-2, -0.5f, 0), Vec3(2, -0.5f, 0),
                         Vec3(2, 0.5f, 0), Vec3(-2, 0.5f, 0)};
  clip_polygon_vs_polygon(repeated, square(1.0f), Vec3(0, 0, 1), out);
  EXPECT_NEAR(area(out), 2.0f, 1e-5f);
  // A single-point clipper has no edges: nothing is clipped.
  clip_polygon_vs_polygon(repeated, Polygon{Vec3(0, 0, 0)}, Vec3(0, 0, 1), out);
  EXPECT_EQ(out.size(), repeated.size());
}

TEST(ClipPolygonVsEdge, ChordLimitedToTheEdge) {
  const Polygon face = square(1.0f);
  Polygon out;
  // Edge above the face along x, from -0.5 to 3: the chord y = 0 from -0.5 to 1.
  clip_polygon_vs_edge(face, Vec3(-0.5f, 0, 1), Vec3(3, 0, 1), Vec3(0, 0, -1), out);
  ASSERT_EQ(out.size(), 2u);
  expect_vec_near(out[0], Vec3(-0.5f, 0, 0), k_eps);
  expect_vec_near(out[1], Vec3(1, 0, 0), k_eps);
  // Diagonal edge, longer than the face: the chord is the face's diagonal.
  clip_polygon_vs_edge(face, Vec3(-3, -3, 2), Vec3(3, 3, 2), Vec3(0, 0, 1), out);
  ASSERT_EQ(out.size(), 2u);
  expect_vec_near(out[0], Vec3(-1, -1, 0), k_eps);
  expect_vec_near(out[1], Vec3(1, 1, 0), k_eps);
  // Edge beside the face: nothing.
  clip_polygon_vs_edge(face, Vec3(-3, 2, 1), Vec3(3, 2, 1), Vec3(0, 0, -1), out);
  EXPECT_TRUE(out.empty());
  // Edge beyond the face's end: nothing.
  clip_polygon_vs_edge(face, Vec3(2, 0, 1), Vec3(3, 0, 1), Vec3(0, 0, -1), out);
  EXPECT_TRUE(out.empty());
}

TEST(ClipPolygonVsEdge, DegenerateEdges) {
  Polygon out;
  // Zero-length edge and an edge along the sweep direction span no strip.
  clip_polygon_vs_edge(square(1.0f), Vec3(0, 0, 1), Vec3(0, 0, 1), Vec3(0, 0, -1), out);
  EXPECT_TRUE(out.empty());
  clip_polygon_vs_edge(square(1.0f), Vec3(0, 0, 1), Vec3(0, 0, 3), Vec3(0, 0, -1), out);
  EXPECT_TRUE(out.empty());
  // Edge touching the face's corner only: one point.
  clip_polygon_vs_edge(square(1.0f), Vec3(1, 1, 1), Vec3(3, 3, 1), Vec3(0, 0, -1), out);
  ASSERT_EQ(out.size(), 1u);
  expect_vec_near(out[0], Vec3(1, 1, 0), k_eps);
}

TEST(ClipPolygonVsAABox, KeepsThePartInside) {
  const Polygon triangle{Vec3(-2, -2, 0.5f), Vec3(4, -2, 0.5f), Vec3(-2, 4, 0.5f)};
  const AABox box(Vec3(-1, -1, 0), Vec3(1, 1, 1));
  Polygon out;
  clip_polygon_vs_aabox(triangle, box, out);
  // The hypotenuse x + y = 2 passes through the box's corner (1, 1): the whole square face.
  EXPECT_NEAR(area(out), 4.0f, 1e-5f);
  for (const Vec3& p : out) EXPECT_TRUE(box.expanded(k_eps).contains(p)) << p;
  // Polygon in a plane outside the box.
  Polygon above;
  for (const Vec3& v : triangle) above.push_back(v + Vec3(0, 0, 2));
  clip_polygon_vs_aabox(above, box, out);
  EXPECT_TRUE(out.empty());
  // Cut by one face: the triangle (0,0)-(3,0)-(0,3) keeps x ≤ 1 and y ≤ 1 corners.
  const Polygon small{Vec3(0, 0, 0.5f), Vec3(3, 0, 0.5f), Vec3(0, 3, 0.5f)};
  clip_polygon_vs_aabox(small, box, out);
  EXPECT_NEAR(area(out), 1.0f, 1e-5f);
}

}  // namespace
}  // namespace clipping_test
}  // namespace atl
