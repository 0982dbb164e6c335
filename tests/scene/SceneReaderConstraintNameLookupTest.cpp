// Regression (found by tests/fuzz's scene_reader target, whose seed scenes/joint_grid.json took
// 20 s under the sanitizers): every constraint the reader added was checked against the names
// before it by a linear search of the scene's constraints, so a generated grid of 100 × 100
// joined spheres (19 900 point constraints) took 2 s to read in a release build. The reader now
// keeps a name index, as it does for bodies.

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "atoll/scene/SceneReader.h"

namespace atl {
namespace scene_reader_constraint_name_lookup_test {

// A side × side grid of spheres joined to their neighbours by point constraints (named g_x<i>,
// g_y<i>), the top row to the world (g_top<i>), with an event on the constraint `event_target`.
std::string grid_scene(int side, const std::string& event_target) {
  std::ostringstream text;
  text
      << R"({"generators": [{"type": "grid", "name": "g", "shape": {"type": "sphere",)"
      << R"( "radius": 0.4}, "counts": [)" << side << ", " << side
      << R"(, 1], "spacing": [1, 1, 1], "base": [0, 0, 0], "constraint": {"type": "point"},)"
      << R"( "anchor": "top"}], "events": [{"step": 1, "action": "disable_constraint", "constraint": ")"
      << event_target << R"("}]})";
  return text.str();
}

TEST(SceneReaderConstraintNameLookup, AGridOf10000JoinedBodiesIsReadWhole) {
  // Its reading time is measured by bench/SceneReaderBench.cpp (quadratic: 2 s in release, 20 s
  // under the address sanitizer; now 0.15 s and about 1.5 s), not asserted here.
  const Result<SceneDescription> scene = read_scene_text(grid_scene(100, "g_x5000"), "grid.json");
  ASSERT_TRUE(scene.ok()) << scene.error().message();
  EXPECT_EQ(scene->bodies.size(), 10000u);
  EXPECT_EQ(scene->constraints.size(), 2u * 99u * 100u + 100u);
}

TEST(SceneReaderConstraintNameLookup, GeneratedNamesAreFoundAndDuplicatesRefused) {
  EXPECT_TRUE(read_scene_text(grid_scene(3, "g_top8"), "grid.json").ok());
  const Result<SceneDescription> unknown = read_scene_text(grid_scene(3, "g_x8"), "grid.json");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(std::string(unknown.error().message()),
            "grid.json: events[0].constraint: unknown constraint \"g_x8\" (a constraint may "
            "name only those before it)");
  const Result<SceneDescription> duplicate = read_scene_text(
      R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 1}, "position": [0, 0, 0]}],
          "generators": [{"type": "chain", "name": "c", "shape": {"type": "sphere", "radius": 0.2},
                          "count": 2, "base": [0, 3, 0], "spacing": 0.5,
                          "constraint": {"type": "point"}}],
          "constraints": [{"name": "c_joint0", "type": "point", "body1": "a", "body2": "c0",
                           "point": [0, 1, 0]}]})",
      "dup.json");
  ASSERT_FALSE(duplicate.ok());
  EXPECT_EQ(std::string(duplicate.error().message()),
            "dup.json: constraints[0].name: duplicate constraint name \"c_joint0\"");
}

}  // namespace scene_reader_constraint_name_lookup_test
}  // namespace atl
