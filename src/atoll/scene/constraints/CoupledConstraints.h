#pragma once
// Internal to scene/constraints/: what gear and rack_and_pinion share — their constraint1 /
// constraint2 keys naming the earlier hinge or slider they couple, and the engine's
// set_constraints errors in the scene's words.

#include <string>
#include <string_view>

#include "atoll/scene/ConstraintFields.h"

namespace atl::fields {

/// The coupled constraints of a gear or rack_and_pinion (names of earlier constraints; empty:
/// none, no position correction).
struct CoupledNames {
  std::string constraint1, constraint2;
};

/// Looks up the named constraints (both or neither) and checks their types; the error names
/// `settings`.constraint1 or .constraint2 (engine_error_at turns it into the JSON path).
Result<std::pair<Ref<Constraint>, Ref<Constraint>>> find_coupled(const CoupledNames& names,
                                                                 const ConstraintBuild& build,
                                                                 const char* settings,
                                                                 ConstraintSubType type1,
                                                                 ConstraintSubType type2);

/// Fails at constraint1 or constraint2 when only one of them is given.
void check_coupled(const CoupledNames& names, const std::string& path);

}  // namespace atl::fields
