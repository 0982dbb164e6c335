// Fuzz target: every shape's settings builder. The bytes choose a shape kind and its parameters
// (dimensions, densities and radii from ByteReader::real(), so also 0, negative, huge, NaN and
// ±∞; hull points, mesh vertices and indices, height samples; compounds and decorators of
// shapes built the same way, a few levels deep). A shape that is built is queried (bounds, mass,
// volume, a ray, a point) and dropped into a small world against a box, stepped a few times.
// Checks: a rejection has a message; an accepted shape has finite, valid local bounds; the
// world's bodies stay finite (or are quarantined).
#include <cstdint>

#include "FuzzCommon.h"
#include "atoll/body/BodyCreationSettings.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/CapsuleShape.h"
#include "atoll/shape/ConvexHullShape.h"
#include "atoll/shape/CylinderShape.h"
#include "atoll/shape/HeightFieldShape.h"
#include "atoll/shape/OffsetCenterOfMassShape.h"
#include "atoll/shape/RotatedTranslatedShape.h"
#include "atoll/shape/ScaledShape.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/shape/StaticCompoundShape.h"
#include "atoll/shape/TriangleMeshShape.h"
#include "atoll/shape/Validation.h"
#include "atoll/world/PhysicsSystem.h"

namespace fuzz_shapes {

using atl::fuzz::ByteReader;

constexpr int k_max_depth = 3;
constexpr uint32_t k_max_points = 64;
constexpr int k_steps = 3;

// Builds one shape from the bytes; null when the builder rejected the settings (after checking
// that the rejection has a message).
atl::Ref<atl::Shape> build(ByteReader& in, int depth) {
  using namespace atl;
  const uint32_t kind = in.below(depth < k_max_depth ? 11 : 7);
  Result<Ref<Shape>> shape = Error("unset");
  const char* call = "";
  switch (kind) {
    case 0: {
      SphereShapeSettings s;
      s.radius = in.real();
      if (in.boolean()) s.density = in.real();
      shape = s.create(), call = "SphereShapeSettings::create";
      break;
    }
    case 1: {
      BoxShapeSettings s;
      s.half_extent = in.vec3();
      if (in.boolean()) s.convex_radius = in.real();
      if (in.boolean()) s.density = in.real();
      shape = s.create(), call = "BoxShapeSettings::create";
      break;
    }
    case 2: {
      CapsuleShapeSettings s;
      s.half_height_of_cylinder = in.real();
      s.radius = in.real();
      if (in.boolean()) s.density = in.real();
      shape = s.create(), call = "CapsuleShapeSettings::create";
      break;
    }
    case 3: {
      CylinderShapeSettings s;
      s.half_height = in.real();
      s.radius = in.real();
      if (in.boolean()) s.convex_radius = in.real();
      if (in.boolean()) s.density = in.real();
      shape = s.create(), call = "CylinderShapeSettings::create";
      break;
    }
    case 4: {
      ConvexHullShapeSettings s;
      const uint32_t n = in.below(k_max_points + 1);
      // Points on one scale (so that hulls are not all degenerate), some of them raw.
      const float scale = in.boolean() ? 1.0f : in.real();
      for (uint32_t i = 0; i < n; ++i)
        s.points.push_back(in.u8() < 8 ? in.vec3() : in.moderate_vec3(1.0f) * scale);
      if (in.boolean()) s.max_convex_radius = in.real();
      if (in.boolean()) s.hull_tolerance = in.real();
      if (in.boolean()) s.max_error_convex_radius = in.real();
      if (in.boolean()) s.density = in.real();
      shape = s.create(), call = "ConvexHullShapeSettings::create";
      break;
    }
    case 5: {
      TriangleMeshShapeSettings s;
      const uint32_t nv = in.below(k_max_points + 1);
      for (uint32_t i = 0; i < nv; ++i) {
        const Vec3 v = in.u8() < 8 ? in.vec3() : in.moderate_vec3(4.0f);
        s.vertices.push_back(Float3{v.x(), v.y(), v.z()});
      }
      const uint32_t nt = in.below(k_max_points + 1);
      for (uint32_t i = 0; i < nt; ++i) {
        IndexedTriangle t;
        // Mostly indices in range, sometimes any 32-bit value.
        for (uint32_t& index : t.idx) index = in.u8() < 8 ? in.u32() : (nv == 0 ? 0 : in.below(nv));
        t.material_index = in.u8();
        s.triangles.push_back(t);
      }
      if (in.boolean()) s.active_edge_cos_threshold = in.real();
      shape = s.create(), call = "TriangleMeshShapeSettings::create";
      break;
    }
    case 6: {
      HeightFieldShapeSettings s;
      s.sample_count = in.u8() < 8 ? in.u32() : in.below(10);
      const uint32_t n = in.below(101);
      for (uint32_t i = 0; i < n; ++i)
        s.heights.push_back(
            in.u8() < 8 ? (in.boolean() ? HeightFieldShapeSettings::k_no_collision : in.real())
                        : in.in_range(-2.0f, 2.0f));
      if (in.boolean()) s.offset = in.vec3();
      if (in.boolean()) s.scale = in.vec3();
      const uint32_t nm = in.below(4) == 0 ? in.below(82) : 0;
      for (uint32_t i = 0; i < nm; ++i) s.material_indices.push_back(in.u8());
      if (in.boolean()) s.active_edge_cos_threshold = in.real();
      shape = s.create(), call = "HeightFieldShapeSettings::create";
      break;
    }
    case 7: {
      StaticCompoundShapeSettings s;
      const uint32_t n = in.below(5);
      for (uint32_t i = 0; i < n; ++i) {
        StaticCompoundShapeSettings::Child child;
        child.shape = build(in, depth + 1);  // null when rejected: the compound must reject it
        child.position = in.boolean() ? in.vec3() : in.moderate_vec3(2.0f);
        child.rotation = in.quat();
        s.children.push_back(std::move(child));
      }
      shape = s.create(), call = "StaticCompoundShapeSettings::create";
      break;
    }
    case 8: {
      ScaledShapeSettings s;
      s.inner = build(in, depth + 1);
      s.scale = in.boolean() ? in.vec3() : in.moderate_vec3(3.0f);
      shape = s.create(), call = "ScaledShapeSettings::create";
      break;
    }
    case 9: {
      OffsetCenterOfMassShapeSettings s;
      s.inner = build(in, depth + 1);
      s.offset = in.boolean() ? in.vec3() : in.moderate_vec3(2.0f);
      shape = s.create(), call = "OffsetCenterOfMassShapeSettings::create";
      break;
    }
    default: {
      RotatedTranslatedShapeSettings s;
      s.inner = build(in, depth + 1);
      s.position = in.boolean() ? in.vec3() : in.moderate_vec3(2.0f);
      s.rotation = in.quat();
      shape = s.create(), call = "RotatedTranslatedShapeSettings::create";
      break;
    }
  }
  if (!atl::fuzz::accepted(shape, call)) return nullptr;
  return *shape;
}

// Queries an accepted shape.
void query(const atl::Shape& shape, ByteReader& in) {
  using namespace atl;
  const AABox bounds = shape.local_bounds();
  fuzz::check(fuzz::finite(bounds.min) && fuzz::finite(bounds.max) && bounds.is_valid(),
              std::string(shape_sub_type_name(shape.sub_type())) +
                  ": an accepted shape has non-finite or invalid local bounds " +
                  format_vec3(bounds.min) + " to " + format_vec3(bounds.max));
  (void)shape.mass_properties();
  (void)shape.volume();
  (void)shape.inner_radius();
  (void)shape.center_of_mass();
  const RayCast ray{in.moderate_vec3(5.0f), in.moderate_vec3(10.0f)};
  RayCastResult hit;
  if (shape.cast_ray(ray, SubShapeIDCreator(), hit)) {
    fuzz::check(hit.fraction >= 0.0f && hit.fraction <= 1.0f, "ray hit fraction outside [0, 1]");
    const Vec3 point = ray.origin + ray.direction * hit.fraction;
    const Vec3 normal = shape.surface_normal(hit.sub_shape_id, point);
    fuzz::check(fuzz::finite(normal), std::string(shape_sub_type_name(shape.sub_type())) +
                                          ": surface normal " + format_vec3(normal) + " at " +
                                          format_vec3(point) + " of a ray hit is not finite");
  }
  (void)shape.collide_point(in.moderate_vec3(2.0f));
}

// The shape as a static body under a falling box, and as a dynamic body on a static floor.
void simulate(const atl::Ref<atl::Shape>& shape, ByteReader& in) {
  using namespace atl;
  PhysicsSystem system;
  BodyInterface& bodies = system.body_interface();
  const Ref<Shape> box = *BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create();
  const Ref<Shape> floor = *BoxShapeSettings{Vec3(20.0f, 0.5f, 20.0f)}.create();
  (void)fuzz::accepted(bodies.create_and_add_body(
                           BodyCreationSettings(shape, Vec3::zero(), in.quat(), MotionType::Static),
                           Activation::DontActivate),
                       "create_and_add_body(static fuzzed shape)");
  (void)fuzz::accepted(
      bodies.create_and_add_body(
          BodyCreationSettings(box, in.moderate_vec3(2.0f), in.quat(), MotionType::Dynamic),
          Activation::Activate),
      "create_and_add_body(box)");
  (void)fuzz::accepted(
      bodies.create_and_add_body(BodyCreationSettings(floor, Vec3(0.0f, -30.0f, 0.0f),
                                                      Quat::identity(), MotionType::Static),
                                 Activation::DontActivate),
      "create_and_add_body(floor)");
  BodyCreationSettings dynamic(shape, Vec3(0.0f, -28.0f, 0.0f), in.quat(), MotionType::Dynamic);
  if (in.boolean()) dynamic.override_mass = in.in_range(0.1f, 100.0f);
  (void)fuzz::accepted(bodies.create_and_add_body(dynamic, Activation::Activate),
                       "create_and_add_body(dynamic fuzzed shape)");
  fuzz::check_world_finite(system);
  for (int step = 0; step < k_steps; ++step) {
    (void)fuzz::accepted(system.update(1.0f / 60.0f), "PhysicsSystem::update");
    fuzz::check_world_finite(system);
  }
}

}  // namespace fuzz_shapes

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  atl::fuzz::ByteReader in(data, size);
  const atl::Ref<atl::Shape> shape = fuzz_shapes::build(in, 0);
  if (shape == nullptr) return 0;
  fuzz_shapes::query(*shape, in);
  fuzz_shapes::simulate(shape, in);
  return 0;
}
