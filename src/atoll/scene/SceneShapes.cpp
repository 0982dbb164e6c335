#include "atoll/scene/SceneShapes.h"

#include "atoll/scene/SceneJson.h"

#include <type_traits>

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

namespace atl {

namespace {

using Cache = std::map<const ShapeDesc*, Ref<Shape>>;

class Builder {
 public:
  Builder(const SceneDescription& scene, std::string_view source, Cache* cache)
      : scene_(scene), source_(source), cache_(cache) {}

  // `path` is the full error prefix of `shape` ("demo.json: bodies.b0.shape").
  Result<Ref<Shape>> build(const ShapeDesc& shape, const std::string& path) {
    if (cache_ != nullptr)
      if (const auto it = cache_->find(&shape); it != cache_->end()) return it->second;
    Result<Ref<Shape>> result =
        std::visit([&](const auto& params) { return create(params, path); }, shape.params);
    if (result.ok() && cache_ != nullptr) cache_->emplace(&shape, result.value());
    return result;
  }

  // An inner shape: a named one is reported at its own definition, an inline one at `path`.
  Result<Ref<Shape>> build(const ShapeRef& ref, const std::string& path) {
    if (ref.definition != nullptr) return build(*ref.definition, path);
    const ShapeDesc* named = scene_.find_shape(ref.name);
    if (named == nullptr) return Error(path + ": unknown shape \"" + ref.name + "\"");
    return build(*named, std::string(source_) + ": shapes." + ref.name);
  }

 private:
  // Errors of a settings' create() get the path; errors of inner shapes already have theirs.
  static Result<Ref<Shape>> checked(Result<Ref<Shape>> result, const std::string& path) {
    if (result.ok()) return result;
    return Error(scene_json::engine_error_at(path, result.error().message()));
  }

  template <class T>
  static void apply(const std::optional<T>& value, T& target) {
    if (value) target = *value;
  }

  Result<Ref<Shape>> create(const SphereShapeDesc& desc, const std::string& path) {
    SphereShapeSettings settings;
    settings.radius = desc.radius;
    apply(desc.density, settings.density);
    return checked(settings.create(), path);
  }
  Result<Ref<Shape>> create(const BoxShapeDesc& desc, const std::string& path) {
    BoxShapeSettings settings;
    settings.half_extent = desc.half_extent;
    apply(desc.convex_radius, settings.convex_radius);
    apply(desc.density, settings.density);
    return checked(settings.create(), path);
  }
  Result<Ref<Shape>> create(const CapsuleShapeDesc& desc, const std::string& path) {
    CapsuleShapeSettings settings;
    settings.half_height_of_cylinder = desc.half_height;
    settings.radius = desc.radius;
    apply(desc.density, settings.density);
    return checked(settings.create(), path);
  }
  Result<Ref<Shape>> create(const CylinderShapeDesc& desc, const std::string& path) {
    CylinderShapeSettings settings;
    settings.half_height = desc.half_height;
    settings.radius = desc.radius;
    apply(desc.convex_radius, settings.convex_radius);
    apply(desc.density, settings.density);
    return checked(settings.create(), path);
  }
  Result<Ref<Shape>> create(const ConvexHullShapeDesc& desc, const std::string& path) {
    ConvexHullShapeSettings settings;
    settings.points = desc.points;
    apply(desc.convex_radius, settings.max_convex_radius);
    apply(desc.density, settings.density);
    return checked(settings.create(), path);
  }
  Result<Ref<Shape>> create(const MeshShapeDesc& desc, const std::string& path) {
    TriangleMeshShapeSettings settings;
    settings.vertices.reserve(desc.vertices.size());
    for (const Vec3& v : desc.vertices) settings.vertices.push_back(v.to_float3());
    settings.triangles.reserve(desc.triangles.size());
    for (const auto& t : desc.triangles) {
      IndexedTriangle triangle;
      for (int k = 0; k < 3; ++k) triangle.idx[k] = t[k];
      settings.triangles.push_back(triangle);
    }
    return checked(settings.create(), path);
  }
  Result<Ref<Shape>> create(const HeightFieldShapeDesc& desc, const std::string& path) {
    HeightFieldShapeSettings settings;
    settings.heights = desc.heights;
    settings.sample_count = desc.sample_count;
    settings.offset = desc.offset;
    settings.scale = desc.scale;
    return checked(settings.create(), path);
  }
  Result<Ref<Shape>> create(const CompoundShapeDesc& desc, const std::string& path) {
    StaticCompoundShapeSettings settings;
    for (size_t i = 0; i < desc.children.size(); ++i) {
      const CompoundChildDesc& child = desc.children[i];
      Result<Ref<Shape>> shape =
          build(child.shape, path + ".children[" + std::to_string(i) + "].shape");
      if (!shape.ok()) return shape;
      settings.children.push_back({shape.value(), child.position, child.rotation});
    }
    return checked(settings.create(), path);
  }
  Result<Ref<Shape>> create(const RotatedTranslatedShapeDesc& desc, const std::string& path) {
    Result<Ref<Shape>> inner = build(desc.shape, path + ".shape");
    if (!inner.ok()) return inner;
    RotatedTranslatedShapeSettings settings;
    settings.inner = inner.value();
    settings.position = desc.position;
    settings.rotation = desc.rotation;
    return checked(settings.create(), path);
  }
  Result<Ref<Shape>> create(const ScaledShapeDesc& desc, const std::string& path) {
    Result<Ref<Shape>> inner = build(desc.shape, path + ".shape");
    if (!inner.ok()) return inner;
    ScaledShapeSettings settings;
    settings.inner = inner.value();
    settings.scale = desc.scale;
    return checked(settings.create(), path);
  }
  Result<Ref<Shape>> create(const OffsetCenterOfMassShapeDesc& desc, const std::string& path) {
    Result<Ref<Shape>> inner = build(desc.shape, path + ".shape");
    if (!inner.ok()) return inner;
    OffsetCenterOfMassShapeSettings settings;
    settings.inner = inner.value();
    settings.offset = desc.offset;
    return checked(settings.create(), path);
  }

  const SceneDescription& scene_;
  std::string_view source_;
  Cache* cache_;
};

}  // namespace

Result<Ref<Shape>> build_shape(const SceneDescription& scene, const ShapeDesc& shape,
                               std::string_view source, std::string_view path) {
  return Builder(scene, source, nullptr)
      .build(shape, std::string(source) + ": " + std::string(path));
}

SceneShapes::SceneShapes(const SceneDescription& scene, std::string source)
    : scene_(scene), source_(std::move(source)) {}

Result<Ref<Shape>> SceneShapes::body_shape(const BodyDesc& body) {
  return Builder(scene_, source_, &built_)
      .build(body.shape, source_ + ": bodies." + body.name + ".shape");
}

}  // namespace atl
