// The fixed constraint of the scene format (scene/ConstraintFields.h): a weld.

#include "atoll/constraint/FixedConstraint.h"
#include "atoll/scene/ConstraintFields.h"

namespace atl::fields {

namespace {

struct FixedDesc final : ConstraintData<FixedDesc> {
  FixedConstraintSettings settings;
};

struct FixedBehaviour {
  using Engine = FixedConstraint;
  static constexpr ConstraintSubType type = ConstraintSubType::Fixed;
  static constexpr bool linear_part = true, angular_part = true, motor = false;
  static void complete(FixedDesc&, const Json&) {}
  static Result<Ref<Constraint>> create(const FixedDesc& d, const ConstraintBuild& b) {
    return d.settings.create(b.bodies, b.body1, b.body2);
  }
  static constexpr auto set_motor = &no_motor;
  static void total_lambda(const Constraint& c, LambdaParts& parts) {
    const auto& fixed = static_cast<const FixedConstraint&>(c);
    add_lambda(parts, "position", fixed.total_lambda_position());
    add_lambda(parts, "rotation", fixed.total_lambda_rotation());
  }
};

}  // namespace

template <>
std::span<const Field<FixedDesc>> FieldTable<FixedDesc>::fields() {
  using S = FixedConstraintSettings;
  constexpr auto k_settings = &FixedDesc::settings;
  static const Field<FixedDesc> k[] = {
      field<Enum<SpaceNames>, k_settings, &S::space>("space"),
      field<Vector, k_settings, &S::point1>("point1", "m"),
      field<Vector, k_settings, &S::point2>("point2", "m"),
      alias<Vector, Chain<k_settings, &S::point1>, Chain<k_settings, &S::point2>>("point", "m"),
      field<Rotation, k_settings, &S::relative_rotation>("relative_rotation"),
  };
  return k;
}

const ConstraintType& fixed_constraint_type() {
  return constraint_type<FixedDesc, FixedBehaviour>();
}

}  // namespace atl::fields
