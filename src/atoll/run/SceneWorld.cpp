#include "atoll/run/SceneWorld.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>

#include "atoll/body/Validation.h"
#include "atoll/run/Recording.h"
#include "atoll/scene/ConstraintFields.h"
#include "atoll/scene/SceneJson.h"
#include "atoll/scene/SceneShapes.h"
#include "atoll/scene/SceneSoftBodies.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/state/StateHash.h"
#include "atoll/world/ContactListener.h"
#include "atoll/world/WorldQuery.h"

namespace atl {

namespace {

// A scene's collision_group: bodies of one group never collide with each other.
class SceneGroupFilter final : public GroupFilter {
 public:
  bool can_collide(const CollisionGroup& a, const CollisionGroup& b) const override {
    return a.group_id() == CollisionGroup::k_invalid_group || a.group_id() != b.group_id();
  }
};

// The scene's settings with the built shape (the scene holds the engine's settings) and the
// collision group.
BodyCreationSettings body_settings(const BodyDesc& body, Ref<Shape> shape) {
  static const Ref<const GroupFilter> k_group_filter(new SceneGroupFilter());
  BodyCreationSettings s = body.settings;
  s.shape = std::move(shape);
  if (body.collision_group)
    s.collision_group =
        CollisionGroup(k_group_filter, *body.collision_group, CollisionGroup::k_invalid_sub_group);
  return s;
}

// Collects the contacts of a step for a recording: the added and persisted contact events of
// the update's last collision step (one per manifold). Set on the system for the run only.
class ContactRecorder final : public ContactListener {
 public:
  ContactRecorder(PhysicsSystem& system, int last_collision_step)
      : system_(system), last_collision_step_(last_collision_step) {
    system_.set_contact_listener(this);
  }
  ~ContactRecorder() override { system_.set_contact_listener(nullptr); }
  ContactRecorder(const ContactRecorder&) = delete;
  ContactRecorder& operator=(const ContactRecorder&) = delete;
  void on_contact_events(std::span<const ContactEvent> events) override {
    for (const ContactEvent& event : events)
      if (event.type != ContactEventType::Removed && event.collision_step == last_collision_step_)
        contacts_.push_back({event.point, event.normal, event.penetration_depth});
  }
  // The step's contacts; clear() before the next step.
  const std::vector<RecordedContact>& contacts() const { return contacts_; }
  void clear() { contacts_.clear(); }

 private:
  PhysicsSystem& system_;
  int last_collision_step_;
  std::vector<RecordedContact> contacts_;
};

}  // namespace

Result<std::unique_ptr<SceneWorld>> SceneWorld::create(const SceneDescription& scene,
                                                       std::string_view source,
                                                       const SceneWorldOptions& options) {
  return create(SceneDescription(scene), source, options);
}

Result<std::unique_ptr<SceneWorld>> SceneWorld::create(SceneDescription&& scene,
                                                       std::string_view source,
                                                       const SceneWorldOptions& options) {
  std::unique_ptr<SceneWorld> world(new SceneWorld());
  world->scene_ = std::move(scene);
  world->system_ = std::make_unique<PhysicsSystem>();
  if (Status ok = world->system_->set_settings(world->scene_.physics); !ok)
    return Error(std::string(source) + ": " +
                 scene_json::engine_error_at("settings", ok.error().message()));

  SceneShapes shapes(world->scene_, std::string(source));
  BodyInterface& bodies = world->system_->body_interface();
  for (const BodyDesc& body : world->scene_.bodies) {
    Result<Ref<Shape>> shape = shapes.body_shape(body);
    if (!shape) return shape.error();
    Result<BodyID> id =
        bodies.create_and_add_body(body_settings(body, *shape), Activation::Activate);
    if (!id)
      return Error(std::string(source) + ": " +
                   scene_json::engine_error_at("bodies." + body.name, id.error().message()));
    world->names_.push_back(body.name);
    world->ids_.push_back(*id);
    world->by_name_.emplace(body.name, *id);
  }
  for (size_t i = 0; i < world->scene_.constraints.size(); ++i) {
    const ConstraintDesc& desc = world->scene_.constraints[i];
    const std::string path = "constraints[" + std::to_string(i) + "]";
    const auto id_of = [&world](const std::string& name) {
      return name == k_scene_world ? Constraint::k_world : world->body(name);
    };
    const fields::ConstraintBuild build{
        bodies, id_of(desc.body1), id_of(desc.body2),
        [&world](std::string_view name) { return world->constraint(name); }};
    const fields::ConstraintType* type = fields::find_constraint_type(desc.type);
    ATOLL_ASSERT(type != nullptr && desc.settings != nullptr, "unsupported scene constraint");
    Result<Ref<Constraint>> made = type->create(*desc.settings, build);
    if (!made)
      return Error(std::string(source) + ": " +
                   scene_json::engine_error_at(path, made.error().message()));
    if (Status ok = world->system_->add_constraint(*made); !ok)
      return Error(std::string(source) + ": " + path + ": " + ok.error().message());
    world->constraints_.push_back(*made);
  }
  for (size_t i = 0; i < world->scene_.soft_bodies.size(); ++i) {
    const SoftBodyDesc& desc = world->scene_.soft_bodies[i];
    const std::string path = "soft_bodies[" + std::to_string(i) + "]";
    Result<SceneSoftBody> built = build_scene_soft_body(desc);
    if (!built) return Error(std::string(source) + ": " + built.error().message());
    SoftBodyCreationSettings settings;
    settings.settings = built->settings;
    for (const auto& [vertex, body] : built->ties)
      settings.ties.push_back({vertex, world->body(body)});
    Result<BodyID> id = world->system_->body_interface().create_soft_body(settings);
    if (!id) return Error(std::string(source) + ": " + path + ": " + id.error().message());
    if (Status added = bodies.add_body(*id, Activation::Activate); !added)
      return Error(std::string(source) + ": " + path + ": " + added.error().message());
    world->soft_body_ids_.push_back(*id);
  }
  if (!options.keep_body_descriptions) std::vector<BodyDesc>().swap(world->scene_.bodies);
  return world;
}

Ref<Constraint> SceneWorld::constraint(std::string_view name) const {
  const std::vector<ConstraintDesc>& descs = scene_.constraints;
  for (size_t i = 0; i < constraints_.size(); ++i)
    if (descs[i].name == name) return constraints_[i];
  return nullptr;
}

std::vector<RecordedConstraint> recorded_constraints(const SceneWorld& world) {
  std::vector<RecordedConstraint> out;
  const BodyManager& bodies = world.system().bodies();
  for (size_t c = 0; c < world.constraints().size(); ++c) {
    const Constraint& constraint = *world.constraints()[c];
    const ConstraintDesc& desc = world.scene().constraints[c];
    const auto [local1, local2] =
        fields::find_constraint_type(constraint.sub_type())->anchors(constraint);
    RecordedConstraint r;
    r.name = desc.name;
    r.type = to_string(desc.type);
    // A point in a body's centre-of-mass frame → its shape space (the frames' pose is the
    // shape origin's).
    const auto place = [&](BodyID id, const Vec3& local, int& index, Vec3& point) {
      index = -1;
      point = local;
      for (size_t b = 0; b < world.body_ids().size(); ++b)
        if (world.body_ids()[b] == id) index = int(b);
      if (const Body* body = index >= 0 ? bodies.get(id) : nullptr)
        point = local + body->shape()->center_of_mass();
    };
    place(constraint.body1(), local1, r.body1, r.point1);
    place(constraint.body2(), local2, r.body2, r.point2);
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<RecordedSoftBody> recorded_soft_bodies(const PhysicsSystem& system,
                                                   std::span<const BodyID> ids,
                                                   std::span<const std::string> names) {
  std::vector<RecordedSoftBody> out;
  for (size_t i = 0; i < ids.size(); ++i) {
    const SoftBody* soft = system.soft_body(ids[i]);
    ATOLL_ASSERT(soft != nullptr, "a recorded soft body exists when the recording starts");
    const SoftBodySettings& settings = soft->settings();
    RecordedSoftBody& r = out.emplace_back();
    r.name = names[i];
    r.vertex_count = soft->vertex_count();
    r.vertex_radius = settings.vertex_radius;
    for (const SoftBodyEdge& edge : settings.edges)
      r.edges.push_back({edge.vertex[0], edge.vertex[1]});
    r.faces.assign(settings.faces.begin(), settings.faces.end());
  }
  return out;
}

std::vector<RecordedSoftBody> recorded_soft_bodies(const SceneWorld& world) {
  std::vector<std::string> names;
  for (const SoftBodyDesc& desc : world.scene().soft_bodies) names.push_back(desc.name);
  return recorded_soft_bodies(world.system(), world.soft_body_ids(), names);
}

void recorded_soft_body_frames(const PhysicsSystem& system, std::span<const BodyID> ids,
                               std::vector<RecordingSoftBodyFrame>& frames) {
  frames.resize(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    const SoftBody* soft = system.soft_body(ids[i]);
    const Body* body = system.bodies().get(ids[i]);
    frames[i] = {};
    if (soft == nullptr || body == nullptr) continue;  // destroyed: not in the frame
    frames[i].positions = soft->positions();
    frames[i].flags = uint8_t((body->is_added() ? k_recording_soft_body_added : 0) |
                              (body->is_added() && !system.is_soft_body_sleeping(ids[i])
                                   ? k_recording_soft_body_active
                                   : 0));
  }
}

BodyID SceneWorld::body(std::string_view name) const {
  auto it = by_name_.find(name);
  return it != by_name_.end() ? it->second : BodyID();
}

std::string SceneWorld::body_name(BodyID id) const {
  for (size_t i = 0; i < ids_.size(); ++i)
    if (ids_[i] == id) return names_[i];
  return format_body_id(id);
}

namespace {

Status apply_event(SceneWorld& world, const EventDesc& event, float dt) {
  if (scene_action_on_constraint(event.action)) {
    const Ref<Constraint> constraint = world.constraint(event.constraint);
    ATOLL_ASSERT(constraint != nullptr, "event on an unknown constraint");
    switch (event.action) {
      case SceneAction::EnableConstraint:
        constraint->set_enabled(true);
        return Ok{};
      case SceneAction::DisableConstraint:
        constraint->set_enabled(false);
        return Ok{};
      default:
        return fields::find_constraint_type(constraint->sub_type())->set_motor(*constraint, event);
    }
  }
  BodyInterface& bodies = world.system().body_interface();
  const BodyID id = world.body(event.body);
  switch (event.action) {
    case SceneAction::AddForce:
      return bodies.add_force(id, event.vector);
    case SceneAction::AddImpulse:
      return bodies.add_impulse(id, event.vector);
    case SceneAction::AddTorque:
      return bodies.add_torque(id, event.vector);
    case SceneAction::AddAngularImpulse:
      return bodies.add_angular_impulse(id, event.vector);
    case SceneAction::SetLinearVelocity:
      return bodies.set_linear_velocity(id, event.vector);
    case SceneAction::SetAngularVelocity:
      return bodies.set_angular_velocity(id, event.vector);
    case SceneAction::SetMotionQuality:
      return bodies.set_motion_quality(id, event.motion_quality);
    case SceneAction::SetMotionType:
      return bodies.set_motion_type(id, event.motion_type);
    case SceneAction::Activate:
      return bodies.activate(id);
    case SceneAction::Deactivate:
      return bodies.deactivate(id);
    case SceneAction::Remove:
      return bodies.remove_body(id);
    case SceneAction::MoveKinematic: {
      Result<Quat> current = bodies.rotation(id);
      if (!current) return current.error();
      return bodies.move_kinematic(id, event.vector, event.rotation.value_or(*current), dt);
    }
    case SceneAction::SetMotor:
    case SceneAction::EnableConstraint:
    case SceneAction::DisableConstraint:
      break;
  }
  return Error("unknown action");
}

// An engine error about an event, in the scene's words: "BodyInterface::add_force: force.x:
// must be finite" becomes "events[3].force[0]: must be finite", and "id: body {index 0,
// sequence 0} is static ..." becomes "events[3].body: "floor" is static ...".
std::string event_error(const std::string& path, const EventDesc& event, std::string message) {
  if (message.rfind("BodyInterface::", 0) == 0) {
    const size_t colon = message.find(": ");
    if (colon != std::string::npos) message.erase(0, colon + 2);
  }
  const size_t colon = message.find(": ");
  if (colon == std::string::npos) return path + ": " + message;
  std::string argument = message.substr(0, colon);
  std::string rest = message.substr(colon + 2);
  if (argument == "id") {
    if (rest.rfind("body {", 0) == 0) {
      const size_t close = rest.find('}');
      if (close != std::string::npos)
        rest = scene_json::Json(event.body).dump() + rest.substr(close + 1);
    }
    return path + ".body: " + rest;
  }
  std::string component;
  if (argument.size() > 2 && argument[argument.size() - 2] == '.') {
    const char axis = argument.back();
    component = axis == 'x' ? "[0]" : axis == 'y' ? "[1]" : axis == 'z' ? "[2]" : "";
    if (!component.empty()) argument.resize(argument.size() - 2);
  }
  if (const char* key = scene_action_vector_key(event.action);
      key != nullptr && argument != "target_rotation" && argument != "dt")
    argument = key;
  else if (argument == "target_rotation")
    argument = "rotation";
  return path + "." + argument + component + ": " + rest;
}

// The smallest signed distance from a vertex centre to a rigid shape that is not a sensor (soft
// bodies, found by queries too, are left out) (SoftBodySummary::lowest_vertex_clearance): a small
// sphere at each vertex, collided with the world within the best distance found so far (so after
// the first vertices near a surface, each query sees only the shapes that could do better).
std::optional<float> lowest_vertex_clearance(const PhysicsSystem& system, const SoftBody& soft) {
  constexpr float k_probe_radius = 1.0e-3f;
  static const Ref<Shape> k_probe = [] {
    SphereShapeSettings settings;
    settings.radius = k_probe_radius;
    return settings.create().value_or_throw();
  }();
  const WorldQuery query(system);
  QueryFilter filter;
  filter.bodies = [](const Body& body) { return !body.is_sensor() && !body.is_soft_body(); };
  std::optional<float> best;
  CollideShapeSettings settings;
  for (const Vec3& x : soft.positions()) {
    settings.max_separation_distance =
        best ? std::max(*best, 0.0f) + k_probe_radius : SoftBodySummary::k_clearance_search_m;
    Result<std::vector<ShapeHit>> hits =
        query.collide_shape(*k_probe, Mat44::translation(x), settings, filter);
    if (!hits) continue;
    for (const ShapeHit& hit : *hits) {
      const float distance = k_probe_radius - hit.manifold.penetration_depth;
      if (!best || distance < *best) best = distance;
    }
  }
  return best;
}

}  // namespace

Result<RunSummary> run_scene(SceneWorld& world, const RunOptions& options,
                             std::string_view source) {
  const SceneDescription& scene = world.scene();
  PhysicsSystem& system = world.system();
  RunSummary summary;
  summary.steps = options.steps >= 0 ? options.steps : scene.steps;
  summary.dt = scene.dt;

  // Trace selection.
  std::vector<size_t> traced;
  if (options.trace != nullptr) {
    if (options.trace_bodies.empty()) {
      for (size_t i = 0; i < world.body_names().size(); ++i) traced.push_back(i);
    } else {
      for (const std::string& name : options.trace_bodies) {
        size_t i = 0;
        while (i < world.body_names().size() && world.body_names()[i] != name) ++i;
        if (i == world.body_names().size())
          return Error(std::string(source) + ": --trace-bodies: unknown body \"" + name + "\"");
        traced.push_back(i);
      }
    }
    *options.trace << "step,body,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz,active\n";
  }

  // Probes: which side of its plane each watched body is on.
  struct ProbeState {
    std::vector<BodyID> bodies;
    std::vector<int> side;
    int crossed = 0;
  };
  std::vector<ProbeState> probes(scene.probes.size());
  const auto side_of = [&system](BodyID id, const ProbeDesc& probe) {
    const Body* body = system.bodies().get(id);
    if (body == nullptr) return 0;
    const float d = body->center_of_mass_position()[probe.axis] - probe.value;
    return d < 0.0f ? -1 : 1;
  };
  for (size_t p = 0; p < scene.probes.size(); ++p) {
    const ProbeDesc& probe = scene.probes[p];
    if (probe.bodies.empty()) {
      for (BodyID id : world.body_ids()) probes[p].bodies.push_back(id);
    } else {
      for (const std::string& name : probe.bodies) probes[p].bodies.push_back(world.body(name));
    }
    for (BodyID id : probes[p].bodies) probes[p].side.push_back(side_of(id, probe));
  }

  double wall_ms = 0.0;
  size_t next_event = 0;
  std::vector<size_t> event_order(scene.events.size());
  for (size_t i = 0; i < event_order.size(); ++i) event_order[i] = i;
  // Events apply in step order, file order within a step (a stable sort by step).
  std::stable_sort(event_order.begin(), event_order.end(),
                   [&](size_t a, size_t b) { return scene.events[a].step < scene.events[b].step; });
  // Events with "steps": K apply again on the K − 1 steps after their own: (event, steps left).
  std::vector<std::pair<size_t, int>> repeating;
  const auto apply = [&](size_t e) -> Status {
    if (Status ok = apply_event(world, scene.events[e], scene.dt); !ok)
      return Error(
          std::string(source) + ": " +
          event_error("events[" + std::to_string(e) + "]", scene.events[e], ok.error().message()));
    return Ok{};
  };
  // Constraints: index by constraint, the step each broke in (−1: not broken).
  std::map<const Constraint*, size_t> constraint_index;
  for (size_t c = 0; c < world.constraints().size(); ++c)
    constraint_index.emplace(world.constraints()[c].get(), c);
  std::vector<int> broken_at(world.constraints().size(), -1);
  summary.active_bodies.reserve(summary.steps);
  summary.islands.reserve(summary.steps);
  summary.largest_island_bodies.reserve(summary.steps);
  summary.threads = options.jobs != nullptr ? static_cast<int>(options.jobs->num_workers()) : 1;
  // The recording's contacts come from a contact listener, set for the run only (the scene
  // world has none of its own).
  std::optional<ContactRecorder> contact_recorder;
  if (options.recording != nullptr && options.recording->records_contacts())
    contact_recorder.emplace(system, scene.collision_steps - 1);
  // Constraint states for the recording (RecordingConstraintFlags).
  std::vector<uint8_t> constraint_flags(world.constraints().size());
  // The soft bodies' vertices for the recording (views of the world's, for the frame).
  std::vector<RecordingSoftBodyFrame> soft_frames(world.soft_body_ids().size());
  const auto record_frame = [&](const RecordingFrameInfo& base) {
    RecordingFrameInfo info = base;
    for (size_t c = 0; c < constraint_flags.size(); ++c)
      constraint_flags[c] =
          uint8_t(k_recording_constraint_known |
                  (world.constraints()[c]->is_enabled() ? k_recording_constraint_enabled : 0) |
                  (broken_at[c] >= 0 ? k_recording_constraint_broken : 0));
    info.constraint_flags = constraint_flags;
    recorded_soft_body_frames(system, world.soft_body_ids(), soft_frames);
    info.soft_bodies = soft_frames;
    if (contact_recorder) info.contacts = contact_recorder->contacts();
    options.recording->add_frame(system.bodies(), info);
    if (contact_recorder) contact_recorder->clear();
  };
  if (options.recording != nullptr) record_frame({});
  // A world restored from a saved state continues at its step: the events before it are in
  // the state already, and a repeating event that started before it repeats what is left.
  const int first_step = static_cast<int>(system.step_count());
  while (next_event < event_order.size() &&
         scene.events[event_order[next_event]].step < first_step) {
    const size_t e = event_order[next_event++];
    const int left = scene.events[e].step + std::max(scene.events[e].steps, 1) - first_step;
    if (left > 0) repeating.emplace_back(e, left);
  }
  const auto save_state_if_due = [&] {
    if (options.saved_state != nullptr &&
        static_cast<int64_t>(system.step_count()) == options.save_state_at)
      (void)system.save_state(*options.saved_state);
  };
  save_state_if_due();
  StateRecorder before_step, after_trial;
  for (int step = first_step; step < first_step + summary.steps; ++step) {
    for (auto& [e, left] : repeating) {
      if (Status ok = apply(e); !ok) return ok.error();
      --left;
    }
    std::erase_if(repeating, [](const std::pair<size_t, int>& r) { return r.second <= 0; });
    while (next_event < event_order.size() && scene.events[event_order[next_event]].step <= step) {
      const size_t e = event_order[next_event++];
      if (Status ok = apply(e); !ok) return ok.error();
      if (scene.events[e].steps > 1) repeating.emplace_back(e, scene.events[e].steps - 1);
      if (scene.events[e].action == SceneAction::EnableConstraint)
        broken_at[constraint_index.at(world.constraint(scene.events[e].constraint).get())] = -1;
    }
    if (options.validate) {
      system.set_determinism_log(nullptr);
      // The trial step first, then the real one from the same state (the listeners' contacts
      // of the trial are dropped), whose result must be the trial's to the bit.
      (void)system.save_state(before_step);
      if (Result<UpdateResult> trial = system.update(scene.dt, scene.collision_steps, options.jobs);
          !trial)
        return Error(std::string(source) + ": " + trial.error().message());
      (void)system.save_state(after_trial);
      if (Status back = system.restore_state(before_step); !back)
        return Error(std::string(source) + ": --validate: step " + std::to_string(step) + ": " +
                     back.error().message());
      if (contact_recorder) contact_recorder->clear();
    }
    system.set_determinism_log(options.detlog);
    const auto start = std::chrono::steady_clock::now();
    Result<UpdateResult> result = system.update(scene.dt, scene.collision_steps, options.jobs);
    system.set_determinism_log(nullptr);
    wall_ms +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!result) return Error(std::string(source) + ": " + result.error().message());
    if (options.validate) {
      after_trial.set_validating(true);
      if (Status same = system.restore_state(after_trial); !same)
        return Error(std::string(source) + ": --validate: step " + std::to_string(step) +
                     " repeated from its saved state differs: " + same.error().message());
    }
    save_state_if_due();
    if (result->max_penetration > summary.max_penetration_m) {
      summary.max_penetration_m = result->max_penetration;
      summary.max_penetration_step = step;
      summary.max_penetration_body1 = world.body_name(result->max_penetration_body1);
      summary.max_penetration_body2 = world.body_name(result->max_penetration_body2);
    }
    for (int s = 0; s < k_num_stages; ++s) summary.stage_ms[s] += result->stage_ms[s];
    if (!result->ok() && summary.update_error.empty())
      summary.update_error = "step " + std::to_string(step) + ": " + result->to_string();
    for (const Ref<Constraint>& broken : result->broken)
      if (const auto it = constraint_index.find(broken.get()); it != constraint_index.end())
        broken_at[it->second] = step;
    for (BodyID id : result->quarantined)
      summary.quarantined.push_back({world.body_name(id), step});
    summary.active_bodies.push_back(result->num_active_bodies);
    summary.islands.push_back(result->num_islands);
    summary.largest_island_bodies.push_back(result->largest_island_bodies);
    if (result->num_active_bodies == 0 && summary.first_all_asleep_step < 0)
      summary.first_all_asleep_step = step;

    for (size_t p = 0; p < probes.size(); ++p) {
      for (size_t b = 0; b < probes[p].bodies.size(); ++b) {
        const int side = side_of(probes[p].bodies[b], scene.probes[p]);
        if (side != 0 && side != probes[p].side[b]) {
          if (probes[p].side[b] != 0) ++probes[p].crossed;
          probes[p].side[b] = side;
        }
      }
    }
    if (options.trace != nullptr) {
      char line[512];
      for (size_t i : traced) {
        const Body* body = system.bodies().get(world.body_ids()[i]);
        if (body == nullptr) continue;
        const Vec3 x = body->position(), v = body->linear_velocity(), w = body->angular_velocity();
        const Quat q = body->rotation();
        std::snprintf(line, sizeof(line),
                      "%d,%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%d\n",
                      step, world.body_names()[i].c_str(), x.x(), x.y(), x.z(), q.x(), q.y(), q.z(),
                      q.w(), v.x(), v.y(), v.z(), w.x(), w.y(), w.z(), body->is_active() ? 1 : 0);
        *options.trace << line;
      }
    }
    if (options.recording != nullptr) {
      RecordingFrameInfo info;
      info.max_penetration = result->max_penetration;
      info.num_contacts = result->num_manifolds;
      info.stage_ms = result->stage_ms;
      record_frame(info);
    }
    if (options.progress) options.progress(step + 1 - first_step, summary.steps);
  }

  summary.wall_ms_per_step = summary.steps > 0 ? wall_ms / summary.steps : 0.0;
  summary.state_hash = system.state_hash();
  for (size_t i = 0; i < world.body_ids().size(); ++i) {
    const Body* body = system.bodies().get(world.body_ids()[i]);
    if (body == nullptr) continue;  // removed by an event and destroyed
    BodySnapshot snapshot;
    snapshot.position = body->position();
    snapshot.rotation = body->rotation();
    snapshot.linear_velocity = body->linear_velocity();
    snapshot.angular_velocity = body->angular_velocity();
    snapshot.active = body->is_active();
    summary.bodies.emplace_back(world.body_names()[i], snapshot);
  }
  for (size_t p = 0; p < probes.size(); ++p)
    summary.probes_crossed.emplace_back(scene.probes[p].name, probes[p].crossed);
  for (size_t c = 0; c < world.constraints().size(); ++c) {
    const Constraint& constraint = *world.constraints()[c];
    ConstraintSnapshot snapshot;
    snapshot.name = scene.constraints[c].name;
    snapshot.enabled = constraint.is_enabled();
    snapshot.broken_at_step = broken_at[c];
    fields::find_constraint_type(constraint.sub_type())
        ->total_lambda(constraint, snapshot.total_lambda);
    summary.constraints.push_back(std::move(snapshot));
  }
  for (size_t i = 0; i < world.soft_body_ids().size(); ++i) {
    const SoftBody* soft = system.soft_body(world.soft_body_ids()[i]);
    if (soft == nullptr) continue;
    SoftBodySummary s;
    s.name = scene.soft_bodies[i].name;
    s.center_of_mass = soft->center_of_mass();
    s.bounds = soft->bounds();
    s.max_strain = soft->max_strain();
    s.vertex_count = soft->vertex_count();
    s.volume = soft->volume();
    s.lowest_vertex_clearance = lowest_vertex_clearance(system, *soft);
    summary.soft_bodies.push_back(std::move(s));
  }
  return summary;
}

std::string hash_to_hex(uint64_t hash) {
  char text[17];
  std::snprintf(text, sizeof(text), "%016" PRIx64, hash);
  return text;
}

std::string summary_to_json(const RunSummary& summary) {
  using nlohmann::ordered_json;
  const auto vec = [](const Vec3& v) { return ordered_json::array({v.x(), v.y(), v.z()}); };
  ordered_json j;
  j["steps"] = summary.steps;
  j["dt"] = summary.dt;
  j["threads"] = summary.threads;
  j["wall_ms_per_step"] = summary.wall_ms_per_step;
  j["state_hash"] = hash_to_hex(summary.state_hash);
  j["max_penetration_m"] = summary.max_penetration_m;
  if (summary.max_penetration_step >= 0)
    j["max_penetration_at"] = {{"step", summary.max_penetration_step},
                               {"bodies", ordered_json::array({summary.max_penetration_body1,
                                                               summary.max_penetration_body2})}};
  else
    j["max_penetration_at"] = nullptr;
  if (summary.first_all_asleep_step >= 0)
    j["first_all_asleep_step"] = summary.first_all_asleep_step;
  else
    j["first_all_asleep_step"] = nullptr;
  // Appended to the member vector directly: `bodies[name] = …` searches the ordered map
  // linearly, which made the summary quadratic (50 000 bodies took 10 s). Names are unique.
  ordered_json bodies = ordered_json::object();
  std::vector<std::pair<const std::string, ordered_json>>& members =
      bodies.get_ref<ordered_json::object_t&>();
  members.reserve(summary.bodies.size());
  for (const auto& [name, s] : summary.bodies) {
    members.emplace_back(
        name, ordered_json{{"position", vec(s.position)},
                           {"rotation", ordered_json::array({s.rotation.x(), s.rotation.y(),
                                                             s.rotation.z(), s.rotation.w()})},
                           {"linear_velocity", vec(s.linear_velocity)},
                           {"angular_velocity", vec(s.angular_velocity)},
                           {"active", s.active}});
  }
  j["bodies"] = std::move(bodies);
  j["active_bodies"] = summary.active_bodies;
  j["islands"] = {{"count", summary.islands}, {"largest_bodies", summary.largest_island_bodies}};
  if (!summary.probes_crossed.empty()) {
    ordered_json probes = ordered_json::object();
    for (const auto& [name, crossed] : summary.probes_crossed)
      probes[name] = {{"crossed", crossed}};
    j["probes"] = std::move(probes);
  }
  ordered_json stages = ordered_json::object();
  for (int s = 0; s < k_num_stages; ++s)
    stages[stage_name(static_cast<Stage>(s))] = summary.stage_ms[s];
  j["stage_ms"] = std::move(stages);
  if (!summary.update_error.empty()) j["update_error"] = summary.update_error;
  if (!summary.constraints.empty()) {
    ordered_json constraints = ordered_json::object();
    for (const ConstraintSnapshot& c : summary.constraints) {
      ordered_json lambda = ordered_json::object();
      for (const auto& [part, values] : c.total_lambda) {
        if (values.size() == 1)
          lambda[part] = values[0];
        else
          lambda[part] = values;
      }
      constraints[c.name] = {
          {"enabled", c.enabled},
          {"broken_at_step",
           c.broken_at_step >= 0 ? ordered_json(c.broken_at_step) : ordered_json(nullptr)},
          {"total_lambda", std::move(lambda)}};
    }
    j["constraints"] = std::move(constraints);
  }
  if (!summary.soft_bodies.empty()) {
    ordered_json soft_bodies = ordered_json::object();
    for (const SoftBodySummary& s : summary.soft_bodies)
      soft_bodies[s.name] = {
          {"center_of_mass", vec(s.center_of_mass)},
          {"bounds", ordered_json::array({vec(s.bounds.min), vec(s.bounds.max)})},
          {"max_strain", s.max_strain},
          {"vertex_count", s.vertex_count},
          {"volume", s.volume},
          {"lowest_vertex_clearance", s.lowest_vertex_clearance
                                          ? ordered_json(*s.lowest_vertex_clearance)
                                          : ordered_json(nullptr)}};
    j["soft_bodies"] = std::move(soft_bodies);
  }
  ordered_json quarantined = ordered_json::array();
  for (const RunSummary::QuarantinedBody& q : summary.quarantined) quarantined.push_back(q.name);
  j["quarantined"] = std::move(quarantined);
  return j.dump(2) + "\n";
}

}  // namespace atl
