#pragma once
// Internal to scene/: the JSON document type, the parser, and typed reads of JSON values. Every
// problem is thrown as a PathError (the JSON path and what is wrong) and turned into the one-line
// "SOURCE: PATH: PROBLEM" message at the API edge (SceneReader.cpp), so that the code that walks
// a scene reads as a list of fields instead of a chain of error checks.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>

#include "atoll/math/Quat.h"

namespace atl::scene_json {

/// A JSON document that keeps object members in file order (errors and written files follow it).
using Json = nlohmann::ordered_json;

/// What is wrong, and where.
struct PathError {
  /// JSON path ("bodies[3].shape"), or "line L, column C" for syntax errors; empty: the root.
  std::string path;
  /// The problem ("unknown key", "must be > 0, got -1").
  std::string message;
  /// True for a malformed document (as opposed to a well-formed one with a bad value).
  bool syntax = false;
};

/// Throws PathError{path, message}.
[[noreturn]] void fail(const std::string& path, std::string message);

/// Path of an object member ("settings" + "dt" → "settings.dt"; "" + "dt" → "dt"); a key of
/// more than 64 characters is cut to 61 and "...".
std::string member_path(const std::string& path, std::string_view key);
/// Path of an array element ("bodies" + 3 → "bodies[3]").
std::string element_path(const std::string& path, size_t index);

/// Deepest nesting of arrays and objects a document may have (the deepest scene needs about 12).
inline constexpr size_t k_max_json_depth = 64;

/// Parses a JSON document (// and /* */ comments allowed). Syntax errors throw a PathError with
/// path "line L, column C"; duplicate keys and numbers beyond double range throw at their path.
Json parse(std::string_view text);

/// Shortest decimal text that reads back as the same float ("-1", "0.05", "1e+30").
std::string number_text(float value);
/// A float as a JSON number (the double of the float, which compact_text prints as the float's
/// shortest form).
inline Json real(float value) { return Json(double(value)); }
/// [x, y, z] of real().
inline Json vec3(const Vec3& v) { return Json::array({real(v.x()), real(v.y()), real(v.z())}); }
/// [x, y, z, w] of real().
inline Json quat(const Quat& q) {
  return Json::array({real(q.x()), real(q.y()), real(q.z()), real(q.w())});
}
/// `text` as a JSON string, quotes and escapes included (a name in a message: "\"crate\"").
inline std::string quote(std::string_view text) { return Json(std::string(text)).dump(); }
/// `value` as JSON text on one line, numbers written by number_text (every real in the
/// documents Atoll writes is a float).
std::string compact_text(const Json& value);
/// A value for "got …" in messages: its JSON text, shortened when long.
std::string describe(const Json& value);

/// An engine error about a value the scene gave, as "PATH.KEY...: problem": a leading C++
/// field ("BoxShapeSettings.half_extent.y: ", "BodyCreationSettings.override_mass: ") becomes
/// the scene key at `path` ("shapes.crate.half_extent[1]", "bodies.b.mass"); any other
/// message is kept after "PATH: ".
std::string engine_error_at(const std::string& path, std::string_view message);

/// Fails unless `value` is an object.
void expect_object(const Json& value, const std::string& path);
/// Fails unless `value` is an array.
void expect_array(const Json& value, const std::string& path);
/// The member `key` of an object, or fails with "required key missing" at its path.
const Json& require(const Json& object, const std::string& path, std::string_view key);

/// A number that fits a float (finite).
float read_float(const Json& value, const std::string& path);
/// read_float, and > 0.
float read_positive(const Json& value, const std::string& path);
/// read_float, and ≥ 0.
float read_non_negative(const Json& value, const std::string& path);
/// read_float, within [min, max] (max = +inf: no upper bound).
float read_float_in(const Json& value, const std::string& path, float min, float max);
/// An integer within [min, max] (integral floats such as 1e3 count as integers).
int64_t read_int(const Json& value, const std::string& path, int64_t min, int64_t max);
/// true or false.
bool read_bool(const Json& value, const std::string& path);
/// A string.
std::string read_string(const Json& value, const std::string& path);
/// A non-empty string (names).
std::string read_name(const Json& value, const std::string& path);
/// [x, y, z] of finite floats.
Vec3 read_vec3(const Json& value, const std::string& path);
/// read_vec3 with every component > 0.
Vec3 read_positive_vec3(const Json& value, const std::string& path);
/// [x, y, z, w] within 1e-3 of unit length; renormalized unless already unit to float precision.
Quat read_rotation(const Json& value, const std::string& path);

/// `q` renormalized, unless it is already unit to float precision (|length - 1| <= 1e-6): such
/// a quaternion is kept bit for bit, so that a written scene reads back to the same description.
Quat unit_rotation(const Quat& q);

/// One of `names` (a string); `what` names the kind in the error ("unknown motion \"x\"").
template <class T>
T read_enum(const Json& value, const std::string& path, std::string_view what,
            std::initializer_list<std::pair<const char*, T>> names) {
  const std::string text = read_string(value, path);
  std::string expected;
  size_t index = 0;
  for (const auto& [name, result] : names) {
    if (text == name) return result;
    expected += index == 0 ? "" : (index + 1 == names.size() ? " or " : ", ");
    expected += name;
    ++index;
  }
  fail(path,
       "unknown " + std::string(what) + " " + describe(value) + " (expected " + expected + ")");
}

}  // namespace atl::scene_json
