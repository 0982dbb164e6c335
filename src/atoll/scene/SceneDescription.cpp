#include "atoll/scene/SceneDescription.h"

#include "atoll/scene/PhysicsSettingFields.h"

namespace atl {

bool ShapeRef::operator==(const ShapeRef& other) const {
  if (name != other.name) return false;
  if (definition == nullptr || other.definition == nullptr)
    return definition == nullptr && other.definition == nullptr;
  return *definition == *other.definition;
}

const char* shape_desc_type_name(const ShapeDesc& shape) {
  return shape_sub_type_name(ShapeSubType(shape.params.index()));
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
      return nullptr;
  }
  return nullptr;
}

const ShapeDesc* SceneDescription::find_shape(std::string_view name) const {
  for (const NamedShapeDesc& shape : shapes)
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

const ShapeDesc* SceneDescription::resolve(const ShapeRef& ref) const {
  return ref.definition != nullptr ? ref.definition.get() : find_shape(ref.name);
}

bool operator==(const SceneDescription& a, const SceneDescription& b) {
  for (const PhysicsSettingField& field : physics_setting_fields())
    if (!same_setting(field, a.physics, b.physics)) return false;
  return a.dt == b.dt && a.steps == b.steps && a.collision_steps == b.collision_steps &&
         a.description == b.description && a.shapes == b.shapes && a.bodies == b.bodies &&
         a.events == b.events && a.probes == b.probes;
}

namespace {

AABox ref_bounds(const SceneDescription& scene, const ShapeRef& ref) {
  const ShapeDesc* shape = scene.resolve(ref);
  ATOLL_ASSERT(shape != nullptr, "shape reference to an unknown shape");
  return shape_desc_bounds(scene, *shape);
}

AABox points_bounds(const std::vector<Vec3>& points) {
  AABox bounds;
  for (const Vec3& p : points) bounds.encapsulate(p);
  return bounds;
}

}  // namespace

AABox shape_desc_bounds(const SceneDescription& scene, const ShapeDesc& shape) {
  switch (ShapeSubType(shape.params.index())) {
    case ShapeSubType::Sphere: {
      const float r = std::get<SphereShapeDesc>(shape.params).radius;
      return AABox::from_center(Vec3(), Vec3::replicate(r));
    }
    case ShapeSubType::Box:
      return AABox::from_center(Vec3(), std::get<BoxShapeDesc>(shape.params).half_extent);
    case ShapeSubType::Capsule: {
      const auto& capsule = std::get<CapsuleShapeDesc>(shape.params);
      return AABox::from_center(
          Vec3(), Vec3(capsule.radius, capsule.half_height + capsule.radius, capsule.radius));
    }
    case ShapeSubType::Cylinder: {
      const auto& cylinder = std::get<CylinderShapeDesc>(shape.params);
      return AABox::from_center(Vec3(),
                                Vec3(cylinder.radius, cylinder.half_height, cylinder.radius));
    }
    case ShapeSubType::ConvexHull:
      return points_bounds(std::get<ConvexHullShapeDesc>(shape.params).points);
    case ShapeSubType::TriangleMesh:
      return points_bounds(std::get<MeshShapeDesc>(shape.params).vertices);
    case ShapeSubType::HeightField: {
      const auto& field = std::get<HeightFieldShapeDesc>(shape.params);
      AABox bounds;
      for (uint32_t z = 0; z < field.sample_count; ++z)
        for (uint32_t x = 0; x < field.sample_count; ++x)
          bounds.encapsulate(
              field.offset +
              field.scale * Vec3(float(x), field.heights[z * field.sample_count + x], float(z)));
      return bounds;
    }
    case ShapeSubType::StaticCompound: {
      AABox bounds;
      for (const CompoundChildDesc& child : std::get<CompoundShapeDesc>(shape.params).children)
        bounds.encapsulate(
            ref_bounds(scene, child.shape)
                .transformed(Mat44::rotation_translation(child.rotation, child.position)));
      return bounds;
    }
    case ShapeSubType::RotatedTranslated: {
      const auto& decorated = std::get<RotatedTranslatedShapeDesc>(shape.params);
      return ref_bounds(scene, decorated.shape)
          .transformed(Mat44::rotation_translation(decorated.rotation, decorated.position));
    }
    case ShapeSubType::Scaled: {
      const auto& decorated = std::get<ScaledShapeDesc>(shape.params);
      const AABox inner = ref_bounds(scene, decorated.shape);
      // A negative factor mirrors, swapping which corner is the minimum.
      return AABox::from_two_points(inner.min * decorated.scale, inner.max * decorated.scale);
    }
    case ShapeSubType::OffsetCenterOfMass:
      return ref_bounds(scene, std::get<OffsetCenterOfMassShapeDesc>(shape.params).shape);
  }
  return AABox();
}

}  // namespace atl
