// The distance constraint of the scene format (scene/ConstraintFields.h): a rod, rope or
// spring between two points.

#include "atoll/constraint/DistanceConstraint.h"
#include "atoll/scene/ConstraintFields.h"

namespace atl::fields {

namespace {

struct DistanceDesc final : ConstraintData<DistanceDesc> {
  DistanceConstraintSettings settings;
};

/// A distance (m): ≥ 0, or −1 for the distance at creation.
struct DistanceLimit : Real {
  static std::string range() { return "≥ 0, or -1: the distance at creation"; }
  static void read(float& v, const Json& j, const std::string& p, SceneParser&) {
    const float value = scene_json::read_float(j, p);
    if (value < 0.0f && value != -1.0f)
      scene_json::fail(p, "must be >= 0, or -1 for the distance at creation, got " +
                              scene_json::number_text(value));
    v = value;
  }
};

struct DistanceBehaviour {
  using Engine = DistanceConstraint;
  static constexpr ConstraintSubType type = ConstraintSubType::Distance;
  static constexpr bool linear_part = true, angular_part = false, motor = false;
  static void complete(DistanceDesc&, const Json&) {}
  static Result<Ref<Constraint>> create(const DistanceDesc& d, const ConstraintBuild& b) {
    return d.settings.create(b.bodies, b.body1, b.body2);
  }
  static constexpr auto set_motor = &no_motor;
  static void total_lambda(const Constraint& c, LambdaParts& parts) {
    add_lambda(parts, "position",
               static_cast<const DistanceConstraint&>(c).total_lambda_position());
  }
};

}  // namespace

template <>
std::span<const Field<DistanceDesc>> FieldTable<DistanceDesc>::fields() {
  using S = DistanceConstraintSettings;
  constexpr auto k_settings = &DistanceDesc::settings;
  static const Field<DistanceDesc> k[] = {
      field<Enum<SpaceNames>, k_settings, &S::space>("space"),
      field<Vector, k_settings, &S::point1>("point1", "m"),
      field<Vector, k_settings, &S::point2>("point2", "m"),
      alias<Vector, Chain<k_settings, &S::point1>, Chain<k_settings, &S::point2>>("point", "m"),
      field<DistanceLimit, k_settings, &S::min_distance>("min_distance", "m"),
      field<DistanceLimit, k_settings, &S::max_distance>("max_distance", "m"),
      field<Object<SpringSettings>, k_settings, &S::limits_spring_settings>(
          "limits_spring_settings"),
  };
  return k;
}
template <>
void FieldTable<DistanceDesc>::check(const DistanceDesc& d, const Json&, const std::string& path) {
  const DistanceConstraintSettings& s = d.settings;
  if (s.min_distance >= 0.0f && s.max_distance >= 0.0f && s.min_distance > s.max_distance)
    scene_json::fail(scene_json::member_path(path, "max_distance"),
                     "must be >= min_distance (" + scene_json::number_text(s.min_distance) +
                         "), got " + scene_json::number_text(s.max_distance));
}

const ConstraintType& distance_constraint_type() {
  return constraint_type<DistanceDesc, DistanceBehaviour>();
}

}  // namespace atl::fields
