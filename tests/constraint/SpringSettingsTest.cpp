// SpringSettings and MotorSettings: separate fields per mode, has_stiffness reads the field of
// the mode, defaults as in Jolt, and validate() names the offending field.

#include "atoll/constraint/MotorSettings.h"
#include "atoll/constraint/SpringSettings.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace atl {
namespace spring_settings_test {
namespace {

TEST(SpringSettings, DefaultIsAHardFrequencySpring) {
  const SpringSettings s;
  EXPECT_EQ(s.mode, SpringMode::FrequencyAndDamping);
  EXPECT_EQ(s.frequency, 0.0f);
  EXPECT_FALSE(s.has_stiffness());
  EXPECT_TRUE(s.validate().ok());
}

// Jolt's HasStiffness() reads mFrequency, the union member shared with mStiffness. Here each
// mode reads its own field: a frequency left over does not make a stiffness spring soft.
TEST(SpringSettings, HasStiffnessReadsTheFieldOfItsMode) {
  SpringSettings s = SpringSettings::frequency_and_damping(2.0f, 1.0f);
  EXPECT_TRUE(s.has_stiffness());
  s.mode = SpringMode::StiffnessAndDamping;  // frequency 2 stays, stiffness is 0
  EXPECT_FALSE(s.has_stiffness());
  s.stiffness = 100.0f;
  EXPECT_TRUE(s.has_stiffness());
  s.mode = SpringMode::MassNormalizedStiffnessAndDamping;
  EXPECT_TRUE(s.has_stiffness());
  s.stiffness = 0.0f;
  EXPECT_FALSE(s.has_stiffness());
  EXPECT_EQ(s.frequency, 2.0f);
}

TEST(SpringSettings, ValidateNamesTheField) {
  SpringSettings s = SpringSettings::stiffness_and_damping(-1.0f, 0.0f);
  Status st = s.validate("hinge.limits_spring_settings");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.error().message()).find("hinge.limits_spring_settings.stiffness"),
            std::string::npos)
      << st.error().message();
  s = SpringSettings::frequency_and_damping(-2.0f, 1.0f);
  st = s.validate();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.error().message()).find("SpringSettings.frequency"), std::string::npos);
  s = SpringSettings::frequency_and_damping(2.0f, std::numeric_limits<float>::quiet_NaN());
  st = s.validate();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.error().message()).find("damping"), std::string::npos);
  s = SpringSettings::frequency_and_damping(2.0f, 1.0f);
  s.mode = static_cast<SpringMode>(7);
  EXPECT_FALSE(s.validate().ok());
  EXPECT_STREQ(to_string(SpringMode::MassNormalizedStiffnessAndDamping),
               "mass_normalized_stiffness_and_damping");
}

TEST(MotorSettings, DefaultsAreA2HzCriticallyDampedSpringAndNoLimits) {
  const MotorSettings m;
  EXPECT_EQ(m.spring.mode, SpringMode::FrequencyAndDamping);
  EXPECT_EQ(m.spring.frequency, 2.0f);
  EXPECT_EQ(m.spring.damping, 1.0f);
  EXPECT_TRUE(m.spring.has_stiffness());
  EXPECT_EQ(m.min_force_limit, -k_float_max);
  EXPECT_EQ(m.max_torque_limit, k_float_max);
  EXPECT_TRUE(m.validate().ok());
  EXPECT_STREQ(to_string(MotorState::PositionAndVelocity), "position_and_velocity");
}

TEST(MotorSettings, ValidateNamesTheField) {
  MotorSettings m;
  m.min_force_limit = 5.0f;
  m.max_force_limit = 1.0f;
  Status st = m.validate("slider.motor_settings");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.error().message()).find("slider.motor_settings.min_force_limit"),
            std::string::npos)
      << st.error().message();

  m = MotorSettings();
  m.max_torque_limit = std::numeric_limits<float>::quiet_NaN();
  st = m.validate();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.error().message()).find("MotorSettings.max_torque_limit"),
            std::string::npos);

  m = MotorSettings();
  m.spring.frequency = -1.0f;
  st = m.validate();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(std::string(st.error().message()).find("MotorSettings.spring.frequency"),
            std::string::npos);

  m = MotorSettings();
  m.set_torque_limit(3.0f);
  EXPECT_EQ(m.min_torque_limit, -3.0f);
  EXPECT_EQ(m.max_torque_limit, 3.0f);
  EXPECT_TRUE(m.validate().ok());
  // Frequency 0 is valid: a rigid motor (LAWS.md B2).
  m.spring.frequency = 0.0f;
  EXPECT_TRUE(m.validate().ok());
}

}  // namespace
}  // namespace spring_settings_test
}  // namespace atl
