// write_scene_json output reads back to an equal description (generated bodies expanded).

#include <gtest/gtest.h>

#include "FullScene.h"
#include "atoll/scene/BuiltinScenes.h"
#include "atoll/scene/SceneReader.h"
#include "atoll/scene/SceneWriter.h"

namespace atl {
namespace scene_writer_test {
namespace {

SceneDescription read_ok(std::string_view text, std::string_view name) {
  Result<SceneDescription> scene = read_scene_text(text, name);
  EXPECT_TRUE(scene.ok()) << (scene.ok() ? "" : scene.error().message());
  return scene.ok() ? std::move(scene).value() : SceneDescription();
}

TEST(SceneWriter, FullSceneRoundTrips) {
  const SceneDescription scene = read_ok(test::k_full_scene, "full.json");
  ASSERT_EQ(scene.bodies.size(), 8u + 4u + 6u + 4u + 6u + 5u + 3u);
  const std::string text = write_scene_json(scene);
  const SceneDescription again = read_ok(text, "written.json");
  EXPECT_EQ(again, scene);
  // Writing is deterministic and idempotent.
  EXPECT_EQ(write_scene_json(again), text);
  // Generated bodies are written out one by one.
  EXPECT_EQ(text.find("generators"), std::string::npos);
  EXPECT_NE(text.find("\"name\": \"r5\""), std::string::npos);
  // So are generated constraints, and the collision group a chain gives its links.
  EXPECT_NE(text.find("\"name\": \"c_joint2\""), std::string::npos);
  EXPECT_NE(text.find("\"collision_group\": 4"), std::string::npos);
}

TEST(SceneWriter, EqualityNoticesEveryKindOfChange) {
  const SceneDescription scene = read_ok(test::k_full_scene, "full.json");
  SceneDescription changed = scene;
  changed.physics.use_friction = true;
  EXPECT_NE(changed, scene);
  changed = scene;
  changed.bodies[3].settings.allowed_dofs = AllowedDOFs::All;
  EXPECT_NE(changed, scene);
  changed = scene;
  auto shape = std::make_shared<SceneShape>(*changed.bodies[2].shape.definition);
  std::get<BoxShapeSettings>(shape->settings).half_extent = Vec3(1, 0.2f, 1);
  changed.bodies[2].shape.definition = shape;
  EXPECT_NE(changed, scene);
  changed = scene;
  changed.events[11].rotation.reset();
  EXPECT_NE(changed, scene);
}

TEST(SceneWriter, DefaultSettingsAreLeftOut) {
  SceneDescription scene;
  const std::string text = write_scene_json(scene);
  EXPECT_EQ(text,
            "{\n"
            "  \"settings\": {\"dt\": 0.016666668, \"steps\": 600, \"collision_steps\": 1},\n"
            "  \"bodies\": []\n"
            "}\n");
  EXPECT_EQ(read_ok(text, "empty.json"), scene);
}

TEST(SceneWriter, FloatsAreWrittenInTheirShortestExactForm) {
  SceneDescription scene;
  scene.physics.baumgarte = 0.1f;
  scene.physics.gravity = Vec3(0, -9.81f, 1.0e-7f);
  BodyDesc body;
  body.name = "b";
  body.shape.definition =
      std::make_shared<SceneShape>(SceneShape{SphereShapeSettings{1.0f / 3.0f}});
  body.settings.position = Vec3(0.1f, 1e30f, -2.5f);
  scene.bodies.push_back(body);
  const std::string text = write_scene_json(scene);
  EXPECT_NE(text.find("\"baumgarte\": 0.1"), std::string::npos) << text;
  EXPECT_NE(text.find("[0, -9.81, 1e-07]"), std::string::npos) << text;
  EXPECT_NE(text.find("[0.1, 1e+30, -2.5]"), std::string::npos) << text;
  EXPECT_EQ(read_ok(text, "floats.json"), scene);
}

TEST(SceneWriter, BuiltinScenesRoundTrip) {
  for (std::string_view name : builtin_scene_names()) {
    const SceneDescription scene = read_ok(*builtin_scene_text(name), name);
    EXPECT_EQ(read_ok(write_scene_json(scene), name), scene) << name;
  }
}

}  // namespace
}  // namespace scene_writer_test
}  // namespace atl
