// Regression (found by tests/fuzz's shapes target): a rotated_translated shape (or a compound's
// child) of a huge inner shape had infinite bounds (a 3e38 m box turned 45° reaches 4.2e38 m),
// which the fuzzer's check of every accepted shape caught; a body then took a NaN pose from such
// shapes. The decorators now refuse what leaves float, naming the field.

#include <gtest/gtest.h>

#include <string>

#include "atoll/shape/BoxShape.h"
#include "atoll/shape/OffsetCenterOfMassShape.h"
#include "atoll/shape/RotatedTranslatedShape.h"
#include "atoll/shape/StaticCompoundShape.h"

namespace atl {
namespace decorated_shape_overflow_test {

TEST(DecoratedShapeOverflow, ARotationOrMoveThatLeavesFloatIsRefused) {
  const Ref<Shape> huge = BoxShapeSettings{Vec3(3.0e38f, 3.0e38f, 1)}.create().value();
  RotatedTranslatedShapeSettings turned;
  turned.inner = huge;
  turned.rotation = Quat::rotation(Vec3(0, 0, 1), 0.7853982f);
  Result<Ref<Shape>> made = turned.create();
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(
      std::string(made.error().message())
          .rfind("RotatedTranslatedShapeSettings.inner: its bounds, rotated and moved, overflow "
                 "float",
                 0),
      0u)
      << made.error().message();
  RotatedTranslatedShapeSettings moved;
  moved.inner = huge;
  moved.position = Vec3(1.0e38f, 0, 0);
  EXPECT_FALSE(moved.create().ok());
  // Unturned and in place it fits.
  RotatedTranslatedShapeSettings plain;
  plain.inner = huge;
  EXPECT_TRUE(plain.create().ok());

  // A compound's child likewise.
  StaticCompoundShapeSettings compound;
  compound.children.push_back({huge, Vec3::zero(), Quat::rotation(Vec3(0, 0, 1), 0.7853982f)});
  const Result<Ref<Shape>> whole = compound.create();
  ASSERT_FALSE(whole.ok());
  EXPECT_NE(std::string(whole.error().message())
                .find("children[0].shape: its bounds, rotated "
                      "and moved, overflow float"),
            std::string::npos)
      << whole.error().message();

  OffsetCenterOfMassShapeSettings offset;
  offset.inner = BoxShapeSettings{Vec3(1, 1, 1)}.create().value();
  offset.offset = Vec3(3.0e38f, 0, 0);
  ASSERT_TRUE(offset.create().ok());  // finite: a body refuses it (FarCenterOfMassShapeTest)
  OffsetCenterOfMassShapeSettings twice;
  twice.inner = offset.create().value();
  twice.offset = Vec3(3.0e38f, 0, 0);
  const Result<Ref<Shape>> overflowed = twice.create();
  ASSERT_FALSE(overflowed.ok());
  EXPECT_EQ(std::string(overflowed.error().message()),
            "OffsetCenterOfMassShapeSettings.offset: moves the centre of mass beyond what float "
            "holds");
}

}  // namespace decorated_shape_overflow_test
}  // namespace atl
