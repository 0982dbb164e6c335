// The point constraint of the scene format (scene/ConstraintFields.h): a ball joint.

#include "atoll/constraint/PointConstraint.h"
#include "atoll/scene/ConstraintFields.h"

namespace atl::fields {

namespace {

struct PointDesc final : ConstraintData<PointDesc> {
  PointConstraintSettings settings;
};

struct PointBehaviour {
  using Engine = PointConstraint;
  static constexpr ConstraintSubType type = ConstraintSubType::Point;
  static constexpr bool linear_part = true, angular_part = false, motor = false;
  static void complete(PointDesc&, const Json&) {}
  static Result<Ref<Constraint>> create(const PointDesc& d, const ConstraintBuild& b) {
    return d.settings.create(b.bodies, b.body1, b.body2);
  }
  static constexpr auto set_motor = &no_motor;
  static void total_lambda(const Constraint& c, LambdaParts& parts) {
    add_lambda(parts, "position", static_cast<const PointConstraint&>(c).total_lambda_position());
  }
};

}  // namespace

template <>
std::span<const Field<PointDesc>> FieldTable<PointDesc>::fields() {
  using S = PointConstraintSettings;
  constexpr auto k_settings = &PointDesc::settings;
  static const Field<PointDesc> k[] = {
      field<Enum<SpaceNames>, k_settings, &S::space>("space"),
      field<Vector, k_settings, &S::point1>("point1", "m"),
      field<Vector, k_settings, &S::point2>("point2", "m"),
      alias<Vector, Chain<k_settings, &S::point1>, Chain<k_settings, &S::point2>>("point", "m"),
  };
  return k;
}

const ConstraintType& point_constraint_type() {
  return constraint_type<PointDesc, PointBehaviour>();
}

}  // namespace atl::fields
