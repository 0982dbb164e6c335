// The gear constraint of the scene format (scene/ConstraintFields.h): two bodies turning about
// their axes at a fixed ratio, ω1·a1 + ratio·ω2·a2 = 0; constraint1 / constraint2 name the
// hinges that hold the gears (earlier constraints), whose angles correct the drift.

#include "atoll/constraint/GearConstraint.h"
#include "atoll/scene/constraints/CoupledConstraints.h"

namespace atl::fields {

namespace {

struct GearDesc final : ConstraintData<GearDesc> {
  GearConstraintSettings settings;
  /// constraint1 / constraint2: the hinges of body 1 and body 2.
  CoupledNames coupled;
};

struct GearBehaviour {
  static constexpr ConstraintSubType type = ConstraintSubType::Gear;
  static constexpr bool linear_part = false, angular_part = true, motor = false;
  // No points: the gears turn about their centres of mass.
  static std::pair<Vec3, Vec3> anchors(const Constraint&) { return {Vec3(), Vec3()}; }
  static void complete(GearDesc&, const Json&) {}
  static Result<Ref<Constraint>> create(const GearDesc& d, const ConstraintBuild& b) {
    auto coupled = find_coupled(d.coupled, b, "GearConstraintSettings", ConstraintSubType::Hinge,
                                ConstraintSubType::Hinge);
    if (!coupled) return coupled.error();
    Result<Ref<Constraint>> made = d.settings.create(b.bodies, b.body1, b.body2);
    if (!made) return made;
    if (Status ok =
            static_cast<GearConstraint&>(**made).set_constraints(coupled->first, coupled->second);
        !ok)
      return ok.error();
    return made;
  }
  static constexpr auto set_motor = &no_motor;
  static void total_lambda(const Constraint& c, LambdaParts& parts) {
    add_lambda(parts, "gear", static_cast<const GearConstraint&>(c).total_lambda());
  }
};

}  // namespace

template <>
std::span<const Field<GearDesc>> FieldTable<GearDesc>::fields() {
  using S = GearConstraintSettings;
  constexpr auto k_settings = &GearDesc::settings;
  static const Field<GearDesc> k[] = {
      field<Enum<SpaceNames>, k_settings, &S::space>("space"),
      field<Direction, k_settings, &S::hinge_axis1>("hinge_axis1"),
      field<Direction, k_settings, &S::hinge_axis2>("hinge_axis2"),
      alias<Direction, Chain<k_settings, &S::hinge_axis1>, Chain<k_settings, &S::hinge_axis2>>(
          "hinge_axis"),
      field<NonZero, k_settings, &S::ratio>("ratio"),
      field<ConstraintReference, &GearDesc::coupled, &CoupledNames::constraint1>("constraint1"),
      field<ConstraintReference, &GearDesc::coupled, &CoupledNames::constraint2>("constraint2"),
  };
  return k;
}
template <>
void FieldTable<GearDesc>::check(const GearDesc& d, const Json&, const std::string& path) {
  check_coupled(d.coupled, path);
}

const ConstraintType& gear_constraint_type() { return constraint_type<GearDesc, GearBehaviour>(); }

}  // namespace atl::fields
