#include "atoll/body/BodyInterface.h"

#include "atoll/body/Validation.h"

#include <cmath>

namespace atl {

namespace {

// The name of an argument in an error: "BodyInterface::set_friction: friction".
std::string arg(const char* call, const char* argument) {
  std::string name = call;
  name += ": ";
  name += argument;
  return name;
}

Error body_error(const char* call, const Body& body, const std::string& problem) {
  return field_error(arg(call, "id"), "body " + format_body_id(body.id()) + " " + problem);
}

Error not_dynamic_error(const char* call, const Body& body) {
  return body_error(call, body,
                    std::string("is ") + motion_type_name(body.motion_type()) +
                        ": forces and impulses act on dynamic bodies only");
}

Error static_error(const char* call, const Body& body, const char* what) {
  return body_error(call, body, std::string("is static and ") + what);
}

bool is_valid_motion_type(MotionType type) {
  return type == MotionType::Static || type == MotionType::Kinematic || type == MotionType::Dynamic;
}

bool is_valid_motion_quality(MotionQuality quality) {
  return quality == MotionQuality::Discrete || quality == MotionQuality::LinearCast;
}

// Problem with giving `body` the motion type Dynamic with `shape`, if any.
// `dofs`: the body's allowed DOFs (BodyManager::motion_settings: a static body's are those it
// will move with).
std::optional<std::string> dynamic_problem(const Body& body, const Shape& shape, AllowedDOFs dofs) {
  if (auto problem = dynamic_shape_problem(shape, body.override_mass())) return problem;
  if (dofs == AllowedDOFs::None)
    return std::string("a dynamic body needs a free axis, but the body's allowed DOFs are None");
  return std::nullopt;
}

}  // namespace

// --- Lifetime ---------------------------------------------------------------------------------

Result<Body*> BodyInterface::lookup_to_change(BodyID id, const char* call) {
  if (Status allowed = manager_.check_not_stepping(call); !allowed) return allowed.error();
  return manager_.lookup(id, call);
}

Result<Body*> BodyInterface::lookup_rigid(BodyID id, const char* call) {
  Result<Body*> found = lookup_to_change(id, call);
  if (found && (*found)->is_soft_body())
    return body_error(call, **found,
                      "is a soft body: its vertices move it (PhysicsSystem::soft_body), not "
                      "this call");
  return found;
}

void BodyInterface::add_to_simulation(Body& body, Activation activation) {
  manager_.add_body(body, activation);
  if (listener_ != nullptr) listener_->on_added(body);
}

Result<BodyID> BodyInterface::create_body(const BodyCreationSettings& settings) {
  constexpr const char* call = "BodyInterface::create_body";
  if (Status allowed = manager_.check_not_stepping(call); !allowed) return allowed.error();
  if (Status layer = check_object_layer(settings.resolved_object_layer(), call); !layer)
    return layer.error();
  return manager_.create_body(settings);
}

Status BodyInterface::check_object_layer(ObjectLayer layer, const char* call) const {
  if (listener_ == nullptr) return Ok{};
  Status checked = listener_->check_object_layer(layer);
  if (!checked) return Error(std::string(call) + ": object_layer: " + checked.error().message());
  return Ok{};
}

Status BodyInterface::add_body(BodyID id, Activation activation) {
  constexpr const char* call = "BodyInterface::add_body";
  Result<Body*> found = lookup_to_change(id, call);
  if (!found) return found.error();
  Body& body = **found;
  if (body.is_added()) return body_error(call, body, "is already added");
  add_to_simulation(body, activation);
  return Ok{};
}

Status BodyInterface::remove_body(BodyID id) {
  constexpr const char* call = "BodyInterface::remove_body";
  Result<Body*> found = lookup_to_change(id, call);
  if (!found) return found.error();
  Body& body = **found;
  if (!body.is_added()) return body_error(call, body, "is not added");
  manager_.remove_body(body);
  if (listener_ != nullptr) listener_->on_removed(body);
  return Ok{};
}

Status BodyInterface::destroy_body(BodyID id) {
  Result<Body*> found = lookup_to_change(id, "BodyInterface::destroy_body");
  if (!found) return found.error();
  Body& body = **found;
  if (body.is_added()) {
    manager_.remove_body(body);
    if (listener_ != nullptr) listener_->on_removed(body);
  }
  return manager_.destroy_body(id);
}

Result<BodyID> BodyInterface::create_and_add_body(const BodyCreationSettings& settings,
                                                  Activation activation) {
  constexpr const char* call = "BodyInterface::create_and_add_body";
  if (Status allowed = manager_.check_not_stepping(call); !allowed) return allowed.error();
  if (Status layer = check_object_layer(settings.resolved_object_layer(), call); !layer)
    return layer.error();
  Result<BodyID> id = create_body(settings);
  if (!id) return id;
  add_to_simulation(*manager_.get(*id), activation);
  return id;
}

Result<BodyID> BodyInterface::create_soft_body(const SoftBodyCreationSettings& settings) {
  constexpr const char* call = "BodyInterface::create_soft_body";
  if (Status allowed = manager_.check_not_stepping(call); !allowed) return allowed.error();
  if (soft_body_creator_ == nullptr)
    return Error(std::string(call) +
                 ": this BodyInterface belongs to no world that simulates "
                 "soft bodies (PhysicsSystem::body_interface() does)");
  return soft_body_creator_->create_soft_body(settings, call);
}

Result<BodyID> BodyInterface::create_and_add_soft_body(const SoftBodyCreationSettings& settings,
                                                       Activation activation) {
  if (Status allowed = manager_.check_not_stepping("BodyInterface::create_and_add_soft_body");
      !allowed)
    return allowed.error();
  Result<BodyID> id = create_soft_body(settings);
  if (!id) return id;
  add_to_simulation(*manager_.get(*id), activation);
  return id;
}

Result<bool> BodyInterface::is_added(BodyID id) const {
  return read<bool>(id, "BodyInterface::is_added", [](const Body& b) { return b.is_added(); });
}

Result<const Body*> BodyInterface::body(BodyID id) const {
  return std::as_const(manager_).lookup(id, "BodyInterface::body");
}

// --- Pose -------------------------------------------------------------------------------------

Result<Vec3> BodyInterface::position(BodyID id) const {
  return read<Vec3>(id, "BodyInterface::position", [](const Body& b) { return b.position(); });
}

Result<Quat> BodyInterface::rotation(BodyID id) const {
  return read<Quat>(id, "BodyInterface::rotation", [](const Body& b) { return b.rotation(); });
}

Result<Vec3> BodyInterface::center_of_mass_position(BodyID id) const {
  return read<Vec3>(id, "BodyInterface::center_of_mass_position",
                    [](const Body& b) { return b.center_of_mass_position(); });
}

Result<Mat44> BodyInterface::world_transform(BodyID id) const {
  return read<Mat44>(id, "BodyInterface::world_transform",
                     [](const Body& b) { return b.world_transform(); });
}

Status BodyInterface::set_position(BodyID id, const Vec3& position, Activation activation) {
  return set_pose("BodyInterface::set_position", id, &position, nullptr, activation);
}

Status BodyInterface::set_rotation(BodyID id, const Quat& rotation, Activation activation) {
  return set_pose("BodyInterface::set_rotation", id, nullptr, &rotation, activation);
}

Status BodyInterface::set_position_and_rotation(BodyID id, const Vec3& position,
                                                const Quat& rotation, Activation activation) {
  return set_pose("BodyInterface::set_position_and_rotation", id, &position, &rotation, activation);
}

Status BodyInterface::set_pose(const char* call, BodyID id, const Vec3* position,
                               const Quat* rotation, Activation activation) {
  Result<Body*> found = lookup_rigid(id, call);
  if (!found) return found.error();
  Body& body = **found;
  if (position != nullptr) {
    if (auto error = check_bounded(arg(call, "position"), *position, k_max_position, "m"))
      return *error;
  }
  if (rotation != nullptr) {
    if (auto error = check_rotation(arg(call, "rotation"), *rotation)) return *error;
  }
  body.set_position_and_rotation_internal(
      position != nullptr ? *position : body.position(),
      rotation != nullptr ? rotation->normalized() : body.rotation());
  activate_if_added(body, activation);
  if (listener_ != nullptr && body.is_added()) listener_->on_moved(body);
  return Ok{};
}

Status BodyInterface::move_kinematic(BodyID id, const Vec3& target_position,
                                     const Quat& target_rotation, float dt) {
  constexpr const char* call = "BodyInterface::move_kinematic";
  Result<Body*> found = lookup_rigid(id, call);
  if (!found) return found.error();
  Body& body = **found;
  if (body.is_static()) return static_error(call, body, "cannot move");
  // A dynamic body given the velocity that reaches the target in one step used to leave at any
  // speed (148 m/s in a scene) and tunnel; velocities and forces move dynamic bodies.
  if (body.is_dynamic())
    return body_error(call, body,
                      "is dynamic: move_kinematic moves kinematic bodies only (give a dynamic "
                      "body a velocity, a force or an impulse)");
  if (auto error =
          check_bounded(arg(call, "target_position"), target_position, k_max_position, "m"))
    return *error;
  if (auto error = check_rotation(arg(call, "target_rotation"), target_rotation)) return *error;
  if (auto error = check_positive(arg(call, "dt"), dt)) return *error;

  const Quat rotation = target_rotation.normalized();
  const Vec3 target_com = target_position + rotation * body.shape_center_of_mass();
  // A dt so short that the velocities overflow float (a turn of up to π rad, or the distance, in
  // dt) would leave the body with an infinite velocity.
  if (!((target_com - body.center_of_mass_position()) / dt).is_finite() ||
      !std::isfinite(k_pi / dt))
    return field_error(arg(call, "dt"),
                       "too short to reach the target: the velocity overflows "
                       "float, got " +
                           format_float(dt));
  MotionProperties& motion = *body.motion_properties();
  motion.move_kinematic(body.center_of_mass_position(), body.rotation(), target_com, rotation, dt);
  if (motion.linear_velocity() != Vec3::zero() || motion.angular_velocity() != Vec3::zero())
    activate_if_added(body, Activation::Activate);
  return Ok{};
}

// --- Velocities, forces, impulses -------------------------------------------------------------

Result<Vec3> BodyInterface::linear_velocity(BodyID id) const {
  return read<Vec3>(id, "BodyInterface::linear_velocity",
                    [](const Body& b) { return b.linear_velocity(); });
}

Result<Vec3> BodyInterface::angular_velocity(BodyID id) const {
  return read<Vec3>(id, "BodyInterface::angular_velocity",
                    [](const Body& b) { return b.angular_velocity(); });
}

Result<Vec3> BodyInterface::point_velocity(BodyID id, const Vec3& world_point) const {
  constexpr const char* call = "BodyInterface::point_velocity";
  if (auto error = check_finite(arg(call, "world_point"), world_point)) return *error;
  return read<Vec3>(id, call, [&](const Body& b) { return b.point_velocity(world_point); });
}

Status BodyInterface::set_linear_velocity(BodyID id, const Vec3& velocity) {
  constexpr const char* call = "BodyInterface::set_linear_velocity";
  Result<Body*> found = lookup_rigid(id, call);
  if (!found) return found.error();
  Body& body = **found;
  if (body.is_static()) return static_error(call, body, "cannot have a velocity");
  if (auto error = check_finite(arg(call, "velocity"), velocity)) return *error;
  body.motion_properties()->set_linear_velocity(velocity);
  if (velocity != Vec3::zero()) activate_if_added(body, Activation::Activate);
  return Ok{};
}

Status BodyInterface::set_angular_velocity(BodyID id, const Vec3& velocity) {
  constexpr const char* call = "BodyInterface::set_angular_velocity";
  Result<Body*> found = lookup_rigid(id, call);
  if (!found) return found.error();
  Body& body = **found;
  if (body.is_static()) return static_error(call, body, "cannot have a velocity");
  if (auto error = check_finite(arg(call, "velocity"), velocity)) return *error;
  body.motion_properties()->set_angular_velocity(velocity);
  if (velocity != Vec3::zero()) activate_if_added(body, Activation::Activate);
  return Ok{};
}

template <class Apply>
Status BodyInterface::apply_to_dynamic(const char* call, BodyID id,
                                       std::initializer_list<NamedVector> vectors, Apply&& apply) {
  Result<Body*> found = lookup_rigid(id, call);
  if (!found) return found.error();
  Body& body = **found;
  if (!body.is_dynamic()) return not_dynamic_error(call, body);
  // Any finite force or impulse is accepted: a velocity beyond max_linear_velocity is clamped
  // (also when its square overflows), and forces whose sum overflows end in quarantine. Only an
  // impulse whose effect overflows the velocity itself is refused (below).
  for (const NamedVector& v : vectors) {
    const bool is_point = std::string_view(v.name) == "world_point";
    if (auto error = is_point ? check_bounded(arg(call, v.name), v.value, k_max_position, "m")
                              : check_finite(arg(call, v.name), v.value))
      return *error;
  }
  const Vec3 linear_before = body.linear_velocity(), angular_before = body.angular_velocity();
  apply(body);
  // A finite impulse whose effect overflows float (a huge angular impulse through the inverse
  // inertia, an impulse at a long lever arm) left a NaN or infinite velocity, which a body out
  // of the world keeps: refused, and the velocities put back.
  if (!body.linear_velocity().is_finite() || !body.angular_velocity().is_finite()) {
    body.motion_properties()->set_linear_velocity(linear_before);
    body.motion_properties()->set_angular_velocity(angular_before);
    const NamedVector& first = *vectors.begin();
    return field_error(arg(call, first.name), "its effect on the velocity overflows float, got " +
                                                  format_vec3(first.value));
  }
  activate_if_added(body, Activation::Activate);
  return Ok{};
}

Status BodyInterface::add_force(BodyID id, const Vec3& force) {
  return apply_to_dynamic("BodyInterface::add_force", id, {{"force", force}},
                          [&](Body& body) { body.add_force(force); });
}

Status BodyInterface::add_force(BodyID id, const Vec3& force, const Vec3& world_point) {
  return apply_to_dynamic("BodyInterface::add_force", id,
                          {{"force", force}, {"world_point", world_point}},
                          [&](Body& body) { body.add_force(force, world_point); });
}

Status BodyInterface::add_torque(BodyID id, const Vec3& torque) {
  return apply_to_dynamic("BodyInterface::add_torque", id, {{"torque", torque}},
                          [&](Body& body) { body.add_torque(torque); });
}

Status BodyInterface::add_impulse(BodyID id, const Vec3& impulse) {
  return apply_to_dynamic("BodyInterface::add_impulse", id, {{"impulse", impulse}},
                          [&](Body& body) { body.add_impulse(impulse); });
}

Status BodyInterface::add_impulse(BodyID id, const Vec3& impulse, const Vec3& world_point) {
  return apply_to_dynamic("BodyInterface::add_impulse", id,
                          {{"impulse", impulse}, {"world_point", world_point}},
                          [&](Body& body) { body.add_impulse(impulse, world_point); });
}

Status BodyInterface::add_angular_impulse(BodyID id, const Vec3& angular_impulse) {
  return apply_to_dynamic("BodyInterface::add_angular_impulse", id,
                          {{"angular_impulse", angular_impulse}},
                          [&](Body& body) { body.add_angular_impulse(angular_impulse); });
}

Result<MotionType> BodyInterface::motion_type(BodyID id) const {
  return read<MotionType>(id, "BodyInterface::motion_type",
                          [](const Body& b) { return b.motion_type(); });
}

Status BodyInterface::set_motion_type(BodyID id, MotionType motion_type, Activation activation) {
  constexpr const char* call = "BodyInterface::set_motion_type";
  Result<Body*> found = lookup_rigid(id, call);
  if (!found) return found.error();
  Body& body = **found;
  if (!is_valid_motion_type(motion_type))
    return field_error(arg(call, "motion_type"),
                       "invalid value " + std::to_string(int(motion_type)));
  if (motion_type == MotionType::Dynamic) {
    if (auto problem =
            dynamic_problem(body, *body.shape(), manager_.motion_settings(body).allowed_dofs))
      return field_error(arg(call, "motion_type"), *problem);
  }
  // A layer left to its default follows the motion type, as at creation: a body created static
  // stayed on layers::k_non_moving when made dynamic, which does not collide with the static
  // layer, and fell through the floor.
  const ObjectLayer old_layer = body.object_layer();
  const ObjectLayer new_layer =
      body.has_default_object_layer() ? default_object_layer(motion_type) : old_layer;
  if (new_layer != old_layer && listener_ != nullptr) {
    if (Status checked = listener_->check_object_layer(new_layer); !checked)
      return field_error(arg(call, "motion_type"),
                         std::string("the body's object layer is the default one, which follows "
                                     "the motion type, but the default layer of a ") +
                             motion_type_name(motion_type) + " body: " + checked.error().message() +
                             " (choose a layer with set_object_layer first)");
  }
  const MotionType old_type = body.motion_type();
  manager_.set_motion_type(body, motion_type);
  if (new_layer != old_layer) manager_.set_default_object_layer(body, new_layer);
  activate_if_added(body, activation);
  if (listener_ != nullptr && body.is_added() && new_layer != old_layer)
    listener_->on_layer_changed(body, old_layer);
  if (listener_ != nullptr && body.is_added() && old_type != motion_type)
    listener_->on_motion_type_changed(body, old_type);
  return Ok{};
}

Result<MotionQuality> BodyInterface::motion_quality(BodyID id) const {
  constexpr const char* call = "BodyInterface::motion_quality";
  Result<const Body*> found = std::as_const(manager_).lookup(id, call);
  if (!found) return found.error();
  const Body& body = **found;
  if (body.is_static()) return static_error(call, body, "has no motion quality");
  return body.motion_properties()->motion_quality();
}

Status BodyInterface::set_motion_quality(BodyID id, MotionQuality motion_quality) {
  constexpr const char* call = "BodyInterface::set_motion_quality";
  Result<Body*> found = lookup_rigid(id, call);
  if (!found) return found.error();
  Body& body = **found;
  if (body.is_static()) return static_error(call, body, "has no motion quality");
  if (!is_valid_motion_quality(motion_quality))
    return field_error(arg(call, "motion_quality"),
                       "invalid value " + std::to_string(int(motion_quality)));
  body.motion_properties()->set_motion_quality(motion_quality);
  return Ok{};
}

Result<Ref<const Shape>> BodyInterface::shape(BodyID id) const {
  return read<Ref<const Shape>>(id, "BodyInterface::shape",
                                [](const Body& b) { return b.shape(); });
}

Status BodyInterface::set_shape(BodyID id, Ref<const Shape> shape, Activation activation) {
  constexpr const char* call = "BodyInterface::set_shape";
  Result<Body*> found = lookup_rigid(id, call);
  if (!found) return found.error();
  Body& body = **found;
  if (shape == nullptr) return field_error(arg(call, "shape"), "must not be null");
  // As at creation (a hull of 1e38 m points moved the body to NaN).
  if (auto error = check_shape_placement(arg(call, "shape"), *shape, body.world_transform()))
    return *error;
  if (body.is_dynamic()) {
    if (auto problem = dynamic_problem(body, *shape, manager_.motion_settings(body).allowed_dofs))
      return field_error(arg(call, "shape"), *problem);
  }
  manager_.set_shape(body, std::move(shape));
  activate_if_added(body, activation);
  if (listener_ != nullptr && body.is_added()) listener_->on_shape_changed(body);
  return Ok{};
}

Result<float> BodyInterface::friction(BodyID id) const {
  return read<float>(id, "BodyInterface::friction", [](const Body& b) { return b.friction(); });
}

Status BodyInterface::set_friction(BodyID id, float friction) {
  constexpr const char* call = "BodyInterface::set_friction";
  Result<Body*> found = lookup_rigid(id, call);
  if (!found) return found.error();
  if (auto error = check_non_negative(arg(call, "friction"), friction)) return *error;
  (*found)->set_friction(friction);
  return Ok{};
}

Result<float> BodyInterface::restitution(BodyID id) const {
  return read<float>(id, "BodyInterface::restitution",
                     [](const Body& b) { return b.restitution(); });
}

Status BodyInterface::set_restitution(BodyID id, float restitution) {
  constexpr const char* call = "BodyInterface::set_restitution";
  Result<Body*> found = lookup_rigid(id, call);
  if (!found) return found.error();
  if (auto error = check_unit_interval(arg(call, "restitution"), restitution)) return *error;
  (*found)->set_restitution(restitution);
  return Ok{};
}

Result<ObjectLayer> BodyInterface::object_layer(BodyID id) const {
  return read<ObjectLayer>(id, "BodyInterface::object_layer",
                           [](const Body& b) { return b.object_layer(); });
}

Status BodyInterface::set_object_layer(BodyID id, ObjectLayer layer) {
  constexpr const char* call = "BodyInterface::set_object_layer";
  Result<Body*> found = lookup_to_change(id, call);
  if (!found) return found.error();
  if (Status checked = check_object_layer(layer, call); !checked) return checked;
  Body& body = **found;
  const ObjectLayer old_layer = body.object_layer();
  // Also when the layer stays: it is chosen now, and no longer follows the motion type.
  manager_.set_object_layer(body, layer);
  if (old_layer == layer) return Ok{};
  if (listener_ != nullptr && body.is_added()) listener_->on_layer_changed(body, old_layer);
  return Ok{};
}

Result<CollisionGroup> BodyInterface::collision_group(BodyID id) const {
  Result<const Body*> found = std::as_const(manager_).lookup(id, "BodyInterface::collision_group");
  if (!found) return found.error();
  return manager_.collision_group(id.index());
}

Status BodyInterface::set_collision_group(BodyID id, CollisionGroup group) {
  Result<Body*> found = lookup_to_change(id, "BodyInterface::set_collision_group");
  if (!found) return found.error();
  manager_.set_collision_group(**found, std::move(group));
  return Ok{};
}

Result<float> BodyInterface::gravity_factor(BodyID id) const {
  constexpr const char* call = "BodyInterface::gravity_factor";
  Result<const Body*> found = std::as_const(manager_).lookup(id, call);
  if (!found) return found.error();
  const Body& body = **found;
  if (body.is_static()) return static_error(call, body, "has no gravity factor");
  return body.motion_properties()->gravity_factor();
}

Status BodyInterface::set_gravity_factor(BodyID id, float gravity_factor) {
  constexpr const char* call = "BodyInterface::set_gravity_factor";
  Result<Body*> found = lookup_rigid(id, call);
  if (!found) return found.error();
  Body& body = **found;
  if (body.is_static()) return static_error(call, body, "has no gravity factor");
  if (auto error = check_finite(arg(call, "gravity_factor"), gravity_factor)) return *error;
  body.motion_properties()->set_gravity_factor(gravity_factor);
  return Ok{};
}

// --- Sleep ------------------------------------------------------------------------------------

Status BodyInterface::activate(BodyID id) {
  constexpr const char* call = "BodyInterface::activate";
  Result<Body*> found = lookup_rigid(id, call);
  if (!found) return found.error();
  Body& body = **found;
  if (body.is_static()) return static_error(call, body, "can never be active");
  if (!body.is_added()) return body_error(call, body, "is not added to the simulation");
  if (body.is_quarantined())
    return body_error(call, body, "is quarantined: call release_quarantine first");
  manager_.activate(body);
  return Ok{};
}

Status BodyInterface::deactivate(BodyID id) {
  Result<Body*> found = lookup_rigid(id, "BodyInterface::deactivate");
  if (!found) return found.error();
  manager_.deactivate(**found);
  return Ok{};
}

Result<bool> BodyInterface::is_active(BodyID id) const {
  return read<bool>(id, "BodyInterface::is_active", [](const Body& b) { return b.is_active(); });
}

// --- Quarantine -------------------------------------------------------------------------------

Result<bool> BodyInterface::is_quarantined(BodyID id) const {
  return read<bool>(id, "BodyInterface::is_quarantined",
                    [](const Body& b) { return b.is_quarantined(); });
}

Status BodyInterface::release_quarantine(BodyID id, Activation activation) {
  constexpr const char* call = "BodyInterface::release_quarantine";
  Result<Body*> found = lookup_rigid(id, call);
  if (!found) return found.error();
  Body& body = **found;
  if (!body.is_quarantined()) return body_error(call, body, "is not quarantined");
  manager_.release_quarantine(body);
  if (listener_ != nullptr && body.is_added()) listener_->on_quarantine_released(body);
  activate_if_added(body, activation);
  return Ok{};
}

void BodyInterface::activate_if_added(Body& body, Activation activation) {
  if (activation == Activation::Activate && body.is_added() && !body.is_static())
    manager_.activate(body);
}

}  // namespace atl
