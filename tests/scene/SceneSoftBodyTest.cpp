// Soft bodies in scene files (issue 11 item 4, docs/scene-format.md "Soft bodies"): each type
// reads with its defaults and the file's keys, selectors pick the vertices they name, the
// writer's text reads back equal, --set changes one key or nothing, and every bad input is one
// error naming the JSON path.

#include <gtest/gtest.h>

#include <string>

#include "atoll/scene/SceneReader.h"
#include "atoll/scene/SceneSoftBodies.h"
#include "atoll/scene/SceneWriter.h"

namespace atl {
namespace scene_soft_body_test {

constexpr const char* k_scene = R"({
  "bodies": [
    {"name": "crate", "shape": {"type": "box", "half_extent": [0.2, 0.2, 0.2]},
     "position": [2, 3, 0]}
  ],
  "soft_bodies": [
    {"name": "rope", "type": "rope", "from": [0, 4, 0], "to": [2, 4, 0], "segments": 10,
     "mass": 0.5, "compliance": 1e-5, "bend_compliance": 0.1, "radius": 0.03,
     "pinned": "first", "attach": [{"vertex": "last", "body": "crate"}]},
    {"name": "sheet", "type": "cloth", "center": [0, 2, 0], "size": [2, 1],
     "resolution": [5, 3], "mass": 0.3, "compliance": 1e-6, "bend_compliance": 1e-2,
     "long_range_attachments": false, "vertex_radius": 0.01, "pinned": ["corners"],
     "friction": 0.2, "linear_damping": 0.5},
    {"name": "ball", "type": "pressure_ball", "center": [3, 1, 3], "radius": 0.4,
     "subdivisions": 1, "mass": 2, "pressure": 1.5, "compliance": 1e-4},
    {"name": "tetra", "type": "mesh",
     "vertices": [[0, 0, 0], [1, 0, 0], [0, 0, 1], [0, 1, 0]],
     "faces": [[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]],
     "inverse_masses": [0, 1, 1, 1], "bend_compliance": 0.5, "pressure": 1}
  ]
})";

SceneDescription read(const std::string& text) {
  Result<SceneDescription> scene = read_scene_text(text, "t.json");
  EXPECT_TRUE(scene.ok()) << scene.error().message();
  return scene.ok() ? std::move(*scene) : SceneDescription{};
}

std::string error_of(const std::string& text) {
  Result<SceneDescription> scene = read_scene_text(text, "t.json");
  EXPECT_FALSE(scene.ok());
  return scene.ok() ? std::string() : std::string(scene.error().message());
}

// A scene with one soft body object `body` (and the crate to attach to).
std::string with(const std::string& body) {
  return R"({"bodies": [{"name": "crate", "shape": {"type": "sphere", "radius": 0.2}}],
             "soft_bodies": [)" +
         body + "]}";
}

TEST(SceneSoftBody, EveryTypeReadsItsKeys) {
  const SceneDescription scene = read(k_scene);
  ASSERT_EQ(scene.soft_bodies.size(), 4u);
  const SoftRopeDesc& rope = std::get<SoftRopeDesc>(scene.soft_bodies[0].type);
  EXPECT_EQ(rope.segments, 10u);
  EXPECT_EQ(rope.common.vertex_radius, 0.03f);
  EXPECT_EQ(rope.bend_compliance, 0.1f);
  const SoftClothDesc& cloth = std::get<SoftClothDesc>(scene.soft_bodies[1].type);
  EXPECT_EQ(cloth.resolution[0], 5u);
  EXPECT_EQ(cloth.size[1], 1.0f);
  EXPECT_FALSE(cloth.long_range_attachments);
  EXPECT_EQ(scene.soft_bodies[1].friction, 0.2f);
  EXPECT_EQ(std::get<SoftPressureBallDesc>(scene.soft_bodies[2].type).pressure, 1.5f);
  const SoftMeshDesc& mesh = std::get<SoftMeshDesc>(scene.soft_bodies[3].type);
  EXPECT_EQ(mesh.faces.size(), 4u);
  EXPECT_EQ(mesh.pressure, 1.0f);
}

TEST(SceneSoftBody, DefaultsAreTheEnginesAndTheGenerators) {
  const SceneDescription scene =
      read(with(R"({"name": "r", "type": "rope", "from": [0, 1, 0], "to": [1, 1, 0]})"));
  const SoftBodyDesc& desc = scene.soft_bodies[0];
  EXPECT_EQ(desc.friction, SoftBodySettings().friction);
  EXPECT_EQ(desc.linear_damping, SoftBodySettings().linear_damping);
  Result<SceneSoftBody> built = build_scene_soft_body(desc);
  ASSERT_TRUE(built.ok()) << built.error().message();
  const SoftBodySettings& s = *built->settings;
  EXPECT_EQ(s.vertices.size(), 17u);  // 16 segments
  EXPECT_NEAR(s.total_mass(), 1.0f, 1e-5f);
  EXPECT_EQ(s.vertex_radius, SoftBodySettings().vertex_radius);
  EXPECT_EQ(s.edges[0].compliance, 0.0f);
}

TEST(SceneSoftBody, SelectorsPinAndAttachTheVerticesTheyName) {
  const SceneDescription scene = read(k_scene);
  Result<SceneSoftBody> rope = build_scene_soft_body(scene.soft_bodies[0]);
  ASSERT_TRUE(rope.ok()) << rope.error().message();
  EXPECT_EQ(rope->settings->vertices[0].inverse_mass, 0.0f);
  for (size_t i = 1; i < 11; ++i) EXPECT_GT(rope->settings->vertices[i].inverse_mass, 0.0f) << i;
  ASSERT_EQ(rope->ties.size(), 1u);
  EXPECT_EQ(rope->ties[0].first, 10u);
  EXPECT_EQ(rope->ties[0].second, "crate");
  EXPECT_EQ(rope->settings->vertex_radius, 0.03f);

  // The 5 × 3 sheet: corners 0, 4, 10, 14 pinned, nothing else; no tethers when asked.
  Result<SceneSoftBody> sheet = build_scene_soft_body(scene.soft_bodies[1]);
  ASSERT_TRUE(sheet.ok()) << sheet.error().message();
  for (uint32_t i = 0; i < 15; ++i)
    EXPECT_EQ(sheet->settings->vertices[i].inverse_mass == 0.0f,
              i == 0 || i == 4 || i == 10 || i == 14)
        << i;
  EXPECT_TRUE(sheet->settings->long_range.empty());
  EXPECT_EQ(sheet->settings->friction, 0.2f);
  EXPECT_EQ(sheet->settings->linear_damping, 0.5f);

  // edge_min_x of a 4 × 3 cloth: its first column (0, 4, 8), tethered to them by default.
  const SceneDescription edge = read(with(
      R"({"name": "c", "type": "cloth", "center": [0, 1, 0], "resolution": [4, 3],
          "pinned": "edge_min_x"})"));
  Result<SceneSoftBody> c = build_scene_soft_body(edge.soft_bodies[0]);
  ASSERT_TRUE(c.ok()) << c.error().message();
  for (uint32_t i = 0; i < 12; ++i)
    EXPECT_EQ(c->settings->vertices[i].inverse_mass == 0.0f, i % 4 == 0) << i;
  EXPECT_EQ(c->settings->long_range.size(), 9u);

  // The mesh's inverse masses are the file's; its volume is kept.
  Result<SceneSoftBody> tetra = build_scene_soft_body(scene.soft_bodies[3]);
  ASSERT_TRUE(tetra.ok()) << tetra.error().message();
  EXPECT_EQ(tetra->settings->vertices[0].inverse_mass, 0.0f);
  EXPECT_TRUE(tetra->settings->keep_volume);
  EXPECT_EQ(tetra->settings->edges.size(), 6u);
  EXPECT_EQ(tetra->settings->bends.size(), 6u);
  EXPECT_NEAR(tetra->settings->rest_volume, 1.0f / 6.0f, 1e-6f);
}

TEST(SceneSoftBody, WrittenTextReadsBackEqual) {
  const SceneDescription scene = read(k_scene);
  const std::string text = write_scene_json(scene);
  const SceneDescription again = read(text);
  EXPECT_TRUE(again == scene) << text;
  EXPECT_EQ(write_scene_json(again), text);
  // And a changed key is a different scene.
  SceneDescription changed = scene;
  std::get<SoftClothDesc>(changed.soft_bodies[1].type).bend_compliance = 0.5f;
  EXPECT_FALSE(changed == scene);
}

TEST(SceneSoftBody, SetChangesOneKeyOrNothing) {
  SceneDescription scene = read(k_scene);
  ASSERT_TRUE(apply_override(scene, "soft_bodies.rope.compliance=0.001").ok());
  EXPECT_EQ(std::get<SoftRopeDesc>(scene.soft_bodies[0].type).common.compliance, 0.001f);
  ASSERT_TRUE(apply_override(scene, "soft_bodies.sheet.friction=0.9").ok());
  EXPECT_EQ(scene.soft_bodies[1].friction, 0.9f);
  ASSERT_TRUE(apply_override(scene, "soft_bodies.ball.pinned=[0, \"last\"]").ok());
  EXPECT_EQ(scene.soft_bodies[2].pinned.size(), 2u);

  const SceneDescription before = scene;
  const auto refused = [&](const char* assignment, const std::string& message) {
    const Status status = apply_override(scene, assignment);
    ASSERT_FALSE(status.ok()) << assignment;
    EXPECT_EQ(std::string(status.error().message()), message);
    EXPECT_TRUE(scene == before) << assignment;
  };
  refused("soft_bodies.rope.compliance=-1",
          "--set: soft_bodies.rope.compliance: must be >= 0, got -1");
  refused("soft_bodies.nobody.compliance=1",
          "--set: soft_bodies.nobody.compliance: unknown "
          "soft body \"nobody\"");
  refused("soft_bodies.rope.stiffness=1",
          "--set: soft_bodies.rope.stiffness: unknown key for a rope");
  refused("soft_bodies.rope.type=\"cloth\"",
          "--set: soft_bodies.rope.type: a soft body's type cannot be changed");
  refused("soft_bodies.rope=1", "--set: soft_bodies.rope: expected soft_bodies.NAME.FIELD");
  // A value that is valid alone but not for this soft body: found by building it.
  refused("soft_bodies.rope.pinned=[11]",
          "--set: soft_bodies.rope.pinned[0]: vertex 11 out of range (11 vertices)");
  refused("soft_bodies.rope.to=[0, 4, 0]", "--set: soft_bodies.rope.to: must differ from `from`");
  refused("soft_bodies.rope.pinned=\"last\"",
          "--set: soft_bodies.rope.attach[0].vertex: vertex 10 is pinned; only a free vertex "
          "can be attached");
}

struct Bad {
  const char* name;
  std::string json;
  const char* expected;
};

TEST(SceneSoftBody, BadInputIsOneErrorNamingTheJsonPath) {
  const Bad cases[] = {
      {"not_a_list", R"({"soft_bodies": {}})", "soft_bodies: expected an array, got {}"},
      {"unknown_type", with(R"({"name": "x", "type": "jelly"})"),
       "soft_bodies[0].type: unknown soft body type \"jelly\" (expected rope, cloth, "
       "pressure_ball or mesh)"},
      {"no_type", with(R"({"name": "x"})"), "soft_bodies[0].type: required key missing"},
      {"no_name", with(R"({"type": "rope", "from": [0, 0, 0], "to": [1, 0, 0]})"),
       "soft_bodies[0].name: required key missing"},
      {"no_from", with(R"({"name": "x", "type": "rope", "to": [1, 0, 0]})"),
       "soft_bodies[0].from: required key missing"},
      {"key_of_another_type",
       with(R"({"name": "x", "type": "rope", "from": [0, 0, 0], "to": [1, 0, 0],
               "resolution": [2, 2]})"),
       "soft_bodies[0].resolution: unknown key for a rope"},
      {"same_ends", with(R"({"name": "x", "type": "rope", "from": [0, 0, 0], "to": [0, 0, 0]})"),
       "soft_bodies[0].to: must differ from `from`"},
      {"no_segments", with(R"({"name": "x", "type": "rope", "from": [0, 0, 0], "to": [1, 0, 0],
               "segments": 0})"),
       "soft_bodies[0].segments: must be in [1, 1048575], got 0"},
      {"negative_compliance",
       with(R"({"name": "x", "type": "cloth", "center": [0, 0, 0], "compliance": -1})"),
       "soft_bodies[0].compliance: must be >= 0, got -1"},
      {"not_finite_mass",
       with(R"({"name": "x", "type": "pressure_ball", "center": [0, 0, 0], "mass": 1e999})"),
       "soft_bodies[0].mass: must be a finite float, got 1e999"},
      {"too_fine",
       with(R"({"name": "x", "type": "pressure_ball", "center": [0, 0, 0], "subdivisions": 6})"),
       "soft_bodies[0].subdivisions: must be in [0, 5], got 6"},
      {"huge_radius", with(R"({"name": "x", "type": "rope", "from": [0, 0, 0], "to": [1, 0, 0],
               "radius": 1000})"),
       "soft_bodies[0].radius: must be in [0, 100], got 1000"},
      {"pinned_out_of_range",
       with(R"({"name": "x", "type": "rope", "from": [0, 0, 0], "to": [1, 0, 0],
               "segments": 2, "pinned": [0, 3]})"),
       "soft_bodies[0].pinned[1]: vertex 3 out of range (3 vertices)"},
      {"unknown_selector", with(R"({"name": "x", "type": "rope", "from": [0, 0, 0], "to": [1, 0, 0],
               "pinned": ["top"]})"),
       "soft_bodies[0].pinned[0]: unknown vertex selector \"top\" (expected a vertex index or "
       "first, last, corners, edge_min_x, edge_max_x, edge_min_y, edge_max_y, edge_min_z, "
       "edge_max_z)"},
      {"attach_unknown_body",
       with(R"({"name": "x", "type": "rope", "from": [0, 0, 0], "to": [1, 0, 0],
               "attach": [{"vertex": 0, "body": "ghost"}]})"),
       "soft_bodies[0].attach[0].body: unknown body \"ghost\""},
      {"attach_twice", with(R"({"name": "x", "type": "rope", "from": [0, 0, 0], "to": [1, 0, 0],
               "attach": [{"vertex": "last", "body": "crate"}, {"vertex": 16,
               "body": "crate"}]})"),
       "soft_bodies[0].attach[1].vertex: vertex 16 is attached twice"},
      {"duplicate_name", with(R"({"name": "x", "type": "rope", "from": [0, 0, 0], "to": [1, 0, 0]},
               {"name": "x", "type": "rope", "from": [0, 0, 0], "to": [1, 0, 0]})"),
       "soft_bodies[1].name: duplicate soft body name \"x\""},
      {"mesh_without_constraints",
       with(R"({"name": "m", "type": "mesh", "vertices": [[0, 0, 0]]})"),
       "soft_bodies[0]: a mesh needs edges or faces"},
      {"mesh_index_out_of_range",
       with(R"({"name": "m", "type": "mesh", "vertices": [[0, 0, 0], [1, 0, 0]],
               "edges": [[0, 1], [1, 2]]})"),
       "soft_bodies[0].edges[1][1]: vertex 2 out of range (2 vertices)"},
      {"mesh_masses_count",
       with(R"({"name": "m", "type": "mesh", "vertices": [[0, 0, 0], [1, 0, 0]],
               "edges": [[0, 1]], "inverse_masses": [1]})"),
       "soft_bodies[0].inverse_masses: expected one value per vertex (2 vertices), got 1"},
      {"mesh_zero_edge", with(R"({"name": "m", "type": "mesh", "vertices": [[0, 0, 0], [0, 0, 0]],
               "edges": [[0, 1]]})"),
       "soft_bodies[0]: edges[0].rest_length: must be > 0, got 0"},
      {"mesh_open_volume",
       with(R"({"name": "m", "type": "mesh", "vertices": [[0, 0, 0], [1, 0, 0], [0, 0, 1]],
               "edges": [[0, 1]], "pressure": 1})"),
       "soft_bodies[0].pressure: a volume needs faces (a closed surface)"},
  };
  for (const Bad& bad : cases)
    EXPECT_EQ(error_of(bad.json), std::string("t.json: ") + bad.expected) << bad.name;
}

}  // namespace scene_soft_body_test
}  // namespace atl
