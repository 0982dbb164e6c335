// Regression: a dynamic body whose mass passes k_min_mass can still have a moment of inertia so
// small that its inverse overflows float: a box of half extent 1.2e-15 m at density 1e35 kg/m³
// (mass 1.4e-9 kg, moments 1.3e-39 kg·m²) got an infinite inverse inertia, a NaN world inverse
// inertia, and was quarantined at its first step without a word at creation. Such a shape is now
// refused for dynamic bodies, like a mass below k_min_mass.

#include <gtest/gtest.h>

#include <string>

#include "atoll/body/BodyInterface.h"
#include "atoll/body/Validation.h"
#include "atoll/shape/BoxShape.h"

namespace atl {
namespace tiny_inertia_test {
namespace {

constexpr const char* k_problem = "the shape's smallest moment of inertia, ";

Ref<Shape> speck() {
  return BoxShapeSettings{Vec3::replicate(1.2e-15f), 0.0f, 1.0e35f}.create().value();
}

BodyCreationSettings body(Ref<Shape> shape, MotionType type) {
  return BodyCreationSettings(std::move(shape), Vec3(), Quat::identity(), type);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(TinyInertia, ADynamicBodyWhoseInverseInertiaOverflowsIsRefused) {
  BodyManager manager;
  BodyInterface bodies(manager);
  ASSERT_GE(speck()->mass_properties().mass, k_min_mass);
  const Result<BodyID> created = bodies.create_body(body(speck(), MotionType::Dynamic));
  ASSERT_FALSE(created.ok());
  const std::string message = created.error().message();
  EXPECT_TRUE(contains(message, std::string("BodyCreationSettings.shape: ") + k_problem))
      << message;
  EXPECT_TRUE(contains(message, "is too small for float (its inverse overflows)")) << message;
  EXPECT_EQ(manager.num_bodies(), 0u);
}

TEST(TinyInertia, SetMotionTypeAndSetShapeRefuseItAndChangeNothing) {
  BodyManager manager;
  BodyInterface bodies(manager);
  const BodyID kinematic = bodies.create_body(body(speck(), MotionType::Kinematic)).value();
  const Status typed = bodies.set_motion_type(kinematic, MotionType::Dynamic);
  ASSERT_FALSE(typed.ok());
  EXPECT_TRUE(contains(typed.error().message(),
                       std::string("BodyInterface::set_motion_type: motion_type: ") + k_problem))
      << typed.error().message();
  EXPECT_EQ(bodies.motion_type(kinematic).value(), MotionType::Kinematic);

  const Ref<Shape> cube = BoxShapeSettings{Vec3::replicate(0.5f)}.create().value();
  const BodyID dynamic = bodies.create_body(body(cube, MotionType::Dynamic)).value();
  const Status shaped = bodies.set_shape(dynamic, speck());
  ASSERT_FALSE(shaped.ok());
  EXPECT_TRUE(contains(shaped.error().message(),
                       std::string("BodyInterface::set_shape: shape: ") + k_problem))
      << shaped.error().message();
  EXPECT_EQ(bodies.shape(dynamic).value().get(), cube.get());
}

TEST(TinyInertia, ASmallBodyWhoseInverseInertiaFitsIsAccepted) {
  BodyManager manager;
  BodyInterface bodies(manager);
  // 8e-7 kg, moments 5.3e-31 kg·m²: inverse 1.9e30.
  const Ref<Shape> grain =
      BoxShapeSettings{Vec3::replicate(1.0e-12f), 0.0f, 1.0e29f}.create().value();
  const Result<BodyID> created = bodies.create_body(body(grain, MotionType::Dynamic));
  ASSERT_TRUE(created.ok()) << created.error().message();
  const Mat44 inverse_inertia = bodies.body(*created).value()->inverse_inertia();
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(inverse_inertia.column3(i).is_finite());
}

}  // namespace
}  // namespace tiny_inertia_test
}  // namespace atl
