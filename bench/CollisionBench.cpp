// Narrow-phase micro-benchmarks: collide_shapes for a resting box pair (a full manifold), a
// sphere and a box on a 100 k-triangle terrain mesh, and a sphere cast onto that terrain (the
// CCD query). Shapes are placed at seeded random spots, resting 1 cm deep in the surface, so
// runs on one machine compare like with like.

#include <benchmark/benchmark.h>

#include <vector>

#include "atoll/collision/narrowphase/CollideShapes.h"
#include "atoll/collision/narrowphase/ShapeCast.h"
#include "atoll/core/Random.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/shape/TriangleMeshShape.h"

namespace atl {
namespace {

constexpr uint32_t k_cells = 224;  // 224² cells × 2 = 100 352 triangles
constexpr float k_spacing = 0.5f;
constexpr int k_num_placements = 256;
constexpr float k_depth = 0.01f;

Ref<Shape> terrain() {
  TriangleMeshShapeSettings settings;
  Random random(99);
  for (uint32_t j = 0; j <= k_cells; ++j)
    for (uint32_t i = 0; i <= k_cells; ++i)
      settings.vertices.push_back({static_cast<float>(i) * k_spacing, random.uniform(-0.2f, 0.2f),
                                   static_cast<float>(j) * k_spacing});
  const auto vertex = [](uint32_t i, uint32_t j) { return j * (k_cells + 1) + i; };
  for (uint32_t j = 0; j < k_cells; ++j) {
    for (uint32_t i = 0; i < k_cells; ++i) {
      settings.triangles.push_back({{vertex(i, j), vertex(i, j + 1), vertex(i + 1, j + 1)}, 0});
      settings.triangles.push_back({{vertex(i, j), vertex(i + 1, j + 1), vertex(i + 1, j)}, 0});
    }
  }
  return settings.create().value();
}

/// Transforms of a shape whose lowest point is `bottom` (m below its origin), resting k_depth
/// deep on the terrain at random spots with random yaw.
std::vector<Mat44> placements(const Shape& mesh, float bottom) {
  Random random(3);
  const float size = static_cast<float>(k_cells) * k_spacing;
  std::vector<Mat44> result;
  while (result.size() < k_num_placements) {
    const Vec3 top(random.uniform(2, size - 2), 10, random.uniform(2, size - 2));
    RayCastResult hit;
    if (!mesh.cast_ray({top, Vec3(0, -20, 0)}, SubShapeIDCreator(), hit)) continue;
    const Vec3 ground = top + Vec3(0, -20, 0) * hit.fraction;
    result.push_back(
        Mat44::rotation_translation(Quat::rotation(Vec3::axis_y(), random.uniform(-k_pi, k_pi)),
                                    ground + Vec3(0, bottom - k_depth, 0)));
  }
  return result;
}

void BM_CollideBoxBoxManifold(benchmark::State& state) {
  const BoxShape box(Vec3(0.5f, 0.5f, 0.5f));
  const BoxShape ground(Vec3(5, 0.5f, 5));
  const Mat44 ground_transform = Mat44::translation(Vec3(0, -0.5f, 0));
  const Mat44 transform = Mat44::rotation_translation(Quat::rotation(Vec3::axis_y(), 0.3f),
                                                      Vec3(0.2f, 0.5f - k_depth, 0.1f));
  const CollideShapeSettings settings;
  AllContactsCollector collector;
  int64_t points = 0;
  for (auto _ : state) {
    collector.manifolds.clear();
    (void)collide_shapes(box, transform, ground, ground_transform, settings, collector);
    points += static_cast<int64_t>(collector.manifolds[0].points_on_1.size());
  }
  benchmark::DoNotOptimize(points);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CollideBoxBoxManifold);

// Shape resting on the terrain at k_num_placements spots; items = collide_shapes calls.
void collide_on_terrain(benchmark::State& state, const Shape& shape, float bottom) {
  const Ref<Shape> mesh = terrain();
  const std::vector<Mat44> transforms = placements(*mesh, bottom);
  const CollideShapeSettings settings;
  AllContactsCollector collector;
  int64_t manifolds = 0;
  for (auto _ : state) {
    for (const Mat44& transform : transforms) {
      collector.manifolds.clear();
      (void)collide_shapes(shape, transform, *mesh, Mat44(), settings, collector);
      manifolds += static_cast<int64_t>(collector.manifolds.size());
    }
  }
  state.SetItemsProcessed(state.iterations() * k_num_placements);
  state.counters["manifolds_per_call"] =
      static_cast<double>(manifolds) / static_cast<double>(state.iterations() * k_num_placements);
}

void BM_CollideSphereMesh100k(benchmark::State& state) {
  const SphereShape sphere(0.5f);
  collide_on_terrain(state, sphere, 0.5f);
}
BENCHMARK(BM_CollideSphereMesh100k);

void BM_CollideBoxMesh100k(benchmark::State& state) {
  const BoxShape box(Vec3(0.5f, 0.5f, 0.5f));
  collide_on_terrain(state, box, 0.5f);
}
BENCHMARK(BM_CollideBoxMesh100k);

void BM_CastSphereMesh100k(benchmark::State& state) {
  const Ref<Shape> mesh = terrain();
  const SphereShape sphere(0.3f);
  // Falling 3 m from 2 m above the surface, with some sideways motion.
  std::vector<Mat44> starts = placements(*mesh, 0.3f);
  for (Mat44& start : starts) start.set_translation(start.translation() + Vec3(0, 2, 0));
  const ShapeCastSettings settings;
  int64_t hits = 0;
  for (auto _ : state) {
    for (const Mat44& start : starts) {
      ShapeCastResult result;
      const Result<bool> hit =
          cast_shape(sphere, start, Vec3(0.5f, -3, 0.2f), *mesh, Mat44(), settings, result);
      hits += hit.ok() && *hit ? 1 : 0;
    }
  }
  state.SetItemsProcessed(state.iterations() * k_num_placements);
  state.counters["hit_ratio"] =
      static_cast<double>(hits) / static_cast<double>(state.iterations() * k_num_placements);
}
BENCHMARK(BM_CastSphereMesh100k);

}  // namespace
}  // namespace atl
