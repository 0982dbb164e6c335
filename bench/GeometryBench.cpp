// Micro-benchmarks of the convex-convex queries the narrowphase runs per body pair.

#include <benchmark/benchmark.h>

#include "atoll/geometry/EPA.h"

namespace {

using namespace atl;

const AABoxConvex k_unit_box{AABox(Vec3(-1, -1, -1), Vec3(1, 1, 1))};

/// B turned about a skew axis and placed `offset` from A (an axis-aligned unit box).
Mat44 pose_b(const Vec3& offset) {
  return Mat44::rotation_translation(Quat::rotation(Vec3(1, 2, 3).normalized(), 0.7f), offset);
}

void BM_GJKClosestPointsBoxBoxSeparated(benchmark::State& state) {
  const TransformedConvex b(pose_b(Vec3(2.9f, 0.4f, 0.3f)), k_unit_box);
  GJKClosestPoint gjk;
  for (auto _ : state) {
    Vec3 v = Vec3::zero(), pa, pb;
    benchmark::DoNotOptimize(gjk.closest_points(k_unit_box, b, 1e-4f, k_float_max, v, pa, pb));
    benchmark::DoNotOptimize(pa);
  }
}
BENCHMARK(BM_GJKClosestPointsBoxBoxSeparated);

void BM_GJKIntersectsBoxBox(benchmark::State& state) {
  // Alternate an overlapping and a separated pair so both exits are measured.
  const TransformedConvex near(pose_b(Vec3(2.2f, 0.4f, 0.3f)), k_unit_box);
  const TransformedConvex far(pose_b(Vec3(3.5f, 0.4f, 0.3f)), k_unit_box);
  GJKClosestPoint gjk;
  for (auto _ : state) {
    Vec3 v = Vec3::zero();
    benchmark::DoNotOptimize(gjk.intersects(k_unit_box, near, 1e-4f, v));
    v = Vec3::zero();
    benchmark::DoNotOptimize(gjk.intersects(k_unit_box, far, 1e-4f, v));
  }
}
BENCHMARK(BM_GJKIntersectsBoxBox);

void BM_EPAPenetrationBoxBox(benchmark::State& state) {
  const TransformedConvex b(pose_b(Vec3(1.9f, 0.4f, 0.3f)), k_unit_box);
  const AddConvexRadius<AABoxConvex> a_full(k_unit_box, 0.0f);
  const AddConvexRadius<TransformedConvex<AABoxConvex>> b_full(b, 0.0f);
  EPAPenetrationDepth epa;
  for (auto _ : state) {
    Vec3 v = Vec3::zero(), pa, pb;
    benchmark::DoNotOptimize(epa.get_penetration_depth(k_unit_box, a_full, 0.0f, b, b_full, 0.0f,
                                                       1e-4f, 1e-4f, v, pa, pb));
    benchmark::DoNotOptimize(pa);
  }
}
BENCHMARK(BM_EPAPenetrationBoxBox);

}  // namespace
