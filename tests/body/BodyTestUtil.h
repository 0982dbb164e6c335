#pragma once
// Shapes and settings shared by the body tests.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "atoll/body/BodyCreationSettings.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/shape/TriangleMeshShape.h"

namespace atl::test {

/// A box of the given half extent and no convex radius, density 1000 kg/m³.
inline Ref<const Shape> box(const Vec3& half_extent) {
  return make_ref<BoxShape>(half_extent, 0.0f);
}

/// A unit cube (1 m³): 1000 kg at the default density.
inline Ref<const Shape> unit_cube() { return box(Vec3(0.5f, 0.5f, 0.5f)); }

/// A single-triangle mesh: a shape without mass.
inline Ref<const Shape> triangle_mesh() {
  TriangleMeshShapeSettings settings;
  settings.vertices = {{-1, 0, -1}, {1, 0, -1}, {0, 0, 1}};
  settings.triangles = {IndexedTriangle{{0, 2, 1}, 0}};
  Result<Ref<Shape>> shape = settings.create();
  EXPECT_TRUE(shape.ok());
  return *shape;
}

/// Dynamic unit cube at `position` with no damping (clean closed-form checks).
inline BodyCreationSettings dynamic_cube(const Vec3& position = Vec3()) {
  BodyCreationSettings settings(unit_cube(), position, Quat::identity(), MotionType::Dynamic);
  settings.linear_damping = 0.0f;
  settings.angular_damping = 0.0f;
  return settings;
}

/// Relative closeness for floats.
inline void expect_near_rel(float actual, float expected, float rel = 1.0e-5f) {
  EXPECT_NEAR(actual, expected, rel * std::fmax(1.0f, std::fabs(expected)));
}

inline void expect_vec_near(const Vec3& actual, const Vec3& expected, float tol = 1.0e-5f) {
  EXPECT_NEAR(actual.x(), expected.x(), tol) << actual << " vs " << expected;
  EXPECT_NEAR(actual.y(), expected.y(), tol) << actual << " vs " << expected;
  EXPECT_NEAR(actual.z(), expected.z(), tol) << actual << " vs " << expected;
}

/// Quaternions q and −q are the same rotation.
inline void expect_rotation_near(const Quat& actual, const Quat& expected, float tol = 1.0e-5f) {
  EXPECT_NEAR(std::fabs(actual.dot(expected)), 1.0f, tol) << actual << " vs " << expected;
}

}  // namespace atl::test
