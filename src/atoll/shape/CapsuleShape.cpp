#include "atoll/shape/CapsuleShape.h"

#include "atoll/geometry/RayIntersections.h"
#include "atoll/shape/Validation.h"

namespace atl {

namespace {

// The segment (0, ±half_height, 0) grown by `radius`; Include mode folds the radius into the
// support point itself.
class CapsuleSupport final : public ConvexSupport {
 public:
  CapsuleSupport(float half_height, float radius, bool include_radius)
      : half_height_(half_height), radius_(radius), include_radius_(include_radius) {}
  Vec3 get_support(const Vec3& direction) const override {
    const Vec3 end(0.0f, direction.y() < 0.0f ? -half_height_ : half_height_, 0.0f);
    if (!include_radius_) return end;
    const float len = direction.length();
    return len > 0.0f ? end + direction * (radius_ / len) : end;
  }
  float convex_radius() const override { return include_radius_ ? 0.0f : radius_; }

 private:
  float half_height_;
  float radius_;
  bool include_radius_;
};

// |dot(d̂, axis)| below this counts as "perpendicular": the capsule rests on its side line.
// sin(1°) is tight enough that a tilted capsule rolls onto one end, loose enough for float noise.
constexpr float k_side_tolerance = 0.0174524f;

}  // namespace

Result<Ref<Shape>> CapsuleShapeSettings::create() const {
  if (auto e =
          check_positive("CapsuleShapeSettings.half_height_of_cylinder", half_height_of_cylinder))
    return *e;
  if (auto e = check_positive("CapsuleShapeSettings.radius", radius)) return *e;
  if (auto e = check_positive("CapsuleShapeSettings.density", density)) return *e;
  return Ref<Shape>(make_ref<CapsuleShape>(half_height_of_cylinder, radius, density));
}

CapsuleShape::CapsuleShape(float half_height_of_cylinder, float radius, float density)
    : ConvexShape(ShapeSubType::Capsule, density),
      half_height_(half_height_of_cylinder),
      radius_(radius) {
  ATOLL_ASSERT(half_height_of_cylinder > 0.0f && std::isfinite(half_height_of_cylinder),
               "CapsuleShape: half height must be > 0");
  ATOLL_ASSERT(radius > 0.0f && std::isfinite(radius), "CapsuleShape: radius must be > 0");
  ATOLL_ASSERT(density > 0.0f && std::isfinite(density), "CapsuleShape: density must be > 0");
}

AABox CapsuleShape::local_bounds() const {
  return AABox(Vec3(-radius_, -half_height_ - radius_, -radius_),
               Vec3(radius_, half_height_ + radius_, radius_));
}

AABox CapsuleShape::world_bounds(const Mat44& transform) const {
  // The segment's end points grown by the radius: exact for any rotation.
  const Vec3 axis = transform.axis_y() * half_height_;
  const Vec3 c = transform.translation();
  return AABox::from_two_points(c - axis, c + axis).expanded(radius_);
}

MassProperties CapsuleShape::mass_properties() const {
  // Cylinder part plus two hemispheres. A hemisphere's centre of mass lies 3r/8 from its flat
  // face, so about the capsule centre its moment across the axis is
  // I_com + m·d² = (2/5·r² − (3r/8)²)·m + m·(h + 3r/8)² = m·(2/5·r² + h² + 3/4·h·r).
  const double r = radius_, h = half_height_, rho = density();
  const double r2 = r * r;
  const double cylinder_mass = rho * static_cast<double>(k_pi) * r2 * 2.0 * h;
  const double hemisphere_mass = rho * (2.0 / 3.0) * static_cast<double>(k_pi) * r2 * r;
  const double axial = 0.5 * cylinder_mass * r2 + 2.0 * 0.4 * hemisphere_mass * r2;
  const double across = cylinder_mass * (3.0 * r2 + 4.0 * h * h) / 12.0 +
                        2.0 * hemisphere_mass * (0.4 * r2 + h * h + 0.75 * h * r);
  MassProperties mp;
  mp.mass = static_cast<float>(cylinder_mass + 2.0 * hemisphere_mass);
  mp.inertia.set(0, 0, static_cast<float>(across));
  mp.inertia.set(1, 1, static_cast<float>(axial));
  mp.inertia.set(2, 2, static_cast<float>(across));
  return mp;
}

float CapsuleShape::volume() const {
  return k_pi * radius_ * radius_ * (2.0f * half_height_ + (4.0f / 3.0f) * radius_);
}

bool CapsuleShape::is_valid_scale(const Vec3& scale) const {
  return Shape::is_valid_scale(scale) && same_scale_magnitude(scale.x(), scale.y()) &&
         same_scale_magnitude(scale.x(), scale.z());
}

bool CapsuleShape::cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                            RayCastResult& hit) const {
  const float fraction = ray_capsule(ray.origin, ray.direction, half_height_, radius_);
  if (fraction >= hit.fraction) return false;
  hit.fraction = fraction;
  hit.sub_shape_id = creator.id();
  return true;
}

bool CapsuleShape::collide_point(const Vec3& point) const {
  const float y = clamp(point.y(), -half_height_, half_height_);
  return (point - Vec3(0.0f, y, 0.0f)).length_sq() <= radius_ * radius_;
}

Vec3 CapsuleShape::surface_normal(const SubShapeID& /*id*/, const Vec3& local_point) const {
  const float y = clamp(local_point.y(), -half_height_, half_height_);
  // On the axis itself every horizontal direction is as good: pick +X.
  return (local_point - Vec3(0.0f, y, 0.0f)).normalized_or(Vec3::axis_x());
}

const ConvexSupport* CapsuleShape::support_function(SupportMode mode, SupportBuffer& buffer,
                                                    const Vec3& scale) const {
  ATOLL_ASSERT(is_valid_scale(scale), "CapsuleShape needs a uniform scale");
  const float s = std::fabs(scale.x());
  return buffer.emplace<CapsuleSupport>(half_height_ * s, radius_ * s,
                                        mode == SupportMode::IncludeConvexRadius);
}

void CapsuleShape::supporting_face(const Vec3& direction, const Vec3& scale, const Mat44& transform,
                                   SupportingFace& out_face) const {
  ATOLL_ASSERT(is_valid_scale(scale), "CapsuleShape needs a uniform scale");
  out_face.clear();
  const float len = direction.length();
  if (len <= 0.0f) return;
  const float s = std::fabs(scale.x());
  const float h = half_height_ * s;
  if (std::fabs(direction.y()) <= k_side_tolerance * len) {
    // The side line: both ends pushed out horizontally (a line has no winding to keep).
    const Vec3 horizontal(direction.x(), 0.0f, direction.z());
    const Vec3 radial = horizontal * (radius_ * s / horizontal.length());
    out_face.push_back(transform * (Vec3(0.0f, h, 0.0f) + radial));
    out_face.push_back(transform * (Vec3(0.0f, -h, 0.0f) + radial));
    return;
  }
  const Vec3 radial = direction * (radius_ * s / len);
  out_face.push_back(transform * (Vec3(0.0f, direction.y() < 0.0f ? -h : h, 0.0f) + radial));
}

}  // namespace atl
