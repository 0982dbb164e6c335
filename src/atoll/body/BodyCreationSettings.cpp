#include "atoll/body/BodyCreationSettings.h"

#include "atoll/body/Validation.h"

namespace atl {

namespace {

constexpr const char* k_name = "BodyCreationSettings";

std::string field(const char* name) { return std::string(k_name) + "." + name; }

}  // namespace

MassProperties body_mass_properties(const Shape& shape, std::optional<float> override_mass) {
  MassProperties mass = shape.mass_properties();
  if (!override_mass) return mass;
  if (mass.mass > 0.0f && is_finite(mass.mass)) {
    mass.scale_to_mass(*override_mass);
    return mass;
  }
  // A shape without mass (mesh, height field) has no inertia to scale either: use that of a
  // solid box filling its local bounds, which is finite even for a flat mesh.
  const Vec3 size = shape.local_bounds().size();
  const Vec3 sq = size * size;
  const float k = *override_mass / 12.0f;
  mass.mass = *override_mass;
  mass.inertia = Mat44::zero();
  mass.inertia.set(0, 0, k * (sq.y() + sq.z()));
  mass.inertia.set(1, 1, k * (sq.x() + sq.z()));
  mass.inertia.set(2, 2, k * (sq.x() + sq.y()));
  return mass;
}

ObjectLayer default_object_layer(MotionType motion_type) {
  return motion_type == MotionType::Static ? layers::k_non_moving : layers::k_moving;
}

ObjectLayer BodyCreationSettings::resolved_object_layer() const {
  if (object_layer) return *object_layer;
  return default_object_layer(motion_type);
}

MassProperties BodyCreationSettings::mass_properties() const {
  ATOLL_ASSERT(shape != nullptr);
  return body_mass_properties(*shape, override_mass);
}

Status BodyCreationSettings::validate() const {
  if (shape == nullptr) return field_error(field("shape"), "must not be null");
  if (auto error = check_bounded(field("position"), position, k_max_position, "m")) return *error;
  if (auto error = check_rotation(field("rotation"), rotation)) return *error;
  if (auto error = check_finite(field("linear_velocity"), linear_velocity)) return *error;
  if (auto error = check_finite(field("angular_velocity"), angular_velocity)) return *error;
  if (motion_type != MotionType::Static && motion_type != MotionType::Kinematic &&
      motion_type != MotionType::Dynamic)
    return field_error(field("motion_type"), "invalid value " + std::to_string(int(motion_type)));
  if (motion_type == MotionType::Static) {
    if (linear_velocity != Vec3::zero())
      return field_error(field("linear_velocity"),
                         "must be zero for a static body, got " + format_vec3(linear_velocity));
    if (angular_velocity != Vec3::zero())
      return field_error(field("angular_velocity"),
                         "must be zero for a static body, got " + format_vec3(angular_velocity));
  }
  if (motion_quality != MotionQuality::Discrete && motion_quality != MotionQuality::LinearCast)
    return field_error(field("motion_quality"),
                       "invalid value " + std::to_string(int(motion_quality)));
  if (auto error = check_non_negative(field("friction"), friction)) return *error;
  if (auto error = check_unit_interval(field("restitution"), restitution)) return *error;
  if (auto error = check_non_negative(field("linear_damping"), linear_damping)) return *error;
  if (auto error = check_non_negative(field("angular_damping"), angular_damping)) return *error;
  if (auto error = check_positive(field("max_linear_velocity"), max_linear_velocity)) return *error;
  if (auto error = check_positive(field("max_angular_velocity"), max_angular_velocity))
    return *error;
  if (auto error = check_finite(field("gravity_factor"), gravity_factor)) return *error;
  if (override_mass) {
    if (auto error = check_positive(field("override_mass"), *override_mass)) return *error;
  }
  // Once the position is known to be in range.
  if (auto error = check_shape_placement(
          field("shape"), *shape, Mat44::rotation_translation(rotation.normalized(), position)))
    return *error;
  if (!is_valid_dofs(allowed_dofs))
    return field_error(field("allowed_dofs"),
                       "invalid flags " + std::to_string(unsigned(allowed_dofs)) +
                           " (valid: a combination of the six bits of All = 63)");
  if (auto error = check_non_negative(field("rolling_resistance"), rolling_resistance))
    return *error;
  if (auto error = check_non_negative(field("torsional_friction"), torsional_friction))
    return *error;
  if (motion_type == MotionType::Dynamic) {
    if (allowed_dofs == AllowedDOFs::None)
      return field_error(field("allowed_dofs"),
                         "a dynamic body must be free along at least one axis, got None");
    if (auto problem = dynamic_shape_problem(*shape, override_mass))
      // The mass is to blame only when it was given for a shape that has one of its own (and
      // nothing else wrong).
      return field_error(
          field(override_mass && shape->mass_properties().mass > 0.0f && !triangle_leaf_path(*shape)
                    ? "override_mass"
                    : "shape"),
          *problem);
  }
  return Ok{};
}

}  // namespace atl
