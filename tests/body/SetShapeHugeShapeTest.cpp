// Regression (found by tests/fuzz's api_calls target): set_shape did not check the new shape's
// bounds as body creation does, so a kinematic or static body could take a shape whose bounds
// overflow float (a convex hull of points near 3e38 m); its centre of mass was NaN and the body's
// position became NaN. The shape is now refused with creation's message and nothing changes.

#include <gtest/gtest.h>

#include <string>

#include "atoll/body/BodyInterface.h"
#include "atoll/shape/BoxShape.h"

namespace atl {
namespace set_shape_huge_shape_test {

TEST(SetShapeHugeShape, AShapeBeyondTheWorldLimitsIsRefusedAndChangesNothing) {
  BodyManager manager;
  BodyInterface bodies(manager);
  const Ref<Shape> small = BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value();
  const BodyID id =
      bodies.create_body({small, Vec3(0, 1, 0), Quat::identity(), MotionType::Kinematic}).value();
  const Ref<Shape> huge = BoxShapeSettings{Vec3(1.0e8f, 1, 1)}.create().value();
  const Status set = bodies.set_shape(id, huge);
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(std::string(set.error().message()),
            "BodyInterface::set_shape: shape: the body's bounds must lie within ±1e+07 m of the "
            "origin, got (-1e+08, 0, -1) to (1e+08, 2, 1)");
  EXPECT_EQ(bodies.shape(id).value(), Ref<const Shape>(small));
  EXPECT_EQ(bodies.position(id).value(), Vec3(0, 1, 0));
  // A shape within the limits is still taken.
  EXPECT_TRUE(bodies.set_shape(id, BoxShapeSettings{Vec3(2, 2, 2)}.create().value()).ok());
}

}  // namespace set_shape_huge_shape_test
}  // namespace atl
