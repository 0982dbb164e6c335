// The soft body's constraint projections (softbody/XpbdParts.h) against their geometry: the
// dihedral bend's and the volume's gradients against finite differences, the angle's sign
// convention, a volume projection reaching its target, a long-range attachment acting only
// beyond its distance.

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "atoll/softbody/XpbdParts.h"

namespace atl {
namespace xpbd_parts_test {

// Central-difference gradient of f with respect to the components of x[i].
template <class F>
Vec3 numeric_gradient(std::vector<Vec3> x, size_t i, F&& f) {
  constexpr float k_step = 1.0e-3f;
  Vec3 g;
  for (int axis = 0; axis < 3; ++axis) {
    const Vec3 original = x[i];
    Vec3 offset = Vec3::zero();
    offset.set_component(axis, k_step);
    x[i] = original + offset;
    const float plus = f(x);
    x[i] = original - offset;
    const float minus = f(x);
    x[i] = original;
    g.set_component(axis, (plus - minus) / (2.0f * k_step));
  }
  return g;
}

TEST(XpbdDihedral, AngleIsZeroWhenFlatAndNegativeFoldingTowardTheFirstNormal) {
  const Vec3 x0(0, 0, 0), x1(1, 0, 0), x2(0.5f, 1, 0), x3(0.5f, -1, 0);
  EXPECT_NEAR(dihedral_angle(x0, x1, x2, x3), 0.0f, 1.0e-6f);
  // The first triangle's normal (x1 − x0) × (x2 − x0) is +z; fold x3 toward +z.
  EXPECT_LT(dihedral_angle(x0, x1, x2, Vec3(0.5f, -1, 0.5f)), 0.0f);
  EXPECT_GT(dihedral_angle(x0, x1, x2, Vec3(0.5f, -1, -0.5f)), 0.0f);
  EXPECT_NEAR(dihedral_angle(x0, x1, x2, Vec3(0.5f, 0, -1)), k_pi / 2.0f, 1.0e-5f);
}

TEST(XpbdDihedral, EachVertexMovesAlongTheAnglesGradient) {
  // With only vertex i free, one projection moves it along ∇ᵢθ (the projection's direction),
  // compared with finite differences of the angle on 200 random pairs of triangles.
  std::mt19937 random(3);
  std::uniform_real_distribution<float> coordinate(-1.0f, 1.0f);
  const auto angle = [](const std::vector<Vec3>& x) {
    return dihedral_angle(x[0], x[1], x[2], x[3]);
  };
  int checked = 0;
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<Vec3> x(4);
    for (Vec3& p : x) p = Vec3(coordinate(random), coordinate(random), coordinate(random));
    const float theta = angle(x);
    if (std::fabs(theta) > 2.8f) continue;  // near ±π the angle wraps
    for (size_t i = 0; i < 4; ++i) {
      const Vec3 numeric = numeric_gradient(x, i, angle);
      if (numeric.length() < 1.0e-2f) continue;
      std::vector<Vec3> y = x;
      float w[4] = {0, 0, 0, 0};
      w[i] = 1.0f;
      float lambda = 0.0f;
      ASSERT_TRUE(project_dihedral(y[0], y[1], y[2], y[3], w[0], w[1], w[2], w[3], theta + 1.0e-3f,
                                   0.0f, lambda));
      const Vec3 moved = (y[i] - x[i]) / lambda;  // = ∇ᵢθ
      EXPECT_NEAR((moved - numeric).length(), 0.0f, 0.02f * numeric.length() + 1.0e-3f)
          << "trial " << trial << " vertex " << i;
      ++checked;
    }
  }
  EXPECT_GT(checked, 500);
}

TEST(XpbdDihedral, ARigidBendRestoresItsRestAngleAndSkipsDegenerateTriangles) {
  Vec3 x0(0, 0, 0), x1(1, 0, 0), x2(0.5f, 1, 0), x3(0.5f, -1, 0.6f);
  float lambda = 0.0f;
  for (int i = 0; i < 20; ++i) project_dihedral(x0, x1, x2, x3, 1, 1, 1, 1, 0.0f, 0.0f, lambda);
  EXPECT_NEAR(dihedral_angle(x0, x1, x2, x3), 0.0f, 1.0e-3f);
  Vec3 d0(0, 0, 0), d1(1, 0, 0), d2(2, 0, 0), d3(0.5f, -1, 0);  // x2 on the edge's line
  lambda = 0.0f;
  EXPECT_FALSE(project_dihedral(d0, d1, d2, d3, 1, 1, 1, 1, 0.0f, 0.0f, lambda));
  EXPECT_EQ(d2, Vec3(2, 0, 0));
}

// A unit cube, faces counter-clockwise seen from outside.
struct Cube {
  std::vector<Vec3> x = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0),
                         Vec3(0, 0, 1), Vec3(1, 0, 1), Vec3(1, 1, 1), Vec3(0, 1, 1)};
  std::vector<SoftBodyFace> faces = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7},
                                     {0, 1, 5}, {0, 5, 4}, {3, 7, 6}, {3, 6, 2},
                                     {0, 4, 7}, {0, 7, 3}, {1, 2, 6}, {1, 6, 5}};
};

TEST(XpbdVolume, VolumeOfAClosedSurfaceAndItsGradient) {
  Cube cube;
  EXPECT_NEAR(mesh_volume(cube.x, cube.faces), 1.0f, 1.0e-6f);
  // Each vertex alone moves along ∇ᵢV.
  const auto volume = [&](const std::vector<Vec3>& x) { return mesh_volume(x, cube.faces); };
  for (size_t i = 0; i < cube.x.size(); ++i) {
    const Vec3 numeric = numeric_gradient(cube.x, i, volume);
    std::vector<Vec3> y = cube.x;
    std::vector<float> w(8, 0.0f);
    w[i] = 1.0f;
    std::vector<Vec3> gradient(8);
    float lambda = 0.0f;
    ASSERT_TRUE(project_volume(y, w, cube.faces, 1.0f + 1.0e-4f, 0.0f, lambda, gradient));
    const Vec3 moved = (y[i] - cube.x[i]) / lambda;
    EXPECT_NEAR((moved - numeric).length(), 0.0f, 1.0e-3f) << "vertex " << i;
  }
}

TEST(XpbdVolume, ARigidVolumeReachesItsTargetAndPinnedVerticesStay) {
  Cube cube;
  std::vector<float> w(8, 1.0f);
  w[0] = 0.0f;
  std::vector<Vec3> gradient(8);
  float lambda = 0.0f;
  for (int i = 0; i < 10; ++i) project_volume(cube.x, w, cube.faces, 1.5f, 0.0f, lambda, gradient);
  EXPECT_NEAR(mesh_volume(cube.x, cube.faces), 1.5f, 1.0e-4f);
  EXPECT_EQ(cube.x[0], Vec3(0, 0, 0));
  std::vector<float> pinned(8, 0.0f);
  EXPECT_FALSE(project_volume(cube.x, pinned, cube.faces, 1.0f, 0.0f, lambda, gradient));
}

TEST(XpbdLongRange, OnlyAVertexBeyondItsDistanceIsPulledBack) {
  Vec3 inside(0.5f, 0, 0);
  project_long_range(inside, Vec3::zero(), 1.0f);
  EXPECT_EQ(inside, Vec3(0.5f, 0, 0));
  Vec3 outside(0, 3, 4);
  project_long_range(outside, Vec3::zero(), 1.0f);
  EXPECT_NEAR((outside - Vec3(0, 0.6f, 0.8f)).length(), 0.0f, 1.0e-6f);
}

}  // namespace xpbd_parts_test
}  // namespace atl
