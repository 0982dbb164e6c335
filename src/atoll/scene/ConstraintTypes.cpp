// The one list of the constraint types of the scene format (scene/ConstraintFields.h): each
// is defined in its own file in scene/constraints/. A new type adds its file and one line here.

#include "atoll/scene/ConstraintFields.h"

namespace atl::fields {

const ConstraintType& fixed_constraint_type();
const ConstraintType& point_constraint_type();
const ConstraintType& hinge_constraint_type();
const ConstraintType& slider_constraint_type();
const ConstraintType& distance_constraint_type();
const ConstraintType& cone_constraint_type();
const ConstraintType& swing_twist_constraint_type();
const ConstraintType& six_dof_constraint_type();
const ConstraintType& path_constraint_type();
const ConstraintType& rack_and_pinion_constraint_type();
const ConstraintType& gear_constraint_type();
const ConstraintType& pulley_constraint_type();

std::span<const ConstraintType* const> constraint_types() {
  // In ConstraintSubType order.
  static const ConstraintType* const k[] = {
      &fixed_constraint_type(),           &point_constraint_type(),    &hinge_constraint_type(),
      &slider_constraint_type(),          &distance_constraint_type(), &cone_constraint_type(),
      &swing_twist_constraint_type(),     &six_dof_constraint_type(),  &path_constraint_type(),
      &rack_and_pinion_constraint_type(), &gear_constraint_type(),     &pulley_constraint_type(),
  };
  return k;
}

}  // namespace atl::fields
