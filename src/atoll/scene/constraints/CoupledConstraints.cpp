// Gear's and rack_and_pinion's coupled constraints (scene/constraints/CoupledConstraints.h).

#include "atoll/scene/constraints/CoupledConstraints.h"

namespace atl::fields {

namespace {

Result<Ref<Constraint>> find_one(const std::string& name, const ConstraintBuild& build,
                                 const std::string& field, ConstraintSubType type) {
  Ref<Constraint> found = build.find(name);
  if (found == nullptr)
    return Error(field + ": unknown constraint " + scene_json::quote(name) +
                 " (a constraint may name only those before it)");
  if (found->sub_type() != type)
    return Error(field + ": " + scene_json::quote(name) + " is a " + to_string(found->sub_type()) +
                 " constraint, expected a " + to_string(type));
  return found;
}

}  // namespace

Result<std::pair<Ref<Constraint>, Ref<Constraint>>> find_coupled(const CoupledNames& names,
                                                                 const ConstraintBuild& build,
                                                                 const char* settings,
                                                                 ConstraintSubType type1,
                                                                 ConstraintSubType type2) {
  if (names.constraint1.empty() && names.constraint2.empty())
    return std::pair<Ref<Constraint>, Ref<Constraint>>{};
  Result<Ref<Constraint>> first =
      find_one(names.constraint1, build, std::string(settings) + ".constraint1", type1);
  if (!first) return first.error();
  Result<Ref<Constraint>> second =
      find_one(names.constraint2, build, std::string(settings) + ".constraint2", type2);
  if (!second) return second.error();
  return std::pair{*first, *second};
}

void check_coupled(const CoupledNames& names, const std::string& path) {
  if (names.constraint1.empty() != names.constraint2.empty())
    scene_json::fail(
        scene_json::member_path(path, names.constraint1.empty() ? "constraint1" : "constraint2"),
        "required key missing (constraint1 and constraint2 are given together)");
}

}  // namespace atl::fields
