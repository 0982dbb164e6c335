// Regression (found by tests/fuzz's shapes target): a shape whose centre of mass lay 3e38 m from
// its origin (finite, its bounds small) was taken by a body, whose position — its centre of mass
// minus the rotated offset — overflowed to NaN, and the broadphase refused the body's bounds (an
// assert). Creation and set_shape now refuse such a shape and change nothing.

#include <gtest/gtest.h>

#include <string>

#include "atoll/body/BodyInterface.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/OffsetCenterOfMassShape.h"

namespace atl {
namespace far_center_of_mass_shape_test {

TEST(FarCenterOfMassShape, IsRefusedAtCreationAndBySetShape) {
  const Ref<Shape> box = BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value();
  OffsetCenterOfMassShapeSettings far;
  far.inner = box;
  far.offset = Vec3(0.0f, 3.0e38f, 0.0f);
  Result<Ref<Shape>> shape = far.create();
  if (!shape) GTEST_SKIP() << "the shape itself is refused: " << shape.error().message();
  BodyManager manager;
  BodyInterface bodies(manager);
  const Result<BodyID> made = bodies.create_body(
      {shape.value(), Vec3(0, 1, 0), Quat::rotation(Vec3(1, 0, 0), 0.5f), MotionType::Static});
  ASSERT_FALSE(made.ok());
  EXPECT_NE(std::string(made.error().message()).find("shape: its centre of mass must lie within"),
            std::string::npos)
      << made.error().message();
  EXPECT_TRUE(manager.body_ids().empty());

  const BodyID id =
      bodies.create_body({box, Vec3(0, 1, 0), Quat::identity(), MotionType::Kinematic}).value();
  const Status set = bodies.set_shape(id, shape.value());
  ASSERT_FALSE(set.ok());
  EXPECT_NE(std::string(set.error().message()).find("shape: its centre of mass must lie within"),
            std::string::npos)
      << set.error().message();
  EXPECT_EQ(bodies.shape(id).value(), Ref<const Shape>(box));
  EXPECT_EQ(bodies.position(id).value(), Vec3(0, 1, 0));
}

}  // namespace far_center_of_mass_shape_test
}  // namespace atl
