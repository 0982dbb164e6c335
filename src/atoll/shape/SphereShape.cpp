#include "atoll/shape/SphereShape.h"

#include "atoll/geometry/RayIntersections.h"
#include "atoll/shape/Validation.h"

namespace atl {

namespace {

// Exclude mode: the centre point; the radius is all convex radius.
class SphereCoreSupport final : public ConvexSupport {
 public:
  explicit SphereCoreSupport(float radius) : radius_(radius) {}
  Vec3 get_support(const Vec3& /*direction*/) const override { return Vec3::zero(); }
  float convex_radius() const override { return radius_; }

 private:
  float radius_;
};

// Include mode: the surface point along the direction.
class SphereFullSupport final : public ConvexSupport {
 public:
  explicit SphereFullSupport(float radius) : radius_(radius) {}
  Vec3 get_support(const Vec3& direction) const override {
    const float len = direction.length();
    return len > 0.0f ? direction * (radius_ / len) : Vec3::zero();
  }
  float convex_radius() const override { return 0.0f; }

 private:
  float radius_;
};

}  // namespace

Result<Ref<Shape>> SphereShapeSettings::create() const {
  if (auto e = check_positive("SphereShapeSettings.radius", radius)) return *e;
  if (auto e = check_positive("SphereShapeSettings.density", density)) return *e;
  return Ref<Shape>(make_ref<SphereShape>(radius, density));
}

SphereShape::SphereShape(float radius, float density)
    : ConvexShape(ShapeSubType::Sphere, density), radius_(radius) {
  ATOLL_ASSERT(radius > 0.0f && std::isfinite(radius), "SphereShape: radius must be > 0");
  ATOLL_ASSERT(density > 0.0f && std::isfinite(density), "SphereShape: density must be > 0");
}

AABox SphereShape::local_bounds() const {
  return AABox::from_center(Vec3::zero(), Vec3::replicate(radius_));
}

AABox SphereShape::world_bounds(const Mat44& transform) const {
  return AABox::from_center(transform.translation(), Vec3::replicate(radius_));
}

MassProperties SphereShape::mass_properties() const {
  MassProperties mp;
  mp.mass = density() * volume();
  const float moment = 0.4f * mp.mass * radius_ * radius_;
  mp.inertia.set(0, 0, moment);
  mp.inertia.set(1, 1, moment);
  mp.inertia.set(2, 2, moment);
  return mp;
}

float SphereShape::volume() const { return (4.0f / 3.0f) * k_pi * cubed(radius_); }

bool SphereShape::is_valid_scale(const Vec3& scale) const {
  return Shape::is_valid_scale(scale) && same_scale_magnitude(scale.x(), scale.y()) &&
         same_scale_magnitude(scale.x(), scale.z());
}

bool SphereShape::cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                           RayCastResult& hit) const {
  const float fraction = ray_sphere(ray.origin, ray.direction, Vec3::zero(), radius_);
  if (fraction >= hit.fraction) return false;
  hit.fraction = fraction;
  hit.sub_shape_id = creator.id();
  return true;
}

bool SphereShape::collide_point(const Vec3& point) const {
  return point.length_sq() <= radius_ * radius_;
}

Vec3 SphereShape::surface_normal(const SubShapeID& /*id*/, const Vec3& local_point) const {
  return local_point.normalized_or(Vec3::axis_y());
}

const ConvexSupport* SphereShape::support_function(SupportMode mode, SupportBuffer& buffer,
                                                   const Vec3& scale) const {
  ATOLL_ASSERT(is_valid_scale(scale), "SphereShape needs a uniform scale");
  const float scaled_radius = radius_ * std::fabs(scale.x());
  if (mode == SupportMode::ExcludeConvexRadius)
    return buffer.emplace<SphereCoreSupport>(scaled_radius);
  return buffer.emplace<SphereFullSupport>(scaled_radius);
}

void SphereShape::supporting_face(const Vec3& direction, const Vec3& scale, const Mat44& transform,
                                  SupportingFace& out_face) const {
  ATOLL_ASSERT(is_valid_scale(scale), "SphereShape needs a uniform scale");
  out_face.clear();
  const float len = direction.length();
  if (len <= 0.0f) return;
  out_face.push_back(transform * (direction * (radius_ * std::fabs(scale.x()) / len)));
}

}  // namespace atl
