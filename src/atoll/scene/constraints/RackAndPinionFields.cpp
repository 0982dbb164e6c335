// The rack_and_pinion constraint of the scene format (scene/ConstraintFields.h): a pinion
// (body 1) turning about hinge_axis and a rack (body 2) moving along slider_axis at a fixed
// ratio, ω1·a1 − ratio·v2·s2 = 0; constraint1 / constraint2 name the hinge of the pinion and the
// slider of the rack (earlier constraints), whose angle and position correct the drift.

#include "atoll/constraint/RackAndPinionConstraint.h"
#include "atoll/scene/constraints/CoupledConstraints.h"

namespace atl::fields {

namespace {

struct RackAndPinionDesc final : ConstraintData<RackAndPinionDesc> {
  RackAndPinionConstraintSettings settings;
  /// constraint1: the pinion's hinge; constraint2: the rack's slider.
  CoupledNames coupled;
};

struct RackAndPinionBehaviour {
  static constexpr ConstraintSubType type = ConstraintSubType::RackAndPinion;
  static constexpr bool linear_part = true, angular_part = true, motor = false;
  // No points: the gears turn about their centres of mass.
  static std::pair<Vec3, Vec3> anchors(const Constraint&) { return {Vec3(), Vec3()}; }
  static void complete(RackAndPinionDesc&, const Json&) {}
  static Result<Ref<Constraint>> create(const RackAndPinionDesc& d, const ConstraintBuild& b) {
    auto coupled = find_coupled(d.coupled, b, "RackAndPinionConstraintSettings",
                                ConstraintSubType::Hinge, ConstraintSubType::Slider);
    if (!coupled) return coupled.error();
    Result<Ref<Constraint>> made = d.settings.create(b.bodies, b.body1, b.body2);
    if (!made) return made;
    if (Status ok = static_cast<RackAndPinionConstraint&>(**made).set_constraints(coupled->first,
                                                                                  coupled->second);
        !ok)
      return ok.error();
    return made;
  }
  static constexpr auto set_motor = &no_motor;
  static void total_lambda(const Constraint& c, LambdaParts& parts) {
    add_lambda(parts, "rack_and_pinion",
               static_cast<const RackAndPinionConstraint&>(c).total_lambda());
  }
};

}  // namespace

template <>
std::span<const Field<RackAndPinionDesc>> FieldTable<RackAndPinionDesc>::fields() {
  using S = RackAndPinionConstraintSettings;
  constexpr auto k_settings = &RackAndPinionDesc::settings;
  static const Field<RackAndPinionDesc> k[] = {
      field<Enum<SpaceNames>, k_settings, &S::space>("space"),
      field<Direction, k_settings, &S::hinge_axis>("hinge_axis"),
      field<Direction, k_settings, &S::slider_axis>("slider_axis"),
      field<NonZero, k_settings, &S::ratio>("ratio", "rad/m"),
      field<ConstraintReference, &RackAndPinionDesc::coupled, &CoupledNames::constraint1>(
          "constraint1"),
      field<ConstraintReference, &RackAndPinionDesc::coupled, &CoupledNames::constraint2>(
          "constraint2"),
  };
  return k;
}
template <>
void FieldTable<RackAndPinionDesc>::check(const RackAndPinionDesc& d, const Json&,
                                          const std::string& path) {
  check_coupled(d.coupled, path);
}

const ConstraintType& rack_and_pinion_constraint_type() {
  return constraint_type<RackAndPinionDesc, RackAndPinionBehaviour>();
}

}  // namespace atl::fields
