#include "atoll/shape/CylinderShape.h"

#include <algorithm>
#include <array>

#include "atoll/geometry/RayIntersections.h"
#include "atoll/shape/Validation.h"

namespace atl {

namespace {

// Cylinder of half height `half_height` and radius `radius` grown by `convex_radius`.
class CylinderSupport final : public ConvexSupport {
 public:
  CylinderSupport(float half_height, float radius, float convex_radius)
      : half_height_(half_height), radius_(radius), convex_radius_(convex_radius) {}
  Vec3 get_support(const Vec3& direction) const override {
    const float horizontal = std::sqrt(square(direction.x()) + square(direction.z()));
    const float y = direction.y() < 0.0f ? -half_height_ : half_height_;
    if (horizontal <= 0.0f) return Vec3(0.0f, y, 0.0f);
    const float f = radius_ / horizontal;
    return Vec3(direction.x() * f, y, direction.z() * f);
  }
  float convex_radius() const override { return convex_radius_; }

 private:
  float half_height_;
  float radius_;
  float convex_radius_;
};

// (cos, sin) of k·2π/k_cap_vertices, built from the first quadrant by 90° rotations so that
// the table is exact and needs no trigonometry at run time.
constexpr std::array<std::array<float, 2>, CylinderShape::k_cap_vertices> make_unit_circle() {
  static_assert(CylinderShape::k_cap_vertices == 16);
  constexpr float q[5] = {1.0f, 0.9238795325f, 0.7071067812f, 0.3826834324f, 0.0f};
  std::array<std::array<float, 2>, CylinderShape::k_cap_vertices> circle{};
  for (int k = 0; k < CylinderShape::k_cap_vertices; ++k) {
    float c = q[k % 4], s = q[4 - k % 4];
    for (int quadrant = 0; quadrant < k / 4; ++quadrant) {
      const float t = c;
      c = -s;
      s = t;
    }
    circle[k] = {c, s};
  }
  return circle;
}
constexpr auto k_unit_circle = make_unit_circle();

}  // namespace

Result<Ref<Shape>> CylinderShapeSettings::create() const {
  if (auto e = check_positive("CylinderShapeSettings.half_height", half_height)) return *e;
  if (auto e = check_positive("CylinderShapeSettings.radius", radius)) return *e;
  if (auto e = check_non_negative("CylinderShapeSettings.convex_radius", convex_radius)) return *e;
  if (auto e = check_positive("CylinderShapeSettings.density", density)) return *e;
  const float clamped = std::min(convex_radius, std::min(half_height, radius));
  return Ref<Shape>(make_ref<CylinderShape>(half_height, radius, clamped, density));
}

CylinderShape::CylinderShape(float half_height, float radius, float convex_radius, float density)
    : ConvexShape(ShapeSubType::Cylinder, density),
      half_height_(half_height),
      radius_(radius),
      convex_radius_(convex_radius) {
  ATOLL_ASSERT(half_height > 0.0f && std::isfinite(half_height),
               "CylinderShape: half height must be > 0");
  ATOLL_ASSERT(radius > 0.0f && std::isfinite(radius), "CylinderShape: radius must be > 0");
  ATOLL_ASSERT(convex_radius >= 0.0f && convex_radius <= std::min(half_height, radius),
               "CylinderShape: convex radius must be in [0, min(half height, radius)]");
  ATOLL_ASSERT(density > 0.0f && std::isfinite(density), "CylinderShape: density must be > 0");
}

AABox CylinderShape::local_bounds() const {
  return AABox(Vec3(-radius_, -half_height_, -radius_), Vec3(radius_, half_height_, radius_));
}

AABox CylinderShape::world_bounds(const Mat44& transform) const {
  // The two cap discs: a disc of radius R with unit axis a reaches R·√(1 − a_i²) along axis i.
  const Vec3 axis = transform.axis_y();
  const Vec3 c = transform.translation();
  const Vec3 disc = (Vec3::replicate(1.0f) - axis * axis).abs().sqrt() * radius_;
  const Vec3 half_axis = axis * half_height_;
  return AABox::from_two_points(c - half_axis, c + half_axis).expanded(disc);
}

MassProperties CylinderShape::mass_properties() const {
  const double r2 = square(static_cast<double>(radius_));
  const double height = 2.0 * static_cast<double>(half_height_);
  const double mass = static_cast<double>(density()) * static_cast<double>(k_pi) * r2 * height;
  const double across = mass * (3.0 * r2 + height * height) / 12.0;
  MassProperties mp;
  mp.mass = static_cast<float>(mass);
  mp.inertia.set(0, 0, static_cast<float>(across));
  mp.inertia.set(1, 1, static_cast<float>(0.5 * mass * r2));
  mp.inertia.set(2, 2, static_cast<float>(across));
  return mp;
}

float CylinderShape::volume() const { return k_pi * radius_ * radius_ * 2.0f * half_height_; }

bool CylinderShape::is_valid_scale(const Vec3& scale) const {
  return Shape::is_valid_scale(scale) && same_scale_magnitude(scale.x(), scale.z());
}

bool CylinderShape::cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                             RayCastResult& hit) const {
  const float fraction = ray_cylinder(ray.origin, ray.direction, half_height_, radius_);
  if (fraction >= hit.fraction) return false;
  hit.fraction = fraction;
  hit.sub_shape_id = creator.id();
  return true;
}

bool CylinderShape::collide_point(const Vec3& point) const {
  return std::fabs(point.y()) <= half_height_ &&
         square(point.x()) + square(point.z()) <= radius_ * radius_;
}

Vec3 CylinderShape::surface_normal(const SubShapeID& /*id*/, const Vec3& local_point) const {
  const float horizontal = std::sqrt(square(local_point.x()) + square(local_point.z()));
  const float to_cap = std::fabs(half_height_ - std::fabs(local_point.y()));
  const float to_side = std::fabs(radius_ - horizontal);
  if (to_cap <= to_side || horizontal <= 0.0f)
    return Vec3(0.0f, local_point.y() < 0.0f ? -1.0f : 1.0f, 0.0f);
  return Vec3(local_point.x() / horizontal, 0.0f, local_point.z() / horizontal);
}

const ConvexSupport* CylinderShape::support_function(SupportMode mode, SupportBuffer& buffer,
                                                     const Vec3& scale) const {
  ATOLL_ASSERT(is_valid_scale(scale), "CylinderShape needs |scale.x| = |scale.z|");
  const float h = half_height_ * std::fabs(scale.y());
  const float r = radius_ * std::fabs(scale.x());
  if (mode == SupportMode::IncludeConvexRadius) return buffer.emplace<CylinderSupport>(h, r, 0.0f);
  const float cr = scaled_convex_radius(convex_radius_, scale);
  // max(…, 0) absorbs rounding when the radius equals the smaller dimension.
  return buffer.emplace<CylinderSupport>(std::max(h - cr, 0.0f), std::max(r - cr, 0.0f), cr);
}

void CylinderShape::supporting_face(const Vec3& direction, const Vec3& scale,
                                    const Mat44& transform, SupportingFace& out_face) const {
  ATOLL_ASSERT(is_valid_scale(scale), "CylinderShape needs |scale.x| = |scale.z|");
  out_face.clear();
  // Negative scale mirrors the cylinder onto itself, so |scale| suffices and keeps the winding.
  const float h = half_height_ * std::fabs(scale.y());
  const float r = radius_ * std::fabs(scale.x());
  const float horizontal = std::sqrt(square(direction.x()) + square(direction.z()));
  if (std::fabs(direction.y()) >= horizontal) {
    if (direction.y() == 0.0f) return;  // zero direction: no face
    // Counter-clockwise seen from outside: about +Y for the top cap (z → x), about −Y for the
    // bottom cap (x → z).
    const bool top = direction.y() > 0.0f;
    for (const auto& cs : k_unit_circle) {
      const Vec3 p = top ? Vec3(r * cs[1], h, r * cs[0]) : Vec3(r * cs[0], -h, r * cs[1]);
      out_face.push_back(transform * p);
    }
    return;
  }
  const float f = r / horizontal;
  const Vec3 radial(direction.x() * f, 0.0f, direction.z() * f);
  out_face.push_back(transform * (radial + Vec3(0.0f, h, 0.0f)));
  out_face.push_back(transform * (radial - Vec3(0.0f, h, 0.0f)));
}

}  // namespace atl
