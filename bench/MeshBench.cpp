// Triangle mesh micro-benchmarks: building the BVH and active edges of a 100 k-triangle mesh,
// and closest-hit ray casts against it. The mesh is a 224 × 224-cell terrain (100 352
// triangles) with random heights; rays are random segments through its bounds. Everything is
// seeded, so runs on one machine compare like with like.

#include <benchmark/benchmark.h>

#include <vector>

#include "atoll/core/Random.h"
#include "atoll/shape/HeightFieldShape.h"
#include "atoll/shape/TriangleMeshShape.h"

namespace atl {
namespace {

constexpr uint32_t k_cells = 224;
constexpr float k_spacing = 0.5f;
constexpr int k_num_rays = 1024;

TriangleMeshShapeSettings terrain_settings() {
  TriangleMeshShapeSettings settings;
  Random random(2024);
  for (uint32_t j = 0; j <= k_cells; ++j)
    for (uint32_t i = 0; i <= k_cells; ++i)
      settings.vertices.push_back({static_cast<float>(i) * k_spacing, random.uniform(-1.0f, 1.0f),
                                   static_cast<float>(j) * k_spacing});
  auto vertex = [](uint32_t i, uint32_t j) { return j * (k_cells + 1) + i; };
  for (uint32_t j = 0; j < k_cells; ++j) {
    for (uint32_t i = 0; i < k_cells; ++i) {
      settings.triangles.push_back({{vertex(i, j), vertex(i, j + 1), vertex(i + 1, j + 1)}, 0});
      settings.triangles.push_back({{vertex(i, j), vertex(i + 1, j + 1), vertex(i + 1, j)}, 0});
    }
  }
  return settings;
}

// Half of the rays fall steeply onto the terrain (the common "what is below me" query), half
// cross it at a shallow angle over a long distance (line of sight).
std::vector<RayCast> random_rays() {
  Random random(7);
  const float size = static_cast<float>(k_cells) * k_spacing;
  std::vector<RayCast> rays;
  for (int k = 0; k < k_num_rays; ++k) {
    const Vec3 origin(random.uniform(0, size), random.uniform(1.5f, 5.0f), random.uniform(0, size));
    Vec3 direction;
    if (k % 2 == 0)
      direction = Vec3(random.uniform(-1, 1), -10.0f, random.uniform(-1, 1));
    else
      direction = Vec3(random.uniform(-size, size), random.uniform(-3.0f, -1.0f),
                       random.uniform(-size, size));
    rays.push_back({origin, direction});
  }
  return rays;
}

void BM_MeshBuild100k(benchmark::State& state) {
  const TriangleMeshShapeSettings settings = terrain_settings();
  for (auto _ : state) {
    auto mesh = settings.create();
    benchmark::DoNotOptimize(mesh);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(settings.triangles.size()));
}
BENCHMARK(BM_MeshBuild100k)->Unit(benchmark::kMillisecond);

void BM_MeshRayCast100k(benchmark::State& state) {
  const Ref<Shape> mesh = terrain_settings().create().value();
  const std::vector<RayCast> rays = random_rays();
  int64_t hits = 0;
  for (auto _ : state) {
    for (const RayCast& ray : rays) {
      RayCastResult hit;
      hits += mesh->cast_ray(ray, SubShapeIDCreator(), hit) ? 1 : 0;
    }
  }
  benchmark::DoNotOptimize(hits);
  state.SetItemsProcessed(state.iterations() * k_num_rays);
  state.counters["hit_ratio"] =
      static_cast<double>(hits) / static_cast<double>(state.iterations() * k_num_rays);
}
BENCHMARK(BM_MeshRayCast100k);

void BM_HeightFieldRayCast100k(benchmark::State& state) {
  // The same terrain as a height field, for comparing the grid walk with the mesh's BVH.
  const TriangleMeshShapeSettings mesh = terrain_settings();
  HeightFieldShapeSettings settings;
  settings.sample_count = k_cells + 1;
  settings.scale = Vec3(k_spacing, 1.0f, k_spacing);
  for (const Float3& v : mesh.vertices) settings.heights.push_back(v.y);
  const Ref<Shape> height_field = settings.create().value();
  const std::vector<RayCast> rays = random_rays();
  int64_t hits = 0;
  for (auto _ : state) {
    for (const RayCast& ray : rays) {
      RayCastResult hit;
      hits += height_field->cast_ray(ray, SubShapeIDCreator(), hit) ? 1 : 0;
    }
  }
  benchmark::DoNotOptimize(hits);
  state.SetItemsProcessed(state.iterations() * k_num_rays);
  state.counters["hit_ratio"] =
      static_cast<double>(hits) / static_cast<double>(state.iterations() * k_num_rays);
}
BENCHMARK(BM_HeightFieldRayCast100k);

}  // namespace
}  // namespace atl
