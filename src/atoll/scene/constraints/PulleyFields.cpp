// The pulley constraint of the scene format (scene/ConstraintFields.h): a rope from body 1 over
// fixed_point1 and fixed_point2 to body 2, min_length ≤ L1 + ratio·L2 ≤ max_length.

#include "atoll/constraint/PulleyConstraint.h"
#include "atoll/scene/ConstraintFields.h"

namespace atl::fields {

namespace {

struct PulleyDesc final : ConstraintData<PulleyDesc> {
  PulleyConstraintSettings settings;
};

/// A rope length (m): ≥ 0, or −1 for the length at creation.
struct LengthLimit : Real {
  static std::string range() { return "≥ 0, or -1: the length at creation"; }
  static void read(float& v, const Json& j, const std::string& p, SceneParser&) {
    const float value = scene_json::read_float(j, p);
    if (value < 0.0f && value != -1.0f)
      scene_json::fail(p, "must be >= 0, or -1 for the length at creation, got " +
                              scene_json::number_text(value));
    v = value;
  }
};

struct PulleyBehaviour {
  static constexpr ConstraintSubType type = ConstraintSubType::Pulley;
  static constexpr bool linear_part = true, angular_part = false, motor = false;
  static std::pair<Vec3, Vec3> anchors(const Constraint& c) {
    const PulleyConstraintSettings s = static_cast<const PulleyConstraint&>(c).settings();
    return {s.body_point1, s.body_point2};
  }
  static void complete(PulleyDesc&, const Json&) {}
  static Result<Ref<Constraint>> create(const PulleyDesc& d, const ConstraintBuild& b) {
    return d.settings.create(b.bodies, b.body1, b.body2);
  }
  static constexpr auto set_motor = &no_motor;
  static void total_lambda(const Constraint& c, LambdaParts& parts) {
    add_lambda(parts, "position", static_cast<const PulleyConstraint&>(c).total_lambda());
  }
};

}  // namespace

template <>
std::span<const Field<PulleyDesc>> FieldTable<PulleyDesc>::fields() {
  using S = PulleyConstraintSettings;
  constexpr auto k_settings = &PulleyDesc::settings;
  static const Field<PulleyDesc> k[] = {
      field<Enum<SpaceNames>, k_settings, &S::space>("space"),
      field<Vector, k_settings, &S::body_point1>("body_point1", "m"),
      field<Vector, k_settings, &S::fixed_point1>("fixed_point1", "m"),
      field<Vector, k_settings, &S::body_point2>("body_point2", "m"),
      field<Vector, k_settings, &S::fixed_point2>("fixed_point2", "m"),
      field<Positive, k_settings, &S::ratio>("ratio"),
      field<LengthLimit, k_settings, &S::min_length>("min_length", "m"),
      field<LengthLimit, k_settings, &S::max_length>("max_length", "m"),
  };
  return k;
}
template <>
void FieldTable<PulleyDesc>::check(const PulleyDesc& d, const Json&, const std::string& path) {
  const PulleyConstraintSettings& s = d.settings;
  if (s.min_length >= 0.0f && s.max_length >= 0.0f && s.min_length > s.max_length)
    scene_json::fail(scene_json::member_path(path, "max_length"),
                     "must be >= min_length (" + scene_json::number_text(s.min_length) + "), got " +
                         scene_json::number_text(s.max_length));
}

const ConstraintType& pulley_constraint_type() {
  return constraint_type<PulleyDesc, PulleyBehaviour>();
}

}  // namespace atl::fields
