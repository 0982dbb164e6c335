#pragma once
// PhysicsSettings as a scene file's "settings" object sees it: its field table
// (scene/FieldTable.h), one row per field, named exactly like the field. The reader, the
// writer, --set, scene equality and the test that keeps docs/scene-format.md in sync all walk
// this one table; the valid ranges are PhysicsSettings::validate()'s.

#include <span>

#include "atoll/scene/FieldTable.h"
#include "atoll/solver/PhysicsSettings.h"

namespace atl {

/// Every PhysicsSettings field, in declaration order (FieldTable<PhysicsSettings>).
std::span<const fields::Field<PhysicsSettings>> physics_setting_fields();

}  // namespace atl
