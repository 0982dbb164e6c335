#pragma once
// Everything needed to create a body. The in-class initializers are the defaults (Jolt's, so
// that the seeds' figures compare; DESIGN.md §3) and the one source of truth for them.

#include <cstdint>
#include <optional>

#include "atoll/body/AllowedDOFs.h"
#include "atoll/body/MotionQuality.h"
#include "atoll/body/MotionType.h"
#include "atoll/collision/CollisionGroup.h"
#include "atoll/collision/broadphase/ObjectLayer.h"
#include "atoll/core/Result.h"
#include "atoll/shape/Shape.h"

namespace atl {

struct BodyCreationSettings {
  /// Settings with every default and no shape (validate() fails until a shape is set).
  BodyCreationSettings() = default;
  /// The common case: a shape at a pose with a motion type (and, optionally, a layer).
  BodyCreationSettings(Ref<const Shape> shape_in, const Vec3& position_in, const Quat& rotation_in,
                       MotionType motion_type_in,
                       std::optional<ObjectLayer> object_layer_in = std::nullopt)
      : shape(std::move(shape_in)),
        position(position_in),
        rotation(rotation_in),
        motion_type(motion_type_in),
        object_layer(object_layer_in) {}

  /// The collision shape (required). Shared, immutable.
  Ref<const Shape> shape;
  /// World position (m) of the shape's origin (not of its centre of mass); each component, and
  /// the body's world bounds, within ±k_max_position (body/Validation.h).
  Vec3 position;
  /// World rotation; must be normalized (to within 1e-3 in squared length).
  Quat rotation;
  /// Initial velocity of the centre of mass (m/s, world); clamped to max_linear_velocity.
  Vec3 linear_velocity;
  /// Initial angular velocity (rad/s, world); clamped to max_angular_velocity.
  Vec3 angular_velocity;
  /// Static, kinematic or dynamic.
  MotionType motion_type = MotionType::Dynamic;
  /// Collision quality of a moving body (Discrete or LinearCast CCD).
  MotionQuality motion_quality = MotionQuality::Discrete;
  /// Collision layer. Unset picks layers::k_non_moving for static bodies and layers::k_moving
  /// otherwise (Jolt's default of layer 0 for every body silently stops dynamic bodies from
  /// colliding with static geometry in the default layer setup), and the layer then follows
  /// BodyInterface::set_motion_type until BodyInterface::set_object_layer chooses one.
  std::optional<ObjectLayer> object_layer;
  /// Finer filter than the layer: which bodies of the same layer it collides with (default:
  /// no group, collides with every body its layer allows).
  CollisionGroup collision_group;
  /// Whether the body may fall asleep when it comes to rest.
  bool allow_sleeping = true;
  /// A sensor reports overlaps but has no collision response.
  bool is_sensor = false;
  /// Whether a moving (kinematic or dynamic) sensor also reports static bodies (as Jolt's
  /// mSensorDetectsStatic); by default it reports moving bodies only.
  bool sensor_detects_static = false;
  /// Friction coefficient (≥ 0), combined per contact pair.
  float friction = 0.2f;
  /// Restitution (bounciness) in [0, 1], combined per contact pair.
  float restitution = 0.0f;
  /// Linear damping coefficient (1/s, ≥ 0): v *= max(0, 1 − c·dt) every step.
  float linear_damping = 0.05f;
  /// Angular damping coefficient (1/s, ≥ 0).
  float angular_damping = 0.05f;
  /// Largest linear speed (m/s, > 0).
  float max_linear_velocity = 500.0f;
  /// Largest angular speed (rad/s, > 0): a quarter turn per 60 Hz step.
  float max_angular_velocity = 0.25f * k_pi * 60.0f;
  /// Multiplier of the world's gravity.
  float gravity_factor = 1.0f;
  /// Mass (kg, > 0) to use instead of the shape's; the shape's inertia is scaled with it.
  /// Required for a dynamic body whose shape has no mass (meshes, height fields).
  std::optional<float> override_mass;
  /// World axes the body may translate along / rotate about (a dynamic body needs at least one).
  AllowedDOFs allowed_dofs = AllowedDOFs::All;
  /// Free for the user.
  uint64_t user_data = 0;
  /// Rolling resistance coefficient (≥ 0; m, lever arm of the resisting torque), used by the
  /// contact solver.
  float rolling_resistance = 0.0f;
  /// Torsional friction coefficient (≥ 0; m, radius of the contact patch), used by the contact
  /// solver against spinning about the contact normal.
  float torsional_friction = 0.0f;

  /// Checks every field; the error names the first bad one, e.g.
  /// "BodyCreationSettings.friction: must be >= 0, got -1".
  Status validate() const;
  /// The object layer the body gets (object_layer, or the default for motion_type).
  ObjectLayer resolved_object_layer() const;
  /// The shape's mass properties, scaled to override_mass when set. Requires a shape.
  MassProperties mass_properties() const;
};

/// The object layer of a body of `motion_type` whose settings leave object_layer unset:
/// layers::k_non_moving for static bodies, layers::k_moving otherwise.
ObjectLayer default_object_layer(MotionType motion_type);

/// Mass properties of `shape`, scaled to `override_mass` (> 0) when set.
MassProperties body_mass_properties(const Shape& shape, std::optional<float> override_mass);

}  // namespace atl
