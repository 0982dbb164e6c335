#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "atoll/core/Random.h"
#include "atoll/geometry/RayIntersections.h"
#include "atoll/shape/TriangleMeshShape.h"

namespace atl {
namespace triangle_mesh_shape_test {
namespace {

// Flat n × n grid of cells in the xz plane (y = 0), spacing `s`, normals +y. Cell (i, j) holds
// triangles 2·(j·n + i) (corners a c d) and 2·(j·n + i) + 1 (corners a d b), where a = (i, j),
// b = (i + 1, j), c = (i, j + 1), d = (i + 1, j + 1); the material of a triangle is its cell.
TriangleMeshShapeSettings grid_settings(uint32_t n, float s) {
  TriangleMeshShapeSettings settings;
  for (uint32_t j = 0; j <= n; ++j)
    for (uint32_t i = 0; i <= n; ++i)
      settings.vertices.push_back({static_cast<float>(i) * s, 0.0f, static_cast<float>(j) * s});
  auto vertex = [n](uint32_t i, uint32_t j) { return j * (n + 1) + i; };
  for (uint32_t j = 0; j < n; ++j) {
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t a = vertex(i, j), b = vertex(i + 1, j), c = vertex(i, j + 1),
                     d = vertex(i + 1, j + 1);
      const uint32_t cell = j * n + i;
      settings.triangles.push_back({{a, c, d}, cell});
      settings.triangles.push_back({{a, d, b}, cell});
    }
  }
  return settings;
}

Ref<TriangleMeshShape> make_mesh(const TriangleMeshShapeSettings& settings) {
  auto result = settings.create_mesh();
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message());
  return result.value();
}

// Unit cube [-1, 1]³ as 12 triangles wound counter-clockwise seen from outside; material of a
// triangle = its face (0: -x, 1: +x, 2: -y, 3: +y, 4: -z, 5: +z).
TriangleMeshShapeSettings cube_settings() {
  TriangleMeshShapeSettings settings;
  for (int i = 0; i < 8; ++i)
    settings.vertices.push_back(
        {(i & 1) ? 1.0f : -1.0f, (i & 2) ? 1.0f : -1.0f, (i & 4) ? 1.0f : -1.0f});
  for (uint32_t axis = 0; axis < 3; ++axis) {
    for (uint32_t side = 0; side < 2; ++side) {
      // The four corners with coordinate `axis` on this side, in a cycle around the face.
      const uint32_t bit = 1u << axis, u = 1u << ((axis + 1) % 3), v = 1u << ((axis + 2) % 3);
      const uint32_t base = side ? bit : 0;
      uint32_t quad[4] = {base, base | u, base | u | v, base | v};
      const Vec3 p0(settings.vertices[quad[0]]), p1(settings.vertices[quad[1]]),
          p2(settings.vertices[quad[2]]);
      Vec3 outward = Vec3::zero();
      outward.set_component(static_cast<int>(axis), side ? 1.0f : -1.0f);
      if ((p1 - p0).cross(p2 - p0).dot(outward) < 0.0f) std::swap(quad[1], quad[3]);
      const uint32_t material = 2 * axis + side;
      settings.triangles.push_back({{quad[0], quad[1], quad[2]}, material});
      settings.triangles.push_back({{quad[0], quad[2], quad[3]}, material});
    }
  }
  return settings;
}

uint32_t pop_index(const TriangleMeshShape& mesh, SubShapeID id) {
  SubShapeID rest;
  return id.pop(mesh.sub_shape_id_bits(), rest);
}

TEST(TriangleMeshShape, SingleTriangleRayCast) {
  TriangleMeshShapeSettings settings;
  settings.vertices = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}};
  settings.triangles = {{{0, 1, 2}, 7}};
  Ref<TriangleMeshShape> mesh = make_mesh(settings);
  EXPECT_EQ(mesh->type(), ShapeType::Mesh);
  EXPECT_EQ(mesh->sub_type(), ShapeSubType::TriangleMesh);
  EXPECT_EQ(mesh->local_bounds(), AABox(Vec3(0, 0, 0), Vec3(1, 0, 1)));
  EXPECT_EQ(mesh->mass_properties().mass, 0.0f);
  EXPECT_EQ(mesh->mass_properties().inertia, Mat44::zero());
  EXPECT_EQ(mesh->volume(), 0.0f);
  EXPECT_FALSE(mesh->collide_point(Vec3(0.2f, 0.0f, 0.2f)));
  EXPECT_EQ(mesh->active_edges(0), k_active_edge_all);

  RayCastResult hit;
  ASSERT_TRUE(mesh->cast_ray({Vec3(0.2f, 1.0f, 0.2f), Vec3(0, -2, 0)}, {}, hit));
  EXPECT_FLOAT_EQ(hit.fraction, 0.5f);
  EXPECT_EQ(pop_index(*mesh, hit.sub_shape_id), 0u);
  EXPECT_EQ(mesh->material_index(hit.sub_shape_id), 7u);
  EXPECT_TRUE(mesh->surface_normal(hit.sub_shape_id, Vec3()).is_close(Vec3(0, 1, 0)));

  // Back side hits too (double-sided).
  RayCastResult below;
  ASSERT_TRUE(mesh->cast_ray({Vec3(0.2f, -1.0f, 0.2f), Vec3(0, 4, 0)}, {}, below));
  EXPECT_FLOAT_EQ(below.fraction, 0.25f);
  // Misses: beside the triangle, too short, or already a closer hit.
  RayCastResult miss;
  EXPECT_FALSE(mesh->cast_ray({Vec3(0.8f, 1.0f, 0.8f), Vec3(0, -2, 0)}, {}, miss));
  EXPECT_FALSE(mesh->cast_ray({Vec3(0.2f, 1.0f, 0.2f), Vec3(0, -0.9f, 0)}, {}, miss));
  RayCastResult closer;
  closer.fraction = 0.4f;
  EXPECT_FALSE(mesh->cast_ray({Vec3(0.2f, 1.0f, 0.2f), Vec3(0, -2, 0)}, {}, closer));
  EXPECT_EQ(closer.fraction, 0.4f);

  // Under a parent level the mesh's index follows the parent's bits.
  const SubShapeIDCreator parent = SubShapeIDCreator().push(5, 3);
  RayCastResult nested;
  ASSERT_TRUE(mesh->cast_ray({Vec3(0.2f, 1.0f, 0.2f), Vec3(0, -2, 0)}, parent, nested));
  SubShapeID rest;
  EXPECT_EQ(nested.sub_shape_id.pop(3, rest), 5u);
  EXPECT_EQ(mesh->material_index(rest), 7u);
}

TEST(TriangleMeshShape, GridRayHitsTheTriangleUnderThePoint) {
  constexpr uint32_t n = 100;
  constexpr float s = 0.5f;
  Ref<TriangleMeshShape> mesh = make_mesh(grid_settings(n, s));
  EXPECT_EQ(mesh->num_triangles(), 2 * n * n);
  EXPECT_EQ(mesh->sub_shape_id_bits(), sub_shape_id_bits(2 * n * n));
  EXPECT_LE(mesh->bvh().depth(), ShapeBVH::k_max_depth);
  Random random(42);
  int tested = 0;
  for (int k = 0; k < 2000; ++k) {
    const float x = random.uniform(0.0f, n * s), z = random.uniform(0.0f, n * s);
    const uint32_t i = static_cast<uint32_t>(x / s), j = static_cast<uint32_t>(z / s);
    const float lx = x / s - static_cast<float>(i), lz = z / s - static_cast<float>(j);
    // Skip points on or next to a triangle edge, where either neighbour is a right answer.
    if (std::fabs(lx - lz) < 1e-3f || std::min({lx, lz, 1 - lx, 1 - lz}) < 1e-3f) continue;
    ++tested;
    RayCastResult hit;
    ASSERT_TRUE(mesh->cast_ray({Vec3(x, 3.0f, z), Vec3(0, -4, 0)}, {}, hit));
    EXPECT_FLOAT_EQ(hit.fraction, 0.75f);
    const uint32_t expected = 2 * (j * n + i) + (lz >= lx ? 0 : 1);
    EXPECT_EQ(pop_index(*mesh, hit.sub_shape_id), expected);
    EXPECT_EQ(mesh->material_index(hit.sub_shape_id), j * n + i);
  }
  EXPECT_GT(tested, 1900);
}

TEST(TriangleMeshShape, RayCastMatchesBruteForce) {
  // A bumpy grid plus random triangles: the BVH result must equal the closest of all tests.
  TriangleMeshShapeSettings settings = grid_settings(30, 1.0f);
  Random random(7);
  for (Float3& v : settings.vertices) v.y = random.uniform(-1.0f, 1.0f);
  for (int k = 0; k < 300; ++k) {
    const uint32_t base = static_cast<uint32_t>(settings.vertices.size());
    const Vec3 c(random.uniform(0, 30), random.uniform(-3, 3), random.uniform(0, 30));
    for (int v = 0; v < 3; ++v) {
      const Vec3 p = c + Vec3(random.uniform(-2, 2), random.uniform(-2, 2), random.uniform(-2, 2));
      settings.vertices.push_back(p.to_float3());
    }
    settings.triangles.push_back({{base, base + 1, base + 2}, 0});
  }
  Ref<TriangleMeshShape> mesh = make_mesh(settings);
  int hits = 0;
  for (int k = 0; k < 1000; ++k) {
    const Vec3 origin(random.uniform(-5, 35), random.uniform(-6, 6), random.uniform(-5, 35));
    const Vec3 direction(random.uniform(-40, 40), random.uniform(-10, 10), random.uniform(-40, 40));
    float best = 1.0f + k_float_epsilon;
    for (uint32_t t = 0; t < mesh->num_triangles(); ++t) {
      if (mesh->is_degenerate(t)) continue;
      Vec3 v[3];
      mesh->triangle_vertices(t, v);
      best = std::min(best, ray_triangle(origin, direction, v[0], v[1], v[2]));
    }
    RayCastResult hit;
    const bool found = mesh->cast_ray({origin, direction}, {}, hit);
    ASSERT_EQ(found, best <= 1.0f) << k;
    if (!found) continue;
    ++hits;
    EXPECT_EQ(hit.fraction, best) << k;
    Vec3 v[3];
    mesh->triangle(hit.sub_shape_id, v);
    EXPECT_EQ(ray_triangle(origin, direction, v[0], v[1], v[2]), best) << k;
  }
  EXPECT_GT(hits, 200);
}

TEST(TriangleMeshShape, ClosedBoxFromOutsideAndInside) {
  Ref<TriangleMeshShape> mesh = make_mesh(cube_settings());
  EXPECT_EQ(mesh->local_bounds(), AABox(Vec3(-1, -1, -1), Vec3(1, 1, 1)));
  // Every face's outward normal is its front face.
  for (uint32_t t = 0; t < mesh->num_triangles(); ++t) {
    const SubShapeID id = SubShapeIDCreator().push(t, mesh->sub_shape_id_bits()).id();
    Vec3 v[3];
    mesh->triangle(id, v);
    const Vec3 n = mesh->surface_normal(id, v[0]);
    EXPECT_GT(n.dot((v[0] + v[1] + v[2]) / 3.0f), 0.9f) << t;
  }

  RayCastResult hit;
  ASSERT_TRUE(mesh->cast_ray({Vec3(5, 0.3f, -0.2f), Vec3(-8, 0, 0)}, {}, hit));
  EXPECT_FLOAT_EQ(hit.fraction, 0.5f);
  EXPECT_EQ(mesh->material_index(hit.sub_shape_id), 1u);  // +x face
  EXPECT_TRUE(mesh->surface_normal(hit.sub_shape_id, Vec3(1, 0.3f, -0.2f)).is_close(Vec3(1, 0, 0)));

  // From inside the ray hits the far wall's back side: meshes are hollow.
  RayCastResult inside;
  ASSERT_TRUE(mesh->cast_ray({Vec3(0.1f, 0.2f, 0.3f), Vec3(0, 0, -2.6f)}, {}, inside));
  EXPECT_FLOAT_EQ(inside.fraction, 0.5f);
  EXPECT_EQ(mesh->material_index(inside.sub_shape_id), 4u);  // -z face
  EXPECT_FALSE(mesh->collide_point(Vec3(0.1f, 0.2f, 0.3f)));

  // Cube edges bend by 90°: active. Face diagonals are flat: inactive.
  for (uint32_t t = 0; t < mesh->num_triangles(); ++t) {
    Vec3 v[3];
    mesh->triangle_vertices(t, v);
    for (uint32_t e = 0; e < 3; ++e) {
      const Vec3 d = v[(e + 1) % 3] - v[e];
      const int non_zero = (d.x() != 0) + (d.y() != 0) + (d.z() != 0);
      const bool active = (mesh->active_edges(t) >> e) & 1u;
      EXPECT_EQ(active, non_zero == 1) << "triangle " << t << " edge " << e;
    }
  }
}

TEST(TriangleMeshShape, FlatGridInteriorEdgesInactiveBorderActive) {
  constexpr uint32_t n = 6;
  Ref<TriangleMeshShape> mesh = make_mesh(grid_settings(n, 1.0f));
  for (uint32_t j = 0; j < n; ++j) {
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t t0 = 2 * (j * n + i);
      // Triangle 0 (a c d): edge a–c on x = i, c–d on z = j + 1, d–a the diagonal.
      uint8_t expected0 = 0;
      if (i == 0) expected0 |= k_active_edge_01;
      if (j == n - 1) expected0 |= k_active_edge_12;
      // Triangle 1 (a d b): a–d the diagonal, d–b on x = i + 1, b–a on z = j.
      uint8_t expected1 = 0;
      if (i == n - 1) expected1 |= k_active_edge_12;
      if (j == 0) expected1 |= k_active_edge_20;
      EXPECT_EQ(mesh->active_edges(t0), expected0) << i << "," << j;
      EXPECT_EQ(mesh->active_edges(t0 + 1), expected1) << i << "," << j;
    }
  }
}

// Two triangles sharing the edge (0,0,0)–(0,0,1): one in the xz plane, the other rotated about
// that edge by `angle` (radians); positive angles fold it upwards (concave seen from +y).
TriangleMeshShapeSettings hinge_settings(float angle, bool share_vertices) {
  TriangleMeshShapeSettings settings;
  const Vec3 flap(-atl::cos(angle), atl::sin(angle), 0.0f);
  settings.vertices = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, flap.to_float3()};
  settings.triangles = {{{0, 1, 2}, 0}, {{0, 3, 1}, 0}};
  if (!share_vertices) {
    // A triangle soup: the second triangle has its own copies of the shared vertices.
    settings.vertices.push_back({0, 0, 0});
    settings.vertices.push_back({0, 0, 1});
    settings.triangles[1] = {{4, 3, 5}, 0};
  }
  return settings;
}

TEST(TriangleMeshShape, FoldedEdgesAreActiveFlatOnesNot) {
  for (bool share : {true, false}) {
    // 90° fold: active; 2° bend either way: inactive; 10° either way: active.
    struct Case {
      float degrees;
      bool active;
    };
    for (const Case& c : {Case{90, true}, Case{-90, true}, Case{2, false}, Case{-2, false},
                          Case{10, true}, Case{-10, true}, Case{0, false}}) {
      Ref<TriangleMeshShape> mesh = make_mesh(hinge_settings(degrees_to_radians(c.degrees), share));
      // Shared edge: slot 0 (v0–v1) of triangle 0; slot 2 (v2–v0) of triangle 1.
      EXPECT_EQ((mesh->active_edges(0) & k_active_edge_01) != 0, c.active) << c.degrees;
      EXPECT_EQ((mesh->active_edges(1) & k_active_edge_20) != 0, c.active) << c.degrees;
      // The other edges are boundary edges.
      EXPECT_EQ(mesh->active_edges(0) & (k_active_edge_12 | k_active_edge_20),
                k_active_edge_12 | k_active_edge_20);
      EXPECT_EQ(mesh->active_edges(1) & (k_active_edge_01 | k_active_edge_12),
                k_active_edge_01 | k_active_edge_12);
    }
  }
  // The threshold is a setting: with cos(20°), a 10° bend is flat.
  TriangleMeshShapeSettings settings = hinge_settings(degrees_to_radians(10), true);
  settings.active_edge_cos_threshold = atl::cos(degrees_to_radians(20));
  EXPECT_EQ(make_mesh(settings)->active_edges(0) & k_active_edge_01, 0);
}

TEST(TriangleMeshShape, NonManifoldEdgeIsActive) {
  TriangleMeshShapeSettings settings;
  settings.vertices = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {-1, 0, 0}, {1, 0.01f, 0}};
  // Three triangles on one edge, two of them nearly coplanar.
  settings.triangles = {{{0, 1, 2}, 0}, {{0, 3, 1}, 0}, {{1, 0, 4}, 0}};
  Ref<TriangleMeshShape> mesh = make_mesh(settings);
  EXPECT_NE(mesh->active_edges(0) & k_active_edge_01, 0);
  EXPECT_NE(mesh->active_edges(1) & k_active_edge_20, 0);
  EXPECT_NE(mesh->active_edges(2) & k_active_edge_01, 0);
}

TEST(TriangleMeshShape, CollectTrianglesMatchesBruteForce) {
  TriangleMeshShapeSettings settings = grid_settings(40, 0.5f);
  Random random(1234);
  for (Float3& v : settings.vertices) v.y = random.uniform(-0.5f, 0.5f);
  Ref<TriangleMeshShape> mesh = make_mesh(settings);
  const SubShapeIDCreator parent = SubShapeIDCreator().push(2, 2);
  size_t total = 0;
  for (int k = 0; k < 300; ++k) {
    const Vec3 center(random.uniform(-2, 22), random.uniform(-1, 1), random.uniform(-2, 22));
    const Vec3 half(random.uniform(0, 3), random.uniform(0, 0.6f), random.uniform(0, 3));
    const AABox box(center - half, center + half);
    std::vector<uint32_t> expected;
    for (uint32_t t = 0; t < mesh->num_triangles(); ++t) {
      Vec3 v[3];
      mesh->triangle_vertices(t, v);
      if (TriangleMeshShape::triangle_bounds(v).overlaps(box)) expected.push_back(t);
    }
    std::vector<uint32_t> found;
    mesh->collect_triangles(
        box,
        [&](const Vec3& v0, const Vec3& v1, const Vec3& v2, uint8_t active, SubShapeID id) {
          SubShapeID rest;
          ASSERT_EQ(id.pop(2, rest), 2u);
          const uint32_t t = pop_index(*mesh, rest);
          Vec3 v[3];
          mesh->triangle_vertices(t, v);
          EXPECT_TRUE(v0 == v[0] && v1 == v[1] && v2 == v[2]);
          EXPECT_EQ(active, mesh->active_edges(t));
          found.push_back(t);
        },
        parent);
    std::sort(found.begin(), found.end());
    EXPECT_EQ(found, expected) << k;
    total += found.size();
  }
  EXPECT_GT(total, 1000u);
}

TEST(TriangleMeshShape, DegenerateTrianglesAreDroppedButKeepTheirIndex) {
  TriangleMeshShapeSettings settings;
  settings.vertices = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}};
  settings.triangles = {{{2, 3, 4}, 1}, {{0, 1, 2}, 2}, {{0, 0, 1}, 3}};
  Ref<TriangleMeshShape> mesh = make_mesh(settings);
  EXPECT_EQ(mesh->degenerate_triangles_removed(), 2u);
  EXPECT_EQ(mesh->num_triangles(), 3u);
  EXPECT_TRUE(mesh->is_degenerate(0));
  EXPECT_FALSE(mesh->is_degenerate(1));
  EXPECT_TRUE(mesh->is_degenerate(2));
  std::vector<uint32_t> found;
  mesh->collect_triangles(AABox(Vec3::replicate(-10), Vec3::replicate(10)),
                          [&](const Vec3&, const Vec3&, const Vec3&, uint8_t, SubShapeID id) {
                            found.push_back(pop_index(*mesh, id));
                          });
  EXPECT_EQ(found, std::vector<uint32_t>{1});
  RayCastResult hit;
  ASSERT_TRUE(mesh->cast_ray({Vec3(0.2f, 1, 0.2f), Vec3(0, -2, 0)}, {}, hit));
  EXPECT_EQ(pop_index(*mesh, hit.sub_shape_id), 1u);
  EXPECT_EQ(mesh->material_index(hit.sub_shape_id), 2u);
  // The good triangle's edges border only dropped triangles: all active.
  EXPECT_EQ(mesh->active_edges(1), k_active_edge_all);
}

TEST(TriangleMeshShape, TreeStaysShallowForPathologicalInput) {
  // 5000 identical triangles (all centroids equal) and 30 triangles at exponentially growing
  // distances defeat the surface-area heuristic; the depth must stay bounded and queries work.
  TriangleMeshShapeSettings settings;
  settings.vertices = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}};
  for (uint32_t k = 0; k < 5000; ++k) settings.triangles.push_back({{0, 1, 2}, k});
  std::vector<float> xs;
  float x = 4.0f;
  for (uint32_t k = 0; k < 30; ++k, x *= 1.5f) {
    xs.push_back(x);
    const uint32_t base = static_cast<uint32_t>(settings.vertices.size());
    settings.vertices.push_back({x, 0, 0});
    settings.vertices.push_back({x, 0, 1});
    settings.vertices.push_back({x + 1, 0, 0});
    settings.triangles.push_back({{base, base + 1, base + 2}, 9000 + k});
  }
  Ref<TriangleMeshShape> mesh = make_mesh(settings);
  EXPECT_EQ(mesh->degenerate_triangles_removed(), 0u);
  EXPECT_LE(mesh->bvh().depth(), ShapeBVH::k_max_depth);
  RayCastResult hit;
  ASSERT_TRUE(mesh->cast_ray({Vec3(0.2f, 1, 0.2f), Vec3(0, -2, 0)}, {}, hit));
  // Ties on the same fraction go to the first triangle the walk finds; any of the copies.
  EXPECT_LT(pop_index(*mesh, hit.sub_shape_id), 5000u);
  for (uint32_t k = 0; k < 30; ++k) {
    RayCastResult far_hit;
    ASSERT_TRUE(mesh->cast_ray({Vec3(xs[k] + 0.25f, 1, 0.25f), Vec3(0, -2, 0)}, {}, far_hit));
    EXPECT_EQ(mesh->material_index(far_hit.sub_shape_id), 9000 + k);
  }
  size_t count = 0;
  mesh->collect_triangles(
      AABox(Vec3(-1, -1, -1), Vec3(2, 1, 2)),
      [&](const Vec3&, const Vec3&, const Vec3&, uint8_t, SubShapeID) { ++count; });
  EXPECT_EQ(count, 5000u);
}

TEST(TriangleMeshShape, SameInputGivesTheSameTree) {
  TriangleMeshShapeSettings settings = grid_settings(20, 1.0f);
  Random random(99);
  for (Float3& v : settings.vertices) v.y = random.uniform(-1.0f, 1.0f);
  Ref<TriangleMeshShape> a = make_mesh(settings);
  Ref<TriangleMeshShape> b = make_mesh(settings);
  EXPECT_EQ(a->bvh().primitives(), b->bvh().primitives());
  ASSERT_EQ(a->bvh().nodes().size(), b->bvh().nodes().size());
  for (size_t i = 0; i < a->bvh().nodes().size(); ++i) {
    const ShapeBVH::Node& na = a->bvh().nodes()[i];
    const ShapeBVH::Node& nb = b->bvh().nodes()[i];
    EXPECT_EQ(na.used, nb.used);
    for (uint32_t k = 0; k < ShapeBVH::k_width; ++k) {
      if ((na.used & (1u << k)) == 0) continue;
      EXPECT_EQ(na.bounds(k), nb.bounds(k));
      EXPECT_EQ(na.child[k], nb.child[k]);
      EXPECT_EQ(na.count[k], nb.count[k]);
    }
  }
}

std::string create_error(const TriangleMeshShapeSettings& settings) {
  auto result = settings.create();
  return result.ok() ? std::string("ok") : std::string(result.error().message());
}

TEST(TriangleMeshShape, ValidationNamesTheField) {
  TriangleMeshShapeSettings settings;
  EXPECT_EQ(create_error(settings), "TriangleMeshShapeSettings.vertices: must not be empty");
  settings.vertices = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {1, 0, 1}};
  EXPECT_EQ(create_error(settings), "TriangleMeshShapeSettings.triangles: must not be empty");
  settings.triangles = {{{0, 1, 2}, 0}, {{1, 3, 7}, 0}};
  EXPECT_EQ(create_error(settings),
            "TriangleMeshShapeSettings.triangles[1].idx[2]: vertex index 7 out of range (4 "
            "vertices)");
  settings.triangles[1] = {{1, 3, 2}, 0};
  EXPECT_EQ(create_error(settings), "ok");
  settings.vertices[2].y = std::nanf("");
  EXPECT_EQ(create_error(settings),
            "TriangleMeshShapeSettings.vertices[2].y: must be finite, got nan");
  settings.vertices[2].y = 0;
  settings.active_edge_cos_threshold = 1.5f;
  EXPECT_EQ(create_error(settings),
            "TriangleMeshShapeSettings.active_edge_cos_threshold: must be in [-1, 1], got 1.5");
  settings.active_edge_cos_threshold = 0.9f;
  settings.triangles = {{{0, 0, 1}, 0}, {{0, 1, 1}, 0}};
  EXPECT_EQ(create_error(settings),
            "TriangleMeshShapeSettings.triangles: all 2 triangles are degenerate (zero area)");
}

}  // namespace
}  // namespace triangle_mesh_shape_test
}  // namespace atl
