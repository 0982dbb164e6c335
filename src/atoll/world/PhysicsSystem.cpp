#include "atoll/world/PhysicsSystem.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "atoll/collision/narrowphase/CollideShapes.h"
#include "atoll/collision/narrowphase/ShapeCast.h"
#include "atoll/core/QuickSort.h"

namespace atl {

namespace {

constexpr uint32_t k_none = 0xffffffffu;

// Times a stage into UpdateResult::stage_ms.
class StageTimer {
 public:
  StageTimer(UpdateResult& result, Stage stage)
      : result_(result), stage_(stage), start_(std::chrono::steady_clock::now()) {}
  ~StageTimer() {
    result_.stage_ms[static_cast<int>(stage_)] +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
            .count();
  }

 private:
  UpdateResult& result_;
  Stage stage_;
  std::chrono::steady_clock::time_point start_;
};

ContactEvent contact_event(ContactEventType type, BodyID body1, BodyID body2,
                           const ContactManifold& manifold, int collision_step) {
  ContactEvent event;
  event.type = type;
  event.body1 = body1;
  event.body2 = body2;
  event.sub_shape_id1 = manifold.sub_shape_id1;
  event.sub_shape_id2 = manifold.sub_shape_id2;
  event.normal = manifold.normal;
  event.penetration_depth = manifold.penetration_depth;
  event.point = manifold.points_on_2.empty() ? Vec3() : manifold.points_on_2[0];
  event.collision_step = collision_step;
  return event;
}

// Listener order (ContactListener.h): the more dynamic body first, ties by lower ID.
int motion_rank(const Body& body) { return body.is_dynamic() ? 2 : body.is_kinematic() ? 1 : 0; }
// True when the listener sees `higher_id` as body1 (the pair is kept lower ID first inside).
bool listener_swaps(const Body& lower_id, const Body& higher_id) {
  return motion_rank(higher_id) > motion_rank(lower_id);
}
// The same contact seen from the other body.
ContactManifold flipped(const ContactManifold& m) {
  ContactManifold f = m;
  f.normal = -m.normal;
  f.sub_shape_id1 = m.sub_shape_id2;
  f.sub_shape_id2 = m.sub_shape_id1;
  f.points_on_1 = m.points_on_2;
  f.points_on_2 = m.points_on_1;
  return f;
}
// The same settings with body 1 and body 2 exchanged; `com1` and `com2` are the centres of
// mass of body 1 and body 2 in the current order. The surface velocity is body 2's surface
// relative to body 1's, its angular part about body 1's centre of mass: seen from the other
// body it is the opposite motion, u'(p) = −(v + ω × (p − c1)) = v' + ω' × (p − c2) with
// ω' = −ω and v' = −v + ω × (c1 − c2).
void swap_bodies(ContactSettings& s, const Vec3& com1, const Vec3& com2) {
  std::swap(s.mass_scales.inv_mass1, s.mass_scales.inv_mass2);
  std::swap(s.mass_scales.inv_inertia1, s.mass_scales.inv_inertia2);
  const Vec3 w = s.relative_angular_surface_velocity;
  s.relative_linear_surface_velocity = -s.relative_linear_surface_velocity + w.cross(com1 - com2);
  s.relative_angular_surface_velocity = -w;
}

// Jolt's defaults for combining two bodies' materials.
float combine_friction(float a, float b) { return std::sqrt(a * b); }
float combine_restitution(float a, float b) { return std::max(a, b); }

}  // namespace

PhysicsSystem::PhysicsSystem(const PhysicsSystemSettings& settings)
    : default_layers_(std::make_unique<DefaultLayers>()),
      body_interface_(body_manager_, this),
      broadphase_(
          BroadPhase::create(settings.broadphase_layers != nullptr ? *settings.broadphase_layers
                                                                   : *default_layers_,
                             settings.object_vs_broadphase_filter != nullptr
                                 ? *settings.object_vs_broadphase_filter
                                 : *default_layers_,
                             settings.object_layer_pair_filter != nullptr
                                 ? *settings.object_layer_pair_filter
                                 : *default_layers_,
                             BroadPhaseSettings{PhysicsSettings{}.speculative_contact_distance})
              .value_or_throw()),
      system_settings_(settings),
      object_vs_broadphase_filter_(settings.object_vs_broadphase_filter != nullptr
                                       ? settings.object_vs_broadphase_filter
                                       : default_layers_.get()),
      object_layer_pair_filter_(settings.object_layer_pair_filter != nullptr
                                    ? settings.object_layer_pair_filter
                                    : default_layers_.get()) {
  body_manager_.set_max_bodies(settings.max_bodies);
}

PhysicsSystem::~PhysicsSystem() = default;

Status PhysicsSystem::set_settings(const PhysicsSettings& settings) {
  if (Status valid = settings.validate(); !valid) return valid;
  settings_ = settings;
  return Ok{};
}

Result<bool> PhysicsSystem::were_bodies_in_contact(BodyID body1, BodyID body2) const {
  constexpr const char* call = "PhysicsSystem::were_bodies_in_contact";
  for (BodyID id : {body1, body2})
    if (Result<const Body*> found = body_manager_.lookup(id, call); !found) return found.error();
  const uint32_t key1 = std::min(body1.value(), body2.value());
  const uint32_t key2 = std::max(body1.value(), body2.value());
  return contact_manager_.had_contact(key1, key2);
}

// --- BodyListener: the broadphase mirrors the bodies that are in the simulation -------------

void PhysicsSystem::on_added(const Body& body) {
  if (body.is_quarantined()) return;  // it re-enters the broadphase when released
  const Status added = broadphase_.add(body.id().index(), body.object_layer(), body.world_bounds());
  ATOLL_ASSERT(added.ok(), "a validated body must enter the broadphase");
  (void)added;
}

void PhysicsSystem::on_removed(const Body& body) {
  if (broadphase_.contains(body.id().index())) (void)broadphase_.remove(body.id().index());
}

void PhysicsSystem::on_moved(const Body& body) {
  (void)broadphase_.update(body.id().index(), body.world_bounds(), Vec3());
}

void PhysicsSystem::on_layer_changed(const Body& body, ObjectLayer /*old_layer*/) {
  (void)broadphase_.set_object_layer(body.id().index(), body.object_layer());
}

void PhysicsSystem::on_shape_changed(const Body& body) { on_moved(body); }

void PhysicsSystem::on_motion_type_changed(const Body& body, MotionType /*old_type*/) {
  on_moved(body);
}

void PhysicsSystem::on_quarantine_released(const Body& body) {
  const Status added = broadphase_.add(body.id().index(), body.object_layer(), body.world_bounds());
  ATOLL_ASSERT(added.ok(), "a quarantined body is not in the broadphase and has a finite pose");
  (void)added;
}

// --- The step -------------------------------------------------------------------------------

Result<UpdateResult> PhysicsSystem::update(float dt, int collision_steps) {
  if (!(dt > 0.0f) || !std::isfinite(dt))
    return Error("PhysicsSystem::update: dt: must be finite and > 0, got " + std::to_string(dt));
  if (collision_steps < 1)
    return Error("PhysicsSystem::update: collision_steps: must be >= 1, got " +
                 std::to_string(collision_steps));
  UpdateResult result;
  events_.clear();
  const float sub_dt = dt / static_cast<float>(collision_steps);
  for (int i = 0; i < collision_steps; ++i) step(sub_dt, i + 1 == collision_steps, i, result);

  // Forces apply for one update (all its collision steps), as in Jolt.
  for (uint32_t index : body_manager_.active_bodies())
    if (MotionProperties* mp = body_manager_.body_at_slot(index)->motion_properties())
      mp->reset_force_and_torque();

  ++step_count_;
  result.num_active_bodies = body_manager_.num_active_bodies();
  deliver_events();
  return result;
}

void PhysicsSystem::step(float dt, bool last, int collision_step, UpdateResult& result) {
  current_dt_ = dt;
  // The active list is in activation order; sorting makes every later list deterministic.
  body_manager_.sort_active_bodies();
  {
    StageTimer t(result, Stage::apply_forces);
    apply_forces(dt);
  }
  {
    StageTimer t(result, Stage::find_pairs);
    find_pairs(result);
  }
  {
    StageTimer t(result, Stage::narrow_phase);
    gather_solver_bodies();
    narrow_phase(collision_step, result);
  }
  {
    StageTimer t(result, Stage::build_islands);
    build_islands();
  }
  result.num_islands = island_builder_.num_islands();
  {
    StageTimer t(result, Stage::setup_velocity);
    contact_manager_.setup_velocity_constraints(solver_bodies_, velocities_before_forces_, dt,
                                                settings_);
  }
  {
    StageTimer t(result, Stage::warm_start);
    warm_start();
  }
  {
    StageTimer t(result, Stage::solve_velocity);
    solve_velocity(result);
  }
  {
    StageTimer t(result, Stage::integrate_positions);
    integrate_positions(dt);
  }
  {
    StageTimer t(result, Stage::ccd);
    ccd(dt, result);
  }
  {
    StageTimer t(result, Stage::solve_position);
    solve_position();
    find_non_finite();
    write_back();
    quarantine_non_finite(result);
  }
  removed_.clear();
  // A pair that nobody collided because both bodies sleep keeps its contacts, as in Jolt: no
  // removed event when an island falls asleep, persisted events and warm start when it wakes.
  // Bodies taken out of the simulation (removed, destroyed, quarantined) lose theirs.
  contact_manager_.end_step(removed_, [this](uint32_t key1, uint32_t key2) {
    for (uint32_t key : {key1, key2}) {
      const Body* body = body_manager_.get(BodyID(key));
      if (body == nullptr || !body->is_added() || body->is_active() || body->is_quarantined())
        return false;
    }
    return true;
  });
  for (const RemovedContact& r : removed_) {
    ContactManifold gone;  // no geometry: only the sub-shapes are reported
    BodyID id1(r.key1), id2(r.key2);
    gone.sub_shape_id1 = r.sub_shape_id1;
    gone.sub_shape_id2 = r.sub_shape_id2;
    // Listener order; a body destroyed since keeps the ID order.
    const Body* b1 = body_manager_.get(id1);
    const Body* b2 = body_manager_.get(id2);
    if (b1 != nullptr && b2 != nullptr && listener_swaps(*b1, *b2)) {
      std::swap(id1, id2);
      std::swap(gone.sub_shape_id1, gone.sub_shape_id2);
    }
    events_.push_back(contact_event(ContactEventType::Removed, id1, id2, gone, collision_step));
  }
  if (last) {
    StageTimer t(result, Stage::update_sleep);
    update_sleep(dt);
  }
  {
    StageTimer t(result, Stage::update_bounds);
    update_bounds(dt);
  }
}

void PhysicsSystem::apply_forces(float dt) {
  velocities_before_forces_.clear();
  for (uint32_t index : body_manager_.active_bodies()) {
    Body& body = *body_manager_.body_at_slot(index);
    const MotionProperties& mp = *body.motion_properties();
    velocities_before_forces_.push_back({mp.linear_velocity(), mp.angular_velocity()});
    if (body.is_dynamic())
      body.motion_properties()->apply_force_torque_and_gravity(body.rotation(), dt,
                                                               settings_.gravity);
  }
}

void PhysicsSystem::find_pairs(UpdateResult& result) {
  const Status found = broadphase_.find_pairs(body_manager_.active_bodies(), pairs_);
  ATOLL_ASSERT(found.ok(), "the active list and the broadphase disagree");
  (void)found;
  if (system_settings_.max_body_pairs != 0 && pairs_.size() > system_settings_.max_body_pairs) {
    result.error = "PhysicsSystemSettings.max_body_pairs (" +
                   std::to_string(system_settings_.max_body_pairs) +
                   ") reached: " + std::to_string(pairs_.size() - system_settings_.max_body_pairs) +
                   " body pairs were not collided this step";
    pairs_.resize(system_settings_.max_body_pairs);
  }
  result.num_body_pairs = static_cast<uint32_t>(pairs_.size());
}

uint32_t PhysicsSystem::solver_index(uint32_t body_index) {
  if (solver_index_of_[body_index] != k_none) return solver_index_of_[body_index];
  // A body that impulses cannot move this step (static, sleeping or inactive kinematic; a
  // sleeping body that wakes is made movable by wake_body):
  // zero inverse mass, its real pose so that contact points are in the right place.
  const Body& body = *body_manager_.body_at_slot(body_index);
  SolverBody& sb = solver_bodies_.emplace_back();
  sb.com_position = body.center_of_mass_position();
  sb.rotation = body.rotation();
  const uint32_t index = static_cast<uint32_t>(solver_bodies_.size() - 1);
  solver_body_source_.push_back(body_index);
  solver_movable_.push_back(0);
  solver_index_of_[body_index] = index;
  return index;
}

void PhysicsSystem::gather_solver_bodies() {
  // Reset the lookup for the bodies used last step only (it is as large as the body storage).
  for (uint32_t body_index : solver_body_source_) solver_index_of_[body_index] = k_none;
  solver_index_of_.resize(body_manager_.num_slots(), k_none);
  solver_bodies_.clear();
  solver_body_source_.clear();
  solver_movable_.clear();
  linear_cast_candidates_.clear();
  moving_solver_bodies_.clear();
  // Active bodies first, in index order.
  for (uint32_t index : body_manager_.active_bodies()) {
    const Body& body = *body_manager_.body_at_slot(index);
    const MotionProperties& mp = *body.motion_properties();
    SolverBody& sb = solver_bodies_.emplace_back();
    sb.com_position = body.center_of_mass_position();
    sb.rotation = body.rotation();
    sb.linear_velocity = mp.linear_velocity();
    sb.angular_velocity = mp.angular_velocity();
    if (body.is_dynamic()) {
      sb.inv_mass = mp.lock_translation(Vec3::replicate(mp.inverse_mass()));
      sb.inv_inertia = mp.inverse_inertia_world(Mat44::rotation(body.rotation()));
    }
    solver_index_of_[index] = static_cast<uint32_t>(solver_bodies_.size() - 1);
    moving_solver_bodies_.push_back(solver_index_of_[index]);
    solver_body_source_.push_back(index);
    solver_movable_.push_back(body.is_dynamic() ? 1 : 0);
    // Read here, at the start of every collision step, so that a changed motion quality counts
    // from the next step on. Kinematic bodies cannot be stopped and sensors do not collide:
    // neither is ever cast (as in Jolt).
    if (body.is_dynamic() && !body.is_sensor() && mp.motion_quality() == MotionQuality::LinearCast)
      linear_cast_candidates_.push_back(solver_index_of_[index]);
  }
}

// What the narrow phase tallies over all the pairs of a step (its rounds included).
struct PhysicsSystem::NarrowPhaseTally {
  CollideShapeSettings collide_settings;
  AllContactsCollector collector;
  int collision_step = 0;
  uint32_t num_manifolds = 0;
  uint32_t skipped_manifolds = 0;
  uint32_t rejected_settings = 0;  // contacts whose listener-set settings were invalid
  std::string first_rejected;
};

void PhysicsSystem::narrow_phase(int collision_step, UpdateResult& result) {
  contact_manager_.begin_step(current_dt_, settings_);
  NarrowPhaseTally tally;
  tally.collide_settings.max_separation_distance = settings_.speculative_contact_distance;
  tally.collide_settings.manifold_tolerance = settings_.manifold_tolerance;
  tally.collision_step = collision_step;

  // Which bodies' pairs were found this step (k_pairs_found), or are queued to wake
  // (k_wake_queued): the bodies active at the start of the step were found by find_pairs.
  wake_state_.resize(body_manager_.num_slots(), k_not_woken);
  for (uint32_t index : body_manager_.active_bodies()) wake_state_[index] = k_pairs_found;
  wake_.clear();
  for (const BodyPair& bp : pairs_) collide_pair(bp, tally);

  // A sleeping dynamic body that a contact reached wakes now and takes full part in this step
  // (as in Jolt): it gets a movable solver body, and its own pairs are found and collided, which
  // may wake more. Rounds in body-index order until none is added keep this deterministic.
  while (!wake_.empty()) {
    quick_sort(wake_.begin(), wake_.end());
    wake_batch_.swap(wake_);
    wake_.clear();
    for (uint32_t index : wake_batch_) wake_body(index, current_dt_);
    const Status found = broadphase_.find_pairs(wake_batch_, wake_pairs_);
    ATOLL_ASSERT(found.ok(), "a sleeping body is in the broadphase, and is queued once");
    (void)found;
    // A pair with a body whose pairs were already found has been collided (from that side).
    uint32_t kept = 0;
    for (const BodyPair& bp : wake_pairs_)
      if (wake_state_[bp.a] != k_pairs_found && wake_state_[bp.b] != k_pairs_found)
        wake_pairs_[kept++] = bp;
    wake_pairs_.resize(kept);
    for (uint32_t index : wake_batch_) wake_state_[index] = k_pairs_found;
    if (system_settings_.max_body_pairs != 0) {
      const uint32_t room = system_settings_.max_body_pairs > result.num_body_pairs
                                ? system_settings_.max_body_pairs - result.num_body_pairs
                                : 0;
      if (wake_pairs_.size() > room) {
        if (!result.error.empty()) result.error += "; ";
        result.error += "PhysicsSystemSettings.max_body_pairs (" +
                        std::to_string(system_settings_.max_body_pairs) +
                        ") reached: " + std::to_string(wake_pairs_.size() - room) +
                        " body pairs of bodies woken this step were not collided";
        wake_pairs_.resize(room);
      }
    }
    result.num_body_pairs += static_cast<uint32_t>(wake_pairs_.size());
    for (const BodyPair& bp : wake_pairs_) collide_pair(bp, tally);
  }
  // Every body marked k_pairs_found is active now (those that were and those woken).
  for (uint32_t index : body_manager_.active_bodies()) wake_state_[index] = k_not_woken;

  if (tally.skipped_manifolds > 0) {
    if (!result.error.empty()) result.error += "; ";
    result.error += "PhysicsSystemSettings.max_contact_manifolds (" +
                    std::to_string(system_settings_.max_contact_manifolds) +
                    ") reached: " + std::to_string(tally.skipped_manifolds) +
                    " contact manifolds were not solved";
  }
  if (tally.rejected_settings > 0) {
    if (!result.error.empty()) result.error += "; ";
    result.error += tally.first_rejected + " (must be finite and >= 0; " +
                    std::to_string(tally.rejected_settings) +
                    " contact(s) this step kept their default settings)";
  }
  result.num_manifolds = tally.num_manifolds;
  result.num_contact_points = contact_manager_.num_contact_points();
  if (contact_manager_.max_penetration() > result.max_penetration) {
    result.max_penetration = contact_manager_.max_penetration();
    result.max_penetration_body1 = BodyID(contact_manager_.max_penetration_keys().first);
    result.max_penetration_body2 = BodyID(contact_manager_.max_penetration_keys().second);
  }
}

void PhysicsSystem::wake_body(uint32_t body_index, float dt) {
  Body& body = *body_manager_.body_at_slot(body_index);
  body_manager_.activate(body);
  MotionProperties& mp = *body.motion_properties();
  // Stage 1 for it, which it missed while asleep.
  mp.apply_force_torque_and_gravity(body.rotation(), dt, settings_.gravity);
  // It may already have an immovable entry (from the pair that woke it): that entry becomes
  // movable, before any constraint is set up, so every contact on it sees its mass.
  const uint32_t s = solver_index(body_index);
  SolverBody& sb = solver_bodies_[s];
  sb.linear_velocity = mp.linear_velocity();
  sb.angular_velocity = mp.angular_velocity();
  sb.inv_mass = mp.lock_translation(Vec3::replicate(mp.inverse_mass()));
  sb.inv_inertia = mp.inverse_inertia_world(Mat44::rotation(body.rotation()));
  solver_movable_[s] = 1;
  moving_solver_bodies_.push_back(s);
  if (!body.is_sensor() && mp.motion_quality() == MotionQuality::LinearCast)
    linear_cast_candidates_.push_back(s);
}

void PhysicsSystem::collide_pair(const BodyPair& bp, NarrowPhaseTally& tally) {
  const Body* a = body_manager_.body_at_slot(bp.a);
  const Body* b = body_manager_.body_at_slot(bp.b);
  const bool sensor = a->is_sensor() || b->is_sensor();
  // Only pairs in which something can respond: a dynamic body, or a sensor that reports.
  if (!a->is_dynamic() && !b->is_dynamic()) {
    if (!sensor || (a->is_static() && b->is_static())) return;
  }
  // A moving sensor reports static bodies only when asked to (a static sensor reports the
  // moving bodies that enter it).
  if (a->is_static() != b->is_static()) {
    const Body& fixed = a->is_static() ? *a : *b;
    const Body& moving = a->is_static() ? *b : *a;
    if (!fixed.is_sensor() && moving.is_sensor() && !moving.sensor_detects_static()) return;
  }
  // Collision groups (a ragdoll's own limbs): after the layers, before any contact work.
  if (!body_manager_.groups_collide(*a, *b)) return;
  // Body 1 has the lower ID: the cache keys on IDs, which are stable (the listener and the
  // events see the listener order below).
  if (b->id().value() < a->id().value()) std::swap(a, b);
  const uint32_t i1 = a->id().index(), i2 = b->id().index();
  const ContactBodyPair pair{a->id().value(), b->id().value(), solver_index(i1), solver_index(i2)};
  const int collision_step = tally.collision_step;
  AllContactsCollector& collector = tally.collector;

  // What the listener and the events see (ContactListener.h): the more dynamic body first.
  const bool swapped = listener_swaps(*a, *b);
  const Body& l1 = swapped ? *b : *a;
  const Body& l2 = swapped ? *a : *b;

  manifolds_.clear();
  bool solid = false;  // a manifold takes impulses (wakes a sleeping body)
  // Sensor pairs use the cache too, so that a resting overlap persists without the narrow
  // phase or the listener (as in Jolt).
  const bool reused =
      contact_manager_.try_reuse_body_pair(pair, solver_bodies_, settings_, &manifolds_);
  if (!reused) {
    collector.manifolds.clear();
    // A sensor reports overlap only: no speculative contacts.
    CollideShapeSettings collide_settings = tally.collide_settings;
    if (sensor) collide_settings.max_separation_distance = 0.0f;
    const Status collided = collide_shapes(*a->shape(), a->world_transform(), *b->shape(),
                                           b->world_transform(), collide_settings, collector);
    ATOLL_ASSERT(collided.ok(), "validated settings and rigid body transforms");
    (void)collided;
    if (sensor)
      std::erase_if(collector.manifolds,
                    [](const ContactManifold& m) { return !(m.penetration_depth >= 0.0f); });
    // Validation only for pairs that touch (within the speculative distance), as in Jolt.
    if (collector.manifolds.empty()) return;
    if (contact_listener_ != nullptr &&
        contact_listener_->on_contact_validate(l1, l2) == ValidateResult::Reject)
      return;
    for (const ContactManifold& manifold : collector.manifolds) {
      if (system_settings_.max_contact_manifolds != 0 &&
          tally.num_manifolds >= system_settings_.max_contact_manifolds) {
        ++tally.skipped_manifolds;
        continue;
      }
      ++tally.num_manifolds;
      ContactSettings cs;
      cs.combined_friction = combine_friction(a->friction(), b->friction());
      cs.combined_restitution = combine_restitution(a->restitution(), b->restitution());
      cs.is_sensor = sensor;
      const bool existed =
          contact_manager_.had_manifold(pair, manifold.sub_shape_id1, manifold.sub_shape_id2);
      if (contact_listener_ != nullptr) {
        const ContactSettings defaults = cs;
        if (swapped) swap_bodies(cs, a->center_of_mass_position(), b->center_of_mass_position());
        const ContactManifold seen = swapped ? flipped(manifold) : manifold;
        if (existed)
          contact_listener_->on_contact_persisted(l1, l2, seen, cs);
        else
          contact_listener_->on_contact_added(l1, l2, seen, cs);
        // A NaN friction or a negative mass scale would poison the solve (and through a
        // static body's shared solver entry, every island on it): keep the defaults and say so.
        if (std::string problem = cs.problem(); !problem.empty()) {
          if (tally.rejected_settings++ == 0)
            tally.first_rejected =
                "ContactListener::" +
                std::string(existed ? "on_contact_persisted" : "on_contact_added") +
                " set ContactSettings." + problem + " for bodies " +
                std::to_string(l1.id().value()) + " and " + std::to_string(l2.id().value());
          cs = defaults;
        } else if (swapped) {
          // Back to the cache's order (lower ID first).
          swap_bodies(cs, b->center_of_mass_position(), a->center_of_mass_position());
        }
      }
      solid |= !cs.is_sensor;
      contact_manager_.add_manifold(pair, manifold, cs, solver_bodies_, settings_);
      manifolds_.push_back(manifold);
      events_.push_back(
          contact_event(existed ? ContactEventType::Persisted : ContactEventType::Added, l1.id(),
                        l2.id(), swapped ? flipped(manifold) : manifold, collision_step));
    }
  } else {
    solid = !manifolds_.empty() && !sensor;
    tally.num_manifolds += static_cast<uint32_t>(manifolds_.size());
    for (const ContactManifold& manifold : manifolds_)
      events_.push_back(contact_event(ContactEventType::Persisted, l1.id(), l2.id(),
                                      swapped ? flipped(manifold) : manifold, collision_step));
  }
  // A sleeping dynamic body that a solid contact reaches wakes (in the next round of this
  // step's narrow phase); sensors wake nothing.
  if (solid) {
    if (a->is_dynamic() && !a->is_active() && wake_state_[i1] == k_not_woken) {
      wake_state_[i1] = k_wake_queued;
      wake_.push_back(i1);
    }
    if (b->is_dynamic() && !b->is_active() && wake_state_[i2] == k_not_woken) {
      wake_state_[i2] = k_wake_queued;
      wake_.push_back(i2);
    }
  }
}

void PhysicsSystem::build_islands() {
  island_builder_.begin(solver_movable_);
  const uint32_t n = contact_manager_.num_constraints();
  constraint_body1_.resize(n);
  constraint_body2_.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    constraint_body1_[i] = contact_manager_.constraint_body1(i);
    constraint_body2_[i] = contact_manager_.constraint_body2(i);
    island_builder_.link(constraint_body1_[i], constraint_body2_[i]);
  }
  island_builder_.finish(constraint_body1_, constraint_body2_);
  // MotionProperties::island_index: this step's island of each moving body (kinematic: none).
  for (uint32_t s : moving_solver_bodies_)
    body_manager_.body_at_slot(solver_body_source_[s])
        ->motion_properties()
        ->set_island_index(solver_movable_[s] ? island_builder_.island_of_body(s)
                                              : MotionProperties::k_no_island);
}

void PhysicsSystem::warm_start() {
  for (uint32_t i = 0; i < island_builder_.num_islands(); ++i)
    contact_manager_.warm_start(solver_bodies_, island_builder_.island_items(i));
}

void PhysicsSystem::solve_velocity(UpdateResult& result) {
  // Per island: iterate until no impulse is applied or the step count is reached (seed 000
  // §1.2), then store the impulses for the next step's warm start.
  for (uint32_t i = 0; i < island_builder_.num_islands(); ++i) {
    const std::span<const uint32_t> items = island_builder_.island_items(i);
    if (items.empty()) continue;
    // A tall or lopsided stack also gets its non-penetration solved directly after every
    // contact-wise pass (ContactStackChain.cpp), so that the velocities the bodies move with
    // leave no contact of the stack tilting or sinking; the early exit follows the pass.
    const bool stack = contact_manager_.prepare_stack(solver_bodies_, items, settings_);
    for (int step = 0; step < settings_.velocity_steps; ++step) {
      ++result.num_velocity_iterations;
      const bool applied = contact_manager_.solve_velocity_constraints(solver_bodies_, items, step);
      if (stack) contact_manager_.solve_stack(solver_bodies_);
      if (!applied) break;
    }
    contact_manager_.store_applied_impulses(items);
  }
}

void PhysicsSystem::integrate_positions(float dt) {
  // LinearCast bodies are queued before the move, which they then share with every other body:
  // one expression for all, so that a body whose cast finds nothing ends bit for bit where a
  // discrete one would (and the compiler contracts it the same way for both).
  ccd_bodies_.clear();
  for (uint32_t i : linear_cast_candidates_) register_ccd(i, dt);
  for (uint32_t i : moving_solver_bodies_) {
    SolverBody& sb = solver_bodies_[i];
    sb.com_position += sb.linear_velocity * dt;
    sb.apply_position_step(Vec3(), sb.angular_velocity * dt);
  }
}

void PhysicsSystem::register_ccd(uint32_t solver_index, float dt) {
  const SolverBody& sb = solver_bodies_[solver_index];
  const Vec3 delta_position = sb.linear_velocity * dt;
  const Body& body = *body_manager_.body_at_slot(solver_body_source_[solver_index]);
  const float inner_radius = body.shape()->inner_radius();
  const float threshold = settings_.linear_cast_threshold * inner_radius;
  if (!(delta_position.length_sq() > threshold * threshold)) return;
  CcdBody& c = ccd_bodies_.emplace_back();
  c.solver_index = solver_index;
  c.body_id = body.id().value();
  c.start_position = sb.com_position;
  c.delta_position = delta_position;
  c.threshold_sq = threshold * threshold;
  c.max_penetration =
      std::min(settings_.penetration_slop, settings_.linear_cast_max_penetration * inner_radius);
}

namespace {

// Chooses a CCD body's hit among every leaf hit of its casts, as Jolt does: a hit counts only
// when the body approaches the surface by more than the penetration it may end with (a surface
// it slides along or leaves cannot stop it, and must not hide a later hit), and the hit where
// the body stops first wins. Unlike Jolt, a hit that leaves the body at or beyond the end of
// its displacement is kept (LAWS.md B3): Jolt starts from "stops at 1" and so drops it.
class CcdHitCollector final : public ShapeCastCollector {
 public:
  CcdHitCollector(float max_penetration, float best_fraction_plus_slop)
      : max_penetration_(max_penetration), best_(best_fraction_plus_slop) {
    update_early_out_fraction(best_fraction_plus_slop);
  }
  /// Starts the cast against another body, along `displacement` (relative to it, m).
  void begin_target(const Vec3& displacement) {
    displacement_ = displacement;
    found = false;
  }
  void add_hit(const ShapeCastResult& hit) override {
    const float approach = hit.normal.dot(displacement_);
    if (!(approach > max_penetration_)) return;
    const float fraction_plus_slop = hit.fraction + max_penetration_ / approach;
    if (!(fraction_plus_slop < best_)) return;
    best_ = fraction_plus_slop;
    fraction = hit.fraction;
    hit_result = hit;
    found = true;
    // A later hit cannot stop the body earlier than where it stops now.
    update_early_out_fraction(fraction_plus_slop);
  }
  float fraction_plus_slop() const { return best_; }
  /// Forgets the last target's hits: back to `best_fraction_plus_slop` and `best_fraction`
  /// (what fraction_plus_slop() and fraction read before begin_target).
  void discard_target(float best_fraction_plus_slop, float best_fraction) {
    best_ = best_fraction_plus_slop;
    fraction = best_fraction;
    found = false;
    reset_early_out_fraction(best_fraction_plus_slop);
  }

  /// True when the last target gave the best hit so far.
  bool found = false;
  /// Fraction of the best hit.
  float fraction = 1.0f;
  /// The best hit.
  ShapeCastResult hit_result;

 private:
  float max_penetration_;
  float best_;
  Vec3 displacement_;
};

}  // namespace

void PhysicsSystem::ccd(float dt, UpdateResult& result) {
  if (ccd_bodies_.empty()) return;
  result.num_ccd_bodies += static_cast<uint32_t>(ccd_bodies_.size());
  ccd_index_of_.assign(solver_bodies_.size(), k_none);
  for (uint32_t k = 0; k < ccd_bodies_.size(); ++k) ccd_index_of_[ccd_bodies_[k].solver_index] = k;
  for (uint32_t k = 0; k < ccd_bodies_.size(); ++k) find_ccd_hit(k, dt);
  resolve_ccd(result);
}

void PhysicsSystem::find_ccd_hit(uint32_t ccd_index, float dt) {
  CcdBody& c = ccd_bodies_[ccd_index];
  const uint32_t index1 = solver_body_source_[c.solver_index];
  const Body& body1 = *body_manager_.body_at_slot(index1);
  // Bodies are written back after stage 11, so Body still holds every body's pose at the start
  // of the step: the cast starts there, at the starting rotation, and each target stays at its
  // start pose while the cast moves relative to it (exact for two translating bodies).
  const Mat44 start = body1.world_transform();
  // Candidates: bodies whose fat boxes (grown by their own predicted motion) the body's box
  // meets on its way.
  ccd_candidates_.reset();
  const DefaultObjectLayerFilter layers(*object_layer_pair_filter_, body1.object_layer());
  const DefaultBroadPhaseLayerFilter bp_layers(*object_vs_broadphase_filter_, body1.object_layer());
  const Status queried = broadphase_.cast_aabox(body1.world_bounds(), c.delta_position, layers,
                                                ccd_candidates_, bp_layers);
  ATOLL_ASSERT(queried.ok(), "the bounds and velocity of a valid body are finite");
  (void)queried;
  // By (entry fraction, body index): the chosen hit does not depend on the trees' shapes.
  ccd_candidates_.sort();

  const ShapeCastSettings cast_settings;
  CcdHitCollector collector(c.max_penetration, k_float_max);
  for (const BroadPhaseHit& candidate : ccd_candidates_.hits) {
    if (candidate.body_index == index1) continue;
    const Body& body2 = *body_manager_.body_at_slot(candidate.body_index);
    if (body2.is_sensor() || !body_manager_.groups_collide(body1, body2)) continue;
    Vec3 velocity2;
    const uint32_t solver2 = solver_index_of_[candidate.body_index];
    if (solver2 != k_none) {
      // Two CCD bodies are cast against each other once, from the lower ID (resolve_ccd then
      // stops the other one at the hit too).
      if (solver2 < ccd_index_of_.size() && ccd_index_of_[solver2] != k_none &&
          body2.id().value() < c.body_id)
        continue;
      velocity2 = solver_bodies_[solver2].linear_velocity;
    }
    const Vec3 displacement = c.delta_position - velocity2 * dt;
    // Moving this little relative to body 2, the discrete contacts handle the pair.
    if (displacement.length_sq() <= c.threshold_sq) continue;
    const float best_fraction_plus_slop = collector.fraction_plus_slop();
    const float best_fraction = collector.fraction;
    collector.begin_target(displacement);
    const Status cast = cast_shape(*body1.shape(), start, displacement, *body2.shape(),
                                   body2.world_transform(), cast_settings, collector);
    ATOLL_ASSERT(cast.ok(), "rigid body transforms and default cast settings are valid");
    (void)cast;
    if (!collector.found) continue;
    // The hit goes through the listener like a new contact (in its body order): a rejected
    // pair, or a contact it makes a sensor, does not stop the body.
    if (contact_listener_ != nullptr && !ccd_hit_accepted(body1, body2, collector.hit_result)) {
      collector.discard_target(best_fraction_plus_slop, best_fraction);
      continue;
    }
    c.hit_body = candidate.body_index;
  }
  if (c.hit_body != CcdBody::k_no_hit) {
    c.fraction = collector.fraction;
    c.fraction_plus_slop = collector.fraction_plus_slop();
  }
}

bool PhysicsSystem::ccd_hit_accepted(const Body& body1, const Body& body2,
                                     const ShapeCastResult& hit) {
  // Body 1 is the swept (dynamic) body; the listener sees the more dynamic body first.
  ContactManifold manifold;
  manifold.normal = hit.normal;
  manifold.penetration_depth = hit.penetration_depth;
  manifold.sub_shape_id1 = hit.sub_shape_id1;
  manifold.sub_shape_id2 = hit.sub_shape_id2;
  manifold.points_on_1.push_back(hit.point_on_shape);
  manifold.points_on_2.push_back(hit.point_on_target);
  const bool first =
      motion_rank(body1) > motion_rank(body2) ||
      (motion_rank(body1) == motion_rank(body2) && body1.id().value() < body2.id().value());
  const Body& l1 = first ? body1 : body2;
  const Body& l2 = first ? body2 : body1;
  if (contact_listener_->on_contact_validate(l1, l2) == ValidateResult::Reject) return false;
  ContactSettings cs;
  cs.combined_friction = combine_friction(body1.friction(), body2.friction());
  cs.combined_restitution = combine_restitution(body1.restitution(), body2.restitution());
  contact_listener_->on_contact_added(l1, l2, first ? manifold : flipped(manifold), cs);
  return !cs.is_sensor;
}

void PhysicsSystem::resolve_ccd(UpdateResult& result) {
  // Earliest hits first (ties by body ID), so that a CCD body that another one hits earlier
  // stops there whatever order the bodies were cast in.
  ccd_order_.clear();
  for (uint32_t k = 0; k < ccd_bodies_.size(); ++k)
    if (ccd_bodies_[k].hit_body != CcdBody::k_no_hit) ccd_order_.push_back(k);
  quick_sort(ccd_order_.begin(), ccd_order_.end(), [this](uint32_t a, uint32_t b) {
    const CcdBody& x = ccd_bodies_[a];
    const CcdBody& y = ccd_bodies_[b];
    return x.fraction < y.fraction || (x.fraction == y.fraction && x.body_id < y.body_id);
  });
  for (uint32_t k : ccd_order_) {
    const CcdBody& c = ccd_bodies_[k];
    // Lost its own hit to an earlier CCD body that hit it (below).
    if (c.hit_body == CcdBody::k_no_hit) continue;
    ++result.num_ccd_hits;
    const uint32_t solver2 = solver_index_of_[c.hit_body];
    if (solver2 == k_none || solver2 >= ccd_index_of_.size() || ccd_index_of_[solver2] == k_none)
      continue;
    // A CCD body hit before its own first hit stops where it was hit (Jolt: without slop; the
    // hitting body takes the penetration).
    CcdBody& other = ccd_bodies_[ccd_index_of_[solver2]];
    if (other.fraction > c.fraction) {
      other.hit_body = CcdBody::k_no_hit;
      other.fraction = c.fraction;
      other.fraction_plus_slop = c.fraction;
    }
  }
  // Time stealing: the body stops part of the way (stage 9 moved it all the way); its velocity
  // is left as it is, so it bounces (or stops) through the ordinary contact on the next step
  // (seed 004 §4).
  for (const CcdBody& c : ccd_bodies_) {
    if (c.fraction_plus_slop >= 1.0f) continue;
    solver_bodies_[c.solver_index].com_position =
        c.start_position + c.delta_position * std::max(c.fraction_plus_slop, 0.0f);
  }
}

void PhysicsSystem::solve_position() {
  if (!settings_.use_position_solver_for_contacts) return;
  for (uint32_t i = 0; i < island_builder_.num_islands(); ++i) {
    const std::span<const uint32_t> items = island_builder_.island_items(i);
    if (items.empty()) continue;
    for (int step = 0; step < settings_.position_steps; ++step)
      if (!contact_manager_.solve_position_constraints(solver_bodies_, items, settings_)) break;
  }
}

void PhysicsSystem::write_back() {
  for (uint32_t i : moving_solver_bodies_) {
    const SolverBody& sb = solver_bodies_[i];
    Body& body = *body_manager_.body_at_slot(solver_body_source_[i]);
    MotionProperties& mp = *body.motion_properties();
    if (body.is_dynamic()) {
      mp.add_linear_velocity_step(sb.linear_velocity - mp.linear_velocity());
      mp.add_angular_velocity_step(sb.angular_velocity - mp.angular_velocity());
    }
    const Quat rotation = sb.rotation.normalized();
    body.set_position_and_rotation_internal(
        sb.com_position - rotation * body.shape_center_of_mass(), rotation);
  }
}

void PhysicsSystem::find_non_finite() {
  // One pass over the active bodies' solver state, which holds everything the step computed:
  // a NaN or an infinity anywhere (a force that overflowed, a listener's absurd mass scale)
  // shows in the final pose or velocity.
  non_finite_.clear();
  for (uint32_t i : moving_solver_bodies_) {
    SolverBody& sb = solver_bodies_[i];
    if (sb.com_position.is_finite() && sb.rotation.is_finite() && sb.linear_velocity.is_finite() &&
        sb.angular_velocity.is_finite())
      continue;
    Body& body = *body_manager_.body_at_slot(solver_body_source_[i]);
    non_finite_.push_back(
        {solver_body_source_[i], body.center_of_mass_position(), body.rotation()});
    // Give write_back finite numbers; quarantine_non_finite restores the exact pose after it.
    sb.com_position = body.center_of_mass_position();
    sb.rotation = body.rotation();
    sb.linear_velocity = Vec3::zero();
    sb.angular_velocity = Vec3::zero();
    body.motion_properties()->set_linear_velocity(Vec3::zero());
    body.motion_properties()->set_angular_velocity(Vec3::zero());
  }
}

void PhysicsSystem::quarantine_non_finite(UpdateResult& result) {
  for (const NonFiniteBody& bad : non_finite_) {
    Body& body = *body_manager_.body_at_slot(bad.body_index);
    body_manager_.quarantine(body, bad.com_position, bad.rotation);
    // Out of the broadphase: no pairs, so its contacts end (reported as removed next step)
    // and no query finds it.
    const Status removed = broadphase_.remove(bad.body_index);
    ATOLL_ASSERT(removed.ok(), "an active body is in the broadphase");
    (void)removed;
    result.quarantined.push_back(body.id());
  }
}

void PhysicsSystem::update_sleep(float dt) {
  if (!settings_.allow_sleeping) return;
  const float max_movement = settings_.point_velocity_sleep_threshold * settings_.time_before_sleep;
  // Whole islands sleep: every body must be ready (seed 001, LAWS.md C4). Every body's test
  // advances, so a body's timer does not depend on its neighbours'.
  std::vector<uint32_t> to_sleep;
  for (uint32_t i = 0; i < island_builder_.num_islands(); ++i) {
    bool all = true;
    for (uint32_t s : island_builder_.island_bodies(i)) {
      Body& body = *body_manager_.body_at_slot(solver_body_source_[s]);
      all &= body.update_sleep_test(dt, max_movement, settings_.time_before_sleep);
    }
    if (!all) continue;
    for (uint32_t s : island_builder_.island_bodies(i)) to_sleep.push_back(solver_body_source_[s]);
  }
  // Kinematic bodies are in no island: each sleeps on its own when it stops.
  for (uint32_t s = 0; s < solver_movable_.size(); ++s) {
    if (solver_movable_[s]) continue;
    Body& body = *body_manager_.body_at_slot(solver_body_source_[s]);
    if (body.is_kinematic() && body.is_active() &&
        body.update_sleep_test(dt, max_movement, settings_.time_before_sleep))
      to_sleep.push_back(solver_body_source_[s]);
  }
  for (uint32_t index : to_sleep) body_manager_.deactivate(*body_manager_.body_at_slot(index));
}

void PhysicsSystem::update_bounds(float dt) {
  for (uint32_t index : body_manager_.active_bodies()) {
    const Body& body = *body_manager_.body_at_slot(index);
    // Fatten along the predicted motion so that next step's pairs include what it may reach.
    (void)broadphase_.update(index, body.world_bounds(), body.linear_velocity() * dt);
  }
}

void PhysicsSystem::deliver_events() {
  if (activation_listener_ != nullptr) {
    // Taken out first: what the listener changes now is buffered for the next update.
    body_manager_.take_activation_events(activation_events_);
    for (const BodyActivationEvent& e : activation_events_) {
      if (e.activated)
        activation_listener_->on_body_activated(e.body);
      else
        activation_listener_->on_body_deactivated(e.body);
    }
  }
  if (contact_listener_ != nullptr && !events_.empty())
    contact_listener_->on_contact_events(events_);
}

void PhysicsSystem::set_body_activation_listener(BodyActivationListener* listener) {
  activation_listener_ = listener;
  body_manager_.set_record_activation_events(listener != nullptr);
}

Result<uint32_t> PhysicsSystem::activate_bodies_in_aabox(const AABox& box,
                                                         const ObjectLayerFilter& filter) {
  if (!box.min.is_finite() || !box.max.is_finite() || box.min.x() > box.max.x() ||
      box.min.y() > box.max.y() || box.min.z() > box.max.z())
    return Error("PhysicsSystem::activate_bodies_in_aabox: box: must be finite with min <= max");
  AllHitsBroadPhaseCollector found;
  const Status queried = broadphase_.collide_aabox(box, filter, found);
  ATOLL_ASSERT(queried.ok(), "the box was checked");
  (void)queried;
  // The broadphase holds fattened boxes: keep the bodies whose own bounds overlap, in index
  // order, so that the activation order (and its events) does not depend on the tree.
  quick_sort(
      found.hits.begin(), found.hits.end(),
      [](const BroadPhaseHit& x, const BroadPhaseHit& y) { return x.body_index < y.body_index; });
  uint32_t count = 0;
  for (const BroadPhaseHit& hit : found.hits) {
    Body& body = *body_manager_.body_at_slot(hit.body_index);
    if (body.is_static() || !body.world_bounds().overlaps(box)) continue;
    body_manager_.activate(body);
    ++count;
  }
  return count;
}

}  // namespace atl
