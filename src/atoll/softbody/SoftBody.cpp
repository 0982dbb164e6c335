#include "atoll/softbody/SoftBody.h"

#include <algorithm>
#include <string>

#include "atoll/shape/Validation.h"

namespace atl {

namespace {

// Bounds on the step settings: beyond them a step is a mistake, not a request.
constexpr int k_max_substeps = 1000;
constexpr int k_max_iterations = 1000;

}  // namespace

Result<std::unique_ptr<SoftBody>> SoftBody::create(Ref<const SoftBodySettings> settings) {
  if (settings == nullptr) return Error("SoftBody::create: settings: is null");
  if (Status valid = settings->validate(); !valid)
    return Error("SoftBody::create: settings." + std::string(valid.error().message()));
  return std::unique_ptr<SoftBody>(new SoftBody(std::move(settings)));
}

SoftBody::SoftBody(Ref<const SoftBodySettings> settings) : settings_(std::move(settings)) {
  const SoftBodySettings& s = *settings_;
  const size_t n = s.vertices.size();
  x_.resize(n);
  v_.resize(n);
  w_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    x_[i] = s.vertices[i].position;
    w_[i] = s.vertices[i].inverse_mass;
    v_[i] = w_[i] > 0.0f ? s.vertices[i].velocity : Vec3::zero();
  }
  previous_x_ = x_;
  lambda_.assign(s.edges.size() + s.bend_edges.size() + s.bends.size() + (s.keep_volume ? 1 : 0),
                 0.0f);
  if (s.keep_volume) volume_gradient_.resize(n);
}

Status SoftBody::step(float dt, const SoftBodyStepSettings& step_settings) {
  constexpr const char* call = "SoftBody::step: ";
  if (!(std::isfinite(dt) && dt > 0.0f))
    return Error(std::string(call) + "dt: must be finite and > 0, got " + format_float(dt));
  if (step_settings.substeps < 1 || step_settings.substeps > k_max_substeps)
    return Error(std::string(call) + "substeps: must be in [1, " + std::to_string(k_max_substeps) +
                 "], got " + std::to_string(step_settings.substeps));
  if (step_settings.iterations < 1 || step_settings.iterations > k_max_iterations)
    return Error(std::string(call) + "iterations: must be in [1, " +
                 std::to_string(k_max_iterations) + "], got " +
                 std::to_string(step_settings.iterations));
  if (!step_settings.gravity.is_finite())
    return Error(std::string(call) + "gravity: must be finite, got " +
                 format_vec3(step_settings.gravity));
  const float h = dt / float(step_settings.substeps);
  saved_x_ = x_;
  saved_v_ = v_;
  for (int substep = 0; substep < step_settings.substeps; ++substep) {
    begin_substep();
    predict(h, step_settings.gravity);
    for (int iteration = 0; iteration < step_settings.iterations; ++iteration) project(h);
    finish_substep(h);
  }
  const bool finite =
      std::all_of(x_.begin(), x_.end(), [](const Vec3& p) { return p.is_finite(); }) &&
      std::all_of(v_.begin(), v_.end(), [](const Vec3& v) { return v.is_finite(); });
  if (!finite) {
    x_.swap(saved_x_);
    v_.swap(saved_v_);
    previous_x_ = x_;
    return Error(std::string(call) +
                 "the result is not finite (nothing was changed; a smaller dt or softer "
                 "constraints may help)");
  }
  return Ok{};
}

void SoftBody::begin_substep() { std::fill(lambda_.begin(), lambda_.end(), 0.0f); }

void SoftBody::predict(float h, const Vec3& gravity) {
  const Vec3 dv = gravity * h;
  for (size_t i = 0; i < x_.size(); ++i) {
    previous_x_[i] = x_[i];
    if (w_[i] == 0.0f) continue;
    v_[i] += dv;
    x_[i] += v_[i] * h;
  }
}

void SoftBody::project(float h) {
  const SoftBodySettings& s = *settings_;
  const float inverse_h_sq = 1.0f / (h * h);
  float* lambda = lambda_.data();
  for (const std::vector<SoftBodyEdge>* list : {&s.edges, &s.bend_edges})
    for (const SoftBodyEdge& e : *list) {
      const uint32_t a = e.vertex[0], b = e.vertex[1];
      project_distance(x_[a], x_[b], w_[a], w_[b], e.rest_length, e.compliance * inverse_h_sq,
                       *lambda++);
    }
  for (const SoftBodyBend& bend : s.bends) {
    const uint32_t* v = bend.vertex;
    project_dihedral(x_[v[0]], x_[v[1]], x_[v[2]], x_[v[3]], w_[v[0]], w_[v[1]], w_[v[2]], w_[v[3]],
                     bend.rest_angle, bend.compliance * inverse_h_sq, *lambda++);
  }
  if (s.keep_volume)
    project_volume(x_, w_, s.faces, s.pressure * s.rest_volume, s.volume_compliance * inverse_h_sq,
                   *lambda++, volume_gradient_);
  for (const SoftBodyLongRangeAttachment& a : s.long_range)
    project_long_range(x_[a.vertex], x_[a.anchor], a.max_distance);
}

void SoftBody::finish_substep(float h) {
  const float inverse_h = 1.0f / h;
  const float keep = std::max(0.0f, 1.0f - settings_->linear_damping * h);
  for (size_t i = 0; i < x_.size(); ++i) {
    if (w_[i] == 0.0f) continue;
    v_[i] = (x_[i] - previous_x_[i]) * (inverse_h * keep);
  }
}

Status SoftBody::set_vertex(uint32_t index, const Vec3& position, const Vec3& velocity) {
  if (index >= x_.size())
    return Error("SoftBody::set_vertex: index: " + std::to_string(index) + " out of range (" +
                 std::to_string(x_.size()) + " vertices)");
  if (auto e = check_finite("SoftBody::set_vertex: position", position)) return *e;
  if (auto e = check_finite("SoftBody::set_vertex: velocity", velocity)) return *e;
  x_[index] = position;
  previous_x_[index] = position;
  v_[index] = w_[index] > 0.0f ? velocity : Vec3::zero();
  return Ok{};
}

Vec3 SoftBody::center_of_mass() const {
  Vec3 weighted = Vec3::zero(), sum = Vec3::zero();
  float mass = 0.0f;
  for (size_t i = 0; i < x_.size(); ++i) {
    sum += x_[i];
    if (w_[i] == 0.0f) continue;
    const float m = 1.0f / w_[i];
    weighted += x_[i] * m;
    mass += m;
  }
  return mass > 0.0f ? weighted / mass : sum / float(x_.size());
}

AABox SoftBody::bounds() const {
  AABox box;
  for (const Vec3& p : x_) box.encapsulate(p);
  return box;
}

float SoftBody::max_strain() const {
  float strain = 0.0f;
  bool any = false;
  for (const SoftBodyEdge& e : settings_->edges) {
    const float length = (x_[e.vertex[1]] - x_[e.vertex[0]]).length();
    const float edge_strain = (length - e.rest_length) / e.rest_length;
    strain = any ? std::max(strain, edge_strain) : edge_strain;
    any = true;
  }
  return strain;
}

float SoftBody::volume() const { return mesh_volume(x_, settings_->faces); }

float SoftBody::kinetic_energy() const {
  float energy = 0.0f;
  for (size_t i = 0; i < x_.size(); ++i)
    if (w_[i] > 0.0f) energy += 0.5f * v_[i].length_sq() / w_[i];
  return energy;
}

float SoftBody::potential_energy(const Vec3& gravity) const {
  float energy = 0.0f;
  for (size_t i = 0; i < x_.size(); ++i)
    if (w_[i] > 0.0f) energy -= gravity.dot(x_[i]) / w_[i];
  return energy;
}

}  // namespace atl
