#include "atoll/softbody/SoftBodyGenerators.h"

#include <map>
#include <string>
#include <utility>

#include "atoll/shape/Validation.h"

namespace atl {

namespace {

// The largest vertex count a generator makes (a bound on what a scene file can ask for).
constexpr uint32_t k_max_generated_vertices = 1u << 20;

std::optional<Error> check_compliance(const char* generator, const char* field, float value) {
  return check_non_negative(std::string(generator) + ": " + field, value);
}

}  // namespace

Result<Ref<SoftBodySettings>> make_rope(const Vec3& from, const Vec3& to, uint32_t segments,
                                        float mass, float compliance, float bend_compliance,
                                        float radius) {
  if (auto e = check_finite("rope: from", from)) return *e;
  if (auto e = check_finite("rope: to", to)) return *e;
  if (!((to - from).length_sq() > 0.0f)) return field_error("rope: to", "must differ from `from`");
  if (segments < 1 || segments >= k_max_generated_vertices)
    return field_error("rope: segments", "must be in [1, " +
                                             std::to_string(k_max_generated_vertices - 1) +
                                             "], got " + std::to_string(segments));
  if (auto e = check_positive("rope: mass", mass)) return *e;
  if (auto e = check_compliance("rope", "compliance", compliance)) return *e;
  if (auto e = check_compliance("rope", "bend_compliance", bend_compliance)) return *e;
  if (auto e = check_non_negative("rope: radius", radius)) return *e;
  Ref<SoftBodySettings> s = new SoftBodySettings();
  const uint32_t n = segments + 1;
  const float inverse_mass = float(n) / mass;
  for (uint32_t i = 0; i < n; ++i) {
    SoftBodyVertex v;
    v.position = from + (to - from) * (float(i) / float(segments));
    v.inverse_mass = inverse_mass;
    s->vertices.push_back(v);
  }
  for (uint32_t i = 0; i + 1 < n; ++i) s->edges.push_back({{i, i + 1}, 0.0f, compliance});
  for (uint32_t i = 0; i + 2 < n; ++i) s->bend_edges.push_back({{i, i + 2}, 0.0f, bend_compliance});
  s->vertex_radius = radius;
  s->compute_rest_values();
  return s;
}

Result<Ref<SoftBodySettings>> make_cloth(const Vec3& center, float width, float depth, uint32_t nx,
                                         uint32_t nz, float mass, float compliance,
                                         float bend_compliance) {
  if (auto e = check_finite("cloth: center", center)) return *e;
  if (auto e = check_positive("cloth: size[0]", width)) return *e;
  if (auto e = check_positive("cloth: size[1]", depth)) return *e;
  for (const auto& [field, count] :
       {std::pair("cloth: resolution[0]", nx), std::pair("cloth: resolution[1]", nz)})
    if (count < 2 || count > 4096)
      return field_error(field, "must be in [2, 4096] vertices, got " + std::to_string(count));
  if (uint64_t{nx} * nz > k_max_generated_vertices)
    return field_error("cloth: resolution", "at most " + std::to_string(k_max_generated_vertices) +
                                                " vertices, got " + std::to_string(nx * nz));
  if (auto e = check_positive("cloth: mass", mass)) return *e;
  if (auto e = check_compliance("cloth", "compliance", compliance)) return *e;
  if (auto e = check_compliance("cloth", "bend_compliance", bend_compliance)) return *e;
  Ref<SoftBodySettings> s = new SoftBodySettings();
  const float inverse_mass = float(nx * nz) / mass;
  for (uint32_t i = 0; i < nz; ++i)
    for (uint32_t j = 0; j < nx; ++j) {
      SoftBodyVertex v;
      v.position = center + Vec3(width * (float(j) / float(nx - 1) - 0.5f), 0.0f,
                                 depth * (float(i) / float(nz - 1) - 0.5f));
      v.inverse_mass = inverse_mass;
      s->vertices.push_back(v);
    }
  for (uint32_t i = 0; i + 1 < nz; ++i)
    for (uint32_t j = 0; j + 1 < nx; ++j) {
      const uint32_t v00 = i * nx + j, v10 = v00 + 1, v01 = v00 + nx, v11 = v01 + 1;
      // Both face +y: (v01 − v00) × (v11 − v00) points up.
      s->faces.push_back({v00, v01, v11});
      s->faces.push_back({v00, v11, v10});
    }
  s->create_edges_from_faces(compliance);
  s->create_bends_from_faces(bend_compliance);
  s->compute_rest_values();
  return s;
}

Result<Ref<SoftBodySettings>> make_pressure_ball(const Vec3& center, float radius,
                                                 uint32_t subdivisions, float mass, float pressure,
                                                 float compliance) {
  if (auto e = check_finite("pressure_ball: center", center)) return *e;
  if (auto e = check_positive("pressure_ball: radius", radius)) return *e;
  if (subdivisions > 5)
    return field_error("pressure_ball: subdivisions",
                       "must be in [0, 5], got " + std::to_string(subdivisions));
  if (auto e = check_positive("pressure_ball: mass", mass)) return *e;
  if (auto e = check_positive("pressure_ball: pressure", pressure)) return *e;
  if (auto e = check_compliance("pressure_ball", "compliance", compliance)) return *e;
  // The unit icosahedron, faces counter-clockwise seen from outside.
  const float t = (1.0f + std::sqrt(5.0f)) / 2.0f;
  std::vector<Vec3> p = {Vec3(-1, t, 0), Vec3(1, t, 0), Vec3(-1, -t, 0), Vec3(1, -t, 0),
                         Vec3(0, -1, t), Vec3(0, 1, t), Vec3(0, -1, -t), Vec3(0, 1, -t),
                         Vec3(t, 0, -1), Vec3(t, 0, 1), Vec3(-t, 0, -1), Vec3(-t, 0, 1)};
  for (Vec3& v : p) v = v.normalized();
  std::vector<SoftBodyFace> faces = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                     {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                     {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                     {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (uint32_t level = 0; level < subdivisions; ++level) {
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> midpoints;
    const auto midpoint = [&](uint32_t a, uint32_t b) {
      const std::pair<uint32_t, uint32_t> key(std::min(a, b), std::max(a, b));
      const auto [it, inserted] = midpoints.emplace(key, uint32_t(p.size()));
      if (inserted) p.push_back(((p[a] + p[b]) * 0.5f).normalized());
      return it->second;
    };
    std::vector<SoftBodyFace> finer;
    finer.reserve(faces.size() * 4);
    for (const SoftBodyFace& f : faces) {
      const uint32_t ab = midpoint(f[0], f[1]), bc = midpoint(f[1], f[2]),
                     ca = midpoint(f[2], f[0]);
      finer.push_back({f[0], ab, ca});
      finer.push_back({f[1], bc, ab});
      finer.push_back({f[2], ca, bc});
      finer.push_back({ab, bc, ca});
    }
    faces = std::move(finer);
  }
  Ref<SoftBodySettings> s = new SoftBodySettings();
  const float inverse_mass = float(p.size()) / mass;
  for (const Vec3& unit : p) {
    SoftBodyVertex v;
    v.position = center + unit * radius;
    v.inverse_mass = inverse_mass;
    s->vertices.push_back(v);
  }
  s->faces = std::move(faces);
  s->create_edges_from_faces(compliance);
  s->keep_volume = true;
  s->pressure = pressure;
  s->compute_rest_values();
  return s;
}

}  // namespace atl
