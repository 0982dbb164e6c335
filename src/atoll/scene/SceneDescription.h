#pragma once
// A scene as plain data: what a JSON scene file says (docs/scene-format.md), with generators
// already expanded into bodies. Bodies and shapes hold the engine's own settings types, so the
// defaults of a key a file leaves out are the engine's, written down nowhere else.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "atoll/body/BodyCreationSettings.h"
#include "atoll/body/MotionQuality.h"
#include "atoll/body/MotionType.h"
#include "atoll/constraint/Constraint.h"
#include "atoll/constraint/MotorSettings.h"
#include "atoll/geometry/AABox.h"
#include "atoll/math/Quat.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/CapsuleShape.h"
#include "atoll/shape/ConvexHullShape.h"
#include "atoll/shape/CylinderShape.h"
#include "atoll/shape/HeightFieldShape.h"
#include "atoll/shape/OffsetCenterOfMassShape.h"
#include "atoll/shape/RotatedTranslatedShape.h"
#include "atoll/shape/ScaledShape.h"
#include "atoll/shape/Shape.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/shape/StaticCompoundShape.h"
#include "atoll/shape/TriangleMeshShape.h"
#include "atoll/softbody/SoftBodySettings.h"
#include "atoll/solver/PhysicsSettings.h"

namespace atl {

struct SceneShape;

/// A shape as a body or another shape uses it: a named shape definition or an inline one.
struct ShapeRef {
  /// Name of an entry of SceneDescription::shapes; empty for an inline shape.
  std::string name;
  /// The inline definition (the bodies of one generator share it); null for a named shape.
  std::shared_ptr<const SceneShape> definition;
  /// Equal names and equal inline definitions (compared by value, not by pointer).
  bool operator==(const ShapeRef& other) const;
};

/// Engine settings whose `Ref<Shape>` member (inner shape, compound child) a file gives as a
/// ShapeRef: the builder creates the shape and fills the member. Until then it is null.
template <class Settings>
struct WithShape {
  /// The engine's settings.
  Settings settings;
  /// The shape the settings' Ref<Shape> member stands for.
  ShapeRef shape;
};

/// "compound": the engine's StaticCompoundShapeSettings children, each with its shape as a
/// ShapeRef.
struct CompoundShapeParts {
  /// The parts; at least one.
  std::vector<WithShape<StaticCompoundShapeSettings::Child>> children;
};

/// A shape definition: the engine's settings of one shape type. The alternatives are in
/// ShapeSubType order, so that ShapeSubType(settings.index()) names the type. Keys, units,
/// ranges and defaults are the field tables' (scene/ShapeFields.cpp).
struct SceneShape {
  /// The type's settings.
  std::variant<SphereShapeSettings, BoxShapeSettings, CapsuleShapeSettings, CylinderShapeSettings,
               ConvexHullShapeSettings, TriangleMeshShapeSettings, HeightFieldShapeSettings,
               CompoundShapeParts, WithShape<RotatedTranslatedShapeSettings>,
               WithShape<ScaledShapeSettings>, WithShape<OffsetCenterOfMassShapeSettings>>
      settings;
  /// The shape's type.
  ShapeSubType type() const { return ShapeSubType(settings.index()); }
};

/// Field-by-field equality through the shape field tables.
bool operator==(const SceneShape& a, const SceneShape& b);

/// Scene-file name of the shape's type ("box", "mesh", "heightfield", "compound", …).
const char* scene_shape_type_name(const SceneShape& shape);

/// A named entry of the file's "shapes" object.
struct NamedShape {
  /// Name that bodies and other shapes use to refer to it.
  std::string name;
  /// The definition.
  SceneShape shape;
  bool operator==(const NamedShape&) const = default;
};

/// One body: the engine's BodyCreationSettings (whose shape stays null until the world is
/// built) plus the keys only a scene has. Keys, units, ranges and defaults are the body field
/// table's (scene/BodyFields.cpp).
struct BodyDesc {
  /// Unique name (events, probes, --set and summaries refer to it).
  std::string name;
  /// The body's shape.
  ShapeRef shape;
  /// Everything else; defaults are BodyCreationSettings' own.
  BodyCreationSettings settings;
  /// Collision group (unset: none): bodies of one group never collide with each other, and
  /// collide with everything else as their layers allow (the links of a chain, the parts of a
  /// ragdoll). The world builds the engine's CollisionGroup from it.
  std::optional<uint32_t> collision_group;
};

/// Field-by-field equality through the body field table.
bool operator==(const BodyDesc& a, const BodyDesc& b);

/// The settings of one constraint type as a scene holds them: the engine's
/// `…ConstraintSettings` (common keys included) plus what only a scene gives (a motor's state
/// and targets). Each type defines its own, with its field table, in
/// scene/constraints/*Fields.cpp.
struct ConstraintTypeData {
  virtual ~ConstraintTypeData() = default;
  /// A copy of the same type.
  virtual std::unique_ptr<ConstraintTypeData> clone() const = 0;
};

/// A motor as a scene file gives it: the engine's MotorSettings plus the state and targets,
/// which the engine keeps on the constraint.
struct SceneMotor {
  /// Spring and force/torque limits; defaults MotorSettings' own (2 Hz, damping 1, unlimited).
  MotorSettings settings;
  /// Initial state (default off).
  MotorState state = MotorState::Off;
  /// Target velocity (rad/s or m/s; default 0).
  float target_velocity = 0.0f;
  /// Target position (rad or m; default 0).
  float target_position = 0.0f;
};

/// Name a scene gives the fixed world in a constraint's body1/body2; no body may have it.
inline constexpr std::string_view k_scene_world = "world";

/// One constraint of the file's "constraints" list. Keys, units, ranges and defaults are the
/// field tables' (scene/ConstraintFields.cpp for the common keys, scene/constraints/ per type).
struct ConstraintDesc {
  /// Unique name (events, --set and the summary refer to it).
  std::string name;
  /// The type.
  ConstraintSubType type = ConstraintSubType::Fixed;
  /// Body names; "world" is the fixed world.
  std::string body1, body2;
  /// The type's settings; never null in a scene the reader returns.
  std::unique_ptr<ConstraintTypeData> settings;

  ConstraintDesc() = default;
  ConstraintDesc(ConstraintDesc&&) = default;
  ConstraintDesc& operator=(ConstraintDesc&&) = default;
  ConstraintDesc(const ConstraintDesc& other)
      : name(other.name),
        type(other.type),
        body1(other.body1),
        body2(other.body2),
        settings(other.settings ? other.settings->clone() : nullptr) {}
  ConstraintDesc& operator=(const ConstraintDesc& other) {
    if (this != &other) *this = ConstraintDesc(other);
    return *this;
  }
};

/// Field-by-field equality through the constraint field tables.
bool operator==(const ConstraintDesc& a, const ConstraintDesc& b);

/// Vertices of a soft body as a file names them: one index, or a selector resolved against
/// the vertices the soft body is made with ("first", "last", "corners", "edge_min_x", …;
/// docs/scene-format.md lists them).
struct SoftVertexSelection {
  /// The selector; empty: `index`.
  std::string selector;
  /// The vertex index when there is no selector.
  uint32_t index = 0;
  bool operator==(const SoftVertexSelection&) const = default;
};

/// A soft body's vertices tied to a rigid body (a rope tied to a crate).
struct SoftBodyAttachDesc {
  /// The vertices (each must be free, and tied once).
  SoftVertexSelection vertex;
  /// Name of a scene body.
  std::string body;
};

/// Keys a soft body type shares: total mass (kg), edge compliance (s²/kg) and the collision
/// radius of its vertices (m). Defaults are the generators' and SoftBodySettings' own.
struct SoftBodyCommonDesc {
  float mass = 1.0f;
  float compliance = 0.0f;
  float vertex_radius = SoftBodySettings().vertex_radius;
};

/// "rope": make_rope's parameters (softbody/SoftBodyGenerators.h).
struct SoftRopeDesc {
  SoftBodyCommonDesc common;
  Vec3 from, to;
  uint32_t segments = 16;
  /// Compliance of the distance between vertices two apart (s²/kg): small resists bending.
  float bend_compliance = 0.01f;
};

/// "cloth": make_cloth's parameters; with `long_range_attachments`, every free vertex is also
/// kept within its rest distance of the nearest pinned vertex (no sag from stretching).
struct SoftClothDesc {
  SoftBodyCommonDesc common;
  Vec3 center;
  std::array<float, 2> size = {1.0f, 1.0f};
  std::array<uint32_t, 2> resolution = {16, 16};
  /// Compliance of each dihedral bend (s²/(kg·m²)): its stiffness is 1 / compliance N·m per
  /// radian, so 1e-3 makes a stiff plate (a cloth that rolls off a sphere like a tray) and 10 a
  /// cloth that drapes.
  float bend_compliance = 10.0f;
  bool long_range_attachments = true;
};

/// "pressure_ball": make_pressure_ball's parameters.
struct SoftPressureBallDesc {
  SoftBodyCommonDesc common;
  Vec3 center;
  float radius = 0.5f;
  uint32_t subdivisions = 2;
  float pressure = 1.0f;
};

/// "mesh": explicit vertices with edges and/or faces.
struct SoftMeshDesc {
  SoftBodyCommonDesc common;
  std::vector<Vec3> vertices;
  /// Distance constraints; none given: one per distinct edge of the faces.
  std::vector<std::array<uint32_t, 2>> edges;
  /// Surface triangles (counter-clockwise seen from outside).
  std::vector<std::array<uint32_t, 3>> faces;
  /// Per vertex (0 pins it); empty: `mass` shared equally.
  std::vector<float> inverse_masses;
  /// Dihedral bends across the faces' shared edges with this compliance (s²/(kg·m²)); unset:
  /// none.
  std::optional<float> bend_compliance;
  /// Keeps the faces' volume at this multiple of the rest volume; unset: no volume constraint.
  std::optional<float> pressure;
};

/// One soft body of the file's "soft_bodies" list. Keys, units, ranges and defaults are the
/// field tables' (scene/SoftBodyFields.cpp).
struct SoftBodyDesc {
  /// Unique among soft bodies (--set and the summary refer to it).
  std::string name;
  /// How it is made (the "type" key picks the alternative).
  std::variant<SoftRopeDesc, SoftClothDesc, SoftPressureBallDesc, SoftMeshDesc> type;
  /// Pinned vertices (inverse mass 0).
  std::vector<SoftVertexSelection> pinned;
  /// Vertices tied to rigid bodies.
  std::vector<SoftBodyAttachDesc> attach;
  /// Friction of the vertices against rigid shapes and their damping (SoftBodySettings').
  float friction = SoftBodySettings().friction;
  float linear_damping = SoftBodySettings().linear_damping;
};

/// Field-by-field equality through the soft body field tables.
bool operator==(const SoftBodyDesc& a, const SoftBodyDesc& b);

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
  /// Changes a constraint's motor state and targets.
  SetMotor,
  /// Enables a constraint (a broken one too).
  EnableConstraint,
  /// Disables a constraint.
  DisableConstraint,
};

/// Scene-file name of an action ("add_force", "move_kinematic", …).
const char* scene_action_name(SceneAction action);
/// The event key that holds the action's vector ("force", "impulse", …, "position" for
/// move_kinematic), or null for actions without one.
const char* scene_action_vector_key(SceneAction action);

/// True for the actions on a constraint (set_motor, enable_constraint, disable_constraint).
bool scene_action_on_constraint(SceneAction action);

/// Something done to a body or a constraint before a given step.
struct EventDesc {
  /// Step index (0 = before the first step) at which the action is applied; ≥ 0.
  int step = 0;
  /// What to do.
  SceneAction action = SceneAction::Activate;
  /// Name of the body acted upon (body actions).
  std::string body;
  /// Name of the constraint acted upon (constraint actions).
  std::string constraint;
  /// add_force and add_torque: applied on this many consecutive steps (≥ 1; default 1).
  int steps = 1;
  /// set_motor: the new motor state; unset keeps it.
  std::optional<MotorState> motor_state;
  /// set_motor: the new target velocity (rad/s or m/s); unset keeps it.
  std::optional<float> target_velocity;
  /// set_motor: the new target position (rad or m; a path's target fraction); unset keeps it.
  std::optional<float> target_position;
  /// set_motor on a constraint with several motors: which one ("swing" or "twist" for
  /// swing_twist, an axis name such as "translation_x" for six_dof); empty: all of them.
  std::string motor;
  /// set_motor (swing_twist, six_dof): the new target orientation of constraint space 2 in
  /// constraint space 1 (unit [x, y, z, w]); unset keeps it.
  std::optional<Quat> target_orientation;
  /// set_motor (swing_twist, six_dof): the new target angular velocity of body 2 relative to
  /// body 1 (rad/s, constraint space); unset keeps it.
  std::optional<Vec3> target_angular_velocity;
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
  std::vector<NamedShape> shapes;
  /// Bodies in creation order: the file's bodies, then each generator's, in file order.
  std::vector<BodyDesc> bodies;
  /// Constraints in file order (a constraint may name only constraints before it).
  std::vector<ConstraintDesc> constraints;
  /// Soft bodies in file order (after the rigid bodies, which they may be attached to).
  std::vector<SoftBodyDesc> soft_bodies;
  /// Events in file order.
  std::vector<EventDesc> events;
  /// Probes in file order.
  std::vector<ProbeDesc> probes;

  /// The named shape definition, or null.
  const SceneShape* find_shape(std::string_view name) const;
  /// The body of that name, or null.
  BodyDesc* find_body(std::string_view name);
  const BodyDesc* find_body(std::string_view name) const;
  /// The constraint of that name, or null.
  ConstraintDesc* find_constraint(std::string_view name);
  const ConstraintDesc* find_constraint(std::string_view name) const;
  /// The soft body of that name, or null.
  SoftBodyDesc* find_soft_body(std::string_view name);
  const SoftBodyDesc* find_soft_body(std::string_view name) const;
  /// The definition `ref` stands for (named or inline), or null for an unknown name.
  const SceneShape* resolve(const ShapeRef& ref) const;
};

/// Field-by-field equality, PhysicsSettings included.
bool operator==(const SceneDescription& a, const SceneDescription& b);

/// Bounding box (m) of a shape definition in its local space; named inner shapes are looked up
/// in `scene` (they must exist, as they do in anything the reader returns).
AABox scene_shape_bounds(const SceneDescription& scene, const SceneShape& shape);

}  // namespace atl
