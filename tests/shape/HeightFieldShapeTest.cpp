#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "atoll/core/Random.h"
#include "atoll/geometry/RayIntersections.h"
#include "atoll/shape/HeightFieldShape.h"

namespace atl {
namespace height_field_shape_test {
namespace {

constexpr float k_hole = HeightFieldShapeSettings::k_no_collision;

template <class F>
HeightFieldShapeSettings settings_from(uint32_t n, const Vec3& offset, const Vec3& scale,
                                       F&& height) {
  HeightFieldShapeSettings settings;
  settings.sample_count = n;
  settings.offset = offset;
  settings.scale = scale;
  for (uint32_t z = 0; z < n; ++z)
    for (uint32_t x = 0; x < n; ++x) settings.heights.push_back(height(x, z));
  return settings;
}

Ref<HeightFieldShape> make(const HeightFieldShapeSettings& settings) {
  auto result = settings.create_height_field();
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message());
  return result.value();
}

uint32_t pop_index(const HeightFieldShape& shape, SubShapeID id) {
  SubShapeID rest;
  return id.pop(shape.sub_shape_id_bits(), rest);
}

// Closest hit over every triangle, the reference for the grid walk.
float brute_force_ray(const HeightFieldShape& shape, const Vec3& origin, const Vec3& direction) {
  float best = 1.0f + k_float_epsilon;
  for (uint32_t z = 0; z < shape.cell_count(); ++z)
    for (uint32_t x = 0; x < shape.cell_count(); ++x)
      for (uint32_t which = 0; which < 2; ++which) {
        Vec3 v[3];
        if (shape.triangle_vertices(x, z, which, v))
          best = std::min(best, ray_triangle(origin, direction, v[0], v[1], v[2]));
      }
  return best;
}

TEST(HeightFieldShape, FlatRayCast) {
  Ref<HeightFieldShape> shape = make(
      settings_from(5, Vec3(-2, 1, -2), Vec3(1, 1, 1), [](uint32_t, uint32_t) { return 0.0f; }));
  EXPECT_EQ(shape->type(), ShapeType::HeightField);
  EXPECT_EQ(shape->sub_type(), ShapeSubType::HeightField);
  EXPECT_EQ(shape->local_bounds(), AABox(Vec3(-2, 1, -2), Vec3(2, 1, 2)));
  EXPECT_EQ(shape->mass_properties().mass, 0.0f);
  EXPECT_EQ(shape->volume(), 0.0f);
  EXPECT_FALSE(shape->collide_point(Vec3(0, 0, 0)));
  EXPECT_EQ(shape->num_triangles(), 32u);
  EXPECT_EQ(shape->sub_shape_id_bits(), sub_shape_id_bits(32));

  RayCastResult hit;
  ASSERT_TRUE(shape->cast_ray({Vec3(0.3f, 6, 0.6f), Vec3(0, -10, 0)}, {}, hit));
  EXPECT_FLOAT_EQ(hit.fraction, 0.5f);
  // Local grid point (2.3, 2.6): cell (2, 2), above the diagonal (z ≥ x) → triangle 0.
  EXPECT_EQ(pop_index(*shape, hit.sub_shape_id), 2u * (2 * 4 + 2) + 0);
  EXPECT_TRUE(shape->surface_normal(hit.sub_shape_id, Vec3()).is_close(Vec3(0, 1, 0)));
  EXPECT_EQ(shape->material_index(hit.sub_shape_id), 0u);

  RayCastResult other;
  ASSERT_TRUE(shape->cast_ray({Vec3(0.6f, 0, 0.3f), Vec3(0, 2, 0)}, {}, other));  // from below
  EXPECT_FLOAT_EQ(other.fraction, 0.5f);
  EXPECT_EQ(pop_index(*shape, other.sub_shape_id), 2u * (2 * 4 + 2) + 1);

  RayCastResult miss;
  EXPECT_FALSE(shape->cast_ray({Vec3(2.5f, 6, 0), Vec3(0, -10, 0)}, {}, miss));  // beside
  EXPECT_FALSE(shape->cast_ray({Vec3(0, 6, 0), Vec3(0, -4, 0)}, {}, miss));      // short
  EXPECT_FALSE(shape->cast_ray({Vec3(-5, 2, 0), Vec3(10, 0, 0)}, {}, miss));     // above
  // Grazing along the surface's plane is parallel to every triangle: no hit.
  EXPECT_FALSE(shape->cast_ray({Vec3(-5, 1, 0.3f), Vec3(10, 0, 0)}, {}, miss));
}

TEST(HeightFieldShape, SlopedRayCastAndNormals) {
  // Height = 0.5·x in grid units, scaled: a plane rising 0.5·2/0.5 = 2 m per m along x.
  const Vec3 offset(10, -3, 20), scale(0.5f, 2.0f, 0.25f);
  Ref<HeightFieldShape> shape =
      make(settings_from(33, offset, scale, [](uint32_t x, uint32_t) { return 0.5f * x; }));
  const Vec3 expected_normal = Vec3(-2, 1, 0).normalized();
  Random random(3);
  for (int k = 0; k < 500; ++k) {
    const float gx = random.uniform(0, 32), gz = random.uniform(0, 32);
    const float x = offset.x() + scale.x() * gx, z = offset.z() + scale.z() * gz;
    const float y = offset.y() + scale.y() * 0.5f * gx;
    RayCastResult hit;
    ASSERT_TRUE(shape->cast_ray({Vec3(x, 50, z), Vec3(0, -100, 0)}, {}, hit));
    EXPECT_NEAR(50.0f - 100.0f * hit.fraction, y, 1e-3f);
    EXPECT_TRUE(shape->surface_normal(hit.sub_shape_id, Vec3()).is_close(expected_normal, 1e-10f));
  }
  // Every interior edge of a plane is flat: only the border is active.
  for (uint32_t z = 0; z < shape->cell_count(); ++z)
    for (uint32_t x = 0; x < shape->cell_count(); ++x) {
      EXPECT_EQ(shape->active_edges(x, z, 0),
                (x == 0 ? k_active_edge_01 : 0) | (z == 31 ? k_active_edge_12 : 0));
      EXPECT_EQ(shape->active_edges(x, z, 1),
                (x == 31 ? k_active_edge_12 : 0) | (z == 0 ? k_active_edge_20 : 0));
    }
}

TEST(HeightFieldShape, GridWalkMatchesBruteForce) {
  Random random(11);
  HeightFieldShapeSettings settings =
      settings_from(24, Vec3(-6, 0, -3), Vec3(0.5f, 1.5f, 0.75f), [&](uint32_t, uint32_t) {
        return random.next_float() < 0.05f ? k_hole : random.uniform(-1, 1);
      });
  Ref<HeightFieldShape> shape = make(settings);
  const AABox b = shape->local_bounds();
  int hits = 0;
  for (int k = 0; k < 3000; ++k) {
    // Mix of long rays from outside, rays starting inside, near-horizontal and axis-parallel.
    const Vec3 origin(random.uniform(b.min.x() - 3, b.max.x() + 3), random.uniform(-4, 4),
                      random.uniform(b.min.z() - 3, b.max.z() + 3));
    Vec3 direction(random.uniform(-30, 30), random.uniform(-8, 8), random.uniform(-30, 30));
    switch (k % 6) {
      case 1:
        direction.set_y(direction.y() * 0.01f);
        break;
      case 2:
        direction = Vec3(0, direction.y(), 0);
        break;
      case 3:
        direction.set_x(0);
        break;
      case 4:
        direction.set_z(0);
        break;
      default:
        break;
    }
    const float expected = brute_force_ray(*shape, origin, direction);
    RayCastResult hit;
    const bool found = shape->cast_ray({origin, direction}, {}, hit);
    ASSERT_EQ(found, expected <= 1.0f) << k;
    if (!found) continue;
    ++hits;
    EXPECT_EQ(hit.fraction, expected) << k;
    Vec3 v[3];
    shape->triangle(hit.sub_shape_id, v);
    EXPECT_EQ(ray_triangle(origin, direction, v[0], v[1], v[2]), expected) << k;
  }
  EXPECT_GT(hits, 500);
}

TEST(HeightFieldShape, HolesHaveNoTriangles) {
  // A hole at sample (2, 2) removes all 6 triangles touching it (the cells around it share it
  // as a corner: 2 triangles in each of cells (1,1) and (2,2), 1 in each of (1,2) and (2,1)).
  Ref<HeightFieldShape> shape =
      make(settings_from(5, Vec3(), Vec3(1, 1, 1),
                         [](uint32_t x, uint32_t z) { return x == 2 && z == 2 ? k_hole : 0.0f; }));
  EXPECT_TRUE(shape->is_hole(2, 2));
  RayCastResult hit;
  EXPECT_FALSE(shape->cast_ray({Vec3(2.1f, 1, 2.2f), Vec3(0, -2, 0)}, {}, hit));
  EXPECT_FALSE(shape->cast_ray({Vec3(1.5f, 1, 1.6f), Vec3(0, -2, 0)}, {}, hit));
  // Cell (1, 2) keeps its triangle 0 (corners (1,2) (1,3) (2,3)); its triangle 1 is gone.
  ASSERT_TRUE(shape->cast_ray({Vec3(1.2f, 1, 2.7f), Vec3(0, -2, 0)}, {}, hit));
  EXPECT_EQ(pop_index(*shape, hit.sub_shape_id), 2u * (2 * 4 + 1));
  EXPECT_FALSE(shape->cast_ray({Vec3(1.7f, 1, 2.2f), Vec3(0, -2, 0)}, {}, hit));

  std::vector<uint32_t> found;
  shape->collect_triangles(AABox(Vec3(-1, -1, -1), Vec3(5, 1, 5)),
                           [&](const Vec3&, const Vec3&, const Vec3&, uint8_t, SubShapeID id) {
                             found.push_back(pop_index(*shape, id));
                           });
  EXPECT_EQ(found.size(), 32u - 6u);
  // Edges on the rim of the hole are active: triangle 0 of cell (1, 2) lost its neighbour
  // across the diagonal (edge d–a, slot 2); its neighbours across x = 1 and z = 3 remain.
  EXPECT_EQ(shape->active_edges(1, 2, 0), k_active_edge_20);
}

TEST(HeightFieldShape, RidgeEdgesAreActive) {
  // Height = |x − 4|: a V-shaped valley along z at x = 4, bending by 90°.
  Ref<HeightFieldShape> shape =
      make(settings_from(9, Vec3(), Vec3(1, 1, 1), [](uint32_t x, uint32_t) {
        return std::fabs(static_cast<float>(x) - 4.0f);
      }));
  for (uint32_t z = 0; z < 8; ++z) {
    // The valley line x = 4 is edge d–b of triangle 1 in cell 3 and edge a–c of triangle 0 in
    // cell 4.
    EXPECT_NE(shape->active_edges(3, z, 1) & k_active_edge_12, 0);
    EXPECT_NE(shape->active_edges(4, z, 0) & k_active_edge_01, 0);
    // x = 2 is flat.
    EXPECT_EQ(shape->active_edges(1, z, 1) & k_active_edge_12, 0);
    EXPECT_EQ(shape->active_edges(2, z, 0) & k_active_edge_01, 0);
  }
}

TEST(HeightFieldShape, CollectTrianglesMatchesBruteForce) {
  Random random(5);
  HeightFieldShapeSettings settings =
      settings_from(30, Vec3(-3, 0.5f, 2), Vec3(0.4f, 0.8f, 0.6f), [&](uint32_t, uint32_t) {
        return random.next_float() < 0.03f ? k_hole : random.uniform(-2, 2);
      });
  Ref<HeightFieldShape> shape = make(settings);
  const SubShapeIDCreator parent = SubShapeIDCreator().push(1, 3);
  size_t total = 0;
  for (int k = 0; k < 300; ++k) {
    const Vec3 center(random.uniform(-5, 11), random.uniform(-2, 3), random.uniform(0, 22));
    const Vec3 half(random.uniform(0, 2), random.uniform(0, 1), random.uniform(0, 2));
    const AABox box(center - half, center + half);
    std::vector<uint32_t> expected;
    for (uint32_t z = 0; z < shape->cell_count(); ++z)
      for (uint32_t x = 0; x < shape->cell_count(); ++x)
        for (uint32_t which = 0; which < 2; ++which) {
          Vec3 v[3];
          if (!shape->triangle_vertices(x, z, which, v)) continue;
          AABox tb(v[0], v[0]);
          tb.encapsulate(v[1]);
          tb.encapsulate(v[2]);
          if (tb.overlaps(box)) expected.push_back(2 * (z * shape->cell_count() + x) + which);
        }
    std::vector<uint32_t> found;
    shape->collect_triangles(
        box,
        [&](const Vec3& v0, const Vec3& v1, const Vec3& v2, uint8_t active, SubShapeID id) {
          SubShapeID rest;
          ASSERT_EQ(id.pop(3, rest), 1u);
          const uint32_t t = pop_index(*shape, rest);
          Vec3 v[3];
          shape->triangle(rest, v);
          EXPECT_TRUE(v0 == v[0] && v1 == v[1] && v2 == v[2]);
          uint32_t x, z, which;
          shape->triangle_cell(rest, x, z, which);
          EXPECT_EQ(t, 2 * (z * shape->cell_count() + x) + which);
          EXPECT_EQ(active, shape->active_edges(x, z, which));
          found.push_back(t);
        },
        parent);
    std::sort(found.begin(), found.end());
    EXPECT_EQ(found, expected) << k;
    total += found.size();
  }
  EXPECT_GT(total, 1000u);
}

TEST(HeightFieldShape, MaterialIndicesPerCell) {
  HeightFieldShapeSettings settings =
      settings_from(4, Vec3(), Vec3(1, 1, 1), [](uint32_t, uint32_t) { return 0.0f; });
  for (uint32_t cell = 0; cell < 9; ++cell) settings.material_indices.push_back(100 + cell);
  Ref<HeightFieldShape> shape = make(settings);
  RayCastResult hit;
  ASSERT_TRUE(shape->cast_ray({Vec3(2.5f, 1, 1.2f), Vec3(0, -2, 0)}, {}, hit));
  EXPECT_EQ(shape->material_index(hit.sub_shape_id), 100u + 1 * 3 + 2);
}

std::string create_error(const HeightFieldShapeSettings& settings) {
  auto result = settings.create();
  return result.ok() ? std::string("ok") : std::string(result.error().message());
}

TEST(HeightFieldShape, ValidationNamesTheField) {
  HeightFieldShapeSettings settings;
  settings.sample_count = 1;
  EXPECT_EQ(create_error(settings), "HeightFieldShapeSettings.sample_count: must be >= 2, got 1");
  settings.sample_count = 3;
  settings.heights.assign(8, 0.0f);
  EXPECT_EQ(create_error(settings),
            "HeightFieldShapeSettings.heights: must hold sample_count^2 = 9 values, got 8");
  settings.heights.assign(9, 0.0f);
  EXPECT_EQ(create_error(settings), "ok");
  settings.scale = Vec3(1, 0, 1);
  EXPECT_EQ(create_error(settings), "HeightFieldShapeSettings.scale.y: must be > 0, got 0");
  settings.scale = Vec3(1, 1, -2);
  EXPECT_EQ(create_error(settings), "HeightFieldShapeSettings.scale.z: must be > 0, got -2");
  settings.scale = Vec3(1, 1, 1);
  settings.offset = Vec3(0, 0, std::nanf(""));
  EXPECT_EQ(create_error(settings), "HeightFieldShapeSettings.offset.z: must be finite, got nan");
  settings.offset = Vec3();
  settings.heights[4] = std::nanf("");
  EXPECT_EQ(create_error(settings),
            "HeightFieldShapeSettings.heights[4]: must be finite or k_no_collision, got nan");
  settings.heights[4] = -k_float_max / 2;
  settings.scale = Vec3(1, 4, 1);
  EXPECT_EQ(create_error(settings),
            "HeightFieldShapeSettings.heights[4]: offset.y + scale.y * height overflows a float, "
            "got -1.7014117e+38");
  settings.scale = Vec3(1, 1, 1);
  settings.heights[4] = 0;
  settings.material_indices = {1, 2, 3};
  EXPECT_EQ(create_error(settings),
            "HeightFieldShapeSettings.material_indices: must be empty or hold (sample_count - "
            "1)^2 = 4 values, got 3");
  settings.material_indices.clear();
  settings.active_edge_cos_threshold = -2;
  EXPECT_EQ(create_error(settings),
            "HeightFieldShapeSettings.active_edge_cos_threshold: must be in [-1, 1], got -2");
  settings.active_edge_cos_threshold = 0.5f;
  // A single solid sample makes no triangle.
  settings.heights.assign(9, k_hole);
  settings.heights[4] = 0;
  EXPECT_EQ(create_error(settings),
            "HeightFieldShapeSettings.heights: holes leave no triangle (every cell touches a "
            "hole)");
}

// Counts the rays cast straight down through each sample point that miss the height field.
int vertical_misses_through_samples(const HeightFieldShape& shape) {
  int misses = 0;
  for (uint32_t z = 0; z < shape.sample_count(); ++z)
    for (uint32_t x = 0; x < shape.sample_count(); ++x) {
      const Vec3 p = shape.sample_position(x, z);
      RayCastResult hit;
      if (!shape.cast_ray({Vec3(p.x(), shape.local_bounds().max.y() + 1.0f, p.z()),
                           Vec3(0, -(2.0f * shape.local_bounds().extent().y() + 2.0f), 0)},
                          {}, hit))
        ++misses;
    }
  return misses;
}

// Regression: vertical rays through a height field's sample points missed. Symptom: rays cast
// straight down through the 900 sample points of a 30 × 30 height field missed 9 (plane) and
// 4 (random heights); the same triangles as a mesh missed none, a 1e-4 m shift hit. Here,
// before the fix: 184 of 21 600 on the flat and tilted planes below and 161 of 10 800 on random
// heights (all rays exactly on triangle edges or vertices). Cause: ray_triangle rejected a ray
// exactly on an edge when the rounding of the barycentric u, v or u + v fell just outside
// [0, 1]; the grid walk tests the one cell the ray lies in, so at a sample point only the 1-2
// triangles of that cell were tried (a mesh's BVH tries all 6 around an inner vertex, so one
// of them usually hit), and on the grid's rim no other triangle exists. Fix: ray_triangle
// accepts edge hits within 1e-6 of the barycentric coordinates. Reading now: 0 misses.
TEST(HeightFieldShape, VerticalRaysThroughSamplePointsAllHit) {
  Random random(3);
  int plane_misses = 0, random_misses = 0;
  for (const Vec3 scale : {Vec3(1, 1, 1), Vec3(0.37f, 0.8f, 0.61f), Vec3(2.3f, 1.7f, 0.9f)}) {
    for (const Vec3 offset : {Vec3(0, 0, 0), Vec3(-15, 0.3f, -15), Vec3(-5.3f, 2, -11.7f),
                              Vec3(1000.3f, 0, -2000.1f)}) {
      Ref<HeightFieldShape> flat =
          make(settings_from(30, offset, scale, [](uint32_t, uint32_t) { return 0.25f; }));
      Ref<HeightFieldShape> tilted =
          make(settings_from(30, offset, scale, [](uint32_t x, uint32_t z) {
            return 0.3f * static_cast<float>(x) - 0.7f * static_cast<float>(z);
          }));
      Ref<HeightFieldShape> bumpy = make(settings_from(
          30, offset, scale, [&](uint32_t, uint32_t) { return random.uniform(-1, 1); }));
      plane_misses +=
          vertical_misses_through_samples(*flat) + vertical_misses_through_samples(*tilted);
      random_misses += vertical_misses_through_samples(*bumpy);
    }
  }
  EXPECT_EQ(plane_misses, 0);
  EXPECT_EQ(random_misses, 0);
}

}  // namespace
}  // namespace height_field_shape_test
}  // namespace atl
