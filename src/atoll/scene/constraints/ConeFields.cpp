// The cone constraint of the scene format (scene/ConstraintFields.h): a ball joint whose swing
// is limited to a circular cone (the twist is free).

#include "atoll/constraint/ConeConstraint.h"
#include "atoll/scene/ConstraintFields.h"

namespace atl::fields {

namespace {

struct ConeDesc final : ConstraintData<ConeDesc> {
  ConeConstraintSettings settings;
};

constexpr RealRange k_cone_half_range{0.0f, k_pi, "[0, π]"};

struct ConeBehaviour {
  static constexpr ConstraintSubType type = ConstraintSubType::Cone;
  static constexpr bool linear_part = true, angular_part = true, motor = false;
  using Engine = ConeConstraint;
  static void complete(ConeDesc&, const Json&) {}
  static Result<Ref<Constraint>> create(const ConeDesc& d, const ConstraintBuild& b) {
    return d.settings.create(b.bodies, b.body1, b.body2);
  }
  static constexpr auto set_motor = &no_motor;
  static void total_lambda(const Constraint& c, LambdaParts& parts) {
    const auto& cone = static_cast<const ConeConstraint&>(c);
    add_lambda(parts, "position", cone.total_lambda_position());
    add_lambda(parts, "rotation", cone.total_lambda_rotation());
  }
};

}  // namespace

template <>
std::span<const Field<ConeDesc>> FieldTable<ConeDesc>::fields() {
  using S = ConeConstraintSettings;
  constexpr auto k_settings = &ConeDesc::settings;
  static const Field<ConeDesc> k[] = {
      field<Enum<SpaceNames>, k_settings, &S::space>("space"),
      field<Vector, k_settings, &S::point1>("point1", "m"),
      field<Vector, k_settings, &S::point2>("point2", "m"),
      alias<Vector, Chain<k_settings, &S::point1>, Chain<k_settings, &S::point2>>("point", "m"),
      field<Direction, k_settings, &S::twist_axis1>("twist_axis1"),
      field<Direction, k_settings, &S::twist_axis2>("twist_axis2"),
      alias<Direction, Chain<k_settings, &S::twist_axis1>, Chain<k_settings, &S::twist_axis2>>(
          "twist_axis"),
      field<RealIn<k_cone_half_range>, k_settings, &S::half_cone_angle>("half_cone_angle", "rad"),
  };
  return k;
}

const ConstraintType& cone_constraint_type() { return constraint_type<ConeDesc, ConeBehaviour>(); }

}  // namespace atl::fields
