// Regression: a dynamic body needs a shape with volume (a triangle mesh or height field given a
// mass is refused), but a compound that held a mesh beside a box had a mass and was accepted.
// Mesh and height field pairs are never collided (CollideShapes.h), so its mesh child fell
// through a static mesh floor while the box child landed (the plate ended 2.9 m below the
// floor). Such a shape is now refused for dynamic bodies wherever the mesh sits (compound child,
// decorator), by create_body, set_motion_type and set_shape, naming the place.

#include <gtest/gtest.h>

#include <string>

#include "atoll/body/Validation.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/HeightFieldShape.h"
#include "atoll/shape/RotatedTranslatedShape.h"
#include "atoll/shape/ScaledShape.h"
#include "atoll/shape/StaticCompoundShape.h"
#include "atoll/shape/TriangleMeshShape.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {
namespace dynamic_triangle_leaf_test {
namespace {

constexpr const char* k_problem =
    "a dynamic body's shape must not hold a triangle mesh or height field, whose triangles "
    "collide with no static mesh or height field, but the ";
constexpr const char* k_hint =
    " (triangle meshes and height fields are for static and kinematic bodies)";

Ref<Shape> plate() {
  TriangleMeshShapeSettings settings;
  settings.vertices = {{-1, 0, -1}, {1, 0, -1}, {-1, 0, 1}, {1, 0, 1}};
  settings.triangles = {IndexedTriangle{{0, 2, 1}, 0}, IndexedTriangle{{1, 2, 3}, 0}};
  return settings.create().value();
}

Ref<Shape> box() { return BoxShapeSettings{Vec3(0.1f, 0.1f, 0.1f)}.create().value(); }

// A box above a mesh plate.
Ref<Shape> box_and_plate() {
  StaticCompoundShapeSettings settings;
  settings.children.push_back({box(), Vec3(0, 3, 0), Quat::identity()});
  settings.children.push_back({plate(), Vec3::zero(), Quat::identity()});
  return settings.create().value();
}

BodyCreationSettings body(Ref<Shape> shape, MotionType type) {
  return BodyCreationSettings(std::move(shape), Vec3(0, 1, 0), Quat::identity(), type);
}

TEST(DynamicTriangleLeaf, ADynamicCompoundHoldingAMeshIsRefusedByName) {
  PhysicsSystem system;
  BodyInterface& bodies = system.body_interface();
  const std::string expected = std::string("BodyCreationSettings.shape: ") + k_problem +
                               "compound holds one at children[1]" + k_hint;
  const Result<BodyID> created =
      bodies.create_and_add_body(body(box_and_plate(), MotionType::Dynamic), Activation::Activate);
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(std::string(created.error().message()), expected);
  // The shape is to blame, not a mass given with it.
  BodyCreationSettings with_mass = body(box_and_plate(), MotionType::Dynamic);
  with_mass.override_mass = 5.0f;
  const Result<BodyID> heavy = bodies.create_body(with_mass);
  ASSERT_FALSE(heavy.ok());
  EXPECT_EQ(std::string(heavy.error().message()), expected);
  EXPECT_EQ(system.bodies().num_bodies(), 0u);
  // Static and kinematic bodies may hold it.
  EXPECT_TRUE(bodies.create_body(body(box_and_plate(), MotionType::Static)).ok());
  EXPECT_TRUE(bodies.create_body(body(box_and_plate(), MotionType::Kinematic)).ok());
}

TEST(DynamicTriangleLeaf, AMeshInsideDecoratorsAndNestedCompoundsIsFound) {
  HeightFieldShapeSettings field;
  field.sample_count = 2;
  field.heights = {0, 0, 0, 0};
  StaticCompoundShapeSettings inner;
  inner.children.push_back({box(), Vec3::zero(), Quat::identity()});
  inner.children.push_back(
      {ScaledShapeSettings{field.create().value(), Vec3(2, 1, 2)}.create().value(), Vec3::zero(),
       Quat::identity()});
  StaticCompoundShapeSettings outer;
  outer.children.push_back({box(), Vec3::zero(), Quat::identity()});
  outer.children.push_back({inner.create().value(), Vec3(0, 1, 0), Quat::identity()});
  const Ref<Shape> shape =
      RotatedTranslatedShapeSettings{outer.create().value(), Vec3(0, 1, 0), Quat::identity()}
          .create()
          .value();
  EXPECT_EQ(triangle_leaf_path(*shape), "inner.children[1].children[1].inner");
  EXPECT_EQ(triangle_leaf_path(*plate()), "");
  EXPECT_FALSE(triangle_leaf_path(*box()).has_value());

  PhysicsSystem system;
  const Result<BodyID> created =
      system.body_interface().create_body(body(shape, MotionType::Dynamic));
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(std::string(created.error().message()),
            std::string("BodyCreationSettings.shape: ") + k_problem +
                "rotated_translated holds one at inner.children[1].children[1].inner" + k_hint);
}

TEST(DynamicTriangleLeaf, SetMotionTypeAndSetShapeRefuseItAndChangeNothing) {
  PhysicsSystem system;
  BodyInterface& bodies = system.body_interface();
  const BodyID kinematic =
      bodies.create_and_add_body(body(box_and_plate(), MotionType::Kinematic), Activation::Activate)
          .value();
  const Status typed = bodies.set_motion_type(kinematic, MotionType::Dynamic);
  ASSERT_FALSE(typed.ok());
  EXPECT_EQ(std::string(typed.error().message()),
            std::string("BodyInterface::set_motion_type: motion_type: ") + k_problem +
                "compound holds one at children[1]" + k_hint);
  EXPECT_EQ(bodies.motion_type(kinematic).value(), MotionType::Kinematic);

  const BodyID dynamic =
      bodies.create_and_add_body(body(box(), MotionType::Dynamic), Activation::Activate).value();
  const Ref<const Shape> before = bodies.shape(dynamic).value();
  const Status shaped = bodies.set_shape(dynamic, box_and_plate());
  ASSERT_FALSE(shaped.ok());
  EXPECT_EQ(std::string(shaped.error().message()),
            std::string("BodyInterface::set_shape: shape: ") + k_problem +
                "compound holds one at children[1]" + k_hint);
  EXPECT_EQ(bodies.shape(dynamic).value(), before);
}

}  // namespace
}  // namespace dynamic_triangle_leaf_test
}  // namespace atl
