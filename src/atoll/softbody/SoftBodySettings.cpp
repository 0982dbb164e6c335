#include "atoll/softbody/SoftBodySettings.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "atoll/body/Validation.h"
#include "atoll/math/Math.h"
#include "atoll/shape/Validation.h"

namespace atl {

namespace {

std::string indexed(const char* list, size_t i) {
  return std::string(list) + "[" + std::to_string(i) + "]";
}

// The positions of the vertices, for the geometric helpers.
std::vector<Vec3> positions_of(const std::vector<SoftBodyVertex>& vertices) {
  std::vector<Vec3> x(vertices.size());
  for (size_t i = 0; i < vertices.size(); ++i) x[i] = vertices[i].position;
  return x;
}

std::optional<Error> check_vertex_index(const std::string& field, uint32_t index,
                                        size_t num_vertices) {
  if (index < num_vertices) return std::nullopt;
  return field_error(field, "vertex " + std::to_string(index) + " out of range (" +
                                std::to_string(num_vertices) + " vertices)");
}

std::optional<Error> check_edge(const std::string& field, const SoftBodyEdge& e,
                                size_t num_vertices) {
  for (int k = 0; k < 2; ++k)
    if (auto error = check_vertex_index(field + ".vertex[" + std::to_string(k) + "]", e.vertex[k],
                                        num_vertices))
      return error;
  if (e.vertex[0] == e.vertex[1])
    return field_error(field, "joins vertex " + std::to_string(e.vertex[0]) + " to itself");
  if (auto error = check_positive(field + ".rest_length", e.rest_length)) return error;
  return check_non_negative(field + ".compliance", e.compliance);
}

}  // namespace

void SoftBodySettings::create_edges_from_faces(float compliance) {
  std::map<std::pair<uint32_t, uint32_t>, bool> seen;
  for (const SoftBodyFace& face : faces) {
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = face[k], b = face[(k + 1) % 3];
      const std::pair<uint32_t, uint32_t> key(std::min(a, b), std::max(a, b));
      if (!seen.emplace(key, true).second) continue;
      SoftBodyEdge edge;
      edge.vertex[0] = key.first;
      edge.vertex[1] = key.second;
      edge.compliance = compliance;
      edge.rest_length = (vertices[key.second].position - vertices[key.first].position).length();
      edges.push_back(edge);
    }
  }
}

bool SoftBodySettings::is_closed() const {
  if (faces.empty()) return false;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> uses;
  for (const SoftBodyFace& face : faces)
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = face[k], b = face[(k + 1) % 3];
      ++uses[{std::min(a, b), std::max(a, b)}];
    }
  for (const auto& [edge, count] : uses)
    if (count != 2) return false;
  return true;
}

void SoftBodySettings::create_bends_from_faces(float compliance) {
  // For each edge, the first face that has it: where the edge starts in that face's order and
  // the vertex opposite it. A second face with the edge makes a bend (v0, v1, v2) = the first
  // face's order, v3 = the second face's opposite vertex (for consistently ordered faces the
  // second runs v1 → v0, as SoftBodyBend wants).
  struct Wing {
    uint32_t start;
    uint32_t opposite;
  };
  std::map<std::pair<uint32_t, uint32_t>, Wing> first;
  const std::vector<Vec3> x = positions_of(vertices);
  for (const SoftBodyFace& face : faces) {
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = face[k], b = face[(k + 1) % 3], opposite = face[(k + 2) % 3];
      const std::pair<uint32_t, uint32_t> key(std::min(a, b), std::max(a, b));
      const auto [it, inserted] = first.emplace(key, Wing{a, opposite});
      if (inserted) continue;
      SoftBodyBend bend;
      bend.vertex[0] = it->second.start;
      bend.vertex[1] = it->second.start == a ? b : a;
      bend.vertex[2] = it->second.opposite;
      bend.vertex[3] = opposite;
      bend.compliance = compliance;
      bend.rest_angle = dihedral_angle(x[bend.vertex[0]], x[bend.vertex[1]], x[bend.vertex[2]],
                                       x[bend.vertex[3]]);
      bends.push_back(bend);
    }
  }
}

void SoftBodySettings::create_long_range_attachments(float max_stretch) {
  std::vector<uint32_t> pinned;
  for (uint32_t i = 0; i < vertices.size(); ++i)
    if (vertices[i].inverse_mass == 0.0f) pinned.push_back(i);
  if (pinned.empty()) return;
  for (uint32_t i = 0; i < vertices.size(); ++i) {
    if (vertices[i].inverse_mass == 0.0f) continue;
    uint32_t nearest = pinned[0];
    float best = k_float_max;
    for (const uint32_t p : pinned) {
      const float d = (vertices[i].position - vertices[p].position).length_sq();
      if (d < best) {
        best = d;
        nearest = p;
      }
    }
    long_range.push_back({i, nearest, std::sqrt(best) * (1.0f + max_stretch)});
  }
}

void SoftBodySettings::compute_rest_values() {
  const std::vector<Vec3> x = positions_of(vertices);
  for (std::vector<SoftBodyEdge>* list : {&edges, &bend_edges})
    for (SoftBodyEdge& e : *list) e.rest_length = (x[e.vertex[1]] - x[e.vertex[0]]).length();
  for (SoftBodyBend& b : bends)
    b.rest_angle = dihedral_angle(x[b.vertex[0]], x[b.vertex[1]], x[b.vertex[2]], x[b.vertex[3]]);
  rest_volume = mesh_volume(x, faces);
}

float SoftBodySettings::total_mass() const {
  float mass = 0.0f;
  for (const SoftBodyVertex& v : vertices)
    if (v.inverse_mass > 0.0f) mass += 1.0f / v.inverse_mass;
  return mass;
}

Status SoftBodySettings::validate() const {
  const size_t n = vertices.size();
  if (n == 0) return field_error("vertices", "a soft body needs at least one vertex");
  if (n > (size_t{1} << 24))
    return field_error("vertices", "at most 16777216 vertices, got " + std::to_string(n));
  for (size_t i = 0; i < n; ++i) {
    const SoftBodyVertex& v = vertices[i];
    const std::string field = indexed("vertices", i);
    if (auto error = check_bounded(field + ".position", v.position, k_max_position, "m"))
      return *error;
    if (auto error = check_finite(field + ".velocity", v.velocity)) return *error;
    if (auto error = check_non_negative(field + ".inverse_mass", v.inverse_mass)) return *error;
  }
  for (size_t i = 0; i < edges.size(); ++i)
    if (auto error = check_edge(indexed("edges", i), edges[i], n)) return *error;
  for (size_t i = 0; i < bend_edges.size(); ++i)
    if (auto error = check_edge(indexed("bend_edges", i), bend_edges[i], n)) return *error;
  for (size_t i = 0; i < bends.size(); ++i) {
    const SoftBodyBend& b = bends[i];
    const std::string field = indexed("bends", i);
    for (int k = 0; k < 4; ++k)
      if (auto error =
              check_vertex_index(field + ".vertex[" + std::to_string(k) + "]", b.vertex[k], n))
        return *error;
    for (int j = 0; j < 4; ++j)
      for (int k = j + 1; k < 4; ++k)
        if (b.vertex[j] == b.vertex[k])
          return field_error(field, "names vertex " + std::to_string(b.vertex[j]) + " twice");
    if (auto error = check_finite(field + ".rest_angle", b.rest_angle)) return *error;
    if (std::fabs(b.rest_angle) > k_pi)
      return field_error(field + ".rest_angle",
                         "must be in [-pi, pi], got " + format_float(b.rest_angle));
    if (auto error = check_non_negative(field + ".compliance", b.compliance)) return *error;
  }
  for (size_t i = 0; i < long_range.size(); ++i) {
    const SoftBodyLongRangeAttachment& a = long_range[i];
    const std::string field = indexed("long_range", i);
    if (auto error = check_vertex_index(field + ".vertex", a.vertex, n)) return *error;
    if (auto error = check_vertex_index(field + ".anchor", a.anchor, n)) return *error;
    if (vertices[a.anchor].inverse_mass != 0.0f)
      return field_error(field + ".anchor",
                         "vertex " + std::to_string(a.anchor) + " is not pinned (inverse mass 0)");
    if (auto error = check_non_negative(field + ".max_distance", a.max_distance)) return *error;
  }
  const std::vector<Vec3> x = positions_of(vertices);
  for (size_t i = 0; i < faces.size(); ++i) {
    const SoftBodyFace& f = faces[i];
    const std::string field = indexed("faces", i);
    for (int k = 0; k < 3; ++k)
      if (auto error = check_vertex_index(field + "[" + std::to_string(k) + "]", f[k], n))
        return *error;
    if (f[0] == f[1] || f[1] == f[2] || f[0] == f[2])
      return field_error(field, "names a vertex twice");
    const float twice_area = (x[f[1]] - x[f[0]]).cross(x[f[2]] - x[f[0]]).length();
    if (!(twice_area > 1.0e-12f))
      return field_error(field, "is degenerate (its vertices are collinear)");
  }
  if (keep_volume) {
    if (faces.empty()) return field_error("keep_volume", "needs faces (a closed surface)");
    if (auto error = check_positive("pressure", pressure)) return *error;
    if (auto error = check_non_negative("volume_compliance", volume_compliance)) return *error;
    if (auto error = check_positive("rest_volume", rest_volume)) return *error;
  }
  if (auto error = check_non_negative("vertex_radius", vertex_radius)) return *error;
  if (vertex_radius > k_max_vertex_radius)
    return field_error("vertex_radius", "must be at most " + format_float(k_max_vertex_radius) +
                                            " m, got " + format_float(vertex_radius));
  if (auto error = check_non_negative("friction", friction)) return *error;
  if (auto error = check_non_negative("linear_damping", linear_damping)) return *error;
  return Ok{};
}

}  // namespace atl
