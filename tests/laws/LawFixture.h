#pragma once
// The one fixture of the law tests (DESIGN.md §8, LAWS.md). It builds worlds from JSON scene
// text (read_scene_text + SceneWorld, the path the CLI takes) or body by body through the
// BodyInterface, steps them, and measures what the laws speak about from the bodies' poses and
// velocities: penetration from positions and shape bounds (not from the solver's own
// bookkeeping), horizontal drift, speeds, angular momentum.
//
// Law conditions (LAWS.md, unless a law says otherwise): dt = 1/60 s, one collision step,
// sleeping off, linear and angular damping 0, every other setting at its default.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "atoll/body/BodyInterface.h"
#include "atoll/run/SceneWorld.h"
#include "atoll/scene/BuiltinScenes.h"
#include "atoll/scene/SceneReader.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl::laws {

/// Time step of every law (s): 1/60.
inline constexpr float k_dt = 1.0f / 60.0f;
/// Half extent (m) of the seed's small box: 0.25 m cubes (stacks, slides).
inline constexpr Vec3 k_small_box(0.125f, 0.125f, 0.125f);
/// Magnitude of the default gravity (m/s²).
inline constexpr float k_g = 9.81f;

/// The engine's default settings with sleeping off: the law conditions.
inline PhysicsSettings law_settings() {
  PhysicsSettings settings;
  settings.allow_sleeping = false;
  return settings;
}

/// Which defaults a world gets.
enum class Conditions : uint8_t {
  /// Sleeping off, damping 0 on every body that does not set it (LAWS.md).
  Law,
  /// The engine's and the scene's own defaults, untouched (sleeping on, damping 0.05).
  Engine,
};

/// Material and motion of a body added by the fixture; damping defaults to the law's 0.
struct BodyOptions {
  /// Mass (kg); unset: from the shape's density.
  std::optional<float> mass;
  /// Friction coefficient (default: the engine's 0.2).
  float friction = BodyCreationSettings{}.friction;
  /// Restitution in [0, 1].
  float restitution = 0.0f;
  /// Initial linear velocity (m/s).
  Vec3 linear_velocity;
  /// Initial angular velocity (rad/s).
  Vec3 angular_velocity;
  /// Rotation of the body.
  Quat rotation;
  /// Linear damping (1/s); law default 0.
  float linear_damping = 0.0f;
  /// Angular damping (1/s); law default 0.
  float angular_damping = 0.0f;
  /// Gravity multiplier.
  float gravity_factor = 1.0f;
  /// Dynamic (default) or kinematic.
  MotionType motion_type = MotionType::Dynamic;
  /// Discrete (default) or LinearCast.
  MotionQuality motion_quality = MotionQuality::Discrete;
  /// A sensor: reports overlaps, no collision response.
  bool sensor = false;
  /// Rolling resistance (m); engine default 0.
  float rolling_resistance = 0.0f;
  /// Torsional friction (m); engine default 0.
  float torsional_friction = 0.0f;
};

/// Values of one quantity, one per step.
struct Series {
  std::vector<float> values;

  void add(float v) { values.push_back(v); }
  size_t size() const { return values.size(); }
  float max() const {
    return values.empty() ? 0.0f : *std::max_element(values.begin(), values.end());
  }
  float min() const {
    return values.empty() ? 0.0f : *std::min_element(values.begin(), values.end());
  }
  /// Mean of the last `n` values (the steady value of a settled run).
  float mean_last(size_t n) const {
    n = std::min(n, values.size());
    if (n == 0) return 0.0f;
    double sum = 0.0;
    for (size_t i = values.size() - n; i < values.size(); ++i) sum += values[i];
    return static_cast<float>(sum / static_cast<double>(n));
  }
  /// Largest minus smallest of the last `n` values (jitter of a settled run).
  float range_last(size_t n) const {
    n = std::min(n, values.size());
    if (n == 0) return 0.0f;
    const auto first = values.end() - static_cast<std::ptrdiff_t>(n);
    return *std::max_element(first, values.end()) - *std::min_element(first, values.end());
  }
  /// First index from which every value satisfies `pred` (size() if none): "recovered after".
  template <class Pred>
  size_t settled_from(Pred pred) const {
    size_t first = values.size();
    for (size_t i = values.size(); i-- > 0;) {
      if (!pred(values[i])) break;
      first = i;
    }
    return first;
  }
};

/// One world under test, built from scene text or body by body.
class LawWorld {
 public:
  /// An empty world with `settings` (the law's by default) and the system's `limits`.
  explicit LawWorld(const PhysicsSettings& settings = law_settings(),
                    const PhysicsSystemSettings& limits = {})
      : owned_(std::make_unique<PhysicsSystem>(limits)), system_(owned_.get()) {
    const Status ok = system_->set_settings(settings);
    EXPECT_TRUE(ok.ok()) << (ok.ok() ? "" : ok.error().message());
  }

  /// A world built from JSON scene text. Under Conditions::Law, sleeping is switched off and
  /// bodies whose damping is the engine default (no law scene sets that value) get 0.
  static std::unique_ptr<LawWorld> from_scene(std::string_view json, std::string_view name,
                                              Conditions conditions = Conditions::Law) {
    Result<SceneDescription> scene = read_scene_text(json, name);
    if (!scene) {
      ADD_FAILURE() << scene.error().message();
      return nullptr;
    }
    if (conditions == Conditions::Law) {
      scene->physics.allow_sleeping = false;
      const BodyCreationSettings defaults;
      for (BodyDesc& body : scene->bodies) {
        BodyCreationSettings& s = body.settings;
        if (s.linear_damping == defaults.linear_damping) s.linear_damping = 0.0f;
        if (s.angular_damping == defaults.angular_damping) s.angular_damping = 0.0f;
      }
    }
    Result<std::unique_ptr<SceneWorld>> world = SceneWorld::create(*scene, name);
    if (!world) {
      ADD_FAILURE() << world.error().message();
      return nullptr;
    }
    return std::unique_ptr<LawWorld>(new LawWorld(std::move(*world)));
  }

  /// A world built from the built-in scene `name` ("pyramid", "tower10", …).
  static std::unique_ptr<LawWorld> from_builtin(std::string_view name, Conditions conditions) {
    const std::optional<std::string_view> text = builtin_scene_text(name);
    if (!text) {
      ADD_FAILURE() << "no built-in scene " << name;
      return nullptr;
    }
    return from_scene(*text, name, conditions);
  }

  PhysicsSystem& system() { return *system_; }
  BodyInterface& bodies() { return system_->body_interface(); }
  /// The scene the world was built from (null for a world built body by body).
  const SceneWorld* scene() const { return scene_.get(); }
  /// The body of scene body `name`.
  BodyID scene_body(std::string_view name) const { return scene_->body(name); }

  /// A static floor box 100 m × 2 m × 100 m whose top face is at y = `top` (m).
  BodyID add_floor(float friction = BodyCreationSettings{}.friction, float restitution = 0.0f,
                   float top = 0.0f) {
    BodyCreationSettings s(make_box(Vec3(50.0f, 1.0f, 50.0f)), Vec3(0.0f, top - 1.0f, 0.0f), Quat(),
                           MotionType::Static);
    s.friction = friction;
    s.restitution = restitution;
    floor_top_ = top;
    return add(s);
  }

  /// A dynamic box of `half_extent` (m) centred at `position` (m), with rounded edges of
  /// `convex_radius` (m).
  BodyID add_box(const Vec3& half_extent, const Vec3& position, const BodyOptions& o = {},
                 float convex_radius = ConvexShape::k_default_convex_radius) {
    return add(dynamic_settings(make_box(half_extent, convex_radius), position, o));
  }

  /// A static box of `half_extent` (m) centred at `position` (m), with sharp edges (so that it
  /// may be thinner than the default convex radius).
  BodyID add_static_box(const Vec3& half_extent, const Vec3& position, float restitution = 0.0f) {
    BodyCreationSettings s(make_box(half_extent, 0.0f), position, Quat(), MotionType::Static);
    s.restitution = restitution;
    return add(s);
  }

  /// A sphere of `radius` (m) centred at `position` (m); dynamic unless `o` says otherwise.
  BodyID add_sphere(float radius, const Vec3& position, const BodyOptions& o = {}) {
    SphereShapeSettings shape;
    shape.radius = radius;
    return add(dynamic_settings(shape.create().value_or_throw(), position, o));
  }

  /// `count` boxes of `half_extent` (m) stacked face to face, the lowest one's bottom at
  /// y = `base` (m), bottom first.
  std::vector<BodyID> add_tower(int count, const Vec3& half_extent, float base,
                                const BodyOptions& o = {}) {
    std::vector<BodyID> ids;
    for (int i = 0; i < count; ++i) {
      const float y = base + half_extent.y() * (2.0f * static_cast<float>(i) + 1.0f);
      ids.push_back(add_box(half_extent, Vec3(0.0f, y, 0.0f), o));
    }
    return ids;
  }

  /// One update of k_dt in one collision step; a failed update fails the test.
  UpdateResult step() {
    Result<UpdateResult> r = system_->update(k_dt, 1);
    if (!r) {
      ADD_FAILURE() << r.error().message();
      return {};
    }
    EXPECT_TRUE(r->ok()) << r->to_string();
    return *r;
  }

  /// `steps` updates, calling `after(step_index)` after each.
  template <class F>
  void run(int steps, F&& after) {
    for (int i = 0; i < steps; ++i) {
      step();
      after(i);
    }
  }
  void run(int steps) {
    run(steps, [](int) {});
  }

  const Body& body(BodyID id) { return *bodies().body(id).value_or_throw(); }
  Vec3 position(BodyID id) { return body(id).position(); }
  Vec3 velocity(BodyID id) { return body(id).linear_velocity(); }
  Vec3 angular_velocity(BodyID id) { return body(id).angular_velocity(); }

  /// World bounding box (m) of the body's shape at its current pose (exact for boxes and
  /// spheres: the extreme corners and the sphere's poles).
  AABox bounds(BodyID id) {
    const Body& b = body(id);
    return b.shape()->world_bounds(b.world_transform());
  }
  /// Lowest world y (m) of the body.
  float bottom(BodyID id) { return bounds(id).min.y(); }
  /// Highest world y (m) of the body.
  float top(BodyID id) { return bounds(id).max.y(); }
  /// How far (m) the body reaches below the floor's top face (negative: it hovers).
  float floor_penetration(BodyID id) { return floor_top_ - bottom(id); }
  /// How far (m) `upper` reaches below the top of `lower` (negative: a gap). For bodies
  /// resting on each other with small tilts this is their overlap along y.
  float penetration(BodyID upper, BodyID lower) { return top(lower) - bottom(upper); }
  /// Deepest overlap (m) in a tower (bottom first, standing on the floor): the bottom box in
  /// the floor or any box in the one below it.
  float tower_penetration(const std::vector<BodyID>& tower) {
    float deepest = floor_penetration(tower[0]);
    for (size_t i = 1; i < tower.size(); ++i)
      deepest = std::max(deepest, penetration(tower[i], tower[i - 1]));
    return deepest;
  }
  /// Horizontal (xz) distance (m) of the body's position from `from`.
  float horizontal_distance(BodyID id, const Vec3& from) {
    const Vec3 d = position(id) - from;
    return std::sqrt(d.x() * d.x() + d.z() * d.z());
  }
  /// Angular momentum (kg·m²/s) about the centre of mass: I_world · ω.
  Vec3 angular_momentum(BodyID id) {
    const Body& b = body(id);
    const Quat& q = b.rotation();
    MassProperties mp = b.shape()->mass_properties();
    if (b.override_mass()) mp.scale_to_mass(*b.override_mass());
    const Vec3 local_w = q.inverse_rotate(b.angular_velocity());
    return q * mp.inertia.multiply3x3(local_w);
  }

 private:
  explicit LawWorld(std::unique_ptr<SceneWorld> scene)
      : scene_(std::move(scene)), system_(&scene_->system()) {}

  static Ref<Shape> make_box(const Vec3& half_extent,
                             float convex_radius = ConvexShape::k_default_convex_radius) {
    BoxShapeSettings shape;
    shape.half_extent = half_extent;
    shape.convex_radius = convex_radius;
    return shape.create().value_or_throw();
  }

  static BodyCreationSettings dynamic_settings(Ref<Shape> shape, const Vec3& position,
                                               const BodyOptions& o) {
    BodyCreationSettings s(std::move(shape), position, o.rotation, o.motion_type);
    s.override_mass = o.mass;
    s.friction = o.friction;
    s.restitution = o.restitution;
    s.linear_velocity = o.linear_velocity;
    s.angular_velocity = o.angular_velocity;
    s.linear_damping = o.linear_damping;
    s.angular_damping = o.angular_damping;
    s.gravity_factor = o.gravity_factor;
    s.motion_quality = o.motion_quality;
    s.is_sensor = o.sensor;
    s.rolling_resistance = o.rolling_resistance;
    s.torsional_friction = o.torsional_friction;
    return s;
  }

  BodyID add(const BodyCreationSettings& s) {
    return bodies().create_and_add_body(s, Activation::Activate).value_or_throw();
  }

  std::unique_ptr<PhysicsSystem> owned_;
  std::unique_ptr<SceneWorld> scene_;
  PhysicsSystem* system_ = nullptr;
  float floor_top_ = 0.0f;
};

/// The gtest fixture of every law test: worlds plus a way to report the measured readings.
class LawFixture : public ::testing::Test {
 protected:
  /// Prints "  [law] KEY = VALUE" and records it as a test property (in the XML report), so
  /// that the measured numbers can be compared with the seeds' Jolt readings.
  void report(const std::string& key, double value) {
    std::printf("  [law] %s = %.6g\n", key.c_str(), value);
    RecordProperty(key, std::to_string(value));
  }
};

/// Settings with one change, for sweeps: `with(&PhysicsSettings::baumgarte, 0.5f)`.
template <class T>
PhysicsSettings with(T PhysicsSettings::*field, T value,
                     PhysicsSettings settings = law_settings()) {
  settings.*field = value;
  return settings;
}

/// LAWS.md A3's slide: a 1 kg box of 0.25 m sliding at 5 m/s on a floor with μ = 0.5; the
/// distance it slides (m) and its final speed (m/s) after 5 s.
inline std::pair<float, float> slide_a3_box(const PhysicsSettings& settings = law_settings()) {
  LawWorld world(settings);
  world.add_floor(0.5f);
  BodyOptions o;
  o.mass = 1.0f;
  o.friction = 0.5f;
  o.linear_velocity = Vec3(5.0f, 0.0f, 0.0f);
  const BodyID box = world.add_box(k_small_box, Vec3(0.0f, 0.125f, 0.0f), o);
  world.run(300);
  return {world.position(box).x(), world.velocity(box).length()};
}

}  // namespace atl::laws
