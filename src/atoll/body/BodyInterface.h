#pragma once
// The user-facing API for bodies. Every call validates its arguments at this edge (DESIGN.md
// §7) and returns a Status or Result: an invalid ID (never created, destroyed, stale) or an
// invalid value (NaN, a non-normalized rotation, negative friction, dt ≤ 0, a velocity for a
// static body…) gives an Error naming the call and the argument, e.g.
// "BodyInterface::set_friction: friction: must be >= 0, got -1", and changes nothing.
//
// Changes the broadphase must mirror are reported to the BodyListener (the world). Not
// thread-safe: call it between steps, on one thread.

#include <initializer_list>
#include <utility>

#include "atoll/body/BodyListener.h"
#include "atoll/body/BodyManager.h"
#include "atoll/body/SoftBodyCreator.h"

namespace atl {

class BodyInterface {
 public:
  /// An interface over `manager`, reporting to `listener` (may be null).
  explicit BodyInterface(BodyManager& manager, BodyListener* listener = nullptr)
      : manager_(manager), listener_(listener) {}

  /// The observer of changes (null: none).
  BodyListener* listener() const { return listener_; }
  void set_listener(BodyListener* listener) { listener_ = listener; }
  /// What create_soft_body forwards to (the world; null: soft bodies cannot be created).
  void set_soft_body_creator(SoftBodyCreator* creator) { soft_body_creator_ = creator; }
  /// The underlying manager (unchecked access for the engine).
  BodyManager& manager() { return manager_; }

  // --- Lifetime -----------------------------------------------------------------------------

  /// Validates `settings` and creates a body, not yet in the simulation.
  Result<BodyID> create_body(const BodyCreationSettings& settings);
  /// Adds a created body to the simulation, activating it if asked (static bodies never are).
  Status add_body(BodyID id, Activation activation);
  /// Takes a body out of the simulation; it keeps its state and can be added again.
  Status remove_body(BodyID id);
  /// Destroys a body (removing it first if it is added); its ID becomes stale.
  Status destroy_body(BodyID id);
  /// create_body + add_body.
  Result<BodyID> create_and_add_body(const BodyCreationSettings& settings, Activation activation);
  /// Creates a soft body (softbody/SoftBodyManager.h), not yet in the simulation: a body of the
  /// world — an ID, an object layer, added, removed and destroyed like any other — whose
  /// vertices the world simulates by XPBD against the rigid bodies, pushing the dynamic ones
  /// back. Its Body's pose is the vertices' centre of mass; the calls here that move or change
  /// a rigid body refuse it. Error (nothing created) naming the bad field, or when this
  /// interface belongs to no world (set_soft_body_creator).
  Result<BodyID> create_soft_body(const SoftBodyCreationSettings& settings);
  /// create_soft_body + add_body.
  Result<BodyID> create_and_add_soft_body(const SoftBodyCreationSettings& settings,
                                          Activation activation);
  /// Whether the body is in the simulation.
  Result<bool> is_added(BodyID id) const;
  /// Read access to every property of the body (the pointer stays valid until it is destroyed).
  Result<const Body*> body(BodyID id) const;

  // --- Pose ---------------------------------------------------------------------------------

  /// World position (m) of the shape's origin.
  Result<Vec3> position(BodyID id) const;
  /// World rotation.
  Result<Quat> rotation(BodyID id) const;
  /// World position (m) of the centre of mass.
  Result<Vec3> center_of_mass_position(BodyID id) const;
  /// Shape-to-world transform.
  Result<Mat44> world_transform(BodyID id) const;
  /// Teleports the shape origin to `position` (m, each component within ±k_max_position);
  /// activates per `activation`.
  Status set_position(BodyID id, const Vec3& position,
                      Activation activation = Activation::Activate);
  /// Teleports to `rotation` (normalized within 1e-3) about the shape origin.
  Status set_rotation(BodyID id, const Quat& rotation,
                      Activation activation = Activation::Activate);
  /// Teleports to a pose (shape origin position in m, rotation).
  Status set_position_and_rotation(BodyID id, const Vec3& position, const Quat& rotation,
                                   Activation activation = Activation::Activate);
  /// Sets the velocities of a kinematic body so that its shape origin reaches `target_position`
  /// (m, within ±k_max_position) with `target_rotation` in `dt` s (> 0). Activates it if it
  /// moves. A dynamic body is refused (Jolt allows it; here it launched bodies through floors).
  Status move_kinematic(BodyID id, const Vec3& target_position, const Quat& target_rotation,
                        float dt);

  // --- Velocities, forces, impulses ---------------------------------------------------------

  /// Linear velocity (m/s) of the centre of mass.
  Result<Vec3> linear_velocity(BodyID id) const;
  /// Angular velocity (rad/s).
  Result<Vec3> angular_velocity(BodyID id) const;
  /// Velocity (m/s) of the body's material point at `world_point` (m).
  Result<Vec3> point_velocity(BodyID id, const Vec3& world_point) const;
  /// Sets the linear velocity (m/s) of a moving body; locked axes are zeroed, the length is
  /// clamped to its max. A non-zero velocity activates an added body.
  Status set_linear_velocity(BodyID id, const Vec3& velocity);
  /// Sets the angular velocity (rad/s), like set_linear_velocity.
  Status set_angular_velocity(BodyID id, const Vec3& velocity);
  /// Adds a force (N) at the centre of mass of a dynamic body for the next step; activates it.
  Status add_force(BodyID id, const Vec3& force);
  /// Adds a force (N) at `world_point` (m) (also a torque) for the next step; activates it.
  Status add_force(BodyID id, const Vec3& force, const Vec3& world_point);
  /// Adds a torque (N·m) to a dynamic body for the next step; activates it.
  Status add_torque(BodyID id, const Vec3& torque);
  /// Applies an impulse (N·s) at the centre of mass of a dynamic body now; activates it.
  Status add_impulse(BodyID id, const Vec3& impulse);
  /// Applies an impulse (N·s) at `world_point` (m) now; activates it.
  Status add_impulse(BodyID id, const Vec3& impulse, const Vec3& world_point);
  /// Applies an angular impulse (N·m·s) to a dynamic body now; activates it.
  Status add_angular_impulse(BodyID id, const Vec3& angular_impulse);

  // --- Properties ---------------------------------------------------------------------------

  Result<MotionType> motion_type(BodyID id) const;
  /// Changes the motion type. A body becoming dynamic needs a shape with mass (or an override
  /// mass) and a free DOF; one becoming static stops and is deactivated. A static body made to
  /// move starts at rest with the motion settings (damping, velocity caps, gravity factor,
  /// motion quality, allowed DOFs, allow_sleeping) it was created with, or had when it was made
  /// static, as Jolt keeps them. A body whose object
  /// layer is the default (BodyCreationSettings::object_layer unset, set_object_layer never
  /// called) moves to the new type's default layer, as at creation (a layer the world's
  /// broadphase_layers does not map is refused, and nothing changes).
  Status set_motion_type(BodyID id, MotionType motion_type,
                         Activation activation = Activation::Activate);
  Result<MotionQuality> motion_quality(BodyID id) const;
  /// Changes the collision quality of a moving body.
  Status set_motion_quality(BodyID id, MotionQuality motion_quality);
  Result<Ref<const Shape>> shape(BodyID id) const;
  /// Replaces the shape keeping the shape origin in place; recomputes mass and inertia (scaled
  /// to the override mass, if the body was created with one).
  Status set_shape(BodyID id, Ref<const Shape> shape, Activation activation = Activation::Activate);
  Result<float> friction(BodyID id) const;
  /// Sets the friction coefficient (≥ 0).
  Status set_friction(BodyID id, float friction);
  Result<float> restitution(BodyID id) const;
  /// Sets the restitution, in [0, 1].
  Status set_restitution(BodyID id, float restitution);
  Result<ObjectLayer> object_layer(BodyID id) const;
  /// Moves the body to another collision layer (chosen: it no longer follows the motion type).
  Status set_object_layer(BodyID id, ObjectLayer layer);
  /// Collision group (finer than the layer; default: none).
  Result<CollisionGroup> collision_group(BodyID id) const;
  /// Sets the collision group; takes effect from the next step in which the body or a
  /// neighbour is awake (contacts it now forbids end then, with a removed event). Does not wake
  /// the body.
  Status set_collision_group(BodyID id, CollisionGroup group);
  Result<float> gravity_factor(BodyID id) const;
  /// Sets the gravity multiplier (finite) of a moving body.
  Status set_gravity_factor(BodyID id, float gravity_factor);

  // --- Sleep --------------------------------------------------------------------------------

  /// Wakes an added, non-static body; an active one restarts its sleep test (stays awake for
  /// time_before_sleep more).
  Status activate(BodyID id);
  /// Puts a body to sleep now: velocities and accumulated forces become zero.
  Status deactivate(BodyID id);
  /// Whether the body is awake.
  Result<bool> is_active(BodyID id) const;

  // --- Quarantine (DESIGN.md §7) --------------------------------------------------------------

  /// Whether the world quarantined the body: its state went non-finite during a step, so it
  /// was put back at its pose from the start of that step with zero velocity, deactivated and
  /// taken out of collision detection (UpdateResult::quarantined reports it). Until released
  /// it cannot be activated (activate() fails, other calls leave it asleep), but it can be
  /// moved, changed and removed as usual.
  Result<bool> is_quarantined(BodyID id) const;
  /// Lets a quarantined body take part in the simulation again (at its current pose) and
  /// activates it per `activation`. Error when it is not quarantined.
  Status release_quarantine(BodyID id, Activation activation = Activation::Activate);

 private:
  // lookup for a call that changes the body, refused while the world steps
  // (BodyManager::check_not_stepping).
  Result<Body*> lookup_to_change(BodyID id, const char* call);
  // lookup_to_change, refusing a soft body (for the calls that move or change a rigid body).
  Result<Body*> lookup_rigid(BodyID id, const char* call);
  // The listener's check_object_layer, the error starting "`call`: object_layer: ".
  Status check_object_layer(ObjectLayer layer, const char* call) const;
  // Adds a body that is not added yet and tells the listener.
  void add_to_simulation(Body& body, Activation activation);
  // Looks the body up and returns get(body) or the lookup error.
  template <class T, class Getter>
  Result<T> read(BodyID id, const char* call, Getter&& get) const {
    Result<const Body*> found = std::as_const(manager_).lookup(id, call);
    if (!found) return found.error();
    return T(get(**found));
  }
  Status set_pose(const char* call, BodyID id, const Vec3* position, const Quat* rotation,
                  Activation activation);
  void activate_if_added(Body& body, Activation activation);
  // A vector argument and its name, for the finite check of apply_to_dynamic.
  struct NamedVector {
    const char* name;
    const Vec3& value;
  };
  // The shared shape of the force and impulse calls: looks up a dynamic body, checks every
  // vector is finite, calls apply(body) and wakes the body.
  template <class Apply>
  Status apply_to_dynamic(const char* call, BodyID id, std::initializer_list<NamedVector> vectors,
                          Apply&& apply);

  BodyManager& manager_;
  BodyListener* listener_;
  SoftBodyCreator* soft_body_creator_ = nullptr;
};

}  // namespace atl
