#include "atoll/shape/StaticCompoundShape.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "atoll/shape/DecoratedShape.h"
#include "atoll/shape/HeightFieldShape.h"
#include "atoll/shape/TriangleMeshShape.h"
#include "atoll/shape/Validation.h"

namespace atl {

namespace {

/// Most children a compound may hold: their indices must leave room in a SubShapeID.
constexpr size_t k_max_children = size_t{1} << 24;

std::string child_field(size_t index, const char* member) {
  return "StaticCompoundShapeSettings.children[" + std::to_string(index) + "]." + member;
}

/// SubShapeID bits a shape hierarchy pushes at most (0 for a leaf such as a convex shape).
uint32_t hierarchy_id_bits(const Shape& shape) {
  // Decorators add no level of their own: they pass IDs to their inner shape.
  if (shape.type() == ShapeType::Decorated)
    return hierarchy_id_bits(*static_cast<const DecoratedShape&>(shape).inner());
  switch (shape.sub_type()) {
    case ShapeSubType::TriangleMesh:
      return static_cast<const TriangleMeshShape&>(shape).sub_shape_id_bits();
    case ShapeSubType::HeightField:
      return static_cast<const HeightFieldShape&>(shape).sub_shape_id_bits();
    case ShapeSubType::StaticCompound: {
      const auto& compound = static_cast<const StaticCompoundShape&>(shape);
      uint32_t deepest = 0;
      for (uint32_t i = 0; i < compound.num_children(); ++i)
        deepest = std::max(deepest, hierarchy_id_bits(*compound.child(i).shape));
      return compound.sub_shape_id_bits() + deepest;
    }
    default:
      return 0;
  }
}

}  // namespace

Result<Ref<StaticCompoundShape>> StaticCompoundShapeSettings::create_compound() const {
  if (children.empty())
    return field_error("StaticCompoundShapeSettings.children", "must not be empty");
  if (children.size() > k_max_children)
    return field_error("StaticCompoundShapeSettings.children",
                       "must hold at most " + std::to_string(k_max_children) + " children, got " +
                           std::to_string(children.size()));
  const uint32_t own_bits = atl::sub_shape_id_bits(static_cast<uint32_t>(children.size()));
  for (size_t i = 0; i < children.size(); ++i) {
    const Child& c = children[i];
    if (!c.shape) return field_error(child_field(i, "shape"), "must not be null");
    if (auto error = check_finite(child_field(i, "position"), c.position)) return *error;
    if (auto error = check_normalized(child_field(i, "rotation"), c.rotation)) return *error;
    // A huge child turned or moved may leave float: the compound had infinite bounds (found by
    // the shapes fuzzer), as a rotated_translated shape had.
    const Mat44 placed = Mat44::rotation_translation(c.rotation.normalized(), c.position);
    const AABox bounds = c.shape->world_bounds(placed);
    if (!bounds.min.is_finite() || !bounds.max.is_finite() ||
        !(placed * c.shape->center_of_mass()).is_finite())
      return field_error(child_field(i, "shape"),
                         "its bounds, rotated and moved, overflow float (got " +
                             format_vec3(bounds.min) + " to " + format_vec3(bounds.max) + ")");
    const uint32_t child_bits = hierarchy_id_bits(*c.shape);
    if (own_bits + child_bits > SubShapeID::k_max_bits)
      return field_error(child_field(i, "shape"),
                         "hierarchy too deep: SubShapeIDs would need " +
                             std::to_string(own_bits + child_bits) + " bits (compound " +
                             std::to_string(own_bits) + " + child " + std::to_string(child_bits) +
                             "), at most " + std::to_string(SubShapeID::k_max_bits));
  }
  return Ref<StaticCompoundShape>(new StaticCompoundShape(*this));
}

Result<Ref<Shape>> StaticCompoundShapeSettings::create() const {
  Result<Ref<StaticCompoundShape>> compound = create_compound();
  if (!compound.ok()) return compound.error();
  return Ref<Shape>(std::move(compound).value());
}

StaticCompoundShape::StaticCompoundShape(const StaticCompoundShapeSettings& settings)
    : Shape(ShapeType::Compound, ShapeSubType::StaticCompound),
      id_bits_(atl::sub_shape_id_bits(static_cast<uint32_t>(settings.children.size()))) {
  children_.reserve(settings.children.size());
  child_bounds_.reserve(settings.children.size());
  // Children's centres of mass in compound space, for the mass properties below.
  std::vector<Vec3> child_centers;
  child_centers.reserve(settings.children.size());
  float total_mass = 0.0f;
  Vec3 weighted_center = Vec3::zero();
  Vec3 center_sum = Vec3::zero();
  for (const StaticCompoundShapeSettings::Child& c : settings.children) {
    // Renormalized so that tiny input errors do not scale the child.
    const Quat rotation = c.rotation.normalized();
    const Mat44 transform = Mat44::rotation_translation(rotation, c.position);
    children_.push_back({c.shape, transform, rotation, c.position});
    const AABox b = c.shape->world_bounds(transform);
    child_bounds_.push_back(b);
    bounds_.encapsulate(b);
    // The smallest child's: CCD casts a body once it moves more than a fraction of this, and a
    // thin child must not slip through because a fat sibling sets the scale (Jolt does the same).
    inner_radius_ = std::min(inner_radius_, c.shape->inner_radius());
    volume_ += c.shape->volume();
    const Vec3 center = transform * c.shape->center_of_mass();
    const float mass = c.shape->mass_properties().mass;
    child_centers.push_back(center);
    total_mass += mass;
    weighted_center += center * mass;
    center_sum += center;
  }
  center_of_mass_ = total_mass > 0.0f ? weighted_center / total_mass
                                      : center_sum / static_cast<float>(settings.children.size());

  // Each child's inertia, rotated into compound space and moved to the compound's centre of
  // mass (parallel axis theorem), summed on the 3×3 part.
  Vec3 inertia_columns[3] = {Vec3::zero(), Vec3::zero(), Vec3::zero()};
  for (size_t i = 0; i < children_.size(); ++i) {
    MassProperties mp = children_[i].shape->mass_properties();
    if (mp.mass <= 0.0f) continue;
    mp.rotate(children_[i].transform.rotation_part());
    mp.translate(child_centers[i] - center_of_mass_);
    for (int c = 0; c < 3; ++c) inertia_columns[c] += mp.inertia.column3(c);
  }
  mass_properties_.mass = total_mass;
  for (int c = 0; c < 3; ++c) mass_properties_.inertia.set_column3(c, inertia_columns[c]);

  bvh_.build(child_bounds_, 2);
}

Vec3 StaticCompoundShape::child_scale(uint32_t index, const Vec3& scale) const {
  // (Rᵀ·S·R)_ii = Σ_k R_ki²·s_k: column i of R is the child's axis i in compound space.
  const Mat44& transform = children_[index].transform;
  Vec3 result;
  for (int i = 0; i < 3; ++i) {
    const Vec3 axis = transform.column3(i);
    result.set_component(i, (axis * axis).dot(scale));
  }
  return result;
}

bool StaticCompoundShape::is_valid_scale(const Vec3& scale) const {
  if (!Shape::is_valid_scale(scale)) return false;
  // S·(R·x + t) = R·(Rᵀ·S·R)·x + S·t: a child can be scaled in its own space only when
  // Rᵀ·S·R is diagonal (otherwise the scale shears it).
  const float tolerance = 1.0e-5f * scale.abs().max_component();
  for (uint32_t c = 0; c < num_children(); ++c) {
    const Mat44& transform = children_[c].transform;
    for (int i = 0; i < 3; ++i)
      for (int j = i + 1; j < 3; ++j)
        if (std::fabs((transform.column3(i) * transform.column3(j)).dot(scale)) > tolerance)
          return false;
    if (!children_[c].shape->is_valid_scale(child_scale(c, scale))) return false;
  }
  return true;
}

uint32_t StaticCompoundShape::child_index(const SubShapeID& id, SubShapeID& out_remainder) const {
  const uint32_t index = id.pop(id_bits_, out_remainder);
  ATOLL_ASSERT(index < num_children(), "SubShapeID does not name a child of this compound");
  return index;
}

bool StaticCompoundShape::cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                                   RayCastResult& hit) const {
  bool any = false;
  bvh_.cast_ray(ray.origin, ray.direction, hit.fraction, [&](uint32_t index, float) {
    const Child& c = children_[index];
    // Rigid transforms keep fractions along the ray unchanged.
    const RayCast local{c.rotation.inverse_rotate(ray.origin - c.position),
                        c.rotation.inverse_rotate(ray.direction)};
    any |= c.shape->cast_ray(local, creator.push(index, id_bits_), hit);
    return hit.fraction;
  });
  return any;
}

bool StaticCompoundShape::collide_point(const Vec3& point) const {
  bool inside = false;
  // Stops testing children once one contains the point (the walk itself still finishes).
  bvh_.for_each_overlapping(AABox(point, point), [&](uint32_t index) {
    if (inside || !child_bounds_[index].contains(point)) return;
    const Child& c = children_[index];
    inside = c.shape->collide_point(c.rotation.inverse_rotate(point - c.position));
  });
  return inside;
}

Vec3 StaticCompoundShape::surface_normal(const SubShapeID& id, const Vec3& local_point) const {
  SubShapeID remainder;
  const Child& c = children_[child_index(id, remainder)];
  const Vec3 child_point = c.rotation.inverse_rotate(local_point - c.position);
  return c.rotation * c.shape->surface_normal(remainder, child_point);
}

uint32_t StaticCompoundShape::material_index(const SubShapeID& id) const {
  SubShapeID remainder;
  return children_[child_index(id, remainder)].shape->material_index(remainder);
}

}  // namespace atl
