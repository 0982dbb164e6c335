// Engine shapes from scene definitions: every definition builds, shared definitions give one
// shared Shape, and the shape settings' own errors come back with the file and JSON path.

#include <gtest/gtest.h>

#include "FullScene.h"
#include "atoll/scene/BuiltinScenes.h"
#include "atoll/scene/SceneReader.h"
#include "atoll/scene/SceneShapes.h"

namespace atl {
namespace scene_shapes_test {
namespace {

SceneDescription read_ok(std::string_view text) {
  Result<SceneDescription> scene = read_scene_text(text, "x.json");
  EXPECT_TRUE(scene.ok()) << (scene.ok() ? "" : scene.error().message());
  return scene.ok() ? std::move(scene).value() : SceneDescription();
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

TEST(SceneShapes, EveryShapeTypeBuildsWithItsParameters) {
  const SceneDescription scene = read_ok(test::k_full_scene);
  SceneShapes shapes(scene, "full.json");
  for (const BodyDesc& body : scene.bodies) {
    const Result<Ref<Shape>> shape = shapes.body_shape(body);
    ASSERT_TRUE(shape.ok()) << shape.error().message();
  }
  for (const NamedShape& named : scene.shapes) {
    const Result<Ref<Shape>> shape = build_shape(scene, named.shape, "full.json", named.name);
    ASSERT_TRUE(shape.ok()) << shape.error().message();
    EXPECT_EQ(uint8_t(shape.value()->sub_type()), uint8_t(named.shape.settings.index()))
        << named.name;
    // The engine's bounds agree with the description's.
    const AABox expected = scene_shape_bounds(scene, named.shape);
    const AABox actual = shape.value()->local_bounds();
    EXPECT_TRUE(actual.min.is_close(expected.min, 1e-6f) &&
                actual.max.is_close(expected.max, 1e-6f))
        << named.name << ": " << actual.min << actual.max << " vs " << expected.min << expected.max;
  }
}

TEST(SceneShapes, BodiesShareTheShapeOfOneDefinition) {
  const SceneDescription scene = read_ok(*builtin_scene_text("pyramid"));
  SceneShapes shapes(scene, "pyramid.json");
  const Ref<Shape> first = shapes.body_shape(*scene.find_body("p0")).value();
  for (const char* name : {"p1", "p600", "p1239"})
    EXPECT_EQ(shapes.body_shape(*scene.find_body(name)).value(), first) << name;
  EXPECT_NE(shapes.body_shape(*scene.find_body("floor")).value(), first);

  // A generator's inline shape is shared by its bodies too.
  const SceneDescription tower = read_ok(*builtin_scene_text("tower10"));
  SceneShapes tower_shapes(tower, "tower10.json");
  EXPECT_EQ(tower_shapes.body_shape(*tower.find_body("b0")).value(),
            tower_shapes.body_shape(*tower.find_body("b9")).value());
}

// The engine's field names are turned into scene keys (issue 7 item 22: errors used to show
// "ConvexHullShapeSettings.points", a C++ name the scene file does not use).
TEST(SceneShapes, ShapeSettingsErrorsNameTheFileAndPath) {
  const SceneDescription scene = read_ok(R"({
    "shapes": {
      "line": {"type": "convex_hull", "points": [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]]},
      "egg": {"type": "scaled", "shape": {"type": "sphere", "radius": 1}, "scale": [1, 2, 1]},
      "pair": {"type": "compound", "children": [{"shape": {"type": "sphere", "radius": 1}},
                                                {"shape": "line"}]}
    },
    "bodies": [
      {"name": "a", "shape": "line"},
      {"name": "b", "shape": {"type": "mesh", "vertices": [[0, 0, 0], [1, 0, 0], [2, 0, 0]],
                              "triangles": [[0, 1, 2]]}, "motion": "static"},
      {"name": "c", "shape": "pair"},
      {"name": "d", "shape": "egg"}
    ]})");
  SceneShapes shapes(scene, "x.json");
  const auto error_of = [&](const char* body) {
    const Result<Ref<Shape>> shape = shapes.body_shape(*scene.find_body(body));
    return shape.ok() ? std::string("<no error>") : std::string(shape.error().message());
  };
  const std::string line = error_of("a");
  EXPECT_TRUE(starts_with(line, "x.json: shapes.line.points: ")) << line;
  const std::string mesh = error_of("b");
  EXPECT_TRUE(starts_with(mesh, "x.json: bodies.b.shape.triangles: ")) << mesh;
  // A named inner shape is reported at its own definition.
  EXPECT_EQ(error_of("c"), line);
  const std::string egg = error_of("d");
  EXPECT_TRUE(starts_with(egg, "x.json: shapes.egg.scale: (1, 2, 1)")) << egg;
  for (const std::string& message : {line, mesh, egg}) {
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(message.find("Settings"), std::string::npos) << message;
  }

  const Result<Ref<Shape>> direct =
      build_shape(scene, *scene.find_shape("egg"), "y.json", "shapes.egg");
  ASSERT_FALSE(direct.ok());
  EXPECT_TRUE(starts_with(direct.error().message(), "y.json: shapes.egg.scale: "));
}

TEST(SceneShapes, EveryBuiltinSceneBuilds) {
  for (std::string_view name : builtin_scene_names()) {
    const SceneDescription scene = read_ok(*builtin_scene_text(name));
    SceneShapes shapes(scene, std::string(name));
    for (const BodyDesc& body : scene.bodies) {
      const Result<Ref<Shape>> shape = shapes.body_shape(body);
      ASSERT_TRUE(shape.ok()) << shape.error().message();
    }
  }
}

}  // namespace
}  // namespace scene_shapes_test
}  // namespace atl
