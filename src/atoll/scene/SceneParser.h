#pragma once
// Internal to scene/: turns a parsed JSON document into a SceneDescription, throwing a
// scene_json::PathError at the first problem. SceneReader.cpp drives it for files and --set;
// SceneGenerators.cpp holds the generators, BodyFields.cpp and ShapeFields.cpp the field tables
// that read bodies and shapes.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "atoll/scene/SceneDescription.h"
#include "atoll/scene/SceneJson.h"
#include "atoll/scene/SceneSoftBodies.h"

namespace atl {

/// build_scene_soft_body, failing with a PathError at the key under `path` (the soft body's
/// path in the file or --set's key) that caused the problem.
SceneSoftBody build_soft_body_at(const SoftBodyDesc& desc, const std::string& path);

class SceneParser {
 public:
  using Json = scene_json::Json;

  /// Most bodies one generator makes, and all of a scene's generators together: a few bytes of
  /// JSON must not allocate gigabytes (a million bodies take about 1 GB to run).
  static constexpr int64_t k_max_generated_bodies = 1000000;
  /// Most triangles all of a scene's wave meshes make together (one of 1000 × 1000 cells).
  static constexpr int64_t k_max_generated_triangles = 2000000;
  /// Most vertices all of a scene's soft bodies hold together: a rope of a million segments or
  /// a cloth of 4096 × 4096 is a few bytes of JSON, and a million vertices take about 0.5 GB
  /// and 11 s to build and step once.
  static constexpr int64_t k_max_soft_body_vertices = 1000000;

  /// Parses into `scene`, whose existing shapes and bodies are visible to what is parsed.
  explicit SceneParser(SceneDescription& scene);

  /// A whole scene document.
  void parse_document(const Json& root);
  /// One "settings" key (dt, steps, collision_steps or a PhysicsSettings field); false when
  /// the key is unknown.
  bool parse_setting(std::string_view key, const Json& value, const std::string& path);
  /// One body key other than "name"; false when the key is unknown.
  bool parse_body_field(BodyDesc& body, std::string_view key, const Json& value,
                        const std::string& path);
  /// Checks between fields of one body (a static body has no mass, …); `path` is the body's.
  void check_body(const BodyDesc& body, const std::string& path) const;
  /// A shape name (of a shape defined before) or an inline shape object.
  ShapeRef parse_shape_ref(const Json& value, const std::string& path);
  /// A shape object.
  SceneShape parse_shape(const Json& value, const std::string& path);
  /// Fails at `path` unless a body of that name exists.
  void expect_body(const std::string& name, const std::string& path) const;
  /// Fails at `path` unless a constraint of that name was read before.
  void expect_constraint(const std::string& name, const std::string& path) const;
  /// One constraint object of "constraints" (scene/ConstraintFields.cpp).
  void parse_constraint(const Json& object, const std::string& path);
  /// One constraint key other than name and type (body1, body2, a common or a type key); false
  /// when the key is unknown.
  bool parse_constraint_field(ConstraintDesc& constraint, std::string_view key, const Json& value,
                              const std::string& path);
  /// --set constraints.NAME.FIELD (FIELD may be nested: motor_settings.state); `path` is the
  /// whole key, for errors.
  void set_constraint_field(const std::string& name, const std::string& field, const Json& value,
                            const std::string& path);
  /// Counts a soft body's vertices (`after`, replacing `before` of its old self) into the
  /// scene's, failing at `path` past k_max_soft_body_vertices.
  void add_soft_body_vertices(int64_t before, int64_t after, const std::string& path);
  /// One soft body object of "soft_bodies" (scene/SoftBodyFields.cpp).
  void parse_soft_body(const Json& object, const std::string& path);
  /// --set soft_bodies.NAME.FIELD; `path` is the whole key, for errors.
  void set_soft_body_field(const std::string& name, const std::string& field, const Json& value,
                           const std::string& path);

 private:
  void parse_settings(const Json& settings, const std::string& path);
  void parse_shapes(const Json& shapes, const std::string& path);
  void parse_body(BodyDesc& body, const Json& object, const std::string& path);
  void parse_bodies(const Json& bodies, const std::string& path);
  void parse_generator(const Json& generator, const std::string& path);
  /// Checks a generator's "constraint" object: a type a generator can place, no key the
  /// generator sets itself.
  void check_joint_template(const Json& constraint, const std::string& path);
  /// Adds one constraint made from a generator's "constraint" object joining `body1` and
  /// `body2` (a name or "world"), placed from the two ends `end1`, `end2` (world space).
  void add_generated_joint(const Json& constraint, const std::string& name,
                           const std::string& body1, const std::string& body2, const Vec3& end1,
                           const Vec3& end2, const std::string& path);
  /// A ragdoll generator's bodies and constraints.
  void parse_ragdoll(const std::string& prefix, const BodyDesc& prototype, const Vec3& position,
                     float scale, float mass, const std::string& path);
  /// A swarm generator's bodies: `count` bodies cycling through `shapes`, drawn from
  /// std::mt19937(seed) in Jolt's PerformanceTest order.
  void parse_swarm(const std::string& prefix, const BodyDesc& prototype,
                   const std::vector<ShapeRef>& shapes, int64_t count, float half_range,
                   float speed, std::pair<float, float> friction_range,
                   std::pair<float, float> restitution_range, uint32_t seed,
                   const std::string& path);
  /// A wave_mesh generator's body: one mesh of cells × cells squares at `base`.
  void parse_wave_mesh(const std::string& prefix, const BodyDesc& prototype, int64_t cells,
                       float cell_size, float amplitude, float frequency, const Vec3& base,
                       const std::string& path);
  void parse_event(const Json& event, const std::string& path);
  void parse_probe(const Json& probe, const std::string& path);
  /// A constraint's body1/body2: a body name or "world".
  void read_constraint_body(std::string& body, const Json& value, const std::string& path) const;
  /// Checks between the bodies of a constraint.
  void check_constraint(const ConstraintDesc& constraint, const std::string& path) const;
  /// Appends a body, failing at `path` when its name is taken.
  void add_body(BodyDesc body, const std::string& path);
  /// The scene constraint named `name`, or null (by constraint_index_, not a linear search: a
  /// generated grid of 10⁴ bodies makes 2·10⁴ constraints, each checked for a duplicate name).
  ConstraintDesc* find_constraint(std::string_view name) const;

  SceneDescription& scene_;
  // Bodies made by the generators so far (at most k_max_generated_bodies).
  int64_t generated_bodies_ = 0;
  // Triangles made by the wave meshes so far (at most k_max_generated_triangles).
  int64_t generated_triangles_ = 0;
  // Vertices of the scene's soft bodies (at most k_max_soft_body_vertices).
  int64_t soft_body_vertices_ = 0;
  // Body names → index into scene_.bodies, for duplicate checks and look-ups.
  std::map<std::string, size_t, std::less<>> body_index_;
  // Constraint names → index into scene_.constraints, for duplicate checks and look-ups.
  std::map<std::string, size_t, std::less<>> constraint_index_;
};

}  // namespace atl
