#pragma once
// A rigid body: a shape at a pose, with material and (for moving bodies) MotionProperties.
// Bodies live in the BodyManager's chunked storage, where they never move while they exist;
// users reach them through BodyID and BodyInterface, which validates. The methods here are the
// engine's fast path: unchecked.
//
// World space: center_of_mass_position(), rotation(), position(), world_bounds(), velocities,
// forces and impulses (and their points of application). The body stores the centre of mass
// (what the solver integrates); position() — the shape's origin — is derived from it:
// position = center_of_mass_position − rotation · shape.center_of_mass().

#include <cstdint>
#include <optional>

#include "atoll/body/BodyID.h"
#include "atoll/body/MotionProperties.h"
#include "atoll/body/MotionType.h"
#include "atoll/collision/broadphase/ObjectLayer.h"
#include "atoll/geometry/AABox.h"
#include "atoll/shape/Shape.h"

namespace atl {

class BodyManager;

class Body {
 public:
  Body(Body&&) noexcept = default;
  Body& operator=(Body&&) noexcept = default;

  /// This body's ID (invalid for a free slot in the manager's storage).
  BodyID id() const { return id_; }

  // --- Pose (world space) -------------------------------------------------------------------

  /// Position (m) of the shape's origin: the shape's world transform is (rotation, position).
  Vec3 position() const { return com_position_ - rotation_ * Vec3(shape_com_); }
  /// Rotation (unit quaternion).
  const Quat& rotation() const { return rotation_; }
  /// Position (m) of the centre of mass.
  const Vec3& center_of_mass_position() const { return com_position_; }
  /// Shape-to-world transform: rotation, then translation by position().
  Mat44 world_transform() const { return Mat44::rotation_translation(rotation_, position()); }
  /// Centre-of-mass-to-world transform: rotation, then translation by the centre of mass.
  Mat44 center_of_mass_transform() const {
    return Mat44::rotation_translation(rotation_, com_position_);
  }
  /// Bounding box (m) of the shape at the current pose, cached: see update_world_bounds().
  const AABox& world_bounds() const { return world_bounds_; }

  // --- Shape and material -------------------------------------------------------------------

  /// The collision shape (never null).
  const Ref<const Shape>& shape() const { return shape_; }
  /// Centre of mass (m) in the shape's local space (cached from the shape).
  Vec3 shape_center_of_mass() const { return Vec3(shape_com_); }
  /// Mass (kg) used instead of the shape's, if one was given at creation.
  std::optional<float> override_mass() const {
    return override_mass_ > 0.0f ? std::optional<float>(override_mass_) : std::nullopt;
  }
  /// Friction coefficient (≥ 0).
  float friction() const { return friction_; }
  /// Restitution in [0, 1].
  float restitution() const { return restitution_; }
  /// Rolling resistance coefficient (m, ≥ 0).
  float rolling_resistance() const { return rolling_resistance_; }
  /// Torsional friction coefficient (m, ≥ 0).
  float torsional_friction() const { return torsional_friction_; }
  /// Unchecked setters: BodyInterface validates user input before calling these.
  void set_friction(float friction) { friction_ = friction; }
  void set_restitution(float restitution) { restitution_ = restitution; }
  void set_rolling_resistance(float coefficient) { rolling_resistance_ = coefficient; }
  void set_torsional_friction(float coefficient) { torsional_friction_ = coefficient; }
  /// Whether the body only reports overlaps (no collision response).
  bool is_sensor() const { return (flags_ & k_flag_sensor) != 0; }
  void set_sensor(bool sensor) { set_flag(k_flag_sensor, sensor); }
  /// Whether this sensor (when not static) also reports static bodies; default false.
  /// True for the body of a soft body (softbody/SoftBodyManager.h): its vertices are its state,
  /// the rigid stages and BodyInterface's rigid calls leave it alone.
  bool is_soft_body() const { return (flags_ & k_flag_soft_body) != 0; }
  bool sensor_detects_static() const { return (flags_ & k_flag_sensor_detects_static) != 0; }
  void set_sensor_detects_static(bool detects) { set_flag(k_flag_sensor_detects_static, detects); }
  /// Free for the user.
  uint64_t user_data() const { return user_data_; }
  void set_user_data(uint64_t data) { user_data_ = data; }

  // --- Motion -------------------------------------------------------------------------------

  MotionType motion_type() const { return motion_type_; }
  bool is_static() const { return motion_type_ == MotionType::Static; }
  bool is_kinematic() const { return motion_type_ == MotionType::Kinematic; }
  bool is_dynamic() const { return motion_type_ == MotionType::Dynamic; }
  /// Collision layer.
  ObjectLayer object_layer() const { return object_layer_; }
  /// Whether the layer is the default of the motion type (BodyCreationSettings left
  /// object_layer unset and set_object_layer was never called): it then follows the motion type.
  bool has_default_object_layer() const { return (flags_ & k_flag_default_object_layer) != 0; }
  /// Whether the body is in the simulation (added to the world).
  bool is_added() const { return (flags_ & k_flag_added) != 0; }
  /// Whether the world took the body out of the simulation because its state went non-finite
  /// during a step (DESIGN.md §7); it stays so until BodyInterface::release_quarantine.
  bool is_quarantined() const { return (flags_ & k_flag_quarantined) != 0; }
  /// Whether the body is awake (in the active list). Static bodies never are.
  bool is_active() const {
    return motion_ != nullptr &&
           motion_->index_in_active_bodies() != MotionProperties::k_inactive_index;
  }
  /// Velocities, mass and sleep state; nullptr for static bodies.
  MotionProperties* motion_properties() { return motion_; }
  const MotionProperties* motion_properties() const { return motion_; }

  /// Linear velocity (m/s) of the centre of mass; zero for static bodies.
  Vec3 linear_velocity() const { return motion_ != nullptr ? motion_->linear_velocity() : Vec3(); }
  /// Angular velocity (rad/s); zero for static bodies.
  Vec3 angular_velocity() const {
    return motion_ != nullptr ? motion_->angular_velocity() : Vec3();
  }
  /// Velocity (m/s) of the material point of the body at `world_point` (m).
  Vec3 point_velocity(const Vec3& world_point) const {
    if (motion_ == nullptr) return Vec3();
    return motion_->linear_velocity() +
           motion_->angular_velocity().cross(world_point - com_position_);
  }
  /// 1 / mass (1/kg); 0 unless dynamic (static and kinematic bodies have infinite mass).
  float inverse_mass() const { return is_dynamic() ? motion_->inverse_mass() : 0.0f; }
  /// World-space inverse inertia tensor (upper 3×3); zero unless dynamic.
  Mat44 inverse_inertia() const {
    return is_dynamic() ? motion_->inverse_inertia_world(Mat44::rotation(rotation_))
                        : Mat44::zero();
  }

  // --- Engine-internal, unchecked (dynamic bodies; BodyInterface validates) ------------------

  /// Adds a force (N) at the centre of mass for the next step.
  void add_force(const Vec3& force) { motion_->add_force(force); }
  /// Adds a force (N) at `world_point` (m): force at the centre of mass plus its torque.
  void add_force(const Vec3& force, const Vec3& world_point) {
    motion_->add_force(force);
    motion_->add_torque((world_point - com_position_).cross(force));
  }
  /// Adds a torque (N·m) for the next step.
  void add_torque(const Vec3& torque) { motion_->add_torque(torque); }
  /// Applies an impulse (N·s) at the centre of mass: v += impulse / m (clamped).
  void add_impulse(const Vec3& impulse) {
    motion_->set_linear_velocity(motion_->linear_velocity() + impulse * motion_->inverse_mass());
  }
  /// Applies an impulse (N·s) at `world_point` (m): changes linear and angular velocity.
  void add_impulse(const Vec3& impulse, const Vec3& world_point) {
    add_impulse(impulse);
    add_angular_impulse((world_point - com_position_).cross(impulse));
  }
  /// Applies an angular impulse (N·m·s): ω += I⁻¹·L (clamped).
  void add_angular_impulse(const Vec3& angular_impulse) {
    motion_->set_angular_velocity(
        motion_->angular_velocity() +
        motion_->multiply_world_space_inverse_inertia(rotation_, angular_impulse));
  }

  /// Teleports: sets the shape origin's position (m) and the rotation (unit), and refreshes
  /// the world bounds.
  void set_position_and_rotation_internal(const Vec3& position, const Quat& rotation);
  /// Moves the centre of mass by `delta` (m) (position integration; bounds not refreshed).
  void add_position_step(const Vec3& delta) { com_position_ += delta; }
  /// Rotates by the rotation vector `delta` = ω·dt (rad) about the centre of mass, exactly
  /// (axis-angle, not the first-order q + ½ωq·dt), and renormalizes against drift.
  void add_rotation_step(const Vec3& delta);
  /// Recomputes world_bounds() from the shape at the current pose.
  void update_world_bounds() { world_bounds_ = shape_->world_bounds(world_transform()); }

  /// Points whose motion decides sleeping: the centre of mass and the ends of the two largest
  /// half axes of the shape's local bounds, in world space.
  void sleep_test_points(Vec3 (&out_points)[MotionProperties::k_num_sleep_test_points]) const;
  /// Restarts the sleep test at the current pose (on activation or when moved by the user).
  void reset_sleep_test();
  /// Advances the sleep test by `dt` s: true when every test point stayed within
  /// `max_movement` (m) for `time_before_sleep` s. Sensors and bodies that may not sleep never
  /// can (a sleeping sensor would miss sleeping bodies).
  bool update_sleep_test(float dt, float max_movement, float time_before_sleep);

 private:
  friend class BodyManager;

  static constexpr uint8_t k_flag_sensor = 1 << 0;
  static constexpr uint8_t k_flag_added = 1 << 1;
  static constexpr uint8_t k_flag_quarantined = 1 << 2;
  static constexpr uint8_t k_flag_sensor_detects_static = 1 << 3;
  static constexpr uint8_t k_flag_soft_body = 1 << 4;
  static constexpr uint8_t k_flag_default_object_layer = 1 << 5;

  Body() = default;
  // Copies are made only by the BodyManager's rollback snapshots (a body duplicated by accident
  // would share its MotionProperties with the original).
  Body(const Body&) = default;
  Body& operator=(const Body&) = default;
  void set_flag(uint8_t flag, bool on) {
    flags_ = on ? uint8_t(flags_ | flag) : uint8_t(flags_ & ~flag);
  }

  // Hot data first: what the solver and the broadphase read every step.
  Vec3 com_position_;
  Quat rotation_;
  AABox world_bounds_;
  Ref<const Shape> shape_;
  MotionProperties* motion_ = nullptr;
  uint64_t user_data_ = 0;
  Float3 shape_com_;
  BodyID id_;
  float friction_ = 0.0f;
  float restitution_ = 0.0f;
  float rolling_resistance_ = 0.0f;
  float torsional_friction_ = 0.0f;
  // 0 means "not overridden"; a valid override is > 0.
  float override_mass_ = 0.0f;
  ObjectLayer object_layer_ = 0;
  MotionType motion_type_ = MotionType::Static;
  uint8_t flags_ = 0;
};

// Two cache lines, like Jolt's Body: pose and bounds (what the broadphase and the solver read
// most) fill the first one exactly.
static_assert(sizeof(Body) == 128);

}  // namespace atl
