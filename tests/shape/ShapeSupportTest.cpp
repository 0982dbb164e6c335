// Support functions of the convex shapes. The full (Include) support must be the farthest point
// of the true surface, checked against brute-force sampling through collide_point; the core
// (Exclude) support grown by its convex radius must stay inside the shape, touch it along the
// face normals, and equal the full support for the shapes whose core is exact (sphere, capsule).

#include <gtest/gtest.h>

#include <string>

#include "ShapeTestUtil.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/CapsuleShape.h"
#include "atoll/shape/CylinderShape.h"
#include "atoll/shape/SphereShape.h"

namespace atl {
namespace shape_support_test {
namespace {

struct SupportCase {
  std::string name;
  Ref<ConvexShape> shape;
  Vec3 scale;
  /// The core grown by the radius is exactly the shape (sphere, capsule).
  bool exact_core;
  /// Outward unit normals of flat faces of the scaled shape, where core + radius must touch.
  std::vector<Vec3> face_normals;
};

Ref<ConvexShape> random_hull(Random& random, int count) {
  std::vector<Vec3> points;
  for (int i = 0; i < count; ++i)
    points.emplace_back(random.uniform(-1, 1), random.uniform(-0.6f, 0.6f),
                        random.uniform(-0.8f, 0.8f));
  return Ref<ConvexShape>(test::make_hull(points));
}

std::vector<Vec3> hull_normals(const ConvexShape& shape, const Vec3& scale) {
  std::vector<Vec3> normals;
  for (const ConvexHull::Face& face : static_cast<const ConvexHullShape&>(shape).faces())
    normals.push_back((face.normal / scale).normalized());
  return normals;
}

std::vector<SupportCase> make_cases() {
  Random random(17);
  std::vector<SupportCase> cases;
  const std::vector<Vec3> axes = {Vec3(1, 0, 0),  Vec3(-1, 0, 0), Vec3(0, 1, 0),
                                  Vec3(0, -1, 0), Vec3(0, 0, 1),  Vec3(0, 0, -1)};
  cases.push_back({"sphere", make_ref<SphereShape>(0.6f), Vec3(1, 1, 1), true, {}});
  cases.push_back({"sphere scaled", make_ref<SphereShape>(0.6f), Vec3(-2, 2, 2), true, {}});
  cases.push_back(
      {"box", make_ref<BoxShape>(Vec3(0.5f, 1.0f, 1.5f), 0.1f), Vec3(1, 1, 1), false, axes});
  cases.push_back({"box scaled", make_ref<BoxShape>(Vec3(0.5f, 1.0f, 1.5f), 0.1f),
                   Vec3(2, -0.5f, 1), false, axes});
  cases.push_back({"capsule", make_ref<CapsuleShape>(0.8f, 0.3f), Vec3(1, 1, 1), true, {}});
  cases.push_back(
      {"capsule scaled", make_ref<CapsuleShape>(0.8f, 0.3f), Vec3(1.5f, -1.5f, 1.5f), true, {}});
  cases.push_back({"cylinder",
                   make_ref<CylinderShape>(0.6f, 0.4f, 0.08f),
                   Vec3(1, 1, 1),
                   false,
                   {Vec3(0, 1, 0), Vec3(0, -1, 0), Vec3(1, 0, 0), Vec3(0.6f, 0, -0.8f)}});
  cases.push_back({"cylinder scaled",
                   make_ref<CylinderShape>(0.6f, 0.4f, 0.08f),
                   Vec3(-1.5f, 0.5f, 1.5f),
                   false,
                   {Vec3(0, 1, 0), Vec3(0, -1, 0), Vec3(-1, 0, 0), Vec3(0, 0, 1)}});
  const Ref<ConvexShape> hull = random_hull(random, 40);
  cases.push_back({"hull", hull, Vec3(1, 1, 1), false, hull_normals(*hull, Vec3(1, 1, 1))});
  cases.push_back(
      {"hull scaled", hull, Vec3(1, -2, 0.5f), false, hull_normals(*hull, Vec3(1, -2, 0.5f))});
  return cases;
}

// Boundary points of the scaled shape on a grid: inside points with a neighbour outside.
std::vector<Vec3> sample_surface(const ConvexShape& shape, const Vec3& scale, float& out_spacing) {
  const AABox bounds = shape.local_bounds().scaled(scale).expanded(0.05f);
  constexpr int n = 72;
  const Vec3 step = bounds.size() / static_cast<float>(n - 1);
  out_spacing = step.length();
  std::vector<uint8_t> inside(n * n * n);
  auto point = [&](int x, int y, int z) {
    return bounds.min +
           step * Vec3(static_cast<float>(x), static_cast<float>(y), static_cast<float>(z));
  };
  for (int x = 0; x < n; ++x)
    for (int y = 0; y < n; ++y)
      for (int z = 0; z < n; ++z)
        inside[(x * n + y) * n + z] = shape.collide_point(point(x, y, z) / scale) ? 1 : 0;
  std::vector<Vec3> surface;
  for (int x = 1; x < n - 1; ++x)
    for (int y = 1; y < n - 1; ++y)
      for (int z = 1; z < n - 1; ++z) {
        if (!inside[(x * n + y) * n + z]) continue;
        const bool boundary =
            !inside[((x - 1) * n + y) * n + z] || !inside[((x + 1) * n + y) * n + z] ||
            !inside[(x * n + y - 1) * n + z] || !inside[(x * n + y + 1) * n + z] ||
            !inside[(x * n + y) * n + z - 1] || !inside[(x * n + y) * n + z + 1];
        if (boundary) surface.push_back(point(x, y, z));
      }
  return surface;
}

TEST(ShapeSupport, FullSupportIsTheFarthestSurfacePoint) {
  Random random(3);
  for (const SupportCase& c : make_cases()) {
    SCOPED_TRACE(c.name);
    ASSERT_NE(c.shape, nullptr);
    float spacing = 0.0f;
    const std::vector<Vec3> surface = sample_surface(*c.shape, c.scale, spacing);
    ASSERT_GT(surface.size(), 1000u);
    SupportBuffer buffer;
    const ConvexSupport* full =
        c.shape->support_function(SupportMode::IncludeConvexRadius, buffer, c.scale);
    EXPECT_EQ(full->convex_radius(), 0.0f);
    const float size = c.shape->local_bounds().scaled(c.scale).extent().max_component();
    for (int i = 0; i < 300; ++i) {
      const Vec3 d = test::random_unit_vector(random);
      const Vec3 s = full->get_support(d * random.uniform(0.1f, 10.0f));  // length is irrelevant
      float sampled = -k_float_max;
      for (const Vec3& p : surface) sampled = std::max(sampled, p.dot(d));
      // No sample beyond the support plane, and the support no farther than one grid cell.
      EXPECT_LE(sampled, s.dot(d) + 1e-5f);
      EXPECT_GE(sampled, s.dot(d) - spacing);
      // The support point lies on the surface: just inside towards the centre of mass, just
      // outside along d.
      const Vec3 center = c.shape->center_of_mass() * c.scale;
      EXPECT_TRUE(c.shape->collide_point((s + (center - s) * 1e-4f) / c.scale)) << d;
      EXPECT_FALSE(c.shape->collide_point((s + d * (1e-3f * size)) / c.scale)) << d;
    }
  }
}

TEST(ShapeSupport, CorePlusRadiusStaysInsideAndTouchesTheFaces) {
  Random random(4);
  for (const SupportCase& c : make_cases()) {
    SCOPED_TRACE(c.name);
    ASSERT_NE(c.shape, nullptr);
    SupportBuffer full_buffer, core_buffer;
    const ConvexSupport* full =
        c.shape->support_function(SupportMode::IncludeConvexRadius, full_buffer, c.scale);
    const ConvexSupport* core =
        c.shape->support_function(SupportMode::ExcludeConvexRadius, core_buffer, c.scale);
    const float r = core->convex_radius();
    if (c.name == "hull scaled") {
      // Non-uniform scale: the hull has no valid core, the sharp hull stands in for it.
      EXPECT_EQ(r, 0.0f);
    } else {
      EXPECT_GT(r, 0.0f);
    }
    for (int i = 0; i < 2000; ++i) {
      const Vec3 d = test::random_unit_vector(random);
      const Vec3 grown = core->get_support(d) + r * d;
      const Vec3 s = full->get_support(d);
      if (c.exact_core) {
        EXPECT_TRUE(grown.is_close(s, 1e-10f)) << grown << " vs " << s;
      } else {
        // The rounded core is inside the shape: its extent along d is at most the shape's.
        EXPECT_LE(grown.dot(d), s.dot(d) + 1e-5f);
        // A box or cylinder loses at most r·(√3 − 1) at a rounded-off corner.
        if (c.name.starts_with("box") || c.name.starts_with("cylinder")) {
          EXPECT_GE(grown.dot(d), s.dot(d) - r * 0.7321f - 1e-5f);
        }
      }
    }
    // Along a face normal the rounded core reaches the face itself (hulls: within the default
    // max_error_convex_radius).
    const float tolerance = c.name.starts_with("hull") ? 0.05f : 1e-5f;
    for (const Vec3& n : c.face_normals) {
      EXPECT_LE(core->get_support(n).dot(n) + r, full->get_support(n).dot(n) + 1e-5f) << n;
      EXPECT_GE(core->get_support(n).dot(n) + r, full->get_support(n).dot(n) - tolerance) << n;
    }
  }
}

TEST(ShapeSupport, CoreShapesOfPrimitives) {
  SupportBuffer buffer;
  const Vec3 d(0.3f, -0.5f, 0.8f);
  {
    const SphereShape sphere(0.6f);
    const ConvexSupport* core =
        sphere.support_function(SupportMode::ExcludeConvexRadius, buffer, Vec3(2, 2, 2));
    EXPECT_EQ(core->get_support(d), Vec3::zero());
    EXPECT_FLOAT_EQ(core->convex_radius(), 1.2f);
  }
  {
    const BoxShape box(Vec3(0.5f, 1.0f, 1.5f), 0.1f);
    const ConvexSupport* core =
        box.support_function(SupportMode::ExcludeConvexRadius, buffer, Vec3(2, -0.5f, 1));
    // Scaled half extent (1, 0.5, 1.5), radius 0.1·min|s| = 0.05.
    EXPECT_FLOAT_EQ(core->convex_radius(), 0.05f);
    EXPECT_TRUE(core->get_support(d).is_close(Vec3(0.95f, -0.45f, 1.45f), 1e-12f));
  }
  {
    const CapsuleShape capsule(0.8f, 0.3f);
    const ConvexSupport* core =
        capsule.support_function(SupportMode::ExcludeConvexRadius, buffer, Vec3(1, 1, 1));
    EXPECT_EQ(core->get_support(d), Vec3(0, -0.8f, 0));
    EXPECT_FLOAT_EQ(core->convex_radius(), 0.3f);
  }
  {
    const CylinderShape cylinder(0.6f, 0.4f, 0.1f);
    const ConvexSupport* core =
        cylinder.support_function(SupportMode::ExcludeConvexRadius, buffer, Vec3(1, 1, 1));
    EXPECT_FLOAT_EQ(core->convex_radius(), 0.1f);
    const Vec3 s = core->get_support(Vec3(3, 1, 4));
    EXPECT_TRUE(s.is_close(Vec3(0.18f, 0.5f, 0.24f), 1e-12f)) << s;
    // Straight along the axis any cap point is a support point: the centre is returned.
    EXPECT_EQ(core->get_support(Vec3(0, -1, 0)), Vec3(0, -0.5f, 0));
  }
}

TEST(ShapeSupport, HullConvexRadiusKeepsFacesInPlace) {
  {
    // A cube gets the full radius: its corners move in along the diagonal.
    const Ref<ConvexHullShape> cube = test::make_hull(test::box_corners(Vec3(1, 1, 1)), 0.05f);
    ASSERT_NE(cube, nullptr);
    EXPECT_FLOAT_EQ(cube->convex_radius(), 0.05f);
    for (size_t i = 0; i < cube->vertices().size(); ++i)
      EXPECT_TRUE(cube->core_vertices()[i].is_close(cube->vertices()[i] * 0.95f, 1e-12f));
  }
  {
    // A slab 2 cm thick can give at most half its thickness.
    const Ref<ConvexHullShape> slab = test::make_hull(test::box_corners(Vec3(1, 0.01f, 1)), 0.05f);
    ASSERT_NE(slab, nullptr);
    EXPECT_NEAR(slab->convex_radius(), 0.01f, 1e-6f);
  }
  {
    // max_convex_radius 0: the core is the hull.
    const Ref<ConvexHullShape> sharp = test::make_hull(test::box_corners(Vec3(1, 2, 3)), 0.0f);
    ASSERT_NE(sharp, nullptr);
    EXPECT_EQ(sharp->convex_radius(), 0.0f);
    EXPECT_EQ(sharp->core_vertices(), sharp->vertices());
  }
  {
    // A square pyramid's apex touches 4 faces; by symmetry the moved planes still meet.
    const Ref<ConvexHullShape> pyramid = test::make_hull(
        {Vec3(-1, 0, -1), Vec3(1, 0, -1), Vec3(1, 0, 1), Vec3(-1, 0, 1), Vec3(0, 1.5f, 0)}, 0.05f);
    ASSERT_NE(pyramid, nullptr);
    EXPECT_FLOAT_EQ(pyramid->convex_radius(), 0.05f);
  }
  // Random hulls: every core vertex is behind every face moved in by r, and every face is
  // reached by the core grown by r (within max_error_convex_radius).
  Random random(8);
  for (int iteration = 0; iteration < 50; ++iteration) {
    std::vector<Vec3> points;
    const Vec3 extent(random.uniform(0.02f, 2), random.uniform(0.02f, 2), random.uniform(0.02f, 2));
    const int count = 4 + random.uniform_int(0, 40);
    for (int i = 0; i < count; ++i)
      points.push_back(extent *
                       Vec3(random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1)));
    ConvexHullShapeSettings settings;
    settings.points = points;
    settings.max_convex_radius = 0.1f;
    Result<Ref<Shape>> result = settings.create();
    if (!result.ok()) continue;  // a flat random draw
    const auto& hull = static_cast<const ConvexHullShape&>(*result.value());
    const float r = hull.convex_radius();
    EXPECT_GE(r, 0.0f);
    EXPECT_LE(r, 0.1f);
    for (const ConvexHull::Face& face : hull.faces()) {
      float reach = -k_float_max;
      for (const Vec3& c : hull.core_vertices()) {
        EXPECT_LE(face.normal.dot(c), face.distance - r + 1.0e-5f);
        reach = std::max(reach, face.normal.dot(c));
      }
      EXPECT_GE(reach + r, face.distance - settings.max_error_convex_radius);
    }
  }
}

}  // namespace
}  // namespace shape_support_test
}  // namespace atl
