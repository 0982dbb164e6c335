#include "atoll/shape/ConvexHullShape.h"

#include <algorithm>
#include <cmath>

#include "atoll/geometry/GJK.h"
#include "atoll/shape/Validation.h"

namespace atl {

namespace {

// Support of a point set scaled per axis, grown by `radius`. It points into the shape's own
// arrays (shapes outlive the queries that use them) instead of copying them into the buffer.
class HullSupport final : public ConvexSupport {
 public:
  HullSupport(const std::vector<Vec3>& points, const Vec3& scale, float radius)
      : points_(points.data()), count_(points.size()), scale_(scale), radius_(radius) {}
  Vec3 get_support(const Vec3& direction) const override {
    // max over p of (p·s)·d = max over p of p·(s·d): scale the direction once, not every point.
    const Vec3 scaled_direction = direction * scale_;
    size_t best = 0;
    float best_dot = points_[0].dot(scaled_direction);
    for (size_t i = 1; i < count_; ++i) {
      const float d = points_[i].dot(scaled_direction);
      if (d > best_dot) {
        best_dot = d;
        best = i;
      }
    }
    return points_[best] * scale_;
  }
  float convex_radius() const override { return radius_; }

 private:
  const Vec3* points_;
  size_t count_;
  Vec3 scale_;
  float radius_;
};

// A flat hull's polygon grown by `radius` (its full shape): the support of the points plus
// radius along the direction.
class RoundedHullSupport final : public ConvexSupport {
 public:
  RoundedHullSupport(const std::vector<Vec3>& points, const Vec3& scale, float radius)
      : core_(points, scale, 0.0f), radius_(radius) {}
  Vec3 get_support(const Vec3& direction) const override {
    return core_.get_support(direction) + direction.normalized_or(Vec3::zero()) * radius_;
  }
  float convex_radius() const override { return 0.0f; }

 private:
  HullSupport core_;
  float radius_;
};

/// GJK's tolerance (m) for the ray cast and point queries of a flat hull.
constexpr float k_flat_query_tolerance = 1.0e-5f;

struct Vec3d {
  double x = 0.0, y = 0.0, z = 0.0;
};

Vec3d to_double(const Vec3& v) { return {v.x(), v.y(), v.z()}; }
Vec3d sub(const Vec3d& a, const Vec3d& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
double dot(const Vec3d& a, const Vec3d& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3d cross(const Vec3d& a, const Vec3d& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
double component(const Vec3d& v, int i) { return i == 0 ? v.x : (i == 1 ? v.y : v.z); }

}  // namespace

Result<Ref<Shape>> ConvexHullShapeSettings::create() const {
  if (auto e = check_non_negative("ConvexHullShapeSettings.max_convex_radius", max_convex_radius))
    return *e;
  if (auto e = check_positive("ConvexHullShapeSettings.hull_tolerance", hull_tolerance)) return *e;
  if (auto e = check_non_negative("ConvexHullShapeSettings.max_error_convex_radius",
                                  max_error_convex_radius))
    return *e;
  if (auto e = check_positive("ConvexHullShapeSettings.density", density)) return *e;
  // The builder checks the points (count, finiteness, degeneracy) and names them "points…".
  Result<ConvexHull> hull = ConvexHullBuilder::build(points, hull_tolerance);
  if (!hull.ok()) return Error(std::string("ConvexHullShapeSettings.") + hull.error().message());
  Ref<ConvexHullShape> shape =
      make_ref<ConvexHullShape>(hull.value(), max_convex_radius, max_error_convex_radius, density);
  // Points near float's limit (±3e38 m) made a hull whose bounds overflowed (found by the
  // shapes fuzzer).
  const AABox bounds = shape->local_bounds();
  if (!bounds.min.is_finite() || !bounds.max.is_finite())
    return field_error("ConvexHullShapeSettings.points", "the hull's bounds overflow float (got " +
                                                             format_vec3(bounds.min) + " to " +
                                                             format_vec3(bounds.max) + ")");
  return Ref<Shape>(std::move(shape));
}

ConvexHullShape::ConvexHullShape(const ConvexHull& hull, float max_convex_radius,
                                 float max_error_convex_radius, float density)
    : ConvexShape(ShapeSubType::ConvexHull, density),
      vertices_(hull.vertices),
      faces_(hull.faces),
      face_indices_(hull.face_indices) {
  ATOLL_ASSERT(vertices_.size() >= 3 && faces_.size() >= 2, "ConvexHullShape: degenerate hull");
  ATOLL_ASSERT(max_convex_radius >= 0.0f && max_error_convex_radius >= 0.0f,
               "ConvexHullShape: convex radius and its error must be >= 0");
  ATOLL_ASSERT(density > 0.0f && std::isfinite(density), "ConvexHullShape: density must be > 0");
  for (const Vec3& v : vertices_) bounds_.encapsulate(v);
  if (hull.flat()) {
    // A plate: the polygon inset by the radius is the core, the radius is added around it (see
    // the header).
    flat_ = true;
    compute_flat_core(max_convex_radius);
    bounds_ = AABox();
    for (const Vec3& c : core_vertices_) bounds_.encapsulate(c);
    bounds_ = bounds_.expanded(convex_radius_);
    compute_flat_mass_properties();
    inner_radius_ = convex_radius_;
    return;
  }
  compute_mass_properties();
  ATOLL_ASSERT(volume_ > 0.0f, "ConvexHullShape: hull has no volume");
  inner_radius_ = k_float_max;
  for (const ConvexHull::Face& face : faces_)
    inner_radius_ = std::min(inner_radius_, face.distance - face.normal.dot(center_of_mass_));
  inner_radius_ = std::max(inner_radius_, 0.0f);
  compute_convex_radius(max_convex_radius, max_error_convex_radius);
}

void ConvexHullShape::compute_mass_properties() {
  // Split the hull into tetrahedra (p0, a, b, c): p0 is the vertex average (inside a convex
  // hull), a-b-c a fan triangle of each face. With edges e_i from p0, a tetrahedron has volume
  // V = e1·(e2 × e3)/6 and second moment ∫x·xᵀ = V/20·(Σ e_i·e_iᵀ + (Σ e_i)(Σ e_i)ᵀ) about p0.
  Vec3d p0;
  for (const Vec3& v : vertices_) {
    p0.x += v.x();
    p0.y += v.y();
    p0.z += v.z();
  }
  const double inv_count = 1.0 / static_cast<double>(vertices_.size());
  p0 = {p0.x * inv_count, p0.y * inv_count, p0.z * inv_count};

  double volume = 0.0;
  Vec3d moment;  // Σ V·centroid, relative to p0
  double cov[3][3] = {};
  for (const ConvexHull::Face& face : faces_) {
    const uint32_t* idx = &face_indices_[face.first_index];
    const Vec3d a = sub(to_double(vertices_[idx[0]]), p0);
    for (uint32_t k = 1; k + 1 < face.num_indices; ++k) {
      const Vec3d b = sub(to_double(vertices_[idx[k]]), p0);
      const Vec3d c = sub(to_double(vertices_[idx[k + 1]]), p0);
      const double v = dot(a, cross(b, c)) / 6.0;
      const Vec3d s{a.x + b.x + c.x, a.y + b.y + c.y, a.z + b.z + c.z};
      volume += v;
      moment = {moment.x + v * s.x / 4.0, moment.y + v * s.y / 4.0, moment.z + v * s.z / 4.0};
      for (int r = 0; r < 3; ++r)
        for (int col = 0; col < 3; ++col)
          cov[r][col] +=
              v / 20.0 *
              (component(a, r) * component(a, col) + component(b, r) * component(b, col) +
               component(c, r) * component(c, col) + component(s, r) * component(s, col));
    }
  }
  const Vec3d com{moment.x / volume, moment.y / volume, moment.z / volume};
  // Covariance about the centre of mass, then I = tr(C)·1 − C.
  for (int r = 0; r < 3; ++r)
    for (int col = 0; col < 3; ++col)
      cov[r][col] -= volume * component(com, r) * component(com, col);
  const double tr = cov[0][0] + cov[1][1] + cov[2][2];
  for (int r = 0; r < 3; ++r)
    for (int col = 0; col < 3; ++col)
      unit_inertia_.set(r, col, static_cast<float>((r == col ? tr : 0.0) - cov[r][col]));
  volume_ = static_cast<float>(volume);
  center_of_mass_ = Vec3(static_cast<float>(p0.x + com.x), static_cast<float>(p0.y + com.y),
                         static_cast<float>(p0.z + com.z));
}

void ConvexHullShape::compute_flat_mass_properties() {
  // The polygon (the front face) extruded by ±r along its normal n. Fan triangles (a, b, c)
  // about the vertex average p0 give the area A, the centroid and the area's second moment
  // ∫x·xᵀ dA = A/12·(Σ v·vᵀ + s·sᵀ) (s = a + b + c); the slab of thickness t = 2r adds
  // A·t³/12·n·nᵀ to t times that.
  const ConvexHull::Face& front = faces_[0];
  const Vec3d n = to_double(front.normal);
  Vec3d p0;
  for (const Vec3& v : vertices_) p0 = {p0.x + v.x(), p0.y + v.y(), p0.z + v.z()};
  const double inv_count = 1.0 / static_cast<double>(vertices_.size());
  p0 = {p0.x * inv_count, p0.y * inv_count, p0.z * inv_count};

  double area = 0.0;
  Vec3d moment;  // Σ A·centroid, relative to p0
  double cov[3][3] = {};
  const uint32_t* idx = &face_indices_[front.first_index];
  const Vec3d a = sub(to_double(vertices_[idx[0]]), p0);
  for (uint32_t k = 1; k + 1 < front.num_indices; ++k) {
    const Vec3d b = sub(to_double(vertices_[idx[k]]), p0);
    const Vec3d c = sub(to_double(vertices_[idx[k + 1]]), p0);
    const double triangle_area = 0.5 * dot(n, cross(sub(b, a), sub(c, a)));
    const Vec3d s{a.x + b.x + c.x, a.y + b.y + c.y, a.z + b.z + c.z};
    area += triangle_area;
    moment = {moment.x + triangle_area * s.x / 3.0, moment.y + triangle_area * s.y / 3.0,
              moment.z + triangle_area * s.z / 3.0};
    for (int r = 0; r < 3; ++r)
      for (int col = 0; col < 3; ++col)
        cov[r][col] += triangle_area / 12.0 *
                       (component(a, r) * component(a, col) + component(b, r) * component(b, col) +
                        component(c, r) * component(c, col) + component(s, r) * component(s, col));
  }
  const Vec3d com{moment.x / area, moment.y / area, moment.z / area};
  const double thickness = 2.0 * static_cast<double>(convex_radius_);
  for (int r = 0; r < 3; ++r)
    for (int col = 0; col < 3; ++col)
      cov[r][col] =
          thickness * (cov[r][col] - area * component(com, r) * component(com, col)) +
          area * thickness * thickness * thickness / 12.0 * component(n, r) * component(n, col);
  const double tr = cov[0][0] + cov[1][1] + cov[2][2];
  for (int r = 0; r < 3; ++r)
    for (int col = 0; col < 3; ++col)
      unit_inertia_.set(r, col, static_cast<float>((r == col ? tr : 0.0) - cov[r][col]));
  volume_ = static_cast<float>(area * thickness);
  center_of_mass_ = Vec3(static_cast<float>(p0.x + com.x), static_cast<float>(p0.y + com.y),
                         static_cast<float>(p0.z + com.z));
}

namespace {

struct Point2d {
  double x = 0.0, y = 0.0;
};

/// The part of the convex polygon `polygon` (counter-clockwise) where m·p ≥ offset.
std::vector<Point2d> clip_polygon(const std::vector<Point2d>& polygon, const Point2d& m,
                                  double offset) {
  std::vector<Point2d> out;
  const size_t count = polygon.size();
  for (size_t i = 0; i < count; ++i) {
    const Point2d& a = polygon[i];
    const Point2d& b = polygon[(i + 1) % count];
    const double da = m.x * a.x + m.y * a.y - offset;
    const double db = m.x * b.x + m.y * b.y - offset;
    if (da >= 0.0) out.push_back(a);
    if ((da >= 0.0) != (db >= 0.0)) {
      const double t = da / (da - db);
      out.push_back({a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)});
    }
  }
  return out;
}

/// Area of a counter-clockwise polygon (0 for fewer than three points).
double polygon_area(const std::vector<Point2d>& polygon) {
  double twice = 0.0;
  for (size_t i = 0; i < polygon.size(); ++i) {
    const Point2d& a = polygon[i];
    const Point2d& b = polygon[(i + 1) % polygon.size()];
    twice += a.x * b.y - a.y * b.x;
  }
  return 0.5 * twice;
}

/// The convex polygon (counter-clockwise) with every edge moved inward by `inset`: the
/// intersection of the moved edges' half-planes, without repeated points.
// |a − b| by IEEE operations only (std::hypot is a libm function whose last bit may differ
// between platforms: ATOLL_CROSS_PLATFORM_DETERMINISTIC).
double distance_2d(const Point2d& a, const Point2d& b) {
  return std::sqrt((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y));
}

std::vector<Point2d> inset_polygon(const std::vector<Point2d>& polygon, double inset) {
  std::vector<Point2d> core = polygon;
  for (size_t i = 0; i < polygon.size() && !core.empty(); ++i) {
    const Point2d& a = polygon[i];
    const Point2d& b = polygon[(i + 1) % polygon.size()];
    const double length = distance_2d(a, b);
    const Point2d m{-(b.y - a.y) / length, (b.x - a.x) / length};  // inward (left) normal
    core = clip_polygon(core, m, m.x * a.x + m.y * a.y + inset);
  }
  std::vector<Point2d> unique;
  for (const Point2d& p : core)
    if (unique.empty() || distance_2d(p, unique.back()) > 1.0e-9) unique.push_back(p);
  while (unique.size() > 1 && distance_2d(unique.front(), unique.back()) <= 1.0e-9)
    unique.pop_back();
  return unique;
}

}  // namespace

void ConvexHullShape::compute_flat_core(float max_convex_radius) {
  // In-plane axes u, w with u × w = n (the front normal), so that the front face's
  // counter-clockwise order is counter-clockwise in (u, w); the plane is through the vertex
  // average.
  const ConvexHull::Face& front = faces_[0];
  const Vec3d n = to_double(front.normal);
  const Vec3d helper = std::fabs(n.x) < 0.57 ? Vec3d{1.0, 0.0, 0.0} : Vec3d{0.0, 1.0, 0.0};
  Vec3d u = cross(helper, n);
  const double u_length = std::sqrt(dot(u, u));
  u = {u.x / u_length, u.y / u_length, u.z / u_length};
  const Vec3d w = cross(n, u);
  Vec3d origin;
  for (const Vec3& v : vertices_) origin = {origin.x + v.x(), origin.y + v.y(), origin.z + v.z()};
  const double inv_count = 1.0 / static_cast<double>(vertices_.size());
  origin = {origin.x * inv_count, origin.y * inv_count, origin.z * inv_count};
  std::vector<Point2d> polygon;
  for (uint32_t k = 0; k < front.num_indices; ++k) {
    const Vec3d d = sub(to_double(vertices_[face_indices_[front.first_index + k]]), origin);
    polygon.push_back({dot(d, u), dot(d, w)});
  }
  if (max_convex_radius == 0.0f) {
    // A 2D shape: the polygon itself, in the front face's order.
    convex_radius_ = 0.0f;
    core_vertices_.clear();
    for (uint32_t k = 0; k < front.num_indices; ++k)
      core_vertices_.push_back(vertices_[face_indices_[front.first_index + k]]);
    return;
  }
  // The inset keeps an area while the radius is below the polygon's inradius; it is capped at
  // half the inradius so that the core stays a proper polygon (as thin 3D hulls get less).
  const double area = polygon_area(polygon);
  const auto keeps_area = [&](double inset) {
    const std::vector<Point2d> core = inset_polygon(polygon, inset);
    return core.size() >= 3 && polygon_area(core) > 1.0e-9 * area;
  };
  double radius = max_convex_radius;
  if (!keeps_area(2.0 * radius)) {
    // Bisect the inradius: the largest inset that keeps an area.
    double low = 0.0, high = 2.0 * radius;
    for (int iteration = 0; iteration < 60; ++iteration) {
      const double middle = 0.5 * (low + high);
      (keeps_area(middle) ? low : high) = middle;
    }
    radius = 0.5 * low;
  }
  convex_radius_ = static_cast<float>(radius);
  core_vertices_.clear();
  for (const Point2d& p : inset_polygon(polygon, static_cast<double>(convex_radius_))) {
    const Vec3d q{origin.x + p.x * u.x + p.y * w.x, origin.y + p.x * u.y + p.y * w.y,
                  origin.z + p.x * u.z + p.y * w.z};
    core_vertices_.push_back(
        Vec3(static_cast<float>(q.x), static_cast<float>(q.y), static_cast<float>(q.z)));
  }
}

void ConvexHullShape::compute_convex_radius(float max_convex_radius, float max_error) {
  // Moving every face plane inward by r moves vertex v to v − r·o, where o solves n_j·o = 1 for
  // the planes n_j of the faces around v. Where more than three faces meet, the moved planes
  // need not meet in one point: o is then scaled so that n_j·o ≥ 1 on every incident face (the
  // grown core never pokes out), and those faces fall short by r·(n_j·o − 1), which must stay
  // within max_error. Each moved vertex must also stay behind every other moved face plane,
  // which limits r on thin hulls (two opposite faces can move at most half the thickness).
  const size_t count = vertices_.size();
  std::vector<std::vector<uint32_t>> vertex_faces(count);
  for (uint32_t f = 0; f < faces_.size(); ++f)
    for (uint32_t k = 0; k < faces_[f].num_indices; ++k)
      vertex_faces[face_indices_[faces_[f].first_index + k]].push_back(f);

  // The largest radius vertex v allows when it moves along `direction` (scaled in place so that
  // min n_j·o over its faces is 1); 0 when no scaling makes every incident plane move inward.
  const auto radius_bound = [&](size_t v, Vec3d& direction) {
    double min_along = k_float_max;
    for (uint32_t f : vertex_faces[v])
      min_along = std::min(min_along, dot(to_double(faces_[f].normal), direction));
    if (!(min_along > 1.0e-6)) return 0.0;
    direction = {direction.x / min_along, direction.y / min_along, direction.z / min_along};
    double bound = max_convex_radius;
    for (uint32_t f : vertex_faces[v]) {
      const double error = dot(to_double(faces_[f].normal), direction) - 1.0;
      // Errors at double rounding level (three planes solved exactly) are no error.
      if (error > 1.0e-9) bound = std::min(bound, static_cast<double>(max_error) / error);
    }
    const Vec3d p = to_double(vertices_[v]);
    const std::vector<uint32_t>& incident = vertex_faces[v];
    for (uint32_t f = 0; f < faces_.size(); ++f) {
      // Incident faces have slack 0 and n·o ≥ 1 (up to rounding): they set no limit here.
      if (std::find(incident.begin(), incident.end(), f) != incident.end()) continue;
      const ConvexHull::Face& face = faces_[f];
      const Vec3d n = to_double(face.normal);
      const double along = dot(n, direction);
      // Stay behind the moved plane: n·(p − r·o) ≤ d − r  ⇔  r·(1 − n·o) ≤ d − n·p.
      const double slack = static_cast<double>(face.distance) - dot(n, p);
      if (along < 1.0) bound = std::min(bound, std::max(slack, 0.0) / (1.0 - along));
    }
    return bound;
  };

  double radius = max_convex_radius;
  std::vector<Vec3d> offsets(count);
  for (size_t v = 0; v < count && radius > 0.0; ++v) {
    // Two candidate directions, keep the one allowing the larger radius: the least-squares
    // solution of n_j·o = 1 (exact for three faces), and the sum of the face normals (robust
    // where the faces are nearly coplanar and the least-squares system is ill-conditioned).
    Vec3d sum;
    double m[3][3] = {};
    for (uint32_t f : vertex_faces[v]) {
      const Vec3d n = to_double(faces_[f].normal);
      sum = {sum.x + n.x, sum.y + n.y, sum.z + n.z};
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) m[r][c] += component(n, r) * component(n, c);
    }
    Vec3d mean = sum;
    double best = radius_bound(v, mean);
    offsets[v] = mean;
    // Cramer's rule on (Σ n·nᵀ)·o = Σ n; the matrix is symmetric, so rows are columns.
    const Vec3d c0{m[0][0], m[1][0], m[2][0]}, c1{m[0][1], m[1][1], m[2][1]},
        c2{m[0][2], m[1][2], m[2][2]};
    const double det = dot(c0, cross(c1, c2));
    if (std::fabs(det) > 1.0e-12) {
      Vec3d least_squares{dot(sum, cross(c1, c2)) / det, dot(c0, cross(sum, c2)) / det,
                          dot(c0, cross(c1, sum)) / det};
      const double bound = radius_bound(v, least_squares);
      if (bound > best) {
        best = bound;
        offsets[v] = least_squares;
      }
    }
    radius = std::min(radius, best);
  }
  convex_radius_ = static_cast<float>(std::max(radius, 0.0));
  core_vertices_.resize(count);
  for (size_t v = 0; v < count; ++v) {
    const Vec3d& o = offsets[v];
    core_vertices_[v] = vertices_[v] - Vec3(static_cast<float>(o.x), static_cast<float>(o.y),
                                            static_cast<float>(o.z)) *
                                           convex_radius_;
  }
}

AABox ConvexHullShape::world_bounds(const Mat44& transform) const {
  AABox box;
  for (const Vec3& v : flat_ ? core_vertices_ : vertices_) box.encapsulate(transform * v);
  if (flat_ && convex_radius_ > 0.0f) {
    const float axis_scale = std::max(
        {transform.axis_x().length(), transform.axis_y().length(), transform.axis_z().length()});
    box = box.expanded(convex_radius_ * axis_scale);
  }
  return box;
}

bool ConvexHullShape::is_valid_scale(const Vec3& scale) const {
  if (!Shape::is_valid_scale(scale)) return false;
  if (!flat_ || convex_radius_ == 0.0f) return true;
  return same_scale_magnitude(scale.x(), scale.y()) && same_scale_magnitude(scale.x(), scale.z());
}

MassProperties ConvexHullShape::mass_properties() const {
  MassProperties mp;
  mp.mass = density() * volume_;
  mp.inertia = unit_inertia_ * density();
  return mp;
}

bool ConvexHullShape::cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                               RayCastResult& hit) const {
  if (flat_) {
    // A plate: its face planes do not bound the outline, so cast against the support instead.
    const RoundedHullSupport plate(core_vertices_, Vec3::replicate(1.0f), convex_radius_);
    float fraction = hit.fraction;
    GJKClosestPoint gjk;
    if (!gjk.cast_ray(ray.origin, ray.direction, k_flat_query_tolerance, plate, fraction) ||
        fraction >= hit.fraction)
      return false;
    hit.fraction = fraction;
    hit.sub_shape_id = creator.id();
    return true;
  }
  // Clip the ray's parameter interval against every face half-space; what remains is the part
  // inside the hull, and its start the entry fraction (0 when the ray starts inside).
  float t_enter = 0.0f, t_exit = hit.fraction;
  for (const ConvexHull::Face& face : faces_) {
    const float denominator = face.normal.dot(ray.direction);
    const float numerator = face.distance - face.normal.dot(ray.origin);
    if (denominator == 0.0f) {
      if (numerator < 0.0f) return false;  // parallel and outside this face
      continue;
    }
    const float t = numerator / denominator;
    if (denominator < 0.0f)
      t_enter = std::max(t_enter, t);
    else
      t_exit = std::min(t_exit, t);
    if (t_enter > t_exit) return false;
  }
  if (t_enter >= hit.fraction) return false;
  hit.fraction = t_enter;
  hit.sub_shape_id = creator.id();
  return true;
}

namespace {

/// Closest point of a flat hull's core polygon to `point`.
Vec3 closest_on_polygon(const std::vector<Vec3>& vertices, const Vec3& point) {
  const HullSupport polygon(vertices, Vec3::replicate(1.0f), 0.0f);
  GJKClosestPoint gjk;
  Vec3 v = point - vertices[0];
  Vec3 on_polygon, on_point;
  gjk.closest_points(polygon, PointConvex{point}, k_flat_query_tolerance, k_float_max, v,
                     on_polygon, on_point);
  return on_polygon;
}

}  // namespace

bool ConvexHullShape::collide_point(const Vec3& point) const {
  if (flat_) {
    if (convex_radius_ == 0.0f) return false;  // no volume
    return (point - closest_on_polygon(core_vertices_, point)).length_sq() <=
           square(convex_radius_);
  }
  for (const ConvexHull::Face& face : faces_)
    if (face.normal.dot(point) > face.distance) return false;
  return true;
}

Vec3 ConvexHullShape::surface_normal(const SubShapeID& /*id*/, const Vec3& local_point) const {
  if (flat_) {
    // Away from the polygon (the rounded rim included); on it, the side the point is on.
    const Vec3 away = local_point - closest_on_polygon(core_vertices_, local_point);
    if (away.length_sq() > square(k_flat_query_tolerance)) return away.normalized();
    return faces_[0].normal.dot(local_point) >= faces_[0].distance ? faces_[0].normal
                                                                   : faces_[1].normal;
  }
  const ConvexHull::Face* best = &faces_[0];
  float best_distance = best->normal.dot(local_point) - best->distance;
  for (const ConvexHull::Face& face : faces_) {
    const float d = face.normal.dot(local_point) - face.distance;
    if (d > best_distance) {
      best_distance = d;
      best = &face;
    }
  }
  return best->normal;
}

const ConvexSupport* ConvexHullShape::support_function(SupportMode mode, SupportBuffer& buffer,
                                                       const Vec3& scale) const {
  // The core was made for the unscaled hull. A uniform scale (of any sign) scales it exactly,
  // but a non-uniform one tilts the faces, and the scaled core grown by a scaled radius would
  // fall short of them: then hand out the sharp hull with radius 0 instead.
  const bool uniform =
      same_scale_magnitude(scale.x(), scale.y()) && same_scale_magnitude(scale.x(), scale.z());
  if (flat_ && convex_radius_ > 0.0f) {
    // A plate: the radius is its thickness and cannot be dropped.
    ATOLL_ASSERT(uniform, "a flat ConvexHullShape with a convex radius needs a uniform scale");
    const float radius = convex_radius_ * std::fabs(scale.x());
    if (mode == SupportMode::IncludeConvexRadius)
      return buffer.emplace<RoundedHullSupport>(core_vertices_, scale, radius);
    return buffer.emplace<HullSupport>(core_vertices_, scale, radius);
  }
  if (mode == SupportMode::IncludeConvexRadius || !uniform)
    return buffer.emplace<HullSupport>(vertices_, scale, 0.0f);
  return buffer.emplace<HullSupport>(core_vertices_, scale, convex_radius_ * std::fabs(scale.x()));
}

void ConvexHullShape::supporting_face(const Vec3& direction, const Vec3& scale,
                                      const Mat44& transform, SupportingFace& out_face) const {
  out_face.clear();
  // Normals transform by the inverse transpose of the scale: n' ∝ n / s.
  const Vec3 inv_scale = scale.reciprocal();
  const ConvexHull::Face* best = nullptr;
  float best_alignment = -k_float_max;
  for (const ConvexHull::Face& face : faces_) {
    const Vec3 n = face.normal * inv_scale;
    const float alignment = n.dot(direction) / n.length();
    if (alignment > best_alignment) {
      best_alignment = alignment;
      best = &face;
    }
  }
  // No face when no alignment is a number (a direction or scale that is not finite, or one so
  // large that the normals overflow): the caller then has the support point alone.
  if (best == nullptr) return;
  // A mirroring scale (odd number of negative factors) reverses the winding: walk backwards.
  const bool mirrored = scale.x() * scale.y() * scale.z() < 0.0f;
  // A flat hull's face is its core polygon, stored in the front face's order (the back face
  // runs the other way round).
  const bool reversed = flat_ ? mirrored != (best != &faces_[0]) : mirrored;
  const uint32_t n = flat_ ? static_cast<uint32_t>(core_vertices_.size()) : best->num_indices;
  const uint32_t taken = std::min<uint32_t>(n, static_cast<uint32_t>(k_max_face_vertices));
  for (uint32_t k = 0; k < taken; ++k) {
    // Evenly spaced subset when the face has too many vertices: still a convex polygon in the
    // same order, inscribed in the face.
    const uint32_t j = static_cast<uint32_t>(static_cast<uint64_t>(k) * n / taken);
    const uint32_t index = reversed ? n - 1 - j : j;
    const Vec3& vertex =
        flat_ ? core_vertices_[index] : vertices_[face_indices_[best->first_index + index]];
    out_face.push_back(transform * (vertex * scale));
  }
  if (flat_ && convex_radius_ > 0.0f) {
    // A plate's face lies the (scaled) radius in front of its core.
    const Vec3 offset = transform.multiply3x3((best->normal * inv_scale).normalized() *
                                              (convex_radius_ * std::fabs(scale.x())));
    for (size_t k = 0; k < out_face.size(); ++k) out_face[k] = out_face[k] + offset;
  }
}

}  // namespace atl
