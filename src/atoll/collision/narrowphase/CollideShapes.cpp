#include "atoll/collision/narrowphase/CollideShapes.h"

#include "atoll/collision/narrowphase/BoxBoxCollision.h"
#include "atoll/collision/narrowphase/ConvexCollision.h"
#include "atoll/shape/StaticCompoundShape.h"

namespace atl {

namespace {

void dispatch(const ShapeInstance& a, const ShapeInstance& b, const CollideShapeSettings& settings,
              ContactCollector& collector);

/// Forwards manifolds of the pair (b, a) as manifolds of (a, b).
class FlippedCollector final : public ContactCollector {
 public:
  explicit FlippedCollector(ContactCollector& target) : target_(target) {
    set_early_out_fraction(target.early_out_fraction());
  }
  void add(const ContactManifold& manifold) override {
    ContactManifold flipped;
    flipped.normal = -manifold.normal;
    flipped.penetration_depth = manifold.penetration_depth;
    flipped.sub_shape_id1 = manifold.sub_shape_id2;
    flipped.sub_shape_id2 = manifold.sub_shape_id1;
    flipped.points_on_1 = manifold.points_on_2;
    flipped.points_on_2 = manifold.points_on_1;
    target_.add(flipped);
    set_early_out_fraction(target_.early_out_fraction());
  }

 private:
  ContactCollector& target_;
};

void collide_unwrap_a(const ShapeInstance& a, const ShapeInstance& b,
                      const CollideShapeSettings& settings, ContactCollector& collector) {
  dispatch(unwrap_decorated(a), b, settings, collector);
}

void collide_unwrap_b(const ShapeInstance& a, const ShapeInstance& b,
                      const CollideShapeSettings& settings, ContactCollector& collector) {
  dispatch(a, unwrap_decorated(b), settings, collector);
}

void collide_swapped(const ShapeInstance& a, const ShapeInstance& b,
                     const CollideShapeSettings& settings, ContactCollector& collector) {
  FlippedCollector flipped(collector);
  dispatch(b, a, settings, flipped);
}

/// Calls visit(child_instance) for every child of `compound` whose bounds overlap
/// `other`'s bounds grown by `margin` (m).
template <class F>
void for_each_overlapping_child(const ShapeInstance& compound, const ShapeInstance& other,
                                float margin, F&& visit) {
  const auto& shape = static_cast<const StaticCompoundShape&>(*compound.shape);
  const AABox box = world_box_to_local(compound, instance_bounds(other).expanded(margin));
  shape.collect_children(box, [&](const Shape&, const Mat44&, uint32_t index) {
    ShapeInstance child;
    if (compound_child(compound, index, child)) visit(child);
  });
}

void collide_compound_a(const ShapeInstance& a, const ShapeInstance& b,
                        const CollideShapeSettings& settings, ContactCollector& collector) {
  for_each_overlapping_child(
      a, b, settings.max_separation_distance,
      [&](const ShapeInstance& child) { dispatch(child, b, settings, collector); });
}

void collide_compound_b(const ShapeInstance& a, const ShapeInstance& b,
                        const CollideShapeSettings& settings, ContactCollector& collector) {
  for_each_overlapping_child(
      b, a, settings.max_separation_distance,
      [&](const ShapeInstance& child) { dispatch(a, child, settings, collector); });
}

/// Mesh and height field pairs: both static, never collided (documented in CollideShapes.h).
void collide_nothing(const ShapeInstance&, const ShapeInstance&, const CollideShapeSettings&,
                     ContactCollector&) {}

using CollideFunction = void (*)(const ShapeInstance&, const ShapeInstance&,
                                 const CollideShapeSettings&, ContactCollector&);

/// The dispatch table, indexed by the sub-types of both shapes.
struct CollideTable {
  CollideFunction entry[k_num_shape_sub_types][k_num_shape_sub_types];
};

CollideFunction select(ShapeType a, ShapeType b) {
  // Decorators first (their inner shape may be anything), then compounds, then leaves.
  if (a == ShapeType::Decorated) return collide_unwrap_a;
  if (b == ShapeType::Decorated) return collide_unwrap_b;
  if (a == ShapeType::Compound) return collide_compound_a;
  if (b == ShapeType::Compound) return collide_compound_b;
  const bool a_triangles = a == ShapeType::Mesh || a == ShapeType::HeightField;
  const bool b_triangles = b == ShapeType::Mesh || b == ShapeType::HeightField;
  if (a_triangles && b_triangles) return collide_nothing;
  if (a_triangles) return collide_swapped;
  if (b_triangles) return collide_convex_vs_triangles;
  return collide_convex_vs_convex;
}

/// Built on first use (thread-safe function-local static) and never changed afterwards.
const CollideTable& collide_table() {
  static const CollideTable table = [] {
    CollideTable t{};
    for (int i = 0; i < k_num_shape_sub_types; ++i)
      for (int j = 0; j < k_num_shape_sub_types; ++j)
        t.entry[i][j] = select(shape_type_of(static_cast<ShapeSubType>(i)),
                               shape_type_of(static_cast<ShapeSubType>(j)));
    // Two boxes: the separating axis test instead of GJK + EPA (BoxBoxCollision.h).
    const auto box = static_cast<int>(ShapeSubType::Box);
    t.entry[box][box] = collide_box_vs_box;
    return t;
  }();
  return table;
}

void dispatch(const ShapeInstance& a, const ShapeInstance& b, const CollideShapeSettings& settings,
              ContactCollector& collector) {
  if (collector.should_early_out()) return;
  const auto i = static_cast<int>(a.shape->sub_type());
  const auto j = static_cast<int>(b.shape->sub_type());
  collide_table().entry[i][j](a, b, settings, collector);
}

}  // namespace

Status collide_shapes(const Shape& a, const Mat44& transform_a, const Shape& b,
                      const Mat44& transform_b, const CollideShapeSettings& settings,
                      ContactCollector& collector) {
  if (Status status = settings.validate(); !status.ok()) return status;
  if (auto e = check_rigid_transform("collide_shapes.transform_a", transform_a)) return *e;
  if (auto e = check_rigid_transform("collide_shapes.transform_b", transform_b)) return *e;
  collide_shapes_unchecked(a, transform_a, b, transform_b, settings, collector);
  return Ok{};
}

void collide_shapes_unchecked(const Shape& a, const Mat44& transform_a, const Shape& b,
                              const Mat44& transform_b, const CollideShapeSettings& settings,
                              ContactCollector& collector) {
  ShapeInstance instance_a, instance_b;
  instance_a.shape = &a;
  instance_a.transform = transform_a;
  instance_b.shape = &b;
  instance_b.transform = transform_b;
  dispatch(instance_a, instance_b, settings, collector);
}

}  // namespace atl
