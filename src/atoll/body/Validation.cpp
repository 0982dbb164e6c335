#include "atoll/body/Validation.h"

#include "atoll/body/BodyCreationSettings.h"
#include "atoll/shape/DecoratedShape.h"
#include "atoll/shape/StaticCompoundShape.h"

namespace atl {

std::string format_quat(const Quat& value) {
  // Appended piece by piece: g++ 12 reports a false -Wrestrict for "(" + std::string.
  std::string text = "(";
  text += format_float(value.x());
  text += ", ";
  text += format_float(value.y());
  text += ", ";
  text += format_float(value.z());
  text += ", ";
  text += format_float(value.w());
  text += ")";
  return text;
}

std::string format_body_id(BodyID id) {
  std::string text = "{index ";
  text += std::to_string(id.index());
  text += ", sequence ";
  text += std::to_string(id.sequence());
  text += "}";
  return text;
}

std::optional<Error> check_rotation(std::string_view field, const Quat& value) {
  if (!value.is_finite()) return field_error(field, "must be finite, got " + format_quat(value));
  if (value.is_normalized(k_rotation_normalized_tolerance)) return std::nullopt;
  return field_error(field, "must be a unit quaternion, got " + format_quat(value) + " of length " +
                                format_float(value.length()));
}

std::optional<Error> check_bounded(std::string_view field, const Vec3& value, float limit,
                                   std::string_view unit) {
  if (auto error = check_finite(field, value)) return error;
  if (value.abs().max_component() <= limit) return std::nullopt;
  std::string problem = "each component must be within ±" + format_float(limit);
  if (!unit.empty()) {
    problem += " ";
    problem += unit;
  }
  problem += ", got " + format_vec3(value);
  return field_error(field, problem);
}

std::optional<std::string> triangle_leaf_path(const Shape& shape) {
  if (shape.type() == ShapeType::Mesh || shape.type() == ShapeType::HeightField)
    return std::string();
  if (shape.type() == ShapeType::Decorated) {
    if (auto path = triangle_leaf_path(*static_cast<const DecoratedShape&>(shape).inner()))
      return path->empty() ? std::string("inner") : "inner." + *path;
    return std::nullopt;
  }
  if (shape.sub_type() == ShapeSubType::StaticCompound) {
    const auto& compound = static_cast<const StaticCompoundShape&>(shape);
    for (uint32_t i = 0; i < compound.num_children(); ++i) {
      if (auto path = triangle_leaf_path(*compound.child(i).shape)) {
        const std::string child = "children[" + std::to_string(i) + "]";
        return path->empty() ? child : child + "." + *path;
      }
    }
  }
  return std::nullopt;
}

std::optional<std::string> dynamic_shape_problem(const Shape& shape,
                                                 std::optional<float> override_mass) {
  const float shape_mass = shape.mass_properties().mass;
  if (!(shape_mass > 0.0f))
    return std::string("a dynamic body needs a shape with volume; a ") +
           shape_sub_type_name(shape.sub_type()) +
           " has none (triangle meshes and height fields are for static and kinematic bodies)";
  // Mesh and height field pairs are never collided (CollideShapes.h): such a leaf of a moving
  // compound fell through a static mesh floor while the compound's other children landed.
  if (auto path = triangle_leaf_path(shape))
    return std::string(
               "a dynamic body's shape must not hold a triangle mesh or height field, "
               "whose triangles collide with no static mesh or height field, but the ") +
           shape_sub_type_name(shape.sub_type()) + " holds one at " + *path +
           " (triangle meshes and height fields are for static and kinematic bodies)";
  if (!is_finite(shape_mass))
    return "the shape's mass overflows float (" + format_float(shape_mass) +
           " kg): the shape is too large";
  const float mass = override_mass.value_or(shape_mass);
  if (!(mass >= k_min_mass))
    return "a dynamic body needs a mass of at least " + format_float(k_min_mass) + " kg, got " +
           format_float(mass) + " kg" + (override_mass ? "" : " (from the shape's density)");
  // A moment of inertia so small that its inverse overflows float (a box of 1e-15 m at density
  // 1e35 kg/m³, mass 1.4e-9 kg) gave the body a NaN inverse inertia: it was quarantined at its
  // first step without a word at creation.
  Mat44 axes;
  Vec3 moments;
  if (body_mass_properties(shape, override_mass).decompose_principal_moments(axes, moments) &&
      moments.min_component() > 0.0f && !moments.reciprocal().is_finite())
    return "the shape's smallest moment of inertia, " + format_float(moments.min_component()) +
           " kg·m², is too small for float (its inverse overflows): the shape is too small for "
           "its mass";
  return std::nullopt;
}

std::optional<Error> check_unit_interval(std::string_view field, float value) {
  if (value >= 0.0f && value <= 1.0f) return std::nullopt;
  return field_error(field, "must be in [0, 1], got " + format_float(value));
}

std::optional<Error> check_shape_placement(std::string_view field, const Shape& shape,
                                           const Mat44& transform) {
  const Vec3 center = shape.center_of_mass();
  if (!center.is_finite() || !(center.abs().max_component() <= k_max_position))
    return field_error(field, "its centre of mass must lie within ±" +
                                  format_float(k_max_position) + " m of its origin, got " +
                                  format_vec3(center));
  // Finite first: max_component() passes over a NaN component. A finite shape far away (a 1e38
  // box at x = 3e38) overflowed the bounds and aborted in the broadphase.
  const AABox bounds = shape.world_bounds(transform);
  if (!bounds.min.is_finite() || !bounds.max.is_finite() ||
      !(bounds.min.abs().max_component() <= k_max_position) ||
      !(bounds.max.abs().max_component() <= k_max_position))
    return field_error(field, "the body's bounds must lie within ±" + format_float(k_max_position) +
                                  " m of the origin, got " + format_vec3(bounds.min) + " to " +
                                  format_vec3(bounds.max));
  return std::nullopt;
}

}  // namespace atl
