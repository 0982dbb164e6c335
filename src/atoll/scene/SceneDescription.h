#pragma once
// A scene as plain data: what a JSON scene file says (docs/scene-format.md), with generators
// already expanded into bodies. The fields a file may leave out are std::optional: whoever
// builds the world applies only what the file says on top of the engine's own defaults, so no
// engine default is repeated here.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "atoll/body/AllowedDOFs.h"
#include "atoll/body/MotionQuality.h"
#include "atoll/body/MotionType.h"
#include "atoll/collision/broadphase/ObjectLayer.h"
#include "atoll/geometry/AABox.h"
#include "atoll/math/Quat.h"
#include "atoll/shape/Shape.h"
#include "atoll/solver/PhysicsSettings.h"

namespace atl {

struct ShapeDesc;

/// A shape as a body or another shape uses it: a named shape definition or an inline one.
struct ShapeRef {
  /// Name of an entry of SceneDescription::shapes; empty for an inline shape.
  std::string name;
  /// The inline definition (the bodies of one generator share it); null for a named shape.
  std::shared_ptr<const ShapeDesc> definition;
  /// Equal names and equal inline definitions (compared by value, not by pointer).
  bool operator==(const ShapeRef& other) const;
};

/// "box": a box centred on the origin.
struct BoxShapeDesc {
  /// Half the size along each local axis (m); each > 0.
  Vec3 half_extent;
  /// Radius (m) of the rounded edges, within half_extent; unset: the shape's default.
  std::optional<float> convex_radius;
  /// Density (kg/m³); unset: the shape's default.
  std::optional<float> density;
  bool operator==(const BoxShapeDesc&) const = default;
};

/// "sphere": a sphere centred on the origin.
struct SphereShapeDesc {
  /// Radius (m); > 0.
  float radius = 0.0f;
  /// Density (kg/m³); unset: the shape's default.
  std::optional<float> density;
  bool operator==(const SphereShapeDesc&) const = default;
};

/// "capsule": a cylinder along local Y capped by two hemispheres.
struct CapsuleShapeDesc {
  /// Half the length (m) of the cylindrical part; > 0.
  float half_height = 0.0f;
  /// Radius (m); > 0.
  float radius = 0.0f;
  /// Density (kg/m³); unset: the shape's default.
  std::optional<float> density;
  bool operator==(const CapsuleShapeDesc&) const = default;
};

/// "cylinder": a cylinder along local Y centred on the origin.
struct CylinderShapeDesc {
  /// Half the height (m); > 0.
  float half_height = 0.0f;
  /// Radius (m); > 0.
  float radius = 0.0f;
  /// Radius (m) of the rounded edges; unset: the shape's default.
  std::optional<float> convex_radius;
  /// Density (kg/m³); unset: the shape's default.
  std::optional<float> density;
  bool operator==(const CylinderShapeDesc&) const = default;
};

/// "convex_hull": the convex hull of a point cloud.
struct ConvexHullShapeDesc {
  /// Points (m, local space); at least 4.
  std::vector<Vec3> points;
  /// Largest radius (m) of the rounded edges; unset: the shape's default.
  std::optional<float> convex_radius;
  /// Density (kg/m³); unset: the shape's default.
  std::optional<float> density;
  bool operator==(const ConvexHullShapeDesc&) const = default;
};

/// "mesh": a static triangle mesh.
struct MeshShapeDesc {
  /// Vertex positions (m, local space).
  std::vector<Vec3> vertices;
  /// Vertex indices per triangle, counter-clockwise seen from the front; at least one.
  std::vector<std::array<uint32_t, 3>> triangles;
  bool operator==(const MeshShapeDesc&) const = default;
};

/// "heightfield": a square grid of heights in the local XZ plane.
struct HeightFieldShapeDesc {
  /// Samples per side (≥ 2); the grid has sample_count² heights.
  uint32_t sample_count = 0;
  /// Heights, row by row (row = z index, column = x index), before scale and offset.
  std::vector<float> heights;
  /// Local position (m) of sample (0, 0) at height 0.
  Vec3 offset;
  /// Sample spacing (m) along X and Z and height multiplier along Y; each > 0.
  Vec3 scale{1.0f, 1.0f, 1.0f};
  bool operator==(const HeightFieldShapeDesc&) const = default;
};

/// One part of a compound shape.
struct CompoundChildDesc {
  /// The part's shape.
  ShapeRef shape;
  /// Position (m) of the part in the compound's space.
  Vec3 position;
  /// Rotation of the part in the compound's space (unit quaternion).
  Quat rotation;
  bool operator==(const CompoundChildDesc&) const = default;
};

/// "compound": a static compound of parts.
struct CompoundShapeDesc {
  /// The parts; at least one.
  std::vector<CompoundChildDesc> children;
  bool operator==(const CompoundShapeDesc&) const = default;
};

/// "rotated_translated": an inner shape moved and rotated.
struct RotatedTranslatedShapeDesc {
  /// The inner shape.
  ShapeRef shape;
  /// Translation (m) of the inner shape.
  Vec3 position;
  /// Rotation of the inner shape (unit quaternion).
  Quat rotation;
  bool operator==(const RotatedTranslatedShapeDesc&) const = default;
};

/// "scaled": an inner shape scaled per local axis.
struct ScaledShapeDesc {
  /// The inner shape.
  ShapeRef shape;
  /// Scale factor per axis; each non-zero (negative mirrors).
  Vec3 scale;
  bool operator==(const ScaledShapeDesc&) const = default;
};

/// "offset_center_of_mass": an inner shape whose centre of mass is moved.
struct OffsetCenterOfMassShapeDesc {
  /// The inner shape.
  ShapeRef shape;
  /// Offset (m) added to the inner shape's centre of mass.
  Vec3 offset;
  bool operator==(const OffsetCenterOfMassShapeDesc&) const = default;
};

/// A shape definition. The alternatives are in ShapeSubType order, so that
/// ShapeSubType(params.index()) names the type.
struct ShapeDesc {
  /// The type-specific parameters.
  std::variant<SphereShapeDesc, BoxShapeDesc, CapsuleShapeDesc, CylinderShapeDesc,
               ConvexHullShapeDesc, MeshShapeDesc, HeightFieldShapeDesc, CompoundShapeDesc,
               RotatedTranslatedShapeDesc, ScaledShapeDesc, OffsetCenterOfMassShapeDesc>
      params;
  bool operator==(const ShapeDesc&) const = default;
};

/// Scene-file name of the shape's type ("box", "mesh", "heightfield", "compound", …).
const char* shape_desc_type_name(const ShapeDesc& shape);

/// A named entry of the file's "shapes" object.
struct NamedShapeDesc {
  /// Name that bodies and other shapes use to refer to it.
  std::string name;
  /// The definition.
  ShapeDesc shape;
  bool operator==(const NamedShapeDesc&) const = default;
};

/// One body. Unset optionals take the engine's body defaults.
struct BodyDesc {
  /// Unique name (events, probes, --set and summaries refer to it).
  std::string name;
  /// The body's shape.
  ShapeRef shape;
  /// Position (m) of the shape's origin.
  Vec3 position;
  /// Rotation (unit quaternion); default identity.
  Quat rotation;
  /// Static, kinematic or dynamic; default dynamic.
  MotionType motion = MotionType::Dynamic;
  /// Mass (kg), overriding the shape's density; > 0; only for non-static bodies.
  std::optional<float> mass;
  /// Friction coefficient; ≥ 0.
  std::optional<float> friction;
  /// Restitution (bounciness); in [0, 1].
  std::optional<float> restitution;
  /// Initial linear velocity (m/s) of the centre of mass; only for non-static bodies.
  std::optional<Vec3> linear_velocity;
  /// Initial angular velocity (rad/s); only for non-static bodies.
  std::optional<Vec3> angular_velocity;
  /// Discrete or LinearCast (continuous) collision detection.
  std::optional<MotionQuality> motion_quality;
  /// Whether the body may fall asleep.
  std::optional<bool> allow_sleeping;
  /// Sensors detect overlaps but do not collide.
  std::optional<bool> sensor;
  /// Whether a moving sensor also reports static bodies.
  std::optional<bool> sensor_detects_static;
  /// Multiplier of gravity for this body.
  std::optional<float> gravity_factor;
  /// Linear damping (1/s); ≥ 0.
  std::optional<float> linear_damping;
  /// Angular damping (1/s); ≥ 0.
  std::optional<float> angular_damping;
  /// Largest linear speed (m/s); > 0.
  std::optional<float> max_linear_velocity;
  /// Largest angular speed (rad/s); > 0.
  std::optional<float> max_angular_velocity;
  /// Collision layer.
  std::optional<ObjectLayer> object_layer;
  /// Degrees of freedom the body may move in; never None.
  std::optional<AllowedDOFs> allowed_dofs;
  bool operator==(const BodyDesc&) const = default;
};

/// What an event does to its body.
enum class SceneAction : uint8_t {
  AddForce,
  AddImpulse,
  AddTorque,
  AddAngularImpulse,
  SetLinearVelocity,
  SetAngularVelocity,
  SetMotionQuality,
  SetMotionType,
  Activate,
  Deactivate,
  Remove,
  MoveKinematic,
};

/// Scene-file name of an action ("add_force", "move_kinematic", …).
const char* scene_action_name(SceneAction action);
/// The event key that holds the action's vector ("force", "impulse", …, "position" for
/// move_kinematic), or null for actions without one.
const char* scene_action_vector_key(SceneAction action);

/// Something done to a body before a given step.
struct EventDesc {
  /// Step index (0 = before the first step) at which the action is applied; ≥ 0.
  int step = 0;
  /// What to do.
  SceneAction action = SceneAction::Activate;
  /// Name of the body acted upon.
  std::string body;
  /// The action's vector: force (N), impulse (N·s), torque (N·m), angular impulse (N·m·s),
  /// linear velocity (m/s), angular velocity (rad/s) or move_kinematic's target position (m).
  Vec3 vector;
  /// move_kinematic's target rotation; unset keeps the current rotation.
  std::optional<Quat> rotation;
  /// set_motion_quality's value.
  MotionQuality motion_quality = MotionQuality::Discrete;
  /// set_motion_type's value.
  MotionType motion_type = MotionType::Dynamic;
  bool operator==(const EventDesc&) const = default;
};

/// A sensor plane that counts bodies crossing it ("plane_crossing").
struct ProbeDesc {
  /// Unique name (the summary's key).
  std::string name;
  /// Normal axis of the plane: 0 = x, 1 = y, 2 = z.
  int axis = 0;
  /// Position (m) of the plane along the axis.
  float value = 0.0f;
  /// Bodies watched; empty: every body.
  std::vector<std::string> bodies;
  bool operator==(const ProbeDesc&) const = default;
};

/// A whole scene.
struct SceneDescription {
  /// Scene-level default time step (s).
  static constexpr float k_default_dt = 1.0f / 60.0f;
  /// Scene-level default run length (steps).
  static constexpr int k_default_steps = 600;
  /// Scene-level default collision sub-steps per step.
  static constexpr int k_default_collision_steps = 1;

  /// Engine settings: PhysicsSettings' defaults with the file's "settings" applied.
  PhysicsSettings physics;
  /// Time step (s); > 0.
  float dt = k_default_dt;
  /// Default number of steps to run; ≥ 1.
  int steps = k_default_steps;
  /// Collision sub-steps per step; ≥ 1.
  int collision_steps = k_default_collision_steps;
  /// Free text describing the scene.
  std::string description;
  /// Named shape definitions, in file order (a shape may use only shapes defined before it).
  std::vector<NamedShapeDesc> shapes;
  /// Bodies in creation order: the file's bodies, then each generator's, in file order.
  std::vector<BodyDesc> bodies;
  /// Events in file order.
  std::vector<EventDesc> events;
  /// Probes in file order.
  std::vector<ProbeDesc> probes;

  /// The named shape definition, or null.
  const ShapeDesc* find_shape(std::string_view name) const;
  /// The body of that name, or null.
  BodyDesc* find_body(std::string_view name);
  const BodyDesc* find_body(std::string_view name) const;
  /// The definition `ref` stands for (named or inline), or null for an unknown name.
  const ShapeDesc* resolve(const ShapeRef& ref) const;
};

/// Field-by-field equality, PhysicsSettings included.
bool operator==(const SceneDescription& a, const SceneDescription& b);

/// Bounding box (m) of a shape definition in its local space; named inner shapes are looked up
/// in `scene` (they must exist, as they do in anything the reader returns).
AABox shape_desc_bounds(const SceneDescription& scene, const ShapeDesc& shape);

}  // namespace atl
