// Generators: a few keys that expand, at read time, into many bodies named PREFIX + index.

#include <algorithm>
#include <limits>
#include <optional>

#include "atoll/core/Random.h"
#include "atoll/scene/SceneParser.h"

namespace atl {

using namespace scene_json;

namespace {

enum class GeneratorType { Stack, Pyramid, Grid, Pile, JoltPyramid };

// Keeps a typo from allocating gigabytes: no generator makes more bodies than this.
constexpr int64_t k_max_generated = 1000000;

// The keys of each generator type besides type, name and the body keys.
bool is_generator_key(GeneratorType type, std::string_view key) {
  switch (type) {
    case GeneratorType::Stack:
      return key == "count" || key == "base" || key == "gap";
    case GeneratorType::Pyramid:
      return key == "layers" || key == "base" || key == "gap";
    case GeneratorType::Grid:
      return key == "counts" || key == "spacing" || key == "base";
    case GeneratorType::Pile:
      return key == "count" || key == "min" || key == "max" || key == "seed" ||
             key == "random_rotation" || key == "speed";
    case GeneratorType::JoltPyramid:
      return key == "layers";
  }
  return false;
}

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

}  // namespace

void SceneParser::parse_generator(const Json& generator, const std::string& path) {
  expect_object(generator, path);
  const GeneratorType type = read_enum<GeneratorType>(
      require(generator, path, "type"), member_path(path, "type"), "generator type",
      {{"stack", GeneratorType::Stack},
       {"pyramid", GeneratorType::Pyramid},
       {"grid", GeneratorType::Grid},
       {"pile", GeneratorType::Pile},
       {"jolt_pyramid", GeneratorType::JoltPyramid}});
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
  for (auto it = generator.begin(); it != generator.end(); ++it) {
    const std::string& key = it.key();
    const Json& v = it.value();
    const std::string p = member_path(path, key);
    if (key == "type") continue;
    if (key == "name") {
      prefix = read_name(v, p);
    } else if (key == "position") {
      fail(p, "not allowed in a generator, which positions its bodies");
    } else if (is_generator_key(type, key)) {
      if (key == "count") {
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
    case GeneratorType::Grid:
      for (int64_t z = 0; z < counts[2]; ++z)
        for (int64_t y = 0; y < counts[1]; ++y)
          for (int64_t x = 0; x < counts[0]; ++x)
            emit(base + spacing * Vec3(float(x), float(y), float(z)), rotation);
      break;
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
  }
}

}  // namespace atl
