#include "atoll/scene/SceneShapes.h"

#include "atoll/scene/SceneJson.h"

#include <type_traits>

namespace atl {

namespace {

using Cache = std::map<const SceneShape*, Ref<Shape>>;

class Builder {
 public:
  Builder(const SceneDescription& scene, std::string_view source, Cache* cache)
      : scene_(scene), source_(source), cache_(cache) {}

  // `path` is the full error prefix of `shape` ("demo.json: bodies.b0.shape").
  Result<Ref<Shape>> build(const SceneShape& shape, const std::string& path) {
    if (cache_ != nullptr)
      if (const auto it = cache_->find(&shape); it != cache_->end()) return it->second;
    Result<Ref<Shape>> result =
        std::visit([&](const auto& settings) { return create(settings, path); }, shape.settings);
    if (result.ok() && cache_ != nullptr) cache_->emplace(&shape, result.value());
    return result;
  }

  // An inner shape: a named one is reported at its own definition, an inline one at `path`.
  Result<Ref<Shape>> build(const ShapeRef& ref, const std::string& path) {
    if (ref.definition != nullptr) return build(*ref.definition, path);
    const SceneShape* named = scene_.find_shape(ref.name);
    if (named == nullptr) return Error(path + ": unknown shape \"" + ref.name + "\"");
    return build(*named, std::string(source_) + ": shapes." + ref.name);
  }

 private:
  // Errors of a settings' create() get the path; errors of inner shapes already have theirs.
  static Result<Ref<Shape>> checked(Result<Ref<Shape>> result, const std::string& path) {
    if (result.ok()) return result;
    return Error(scene_json::engine_error_at(path, result.error().message()));
  }

  // A shape without inner shapes: the settings as they are.
  template <class Settings>
  Result<Ref<Shape>> create(const Settings& settings, const std::string& path) {
    return checked(settings.create(), path);
  }
  // A decorator: the inner shape built first, then the settings with it.
  template <class Settings>
  Result<Ref<Shape>> create(const WithShape<Settings>& decorated, const std::string& path) {
    Result<Ref<Shape>> inner = build(decorated.shape, path + ".shape");
    if (!inner.ok()) return inner;
    Settings settings = decorated.settings;
    settings.inner = inner.value();
    return checked(settings.create(), path);
  }
  Result<Ref<Shape>> create(const CompoundShapeParts& parts, const std::string& path) {
    StaticCompoundShapeSettings settings;
    for (size_t i = 0; i < parts.children.size(); ++i) {
      const auto& child = parts.children[i];
      Result<Ref<Shape>> shape =
          build(child.shape, path + ".children[" + std::to_string(i) + "].shape");
      if (!shape.ok()) return shape;
      settings.children.push_back(child.settings);
      settings.children.back().shape = shape.value();
    }
    return checked(settings.create(), path);
  }

  const SceneDescription& scene_;
  std::string_view source_;
  Cache* cache_;
};

}  // namespace

Result<Ref<Shape>> build_shape(const SceneDescription& scene, const SceneShape& shape,
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
