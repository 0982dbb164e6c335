#pragma once
// Engine shapes from a scene's shape definitions, through each shape's settings create(). The
// settings' own checks (a coplanar hull, a scale a sphere cannot take, …) come back as one line
// naming the file and the JSON path: "demo.json: shapes.gem: ConvexHullShapeSettings.points: …".

#include <map>
#include <string>
#include <string_view>

#include "atoll/core/Ref.h"
#include "atoll/core/Result.h"
#include "atoll/scene/SceneDescription.h"
#include "atoll/shape/Shape.h"

namespace atl {

/// Builds one definition; named inner shapes are looked up in `scene`. Errors read
/// "SOURCE: PATH: …" ("demo.json: shapes.crate: BoxShapeSettings…"), or name the definition of
/// a named inner shape when that is the one at fault.
Result<Ref<Shape>> build_shape(const SceneDescription& scene, const SceneShape& shape,
                               std::string_view source, std::string_view path);

/// Builds the shapes of a scene's bodies once per definition: bodies that use the same named
/// shape, or the same generator's inline shape, share one Shape.
class SceneShapes {
 public:
  /// `scene` must outlive this object; `source` names the file in errors ("demo.json").
  SceneShapes(const SceneDescription& scene, std::string source);

  /// The shape of `body`. Errors read "SOURCE: shapes.NAME: …" for a named shape and
  /// "SOURCE: bodies.BODY.shape: …" for an inline one (generated bodies have no file index).
  Result<Ref<Shape>> body_shape(const BodyDesc& body);

 private:
  const SceneDescription& scene_;
  std::string source_;
  // Keyed by definition address: a definition is built once however many bodies share it.
  std::map<const SceneShape*, Ref<Shape>> built_;
};

}  // namespace atl
