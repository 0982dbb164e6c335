// Generators: a few keys that expand, at read time, into many bodies named PREFIX + index.

#include <algorithm>
#include <iterator>
#include <limits>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "atoll/core/Random.h"
#include "atoll/scene/SceneParser.h"

namespace atl {

using namespace scene_json;

namespace {

enum class GeneratorType {
  Stack,
  Pyramid,
  Grid,
  Pile,
  JoltPyramid,
  Chain,
  Ragdoll,
  Swarm,
  WaveMesh
};

// Keeps a typo from allocating gigabytes: no generator makes more bodies than this (nor all of
// them together, SceneParser::parse_document).
constexpr int64_t k_max_generated = SceneParser::k_max_generated_bodies;

// The keys of each generator type besides type, name and the body keys.
bool is_generator_key(GeneratorType type, std::string_view key) {
  switch (type) {
    case GeneratorType::Stack:
      return key == "count" || key == "base" || key == "gap";
    case GeneratorType::Pyramid:
      return key == "layers" || key == "base" || key == "gap";
    case GeneratorType::Grid:
      return key == "counts" || key == "spacing" || key == "base" || key == "constraint" ||
             key == "anchor" || key == "self_collision";
    case GeneratorType::Pile:
      return key == "count" || key == "min" || key == "max" || key == "seed" ||
             key == "random_rotation" || key == "speed";
    case GeneratorType::JoltPyramid:
      return key == "layers";
    case GeneratorType::Chain:
      return key == "count" || key == "base" || key == "direction" || key == "spacing" ||
             key == "constraint" || key == "anchor" || key == "self_collision";
    case GeneratorType::Ragdoll:
      return key == "position" || key == "scale" || key == "mass";
    case GeneratorType::Swarm:
      return key == "count" || key == "shapes" || key == "half_range" || key == "speed" ||
             key == "friction_range" || key == "restitution_range" || key == "seed";
    case GeneratorType::WaveMesh:
      return key == "cells" || key == "cell_size" || key == "amplitude" || key == "frequency" ||
             key == "base";
  }
  return false;
}

Json json_vec3(const Vec3& v) { return Json::array({v.x(), v.y(), v.z()}); }

// Keys of a chain's constraint object that the chain sets itself.
bool is_chain_owned_key(std::string_view key) {
  return key == "name" || key == "body1" || key == "body2" || key == "space" || key == "point" ||
         key == "point1" || key == "point2" || key == "position" || key == "position1" ||
         key == "position2";
}

// One part of the ragdoll, at scale 1 standing on the origin facing +z (left is +x): a capsule
// of radius `radius` and cylinder half height `half_height` along local Y (or along X when
// `across`), `mass_fraction` of the whole.
struct RagdollPart {
  const char* name;
  Vec3 centre;
  float radius;
  float half_height;
  bool across;
  float mass_fraction;
};

// Proportions of a 1.8 m adult; mass fractions after Dempster's segment table (trunk split in
// three, hands with the forearms, feet with the shins), summing to 1.
constexpr RagdollPart k_ragdoll_parts[] = {
    {"pelvis", {0.0f, 0.97f, 0.0f}, 0.11f, 0.07f, true, 0.142f},
    {"abdomen", {0.0f, 1.16f, 0.0f}, 0.10f, 0.06f, true, 0.139f},
    {"chest", {0.0f, 1.36f, 0.0f}, 0.13f, 0.07f, true, 0.216f},
    {"head", {0.0f, 1.66f, 0.0f}, 0.10f, 0.04f, false, 0.081f},
    {"left_upper_arm", {0.24f, 1.28f, 0.0f}, 0.05f, 0.10f, false, 0.028f},
    {"left_forearm", {0.24f, 0.93f, 0.0f}, 0.045f, 0.17f, false, 0.022f},
    {"right_upper_arm", {-0.24f, 1.28f, 0.0f}, 0.05f, 0.10f, false, 0.028f},
    {"right_forearm", {-0.24f, 0.93f, 0.0f}, 0.045f, 0.17f, false, 0.022f},
    {"left_thigh", {0.10f, 0.70f, 0.0f}, 0.07f, 0.13f, false, 0.100f},
    {"left_shin", {0.10f, 0.255f, 0.0f}, 0.055f, 0.20f, false, 0.061f},
    {"right_thigh", {-0.10f, 0.70f, 0.0f}, 0.07f, 0.13f, false, 0.100f},
    {"right_shin", {-0.10f, 0.255f, 0.0f}, 0.055f, 0.20f, false, 0.061f},
};

// One joint of the ragdoll (same frame as the parts): a swing_twist with its twist and plane
// axes and limits (rad), or a hinge about `twist` with limits [hinge_min, hinge_max].
struct RagdollJoint {
  const char* name;
  int part1, part2;
  Vec3 position;
  bool hinge;
  Vec3 twist, plane;
  float normal_half_cone, plane_half_cone, twist_min, twist_max;
};

constexpr Vec3 k_up(0.0f, 1.0f, 0.0f);
constexpr Vec3 k_down(0.0f, -1.0f, 0.0f);
constexpr Vec3 k_forward(0.0f, 0.0f, 1.0f);

// Swing about the normal axis (twist × plane = the lateral axis for these) bends forward and
// back, swing about the plane axis (forward) sideways. Elbows bend the forearm forward (about
// −x), knees the shin backward (about +x), from straight to 150° and 140°.
constexpr RagdollJoint k_ragdoll_joints[] = {
    {"lower_back", 0, 1, {0.0f, 1.065f, 0.0f}, false, k_up, k_forward, 0.40f, 0.30f, -0.35f, 0.35f},
    {"upper_back", 1, 2, {0.0f, 1.26f, 0.0f}, false, k_up, k_forward, 0.30f, 0.25f, -0.30f, 0.30f},
    {"neck", 2, 3, {0.0f, 1.51f, 0.0f}, false, k_up, k_forward, 0.60f, 0.50f, -0.80f, 0.80f},
    {"left_shoulder",
     2,
     4,
     {0.24f, 1.43f, 0.0f},
     false,
     k_down,
     k_forward,
     1.40f,
     1.20f,
     -0.80f,
     0.80f},
    {"left_elbow",
     4,
     5,
     {0.24f, 1.13f, 0.0f},
     true,
     {-1.0f, 0.0f, 0.0f},
     {},
     0.0f,
     0.0f,
     0.0f,
     2.60f},
    {"right_shoulder",
     2,
     6,
     {-0.24f, 1.43f, 0.0f},
     false,
     k_down,
     k_forward,
     1.40f,
     1.20f,
     -0.80f,
     0.80f},
    {"right_elbow",
     6,
     7,
     {-0.24f, 1.13f, 0.0f},
     true,
     {-1.0f, 0.0f, 0.0f},
     {},
     0.0f,
     0.0f,
     0.0f,
     2.60f},
    {"left_hip", 0, 8, {0.10f, 0.90f, 0.0f}, false, k_down, k_forward, 1.20f, 0.60f, -0.50f, 0.50f},
    {"left_knee",
     8,
     9,
     {0.10f, 0.48f, 0.0f},
     true,
     {1.0f, 0.0f, 0.0f},
     {},
     0.0f,
     0.0f,
     0.0f,
     2.40f},
    {"right_hip",
     0,
     10,
     {-0.10f, 0.90f, 0.0f},
     false,
     k_down,
     k_forward,
     1.20f,
     0.60f,
     -0.50f,
     0.50f},
    {"right_knee",
     10,
     11,
     {-0.10f, 0.48f, 0.0f},
     true,
     {1.0f, 0.0f, 0.0f},
     {},
     0.0f,
     0.0f,
     0.0f,
     2.40f},
};

constexpr float k_ragdoll_mass = 70.0f;  // kg at scale 1

// Uniformly distributed rotation (Shoemake's method) from three uniform numbers, using the
// deterministic atl::sin_cos so that piles are the same on every platform.
Quat random_rotation(Random& random) {
  const float u1 = random.next_float();
  const float u2 = random.next_float();
  const float u3 = random.next_float();
  const float a = std::sqrt(1.0f - u1);
  const float b = std::sqrt(u1);
  float s2, c2, s3, c3;
  sin_cos(k_two_pi * u2, s2, c2);
  sin_cos(k_two_pi * u3, s3, c3);
  return unit_rotation(Quat(a * s2, a * c2, b * s3, b * c3));
}

// Uniformly distributed unit vector (Archimedes: z uniform in [-1, 1), azimuth uniform) from
// two uniform numbers, with the deterministic atl::sin_cos.
Vec3 random_direction(Random& random) {
  const float z = random.uniform(-1.0f, 1.0f);
  const float azimuth = random.uniform(0.0f, k_two_pi);
  float s, c;
  sin_cos(azimuth, s, c);
  const float r = std::sqrt(std::max(0.0f, 1.0f - z * z));
  return Vec3(r * c, r * s, z);
}

// A swarm's draws, in the way Jolt's PerformanceTest scenes draw from std::mt19937 (not
// atl::Random's 24-bit floats): lo + u · (hi − lo) / (2³² − 1) in float arithmetic, u the raw
// 32-bit value converted to float, the product taken before the division.
class MersenneDraws {
 public:
  explicit MersenneDraws(uint32_t seed) : engine_(seed) {}
  float uniform(float lo, float hi) {
    const auto raw = static_cast<float>(engine_() - std::mt19937::min());
    constexpr auto span = static_cast<float>(std::mt19937::max() - std::mt19937::min());
    return lo + raw * (hi - lo) / span;
  }
  // Shoemake's uniform rotation from three draws: u, then the angles a and b,
  // (√(1−u) sin a, √(1−u) cos a, √u sin b, √u cos b) as [x, y, z, w].
  Quat rotation() {
    const float u = uniform(0.0f, 1.0f);
    const float a = uniform(0.0f, k_two_pi);
    const float b = uniform(0.0f, k_two_pi);
    const float ra = std::sqrt(1.0f - u);
    const float rb = std::sqrt(u);
    float sa, ca, sb, cb;
    sin_cos(a, sa, ca);
    sin_cos(b, sb, cb);
    return unit_rotation(Quat(sa * ra, ca * ra, sb * rb, cb * rb));
  }
  // A uniform unit vector from two draws: z in [−1, 1], then the angle t,
  // (√(1−z²) sin t, √(1−z²) cos t, z).
  Vec3 direction() {
    const float z = uniform(-1.0f, 1.0f);
    const float t = uniform(0.0f, k_two_pi);
    const float r = std::sqrt(std::max(0.0f, 1.0f - z * z));
    float s, c;
    sin_cos(t, s, c);
    return Vec3(r * s, r * c, z);
  }

 private:
  std::mt19937 engine_;
};

// A [min, max] pair of reals with min <= max.
std::pair<float, float> read_range(const scene_json::Json& v, const std::string& path) {
  if (!v.is_array() || v.size() != 2)
    fail(path, "expected an array of 2 reals [min, max], got " + describe(v));
  const float lo = read_float(v[0], element_path(path, 0));
  const float hi = read_float(v[1], element_path(path, 1));
  if (hi < lo)
    fail(element_path(path, 1), "must be >= " + number_text(lo) + ", got " + number_text(hi));
  return {lo, hi};
}

}  // namespace

void SceneParser::parse_generator(const Json& generator, const std::string& path) {
  expect_object(generator, path);
  const GeneratorType type = read_enum<GeneratorType>(require(generator, path, "type"),
                                                      member_path(path, "type"), "generator type",
                                                      {{"stack", GeneratorType::Stack},
                                                       {"pyramid", GeneratorType::Pyramid},
                                                       {"grid", GeneratorType::Grid},
                                                       {"pile", GeneratorType::Pile},
                                                       {"jolt_pyramid", GeneratorType::JoltPyramid},
                                                       {"chain", GeneratorType::Chain},
                                                       {"ragdoll", GeneratorType::Ragdoll},
                                                       {"swarm", GeneratorType::Swarm},
                                                       {"wave_mesh", GeneratorType::WaveMesh}});
  const auto at = [&](std::string_view key) { return member_path(path, key); };

  std::string prefix;
  BodyDesc prototype;
  int64_t count = 0;
  int64_t layers = type == GeneratorType::JoltPyramid ? 15 : 0;  // Jolt's PyramidScene height
  int64_t counts[3] = {0, 0, 0};
  Vec3 base, spacing, region_min, region_max;
  float gap = 0.0f;
  uint32_t seed = Random::k_default_seed;
  bool random_rotations = false;
  std::optional<float> speed;
  Vec3 direction(0.0f, -1.0f, 0.0f);
  float chain_spacing = 0.0f;
  const Json* constraint = nullptr;
  enum class Anchor { World, Free, Top };
  Anchor anchor = type == GeneratorType::Chain ? Anchor::World : Anchor::Free;
  bool self_collision = false;
  Vec3 ragdoll_position;
  float scale = 1.0f;
  std::optional<float> total_mass;
  std::vector<ShapeRef> shapes;
  float half_range = 0.0f;
  std::pair<float, float> friction_range, restitution_range;
  int64_t cells = 0;
  float cell_size = 0.0f, amplitude = 0.0f, frequency = 0.0f;
  for (auto it = generator.begin(); it != generator.end(); ++it) {
    const std::string& key = it.key();
    const Json& v = it.value();
    const std::string p = member_path(path, key);
    if (key == "type") continue;
    if (key == "name") {
      prefix = read_name(v, p);
    } else if (key == "position" && type != GeneratorType::Ragdoll) {
      fail(p, "not allowed in a generator, which positions its bodies");
    } else if (key == "shape" && type == GeneratorType::Ragdoll) {
      fail(p, "not allowed in a ragdoll, which makes its own capsules");
    } else if (key == "shape" && type == GeneratorType::Swarm) {
      fail(p, "not allowed in a swarm, which cycles through its shapes");
    } else if (key == "shape" && type == GeneratorType::WaveMesh) {
      fail(p, "not allowed in a wave_mesh, which makes its own mesh");
    } else if (type == GeneratorType::Swarm && (key == "rotation" || key == "linear_velocity" ||
                                                key == "friction" || key == "restitution")) {
      fail(p, "set by the swarm, which draws it for each body");
    } else if (type == GeneratorType::Swarm && key == "shapes") {
      expect_array(v, p);
      if (v.empty()) fail(p, "must list at least one shape");
      for (size_t i = 0; i < v.size(); ++i)
        shapes.push_back(parse_shape_ref(v[i], element_path(p, i)));
    } else if (type == GeneratorType::Swarm && key == "half_range") {
      half_range = read_non_negative(v, p);
    } else if (type == GeneratorType::Swarm && key == "friction_range") {
      friction_range = read_range(v, p);
      if (friction_range.first < 0.0f)
        fail(element_path(p, 0), "must be >= 0, got " + number_text(friction_range.first));
    } else if (type == GeneratorType::Swarm && key == "restitution_range") {
      restitution_range = read_range(v, p);
      if (restitution_range.first < 0.0f)
        fail(element_path(p, 0), "must be >= 0, got " + number_text(restitution_range.first));
    } else if (type == GeneratorType::WaveMesh && key == "cells") {
      cells = read_int(v, p, 1, 1000);
    } else if (type == GeneratorType::WaveMesh && key == "cell_size") {
      cell_size = read_positive(v, p);
    } else if (type == GeneratorType::WaveMesh && key == "amplitude") {
      amplitude = read_non_negative(v, p);
    } else if (type == GeneratorType::WaveMesh && key == "frequency") {
      frequency = read_float(v, p);
    } else if (is_generator_key(type, key)) {
      if (type == GeneratorType::Ragdoll) {
        if (key == "position") ragdoll_position = read_vec3(v, p);
        if (key == "scale") scale = read_positive(v, p);
        if (key == "mass") total_mass = read_positive(v, p);
      } else if (type == GeneratorType::Chain && key == "count") {
        count = read_int(v, p, 1, 100000);
      } else if (type == GeneratorType::Chain && key == "spacing") {
        chain_spacing = read_positive(v, p);
      } else if (key == "direction") {
        direction = read_vec3(v, p);
        if (!(direction.length_sq() > 0.0f)) fail(p, "must not be zero");
        direction = direction.normalized();
      } else if (key == "constraint") {
        check_joint_template(v, p);
        constraint = &v;
      } else if (key == "anchor") {
        if (type == GeneratorType::Chain)
          anchor =
              read_enum<Anchor>(v, p, "anchor", {{"world", Anchor::World}, {"free", Anchor::Free}});
        else
          anchor =
              read_enum<Anchor>(v, p, "anchor", {{"free", Anchor::Free}, {"top", Anchor::Top}});
      } else if (key == "self_collision") {
        self_collision = read_bool(v, p);
      } else if (key == "count") {
        count = read_int(v, p, 1, k_max_generated);
      } else if (key == "layers") {
        layers = read_int(v, p, 1, 1000);
      } else if (key == "base") {
        base = read_vec3(v, p);
      } else if (key == "gap") {
        gap = read_non_negative(v, p);
      } else if (key == "counts") {
        if (!v.is_array() || v.size() != 3)
          fail(p, "expected an array of 3 integers [nx, ny, nz], got " + describe(v));
        for (size_t axis = 0; axis < 3; ++axis)
          counts[axis] = read_int(v[axis], element_path(p, axis), 1, k_max_generated);
        if (counts[0] * counts[1] * counts[2] > k_max_generated)
          fail(p, "must make at most " + std::to_string(k_max_generated) + " bodies, got " +
                      std::to_string(counts[0] * counts[1] * counts[2]));
      } else if (key == "spacing") {
        spacing = read_positive_vec3(v, p);
      } else if (key == "min") {
        region_min = read_vec3(v, p);
      } else if (key == "max") {
        region_max = read_vec3(v, p);
      } else if (key == "seed") {
        seed = static_cast<uint32_t>(read_int(v, p, 0, std::numeric_limits<uint32_t>::max()));
      } else if (key == "random_rotation") {
        random_rotations = read_bool(v, p);
      } else if (key == "speed") {
        speed = read_non_negative(v, p);
      }
    } else if (!parse_body_field(prototype, key, v, p)) {
      fail(p, "unknown key");
    }
  }
  require(generator, path, "name");
  if (type != GeneratorType::Ragdoll && type != GeneratorType::Swarm &&
      type != GeneratorType::WaveMesh)
    require(generator, path, "shape");
  switch (type) {
    case GeneratorType::Stack:
      require(generator, path, "count");
      require(generator, path, "base");
      break;
    case GeneratorType::Pyramid:
      require(generator, path, "layers");
      require(generator, path, "base");
      break;
    case GeneratorType::Grid:
      require(generator, path, "counts");
      require(generator, path, "spacing");
      require(generator, path, "base");
      if (constraint == nullptr && generator.contains("anchor"))
        fail(at("anchor"), "needs a constraint");
      if (constraint == nullptr && generator.contains("self_collision"))
        fail(at("self_collision"), "needs a constraint");
      if (self_collision && generator.contains("collision_group"))
        fail(at("collision_group"), "conflicts with self_collision");
      break;
    case GeneratorType::Pile:
      require(generator, path, "count");
      require(generator, path, "min");
      require(generator, path, "max");
      for (int axis = 0; axis < 3; ++axis)
        if (region_max[axis] < region_min[axis])
          fail(element_path(at("max"), size_t(axis)),
               "must be >= min[" + std::to_string(axis) + "] (" + number_text(region_min[axis]) +
                   "), got " + number_text(region_max[axis]));
      if (random_rotations && generator.contains("rotation"))
        fail(at("rotation"), "conflicts with random_rotation");
      if (speed && generator.contains("linear_velocity"))
        fail(at("linear_velocity"), "conflicts with speed");
      if (speed && *speed > 0.0f && prototype.settings.motion_type == MotionType::Static)
        fail(at("speed"), "a static body cannot move");
      break;
    case GeneratorType::JoltPyramid: {
      // Layer i holds (layers - i)² boxes.
      int64_t total = 0;
      for (int64_t i = 1; i <= layers; ++i) total += i * i;
      if (total > k_max_generated)
        fail(at("layers"), "must make at most " + std::to_string(k_max_generated) +
                               " bodies, got " + std::to_string(total));
      break;
    }
    case GeneratorType::Chain:
      require(generator, path, "count");
      require(generator, path, "base");
      require(generator, path, "spacing");
      require(generator, path, "constraint");
      if (self_collision && generator.contains("collision_group"))
        fail(at("collision_group"), "conflicts with self_collision");
      break;
    case GeneratorType::Ragdoll:
      require(generator, path, "position");
      break;
    case GeneratorType::Swarm:
      for (const char* key :
           {"count", "shapes", "half_range", "speed", "friction_range", "restitution_range"})
        require(generator, path, key);
      if (prototype.settings.motion_type == MotionType::Static && *speed > 0.0f)
        fail(at("speed"), "a static body cannot move");
      break;
    case GeneratorType::WaveMesh:
      for (const char* key : {"cells", "cell_size", "amplitude", "frequency", "base"})
        require(generator, path, key);
      break;
  }
  // Each generator is bounded, and so are all of them together (ten grids of a million bodies
  // each, a few hundred bytes of JSON, needed ten gigabytes): checked before any body is made.
  int64_t planned = 1;  // a wave mesh
  switch (type) {
    case GeneratorType::Stack:
    case GeneratorType::Pile:
    case GeneratorType::Chain:
    case GeneratorType::Swarm:
      planned = count;
      break;
    case GeneratorType::Pyramid:
      planned = layers * (layers + 1) / 2;
      break;
    case GeneratorType::Grid:
      planned = counts[0] * counts[1] * counts[2];
      break;
    case GeneratorType::JoltPyramid:
      planned = 0;
      for (int64_t i = 1; i <= layers; ++i) planned += i * i;
      break;
    case GeneratorType::Ragdoll:
      planned = static_cast<int64_t>(std::size(k_ragdoll_parts));
      break;
    case GeneratorType::WaveMesh:
      break;
  }
  if (generated_bodies_ + planned > k_max_generated)
    fail(path, "the generators make at most " + std::to_string(k_max_generated) +
                   " bodies in all, this one would bring them to " +
                   std::to_string(generated_bodies_ + planned));
  generated_bodies_ += planned;
  // A wave mesh's triangles take about 190 bytes each to build and run (1000 × 1000 cells, two
  // million triangles: 370 MB), so all wave meshes together are bounded as well.
  if (type == GeneratorType::WaveMesh) {
    const int64_t triangles = 2 * cells * cells;
    if (generated_triangles_ + triangles > k_max_generated_triangles)
      fail(path, "the wave meshes make at most " + std::to_string(k_max_generated_triangles) +
                     " triangles in all, this one would bring them to " +
                     std::to_string(generated_triangles_ + triangles));
    generated_triangles_ += triangles;
  }
  if (type == GeneratorType::Chain || type == GeneratorType::Ragdoll || constraint != nullptr) {
    // The links of a chain and the parts of a ragdoll do not collide with each other: a
    // collision group of their own (the next after every group used so far) unless given.
    if (!prototype.collision_group && !self_collision) {
      uint32_t next = 0;
      for (const BodyDesc& body : scene_.bodies)
        if (body.collision_group) next = std::max(next, *body.collision_group + 1);
      prototype.collision_group = next;
    }
  }
  if (type == GeneratorType::Ragdoll) {
    parse_ragdoll(prefix, prototype, ragdoll_position, scale,
                  total_mass.value_or(k_ragdoll_mass * scale * scale * scale), path);
    return;
  }
  if (type == GeneratorType::Swarm) {
    parse_swarm(prefix, prototype, shapes, count, half_range, *speed, friction_range,
                restitution_range, seed, path);
    return;
  }
  if (type == GeneratorType::WaveMesh) {
    parse_wave_mesh(prefix, prototype, cells, cell_size, amplitude, frequency, base, path);
    return;
  }
  check_body(prototype, path);

  // Stacks and pyramids space their bodies by the size of the (rotated) shape.
  const SceneShape* shape = scene_.resolve(prototype.shape);
  ATOLL_ASSERT(shape != nullptr, "parse_shape_ref accepts only known shapes");
  const Vec3 size = scene_shape_bounds(scene_, *shape)
                        .transformed(Mat44::rotation(prototype.settings.rotation))
                        .size();

  const std::string name_path = at("name");
  size_t index = 0;
  const auto emit = [&](const Vec3& position, const Quat& rotation,
                        std::optional<Vec3> velocity = std::nullopt) {
    BodyDesc body = prototype;
    body.name = prefix + std::to_string(index++);
    body.settings.position = position;
    body.settings.rotation = rotation;
    if (velocity) body.settings.linear_velocity = *velocity;
    add_body(std::move(body), name_path);
  };
  const Quat rotation = prototype.settings.rotation;
  switch (type) {
    case GeneratorType::Stack:
      for (int64_t i = 0; i < count; ++i)
        emit(base + Vec3(0.0f, float(i) * (size.y() + gap), 0.0f), rotation);
      break;
    case GeneratorType::Pyramid:
      for (int64_t layer = 0; layer < layers; ++layer) {
        const int64_t n = layers - layer;
        for (int64_t j = 0; j < n; ++j) {
          const float offset = float(j) - 0.5f * float(n - 1);
          emit(base + Vec3(offset * (size.x() + gap), float(layer) * size.y(), 0.0f), rotation);
        }
      }
      break;
    case GeneratorType::Grid: {
      for (int64_t z = 0; z < counts[2]; ++z)
        for (int64_t y = 0; y < counts[1]; ++y)
          for (int64_t x = 0; x < counts[0]; ++x)
            emit(base + spacing * Vec3(float(x), float(y), float(z)), rotation);
      if (constraint == nullptr) break;
      // Each body joined to its +x, +y and +z neighbours; with anchor "top", each body of the
      // top layer also to the world one spacing above it.
      const int64_t strides[3] = {1, counts[0], counts[0] * counts[1]};
      const char* const axis_names[3] = {"_x", "_y", "_z"};
      const auto body_name = [&](int64_t i) { return prefix + std::to_string(i); };
      for (int64_t z = 0; z < counts[2]; ++z)
        for (int64_t y = 0; y < counts[1]; ++y)
          for (int64_t x = 0; x < counts[0]; ++x) {
            const int64_t cell[3] = {x, y, z};
            const int64_t i = x + counts[0] * (y + counts[1] * z);
            const Vec3 centre = base + spacing * Vec3(float(x), float(y), float(z));
            for (int axis = 0; axis < 3; ++axis) {
              if (cell[axis] + 1 >= counts[axis]) continue;
              Vec3 step;
              step.set_component(axis, spacing[axis]);
              add_generated_joint(*constraint, prefix + axis_names[axis] + std::to_string(i),
                                  body_name(i), body_name(i + strides[axis]), centre, centre + step,
                                  path);
            }
            if (anchor == Anchor::Top && y + 1 == counts[1])
              add_generated_joint(*constraint, prefix + "_top" + std::to_string(i),
                                  std::string(k_scene_world), body_name(i),
                                  centre + Vec3(0.0f, spacing.y(), 0.0f), centre, path);
          }
      break;
    }
    case GeneratorType::Pile: {
      Random random(seed);
      for (int64_t i = 0; i < count; ++i) {
        // Separate statements: the order of the draws must not depend on evaluation order.
        const float x = random.uniform(region_min.x(), region_max.x());
        const float y = random.uniform(region_min.y(), region_max.y());
        const float z = random.uniform(region_min.z(), region_max.z());
        const Quat body_rotation = random_rotations ? random_rotation(random) : rotation;
        std::optional<Vec3> velocity;
        if (speed) velocity = *speed * random_direction(random);
        emit(Vec3(x, y, z), body_rotation, velocity);
      }
      break;
    }
    case GeneratorType::JoltPyramid: {
      // Jolt's PerformanceTest PyramidScene: boxes 2 m wide, layers 2.5 m apart, odd layers
      // shifted by half a box, each layer one box smaller on every side every other layer.
      const float height = float(layers);
      for (int64_t i = 0; i < layers; ++i) {
        const float shift = (i & 1) != 0 ? 1.0f : 0.0f;
        for (int64_t j = i / 2; j < layers - (i + 1) / 2; ++j)
          for (int64_t k = i / 2; k < layers - (i + 1) / 2; ++k)
            emit(Vec3(-height + 2.0f * float(j) + shift, 1.0f + 2.5f * float(i),
                      -height + 2.0f * float(k) + shift),
                 rotation);
      }
      break;
    }
    case GeneratorType::Chain: {
      for (int64_t i = 0; i < count; ++i)
        emit(base + direction * (chain_spacing * float(i)), rotation);
      // Joint i joins body i − 1 (the world for i = 0) and body i.
      for (int64_t i = anchor == Anchor::Free ? 1 : 0; i < count; ++i) {
        const Vec3 centre = base + direction * (chain_spacing * float(i));
        add_generated_joint(*constraint, prefix + "_joint" + std::to_string(i),
                            i == 0 ? std::string(k_scene_world) : prefix + std::to_string(i - 1),
                            prefix + std::to_string(i), centre - direction * chain_spacing, centre,
                            path);
      }
      break;
    }
    case GeneratorType::Ragdoll:
    case GeneratorType::Swarm:
    case GeneratorType::WaveMesh:
      break;
  }
}

void SceneParser::parse_swarm(const std::string& prefix, const BodyDesc& prototype,
                              const std::vector<ShapeRef>& shapes, int64_t count, float half_range,
                              float speed, std::pair<float, float> friction_range,
                              std::pair<float, float> restitution_range, uint32_t seed,
                              const std::string& path) {
  for (const ShapeRef& shape : shapes) {
    BodyDesc body = prototype;
    body.shape = shape;
    check_body(body, path);
  }
  MersenneDraws draws(seed);
  for (int64_t i = 0; i < count; ++i) {
    BodyDesc body = prototype;
    body.name = prefix + std::to_string(i);
    body.shape = shapes[size_t(i) % shapes.size()];
    // One statement per draw: the order must not depend on evaluation order.
    const float x = draws.uniform(-half_range, half_range);
    const float y = draws.uniform(-half_range, half_range);
    const float z = draws.uniform(-half_range, half_range);
    body.settings.position = Vec3(x, y, z);
    body.settings.rotation = draws.rotation();
    body.settings.friction = draws.uniform(friction_range.first, friction_range.second);
    body.settings.restitution = draws.uniform(restitution_range.first, restitution_range.second);
    body.settings.linear_velocity = speed * draws.direction();
    add_body(std::move(body), member_path(path, "name"));
  }
}

void SceneParser::parse_wave_mesh(const std::string& prefix, const BodyDesc& prototype,
                                  int64_t cells, float cell_size, float amplitude, float frequency,
                                  const Vec3& base, const std::string& path) {
  const auto n = static_cast<uint32_t>(cells);
  TriangleMeshShapeSettings mesh;
  // Vertex (x, z) is number z · (n + 1) + x.
  mesh.vertices.resize(size_t(n + 1) * (n + 1));
  for (uint32_t z = 0; z <= n; ++z)
    for (uint32_t x = 0; x <= n; ++x) {
      float sx, cx, sz, cz;
      sin_cos(float(x) * frequency, sx, cx);
      sin_cos(float(z) * frequency, sz, cz);
      mesh.vertices[size_t(z) * (n + 1) + x] =
          Float3{cell_size * float(x), amplitude * (sx * cz), cell_size * float(z)};
    }
  // Two triangles per cell, cells x-major, counter-clockwise seen from +y.
  mesh.triangles.reserve(size_t(2) * n * n);
  for (uint32_t x = 0; x < n; ++x)
    for (uint32_t z = 0; z < n; ++z) {
      const uint32_t corner = z * (n + 1) + x;  // (x, z)
      const uint32_t next_z = corner + n + 1;   // (x, z + 1)
      IndexedTriangle first, second;
      first.idx[0] = corner;
      first.idx[1] = next_z;
      first.idx[2] = corner + 1;
      second.idx[0] = corner + 1;
      second.idx[1] = next_z;
      second.idx[2] = next_z + 1;
      mesh.triangles.push_back(first);
      mesh.triangles.push_back(second);
    }
  auto shape = std::make_shared<SceneShape>();
  shape->settings = std::move(mesh);
  BodyDesc body = prototype;
  body.name = prefix + "0";
  body.shape.definition = std::move(shape);
  body.settings.position = base;
  check_body(body, path);
  add_body(std::move(body), member_path(path, "name"));
}

void SceneParser::check_joint_template(const Json& constraint, const std::string& path) {
  expect_object(constraint, path);
  for (auto it = constraint.begin(); it != constraint.end(); ++it)
    if (is_chain_owned_key(it.key()))
      fail(member_path(path, it.key()), "set by the generator, which places its joints");
  read_enum<ConstraintSubType>(require(constraint, path, "type"), member_path(path, "type"),
                               "generated constraint type",
                               {{"fixed", ConstraintSubType::Fixed},
                                {"point", ConstraintSubType::Point},
                                {"distance", ConstraintSubType::Distance},
                                {"hinge", ConstraintSubType::Hinge},
                                {"slider", ConstraintSubType::Slider},
                                {"cone", ConstraintSubType::Cone},
                                {"swing_twist", ConstraintSubType::SwingTwist},
                                {"six_dof", ConstraintSubType::SixDOF}});
}

void SceneParser::add_generated_joint(const Json& constraint, const std::string& name,
                                      const std::string& body1, const std::string& body2,
                                      const Vec3& end1, const Vec3& end2, const std::string& path) {
  if (find_constraint(name) != nullptr)
    fail(member_path(path, "name"),
         "makes constraint " + Json(name).dump() + ", a name already taken");
  Json object = constraint;
  object["name"] = name;
  object["body1"] = body1;
  object["body2"] = body2;
  // A distance joins the two ends; the others sit halfway between them (swing_twist and six_dof
  // call that point "position").
  const std::string type = object["type"].get<std::string>();
  if (type == "distance") {
    object["point1"] = json_vec3(end1);
    object["point2"] = json_vec3(end2);
  } else {
    object[type == "swing_twist" || type == "six_dof" ? "position" : "point"] =
        json_vec3(0.5f * (end1 + end2));
  }
  parse_constraint(object, member_path(path, "constraint"));
}

void SceneParser::parse_ragdoll(const std::string& prefix, const BodyDesc& prototype,
                                const Vec3& position, float scale, float mass,
                                const std::string& path) {
  const Quat rotation = prototype.settings.rotation;
  const Quat across = Quat::rotation(Vec3(0.0f, 0.0f, 1.0f), 0.5f * k_pi);
  const auto place = [&](const Vec3& local) { return position + rotation * (scale * local); };
  for (const RagdollPart& part : k_ragdoll_parts) {
    BodyDesc body = prototype;
    body.name = prefix + "_" + part.name;
    CapsuleShapeSettings capsule;
    capsule.radius = scale * part.radius;
    capsule.half_height_of_cylinder = scale * part.half_height;
    auto shape = std::make_shared<SceneShape>();
    shape->settings = capsule;
    body.shape.definition = std::move(shape);
    body.settings.position = place(part.centre);
    body.settings.rotation = part.across ? rotation * across : rotation;
    body.settings.override_mass = mass * part.mass_fraction;
    check_body(body, path);
    add_body(std::move(body), member_path(path, "name"));
  }
  for (const RagdollJoint& joint : k_ragdoll_joints) {
    const std::string name = prefix + "_" + joint.name;
    if (find_constraint(name) != nullptr)
      fail(member_path(path, "name"),
           "makes constraint " + Json(name).dump() + ", a name already taken");
    Json object = Json::object();
    object["name"] = name;
    object["body1"] = prefix + "_" + k_ragdoll_parts[joint.part1].name;
    object["body2"] = prefix + "_" + k_ragdoll_parts[joint.part2].name;
    if (joint.hinge) {
      object["type"] = "hinge";
      object["point"] = json_vec3(place(joint.position));
      object["hinge_axis"] = json_vec3(rotation * joint.twist);
      object["limits_min"] = joint.twist_min;
      object["limits_max"] = joint.twist_max;
    } else {
      object["type"] = "swing_twist";
      object["position"] = json_vec3(place(joint.position));
      object["twist_axis"] = json_vec3(rotation * joint.twist);
      object["plane_axis"] = json_vec3(rotation * joint.plane);
      object["normal_half_cone_angle"] = joint.normal_half_cone;
      object["plane_half_cone_angle"] = joint.plane_half_cone;
      object["twist_min_angle"] = joint.twist_min;
      object["twist_max_angle"] = joint.twist_max;
    }
    parse_constraint(object, path);
  }
}

}  // namespace atl
