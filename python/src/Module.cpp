// atoll._atoll: the Python bindings (pybind11). Everything a user types goes through the scene
// format's readers — settings through the PhysicsSettings field table, shapes, bodies and
// constraints through a one-entry scene — so that Python accepts the keys, units, defaults and
// checks of a scene file, and its errors carry the same messages. Errors become atoll.Error
// (a ValueError); a call that fails changes nothing.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "atoll/body/Validation.h"
#include "atoll/core/ThreadPool.h"
#include "atoll/run/Recording.h"
#include "atoll/run/SceneWorld.h"
#include "atoll/scene/BuiltinScenes.h"
#include "atoll/scene/ConstraintFields.h"
#include "atoll/scene/PhysicsSettingFields.h"
#include "atoll/scene/ScenePerturbation.h"
#include "atoll/scene/SceneReader.h"
#include "atoll/scene/SceneShapes.h"
#include "atoll/scene/SceneSoftBodies.h"
#include "atoll/scene/SceneWriter.h"
#include "atoll/state/StateHash.h"
#include "atoll/state/WorldSnapshot.h"
#include "atoll/world/ContactListener.h"
#include "atoll/world/WorldQuery.h"

namespace py = pybind11;
using nlohmann::json;

namespace atl::python {

namespace {

template <class T>
T unwrap(Result<T> result) {
  return std::move(result).value_or_throw();
}

void check(const Status& status) {
  if (!status) throw status.error();
}

// JSON text from Python (json.dumps) as an object; `what` names the argument in errors.
json parse_object(const std::string& text, const std::string& what) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw Error(what + ": expected a dict");
  return j;
}

Vec3 to_vec3(const std::array<float, 3>& a) { return Vec3(a[0], a[1], a[2]); }
std::array<float, 3> from_vec3(const Vec3& v) { return {v.x(), v.y(), v.z()}; }
std::array<float, 4> from_quat(const Quat& q) { return {q.x(), q.y(), q.z(), q.w()}; }

const char* motion_name(MotionType type) {
  switch (type) {
    case MotionType::Static:
      return "static";
    case MotionType::Kinematic:
      return "kinematic";
    case MotionType::Dynamic:
      return "dynamic";
  }
  return "dynamic";
}

// ---------------------------------------------------------------------------------------------
// Scenes

// A scene description (a file, a built-in scene or a dict), with overrides and a seed applied.
struct PyScene {
  SceneDescription scene;
  std::string source;
  uint32_t seed = 0;
};

PyScene load_scene(const std::string& spec, const std::optional<std::string>& text) {
  PyScene out;
  if (text) {
    out.source = spec;
    out.scene = unwrap(read_scene_text(*text, spec));
    return out;
  }
  if (spec.empty()) throw Error("scene: empty name");
  std::error_code ec;
  if (std::filesystem::is_directory(spec, ec)) throw Error(spec + ": is a directory, not a scene");
  if (std::filesystem::is_regular_file(spec, ec)) {
    out.source = spec;
    out.scene = unwrap(read_scene_file(spec));
    return out;
  }
  if (std::optional<std::string_view> builtin = builtin_scene_text(spec)) {
    out.source = spec + " (built-in)";
    out.scene = unwrap(read_scene_text(*builtin, out.source));
    return out;
  }
  std::string names;
  for (std::string_view name : builtin_scene_names())
    names += (names.empty() ? "" : ", ") + std::string(name);
  throw Error(spec + ": no such scene file or built-in scene (built-ins: " + names + ")");
}

// The run summary of `atoll run --summary` (run/ writes it), as JSON text.
std::string run_scene_summary(const PyScene& scene, int steps, int threads) {
  if (steps < -1 || steps == 0) throw Error("steps: must be >= 1, got " + std::to_string(steps));
  if (threads < 1 || threads > static_cast<int>(ThreadPool::k_max_workers))
    throw Error("threads: must be in [1, " + std::to_string(ThreadPool::k_max_workers) + "], got " +
                std::to_string(threads));
  py::gil_scoped_release release;
  std::unique_ptr<ThreadPool> pool = unwrap(ThreadPool::create(static_cast<uint32_t>(threads)));
  std::unique_ptr<SceneWorld> world = unwrap(SceneWorld::create(scene.scene, scene.source));
  RunOptions options;
  options.steps = steps;
  options.jobs = pool.get();
  return summary_to_json(unwrap(run_scene(*world, options, scene.source)));
}

// A one-entry scene read by the scene reader: `what` is the source its errors start with.
SceneDescription read_fragment(const json& scene, const std::string& what) {
  return unwrap(read_scene_text(scene.dump(), what));
}

// PhysicsSettings (plus the scene-level dt and collision_steps) as a dict's JSON, every field of
// the field table.
json settings_json(const PhysicsSettings& settings, float dt, int collision_steps) {
  json out = json::object();
  out["dt"] = dt;
  out["collision_steps"] = collision_steps;
  const PhysicsSettings defaults;
  for (const fields::Field<PhysicsSettings>& field : physics_setting_fields())
    out[field.name] = json::parse(field.write(settings, defaults).dump());
  return out;
}

// ---------------------------------------------------------------------------------------------
// Shapes

struct PyShape {
  Ref<Shape> shape;
  /// The definition as given (JSON text).
  std::string definition;
};

PyShape make_shape(const std::string& definition_text) {
  json definition = parse_object(definition_text, "shape");
  SceneDescription scene = read_fragment(json{{"shapes", {{"shape", definition}}}}, "atoll.shape");
  PyShape out;
  out.shape = unwrap(build_shape(scene, scene.shapes.front().shape, "atoll.shape", "shape"));
  out.definition = definition.dump();
  return out;
}

// ---------------------------------------------------------------------------------------------
// World

// Buffers the contact events of the last step.
class EventBuffer final : public ContactListener {
 public:
  void on_contact_events(std::span<const ContactEvent> events) override {
    events_.insert(events_.end(), events.begin(), events.end());
  }
  std::vector<ContactEvent>& events() { return events_; }

 private:
  std::vector<ContactEvent> events_;
};

struct PyConstraint;
struct PySnapshot;

class PyWorld {
 public:
  // An empty world with `settings_text` (a JSON object of settings keys) applied.
  explicit PyWorld(const std::string& settings_text) {
    json settings = parse_object(settings_text, "settings");
    SceneDescription scene = read_fragment(json{{"settings", settings}}, "World");
    init(std::move(scene), "World");
  }
  PyWorld(const PyScene& scene, int threads) {
    set_threads(threads);
    init(scene.scene, scene.source);
  }
  ~PyWorld() {
    system().set_contact_listener(nullptr);
    recording_.reset();
  }
  PyWorld(const PyWorld&) = delete;
  PyWorld& operator=(const PyWorld&) = delete;

  PhysicsSystem& system() { return world_->system(); }
  BodyInterface& bodies() { return system().body_interface(); }

  void set_threads(int threads) {
    if (threads < 1 || threads > static_cast<int>(ThreadPool::k_max_workers))
      throw Error("threads: must be in [1, " + std::to_string(ThreadPool::k_max_workers) +
                  "], got " + std::to_string(threads));
    pool_ = threads > 1 ? unwrap(ThreadPool::create(static_cast<uint32_t>(threads))) : nullptr;
    threads_ = threads;
  }
  int threads() const { return threads_; }

  // Settings -------------------------------------------------------------------------------

  std::string settings() {
    return settings_json(system().settings(), dt_, collision_steps_).dump();
  }

  void set_settings(const std::string& changes_text) {
    json changes = parse_object(changes_text, "settings");
    json merged = settings_json(system().settings(), dt_, collision_steps_);
    for (auto it = changes.begin(); it != changes.end(); ++it) merged[it.key()] = it.value();
    SceneDescription scene = read_fragment(json{{"settings", merged}}, "World.set_settings");
    if (Status ok = system().set_settings(scene.physics); !ok)
      throw Error(std::string("World.set_settings: ") + ok.error().message());
    dt_ = scene.dt;
    collision_steps_ = scene.collision_steps;
  }
  float dt() const { return dt_; }

  // Bodies ---------------------------------------------------------------------------------

  uint32_t create_body(const PyShape& shape, const std::string& fields_text,
                       const std::optional<std::string>& name_in) {
    json body = parse_object(fields_text, "create_body");
    for (const char* reserved : {"name", "shape", "collision_group"})
      if (body.contains(reserved))
        throw Error(std::string("create_body: ") + reserved +
                    ": not a body field here (give the shape and the name as arguments; "
                    "collision groups need a scene)");
    const std::string name = name_in ? *name_in : "body" + std::to_string(next_body_number_);
    if (name.empty()) throw Error("create_body: name: must not be empty");
    if (by_name_.count(name) != 0)
      throw Error("create_body: name: a body named \"" + name + "\" exists already");
    body["name"] = "body";
    // A placeholder that the reader accepts; the body gets `shape` below.
    body["shape"] = json{{"type", "sphere"}, {"radius", 1.0}};
    SceneDescription scene = read_fragment(json{{"bodies", json::array({body})}}, "create_body");
    BodyCreationSettings settings = scene.bodies.front().settings;
    settings.shape = shape.shape;
    const BodyID id = unwrap(bodies().create_and_add_body(settings, Activation::Activate));
    ++next_body_number_;
    add_name(name, id);
    return id.value();
  }

  void remove_body(uint32_t raw) {
    const BodyID id = checked(raw);
    check(bodies().remove_body(id));
    check(bodies().destroy_body(id));
    for (size_t i = 0; i < ids_.size(); ++i)
      if (ids_[i] == id) {
        by_name_.erase(names_[i]);
        names_.erase(names_.begin() + static_cast<std::ptrdiff_t>(i));
        ids_.erase(ids_.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
    for (size_t i = 0; i < soft_ids_.size(); ++i)
      if (soft_ids_[i] == id) {
        soft_by_name_.erase(soft_names_[i]);
        soft_names_.erase(soft_names_.begin() + static_cast<std::ptrdiff_t>(i));
        soft_ids_.erase(soft_ids_.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
  }

  // Soft bodies ----------------------------------------------------------------------------

  // A soft body of the scene format (docs/scene-format.md, "Soft bodies"): `definition_text`
  // holds "type" and the type's and common keys; "attach" names bodies by ID.
  uint32_t create_soft_body(const std::string& definition_text,
                            const std::optional<std::string>& name_in) {
    json definition = parse_object(definition_text, "create_soft_body");
    if (definition.contains("name"))
      throw Error("create_soft_body: name: not a key here (give the name as an argument)");
    const std::string name =
        name_in ? *name_in : "soft_body" + std::to_string(next_soft_body_number_);
    if (name.empty()) throw Error("create_soft_body: name: must not be empty");
    if (soft_by_name_.count(name) != 0)
      throw Error("create_soft_body: name: a soft body named \"" + name + "\" exists already");
    definition["name"] = name;
    // The bodies "attach" ties to, by ID, stand in the fragment as placeholder bodies b0, b1, …
    json placeholders = json::array();
    std::vector<BodyID> attached;
    if (definition.contains("attach") && definition["attach"].is_array()) {
      for (size_t i = 0; i < definition["attach"].size(); ++i) {
        json& tie = definition["attach"][i];
        if (!tie.is_object() || !tie.contains("body")) continue;  // the reader says what is wrong
        if (!tie["body"].is_number_unsigned())
          throw Error("create_soft_body: attach[" + std::to_string(i) +
                      "].body: expected a body ID, got " + tie["body"].dump());
        const BodyID id = checked(tie["body"].get<uint32_t>());
        if (system().soft_body(id) != nullptr)
          throw Error("create_soft_body: attach[" + std::to_string(i) +
                      "].body: is a soft body; attach ties vertices to rigid bodies");
        tie["body"] = "b" + std::to_string(attached.size());
        placeholders.push_back(
            json{{"name", tie["body"]}, {"shape", {{"type", "sphere"}, {"radius", 1.0}}}});
        attached.push_back(id);
      }
    }
    json fragment{{"soft_bodies", json::array({definition})}};
    if (!placeholders.empty()) fragment["bodies"] = placeholders;
    SceneDescription scene = read_fragment(fragment, "create_soft_body");
    SceneSoftBody built = unwrap(build_scene_soft_body(scene.soft_bodies.front()));
    SoftBodyCreationSettings settings;
    settings.settings = built.settings;
    for (const auto& [vertex, placeholder] : built.ties)
      settings.ties.push_back({vertex, attached[std::stoul(placeholder.substr(1))]});
    const BodyID id = unwrap(system().body_interface().create_soft_body(settings));
    if (Status added = bodies().add_body(id, Activation::Activate); !added) {
      (void)bodies().destroy_body(id);
      throw added.error();
    }
    ++next_soft_body_number_;
    add_soft_name(name, id);
    return id.value();
  }
  uint32_t soft_body(const std::string& name) const {
    auto it = soft_by_name_.find(name);
    if (it == soft_by_name_.end()) throw Error("soft_body: no soft body named \"" + name + "\"");
    return it->second.value();
  }
  const std::vector<std::string>& soft_body_names() const { return soft_names_; }
  const SoftBody& checked_soft(uint32_t raw, const char* call) {
    const SoftBody* soft = system().soft_body(BodyID(raw));
    if (soft == nullptr)
      throw Error(std::string(call) + ": body " + format_body_id(BodyID(raw)) +
                  " is not a soft body of this world");
    return *soft;
  }
  // The vertices' positions (m) as an (n, 3) array.
  py::array_t<double> soft_body_positions(uint32_t raw) {
    const SoftBody& soft = checked_soft(raw, "get_soft_body_positions");
    py::array_t<double> out({static_cast<py::ssize_t>(soft.vertex_count()), py::ssize_t(3)});
    auto view = out.mutable_unchecked<2>();
    for (uint32_t i = 0; i < soft.vertex_count(); ++i)
      for (int k = 0; k < 3; ++k) view(i, k) = soft.positions()[i][k];
    return out;
  }
  // The run summary's measures of one soft body, and whether it sleeps.
  py::dict soft_body_info(uint32_t raw) {
    const SoftBody& soft = checked_soft(raw, "soft_body_info");
    const auto list = [](const Vec3& v) { return py::make_tuple(v.x(), v.y(), v.z()); };
    py::dict d;
    d["vertex_count"] = soft.vertex_count();
    d["center_of_mass"] = list(soft.center_of_mass());
    const AABox bounds = soft.bounds();
    d["bounds"] = py::make_tuple(list(bounds.min), list(bounds.max));
    d["max_strain"] = soft.max_strain();
    d["volume"] = soft.volume();
    d["sleeping"] = system().is_soft_body_sleeping(BodyID(raw));
    return d;
  }

  uint32_t body(const std::string& name) const {
    auto it = by_name_.find(name);
    if (it == by_name_.end()) throw Error("body: no body named \"" + name + "\"");
    return it->second.value();
  }
  std::string body_name(uint32_t raw) const {
    for (size_t i = 0; i < ids_.size(); ++i)
      if (ids_[i].value() == raw) return names_[i];
    // Queries find soft bodies too.
    for (size_t i = 0; i < soft_ids_.size(); ++i)
      if (soft_ids_[i].value() == raw) return soft_names_[i];
    return format_body_id(BodyID(raw));
  }
  const std::vector<std::string>& names() const { return names_; }
  std::vector<uint32_t> ids() const {
    std::vector<uint32_t> out;
    for (BodyID id : ids_) out.push_back(id.value());
    return out;
  }

  // The body `raw`, or an error naming it.
  BodyID checked(uint32_t raw) {
    const BodyID id(raw);
    unwrap(bodies().body(id));
    return id;
  }

  py::dict state(uint32_t raw) {
    const BodyID id = checked(raw);
    const Body* b = unwrap(bodies().body(id));
    py::dict d;
    d["name"] = body_name(raw);
    d["position"] = from_vec3(b->position());
    d["rotation"] = from_quat(b->rotation());
    d["linear_velocity"] = from_vec3(b->linear_velocity());
    d["angular_velocity"] = from_vec3(b->angular_velocity());
    d["active"] = b->is_active();
    d["motion"] = motion_name(b->motion_type());
    d["friction"] = unwrap(bodies().friction(id));
    d["restitution"] = unwrap(bodies().restitution(id));
    return d;
  }

  // Sets what is given; all or nothing (a value the engine refuses puts back what was set).
  void set_state(uint32_t raw, const std::optional<std::array<float, 3>>& position,
                 const std::optional<std::array<float, 4>>& rotation,
                 const std::optional<std::array<float, 3>>& linear_velocity,
                 const std::optional<std::array<float, 3>>& angular_velocity) {
    const BodyID id = checked(raw);
    const Body* b = unwrap(bodies().body(id));
    const Vec3 old_position = b->position(), old_v = b->linear_velocity(),
               old_w = b->angular_velocity();
    const Quat old_rotation = b->rotation();
    const auto restore = [&] {
      (void)bodies().set_position_and_rotation(id, old_position, old_rotation);
      if (b->motion_type() != MotionType::Static) {
        (void)bodies().set_linear_velocity(id, old_v);
        (void)bodies().set_angular_velocity(id, old_w);
      }
    };
    const auto attempt = [&](Status status) {
      if (!status) {
        restore();
        throw status.error();
      }
    };
    if (position || rotation) {
      const Vec3 p = position ? to_vec3(*position) : old_position;
      const Quat q = rotation ? Quat((*rotation)[0], (*rotation)[1], (*rotation)[2], (*rotation)[3])
                              : old_rotation;
      attempt(bodies().set_position_and_rotation(id, p, q));
    }
    if (linear_velocity) attempt(bodies().set_linear_velocity(id, to_vec3(*linear_velocity)));
    if (angular_velocity) attempt(bodies().set_angular_velocity(id, to_vec3(*angular_velocity)));
  }

  void add_force(uint32_t raw, const std::array<float, 3>& f) {
    check(bodies().add_force(checked(raw), to_vec3(f)));
  }
  void add_impulse(uint32_t raw, const std::array<float, 3>& j) {
    check(bodies().add_impulse(checked(raw), to_vec3(j)));
  }
  void add_torque(uint32_t raw, const std::array<float, 3>& t) {
    check(bodies().add_torque(checked(raw), to_vec3(t)));
  }
  void activate(uint32_t raw) { check(bodies().activate(checked(raw))); }
  void set_friction(uint32_t raw, float friction) {
    check(bodies().set_friction(checked(raw), friction));
  }
  void set_restitution(uint32_t raw, float restitution) {
    check(bodies().set_restitution(checked(raw), restitution));
  }

  // Many bodies at once ------------------------------------------------------------------

  enum class Quantity { Position, Rotation, LinearVelocity, AngularVelocity };
  static const char* quantity_name(Quantity q) {
    switch (q) {
      case Quantity::Position:
        return "positions";
      case Quantity::Rotation:
        return "rotations";
      case Quantity::LinearVelocity:
        return "linear_velocities";
      case Quantity::AngularVelocity:
        return "angular_velocities";
    }
    return "";
  }

  std::vector<BodyID> id_list(const std::optional<std::vector<uint32_t>>& raw) {
    std::vector<BodyID> out;
    if (!raw) return ids_;
    for (size_t i = 0; i < raw->size(); ++i) {
      const BodyID id((*raw)[i]);
      if (Result<const Body*> found = bodies().body(id); !found)
        throw Error("ids[" + std::to_string(i) + "]: " + found.error().message());
      out.push_back(id);
    }
    return out;
  }

  py::array_t<double> get_many(Quantity q, const std::optional<std::vector<uint32_t>>& raw) {
    const std::vector<BodyID> list = id_list(raw);
    const py::ssize_t width = q == Quantity::Rotation ? 4 : 3;
    py::array_t<double> out({static_cast<py::ssize_t>(list.size()), width});
    auto view = out.mutable_unchecked<2>();
    for (size_t i = 0; i < list.size(); ++i) {
      const Body* b = unwrap(bodies().body(list[i]));
      const py::ssize_t r = static_cast<py::ssize_t>(i);
      if (q == Quantity::Rotation) {
        const Quat v = b->rotation();
        view(r, 0) = v.x();
        view(r, 1) = v.y();
        view(r, 2) = v.z();
        view(r, 3) = v.w();
        continue;
      }
      const Vec3 v = q == Quantity::Position         ? b->position()
                     : q == Quantity::LinearVelocity ? b->linear_velocity()
                                                     : b->angular_velocity();
      for (int c = 0; c < 3; ++c) view(r, c) = v[c];
    }
    return out;
  }

  // All or nothing: the shape is checked first, then each body in turn; a row the engine
  // refuses puts the rows before it back.
  void set_many(Quantity q, const std::optional<std::vector<uint32_t>>& raw,
                const py::array_t<double, py::array::c_style | py::array::forcecast>& values) {
    const std::vector<BodyID> list = id_list(raw);
    const py::ssize_t width = q == Quantity::Rotation ? 4 : 3;
    const std::string what = std::string("set_") + quantity_name(q);
    if (values.ndim() != 2 || values.shape(0) != static_cast<py::ssize_t>(list.size()) ||
        values.shape(1) != width)
      throw Error(what + ": values: expected an array of shape (" + std::to_string(list.size()) +
                  ", " + std::to_string(width) + ")");
    auto view = values.unchecked<2>();
    struct Old {
      BodyID id;
      Vec3 position, v, w;
      Quat rotation;
    };
    std::vector<Old> done;
    const auto restore = [&] {
      for (auto it = done.rbegin(); it != done.rend(); ++it) {
        (void)bodies().set_position_and_rotation(it->id, it->position, it->rotation);
        (void)bodies().set_linear_velocity(it->id, it->v);
        (void)bodies().set_angular_velocity(it->id, it->w);
      }
    };
    for (size_t i = 0; i < list.size(); ++i) {
      const Body* b = unwrap(bodies().body(list[i]));
      const py::ssize_t r = static_cast<py::ssize_t>(i);
      const Vec3 v(static_cast<float>(view(r, 0)), static_cast<float>(view(r, 1)),
                   static_cast<float>(view(r, 2)));
      Old old{list[i], b->position(), b->linear_velocity(), b->angular_velocity(), b->rotation()};
      Status status = Ok{};
      switch (q) {
        case Quantity::Position:
          status = bodies().set_position(list[i], v);
          break;
        case Quantity::Rotation:
          status = bodies().set_rotation(list[i],
                                         Quat(v.x(), v.y(), v.z(), static_cast<float>(view(r, 3))));
          break;
        case Quantity::LinearVelocity:
          status = bodies().set_linear_velocity(list[i], v);
          break;
        case Quantity::AngularVelocity:
          status = bodies().set_angular_velocity(list[i], v);
          break;
      }
      if (!status) {
        restore();
        throw Error(what + ": row " + std::to_string(i) + " (body \"" + body_name(list[i].value()) +
                    "\"): " + status.error().message());
      }
      done.push_back(old);
    }
  }

  // Constraints ----------------------------------------------------------------------------

  std::shared_ptr<PyConstraint> add_constraint(const std::string& definition_text,
                                               std::optional<uint32_t> body1,
                                               std::optional<uint32_t> body2,
                                               const std::optional<std::string>& name);
  void remove_constraint(PyConstraint& constraint);

  // Rollback snapshots ---------------------------------------------------------------------

  // The whole world (bodies, IDs, constraints, contacts; state/WorldSnapshot.h) and the names
  // this object keeps, into `into` when given (its buffers are reused) or a new snapshot.
  std::shared_ptr<PySnapshot> save_snapshot(std::shared_ptr<PySnapshot> into);
  // Back to the world `snapshot` was taken of: bodies and constraints made or removed since
  // are undone, names included. Refused while recording.
  void restore_snapshot(const PySnapshot& snapshot);

  // Queries --------------------------------------------------------------------------------

  py::object cast_ray(const std::array<float, 3>& origin, const std::array<float, 3>& direction) {
    std::optional<RayHit> hit =
        unwrap(WorldQuery(system()).cast_ray(to_vec3(origin), to_vec3(direction)));
    if (!hit) return py::none();
    return hit_dict(*hit, origin, direction);
  }
  py::list cast_ray_all(const std::array<float, 3>& origin, const std::array<float, 3>& direction) {
    py::list out;
    for (const RayHit& hit :
         unwrap(WorldQuery(system()).cast_ray_all(to_vec3(origin), to_vec3(direction))))
      out.append(hit_dict(hit, origin, direction));
    return out;
  }
  std::vector<uint32_t> collide_point(const std::array<float, 3>& point) {
    std::vector<uint32_t> out;
    for (BodyID id : unwrap(WorldQuery(system()).collide_point(to_vec3(point))))
      out.push_back(id.value());
    return out;
  }
  std::vector<uint32_t> collide_box(const std::array<float, 3>& min,
                                    const std::array<float, 3>& max) {
    for (int c = 0; c < 3; ++c)
      if (!(min[static_cast<size_t>(c)] <= max[static_cast<size_t>(c)]))
        throw Error("collide_box: min[" + std::to_string(c) + "]: must be <= max");
    std::vector<uint32_t> out;
    for (BodyID id : unwrap(WorldQuery(system()).collide_aabox(AABox(to_vec3(min), to_vec3(max)))))
      out.push_back(id.value());
    return out;
  }

  // Stepping -------------------------------------------------------------------------------

  py::dict step(std::optional<float> dt, std::optional<int> collision_steps) {
    const float step_dt = dt.value_or(dt_);
    const int steps = collision_steps.value_or(collision_steps_);
    events_.events().clear();
    Result<UpdateResult> result = [&] {
      py::gil_scoped_release release;
      return system().update(step_dt, steps, pool_.get());
    }();
    if (!result) throw result.error();
    if (recording_) {
      add_recording_frame();
      ++recorded_frames_;
    }
    py::dict d;
    d["active_bodies"] = result->num_active_bodies;
    d["islands"] = result->num_islands;
    d["contact_points"] = result->num_contact_points;
    d["max_penetration_m"] = result->max_penetration;
    std::vector<uint32_t> quarantined;
    for (BodyID id : result->quarantined) quarantined.push_back(id.value());
    d["quarantined"] = quarantined;
    d["warning"] = result->ok() ? std::string() : result->to_string();
    return d;
  }

  py::list contact_events() {
    py::list out;
    for (const ContactEvent& e : events_.events()) {
      py::dict d;
      d["type"] = e.type == ContactEventType::Added       ? "added"
                  : e.type == ContactEventType::Persisted ? "persisted"
                                                          : "removed";
      d["body1"] = e.body1.value();
      d["body2"] = e.body2.value();
      d["name1"] = body_name(e.body1.value());
      d["name2"] = body_name(e.body2.value());
      d["normal"] = from_vec3(e.normal);
      d["point"] = from_vec3(e.point);
      d["penetration_depth"] = e.penetration_depth;
      d["collision_step"] = e.collision_step;
      out.append(d);
    }
    return out;
  }

  std::string state_hash() { return hash_to_hex(system().state_hash()); }

  // Runs the world's scene (events, probes) for `steps` from the current state; the summary
  // of `atoll run --summary`.
  std::string run(int steps) {
    if (steps < 1) throw Error("run: steps: must be >= 1, got " + std::to_string(steps));
    if (recording_) throw Error("run: a recording is open (finish_recording first)");
    RunOptions options;
    options.steps = steps;
    options.jobs = pool_.get();
    // The run's contact events are not kept (contact_events() reports step()'s only).
    events_.events().clear();
    system().set_contact_listener(nullptr);
    Result<RunSummary> summary = [&] {
      py::gil_scoped_release release;
      return run_scene(*world_, options, source_);
    }();
    system().set_contact_listener(&events_);
    return summary_to_json(unwrap(std::move(summary)));
  }

  // Recording ------------------------------------------------------------------------------

  void start_recording(const std::filesystem::path& path, int steps) {
    if (recording_) throw Error("start_recording: a recording is open already");
    if (steps < 0)
      throw Error("start_recording: steps: must be >= 0, got " + std::to_string(steps));
    std::vector<RecordedConstraint> constraints = recorded_constraints(*world_);
    // The soft bodies alive now are recorded (one made later is not in this recording).
    recorded_soft_ids_ = soft_ids_;
    const std::vector<RecordedSoftBody> soft_bodies =
        recorded_soft_bodies(system(), recorded_soft_ids_, soft_names_);
    recording_ = unwrap(RecordingWriter::create(path, system().bodies(), ids_, names_, dt_, steps,
                                                source_, constraints, {}, soft_bodies));
    add_recording_frame();
    recorded_frames_ = 1;
  }
  void finish_recording() {
    if (!recording_) throw Error("finish_recording: no recording is open");
    std::unique_ptr<RecordingWriter> writer = std::move(recording_);
    check(writer->finish());
  }

  const std::string& source() const { return source_; }

 private:
  // A frame of the open recording: the bodies, and the recorded soft bodies' vertices.
  void add_recording_frame() {
    recorded_soft_body_frames(system(), recorded_soft_ids_, soft_frames_);
    RecordingFrameInfo info;
    info.soft_bodies = soft_frames_;
    recording_->add_frame(system().bodies(), info);
  }
  void init(SceneDescription scene, const std::string& source) {
    source_ = source;
    dt_ = scene.dt;
    collision_steps_ = scene.collision_steps;
    world_ = unwrap(SceneWorld::create(scene, source));
    for (size_t i = 0; i < world_->body_ids().size(); ++i)
      add_name(world_->body_names()[i], world_->body_ids()[i]);
    for (size_t i = 0; i < world_->soft_body_ids().size(); ++i)
      add_soft_name(world_->scene().soft_bodies[i].name, world_->soft_body_ids()[i]);
    system().set_contact_listener(&events_);
  }
  void add_soft_name(const std::string& name, BodyID id) {
    soft_names_.push_back(name);
    soft_ids_.push_back(id);
    soft_by_name_.emplace(name, id);
  }
  void add_name(const std::string& name, BodyID id) {
    names_.push_back(name);
    ids_.push_back(id);
    by_name_.emplace(name, id);
  }
  py::dict hit_dict(const RayHit& hit, const std::array<float, 3>& origin,
                    const std::array<float, 3>& direction) {
    py::dict d;
    d["body"] = hit.body.value();
    d["name"] = body_name(hit.body.value());
    d["fraction"] = hit.fraction;
    const Vec3 point = to_vec3(origin) + to_vec3(direction) * hit.fraction;
    d["point"] = from_vec3(point);
    d["normal"] = from_vec3(hit.normal);
    return d;
  }

  std::unique_ptr<SceneWorld> world_;
  std::string source_;
  float dt_ = SceneDescription::k_default_dt;
  int collision_steps_ = 1;
  int threads_ = 1;
  std::unique_ptr<ThreadPool> pool_;
  EventBuffer events_;
  std::vector<std::string> names_;
  std::vector<BodyID> ids_;
  std::map<std::string, BodyID, std::less<>> by_name_;
  int next_body_number_ = 0;
  // The soft bodies' names and IDs (from the scene, then create_soft_body).
  std::vector<std::string> soft_names_;
  std::vector<BodyID> soft_ids_;
  std::map<std::string, BodyID, std::less<>> soft_by_name_;
  int next_soft_body_number_ = 0;
  std::unique_ptr<RecordingWriter> recording_;
  int recorded_frames_ = 0;
  // The soft bodies the open recording holds, and the frame's view of their vertices.
  std::vector<BodyID> recorded_soft_ids_;
  std::vector<RecordingSoftBodyFrame> soft_frames_;

 public:
  std::map<std::string, std::shared_ptr<PyConstraint>, std::less<>> constraints_;
};

// A constraint made from Python.
struct PyConstraint {
  Ref<Constraint> constraint;
  std::string name;
  std::string type;
  bool added = true;

  py::dict total_lambda() const {
    fields::LambdaParts parts;
    fields::find_constraint_type(constraint->sub_type())->total_lambda(*constraint, parts);
    py::dict d;
    for (const auto& [part, values] : parts) {
      if (values.size() == 1)
        d[py::str(part)] = values[0];
      else
        d[py::str(part)] = values;
    }
    return d;
  }
};

std::shared_ptr<PyConstraint> PyWorld::add_constraint(const std::string& definition_text,
                                                      std::optional<uint32_t> body1,
                                                      std::optional<uint32_t> body2,
                                                      const std::optional<std::string>& name_in) {
  json definition = parse_object(definition_text, "add_constraint");
  for (const char* reserved : {"name", "body1", "body2"})
    if (definition.contains(reserved))
      throw Error(std::string("add_constraint: ") + reserved +
                  ": give it as an argument, not in the definition");
  const std::string name = name_in ? *name_in : "constraint" + std::to_string(constraints_.size());
  if (name.empty() || constraints_.count(name) != 0)
    throw Error("add_constraint: name: \"" + name + "\" is empty or taken");
  const BodyID id1 = body1 ? checked(*body1) : Constraint::k_world;
  const BodyID id2 = body2 ? checked(*body2) : Constraint::k_world;
  // Placeholder bodies "a" and "b" stand for the real ones while the reader checks the keys;
  // the engine then creates the constraint between the real bodies.
  const json placeholder = {{"type", "sphere"}, {"radius", 0.5}};
  definition["name"] = name;
  definition["body1"] = body1 ? "a" : "world";
  definition["body2"] = body2 ? "b" : "world";
  // The constraints a gear or rack_and_pinion names (constraint1, constraint2) stand in the
  // fragment as placeholders, so that the reader accepts the names; the real ones are found
  // when the constraint is made (below), with their types checked.
  json list = json::array();
  for (const char* reference : {"constraint1", "constraint2"}) {
    const auto it = definition.find(reference);
    if (it == definition.end() || !it->is_string()) continue;
    const std::string other = it->get<std::string>();
    bool listed = false;
    for (const json& c : list) listed |= c["name"] == other;
    if (!listed && other != name)
      list.push_back({{"name", other},
                      {"type", "point"},
                      {"body1", "a"},
                      {"body2", "b"},
                      {"point", {0, 1, 0}}});
  }
  list.push_back(definition);
  SceneDescription scene = read_fragment(
      json{{"bodies",
            json::array({{{"name", "a"}, {"shape", placeholder}},
                         {{"name", "b"}, {"shape", placeholder}, {"position", {0, 2, 0}}}})},
           {"constraints", std::move(list)}},
      "add_constraint");
  const ConstraintDesc& desc = scene.constraints.back();
  const fields::ConstraintType* type = fields::find_constraint_type(desc.type);
  if (type == nullptr) throw Error("add_constraint: type: not supported");
  // gear and rack_and_pinion name the hinges / slider they couple: one made by add_constraint
  // (and not removed), else one of the scene's.
  const fields::ConstraintBuild build{bodies(), id1, id2,
                                      [this](std::string_view other) -> Ref<Constraint> {
                                        const auto made = constraints_.find(other);
                                        if (made != constraints_.end())
                                          return made->second->constraint;
                                        return world_->constraint(other);
                                      }};
  Ref<Constraint> made = unwrap(type->create(*desc.settings, build));
  check(system().add_constraint(made));
  auto out = std::make_shared<PyConstraint>();
  out->constraint = made;
  out->name = name;
  out->type = to_string(desc.type);
  constraints_.emplace(name, out);
  return out;
}

void PyWorld::remove_constraint(PyConstraint& constraint) {
  if (!constraint.added) throw Error("remove_constraint: \"" + constraint.name + "\" was removed");
  check(system().remove_constraint(constraint.constraint));
  constraint.added = false;
  constraints_.erase(constraint.name);
}

// A rollback snapshot of a PyWorld: the engine's, plus the names the PyWorld keeps.
struct PySnapshot {
  WorldSnapshot world;
  const PyWorld* owner = nullptr;
  std::vector<std::string> names;
  std::vector<BodyID> ids;
  std::map<std::string, BodyID, std::less<>> by_name;
  int next_body_number = 0;
  std::vector<std::string> soft_names;
  std::vector<BodyID> soft_ids;
  std::map<std::string, BodyID, std::less<>> soft_by_name;
  int next_soft_body_number = 0;
  std::map<std::string, std::shared_ptr<PyConstraint>, std::less<>> constraints;
  size_t bytes() const { return world.bytes(); }
};

std::shared_ptr<PySnapshot> PyWorld::save_snapshot(std::shared_ptr<PySnapshot> into) {
  std::shared_ptr<PySnapshot> snapshot =
      into != nullptr ? std::move(into) : std::make_shared<PySnapshot>();
  check(system().save_snapshot(snapshot->world));
  snapshot->owner = this;
  snapshot->names = names_;
  snapshot->ids = ids_;
  snapshot->by_name = by_name_;
  snapshot->next_body_number = next_body_number_;
  snapshot->soft_names = soft_names_;
  snapshot->soft_ids = soft_ids_;
  snapshot->soft_by_name = soft_by_name_;
  snapshot->next_soft_body_number = next_soft_body_number_;
  snapshot->constraints = constraints_;
  return snapshot;
}

void PyWorld::restore_snapshot(const PySnapshot& snapshot) {
  if (recording_) throw Error("restore_snapshot: a recording is open (finish_recording first)");
  if (snapshot.owner != this) throw Error("restore_snapshot: snapshot: was taken of another World");
  check(system().restore_snapshot(snapshot.world));
  names_ = snapshot.names;
  ids_ = snapshot.ids;
  by_name_ = snapshot.by_name;
  next_body_number_ = snapshot.next_body_number;
  soft_names_ = snapshot.soft_names;
  soft_ids_ = snapshot.soft_ids;
  soft_by_name_ = snapshot.soft_by_name;
  next_soft_body_number_ = snapshot.next_soft_body_number;
  constraints_ = snapshot.constraints;
  // A constraint object is in the world again exactly when the snapshot had it.
  for (auto& [name, constraint] : constraints_) {
    const uint32_t index = constraint->constraint->index();
    constraint->added = index < system().constraints().size() &&
                        system().constraints()[index].get() == constraint->constraint.get();
  }
  events_.events().clear();
}

// Recording -> dict with numpy arrays.
py::dict read_recording_dict(const std::filesystem::path& path) {
  Recording recording = unwrap(read_recording(path));
  const size_t frames = recording.num_frames();
  const size_t bodies = recording.header.bodies.size();
  const auto f = static_cast<py::ssize_t>(frames), b = static_cast<py::ssize_t>(bodies);
  py::array_t<float> positions({f, b, py::ssize_t(3)});
  py::array_t<float> rotations({f, b, py::ssize_t(4)});
  py::array_t<uint8_t> flags({f, b});
  auto p = positions.mutable_unchecked<3>();
  auto q = rotations.mutable_unchecked<3>();
  auto fl = flags.mutable_unchecked<2>();
  for (py::ssize_t i = 0; i < f; ++i)
    for (py::ssize_t k = 0; k < b; ++k) {
      const RecordedBodyState s = recording.state(size_t(i), size_t(k));
      for (int c = 0; c < 3; ++c) p(i, k, c) = s.position[c];
      q(i, k, 0) = s.rotation.x();
      q(i, k, 1) = s.rotation.y();
      q(i, k, 2) = s.rotation.z();
      q(i, k, 3) = s.rotation.w();
      fl(i, k) = s.flags;
    }
  py::dict d;
  d["source"] = recording.header.source;
  d["dt"] = recording.header.dt;
  d["steps"] = recording.header.steps;
  std::vector<std::string> names;
  for (const RecordedBody& body : recording.header.bodies) names.push_back(body.name);
  d["bodies"] = names;
  d["positions"] = positions;
  d["rotations"] = rotations;
  d["flags"] = flags;
  // Per soft body (version 3): its vertices in every frame, (frames, vertices, 3), and flags.
  py::dict soft_bodies;
  for (size_t j = 0; j < recording.header.soft_bodies.size(); ++j) {
    const RecordedSoftBody& soft = recording.header.soft_bodies[j];
    py::array_t<float> vertices({f, static_cast<py::ssize_t>(soft.vertex_count), py::ssize_t(3)});
    py::array_t<uint8_t> soft_flags(f);
    auto v = vertices.mutable_unchecked<3>();
    auto sf = soft_flags.mutable_unchecked<1>();
    for (py::ssize_t i = 0; i < f; ++i) {
      const RecordedSoftBodyState state = recording.soft_body_state(size_t(i), j);
      for (size_t k = 0; k < state.positions.size(); ++k)
        for (int c = 0; c < 3; ++c) v(i, py::ssize_t(k), c) = state.positions[k][c];
      sf(i) = state.flags;
    }
    py::dict entry;
    entry["positions"] = vertices;
    entry["flags"] = soft_flags;
    soft_bodies[py::str(soft.name)] = entry;
  }
  d["soft_bodies"] = soft_bodies;
  return d;
}

}  // namespace

}  // namespace atl::python

PYBIND11_MODULE(_atoll, m) {
  using namespace atl;
  using namespace atl::python;
  m.doc() =
      "Atoll's compiled core. Use the `atoll` package, which wraps it with dict and numpy "
      "conveniences; this module's API may change between versions.";
  py::register_exception<atl::Error>(m, "Error", PyExc_ValueError).doc() =
      "An error a user can cause (bad settings, shape, body, scene, ID): Atoll's message, "
      "naming the input. A ValueError; the call that raised it changed nothing.";

  m.def(
      "settings_fields",
      [] {
        std::vector<std::pair<std::string, std::string>> out;
        for (const fields::Field<PhysicsSettings>& f : physics_setting_fields())
          out.emplace_back(f.name, f.unit);
        return out;
      },
      "Names and units of every PhysicsSettings field (the settings field table), in order.");
  m.def(
      "builtin_scenes",
      [] {
        std::vector<std::string> out;
        for (std::string_view name : builtin_scene_names()) out.emplace_back(name);
        return out;
      },
      "Names of the built-in scenes.");
  m.def(
      "seed_jitter", [] { return std::make_pair(k_seed_position_jitter, k_seed_velocity_jitter); },
      "The largest position (m) and linear velocity (m/s) offset per component of a seed.");

  py::class_<PyScene>(m, "Scene", "A scene description with overrides and a seed applied.")
      .def_readonly("source", &PyScene::source, "Where the scene came from (errors start with it).")
      .def_readonly("seed", &PyScene::seed, "The seed applied (0: none).")
      .def_property_readonly(
          "steps", [](const PyScene& s) { return s.scene.steps; }, "The scene's default steps.")
      .def_property_readonly(
          "body_names",
          [](const PyScene& s) {
            std::vector<std::string> out;
            for (const BodyDesc& b : s.scene.bodies) out.push_back(b.name);
            return out;
          },
          "Body names in creation order (generated bodies included).")
      .def(
          "set",
          [](PyScene& s, const std::string& assignment) {
            check(apply_override(s.scene, assignment));
          },
          py::arg("assignment"),
          "Applies one `atoll run --set` override \"KEY=VALUE\"; error: unchanged.")
      .def(
          "perturb",
          [](PyScene& s, int64_t seed) {
            if (seed < 0 || seed > int64_t(UINT32_MAX))
              throw Error("seed: must be in [0, 4294967295], got " + std::to_string(seed));
            if (s.seed != 0) throw Error("seed: the scene has a seed already");
            perturb_scene(s.scene, static_cast<uint32_t>(seed));
            s.seed = static_cast<uint32_t>(seed);
          },
          py::arg("seed"), "Perturbs the initial state for `seed` (docs/sweeps.md); 0: nothing.")
      .def(
          "to_json", [](const PyScene& s) { return write_scene_json(s.scene); },
          "The scene as JSON scene text (generators expanded).");
  m.def("load_scene", &load_scene, py::arg("spec"), py::arg("text") = py::none(),
        "Reads a scene: JSON `text` named `spec` in errors, else the file or built-in scene "
        "`spec`.");
  m.def("run_scene", &run_scene_summary, py::arg("scene"), py::arg("steps") = -1,
        py::arg("threads") = 1,
        "Builds and runs the scene; the `atoll run --summary` JSON text. Releases the GIL.");

  py::class_<PyShape>(m, "Shape", "A collision shape (immutable, shareable between bodies).")
      .def_readonly("definition", &PyShape::definition, "The definition as JSON text.")
      .def_property_readonly(
          "type", [](const PyShape& s) { return shape_sub_type_name(s.shape->sub_type()); },
          "Scene-format type name (\"box\", \"convex_hull\", \"mesh\", …).")
      .def_property_readonly(
          "mass", [](const PyShape& s) { return s.shape->mass_properties().mass; },
          "Mass (kg) at the shape's density.")
      .def_property_readonly(
          "center_of_mass", [](const PyShape& s) { return from_vec3(s.shape->center_of_mass()); },
          "Centre of mass (m) in shape space.")
      .def_property_readonly(
          "bounds",
          [](const PyShape& s) {
            const AABox box = s.shape->local_bounds();
            return std::make_pair(from_vec3(box.min), from_vec3(box.max));
          },
          "Local bounding box (min, max) in m.");
  m.def("make_shape", &make_shape, py::arg("definition"),
        "A shape from a scene-format shape definition (JSON text).");

  py::class_<PyConstraint, std::shared_ptr<PyConstraint>>(m, "Constraint",
                                                          "A constraint between two bodies.")
      .def_readonly("name", &PyConstraint::name, "Name (unique in its world).")
      .def_readonly("type", &PyConstraint::type, "Scene type name (\"hinge\", …).")
      .def_property(
          "enabled", [](const PyConstraint& c) { return c.constraint->is_enabled(); },
          [](PyConstraint& c, bool on) { c.constraint->set_enabled(on); },
          "Whether the solver applies it; enabling restarts its impulses from 0.")
      .def("total_lambda", &PyConstraint::total_lambda,
           "The last step's impulse per part (N·s or N·m·s).");

  using Q = PyWorld::Quantity;
  py::class_<PyWorld>(m, "World", "A physics world.")
      .def(py::init<const std::string&>(), py::arg("settings"),
           "An empty world with settings (JSON object text).")
      .def(py::init<const PyScene&, int>(), py::arg("scene"), py::arg("threads") = 1,
           "The world of a scene.")
      .def_property_readonly("settings", &PyWorld::settings, "Every setting as JSON text.")
      .def("set_settings", &PyWorld::set_settings, py::arg("changes"),
           "Changes settings (JSON object text); error: unchanged.")
      .def_property_readonly("dt", &PyWorld::dt, "Default step length (s).")
      .def_property("threads", &PyWorld::threads, &PyWorld::set_threads,
                    "Worker threads of step() (the caller included).")
      .def_property_readonly("source", &PyWorld::source, "Scene source name.")
      .def("create_body", &PyWorld::create_body, py::arg("shape"), py::arg("fields"),
           py::arg("name") = py::none(), "Creates and adds a body; its ID.")
      .def("remove_body", &PyWorld::remove_body, py::arg("id"),
           "Removes and destroys a body (a soft body too).")
      .def("create_soft_body", &PyWorld::create_soft_body, py::arg("definition"),
           py::arg("name") = py::none(), "Creates and adds a soft body; returns its ID.")
      .def("soft_body", &PyWorld::soft_body, py::arg("name"), "The ID of the soft body `name`.")
      .def("soft_body_names", &PyWorld::soft_body_names, "Soft body names in creation order.")
      .def("soft_body_positions", &PyWorld::soft_body_positions, py::arg("id"),
           "The soft body's vertex positions as an (n, 3) array.")
      .def("soft_body_info", &PyWorld::soft_body_info, py::arg("id"),
           "The soft body's vertex count, centre of mass, bounds, max strain, volume, sleep.")
      .def("body", &PyWorld::body, py::arg("name"), "The ID of the body `name`.")
      .def("body_name", &PyWorld::body_name, py::arg("id"), "The name of body `id`.")
      .def_property_readonly("body_names", &PyWorld::names, "Names, in creation order.")
      .def_property_readonly("body_ids", &PyWorld::ids, "IDs, in creation order.")
      .def("get_state", &PyWorld::state, py::arg("id"), "The body's state as a dict.")
      .def("set_state", &PyWorld::set_state, py::arg("id"), py::arg("position") = py::none(),
           py::arg("rotation") = py::none(), py::arg("linear_velocity") = py::none(),
           py::arg("angular_velocity") = py::none(), "Sets what is given; all or nothing.")
      .def("add_force", &PyWorld::add_force, py::arg("id"), py::arg("force"),
           "Adds a force (N) at the centre of mass for the next step.")
      .def("add_impulse", &PyWorld::add_impulse, py::arg("id"), py::arg("impulse"),
           "Applies an impulse (N·s) at the centre of mass now.")
      .def("add_torque", &PyWorld::add_torque, py::arg("id"), py::arg("torque"),
           "Adds a torque (N·m) for the next step.")
      .def("activate", &PyWorld::activate, py::arg("id"), "Wakes the body.")
      .def("set_friction", &PyWorld::set_friction, py::arg("id"), py::arg("friction"),
           "Sets the friction coefficient (>= 0).")
      .def("set_restitution", &PyWorld::set_restitution, py::arg("id"), py::arg("restitution"),
           "Sets the restitution in [0, 1].")
      .def(
          "get_many",
          [](PyWorld& w, const std::string& what, const std::optional<std::vector<uint32_t>>& ids) {
            for (Q q : {Q::Position, Q::Rotation, Q::LinearVelocity, Q::AngularVelocity})
              if (what == PyWorld::quantity_name(q)) return w.get_many(q, ids);
            throw Error("unknown quantity \"" + what + "\"");
          },
          py::arg("what"), py::arg("ids") = py::none(),
          "positions / rotations / linear_velocities / angular_velocities of many bodies.")
      .def(
          "set_many",
          [](PyWorld& w, const std::string& what, const std::optional<std::vector<uint32_t>>& ids,
             const py::array_t<double, py::array::c_style | py::array::forcecast>& values) {
            for (Q q : {Q::Position, Q::Rotation, Q::LinearVelocity, Q::AngularVelocity})
              if (what == PyWorld::quantity_name(q)) return w.set_many(q, ids, values);
            throw Error("unknown quantity \"" + what + "\"");
          },
          py::arg("what"), py::arg("ids"), py::arg("values"),
          "Sets a quantity of many bodies; all or nothing.")
      .def("add_constraint", &PyWorld::add_constraint, py::arg("definition"), py::arg("body1"),
           py::arg("body2"), py::arg("name") = py::none(),
           "A constraint from a scene-format definition (JSON text); None = the world.")
      .def("remove_constraint", &PyWorld::remove_constraint, py::arg("constraint"),
           "Removes a constraint made by add_constraint.")
      .def("cast_ray", &PyWorld::cast_ray, py::arg("origin"), py::arg("direction"),
           "The closest hit of origin + t·direction, t in [0, 1], or None.")
      .def("cast_ray_all", &PyWorld::cast_ray_all, py::arg("origin"), py::arg("direction"),
           "Every hit, by fraction.")
      .def("collide_point", &PyWorld::collide_point, py::arg("point"),
           "IDs of the bodies containing the point.")
      .def("collide_box", &PyWorld::collide_box, py::arg("min"), py::arg("max"),
           "IDs of the bodies whose bounds overlap the box.")
      .def("step", &PyWorld::step, py::arg("dt") = py::none(),
           py::arg("collision_steps") = py::none(),
           "Advances one step; a dict of the step's figures. Releases the GIL.")
      .def("contact_events", &PyWorld::contact_events, "The contact events of the last step.")
      .def("state_hash", &PyWorld::state_hash, "FNV-1a 64 state hash, 16 hex digits.")
      .def("run", &PyWorld::run, py::arg("steps"),
           "Runs the scene loop (events, probes); the summary JSON text.")
      .def("start_recording", &PyWorld::start_recording, py::arg("path"), py::arg("steps"),
           "Starts a recording of the next `steps` steps.")
      .def("finish_recording", &PyWorld::finish_recording, "Finishes and writes the recording.")
      .def("save_snapshot", &PyWorld::save_snapshot, py::arg("into") = nullptr,
           "A rollback snapshot of the whole world (bodies and their IDs, constraints, "
           "contacts, names); saved into `into` when given (its buffers are reused).")
      .def("restore_snapshot", &PyWorld::restore_snapshot, py::arg("snapshot"),
           "Back to the world of the snapshot: bodies and constraints made or removed since "
           "are undone; the next steps give the same bits.");
  py::class_<PySnapshot, std::shared_ptr<PySnapshot>>(
      m, "Snapshot", "A rollback snapshot (World.save_snapshot); lives in memory only.")
      .def_property_readonly("bytes", &PySnapshot::bytes, "Bytes it holds.");
  m.def("read_recording", &read_recording_dict, py::arg("path"),
        "Reads a recording: header fields and numpy arrays of the frames.");
}
