#include "atoll/scene/SceneDescription.h"

#include "atoll/scene/PhysicsSettingFields.h"

#include <type_traits>

namespace atl {

bool ShapeRef::operator==(const ShapeRef& other) const {
  if (name != other.name) return false;
  if (definition == nullptr || other.definition == nullptr)
    return definition == nullptr && other.definition == nullptr;
  return *definition == *other.definition;
}

const char* scene_shape_type_name(const SceneShape& shape) {
  return shape_sub_type_name(shape.type());
}

const char* scene_action_name(SceneAction action) {
  switch (action) {
    case SceneAction::AddForce:
      return "add_force";
    case SceneAction::AddImpulse:
      return "add_impulse";
    case SceneAction::AddTorque:
      return "add_torque";
    case SceneAction::AddAngularImpulse:
      return "add_angular_impulse";
    case SceneAction::SetLinearVelocity:
      return "set_linear_velocity";
    case SceneAction::SetAngularVelocity:
      return "set_angular_velocity";
    case SceneAction::SetMotionQuality:
      return "set_motion_quality";
    case SceneAction::SetMotionType:
      return "set_motion_type";
    case SceneAction::Activate:
      return "activate";
    case SceneAction::Deactivate:
      return "deactivate";
    case SceneAction::Remove:
      return "remove";
    case SceneAction::MoveKinematic:
      return "move_kinematic";
    case SceneAction::SetMotor:
      return "set_motor";
    case SceneAction::EnableConstraint:
      return "enable_constraint";
    case SceneAction::DisableConstraint:
      return "disable_constraint";
  }
  return "invalid";
}

const char* scene_action_vector_key(SceneAction action) {
  switch (action) {
    case SceneAction::AddForce:
      return "force";
    case SceneAction::AddImpulse:
      return "impulse";
    case SceneAction::AddTorque:
      return "torque";
    case SceneAction::AddAngularImpulse:
      return "angular_impulse";
    case SceneAction::SetLinearVelocity:
      return "linear_velocity";
    case SceneAction::SetAngularVelocity:
      return "angular_velocity";
    case SceneAction::MoveKinematic:
      return "position";
    case SceneAction::SetMotionQuality:
    case SceneAction::SetMotionType:
    case SceneAction::Activate:
    case SceneAction::Deactivate:
    case SceneAction::Remove:
    case SceneAction::SetMotor:
    case SceneAction::EnableConstraint:
    case SceneAction::DisableConstraint:
      return nullptr;
  }
  return nullptr;
}

bool scene_action_on_constraint(SceneAction action) {
  return action == SceneAction::SetMotor || action == SceneAction::EnableConstraint ||
         action == SceneAction::DisableConstraint;
}

ConstraintDesc* SceneDescription::find_constraint(std::string_view name) {
  for (ConstraintDesc& constraint : constraints)
    if (constraint.name == name) return &constraint;
  return nullptr;
}

const ConstraintDesc* SceneDescription::find_constraint(std::string_view name) const {
  for (const ConstraintDesc& constraint : constraints)
    if (constraint.name == name) return &constraint;
  return nullptr;
}

SoftBodyDesc* SceneDescription::find_soft_body(std::string_view name) {
  for (SoftBodyDesc& soft_body : soft_bodies)
    if (soft_body.name == name) return &soft_body;
  return nullptr;
}

const SoftBodyDesc* SceneDescription::find_soft_body(std::string_view name) const {
  for (const SoftBodyDesc& soft_body : soft_bodies)
    if (soft_body.name == name) return &soft_body;
  return nullptr;
}

const SceneShape* SceneDescription::find_shape(std::string_view name) const {
  for (const NamedShape& shape : shapes)
    if (shape.name == name) return &shape.shape;
  return nullptr;
}

BodyDesc* SceneDescription::find_body(std::string_view name) {
  for (BodyDesc& body : bodies)
    if (body.name == name) return &body;
  return nullptr;
}

const BodyDesc* SceneDescription::find_body(std::string_view name) const {
  for (const BodyDesc& body : bodies)
    if (body.name == name) return &body;
  return nullptr;
}

const SceneShape* SceneDescription::resolve(const ShapeRef& ref) const {
  return ref.definition != nullptr ? ref.definition.get() : find_shape(ref.name);
}

bool operator==(const SceneDescription& a, const SceneDescription& b) {
  if (!fields::equal_objects(a.physics, b.physics)) return false;
  return a.dt == b.dt && a.steps == b.steps && a.collision_steps == b.collision_steps &&
         a.description == b.description && a.shapes == b.shapes && a.bodies == b.bodies &&
         a.constraints == b.constraints && a.soft_bodies == b.soft_bodies && a.events == b.events &&
         a.probes == b.probes;
}

namespace {

AABox ref_bounds(const SceneDescription& scene, const ShapeRef& ref) {
  const SceneShape* shape = scene.resolve(ref);
  ATOLL_ASSERT(shape != nullptr, "shape reference to an unknown shape");
  return scene_shape_bounds(scene, *shape);
}

template <class Points>
AABox points_bounds(const Points& points) {
  AABox bounds;
  for (const auto& p : points) bounds.encapsulate(Vec3(p));
  return bounds;
}

}  // namespace

AABox scene_shape_bounds(const SceneDescription& scene, const SceneShape& shape) {
  return std::visit(
      [&](const auto& s) -> AABox {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, SphereShapeSettings>) {
          return AABox::from_center(Vec3(), Vec3::replicate(s.radius));
        } else if constexpr (std::is_same_v<T, BoxShapeSettings>) {
          return AABox::from_center(Vec3(), s.half_extent);
        } else if constexpr (std::is_same_v<T, CapsuleShapeSettings>) {
          return AABox::from_center(Vec3(),
                                    Vec3(s.radius, s.half_height_of_cylinder + s.radius, s.radius));
        } else if constexpr (std::is_same_v<T, CylinderShapeSettings>) {
          return AABox::from_center(Vec3(), Vec3(s.radius, s.half_height, s.radius));
        } else if constexpr (std::is_same_v<T, ConvexHullShapeSettings>) {
          return points_bounds(s.points);
        } else if constexpr (std::is_same_v<T, TriangleMeshShapeSettings>) {
          return points_bounds(s.vertices);
        } else if constexpr (std::is_same_v<T, HeightFieldShapeSettings>) {
          AABox bounds;
          for (uint32_t z = 0; z < s.sample_count; ++z)
            for (uint32_t x = 0; x < s.sample_count; ++x)
              bounds.encapsulate(
                  s.offset + s.scale * Vec3(float(x), s.heights[z * s.sample_count + x], float(z)));
          return bounds;
        } else if constexpr (std::is_same_v<T, CompoundShapeParts>) {
          AABox bounds;
          for (const auto& child : s.children)
            bounds.encapsulate(ref_bounds(scene, child.shape)
                                   .transformed(Mat44::rotation_translation(
                                       child.settings.rotation, child.settings.position)));
          return bounds;
        } else if constexpr (std::is_same_v<T, WithShape<RotatedTranslatedShapeSettings>>) {
          return ref_bounds(scene, s.shape)
              .transformed(Mat44::rotation_translation(s.settings.rotation, s.settings.position));
        } else if constexpr (std::is_same_v<T, WithShape<ScaledShapeSettings>>) {
          const AABox inner = ref_bounds(scene, s.shape);
          // A negative factor mirrors, swapping which corner is the minimum.
          return AABox::from_two_points(inner.min * s.settings.scale, inner.max * s.settings.scale);
        } else {
          static_assert(std::is_same_v<T, WithShape<OffsetCenterOfMassShapeSettings>>);
          return ref_bounds(scene, s.shape);
        }
      },
      shape.settings);
}

}  // namespace atl
