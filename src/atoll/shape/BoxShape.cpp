#include "atoll/shape/BoxShape.h"

#include <algorithm>

#include "atoll/geometry/RayIntersections.h"
#include "atoll/shape/Validation.h"

namespace atl {

namespace {

// A box of half extent `half_extent` grown by `radius` (0 in Include mode).
class BoxSupport final : public ConvexSupport {
 public:
  BoxSupport(const Vec3& half_extent, float radius) : half_extent_(half_extent), radius_(radius) {}
  Vec3 get_support(const Vec3& direction) const override {
    // sign_vector maps 0 to +1: any corner of the supporting face is a valid answer.
    return direction.sign_vector() * half_extent_;
  }
  float convex_radius() const override { return radius_; }

 private:
  Vec3 half_extent_;
  float radius_;
};

}  // namespace

Result<Ref<Shape>> BoxShapeSettings::create() const {
  if (auto e = check_positive("BoxShapeSettings.half_extent", half_extent)) return *e;
  if (auto e = check_non_negative("BoxShapeSettings.convex_radius", convex_radius)) return *e;
  if (auto e = check_positive("BoxShapeSettings.density", density)) return *e;
  const float radius = std::min(convex_radius, half_extent.min_component());
  return Ref<Shape>(make_ref<BoxShape>(half_extent, radius, density));
}

BoxShape::BoxShape(const Vec3& half_extent, float convex_radius, float density)
    : ConvexShape(ShapeSubType::Box, density),
      half_extent_(half_extent),
      convex_radius_(convex_radius) {
  ATOLL_ASSERT(half_extent.is_finite() && half_extent.min_component() > 0.0f,
               "BoxShape: half extent must be > 0");
  ATOLL_ASSERT(convex_radius >= 0.0f && convex_radius <= half_extent.min_component(),
               "BoxShape: convex radius must be in [0, min half extent]");
  ATOLL_ASSERT(density > 0.0f && std::isfinite(density), "BoxShape: density must be > 0");
}

AABox BoxShape::local_bounds() const { return AABox(-half_extent_, half_extent_); }

MassProperties BoxShape::mass_properties() const {
  return MassProperties::box(2.0f * half_extent_, density());
}

float BoxShape::volume() const {
  return 8.0f * half_extent_.x() * half_extent_.y() * half_extent_.z();
}

bool BoxShape::cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                        RayCastResult& hit) const {
  // The rays see the full box: the rounding only matters for GJK contacts.
  const float fraction = ray_aabox(ray.origin, ray.direction, -half_extent_, half_extent_);
  if (fraction >= hit.fraction) return false;
  hit.fraction = fraction;
  hit.sub_shape_id = creator.id();
  return true;
}

bool BoxShape::collide_point(const Vec3& point) const { return local_bounds().contains(point); }

Vec3 BoxShape::surface_normal(const SubShapeID& /*id*/, const Vec3& local_point) const {
  // The face the point is closest to (inside or outside) decides the normal.
  const Vec3 distance = (half_extent_ - local_point.abs()).abs();
  const int axis = distance.min_component_index();
  Vec3 normal;
  normal.set_component(axis, local_point[axis] < 0.0f ? -1.0f : 1.0f);
  return normal;
}

const ConvexSupport* BoxShape::support_function(SupportMode mode, SupportBuffer& buffer,
                                                const Vec3& scale) const {
  const Vec3 scaled_half_extent = half_extent_ * scale.abs();
  if (mode == SupportMode::IncludeConvexRadius)
    return buffer.emplace<BoxSupport>(scaled_half_extent, 0.0f);
  const float radius = scaled_convex_radius(convex_radius_, scale);
  // max(…, 0) absorbs rounding when the radius equals the smallest half extent.
  return buffer.emplace<BoxSupport>(
      Vec3::max(scaled_half_extent - Vec3::replicate(radius), Vec3::zero()), radius);
}

void BoxShape::supporting_face(const Vec3& direction, const Vec3& scale, const Mat44& transform,
                               SupportingFace& out_face) const {
  // A box scaled by a negative factor is the same box, so |scale| suffices and the winding
  // below needs no flip.
  const Vec3 h = half_extent_ * scale.abs();
  const int axis = direction.abs().max_component_index();
  const int u = (axis + 1) % 3, v = (axis + 2) % 3;
  const float side = direction[axis] < 0.0f ? -1.0f : 1.0f;
  // Corners in the (u, v) plane of the face, counter-clockwise around +axis (u × v = axis);
  // for the −axis face the same loop reversed.
  const float corners[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
  out_face.clear();
  for (int i = 0; i < 4; ++i) {
    const int k = side > 0.0f ? i : 3 - i;
    Vec3 p;
    p.set_component(axis, side * h[axis]);
    p.set_component(u, corners[k][0] * h[u]);
    p.set_component(v, corners[k][1] * h[v]);
    out_face.push_back(transform * p);
  }
}

}  // namespace atl
