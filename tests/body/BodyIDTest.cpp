#include <gtest/gtest.h>

#include "atoll/body/AllowedDOFs.h"
#include "atoll/body/BodyID.h"

namespace atl {
namespace body_id_test {
namespace {

TEST(BodyID, PacksIndexAndSequence) {
  const BodyID id(0x123456u, uint8_t(0xab));
  EXPECT_EQ(id.index(), 0x123456u);
  EXPECT_EQ(id.sequence(), 0xab);
  EXPECT_EQ(id.value(), 0xab123456u);
  EXPECT_TRUE(id.is_valid());
  EXPECT_EQ(BodyID(id.value()), id);
}

TEST(BodyID, DefaultIsInvalidAndNoRealIdEqualsIt) {
  EXPECT_FALSE(BodyID().is_valid());
  EXPECT_EQ(BodyID().value(), BodyID::k_invalid_value);
  // The largest usable index with the largest sequence is still a valid, distinct ID.
  const BodyID last(BodyID::k_max_index, uint8_t(0xff));
  EXPECT_TRUE(last.is_valid());
  EXPECT_NE(last, BodyID());
}

TEST(BodyID, SameIndexDifferentSequenceDiffers) {
  const BodyID a(7, uint8_t(0));
  const BodyID b(7, uint8_t(1));
  EXPECT_NE(a, b);
  EXPECT_EQ(a.index(), b.index());
  EXPECT_LT(a, b);
  EXPECT_LT(BodyID(3, uint8_t(0)), BodyID(4, uint8_t(0)));
}

TEST(AllowedDOFs, FlagAlgebra) {
  EXPECT_EQ(AllowedDOFs::Plane2D,
            AllowedDOFs::TranslationX | AllowedDOFs::TranslationY | AllowedDOFs::RotationZ);
  EXPECT_EQ(AllowedDOFs::All, AllowedDOFs::AllTranslation | AllowedDOFs::AllRotation);
  EXPECT_TRUE(has_dofs(AllowedDOFs::Plane2D, AllowedDOFs::RotationZ));
  EXPECT_FALSE(has_dofs(AllowedDOFs::Plane2D, AllowedDOFs::TranslationZ));
  EXPECT_EQ(~AllowedDOFs::All, AllowedDOFs::None);
  EXPECT_EQ(~AllowedDOFs::Plane2D,
            AllowedDOFs::TranslationZ | AllowedDOFs::RotationX | AllowedDOFs::RotationY);
  EXPECT_TRUE(is_valid_dofs(AllowedDOFs::All));
  EXPECT_FALSE(is_valid_dofs(AllowedDOFs(0x40)));
}

}  // namespace
}  // namespace body_id_test
}  // namespace atl
