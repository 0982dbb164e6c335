// docs/scene-format.md stays in sync with the code: the settings table lists every
// PhysicsSettings field with its real default, every key the format knows is documented, and
// every JSON example reads without error.

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "FullScene.h"
#include "atoll/scene/BuiltinScenes.h"
#include "atoll/scene/PhysicsSettingFields.h"
#include "atoll/scene/SceneFields.h"
#include "atoll/scene/SceneReader.h"

namespace atl {
namespace scene_docs_test {
namespace {

std::string read_doc() {
  std::ifstream file(std::string(ATOLL_SOURCE_DIR) + "/docs/scene-format.md");
  EXPECT_TRUE(file) << "docs/scene-format.md not found";
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// The text of section "## TITLE", up to the next "## ".
std::string section(const std::string& doc, const std::string& title) {
  const size_t start = doc.find("\n## " + title + "\n");
  if (start == std::string::npos) return {};
  const size_t end = doc.find("\n## ", start + 1);
  return doc.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

std::vector<std::string> split_cells(const std::string& row) {
  std::vector<std::string> cells;
  std::string cell;
  for (size_t i = 1; i < row.size(); ++i) {
    if (row[i] != '|') {
      cell += row[i];
      continue;
    }
    const size_t first = cell.find_first_not_of(' ');
    const size_t last = cell.find_last_not_of(' ');
    cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
    cell.clear();
  }
  return cells;
}

// Counts the fields of an aggregate: the largest N for which T{any, …} (N times) compiles.
struct AnyField {
  template <class T>
  operator T() const;  // NOLINT: implicit by design; never defined, only used unevaluated
};
template <class T, class... Fields>
constexpr size_t count_fields() {
  if constexpr (requires { T{Fields{}..., AnyField{}}; })
    return count_fields<T, Fields..., AnyField>();
  else
    return sizeof...(Fields);
}

TEST(SceneDocs, FieldTableCoversEveryPhysicsSettingsField) {
  // A field added to PhysicsSettings must be added to physics_setting_fields() (and so to the
  // scene format and this documentation).
  EXPECT_EQ(physics_setting_fields().size(), count_fields<PhysicsSettings>());
}

TEST(SceneDocs, SettingsTableListsEveryKeyWithItsRealDefault) {
  const std::string settings = section(read_doc(), "Settings");
  ASSERT_FALSE(settings.empty());
  std::vector<std::string> documented;
  std::istringstream lines(settings);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| `", 0) != 0) continue;
    const std::vector<std::string> cells = split_cells(line);
    ASSERT_GE(cells.size(), 3u) << line;
    const std::string key = cells[0].substr(1, cells[0].size() - 2);
    documented.push_back(key);
    // Reading the documented default as an override must leave the default unchanged.
    SceneDescription scene;
    const Status status = apply_override(scene, key + "=" + cells[2]);
    ASSERT_TRUE(status.ok()) << status.error().message();
    EXPECT_EQ(scene, SceneDescription()) << key << ": documented default " << cells[2];
  }
  std::vector<std::string> expected = {"dt", "steps", "collision_steps"};
  for (const auto& field : physics_setting_fields()) expected.push_back(field.name);
  EXPECT_EQ(documented, expected);
}

TEST(SceneDocs, DefaultsTestWouldNoticeAWrongDefault) {
  SceneDescription scene;
  ASSERT_TRUE(apply_override(scene, "velocity_steps=11").ok());
  EXPECT_NE(scene, SceneDescription());
}

// One documented key: the cells of its row.
struct DocRow {
  std::string key, type, default_value, valid;
};

// The rows of a "| `key` | type | default | valid | meaning |" table in `text`, or, with
// `grouped`, of a "| `group` | `key` | …" table whose empty group cell repeats the one above
// (returned as "group/key").
std::vector<DocRow> doc_rows(const std::string& text, bool grouped) {
  std::vector<DocRow> rows;
  std::istringstream lines(text);
  std::string group;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| ", 0) != 0 || line.rfind("| ---", 0) == 0) continue;
    std::vector<std::string> cells = split_cells(line);
    if (grouped) {
      if (cells.empty()) continue;
      if (!cells[0].empty()) group = cells[0].substr(1, cells[0].size() - 2);
      cells.erase(cells.begin());
    }
    if (cells.size() < 4 || cells[0].size() < 2 || cells[0][0] != '`') continue;
    const std::string key = cells[0].substr(1, cells[0].size() - 2);
    rows.push_back({grouped ? group + "/" + key : key, cells[1], cells[2], cells[3]});
  }
  return rows;
}

// The documented rows must be the table's keys, in its order, with its kind and unit, its
// default (required keys say "required"; a key unset by default may describe its default in
// words) and its valid range first in the "valid" column.
void expect_rows_match(const std::vector<DocRow>& documented, const std::vector<FieldDoc>& table,
                       const std::string& group) {
  std::vector<std::string> documented_keys, table_keys;
  for (const DocRow& row : documented) documented_keys.push_back(row.key);
  for (const FieldDoc& field : table) table_keys.push_back(group + field.key);
  EXPECT_EQ(documented_keys, table_keys);
  for (const FieldDoc& field : table) {
    const std::string key = group + field.key;
    const DocRow* row = nullptr;
    for (const DocRow& r : documented)
      if (r.key == key) row = &r;
    if (row == nullptr) continue;  // reported above
    EXPECT_EQ(row->type, field.type) << key;
    if (field.required)
      EXPECT_EQ(row->default_value, "required") << key;
    else if (!field.default_value.empty())
      EXPECT_EQ(row->default_value, field.default_value) << key;
    else
      EXPECT_NE(row->default_value, "required") << key;
    EXPECT_EQ(row->valid.substr(0, field.range.size()), field.range) << key;
  }
}

TEST(SceneDocs, BodyTableIsTheBodyFieldTable) {
  const std::string bodies = section(read_doc(), "Bodies");
  ASSERT_FALSE(bodies.empty());
  expect_rows_match(doc_rows(bodies.substr(0, bodies.find("\n### ")), false), body_field_docs(),
                    "");
}

TEST(SceneDocs, ShapeTableIsTheShapeFieldTables) {
  const std::string shapes = section(read_doc(), "Shapes");
  ASSERT_FALSE(shapes.empty());
  const std::vector<DocRow> documented = doc_rows(shapes, true);
  std::vector<FieldDoc> table;
  for (const auto& [type, fields] : shape_field_docs())
    for (FieldDoc field : fields) {
      field.key = type + "/" + field.key;
      table.push_back(field);
    }
  expect_rows_match(documented, table, "");
}

TEST(SceneDocs, ConstraintTablesAreTheConstraintFieldTables) {
  const std::string constraints = section(read_doc(), "Constraints");
  ASSERT_FALSE(constraints.empty());
  const size_t types = constraints.find("\n### Constraint types\n");
  ASSERT_NE(types, std::string::npos);
  expect_rows_match(doc_rows(constraints.substr(0, types), false), constraint_common_field_docs(),
                    "");
  std::vector<FieldDoc> table;
  for (const auto& [type, fields] : constraint_field_docs())
    for (FieldDoc field : fields) {
      field.key = type + "/" + field.key;
      table.push_back(field);
    }
  expect_rows_match(doc_rows(constraints.substr(types), true), table, "");
}

TEST(SceneDocs, SoftBodyTablesAreTheSoftBodyFieldTables) {
  const std::string soft_bodies = section(read_doc(), "Soft bodies");
  ASSERT_FALSE(soft_bodies.empty());
  const size_t types = soft_bodies.find("\n### Soft body types\n");
  ASSERT_NE(types, std::string::npos);
  expect_rows_match(doc_rows(soft_bodies.substr(0, types), false), soft_body_common_field_docs(),
                    "");
  std::vector<FieldDoc> table;
  for (const auto& [type, fields] : soft_body_field_docs())
    for (FieldDoc field : fields) {
      field.key = type + "/" + field.key;
      table.push_back(field);
    }
  expect_rows_match(doc_rows(soft_bodies.substr(types), true), table, "");
}

TEST(SceneDocs, TheTableTestWouldNoticeAWrongRow) {
  std::vector<FieldDoc> table = body_field_docs();
  std::vector<DocRow> rows;
  for (const FieldDoc& field : table)
    rows.push_back(
        {field.key, field.type, field.required ? "required" : field.default_value, field.range});
  // The table's own rows match; a changed default, unit or missing key is reported.
  expect_rows_match(rows, table, "");
  rows[6].default_value = "0.3";  // friction
  rows[7].type = "real, m";       // restitution
  rows.pop_back();
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    expect_rows_match(rows, table, "");
  }
  EXPECT_EQ(failures.size(), 3);
}

void collect_keys(const nlohmann::json& value, std::vector<std::string>& keys) {
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      keys.push_back(it.key());
      collect_keys(it.value(), keys);
    }
  } else if (value.is_array()) {
    for (const auto& element : value) collect_keys(element, keys);
  }
}

TEST(SceneDocs, EveryKeyAndTypeIsDocumented) {
  const std::string doc = read_doc();
  const nlohmann::json full = nlohmann::json::parse(test::k_full_scene, nullptr, true, true);
  std::vector<std::string> keys;
  collect_keys(full, keys);
  for (const std::string& key : keys) {
    if (full["shapes"].contains(key)) continue;  // a shape's name, not a key
    EXPECT_NE(doc.find("`" + key + "`"), std::string::npos) << "undocumented key " << key;
  }
  // Every shape type, generator type and action used by the full scene is documented too.
  std::vector<std::string> names;
  for (const auto& [name, shape] : full["shapes"].items()) names.push_back(shape["type"]);
  for (const auto& generator : full["generators"]) names.push_back(generator["type"]);
  for (const auto& soft_body : full["soft_bodies"]) names.push_back(soft_body["type"]);
  for (const auto& event : full["events"]) names.push_back(event["action"]);
  for (const std::string& name : names)
    EXPECT_NE(doc.find("| `" + name + "` |"), std::string::npos) << "undocumented " << name;
}

TEST(SceneDocs, EveryJsonExampleReads) {
  const std::string doc = read_doc();
  size_t examples = 0;
  for (size_t at = doc.find("```json\n"); at != std::string::npos;
       at = doc.find("```json\n", at + 1)) {
    const size_t start = at + 8;
    const size_t end = doc.find("```", start);
    ASSERT_NE(end, std::string::npos);
    const Result<SceneDescription> scene =
        read_scene_text(doc.substr(start, end - start), "scene-format.md example");
    EXPECT_TRUE(scene.ok()) << scene.error().message();
    ++examples;
  }
  EXPECT_GE(examples, 3u);
}

TEST(SceneDocs, BuiltinSceneTableMatchesTheScenes) {
  const std::string builtins = section(read_doc(), "Built-in scenes");
  for (std::string_view name : builtin_scene_names())
    EXPECT_NE(builtins.find("| `" + std::string(name) + "` |"), std::string::npos) << name;
  const Result<SceneDescription> demo = read_scene_text(*builtin_scene_text("demo"), "demo");
  ASSERT_TRUE(demo.ok());
  EXPECT_NE(builtins.find(std::to_string(demo->bodies.size()) + " bodies"), std::string::npos);
}

}  // namespace
}  // namespace scene_docs_test
}  // namespace atl
