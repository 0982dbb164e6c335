// The slider constraint of the scene format (scene/ConstraintFields.h): a prismatic joint with
// limits, friction and a motor.

#include "atoll/constraint/SliderConstraint.h"
#include "atoll/scene/ConstraintFields.h"

namespace atl::fields {

namespace {

struct SliderDesc final : ConstraintData<SliderDesc> {
  /// The engine's settings (its motor_settings unused: `motor` holds them).
  SliderConstraintSettings settings;
  /// motor_settings with its state and targets.
  SceneMotor motor;
};

constexpr RealRange k_slider_min_range{-k_float_max, 0.0f, "≤ 0"};
constexpr RealRange k_slider_max_range{0.0f, k_float_max, "≥ 0"};

struct SliderBehaviour {
  using Engine = SliderConstraint;
  static constexpr ConstraintSubType type = ConstraintSubType::Slider;
  static constexpr bool linear_part = true, angular_part = true, motor = true;
  static void complete(SliderDesc&, const Json&) {}
  static Result<Ref<Constraint>> create(const SliderDesc& d, const ConstraintBuild& b) {
    SliderConstraintSettings s = d.settings;
    s.motor_settings = d.motor.settings;
    Result<Ref<Constraint>> made = s.create(b.bodies, b.body1, b.body2);
    if (!made) return made;
    auto& slider = static_cast<SliderConstraint&>(**made);
    slider.set_motor_state(d.motor.state);
    if (Status ok = slider.set_target_velocity(d.motor.target_velocity); !ok) return ok.error();
    if (Status ok = slider.set_target_position(d.motor.target_position); !ok) return ok.error();
    return made;
  }
  static Status set_motor(Constraint& c, const EventDesc& e) {
    auto& slider = static_cast<SliderConstraint&>(c);
    if (e.motor_state) slider.set_motor_state(*e.motor_state);
    if (e.target_velocity)
      if (Status ok = slider.set_target_velocity(*e.target_velocity); !ok) return ok;
    if (e.target_position)
      if (Status ok = slider.set_target_position(*e.target_position); !ok) return ok;
    return Ok{};
  }
  static void total_lambda(const Constraint& c, LambdaParts& parts) {
    const auto& slider = static_cast<const SliderConstraint&>(c);
    add_lambda(parts, "position", slider.total_lambda_position());
    add_lambda(parts, "rotation", slider.total_lambda_rotation());
    add_lambda(parts, "limits", slider.total_lambda_position_limits());
    add_lambda(parts, "motor", slider.total_lambda_motor());
  }
};

}  // namespace

template <>
std::span<const Field<SliderDesc>> FieldTable<SliderDesc>::fields() {
  using S = SliderConstraintSettings;
  constexpr auto k_settings = &SliderDesc::settings;
  static const Field<SliderDesc> k[] = {
      field<Enum<SpaceNames>, k_settings, &S::space>("space"),
      field<Vector, k_settings, &S::point1>("point1", "m"),
      field<Vector, k_settings, &S::point2>("point2", "m"),
      alias<Vector, Chain<k_settings, &S::point1>, Chain<k_settings, &S::point2>>("point", "m"),
      field<Direction, k_settings, &S::slider_axis1>("slider_axis1"),
      alias<Direction, Chain<k_settings, &S::slider_axis1>, Chain<k_settings, &S::slider_axis1>>(
          "slider_axis"),
      field<Rotation, k_settings, &S::relative_rotation>("relative_rotation"),
      field<RealIn<k_slider_min_range>, k_settings, &S::limits_min>("limits_min", "m"),
      field<RealIn<k_slider_max_range>, k_settings, &S::limits_max>("limits_max", "m"),
      field<Object<SpringSettings>, k_settings, &S::limits_spring_settings>(
          "limits_spring_settings"),
      field<NonNegative, k_settings, &S::max_friction_force>("max_friction_force", "N"),
      field<Object<SceneMotor>, &SliderDesc::motor>("motor_settings"),
  };
  return k;
}

const ConstraintType& slider_constraint_type() {
  return constraint_type<SliderDesc, SliderBehaviour>();
}

}  // namespace atl::fields
