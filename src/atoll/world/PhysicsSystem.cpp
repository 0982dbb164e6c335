#include "atoll/world/PhysicsSystem.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "atoll/core/FloatEnvironment.h"
#include "atoll/core/Hash.h"
#include "atoll/core/QuickSort.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/solver/IslandSolver.h"
#include "atoll/solver/SolverBodies.h"
#include "atoll/state/StateHash.h"
#include "atoll/world/ContactFinding.h"
#include "atoll/world/ContinuousCollision.h"

namespace atl {

namespace {

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

// A list of the step's events taken out of its place while its listener runs: an update()
// called by a listener (allowed after the step) then fills a list of its own, and what is handed
// out stays as it was. The buffer goes back afterwards (a warmed-up step allocates nothing).
template <class T>
class Taken {
 public:
  explicit Taken(std::vector<T>& place) : place_(place) { list_.swap(place_); }
  ~Taken() {
    if (place_.capacity() != 0) return;  // an update inside made a list of its own
    list_.clear();
    place_.swap(list_);
  }
  Taken(const Taken&) = delete;
  Taken& operator=(const Taken&) = delete;
  std::span<const T> list() const { return list_; }

 private:
  std::vector<T>& place_;
  std::vector<T> list_;
};

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
  body_interface_.set_soft_body_creator(this);
}

PhysicsSystem::~PhysicsSystem() = default;

Status PhysicsSystem::set_settings(const PhysicsSettings& settings) {
  // The step reads the settings throughout.
  if (Status allowed = body_manager_.check_not_stepping("PhysicsSystem::set_settings"); !allowed)
    return allowed;
  if (Status valid = settings.validate(); !valid) return valid;
  // The broadphase reports pairs as close as the speculative contact distance (its fat margin).
  if (Status margin = broadphase_.set_fat_margin(settings.speculative_contact_distance); !margin)
    return Error(std::string("PhysicsSettings.speculative_contact_distance: ") +
                 margin.error().message());
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
  // A quarantined body re-enters the broadphase when released. A soft body is found by queries
  // but never paired: its stage collides its vertices.
  if (body.is_quarantined()) return;
  const Status added = broadphase_.add(body.id().index(), body.object_layer(), body.world_bounds(),
                                       !body.is_soft_body());
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
  // A quarantined body is out of the broadphase until released (on_quarantine_released).
  if (!broadphase_.contains(body.id().index())) return;
  const Status changed = broadphase_.set_object_layer(body.id().index(), body.object_layer());
  ATOLL_ASSERT(changed.ok(), "BodyInterface checked the layer (check_object_layer)");
  (void)changed;
}

Status PhysicsSystem::check_object_layer(ObjectLayer layer) const {
  // Every added body has a broadphase entry, in the tree of its layer.
  return broadphase_.check_layer(layer);
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

Result<UpdateResult> PhysicsSystem::update(float dt, int collision_steps, JobSystem* jobs) {
  if (!(dt > 0.0f) || !std::isfinite(dt))
    return Error("PhysicsSystem::update: dt: must be finite and > 0, got " + std::to_string(dt));
  if (collision_steps < 1)
    return Error("PhysicsSystem::update: collision_steps: must be >= 1, got " +
                 std::to_string(collision_steps));
  // Every per-worker list of the step is sized by the worker count: 0 would index an empty one.
  if (jobs != nullptr &&
      (jobs->num_workers() < 1 || jobs->num_workers() > JobSystem::k_max_workers))
    return Error("PhysicsSystem::update: jobs: num_workers() must be in [1, " +
                 std::to_string(JobSystem::k_max_workers) + "], got " +
                 std::to_string(jobs->num_workers()));
  // One update at a time (another would step the world under this one): from a step-time
  // callback, or from another thread.
  if (Status locked = body_manager_.begin_step("PhysicsSystem::update"); !locked)
    return locked.error();
  // Calls that would change the world are refused until the steps are done (also if a
  // callback throws out of them); the events after them may change it.
  struct Unlock {
    BodyManager* bodies;
    void now() {
      if (bodies != nullptr) bodies->end_step();
      bodies = nullptr;
    }
    ~Unlock() { now(); }
  } unlock{&body_manager_};
  if (interrupted_) return interrupted_error("PhysicsSystem::update");
  // The step's bits must not depend on the caller's floating-point environment.
  const ScopedDefaultFloatEnvironment environment;
  UpdateResult result;
  ctx_.events.clear();
  ctx_.broken.clear();
  InlineJobSystem inline_jobs;
  ctx_.jobs = jobs != nullptr ? jobs : &inline_jobs;
  const float sub_dt = dt / static_cast<float>(collision_steps);
  // An exception from a filter or step-time callback leaves the world part-way through a step:
  // interrupted_ stays set.
  interrupted_ = true;
  for (int i = 0; i < collision_steps; ++i) step(sub_dt, i + 1 == collision_steps, i, result);
  // Forces apply for one update (all its collision steps), as in Jolt.
  clear_forces(body_manager_, *ctx_.jobs);
  ctx_.jobs = nullptr;
  interrupted_ = false;

  ++step_count_;
  result.num_active_bodies = body_manager_.num_active_bodies();
  if (!ctx_.broken.empty()) result.broken = ctx_.broken;
  unlock.now();
  deliver_events();
  return result;
}

void PhysicsSystem::step(float dt, bool last, int collision_step, UpdateResult& result) {
  StepContext& ctx = ctx_;
  ctx.body_manager = &body_manager_;
  ctx.broadphase = &broadphase_;
  ctx.contacts = &contact_manager_;
  ctx.constraints = &constraint_manager_;
  ctx.settings = &settings_;
  ctx.contact_listener = contact_listener_;
  ctx.object_vs_broadphase_filter = object_vs_broadphase_filter_;
  ctx.object_layer_pair_filter = object_layer_pair_filter_;
  ctx.max_body_pairs = system_settings_.max_body_pairs;
  ctx.max_contact_manifolds = system_settings_.max_contact_manifolds;
  ctx.dt = dt;
  ctx.collision_step = collision_step;
  ctx.result = &result;
  SolverBodies& solver = ctx.solver;
  IslandBuilder& islands = ctx.islands;
  const auto timed = [&](Stage stage, auto&& run) {
    {
      StageTimer timer(result, stage);
      run();
    }
    if (determinism_log_ != nullptr)
      determinism_log_->on_stage(step_count_, collision_step, stage_name(stage), stage_hash(stage));
  };

  // The impulses soft bodies gave dynamic bodies in the last step (waking them), before the
  // body lists are made.
  soft_body_manager_.apply_impulses(body_manager_);
  // A sleeping body joined to an awake one wakes before the body lists are made.
  timed(Stage::build_islands,
        [&] { wake_constrained_bodies(body_manager_, constraint_manager_, *ctx.jobs); });
  // The active list is in activation order; sorting makes every later list deterministic.
  body_manager_.sort_active_bodies();
  timed(Stage::apply_forces,
        [&] { apply_forces(body_manager_, settings_.gravity, dt, solver, *ctx.jobs); });
  timed(Stage::find_pairs, [&] { find_pairs(); });
  timed(Stage::gather_solver_bodies,
        [&] { gather_solver_bodies(body_manager_, solver, *ctx.jobs); });
  timed(Stage::narrow_phase, [&] { narrow_phase(ctx); });
  timed(Stage::build_islands, [&] {
    build_islands(
        contact_manager_, constraint_manager_, solver, body_manager_, islands,
        ctx.island_constraints, ctx.constraint_body1, ctx.constraint_body2, *ctx.jobs,
        [](void* system) { static_cast<PhysicsSystem*>(system)->beside_island_linking(); }, this);
    // Stage split_islands (timed with the islands): the large islands' splits and the small
    // islands' groups, for both solves.
    key_island_groups(contact_manager_, constraint_manager_, solver.bodies, islands,
                      ctx.island_constraints, settings_, ctx.island_scratch);
    ctx.splitter.prepare(settings_.use_large_island_splitter, islands, ctx.island_constraints,
                         constraint_manager_, ctx.constraint_body1, ctx.constraint_body2,
                         solver.movable, ctx.island_scratch.group_keys);
  });
  result.num_islands = islands.num_islands();
  result.num_split_islands = ctx.splitter.num_split_islands();
  result.num_island_groups = ctx.splitter.num_groups();
  result.largest_island_bodies = 0;
  for (uint32_t i = 0; i < islands.num_islands(); ++i)
    result.largest_island_bodies = std::max(result.largest_island_bodies,
                                            static_cast<uint32_t>(islands.island_bodies(i).size()));
  const IslandConstraints& island_constraints = ctx.island_constraints;
  timed(Stage::setup_velocity, [&] {
    constraint_manager_.setup_velocity_constraints(solver.bodies, dt, settings_.warm_start,
                                                   ctx.jobs);
    plan_wide_contacts(contact_manager_, solver.bodies, islands, ctx.splitter, settings_, *ctx.jobs,
                       ctx.island_scratch);
    contact_manager_.setup_velocity_constraints(solver.bodies, solver.velocities_before_forces, dt,
                                                settings_, ctx.jobs);
  });
  timed(Stage::solve_velocity, [&] {
    result.num_velocity_iterations +=
        solve_velocity(contact_manager_, constraint_manager_, solver.bodies, islands,
                       island_constraints, ctx.splitter, settings_, *ctx.jobs, ctx.island_scratch);
  });
  timed(Stage::integrate_positions, [&] {
    // LinearCast bodies are queued before the move, which they then share with every body.
    register_ccd_bodies(ctx);
    integrate_positions(solver, dt, *ctx.jobs);
  });
  timed(Stage::ccd, [&] { ccd(ctx); });
  timed(Stage::solve_position, [&] {
    solve_position(contact_manager_, constraint_manager_, solver.bodies, islands,
                   island_constraints, ctx.splitter, settings_, *ctx.jobs, ctx.island_scratch);
    // This step's impulses are final: constraints past their break threshold are disabled.
    constraint_manager_.break_constraints(ctx.broken);
  });
  timed(Stage::write_back, [&] {
    // Non-finite bodies are found as they are written back (each still holds its pose from
    // the start of the step), and quarantined after.
    write_back(body_manager_, solver, *ctx.jobs, ctx.non_finite);
    quarantine_non_finite();
  });
  timed(Stage::finish_contacts, [&] { finish_contacts(ctx); });
  if (last)
    timed(Stage::update_sleep, [&] {
      update_sleep(body_manager_, islands, solver, settings_, dt, *ctx.jobs, ctx.island_scratch,
                   ctx.to_sleep);
    });
  timed(Stage::update_bounds, [&] { update_bounds(dt); });
  timed(Stage::update_soft_bodies, [&] {
    SoftBodyStepSettings soft;
    soft.substeps = settings_.soft_body_substeps;
    soft.iterations = settings_.soft_body_iterations;
    soft.gravity = settings_.gravity;
    SoftBodySleepSettings sleep;
    sleep.allow_sleeping = settings_.allow_sleeping;
    sleep.point_velocity_sleep_threshold = settings_.point_velocity_sleep_threshold;
    sleep.time_before_sleep = settings_.time_before_sleep;
    // A dynamic collider's acceleration over this step besides the soft bodies (whose
    // impulses are in the velocities before forces): gravity and what holds it. Zero for a
    // body that did not move at the step's start (asleep, or woken within it).
    const SolverBodies& solver_bodies = ctx.solver;
    const auto acceleration_of = [&](const Body& body, Vec3& linear, Vec3& angular) {
      // index_of is as large as the body storage.
      const uint32_t s = solver_bodies.index_of[body.id().index()];
      if (s >= solver_bodies.velocities_before_forces.size() || body.is_quarantined()) return;
      const BodyVelocity& before = solver_bodies.velocities_before_forces[s];
      linear = (body.linear_velocity() - before.linear) / dt;
      angular = (body.angular_velocity() - before.angular) / dt;
    };
    const uint32_t failed =
        soft_body_manager_.update(dt, soft, sleep, body_manager_, broadphase_,
                                  *object_layer_pair_filter_, ctx.jobs, acceleration_of);
    if (failed != 0) {
      result.failed_soft_bodies += failed;
      result.flag(UpdateError::soft_body_step_failed);
    }
    // Their broadphase entries follow the vertices (fattened along the mean velocity).
    const auto bounds_of = [&](uint32_t index, AABox& tight_box, Vec3& displacement) {
      const Body& body = *body_manager_.body_at_slot(index);
      tight_box = body.world_bounds();
      displacement = body.linear_velocity() * dt;
    };
    const Result<uint32_t> moved =
        broadphase_.update_many(soft_body_manager_.updated_body_indices(), bounds_of);
    ATOLL_ASSERT(moved.ok(), "an added soft body is in the broadphase with finite bounds");
    (void)moved;
  });
}

void PhysicsSystem::find_pairs() {
  UpdateResult& result = *ctx_.result;
  std::vector<BodyPair>& pairs = ctx_.pairs;
  const Status found = broadphase_.find_step_pairs(body_manager_.active_bodies(), pairs, ctx_.jobs);
  ATOLL_ASSERT(found.ok(), "the active list and the broadphase disagree");
  (void)found;
  const uint32_t cap = system_settings_.max_body_pairs;
  if (cap != 0 && pairs.size() > cap) {
    if (result.skipped_body_pairs == 0) {
      result.first_skipped_pair_body1 = body_manager_.body_at_slot(pairs[cap].a)->id();
      result.first_skipped_pair_body2 = body_manager_.body_at_slot(pairs[cap].b)->id();
    }
    result.skipped_body_pairs += static_cast<uint32_t>(pairs.size() - cap);
    result.max_body_pairs = cap;
    result.flag(UpdateError::body_pair_cap_reached);
    pairs.resize(cap);
  }
  result.num_body_pairs = static_cast<uint32_t>(pairs.size());
}

void PhysicsSystem::quarantine_non_finite() {
  for (const NonFiniteBody& bad : ctx_.non_finite) {
    Body& body = *body_manager_.body_at_slot(bad.body_index);
    body_manager_.quarantine(body, bad.com_position, bad.rotation);
    // Out of the broadphase: no pairs, so its contacts end (reported as removed next step)
    // and no query finds it.
    const Status removed = broadphase_.remove(bad.body_index);
    ATOLL_ASSERT(removed.ok(), "an active body is in the broadphase");
    (void)removed;
    ctx_.result->quarantined.push_back(body.id());
  }
  if (ctx_.non_finite.empty()) return;
  // A constraint on a body quarantined now accumulated the body's NaN in this step's impulses
  // (its parts dropped them, but kept the sums): warm-started from them, it would apply nothing
  // for ever, even after release_quarantine. It starts again from 0, as when re-enabled.
  std::vector<uint32_t> slots;
  slots.reserve(ctx_.non_finite.size());
  for (const NonFiniteBody& bad : ctx_.non_finite) slots.push_back(bad.body_index);
  std::sort(slots.begin(), slots.end());
  const auto quarantined_now = [&](BodyID id) {
    return id != Constraint::k_world && std::binary_search(slots.begin(), slots.end(), id.index());
  };
  for (const Ref<Constraint>& constraint : constraint_manager_.constraints())
    if (quarantined_now(constraint->body1()) || quarantined_now(constraint->body2()))
      constraint->reset_warm_start();
}

void PhysicsSystem::beside_island_linking() {
  // The linking runs on one thread. Beside it: the contacts that this step did not add again,
  // for finish_contacts (on the pyramid that search took 19-21 ms per 500 steps of
  // finish_contacts' 29-37, on one thread), and, with threads and enough items for a large
  // island, the splitter's fit of every item (LargeIslandSplitter::colour_all), which the
  // splitter would otherwise make island by island after the linking, on one thread as well.
  // With one worker this runs after the linking, and the fit is left to the splitter.
  const uint32_t items = constraint_manager_.num_solved() + contact_manager_.num_constraints();
  if (settings_.use_large_island_splitter && ctx_.jobs->num_workers() > 1 &&
      items > LargeIslandSplitter::k_large_island_threshold)
    ctx_.splitter.colour_all(constraint_manager_.solved_bodies1(),
                             constraint_manager_.solved_bodies2(), ctx_.constraint_body1,
                             ctx_.constraint_body2, ctx_.solver.movable);
  contact_manager_.find_gone_contacts();
}

void PhysicsSystem::update_bounds(float dt) {
  // Fattened along the predicted motion, so that next step's pairs include what it may reach.
  const auto bounds_of = [&](uint32_t index, AABox& tight_box, Vec3& displacement) {
    const Body& body = *body_manager_.body_at_slot(index);
    tight_box = body.world_bounds();
    displacement = body.linear_velocity() * dt;
  };
  // In one go, so that a tree in which most bodies left their fat boxes is rebuilt rather than
  // re-inserted body by body (BroadPhase::update_many).
  if (broadphase_.update_many(body_manager_.active_bodies(), bounds_of, ctx_.jobs).ok()) return;
  // A body the broadphase refuses (update_many then changes nothing; not expected, as the
  // non-finite ones are quarantined by now): body by body, so that every other one still moves.
  for (uint32_t index : body_manager_.active_bodies()) {
    AABox tight_box;
    Vec3 displacement;
    bounds_of(index, tight_box, displacement);
    (void)broadphase_.update(index, tight_box, displacement);
  }
}

uint64_t PhysicsSystem::state_hash() const {
  return atl::state_hash(body_manager_, soft_body_manager_);
}

uint64_t PhysicsSystem::stage_hash(Stage stage) {
  uint64_t hash = atl::state_hash(body_manager_);
  for (const SolverBody& b : ctx_.solver.bodies) {
    for (const Vec3& v : {b.linear_velocity, b.angular_velocity, b.com_position})
      for (int i = 0; i < 3; ++i) hash = hash_float(v[i], hash);
    for (const float q : {b.rotation.x(), b.rotation.y(), b.rotation.z(), b.rotation.w()})
      hash = hash_float(q, hash);
  }
  switch (stage) {
    case Stage::find_pairs:
      for (const BodyPair& pair : ctx_.pairs) {
        hash = hash_bytes(&pair.a, sizeof(pair.a), hash);
        hash = hash_bytes(&pair.b, sizeof(pair.b), hash);
      }
      break;
    case Stage::narrow_phase:
    case Stage::finish_contacts: {
      HashingStateStream stream(hash);
      contact_manager_.visit_cache_state(stream);
      hash = stream.hash();
      break;
    }
    case Stage::update_soft_bodies: {
      HashingStateStream stream(hash);
      soft_body_manager_.visit_state(stream);
      hash = stream.hash();
      break;
    }
    case Stage::build_islands:
      for (uint32_t i = 0; i < ctx_.islands.num_islands(); ++i)
        for (uint32_t body : ctx_.islands.island_bodies(i)) hash = hash_bytes(&body, 4, hash);
      break;
    default:
      break;
  }
  return hash;
}

WorldStateRefs PhysicsSystem::state_refs() {
  return {body_manager_,      broadphase_,       contact_manager_, constraint_manager_,
          soft_body_manager_, settings_.gravity, step_count_};
}

Result<BodyID> PhysicsSystem::create_soft_body(const SoftBodyCreationSettings& settings,
                                               const char* call) {
  if (Status valid = soft_body_manager_.validate(settings, body_manager_, call); !valid)
    return valid.error();
  if (Status layer = check_object_layer(settings.object_layer); !layer)
    return Error(std::string(call) + ": object_layer: " + layer.error().message());
  // Its Body: a placeholder sphere (its broadphase entry takes the vertices' bounds, queries
  // test the vertices, and no rigid stage pairs it) with the vertices' mass, at their centre of
  // mass.
  const SoftBodySettings& soft = *settings.settings;
  const float mass = soft.total_mass();
  BodyCreationSettings body;
  body.shape = new SphereShape(std::max(soft.vertex_radius, 0.01f));
  body.motion_type = mass > 0.0f ? MotionType::Dynamic : MotionType::Kinematic;
  if (mass > 0.0f) body.override_mass = mass;
  body.object_layer = settings.object_layer;
  body.user_data = settings.user_data;
  body.allow_sleeping = false;
  Vec3 center = Vec3::zero();
  for (const SoftBodyVertex& v : soft.vertices) center += v.position;
  body.position = center / float(soft.vertices.size());
  Result<BodyID> id = body_interface_.create_body(body);
  if (!id) return Error(std::string(call) + ": " + id.error().message());
  Body& created = *body_manager_.get(*id);
  body_manager_.mark_soft_body(created);
  soft_body_manager_.add(*id, settings, body_manager_);
  return id;
}

Status PhysicsSystem::save_state(StateRecorder& recorder, StateParts parts,
                                 const StateFilter* filter) const {
  if (Status allowed = body_manager_.check_not_stepping("PhysicsSystem::save_state"); !allowed)
    return allowed;
  if (interrupted_) return interrupted_error("PhysicsSystem::save_state");
  // The walk takes the world by reference for restoring too; saving only reads it.
  save_world_state(const_cast<PhysicsSystem*>(this)->state_refs(), recorder, parts, filter);
  return Ok{};
}

Status PhysicsSystem::restore_state(const StateRecorder& recorder) {
  if (Status allowed = body_manager_.check_not_stepping("PhysicsSystem::restore_state"); !allowed)
    return allowed;
  Status restored = restore_world_state(state_refs(), recorder);
  // A state of every part puts back a whole world; one of fewer leaves the rest mid-step.
  if (restored && interrupted_ && !recorder.is_validating())
    interrupted_ = recorder.check().value() != StateParts::all;
  return restored;
}

Status PhysicsSystem::save_snapshot(WorldSnapshot& snapshot) const {
  if (Status allowed = body_manager_.check_not_stepping("PhysicsSystem::save_snapshot"); !allowed)
    return allowed;
  if (interrupted_) return interrupted_error("PhysicsSystem::save_snapshot");
  // As save_state: the walk takes the world by reference, saving only reads it.
  save_world_snapshot(const_cast<PhysicsSystem*>(this)->state_refs(), snapshot);
  return Ok{};
}

Status PhysicsSystem::restore_snapshot(const WorldSnapshot& snapshot) {
  if (Status allowed = body_manager_.check_not_stepping("PhysicsSystem::restore_snapshot");
      !allowed)
    return allowed;
  Status restored = restore_world_snapshot(state_refs(), snapshot);
  if (restored) interrupted_ = false;
  return restored;
}

Error PhysicsSystem::interrupted_error(const char* call) {
  return Error(std::string(call) +
               ": the world is part-way through a step that an exception left (thrown by a "
               "filter or a step-time callback in an earlier update); restore a snapshot, or a "
               "state of every part, saved before it (PhysicsSystem::is_interrupted)");
}

void PhysicsSystem::deliver_events() {
  // The listeners may change the world here, and call update() again: every list is taken out
  // before the first of them runs (Taken).
  // What the activation listener changes now is buffered for the next update.
  if (activation_listener_ != nullptr) body_manager_.take_activation_events(activation_events_);
  const Taken<BodyActivationEvent> activations(activation_events_);
  const Taken<ContactEvent> events(ctx_.events);
  const Taken<Ref<Constraint>> broken(ctx_.broken);
  if (activation_listener_ != nullptr) {
    for (const BodyActivationEvent& e : activations.list()) {
      if (e.activated)
        activation_listener_->on_body_activated(e.body);
      else
        activation_listener_->on_body_deactivated(e.body);
    }
  }
  if (contact_listener_ != nullptr && !events.list().empty())
    contact_listener_->on_contact_events(events.list());
  if (constraint_listener_ != nullptr && !broken.list().empty())
    constraint_listener_->on_constraints_broken(broken.list());
}

Status PhysicsSystem::add_constraint(const Ref<Constraint>& constraint) {
  constexpr const char* call = "PhysicsSystem::add_constraint";
  if (Status allowed = body_manager_.check_not_stepping(call); !allowed) return allowed;
  if (constraint == nullptr) return Error(std::string(call) + ": constraint: is null");
  if (constraint->index() != Constraint::k_not_in_world)
    return Error(std::string(call) + ": constraint: is already in a world");
  const BodyID ids[2] = {constraint->body1(), constraint->body2()};
  const char* names[2] = {"body1", "body2"};
  for (int i = 0; i < 2; ++i) {
    if (ids[i] == Constraint::k_world) continue;
    Result<const Body*> body = std::as_const(body_manager_).lookup(ids[i], call);
    if (!body) return Error(std::string(call) + ": " + names[i] + ": " + body.error().message());
    if (!body.value()->is_added())
      return Error(std::string(call) + ": " + names[i] + ": body " +
                   std::to_string(ids[i].value()) + " is not added to the world");
    // A soft body has no pose a constraint could hold (and is never in the active list, which
    // waking its constrained partner relies on).
    if (body.value()->is_soft_body())
      return Error(std::string(call) + ": " + names[i] + ": body " +
                   std::to_string(ids[i].value()) +
                   " is a soft body; constraints join rigid bodies (tie a soft body's vertices "
                   "to a body with SoftBodyCreationSettings::ties)");
  }
  constraint_manager_.add(constraint);
  return Ok{};
}

Status PhysicsSystem::remove_constraint(const Ref<Constraint>& constraint) {
  if (Status allowed = body_manager_.check_not_stepping("PhysicsSystem::remove_constraint");
      !allowed)
    return allowed;
  if (constraint == nullptr || !constraint_manager_.remove(*constraint))
    return Error("PhysicsSystem::remove_constraint: constraint: is not in this world");
  return Ok{};
}

void PhysicsSystem::set_body_activation_listener(BodyActivationListener* listener) {
  activation_listener_ = listener;
  body_manager_.set_record_activation_events(listener != nullptr);
}

Result<uint32_t> PhysicsSystem::activate_bodies_in_aabox(const AABox& box,
                                                         const ObjectLayerFilter& filter) {
  if (Status allowed = body_manager_.check_not_stepping("PhysicsSystem::activate_bodies_in_aabox");
      !allowed)
    return allowed.error();
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
    if (body.is_soft_body())
      soft_body_manager_.wake(body.id());
    else
      body_manager_.activate(body);
    ++count;
  }
  return count;
}

}  // namespace atl
