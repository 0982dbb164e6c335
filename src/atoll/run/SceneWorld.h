#pragma once
// A scene description built into a running world, and the loop that runs it: events at their
// steps, probes, per-step records and the run summary of `atoll run --summary`. The CLI, the
// law tests and the benchmarks all run scenes through this one path.

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "atoll/core/JobSystem.h"
#include "atoll/run/Recording.h"
#include "atoll/scene/SceneDescription.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {

class RecordingWriter;

/// What SceneWorld::create keeps of the scene.
struct SceneWorldOptions {
  /// Whether scene().bodies keeps the body descriptions once the bodies are made. Off, that list
  /// is empty (its memory freed): body_names() and body_ids() still name the bodies, and the
  /// system holds their state. For a program that never reads them again: the `atoll` program's
  /// run and bench, whose peak resident memory on the pyramid (1 241 bodies) they raised by
  /// about 0.45 MB.
  bool keep_body_descriptions = true;
};

class SceneWorld {
 public:
  /// Builds the world of `scene`; errors read "SOURCE: JSON.PATH: problem". The world keeps a
  /// copy of the scene (scene()), its bodies' descriptions as `options` say.
  static Result<std::unique_ptr<SceneWorld>> create(const SceneDescription& scene,
                                                    std::string_view source,
                                                    const SceneWorldOptions& options = {});
  /// The same, keeping `scene` itself (moved in, not copied) for a caller that is done with it.
  static Result<std::unique_ptr<SceneWorld>> create(SceneDescription&& scene,
                                                    std::string_view source,
                                                    const SceneWorldOptions& options = {});

  PhysicsSystem& system() { return *system_; }
  const PhysicsSystem& system() const { return *system_; }
  /// The scene the world was made from; scene().bodies is empty when it was made with
  /// SceneWorldOptions::keep_body_descriptions off.
  const SceneDescription& scene() const { return scene_; }
  /// The body created for the scene body `name`; invalid for an unknown name.
  BodyID body(std::string_view name) const;
  /// The scene name of the body `id`, or its formatted ID ("{index 3, sequence 0}") for a body
  /// the scene did not create.
  std::string body_name(BodyID id) const;
  /// Scene body names in creation order (parallel to body_ids()).
  const std::vector<std::string>& body_names() const { return names_; }
  const std::vector<BodyID>& body_ids() const { return ids_; }
  /// The constraint created for the scene constraint `name`; null for an unknown name.
  Ref<Constraint> constraint(std::string_view name) const;
  /// The constraints, parallel to scene().constraints.
  const std::vector<Ref<Constraint>>& constraints() const { return constraints_; }
  /// The soft bodies' IDs, parallel to scene().soft_bodies.
  const std::vector<BodyID>& soft_body_ids() const { return soft_body_ids_; }

 private:
  SceneWorld() = default;
  SceneDescription scene_;
  std::unique_ptr<PhysicsSystem> system_;
  std::vector<std::string> names_;
  std::vector<BodyID> ids_;
  std::map<std::string, BodyID, std::less<>> by_name_;
  std::vector<Ref<Constraint>> constraints_;
  std::vector<BodyID> soft_body_ids_;
};

/// The world's constraints as a recording describes them (bodies as indices into body_ids(),
/// points in each body's shape space).
std::vector<RecordedConstraint> recorded_constraints(const SceneWorld& world);

/// The world's soft bodies as a recording describes them (parallel to soft_body_ids(): scene
/// names, vertex counts, structural edges and faces).
std::vector<RecordedSoftBody> recorded_soft_bodies(const SceneWorld& world);
/// The soft bodies `ids` of `system` (each live) as a recording describes them, named `names`.
std::vector<RecordedSoftBody> recorded_soft_bodies(const PhysicsSystem& system,
                                                   std::span<const BodyID> ids,
                                                   std::span<const std::string> names);
/// The frame's view of the soft bodies `ids` (RecordingFrameInfo::soft_bodies): their vertices
/// now (views of the world's, valid until the next step) and flags; a destroyed one is absent.
void recorded_soft_body_frames(const PhysicsSystem& system, std::span<const BodyID> ids,
                               std::vector<RecordingSoftBodyFrame>& frames);

/// A body's state at the end of a run.
struct BodySnapshot {
  Vec3 position;
  Quat rotation;
  Vec3 linear_velocity;
  Vec3 angular_velocity;
  bool active = false;
};

/// A constraint's state at the end of a run.
struct ConstraintSnapshot {
  /// Scene constraint name.
  std::string name;
  /// Enabled at the end.
  bool enabled = true;
  /// The step (0-based) whose impulse exceeded a break threshold, −1 (JSON null) when it did
  /// not break or was enabled again since.
  int broken_at_step = -1;
  /// The last step's impulse per part (snake_case name, components: one is a number, N·s or
  /// N·m·s).
  std::vector<std::pair<std::string, std::vector<float>>> total_lambda;
};

/// A soft body's state at the end of a run.
struct SoftBodySummary {
  /// Scene soft body name.
  std::string name;
  /// Mass-weighted centre of the free vertices (m).
  Vec3 center_of_mass;
  /// Bounds of the vertex centres (m).
  AABox bounds;
  /// Largest (length − rest) / rest over the structural edges.
  float max_strain = 0.0f;
  uint32_t vertex_count = 0;
  /// Volume the faces enclose (m³; 0 without faces).
  float volume = 0.0f;
  /// Smallest signed distance (m) from a vertex centre to the surface of any rigid shape that
  /// is not a sensor, negative inside; unset (JSON null) when none is within
  /// k_clearance_search_m of any vertex.
  std::optional<float> lowest_vertex_clearance;
  /// How far lowest_vertex_clearance looks (m).
  static constexpr float k_clearance_search_m = 1000.0f;
};

/// What `atoll run --summary` reports (DESIGN.md §4).
struct RunSummary {
  int steps = 0;
  float dt = 0.0f;
  int threads = 1;
  double wall_ms_per_step = 0.0;
  /// state_hash() after the last step.
  uint64_t state_hash = 0;
  /// Deepest contact penetration (m) over the whole run.
  float max_penetration_m = 0.0f;
  /// Where it was: step (0-based; −1 when there was no contact) and the two body names.
  int max_penetration_step = -1;
  std::string max_penetration_body1, max_penetration_body2;
  /// Final state per scene body name, in creation order.
  std::vector<std::pair<std::string, BodySnapshot>> bodies;
  /// Active bodies after each step.
  std::vector<uint32_t> active_bodies;
  /// Islands of each step (its last collision step), and the bodies of the largest.
  std::vector<uint32_t> islands;
  std::vector<uint32_t> largest_island_bodies;
  /// First step (0-based) after which no body was active, or −1 for never (JSON null).
  int first_all_asleep_step = -1;
  /// Crossing counts per probe name, in file order.
  std::vector<std::pair<std::string, int>> probes_crossed;
  /// Wall time per stage (ms), summed over the run.
  std::array<double, k_num_stages> stage_ms{};
  /// Cap errors reported by update(), first occurrence (empty: none).
  std::string update_error;
  /// A body the world quarantined because its state went non-finite (DESIGN.md §7).
  struct QuarantinedBody {
    /// Scene body name.
    std::string name;
    /// Step (0-based) in which it happened.
    int step = 0;
  };
  /// Quarantined bodies, in the order it happened.
  std::vector<QuarantinedBody> quarantined;
  /// Per scene constraint, in file order.
  std::vector<ConstraintSnapshot> constraints;
  /// Per scene soft body, in file order.
  std::vector<SoftBodySummary> soft_bodies;
};

/// How to run a scene.
struct RunOptions {
  /// Steps to run; < 0: the scene's `steps`.
  int steps = -1;
  /// CSV trace (step,body,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz,active) or null.
  std::ostream* trace = nullptr;
  /// Bodies to trace (names); empty: all.
  std::vector<std::string> trace_bodies;
  /// Called after every step with (steps done, total).
  std::function<void(int, int)> progress;
  /// Recording of the run (docs/recording-format.md) or null: gets the state before the first
  /// step and after every step. The caller finishes it.
  RecordingWriter* recording = nullptr;
  /// Where the step's parallel stages run (not owned; null: on the calling thread). The run's
  /// result is the same bits for any job system.
  JobSystem* jobs = nullptr;
  /// Saves the world's state (state/StateRecorder.h) into `saved_state` when the world's step
  /// count reaches `save_state_at` (before the first step when it is there already); −1: never.
  int64_t save_state_at = -1;
  StateRecorder* saved_state = nullptr;
  /// Validates every step: saves the state, steps, saves the result, restores the first state
  /// and steps again, and compares the two results; the run fails at the first step whose
  /// repeat differs, naming the step and the first different field. Twice the simulation time.
  bool validate = false;
  /// Receives a hash per stage per collision step of the run (state/DeterminismLog.h; not
  /// owned; null: none). With `validate`, of the real steps only.
  DeterminismLog* detlog = nullptr;
};

/// Runs the scene in `world` from its current state, from the world's step count on (a world
/// restored from a saved state continues at its step: the scene's events before it are
/// already in the state, and step numbers in the summary count from the scene's start).
/// Errors (an event that the engine rejects, an unknown trace body) read
/// "SOURCE: JSON.PATH: problem".
Result<RunSummary> run_scene(SceneWorld& world, const RunOptions& options, std::string_view source);

/// The summary as JSON text (keys of DESIGN.md §4, plus "stage_ms" and "quarantined").
std::string summary_to_json(const RunSummary& summary);

/// 16 lower-case hex digits.
std::string hash_to_hex(uint64_t hash);

}  // namespace atl
