// A mesh whose triangles lie up to 6e38 m apart (a span that overflows float) builds and answers
// queries. Found by tests/fuzz's shapes target: such a span overflowed the BVH builder's centre
// extent to ∞, its bin scale to 0 and a triangle's bin to ∞ · 0 = NaN, converted to an integer
// (undefined behaviour, reported by UBSan). The fuzzer's input (corpus
// shapes/crash_mesh_bvh_bin_nan) reaches that conversion; this mesh, built by hand, did not
// under this build's UBSan, so it checks the outcome only.

#include <gtest/gtest.h>

#include "atoll/shape/TriangleMeshShape.h"

namespace atl {
namespace mesh_bvh_huge_span_test {

TEST(MeshBvhHugeSpan, BuildsAndAnswersRayCasts) {
  TriangleMeshShapeSettings settings;
  // 24 small triangles spread from −3e38 to 2.75e38 along x (more than a leaf holds), plus one at
  // the origin.
  for (int i = 0; i <= 24; ++i) {
    const float x = i == 24 ? 0.0f : 2.5e37f * float(i - 12);
    const uint32_t first = uint32_t(settings.vertices.size());
    settings.vertices.push_back(Float3{x, 0.0f, 0.0f});
    settings.vertices.push_back(Float3{x + 1.0f, 0.0f, 0.0f});
    settings.vertices.push_back(Float3{x, 0.0f, 1.0f});
    settings.triangles.push_back(IndexedTriangle{{first, first + 2, first + 1}, 0});
  }
  Result<Ref<Shape>> mesh = settings.create();
  if (!mesh) GTEST_SKIP() << "refused: " << mesh.error().message();
  RayCastResult hit;
  EXPECT_TRUE(mesh.value()->cast_ray({Vec3(0.25f, 1.0f, 0.25f), Vec3(0.0f, -2.0f, 0.0f)}, {}, hit));
  EXPECT_NEAR(hit.fraction, 0.5f, 1e-6f);
}

}  // namespace mesh_bvh_huge_span_test
}  // namespace atl
