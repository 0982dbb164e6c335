#pragma once
// PhysicsSettings as a scene file's "settings" object sees it: one entry per field, named
// exactly like the field. The reader, the writer, --set and the test that keeps
// docs/scene-format.md in sync all walk this one table; the valid ranges are
// PhysicsSettings::validate()'s.

#include <span>
#include <variant>

#include "atoll/solver/PhysicsSettings.h"

namespace atl {

/// One PhysicsSettings field.
struct PhysicsSettingField {
  /// JSON key: the C++ field name.
  const char* name;
  /// The field.
  std::variant<Vec3 PhysicsSettings::*, int PhysicsSettings::*, float PhysicsSettings::*,
               bool PhysicsSettings::*>
      member;
};

/// Every PhysicsSettings field, in declaration order.
std::span<const PhysicsSettingField> physics_setting_fields();

/// True when the field compares equal (operator==) in both settings.
bool same_setting(const PhysicsSettingField& field, const PhysicsSettings& a,
                  const PhysicsSettings& b);

}  // namespace atl
