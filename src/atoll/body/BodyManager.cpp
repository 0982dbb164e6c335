#include "atoll/body/BodyManager.h"

#include <algorithm>

#include "atoll/body/Validation.h"
#include "atoll/core/QuickSort.h"

namespace atl {

Result<BodyID> BodyManager::create_body(const BodyCreationSettings& settings) {
  if (Status valid = settings.validate(); !valid) return valid.error();
  if (max_bodies_ != k_no_limit && num_bodies_ >= max_bodies_)
    return Error("BodyManager::create_body: max_bodies: cap of " + std::to_string(max_bodies_) +
                 " bodies reached");

  uint32_t index;
  if (!free_body_slots_.empty()) {
    index = free_body_slots_.back();
    free_body_slots_.pop_back();
    ++sequences_[index];  // uint8_t: wraps after 256 reuses
  } else {
    if (bodies_.size() > BodyID::k_max_index)
      return Error("BodyManager::create_body: the 24-bit BodyID index space (" +
                   std::to_string(BodyID::k_max_index + 1) + " bodies) is exhausted");
    index = bodies_.size();
    bodies_.emplace_back(Body());
    sequences_.push_back(0);
    collision_groups_.emplace_back();
  }

  Body& body = bodies_[index];
  body.id_ = BodyID(index, sequences_[index]);
  body.shape_ = settings.shape;
  body.shape_com_ = settings.shape->center_of_mass().to_float3();
  body.motion_type_ = settings.motion_type;
  body.object_layer_ = settings.resolved_object_layer();
  body.friction_ = settings.friction;
  body.restitution_ = settings.restitution;
  body.rolling_resistance_ = settings.rolling_resistance;
  body.torsional_friction_ = settings.torsional_friction;
  body.override_mass_ = settings.override_mass.value_or(0.0f);
  body.user_data_ = settings.user_data;
  body.set_flag(Body::k_flag_default_object_layer, !settings.object_layer.has_value());
  body.set_sensor(settings.is_sensor);
  collision_groups_[index] = settings.collision_group;
  body.set_sensor_detects_static(settings.sensor_detects_static);
  // validate() allowed a squared-length error of 1e-3; store an exact unit quaternion so that
  // the error does not scale the shape or feed into integration.
  body.set_position_and_rotation_internal(settings.position, settings.rotation.normalized());
  if (settings.motion_type != MotionType::Static)
    init_motion_properties(body, settings);
  else
    park_motion_settings(index, MotionSettings::of(settings));
  ++num_bodies_;
  return body.id_;
}

Status BodyManager::destroy_body(BodyID id) {
  Result<Body*> found = lookup(id, "BodyManager::destroy_body");
  if (!found) return found.error();
  Body& body = **found;
  if (body.is_added()) remove_body(body);
  if (body.motion_ != nullptr) release_motion_properties(body.motion_);
  (void)unpark_motion_settings(id.index());
  body = Body();  // releases the shape; an invalid id marks the slot free
  collision_groups_[id.index()] = CollisionGroup();  // releases the filter
  free_body_slots_.push_back(id.index());
  --num_bodies_;
  return Ok{};
}

Body* BodyManager::get(BodyID id) {
  if (id.index() >= bodies_.size()) return nullptr;  // also rejects the invalid ID
  Body& body = bodies_[id.index()];
  return body.id_ == id ? &body : nullptr;
}

const Body* BodyManager::get(BodyID id) const { return const_cast<BodyManager*>(this)->get(id); }

Status BodyManager::begin_step(const char* call) {
  if (stepping_.exchange(true, std::memory_order_acquire)) return stepping_error(call);
  return Ok{};
}

Status BodyManager::check_not_stepping(const char* call) const {
  if (!is_stepping()) return Ok{};
  return stepping_error(call);
}

Error BodyManager::stepping_error(const char* call) {
  return Error(std::string(call) +
               ": not allowed while PhysicsSystem::update steps the world (a call from a "
               "step-time callback: ContactListener::on_contact_validate, on_contact_added or "
               "on_contact_persisted, or a filter; or from another thread); change the world in "
               "ContactListener::on_contact_events or after update returns");
}

Result<Body*> BodyManager::lookup(BodyID id, const char* call) {
  if (Body* body = get(id)) return body;
  std::string prefix = call;
  prefix += ": id: ";
  if (!id.is_valid()) return Error(prefix + "invalid BodyID");
  if (id.index() >= bodies_.size())
    return Error(prefix + "no body was ever created with BodyID " + format_body_id(id));
  if (!bodies_[id.index()].id_.is_valid() && sequences_[id.index()] == id.sequence())
    return Error(prefix + "body " + format_body_id(id) + " was destroyed");
  return Error(prefix + "stale BodyID " + format_body_id(id) +
               ": that body was destroyed and its slot reused");
}

Result<const Body*> BodyManager::lookup(BodyID id, const char* call) const {
  Result<Body*> found = const_cast<BodyManager*>(this)->lookup(id, call);
  if (!found) return found.error();
  return static_cast<const Body*>(*found);
}

void BodyManager::add_body(Body& body, Activation activation) {
  ATOLL_ASSERT(!body.is_added(), "body already added");
  body.set_flag(Body::k_flag_added, true);
  if (activation == Activation::Activate && !body.is_static()) activate(body);
}

void BodyManager::remove_body(Body& body) {
  ATOLL_ASSERT(body.is_added(), "body not added");
  if (body.is_active()) remove_from_active_list(body);
  body.set_flag(Body::k_flag_added, false);
}

void BodyManager::activate(Body& body) {
  ATOLL_ASSERT(body.is_added() && !body.is_static(), "only added, moving bodies can be active");
  // Soft bodies are simulated whenever they are added (softbody/SoftBodyManager.h): the active
  // list is the rigid stages'.
  if (body.is_quarantined() || body.is_soft_body()) return;
  // An active body only restarts its sleep test (Jolt does the same): a user who wakes a body
  // expects it to stay awake for time_before_sleep.
  if (!body.is_active()) {
    body.motion_->set_index_in_active_bodies(uint32_t(active_.size()));
    active_.push_back(body.id_.index());
    if (record_activation_events_) activation_events_.push_back({body.id_, true});
  }
  body.reset_sleep_test();
}

void BodyManager::deactivate(Body& body) {
  if (!body.is_active()) return;
  remove_from_active_list(body);
  MotionProperties& motion = *body.motion_;
  motion.set_linear_velocity(Vec3::zero());
  motion.set_angular_velocity(Vec3::zero());
  motion.reset_force_and_torque();
}

void BodyManager::quarantine(Body& body, const Vec3& com_position, const Quat& rotation) {
  // Set directly rather than through set_position_and_rotation_internal, whose round trip
  // through the shape origin could change the last bits of the restored pose.
  body.com_position_ = com_position;
  body.rotation_ = rotation;
  body.update_world_bounds();
  deactivate(body);
  body.set_flag(Body::k_flag_quarantined, true);
}

BodyState BodyManager::body_state(const Body& body) const {
  ATOLL_ASSERT(body.motion_ != nullptr, "a static body has no state");
  const MotionProperties& motion = *body.motion_;
  BodyState state;
  state.com_position = body.com_position_;
  state.rotation = body.rotation_;
  state.linear_velocity = motion.linear_velocity_;
  state.angular_velocity = motion.angular_velocity_;
  state.force = motion.force_;
  state.torque = motion.torque_;
  state.active = body.is_active();
  state.quarantined = body.is_quarantined();
  for (int i = 0; i < MotionProperties::k_num_sleep_test_points; ++i)
    state.sleep_test_spheres[i] = motion.sleep_test_spheres_[i];
  state.sleep_test_timer = motion.sleep_test_timer_;
  return state;
}

void BodyManager::set_body_state(Body& body, const BodyState& state) {
  ATOLL_ASSERT(body.motion_ != nullptr, "a static body has no state");
  body.set_flag(Body::k_flag_quarantined, state.quarantined);
  if (state.active && !body.is_active() && body.is_added()) {
    body.motion_->set_index_in_active_bodies(uint32_t(active_.size()));
    active_.push_back(body.id_.index());
  } else if (!state.active && body.is_active()) {
    remove_from_active_list(body);
  }
  MotionProperties& motion = *body.motion_;
  body.com_position_ = state.com_position;
  body.rotation_ = state.rotation;
  body.update_world_bounds();
  motion.linear_velocity_ = state.linear_velocity;
  motion.angular_velocity_ = state.angular_velocity;
  motion.force_ = state.force;
  motion.torque_ = state.torque;
  for (int i = 0; i < MotionProperties::k_num_sleep_test_points; ++i)
    motion.sleep_test_spheres_[i] = state.sleep_test_spheres[i];
  motion.sleep_test_timer_ = state.sleep_test_timer;
}

void BodyManager::remove_from_active_list(Body& body) {
  const uint32_t position = body.motion_->index_in_active_bodies();
  ATOLL_ASSERT(position < active_.size() && active_[position] == body.id_.index());
  const uint32_t last = active_.back();
  active_[position] = last;
  bodies_[last].motion_->set_index_in_active_bodies(position);
  active_.pop_back();
  body.motion_->set_index_in_active_bodies(MotionProperties::k_inactive_index);
  body.motion_->set_island_index(MotionProperties::k_no_island);
  if (record_activation_events_) activation_events_.push_back({body.id_, false});
}

void BodyManager::set_motion_type(Body& body, MotionType motion_type) {
  if (body.motion_type_ == motion_type) return;
  if (motion_type == MotionType::Static) {
    if (body.is_active()) remove_from_active_list(body);
    park_motion_settings(body.id_.index(), MotionSettings::of(*body.motion_));
    release_motion_properties(body.motion_);
    body.motion_ = nullptr;
  } else if (body.motion_ == nullptr) {
    BodyCreationSettings settings;
    settings.shape = body.shape_;
    settings.override_mass = body.override_mass();
    unpark_motion_settings(body.id_.index()).apply(settings);
    init_motion_properties(body, settings);
  }
  body.motion_type_ = motion_type;
}

void BodyManager::set_shape(Body& body, Ref<const Shape> shape) {
  ATOLL_ASSERT(shape != nullptr);
  const Vec3 position = body.position();
  body.shape_ = std::move(shape);
  body.shape_com_ = body.shape_->center_of_mass().to_float3();
  if (body.motion_ != nullptr)
    body.motion_->set_mass_properties(body.motion_->allowed_dofs(),
                                      body_mass_properties(*body.shape_, body.override_mass()));
  body.set_position_and_rotation_internal(position, body.rotation_);
  if (body.is_active()) body.reset_sleep_test();
}

std::vector<BodyID> BodyManager::body_ids() const {
  std::vector<BodyID> ids;
  ids.reserve(num_bodies_);
  for_each_body([&](const Body& body) { ids.push_back(body.id()); });
  return ids;
}

void BodyManager::sort_active_bodies() {
  // Usually sorted already (no body activated or deactivated since): then no body is touched,
  // where rewriting every position moved every active body's motion properties into the calling
  // thread's cache at the start of every step.
  if (std::is_sorted(active_.begin(), active_.end())) return;
  quick_sort(active_.begin(), active_.end());
  for (uint32_t i = 0; i < active_.size(); ++i)
    bodies_[active_[i]].motion_->set_index_in_active_bodies(i);
}

void BodyManager::set_record_activation_events(bool record) {
  record_activation_events_ = record;
  if (!record) activation_events_.clear();
}

void BodyManager::take_activation_events(std::vector<BodyActivationEvent>& out) {
  out.clear();
  out.swap(activation_events_);
}

size_t BodySetSnapshot::bytes() const {
  return bodies_.size() * sizeof(Body) + collision_groups_.size() * sizeof(CollisionGroup) +
         sequences_.size() + free_body_slots_.size() * sizeof(uint32_t) +
         motion_properties_.size() * sizeof(MotionProperties) +
         free_motion_properties_.size() * sizeof(MotionProperties*) +
         parked_motion_settings_.size() * sizeof(parked_motion_settings_[0]) +
         active_.size() * sizeof(uint32_t);
}

namespace {

// Makes `to` hold copies of `from`'s elements, assigning over those it has (no allocation once
// it is as large as it will get). `copy(to_element, from_element)` assigns, `append(element)`
// adds a copy at the end (Body's copies are private to the BodyManager).
template <class To, class From, class Copy, class Append>
void copy_elements(To& to, const From& from, uint32_t from_size, Copy&& copy, Append&& append) {
  while (to.size() > from_size) to.pop_back();
  for (uint32_t i = 0; i < from_size; ++i) {
    if (i < to.size())
      copy(to[i], from[i]);
    else
      append(from[i]);
  }
}

}  // namespace

void BodyManager::save_body_set(BodySetSnapshot& snapshot) const {
  snapshot.owner_ = identity_;
  copy_elements(
      snapshot.bodies_, bodies_, bodies_.size(), [](Body& to, const Body& from) { to = from; },
      [&](const Body& body) { snapshot.bodies_.push_back(Body(body)); });
  copy_elements(
      snapshot.motion_properties_, motion_properties_, motion_properties_.size(),
      [](MotionProperties& to, const MotionProperties& from) { to = from; },
      [&](const MotionProperties& m) { snapshot.motion_properties_.push_back(m); });
  snapshot.collision_groups_ = collision_groups_;
  snapshot.sequences_ = sequences_;
  snapshot.free_body_slots_ = free_body_slots_;
  snapshot.free_motion_properties_ = free_motion_properties_;
  snapshot.parked_motion_settings_ = parked_motion_settings_;
  snapshot.active_ = active_;
  snapshot.num_bodies_ = num_bodies_;
}

void BodyManager::restore_body_set(const BodySetSnapshot& snapshot) {
  ATOLL_ASSERT(saved(snapshot), "a snapshot of another body manager");
  // The bodies' motion_ pointers name slots of motion_properties_, whose addresses do not
  // change: restoring the same slots with the same contents makes every pointer right again.
  copy_elements(
      bodies_, snapshot.bodies_, uint32_t(snapshot.bodies_.size()),
      [](Body& to, const Body& from) { to = from; },
      [&](const Body& body) { bodies_.emplace_back(Body(body)); });
  copy_elements(
      motion_properties_, snapshot.motion_properties_, uint32_t(snapshot.motion_properties_.size()),
      [](MotionProperties& to, const MotionProperties& from) { to = from; },
      [&](const MotionProperties& m) { motion_properties_.emplace_back(m); });
  collision_groups_ = snapshot.collision_groups_;
  sequences_ = snapshot.sequences_;
  free_body_slots_ = snapshot.free_body_slots_;
  free_motion_properties_ = snapshot.free_motion_properties_;
  parked_motion_settings_ = snapshot.parked_motion_settings_;
  active_ = snapshot.active_;
  num_bodies_ = snapshot.num_bodies_;
  activation_events_.clear();
}

MotionSettings MotionSettings::of(const BodyCreationSettings& settings) {
  return {settings.linear_damping,       settings.angular_damping, settings.max_linear_velocity,
          settings.max_angular_velocity, settings.gravity_factor,  settings.motion_quality,
          settings.allowed_dofs,         settings.allow_sleeping};
}

MotionSettings MotionSettings::of(const MotionProperties& motion) {
  return {motion.linear_damping(),       motion.angular_damping(), motion.max_linear_velocity(),
          motion.max_angular_velocity(), motion.gravity_factor(),  motion.motion_quality(),
          motion.allowed_dofs(),         motion.allow_sleeping()};
}

void MotionSettings::apply(BodyCreationSettings& settings) const {
  settings.linear_damping = linear_damping;
  settings.angular_damping = angular_damping;
  settings.max_linear_velocity = max_linear_velocity;
  settings.max_angular_velocity = max_angular_velocity;
  settings.gravity_factor = gravity_factor;
  settings.motion_quality = motion_quality;
  settings.allowed_dofs = allowed_dofs;
  settings.allow_sleeping = allow_sleeping;
}

namespace {

// Where `slot`'s entry is, or would go, in a list of kept motion settings (in slot order).
template <class List>
auto parked_entry(List& parked, uint32_t slot) {
  return std::lower_bound(parked.begin(), parked.end(), slot,
                          [](const auto& entry, uint32_t s) { return entry.first < s; });
}

}  // namespace

void BodyManager::park_motion_settings(uint32_t slot, const MotionSettings& settings) {
  auto& parked = parked_motion_settings_;
  const auto at = parked_entry(parked, slot);
  const bool kept = at != parked.end() && at->first == slot;
  if (settings == MotionSettings()) {
    if (kept) parked.erase(at);
  } else if (kept) {
    at->second = settings;
  } else {
    parked.insert(at, {slot, settings});
  }
}

MotionSettings BodyManager::motion_settings(const Body& body) const {
  if (body.motion_ != nullptr) return MotionSettings::of(*body.motion_);
  const auto& parked = parked_motion_settings_;
  const uint32_t slot = body.id_.index();
  const auto at = parked_entry(parked, slot);
  return at != parked.end() && at->first == slot ? at->second : MotionSettings();
}

MotionSettings BodyManager::unpark_motion_settings(uint32_t slot) {
  auto& parked = parked_motion_settings_;
  const auto at = parked_entry(parked, slot);
  if (at == parked.end() || at->first != slot) return MotionSettings();
  const MotionSettings settings = at->second;
  parked.erase(at);
  return settings;
}

MotionProperties* BodyManager::allocate_motion_properties() {
  if (!free_motion_properties_.empty()) {
    MotionProperties* motion = free_motion_properties_.back();
    free_motion_properties_.pop_back();
    return motion;
  }
  return &motion_properties_.emplace_back();
}

void BodyManager::release_motion_properties(MotionProperties* motion) {
  *motion = MotionProperties();
  free_motion_properties_.push_back(motion);
}

void BodyManager::init_motion_properties(Body& body, const BodyCreationSettings& settings) {
  MotionProperties& motion = *allocate_motion_properties();
  motion = MotionProperties();
  motion.set_linear_damping(settings.linear_damping);
  motion.set_angular_damping(settings.angular_damping);
  motion.set_max_linear_velocity(settings.max_linear_velocity);
  motion.set_max_angular_velocity(settings.max_angular_velocity);
  motion.set_gravity_factor(settings.gravity_factor);
  motion.set_motion_quality(settings.motion_quality);
  motion.set_allow_sleeping(settings.allow_sleeping);
  motion.set_mass_properties(settings.allowed_dofs, settings.mass_properties());
  motion.set_linear_velocity(settings.linear_velocity);
  motion.set_angular_velocity(settings.angular_velocity);
  body.motion_ = &motion;
}

}  // namespace atl
