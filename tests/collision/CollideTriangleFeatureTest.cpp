// Active-edge decisions on a single triangle (TriangleFeature.h).

#include <gtest/gtest.h>

#include "atoll/collision/narrowphase/TriangleFeature.h"
#include "atoll/shape/ActiveEdges.h"

namespace atl {
namespace collide_triangle_feature_test {
namespace {

// Triangle in the y = 0 plane, front face +y.
const Vec3 k_v0(0, 0, 0), k_v1(0, 0, 1), k_v2(1, 0, 0);
const Vec3 k_up(0, 1, 0);

TEST(CollideTriangleFeature, InteriorContactsAreNeverOnAnActiveFeature) {
  EXPECT_FALSE(
      on_active_triangle_feature(k_v0, k_v1, k_v2, k_active_edge_all, Vec3(0.2f, 0, 0.3f)));
}

TEST(CollideTriangleFeature, EdgesAndVerticesFollowTheirBits) {
  const Vec3 on_01(0, 0, 0.5f), on_12(0.5f, 0, 0.5f), on_20(0.5f, 0, 0);
  EXPECT_TRUE(on_active_triangle_feature(k_v0, k_v1, k_v2, k_active_edge_01, on_01));
  EXPECT_FALSE(on_active_triangle_feature(k_v0, k_v1, k_v2, k_active_edge_12, on_01));
  EXPECT_TRUE(on_active_triangle_feature(k_v0, k_v1, k_v2, k_active_edge_12, on_12));
  EXPECT_FALSE(on_active_triangle_feature(k_v0, k_v1, k_v2, k_active_edge_20, on_12));
  EXPECT_TRUE(on_active_triangle_feature(k_v0, k_v1, k_v2, k_active_edge_20, on_20));
  // A vertex is active when either of its edges is.
  EXPECT_TRUE(on_active_triangle_feature(k_v0, k_v1, k_v2, k_active_edge_20, k_v0));
  EXPECT_TRUE(on_active_triangle_feature(k_v0, k_v1, k_v2, k_active_edge_01, k_v0));
  EXPECT_FALSE(on_active_triangle_feature(k_v0, k_v1, k_v2, k_active_edge_12, k_v0));
  EXPECT_FALSE(on_active_triangle_feature(k_v0, k_v1, k_v2, 0, k_v1));
}

TEST(CollideTriangleFeature, NormalIsReplacedOnlyOutsideTheConeOnInactiveFeatures) {
  const float cone = k_default_active_edge_cos_threshold;
  const Vec3 sideways = Vec3(1, -1, 0).normalized();  // 45° off -up, towards +x
  const Vec3 on_12(0.5f, 0, 0.5f);
  // Inactive edge: the face normal (negated: the normal points towards the triangle).
  EXPECT_EQ(active_edge_normal(k_v0, k_v1, k_v2, k_active_edge_01, k_up, on_12, sideways, cone),
            -k_up);
  // Active edge: kept.
  EXPECT_EQ(active_edge_normal(k_v0, k_v1, k_v2, k_active_edge_12, k_up, on_12, sideways, cone),
            sideways);
  // Within the cone (2° off): kept even on an inactive edge.
  const Vec3 slight = Vec3(0.035f, -1, 0).normalized();
  EXPECT_EQ(active_edge_normal(k_v0, k_v1, k_v2, 0, k_up, on_12, slight, cone), slight);
  // All edges active: never touched.
  EXPECT_EQ(active_edge_normal(k_v0, k_v1, k_v2, k_active_edge_all, k_up, Vec3(0.2f, 0, 0.2f),
                               sideways, cone),
            sideways);
}

TEST(CollideTriangleFeature, SwappedWindingMovesTheEdgeBits) {
  EXPECT_EQ(swap_winding_edges(k_active_edge_01), k_active_edge_20);
  EXPECT_EQ(swap_winding_edges(k_active_edge_20), k_active_edge_01);
  EXPECT_EQ(swap_winding_edges(k_active_edge_12), k_active_edge_12);
  EXPECT_EQ(swap_winding_edges(k_active_edge_all), k_active_edge_all);
}

}  // namespace
}  // namespace collide_triangle_feature_test
}  // namespace atl
