#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "atoll/core/Random.h"
#include "atoll/geometry/ConvexHullBuilder.h"
#include "atoll/math/Math.h"
#include "atoll/math/Quat.h"

namespace atl {
namespace convex_hull_builder_test {
namespace {

constexpr float k_tolerance = 1.0e-3f;

// Checks every property a hull must have, against the points it was built from.
void expect_valid_hull(const ConvexHull& hull, const std::vector<Vec3>& points,
                       float tolerance = k_tolerance) {
  ASSERT_GE(hull.vertices.size(), 4u);
  ASSERT_GE(hull.faces.size(), 4u);

  // Every hull vertex is one of the input points, and is used only once.
  for (size_t v = 0; v < hull.vertices.size(); ++v) {
    bool found = false;
    for (const Vec3& p : points) found = found || p == hull.vertices[v];
    EXPECT_TRUE(found) << "vertex " << v << " " << hull.vertices[v] << " is no input point";
    for (size_t w = v + 1; w < hull.vertices.size(); ++w)
      EXPECT_NE(hull.vertices[v], hull.vertices[w]) << "vertices " << v << " and " << w;
  }

  // Every input point is inside or on the hull.
  for (size_t i = 0; i < points.size(); ++i)
    EXPECT_TRUE(hull.contains(points[i], tolerance)) << "point " << i << " " << points[i];

  std::map<std::pair<uint32_t, uint32_t>, int> directed_edges;
  std::vector<int> vertex_use(hull.vertices.size(), 0);
  size_t index_total = 0;
  for (size_t f = 0; f < hull.faces.size(); ++f) {
    const ConvexHull::Face& face = hull.faces[f];
    ASSERT_GE(face.num_indices, 3u) << "face " << f;
    ASSERT_LE(face.first_index + face.num_indices, hull.face_indices.size());
    EXPECT_NEAR(face.normal.length(), 1.0f, 1.0e-5f) << "face " << f;
    index_total += face.num_indices;

    // Planar within the tolerance, and wound counter-clockwise around the outward normal.
    Vec3 winding;
    for (uint32_t i = 0; i < face.num_indices; ++i) {
      const uint32_t a = hull.face_indices[face.first_index + i];
      const uint32_t b = hull.face_indices[face.first_index + (i + 1) % face.num_indices];
      ASSERT_LT(a, hull.vertices.size());
      ++vertex_use[a];
      EXPECT_NEAR(face.normal.dot(hull.vertices[a]), face.distance, tolerance)
          << "face " << f << " vertex " << a;
      winding += hull.vertices[a].cross(hull.vertices[b]);
      EXPECT_EQ(++directed_edges[std::make_pair(a, b)], 1)
          << "edge " << a << "-" << b << " used twice";
    }
    EXPECT_GT(winding.dot(face.normal), 0.0f) << "face " << f << " is wound clockwise";

    // Convex: every vertex of the hull lies behind every face plane.
    for (size_t v = 0; v < hull.vertices.size(); ++v)
      EXPECT_LE(face.normal.dot(hull.vertices[v]) - face.distance, tolerance)
          << "vertex " << v << " in front of face " << f;
  }
  EXPECT_EQ(index_total, hull.face_indices.size());

  // Closed: every edge is crossed once in each direction.
  for (const auto& [edge, count] : directed_edges)
    EXPECT_EQ(directed_edges.count({edge.second, edge.first}), 1u)
        << "edge " << edge.first << "-" << edge.second << " has no twin";
  for (size_t v = 0; v < vertex_use.size(); ++v)
    EXPECT_GE(vertex_use[v], 3) << "vertex " << v << " is on fewer than 3 faces";

  // Euler's formula for a convex polyhedron.
  const long vertices = static_cast<long>(hull.vertices.size());
  const long edges = static_cast<long>(directed_edges.size() / 2);
  const long faces = static_cast<long>(hull.faces.size());
  EXPECT_EQ(vertices - edges + faces, 2);
}

ConvexHull build_ok(const std::vector<Vec3>& points, float tolerance = k_tolerance) {
  Result<ConvexHull> result = ConvexHullBuilder::build(points, tolerance);
  EXPECT_TRUE(result.ok()) << result.error().message();
  return result.ok() ? std::move(result).value() : ConvexHull{};
}

std::string build_error(const std::vector<Vec3>& points, float tolerance = k_tolerance) {
  Result<ConvexHull> result = ConvexHullBuilder::build(points, tolerance);
  EXPECT_FALSE(result.ok());
  return result.ok() ? std::string() : std::string(result.error().message());
}

std::vector<Vec3> cube_corners(float half = 1.0f) {
  std::vector<Vec3> corners;
  for (int i = 0; i < 8; ++i)
    corners.emplace_back(i & 1 ? half : -half, i & 2 ? half : -half, i & 4 ? half : -half);
  return corners;
}

void expect_is_cube(const ConvexHull& hull, float half) {
  ASSERT_EQ(hull.vertices.size(), 8u);
  ASSERT_EQ(hull.faces.size(), 6u);
  for (const ConvexHull::Face& face : hull.faces) {
    EXPECT_EQ(face.num_indices, 4u);
    EXPECT_NEAR(face.normal.abs().max_component(), 1.0f, 1.0e-6f);
    EXPECT_NEAR(face.distance, half, 1.0e-6f);
  }
  for (const Vec3& v : hull.vertices) EXPECT_EQ(v.abs(), Vec3::replicate(half));
}

Vec3 random_in_unit_sphere(Random& random) {
  for (;;) {
    const Vec3 p(random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1));
    if (p.length_sq() <= 1.0f) return p;
  }
}

TEST(ConvexHullBuilder, CubeCornersGiveSixQuads) {
  const std::vector<Vec3> points = cube_corners(0.5f);
  const ConvexHull hull = build_ok(points);
  expect_is_cube(hull, 0.5f);
  expect_valid_hull(hull, points);
  // Vertices keep the input order.
  for (size_t i = 0; i < points.size(); ++i) EXPECT_EQ(hull.vertices[i], points[i]);
}

TEST(ConvexHullBuilder, CubeWithInteriorPointsDropsThem) {
  std::vector<Vec3> points = cube_corners(2.0f);
  Random random(7);
  for (int i = 0; i < 200; ++i)
    points.emplace_back(random.uniform(-1.9f, 1.9f), random.uniform(-1.9f, 1.9f),
                        random.uniform(-1.9f, 1.9f));
  const ConvexHull hull = build_ok(points);
  expect_is_cube(hull, 2.0f);
  expect_valid_hull(hull, points);
}

TEST(ConvexHullBuilder, TetrahedronHasFourTriangles) {
  const std::vector<Vec3> points = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  const ConvexHull hull = build_ok(points);
  ASSERT_EQ(hull.vertices.size(), 4u);
  ASSERT_EQ(hull.faces.size(), 4u);
  for (const ConvexHull::Face& face : hull.faces) EXPECT_EQ(face.num_indices, 3u);
  expect_valid_hull(hull, points);
  // The slanted face's plane is x + y + z = 1.
  bool found_slanted = false;
  for (const ConvexHull::Face& face : hull.faces)
    if (face.normal.is_close(Vec3::replicate(1.0f / std::sqrt(3.0f)), 1.0e-10f)) {
      found_slanted = true;
      EXPECT_NEAR(face.distance, 1.0f / std::sqrt(3.0f), 1.0e-6f);
    }
  EXPECT_TRUE(found_slanted);
}

TEST(ConvexHullBuilder, RandomPointsInSphere) {
  Random random(12345);
  for (int size : {5, 20, 100, 1000, 5000}) {
    std::vector<Vec3> points;
    for (int i = 0; i < size; ++i) points.push_back(random_in_unit_sphere(random) * 3.0f);
    SCOPED_TRACE(size);
    expect_valid_hull(build_ok(points), points);
  }
}

TEST(ConvexHullBuilder, RandomPointsInBox) {
  Random random(777);
  for (int size : {10, 100, 1000, 5000}) {
    std::vector<Vec3> points;
    for (int i = 0; i < size; ++i)
      points.emplace_back(random.uniform(-2, 2), random.uniform(-0.5f, 0.5f),
                          random.uniform(-1, 1));
    SCOPED_TRACE(size);
    expect_valid_hull(build_ok(points), points);
  }
}

TEST(ConvexHullBuilder, ThinSlabKeepsPointsBeyondSharpEdges) {
  // Regression: the first hulls of a slab a few tolerances thick are flat, with sharp edges.
  // A point just beyond such an edge is within the tolerance of both face planes yet far
  // outside the hull; measured against the planes it was dropped, and ended up to 20
  // tolerances outside the final hull. Nearness is now measured to the face polygons.
  Random random(31);
  for (int slab = 0; slab < 20; ++slab) {
    const Vec3 axis = random_in_unit_sphere(random).normalized_or(Vec3::axis_y());
    const Quat rotation = Quat::rotation(axis, random.uniform(0, k_two_pi));
    const float thickness = random.uniform(2.0f, 6.0f) * k_tolerance;
    std::vector<Vec3> points;
    for (int i = 0; i < 300; ++i)
      points.push_back(rotation * Vec3(random.uniform(-1, 1), random.uniform(-1, 1),
                                       random.uniform(-0.5f, 0.5f) * thickness));
    SCOPED_TRACE(slab);
    expect_valid_hull(build_ok(points), points);
  }
}

TEST(ConvexHullBuilder, PointsOnSphereAreAllVertices) {
  // A golden-angle spiral spreads the points evenly, so none lies within the tolerance of the
  // plane of its neighbours.
  constexpr int k_count = 200;
  std::vector<Vec3> points;
  const float golden_angle = k_pi * (3.0f - std::sqrt(5.0f));
  for (int i = 0; i < k_count; ++i) {
    const float y = 1.0f - 2.0f * (i + 0.5f) / k_count;
    const float r = std::sqrt(1.0f - y * y);
    const float angle = golden_angle * static_cast<float>(i);
    points.emplace_back(r * atl::cos(angle), y, r * atl::sin(angle));
  }
  const ConvexHull hull = build_ok(points);
  EXPECT_EQ(hull.vertices.size(), static_cast<size_t>(k_count));
  expect_valid_hull(hull, points);
}

TEST(ConvexHullBuilder, DuplicatedCornersGiveTheCube) {
  std::vector<Vec3> points;
  for (int copy = 0; copy < 3; ++copy)
    for (const Vec3& corner : cube_corners(1.0f)) points.push_back(corner);
  const ConvexHull hull = build_ok(points);
  expect_is_cube(hull, 1.0f);
  expect_valid_hull(hull, points);
}

TEST(ConvexHullBuilder, NearDuplicatesWithinToleranceMerge) {
  std::vector<Vec3> points;
  Random random(3);
  for (const Vec3& corner : cube_corners(1.0f))
    for (int copy = 0; copy < 4; ++copy)
      points.push_back(corner +
                       Vec3(random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1)) *
                           (0.2f * k_tolerance));
  const ConvexHull hull = build_ok(points);
  EXPECT_EQ(hull.faces.size(), 6u);
  EXPECT_EQ(hull.vertices.size(), 8u);
  expect_valid_hull(hull, points);
}

std::vector<Vec3> grid_on_cube_surface(int n, float half) {
  std::vector<Vec3> points;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        if (i != 0 && i != n - 1 && j != 0 && j != n - 1 && k != 0 && k != n - 1) continue;
        const auto coord = [&](int c) { return -half + 2.0f * half * c / (n - 1); };
        points.emplace_back(coord(i), coord(j), coord(k));
      }
  return points;
}

TEST(ConvexHullBuilder, GridOnCubeSurfaceGivesSixQuads) {
  const std::vector<Vec3> points = grid_on_cube_surface(5, 1.0f);
  ASSERT_EQ(points.size(), 98u);  // 5³ - 3³
  const ConvexHull hull = build_ok(points);
  expect_is_cube(hull, 1.0f);
  expect_valid_hull(hull, points);
}

TEST(ConvexHullBuilder, RotatedGridOnBoxSurfaceGivesSixQuads) {
  // Rotated and off-centre, so that the faces are not axis aligned and the coordinates are not
  // exact in float: coplanarity must come from the tolerance, not from exact arithmetic.
  const Quat rotation = Quat::rotation(Vec3(1, 2, 3).normalized(), 0.7f);
  std::vector<Vec3> points;
  for (const Vec3& p : grid_on_cube_surface(9, 1.0f))
    points.push_back(rotation * (p * Vec3(3.0f, 1.0f, 0.5f)) + Vec3(10, -4, 2));
  const ConvexHull hull = build_ok(points);
  EXPECT_EQ(hull.vertices.size(), 8u);
  ASSERT_EQ(hull.faces.size(), 6u);
  for (const ConvexHull::Face& face : hull.faces) EXPECT_EQ(face.num_indices, 4u);
  expect_valid_hull(hull, points);
}

TEST(ConvexHullBuilder, GridOnBoxSurfaceAtManyPosesGivesSixQuads) {
  // Regression: a grid point inside a box face can become a hull vertex before the corners
  // are added (it is then farther than the tolerance from the hull). The face then comes out
  // of the exact hull as a fan of coplanar triangles around that point, which must merge into
  // one quad, absorbing the last triangle of the fan and dropping the point.
  Random random(2024);
  for (int pose = 0; pose < 200; ++pose) {
    const int n = random.uniform_int(3, 9);
    const Vec3 scale(random.uniform(0.1f, 3), random.uniform(0.1f, 3), random.uniform(0.1f, 3));
    const Vec3 axis = random_in_unit_sphere(random).normalized_or(Vec3::axis_x());
    const Quat rotation = Quat::rotation(axis, random.uniform(0, k_two_pi));
    const Vec3 offset(random.uniform(-10, 10), random.uniform(-10, 10), random.uniform(-10, 10));
    std::vector<Vec3> points;
    for (const Vec3& p : grid_on_cube_surface(n, 1.0f))
      points.push_back(rotation * (p * scale) + offset);
    SCOPED_TRACE(pose);
    const ConvexHull hull = build_ok(points);
    EXPECT_EQ(hull.vertices.size(), 8u);
    ASSERT_EQ(hull.faces.size(), 6u);
    for (const ConvexHull::Face& face : hull.faces) EXPECT_EQ(face.num_indices, 4u);
    expect_valid_hull(hull, points);
  }
}

TEST(ConvexHullBuilder, CylinderPointsGiveTwoCapsAndQuadSides) {
  constexpr int k_segments = 24;
  std::vector<Vec3> points;
  for (int ring = 0; ring < 5; ++ring)
    for (int s = 0; s < k_segments; ++s) {
      const float angle = k_two_pi * s / k_segments;
      points.emplace_back(atl::cos(angle), -1.0f + 0.5f * ring, atl::sin(angle));
    }
  const ConvexHull hull = build_ok(points);
  EXPECT_EQ(hull.vertices.size(), static_cast<size_t>(2 * k_segments));
  ASSERT_EQ(hull.faces.size(), static_cast<size_t>(k_segments + 2));
  int caps = 0;
  for (const ConvexHull::Face& face : hull.faces) {
    if (face.num_indices == k_segments)
      ++caps;
    else
      EXPECT_EQ(face.num_indices, 4u);
  }
  EXPECT_EQ(caps, 2);
  expect_valid_hull(hull, points);
}

TEST(ConvexHullBuilder, ContainsUsesTheTolerance) {
  const ConvexHull hull = build_ok(cube_corners(1.0f));
  EXPECT_TRUE(hull.contains(Vec3(0, 0, 0), 0.0f));
  EXPECT_TRUE(hull.contains(Vec3(1, 1, 1), 0.0f));
  EXPECT_FALSE(hull.contains(Vec3(1.01f, 0, 0), 0.0f));
  EXPECT_TRUE(hull.contains(Vec3(1.01f, 0, 0), 0.02f));
  EXPECT_FALSE(hull.contains(Vec3(0, -1.5f, 0), 0.02f));
}

TEST(ConvexHullBuilder, TooFewPoints) {
  EXPECT_EQ(build_error({Vec3(0, 0, 0), Vec3(1, 0, 0)}),
            "points: need ≥ 3 points spanning a plane, got 2");
  EXPECT_EQ(build_error({}), "points: need ≥ 3 points spanning a plane, got 0");
}

TEST(ConvexHullBuilder, NonFinitePointNamesItsIndex) {
  std::vector<Vec3> points = cube_corners(1.0f);
  points[5] = Vec3(1, std::numeric_limits<float>::quiet_NaN(), 0);
  EXPECT_EQ(build_error(points), "points[5]: must be finite, got (1, nan, 0)");
  points[5] = Vec3(1, 0, 0);
  points[2] = Vec3(std::numeric_limits<float>::infinity(), 0, 0);
  EXPECT_EQ(build_error(points), "points[2]: must be finite, got (inf, 0, 0)");
}

TEST(ConvexHullBuilder, CoincidentPoints) {
  const std::vector<Vec3> points = {Vec3(1, 2, 3), Vec3(1, 2, 3), Vec3(1.0002f, 2, 3),
                                    Vec3(1, 2.0003f, 3), Vec3(1, 2, 3)};
  EXPECT_EQ(build_error(points),
            "points: all 5 points are coincident (within tolerance 0.001 m); need ≥ 3 "
            "points spanning a plane");
}

TEST(ConvexHullBuilder, CollinearPoints) {
  std::vector<Vec3> points;
  for (int i = 0; i < 10; ++i) points.push_back(Vec3(1, 2, 3) * (0.5f * i));
  EXPECT_EQ(build_error(points),
            "points: all 10 points are collinear (within tolerance 0.001 m); need ≥ 3 "
            "points spanning a plane");
}

// Checks a flat hull: two faces with opposite normals on one convex polygon, wound
// counter-clockwise around each face's normal, with every input point on its plane and inside
// its outline (within `tolerance`).
void expect_valid_flat_hull(const ConvexHull& hull, const std::vector<Vec3>& points,
                            float tolerance) {
  ASSERT_TRUE(hull.flat());
  ASSERT_EQ(hull.faces.size(), 2u);
  ASSERT_GE(hull.vertices.size(), 3u);
  const ConvexHull::Face& front = hull.faces[0];
  const ConvexHull::Face& back = hull.faces[1];
  EXPECT_NEAR(front.normal.length(), 1.0f, 1e-6f);
  EXPECT_TRUE((front.normal + back.normal).is_near_zero(1e-12f));
  ASSERT_EQ(front.num_indices, hull.vertices.size());
  ASSERT_EQ(back.num_indices, hull.vertices.size());
  const uint32_t n = front.num_indices;
  for (uint32_t k = 0; k < n; ++k) {
    // The back face is the front face reversed.
    EXPECT_EQ(hull.face_indices[back.first_index + k],
              hull.face_indices[front.first_index + n - 1 - k]);
    const Vec3& a = hull.vertices[hull.face_indices[front.first_index + k]];
    const Vec3& b = hull.vertices[hull.face_indices[front.first_index + (k + 1) % n]];
    const Vec3& c = hull.vertices[hull.face_indices[front.first_index + (k + 2) % n]];
    EXPECT_GT((b - a).cross(c - b).dot(front.normal), 0.0f) << "corner " << k;
    // Every input point is on the plane and behind (or within the tolerance of) each edge.
    const Vec3 edge_normal = (b - a).cross(front.normal).normalized();
    for (const Vec3& p : points) {
      EXPECT_LE(edge_normal.dot(p - a), tolerance) << p;
      EXPECT_TRUE(hull.contains(p, tolerance)) << p;
      EXPECT_NEAR(front.normal.dot(p), front.distance, tolerance) << p;
    }
  }
  for (const Vec3& v : hull.vertices) {
    bool found = false;
    for (const Vec3& p : points) found = found || p == v;
    EXPECT_TRUE(found) << v << " is no input point";
  }
}

// Regression: flat convex hulls were refused. Symptom: all-coplanar points (a 2D box, a disc of
// points) failed with "points: all 50 points are coplanar ...; need ≥ 4 non-coplanar points",
// where Jolt builds a hull (used as a thin plate and as a 2D shape for casts). Cause: quickhull
// needs a tetrahedron to start from and the builder stopped there. Fix: coplanar input (within
// the tolerance) gives the 2D hull of the points in their plane (monotone chain), as two
// faces, front and back, on the same polygon. Reading now: a 2D box with points on its edges
// and inside gives its 4 corners; 50 noisy coplanar points a valid convex polygon; 3 points a
// triangle.
TEST(ConvexHullBuilder, CoplanarPointsBuildAFlatHull) {
  std::vector<Vec3> square = {Vec3(-1, 0, -2), Vec3(1, 0, -2), Vec3(1, 0, 2), Vec3(-1, 0, 2),
                              Vec3(0, 0, 0),   Vec3(1, 0, 0),  Vec3(0, 0, 2), Vec3(0.3f, 0, -1)};
  const ConvexHull box = build_ok(square);
  expect_valid_flat_hull(box, square, k_tolerance);
  EXPECT_EQ(box.vertices.size(), 4u);

  std::vector<Vec3> points;
  Random random(9);
  for (int i = 0; i < 50; ++i)
    points.emplace_back(random.uniform(-5, 5), 2.0f + random.uniform(-1, 1) * 1.0e-4f,
                        random.uniform(-5, 5));
  const ConvexHull slab = build_ok(points);
  expect_valid_flat_hull(slab, points, 1.0e-3f);
  EXPECT_TRUE(std::fabs(slab.faces[0].normal.y()) > 0.999f);
  // The same slab is a valid (thin) hull with a tighter tolerance.
  expect_valid_hull(build_ok(points, 1.0e-5f), points, 1.0e-5f);

  // A tilted triangle.
  const Quat q = Quat::rotation(Vec3(1, 2, 3).normalized(), 0.7f);
  std::vector<Vec3> triangle = {q * Vec3(0, 0, 0), q * Vec3(1, 0, 0), q * Vec3(0, 1, 0)};
  const ConvexHull tri = build_ok(triangle);
  expect_valid_flat_hull(tri, triangle, k_tolerance);
  EXPECT_EQ(tri.vertices.size(), 3u);
}

TEST(ConvexHullBuilder, BadTolerance) {
  const std::vector<Vec3> points = cube_corners(1.0f);
  EXPECT_EQ(build_error(points, -1.0f), "tolerance: must be finite and > 0 m, got -1");
  EXPECT_EQ(build_error(points, 0.0f), "tolerance: must be finite and > 0 m, got 0");
  EXPECT_EQ(build_error(points, std::numeric_limits<float>::quiet_NaN()),
            "tolerance: must be finite and > 0 m, got nan");
}

TEST(ConvexHullBuilder, IsDeterministic) {
  Random random(99);
  std::vector<Vec3> points;
  for (int i = 0; i < 2000; ++i) points.push_back(random_in_unit_sphere(random));
  const ConvexHull a = build_ok(points);
  const ConvexHull b = build_ok(points);
  ASSERT_EQ(a.vertices.size(), b.vertices.size());
  ASSERT_EQ(a.faces.size(), b.faces.size());
  EXPECT_EQ(a.face_indices, b.face_indices);
  for (size_t f = 0; f < a.faces.size(); ++f) {
    EXPECT_EQ(a.faces[f].normal, b.faces[f].normal);
    EXPECT_EQ(a.faces[f].distance, b.faces[f].distance);
  }
}

}  // namespace
}  // namespace convex_hull_builder_test
}  // namespace atl
