#include "atoll/softbody/SoftBody.h"

#include <algorithm>
#include <optional>
#include <string>

#include "atoll/body/Validation.h"
#include "atoll/collision/narrowphase/CollideShapes.h"
#include "atoll/collision/narrowphase/ShapeInstance.h"
#include "atoll/geometry/ClosestPoint.h"
#include "atoll/geometry/RayIntersections.h"
#include "atoll/math/Math.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/shape/Validation.h"

namespace atl {

namespace {

// Bounds on the step settings: beyond them a step is a mistake, not a request.
constexpr int k_max_substeps = 1000;
constexpr int k_max_iterations = 1000;
// Distance (m) beyond a vertex's reach in a step within which a contact plane is still taken.
constexpr float k_contact_margin = 0.01f;

std::optional<Error> check_collider(const std::string& field, const SoftBodyCollider& c) {
  if (c.shape == nullptr) return field_error(field + ".shape", "is null");
  if (auto e = check_rigid_transform(field + ".transform", c.transform)) return e;
  if (auto e = check_finite(field + ".center_of_mass", c.center_of_mass)) return e;
  if (auto e = check_finite(field + ".linear_velocity", c.linear_velocity)) return e;
  if (auto e = check_finite(field + ".angular_velocity", c.angular_velocity)) return e;
  if (auto e = check_finite(field + ".acceleration", c.acceleration)) return e;
  if (auto e = check_finite(field + ".angular_acceleration", c.angular_acceleration)) return e;
  if (auto e = check_non_negative(field + ".inverse_mass", c.inverse_mass)) return e;
  for (int column = 0; column < 3; ++column)
    if (auto e = check_finite(field + ".inverse_inertia", c.inverse_inertia.column3(column)))
      return e;
  return check_non_negative(field + ".friction", c.friction);
}

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
  closed_ = s.is_closed();
}

Status SoftBody::step(float dt, const SoftBodyStepSettings& step_settings,
                      std::span<SoftBodyCollider> colliders,
                      std::span<const SoftBodyAttachment> attachments) {
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
  for (size_t i = 0; i < colliders.size(); ++i)
    if (auto e = check_collider(std::string(call) + "colliders[" + std::to_string(i) + "]",
                                colliders[i]))
      return *e;
  attached_.assign(x_.size(), 0);
  for (size_t i = 0; i < attachments.size(); ++i) {
    const SoftBodyAttachment& a = attachments[i];
    const std::string field = std::string(call) + "attachments[" + std::to_string(i) + "]";
    if (a.vertex >= x_.size())
      return Error(field + ".vertex: " + std::to_string(a.vertex) + " out of range (" +
                   std::to_string(x_.size()) + " vertices)");
    if (w_[a.vertex] == 0.0f)
      return Error(field + ".vertex: vertex " + std::to_string(a.vertex) +
                   " is pinned (inverse mass 0); only a free vertex can be attached");
    if (attached_[a.vertex] != 0)
      return Error(field + ".vertex: vertex " + std::to_string(a.vertex) + " is attached twice");
    if (a.collider >= colliders.size())
      return Error(field + ".collider: " + std::to_string(a.collider) + " out of range (" +
                   std::to_string(colliders.size()) + " colliders)");
    if (auto e = check_finite(field + ".local_point", a.local_point)) return *e;
    attached_[a.vertex] = 1;
  }

  const float h = dt / float(step_settings.substeps);
  saved_x_ = x_;
  saved_v_ = v_;
  impulses_.assign(colliders.size(), Vec3::zero());
  angular_impulses_.assign(colliders.size(), Vec3::zero());
  find_contacts(dt, colliders);
  moving_.resize(colliders.size());
  for (size_t c = 0; c < colliders.size(); ++c) {
    const SoftBodyCollider& collider = colliders[c];
    moving_[c] = {collider.center_of_mass,
                  collider.linear_velocity,
                  collider.angular_velocity,
                  collider.inverse_mass > 0.0f ? collider.acceleration : Vec3::zero(),
                  collider.inverse_mass > 0.0f ? collider.angular_acceleration : Vec3::zero(),
                  Vec3::zero(),
                  Vec3::zero(),
                  collider.inverse_mass,
                  collider.inverse_inertia};
  }
  // Cleared at each sub-step's start.
  pushed_.resize(contacts_.size());
  depth_.resize(contacts_.size());
  // Each attachment's point at the step's start (world space).
  std::vector<Vec3>& anchors = anchors_;
  anchors.resize(attachments.size());
  for (size_t i = 0; i < attachments.size(); ++i)
    anchors[i] = colliders[attachments[i].collider].transform * attachments[i].local_point;
  for (int substep = 0; substep < step_settings.substeps; ++substep) {
    // The colliders move to where they are at the sub-step's end.
    for (Moving& m : moving_) {
      m.linear_velocity += m.acceleration * h;
      m.angular_velocity += m.angular_acceleration * h;
      m.offset += m.linear_velocity * h;
      m.turn += m.angular_velocity * h;
    }
    begin_substep();
    predict(h, step_settings.gravity);
    // An attached vertex starts the sub-step where its point will be at the sub-step's end.
    std::vector<Vec3>& targets = targets_;
    targets.resize(attachments.size());
    for (size_t i = 0; i < attachments.size(); ++i) {
      targets[i] = moving_[attachments[i].collider].at(anchors[i]);
      x_[attachments[i].vertex] = targets[i];
    }
    std::fill(pushed_.begin(), pushed_.end(), Vec3::zero());
    std::fill(depth_.begin(), depth_.end(), 0.0f);
    for (int iteration = 0; iteration < step_settings.iterations; ++iteration) {
      project(h);
      project_contacts();
    }
    apply_friction(h);
    // What the contacts gave the vertices, the colliders got back, shared by inverse masses.
    for (uint32_t k = 0; k < uint32_t(contacts_.size()); ++k) {
      const Contact& contact = contacts_[k];
      if (contact.collider < 0 || pushed_[k].length_sq() == 0.0f) continue;
      const uint32_t c = uint32_t(contact.collider);
      const Vec3 j = share(k / k_contacts_per_vertex, c, pushed_[k], contact.point, h);
      impulses_[c] += j;
      angular_impulses_[c] += (contact.point - colliders[c].center_of_mass).cross(j);
    }
    // An attached vertex pulled away from its point by its constraints pulls the collider; the
    // two meet where their inverse masses put them.
    for (size_t i = 0; i < attachments.size(); ++i) {
      const SoftBodyAttachment& a = attachments[i];
      const Vec3 pull = x_[a.vertex] - targets[i];
      // Moved back onto the point by −pull, of which the collider then takes its share.
      x_[a.vertex] = targets[i];
      if (pull.length_sq() == 0.0f) continue;
      const Vec3 j = share(a.vertex, a.collider, -pull, anchors[i], h);
      impulses_[a.collider] += j;
      angular_impulses_[a.collider] += (anchors[i] - colliders[a.collider].center_of_mass).cross(j);
    }
    finish_substep(h);
  }
  const bool finite =
      std::all_of(x_.begin(), x_.end(), [](const Vec3& p) { return p.is_finite(); }) &&
      std::all_of(v_.begin(), v_.end(), [](const Vec3& v) { return v.is_finite(); }) &&
      std::all_of(impulses_.begin(), impulses_.end(),
                  [](const Vec3& j) { return j.is_finite(); }) &&
      std::all_of(angular_impulses_.begin(), angular_impulses_.end(),
                  [](const Vec3& j) { return j.is_finite(); });
  if (!finite) {
    x_.swap(saved_x_);
    v_.swap(saved_v_);
    previous_x_ = x_;
    return Error(std::string(call) +
                 "the result is not finite (nothing was changed; a smaller dt or softer "
                 "constraints may help)");
  }
  for (size_t c = 0; c < colliders.size(); ++c) {
    colliders[c].impulse += impulses_[c];
    colliders[c].angular_impulse += angular_impulses_[c];
  }
  return Ok{};
}

void SoftBody::find_contacts(float dt, std::span<const SoftBodyCollider> colliders) {
  // Twice the world's extent (m): no contact is further.
  constexpr float k_max_reach = 2.0f * k_max_position;
  contacts_.assign(x_.size() * k_contacts_per_vertex, Contact());
  if (colliders.empty()) return;
  const float radius = settings_->vertex_radius;
  const SphereShape sphere(vertex_sphere_radius());
  std::vector<AABox> collider_bounds(colliders.size());
  for (size_t c = 0; c < colliders.size(); ++c)
    collider_bounds[c] = colliders[c].shape->world_bounds(colliders[c].transform);
  CollideShapeSettings settings;
  settings.collect_faces = false;
  for (size_t i = 0; i < x_.size(); ++i) {
    if (w_[i] == 0.0f || attached_[i] != 0) continue;
    const float speed = v_[i].length();
    const Mat44 at = Mat44::translation(x_[i]);
    // The deepest contact, and the deepest with another collider (a cloth between a box and
    // the floor is kept out of both).
    Contact* best = &contacts_[i * k_contacts_per_vertex];
    Contact* second = best + 1;
    float best_depth = -k_float_max, second_depth = -k_float_max;
    for (size_t c = 0; c < colliders.size(); ++c) {
      // How far the vertex and the collider may close in within the step (the collider's
      // rotation counted at its bounds' far corner).
      const SoftBodyCollider& collider = colliders[c];
      // At most the size of the world: speeds near float's limit overflowed it to ∞, and the
      // narrow phase refused the settings (an assert; found by the api_calls fuzzer).
      const float raw_reach =
          (speed + collider.linear_velocity.length() +
           collider.angular_velocity.length() *
               (collider_bounds[c].center() - collider.center_of_mass).length()) *
              dt +
          k_contact_margin;
      const float reach = raw_reach < k_max_reach ? raw_reach : k_max_reach;  // ∞ and NaN too
      const AABox near = AABox::from_center(x_[i], Vec3::replicate(sphere.radius() + reach));
      if (!collider_bounds[c].overlaps(near)) continue;
      settings.max_separation_distance = reach + std::max(0.0f, radius - sphere.radius());
      ClosestContactCollector closest;
      collide_shapes_unchecked(sphere, at, *colliders[c].shape, colliders[c].transform, settings,
                               closest);
      const float depth = closest.closest.penetration_depth;
      if (!closest.has_hit || depth <= second_depth) continue;
      Contact* into = second;
      if (depth > best_depth) {
        *second = *best;
        second_depth = best_depth;
        best_depth = depth;
        into = best;
      } else {
        second_depth = depth;
      }
      into->collider = int32_t(c);
      // The manifold's normal points from the vertex's sphere into the collider.
      into->normal = -closest.closest.normal;
      into->point = closest.closest.points_on_2[0];
      into->friction = std::sqrt(settings_->friction * collider.friction);
    }
  }
}

void SoftBody::project_contacts() {
  const float radius = settings_->vertex_radius;
  for (size_t k = 0; k < contacts_.size(); ++k) {
    const Contact& contact = contacts_[k];
    if (contact.collider < 0) continue;
    const size_t i = k / k_contacts_per_vertex;
    const Vec3 plane_point = moving_[uint32_t(contact.collider)].at(contact.point);
    const float c = contact.normal.dot(x_[i] - plane_point) - radius;
    if (c >= 0.0f) continue;
    const Vec3 push = contact.normal * -c;
    x_[i] += push;
    pushed_[k] += push;
    depth_[k] -= c;
  }
}

void SoftBody::apply_friction(float h) {
  for (size_t k = 0; k < contacts_.size(); ++k) {
    const Contact& contact = contacts_[k];
    if (contact.collider < 0 || depth_[k] == 0.0f) continue;
    const size_t i = k / k_contacts_per_vertex;
    // The sub-step's motion relative to the collider's surface, along the plane.
    const Vec3 relative = (x_[i] - previous_x_[i]) -
                          moving_[uint32_t(contact.collider)].velocity_at(contact.point) * h;
    const Vec3 tangential = relative - contact.normal * contact.normal.dot(relative);
    const float slide = tangential.length();
    if (slide == 0.0f) continue;
    const float limit = contact.friction * depth_[k];
    // Static friction holds the vertex; kinetic friction takes off as much as the normal push.
    const Vec3 correction = slide <= limit ? -tangential : tangential * (-limit / slide);
    x_[i] += correction;
    pushed_[k] += correction;
  }
}

Vec3 SoftBody::share(uint32_t vertex, uint32_t c, const Vec3& move, const Vec3& point, float h) {
  Moving& m = moving_[c];
  const float length = move.length();
  const Vec3 n = move / length;
  const Vec3 r = point - m.center_of_mass;
  const Vec3 r_cross_n = r.cross(n);
  const Vec3 angular = m.inverse_inertia.multiply3x3(r_cross_n);
  const float w_collider = m.inverse_mass + r_cross_n.dot(angular);
  const float w_vertex = w_[vertex];
  // λ (kg·m): the vertex keeps w_vertex·λ of the move, the collider's point takes the rest.
  const float lambda = length / (w_vertex + w_collider);
  if (w_collider > 0.0f) {
    x_[vertex] -= n * (w_collider * lambda);
    // The collider moves by −λ·n through its inverse mass and inertia, and keeps moving so.
    const Vec3 dx = n * (-lambda * m.inverse_mass);
    const Vec3 dtheta = angular * -lambda;
    m.offset += dx;
    m.turn += dtheta;
    m.linear_velocity += dx / h;
    m.angular_velocity += dtheta / h;
  }
  return n * (-lambda / h);
}

uint32_t SoftBody::num_contacts() const {
  uint32_t count = 0;
  for (size_t k = 0; k < contacts_.size(); k += k_contacts_per_vertex)
    count += contacts_[k].collider >= 0 ? 1 : 0;
  return count;
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

namespace {

// The mass-weighted mean of `values` over the free vertices (w > 0), in double: a vertex of
// inverse mass 1e-38 weighs 1e38 kg, and its weight times a position overflowed float, which
// gave the soft body's Body an infinite pose (found by the api_calls fuzzer). The mean of
// finite values lies among them, so the result is finite. Null when no vertex is free.
std::optional<Vec3> mass_weighted_mean(std::span<const Vec3> values, std::span<const float> w) {
  double sum[3] = {0.0, 0.0, 0.0}, mass = 0.0;
  for (size_t i = 0; i < values.size(); ++i) {
    if (w[i] == 0.0f) continue;
    const double m = 1.0 / double(w[i]);
    for (int k = 0; k < 3; ++k) sum[k] += double(values[i][k]) * m;
    mass += m;
  }
  if (!(mass > 0.0)) return std::nullopt;
  return Vec3(float(sum[0] / mass), float(sum[1] / mass), float(sum[2] / mass));
}

}  // namespace

Vec3 SoftBody::linear_velocity() const { return mass_weighted_mean(v_, w_).value_or(Vec3::zero()); }

Vec3 SoftBody::center_of_mass() const {
  if (std::optional<Vec3> mean = mass_weighted_mean(x_, w_)) return *mean;
  Vec3 sum = Vec3::zero();
  for (const Vec3& x : x_) sum += x;
  return sum / float(x_.size());
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

float SoftBody::volume() const { return closed_ ? mesh_volume(x_, settings_->faces) : 0.0f; }

float SoftBody::cast_ray(const Vec3& origin, const Vec3& direction, Vec3* normal) const {
  const Vec3 back = (-direction).normalized_or(Vec3::axis_y());
  if (contains_point(origin)) {
    if (normal != nullptr) *normal = back;
    return 0.0f;
  }
  const float radius = settings_->vertex_radius;
  float best = k_float_max;
  // What was hit: a face, a vertex, or an edge (their index).
  enum class Feature { none, face, vertex, edge } feature = Feature::none;
  size_t index = 0;
  const auto take = [&](float t, Feature f, size_t i) {
    if (t < best) {
      best = t;
      feature = f;
      index = i;
    }
  };
  const std::vector<SoftBodyFace>& faces = settings_->faces;
  for (size_t i = 0; i < faces.size(); ++i)
    take(ray_triangle(origin, direction, x_[faces[i][0]], x_[faces[i][1]], x_[faces[i][2]]),
         Feature::face, i);
  if (radius > 0.0f) {
    for (size_t i = 0; i < x_.size(); ++i)
      take(ray_sphere(origin, direction, x_[i], radius), Feature::vertex, i);
    const std::vector<SoftBodyEdge>& edges = settings_->edges;
    for (size_t i = 0; i < edges.size(); ++i)
      take(ray_segment_capsule(origin, direction, x_[edges[i].vertex[0]], x_[edges[i].vertex[1]],
                               radius),
           Feature::edge, i);
  }
  if (normal == nullptr || feature == Feature::none) return best;
  const Vec3 at = origin + direction * best;
  Vec3 n = back;
  if (feature == Feature::face) {
    const SoftBodyFace& f = faces[index];
    n = (x_[f[1]] - x_[f[0]]).cross(x_[f[2]] - x_[f[0]]).normalized_or(back);
    if (n.dot(direction) > 0.0f) n = -n;
  } else if (feature == Feature::vertex) {
    n = (at - x_[index]).normalized_or(back);
  } else {
    const SoftBodyEdge& e = settings_->edges[index];
    // From the capsule's axis to the point hit.
    n = (-closest_point_to_origin_on_segment(x_[e.vertex[0]] - at, x_[e.vertex[1]] - at).point)
            .normalized_or(back);
  }
  *normal = n;
  return best;
}

bool SoftBody::contains_point(const Vec3& point) const {
  const float radius_sq = square(settings_->vertex_radius);
  for (const Vec3& p : x_)
    if ((p - point).length_sq() <= radius_sq) return true;
  for (const SoftBodyEdge& e : settings_->edges)
    if (closest_point_to_origin_on_segment(x_[e.vertex[0]] - point, x_[e.vertex[1]] - point)
            .point.length_sq() <= radius_sq)
      return true;
  if (!closed_) return false;
  // The winding number of the surface around the point: the faces' solid angles seen from it
  // (van Oosterom and Strackee's formula) over 4π; about ±1 inside (the sign is the faces'
  // orientation), about 0 outside.
  double solid_angle = 0.0;
  for (const SoftBodyFace& f : settings_->faces) {
    const Vec3 a = x_[f[0]] - point, b = x_[f[1]] - point, c = x_[f[2]] - point;
    const float la = a.length(), lb = b.length(), lc = c.length();
    const float numerator = a.dot(b.cross(c));
    const float denominator = la * lb * lc + a.dot(b) * lc + a.dot(c) * lb + b.dot(c) * la;
    solid_angle += 2.0 * double(atl::atan2(numerator, denominator));
  }
  return std::fabs(solid_angle) > 2.0 * double(k_pi);
}

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
