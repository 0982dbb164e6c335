#include <gtest/gtest.h>

#include "atoll/core/Random.h"
#include "atoll/geometry/ClosestPoint.h"

namespace atl {
namespace closest_point_test {
namespace {

constexpr float k_eps = 1.0e-5f;

void expect_vec_near(const Vec3& actual, const Vec3& expected, float eps = k_eps) {
  EXPECT_NEAR(actual.x(), expected.x(), eps) << actual << " vs " << expected;
  EXPECT_NEAR(actual.y(), expected.y(), eps) << actual << " vs " << expected;
  EXPECT_NEAR(actual.z(), expected.z(), eps) << actual << " vs " << expected;
}

// Closest point of the simplex to p, via the to-origin functions; checks that the weights
// reproduce the point and are zero outside the vertex set.
SimplexClosestPoint closest_to(const Vec3& p, std::initializer_list<Vec3> simplex) {
  Vec3 v[4];
  int n = 0;
  for (const Vec3& s : simplex) v[n++] = s - p;
  SimplexClosestPoint r = closest_point_to_origin_on_simplex(v, n);
  Vec3 weighted = Vec3::zero();
  for (int i = 0; i < n; ++i) {
    weighted += v[i] * r.weights[i];
    if (!((r.vertex_set >> i) & 1u)) {
      EXPECT_EQ(r.weights[i], 0.0f) << "vertex " << i;
    }
  }
  // The weights come from products of dot products: for slivers they lose a few more digits
  // than the point itself.
  expect_vec_near(weighted, r.point, 1e-4f);
  r.point += p;
  return r;
}

TEST(ClosestPointSegment, VertexAndEdgeRegions) {
  const Vec3 a(0, 0, 0), b(4, 0, 0);
  SimplexClosestPoint r = closest_to(Vec3(-1, 1, 0), {a, b});
  expect_vec_near(r.point, a);
  EXPECT_EQ(r.vertex_set, 0b01u);
  r = closest_to(Vec3(6, -2, 1), {a, b});
  expect_vec_near(r.point, b);
  EXPECT_EQ(r.vertex_set, 0b10u);
  r = closest_to(Vec3(1, 3, -2), {a, b});
  expect_vec_near(r.point, Vec3(1, 0, 0));
  EXPECT_EQ(r.vertex_set, 0b11u);
  EXPECT_NEAR(r.weights[0], 0.75f, k_eps);
  EXPECT_NEAR(r.weights[1], 0.25f, k_eps);
  expect_vec_near(closest_point_on_segment(Vec3(3, 1, 1), a, b), Vec3(3, 0, 0));
}

TEST(ClosestPointSegment, DegenerateSegmentIsAPoint) {
  const Vec3 a(1, 2, 3);
  const SimplexClosestPoint r = closest_to(Vec3(0, 0, 0), {a, a});
  expect_vec_near(r.point, a);
  EXPECT_EQ(__builtin_popcount(r.vertex_set), 1);
}

TEST(ClosestPointTriangle, AllSevenVoronoiRegions) {
  const Vec3 a(0, 0, 0), b(4, 0, 0), c(0, 4, 0);
  struct Case {
    Vec3 p, expected;
    uint32_t set;
  };
  const Case cases[] = {
      {Vec3(-1, -1, 1), a, 0b001},             // vertex a
      {Vec3(5, -1, 1), b, 0b010},              // vertex b
      {Vec3(-1, 5, 2), c, 0b100},              // vertex c
      {Vec3(2, -1, 1), Vec3(2, 0, 0), 0b011},  // edge ab
      {Vec3(-1, 1, 1), Vec3(0, 1, 0), 0b101},  // edge ac
      {Vec3(3, 3, 1), Vec3(2, 2, 0), 0b110},   // edge bc
      {Vec3(1, 1, 3), Vec3(1, 1, 0), 0b111},   // face, above
      {Vec3(1, 2, -3), Vec3(1, 2, 0), 0b111},  // face, below
  };
  for (const Case& k : cases) {
    const SimplexClosestPoint r = closest_to(k.p, {a, b, c});
    expect_vec_near(r.point, k.expected);
    EXPECT_EQ(r.vertex_set, k.set) << k.p;
    expect_vec_near(closest_point_on_triangle(k.p, a, b, c), k.expected);
  }
  const SimplexClosestPoint face = closest_to(Vec3(1, 1, 3), {a, b, c});
  EXPECT_NEAR(face.weights[0], 0.5f, k_eps);
  EXPECT_NEAR(face.weights[1], 0.25f, k_eps);
  EXPECT_NEAR(face.weights[2], 0.25f, k_eps);
}

TEST(ClosestPointTriangle, DegenerateTrianglesFallBackToEdges) {
  // Collinear vertices.
  SimplexClosestPoint r = closest_to(Vec3(3, 1, 0), {Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(4, 0, 0)});
  expect_vec_near(r.point, Vec3(3, 0, 0));
  EXPECT_EQ(__builtin_popcount(r.vertex_set), 2);
  // Two coincident vertices.
  r = closest_to(Vec3(1, 1, 1), {Vec3(0, 0, 0), Vec3(0, 0, 0), Vec3(2, 0, 0)});
  expect_vec_near(r.point, Vec3(1, 0, 0));
  // All coincident.
  r = closest_to(Vec3(1, 1, 1), {Vec3(5, 5, 5), Vec3(5, 5, 5), Vec3(5, 5, 5)});
  expect_vec_near(r.point, Vec3(5, 5, 5));
}

TEST(ClosestPointTriangle, FarFromOriginKeepsPrecision) {
  // A small triangle 1000 m away: the face projection stays accurate.
  const Vec3 a(1000, 0, 0), b(1000, 1, 0), c(1000, 0, 1);
  const SimplexClosestPoint r = closest_to(Vec3(0, 0.25f, 0.25f), {a, b, c});
  expect_vec_near(r.point, Vec3(1000, 0.25f, 0.25f), 1e-3f);
  EXPECT_EQ(r.vertex_set, 0b111u);
}

TEST(ClosestPointTetrahedron, AllFifteenVoronoiRegions) {
  const Vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0), d(0, 0, 1);
  const float third = 1.0f / 3.0f;
  struct Case {
    Vec3 p, expected;
    uint32_t set;
  };
  const Case cases[] = {
      {Vec3(-1, -1, -1), a, 0b0001},
      {Vec3(2, -0.5f, -0.5f), b, 0b0010},
      {Vec3(-0.5f, 2, -0.5f), c, 0b0100},
      {Vec3(-0.5f, -0.5f, 2), d, 0b1000},
      {Vec3(0.5f, -1, -1), Vec3(0.5f, 0, 0), 0b0011},                              // ab
      {Vec3(-1, 0.5f, -1), Vec3(0, 0.5f, 0), 0b0101},                              // ac
      {Vec3(-1, -1, 0.5f), Vec3(0, 0, 0.5f), 0b1001},                              // ad
      {Vec3(1.5f, 1.5f, 0), Vec3(0.5f, 0.5f, 0), 0b0110},                          // bc
      {Vec3(1.5f, 0, 1.5f), Vec3(0.5f, 0, 0.5f), 0b1010},                          // bd
      {Vec3(0, 1.5f, 1.5f), Vec3(0, 0.5f, 0.5f), 0b1100},                          // cd
      {Vec3(0.2f, 0.3f, -1), Vec3(0.2f, 0.3f, 0), 0b0111},                         // abc
      {Vec3(0.2f, -1, 0.3f), Vec3(0.2f, 0, 0.3f), 0b1011},                         // abd
      {Vec3(-1, 0.2f, 0.3f), Vec3(0, 0.2f, 0.3f), 0b1101},                         // acd
      {Vec3(1 + third, 1 + third, 1 + third), Vec3(third, third, third), 0b1110},  // bcd
      {Vec3(0.1f, 0.2f, 0.3f), Vec3(0.1f, 0.2f, 0.3f), 0b1111},                    // inside
  };
  for (const Case& k : cases) {
    const SimplexClosestPoint r = closest_to(k.p, {a, b, c, d});
    expect_vec_near(r.point, k.expected);
    EXPECT_EQ(r.vertex_set, k.set) << k.p;
  }
  const SimplexClosestPoint inside = closest_to(Vec3(0.1f, 0.2f, 0.3f), {a, b, c, d});
  EXPECT_NEAR(inside.weights[0], 0.4f, k_eps);
  EXPECT_NEAR(inside.weights[1], 0.1f, k_eps);
  EXPECT_NEAR(inside.weights[2], 0.2f, k_eps);
  EXPECT_NEAR(inside.weights[3], 0.3f, k_eps);
}

TEST(ClosestPointTetrahedron, VertexOrderDoesNotMatter) {
  // Same tetrahedron with inverted winding (b and c swapped).
  const Vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0), d(0, 0, 1);
  const SimplexClosestPoint r = closest_to(Vec3(2, 2, 2), {a, c, b, d});
  expect_vec_near(r.point, Vec3(1.0f / 3.0f, 1.0f / 3.0f, 1.0f / 3.0f));
  EXPECT_EQ(r.vertex_set, 0b1110u);
}

TEST(ClosestPointTetrahedron, FlatTetrahedronIsHandledAsItsFaces) {
  const Vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0), d(1, 1, 0);
  expect_vec_near(closest_to(Vec3(0.5f, 0.5f, 1), {a, b, c, d}).point, Vec3(0.5f, 0.5f, 0));
  expect_vec_near(closest_to(Vec3(0.9f, 0.8f, -2), {a, b, c, d}).point, Vec3(0.9f, 0.8f, 0));
  expect_vec_near(closest_to(Vec3(2, 0.5f, 0), {a, b, c, d}).point, Vec3(1, 0.5f, 0));
  // All four vertices the same.
  expect_vec_near(closest_to(Vec3::zero(), {b, b, b, b}).point, b);
}

TEST(ClosestPointTetrahedron, RandomQueriesMatchBruteForceOverFaces) {
  // Property: outside the tetrahedron, the closest point is the best of the four faces.
  Random random(7);
  int outside = 0;
  for (int i = 0; i < 10000; ++i) {
    Vec3 v[4];
    for (Vec3& x : v) x = Vec3(random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1));
    const Vec3 p(random.uniform(-2, 2), random.uniform(-2, 2), random.uniform(-2, 2));
    const SimplexClosestPoint r = closest_to(p, {v[0], v[1], v[2], v[3]});
    if (r.vertex_set == 0b1111u) {
      expect_vec_near(r.point, p);
      continue;
    }
    ++outside;
    float best = k_float_max;
    const int faces[4][3] = {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}};
    for (const auto& f : faces)
      best = std::min(best, (closest_point_on_triangle(p, v[f[0]], v[f[1]], v[f[2]]) - p).length());
    ASSERT_NEAR((r.point - p).length(), best, 1e-4f) << i;
  }
  EXPECT_GT(outside, 5000);
}

}  // namespace
}  // namespace closest_point_test
}  // namespace atl
