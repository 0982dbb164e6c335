#include "atoll/scene/SceneJson.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <vector>

namespace atl::scene_json {

void fail(const std::string& path, std::string message) {
  throw PathError{path, std::move(message)};
}

std::string member_path(const std::string& path, std::string_view key) {
  // A key longer than any the format knows is cut, so that an error naming it stays one short
  // line (a 10 MB key used to give a 10 MB message).
  constexpr size_t k_max_key = 64;
  std::string result = path;
  if (!result.empty()) result += '.';
  if (key.size() <= k_max_key) {
    result += key;
  } else {
    result += key.substr(0, k_max_key - 3);
    result += "...";
  }
  return result;
}

std::string element_path(const std::string& path, size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

std::string engine_error_at(const std::string& path, std::string_view message) {
  // "TypeSettings.field[.x|.y|.z]: problem"
  const size_t colon = message.find(": ");
  const std::string_view head = message.substr(0, colon);
  const size_t dot = head.find('.');
  if (colon == std::string_view::npos || dot == std::string_view::npos ||
      head.substr(0, dot).find("Settings") == std::string_view::npos)
    return path + ": " + std::string(message);
  std::string_view field = head.substr(dot + 1);
  std::string component;
  if (const size_t last = field.rfind('.'); last != std::string_view::npos) {
    const std::string_view axis = field.substr(last + 1);
    component = axis == "x" ? "[0]" : axis == "y" ? "[1]" : axis == "z" ? "[2]" : "";
    if (!component.empty()) field = field.substr(0, last);
  }
  // C++ field → scene key, where they differ.
  static constexpr std::pair<std::string_view, std::string_view> k_renamed[] = {
      {"override_mass", "mass"}, {"is_sensor", "sensor"},
      {"motion_type", "motion"}, {"max_convex_radius", "convex_radius"},
      {"inner", "shape"},        {"inner_shape", "shape"},
      {"vertices", "vertices"},  {"triangles", "triangles"}};
  for (const auto& [cpp, key] : k_renamed)
    if (field == cpp) field = key;
  return member_path(path, field) + component + std::string(message.substr(colon));
}

namespace {

// Builds the document through nlohmann's SAX interface instead of json::parse, because only
// here are duplicate keys visible (the DOM keeps the last one silently) and because a number
// overflow can be reported at its JSON path rather than as a byte offset.
class DocumentBuilder {
 public:
  explicit DocumentBuilder(std::string_view text) : text_(text) {}

  Json& root() { return root_; }
  PathError& error() { return error_; }

  bool null() { return add(Json(nullptr)); }
  bool boolean(bool value) { return add(Json(value)); }
  bool number_integer(Json::number_integer_t value) { return add(Json(value)); }
  bool number_unsigned(Json::number_unsigned_t value) { return add(Json(value)); }
  bool number_float(Json::number_float_t value, const std::string& /*text*/) {
    return add(Json(value));
  }
  bool string(std::string& value) { return add(Json(std::move(value))); }
  bool binary(Json::binary_t& /*value*/) { return add(Json(nullptr)); }  // not in text JSON
  bool start_object(size_t /*elements*/) {
    if (too_deep()) return false;
    open_.push_back({add_container(Json::object()), {}});
    return true;
  }
  bool key(std::string& key) {
    Frame& frame = open_.back();
    if (frame.container->contains(key)) {
      error_ = {member_path(container_path(), key), "duplicate key"};
      return false;
    }
    frame.key = std::move(key);
    return true;
  }
  bool end_object() {
    open_.pop_back();
    return true;
  }
  bool start_array(size_t /*elements*/) {
    if (too_deep()) return false;
    open_.push_back({add_container(Json::array()), {}});
    return true;
  }
  bool end_array() {
    open_.pop_back();
    return true;
  }
  bool parse_error(size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& exception) {
    if (exception.id == 406) {  // out_of_range: a number beyond double range, e.g. 1e999
      error_ = {next_value_path(), "must be a finite float, got " + last_token};
      return false;
    }
    // nlohmann counts `position` in bytes read, the offending one included.
    size_t line = 1, line_start = 0;
    const size_t end = std::min(position, text_.size());
    for (size_t i = 0; i < end; ++i) {
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    const size_t column = position - line_start;
    std::string what = exception.what();
    const size_t at = what.find("syntax error");
    if (at != std::string::npos) {
      what = what.substr(at);
      if (what.rfind("syntax error ", 0) == 0) what = "syntax error: " + what.substr(13);
    } else if (const size_t colon = what.find("] "); colon != std::string::npos) {
      what = what.substr(colon + 2);
    }
    error_ = {"line " + std::to_string(line) + ", column " + std::to_string(column), what, true};
    return false;
  }

 private:
  struct Frame {
    Json* container;
    std::string key;  // the member being read, when `container` is an object
  };

  // Depth is bounded before anything deeper is built: a document nested 100 000 deep used to
  // crash (stack overflow), and shapes nested 10 000 deep took 1.5 GB before failing.
  bool too_deep() {
    if (open_.size() < k_max_json_depth) return false;
    error_ = {next_value_path(),
              "nested deeper than " + std::to_string(k_max_json_depth) + " arrays and objects"};
    return true;
  }
  bool add(Json value) {
    add_container(std::move(value));
    return true;
  }
  // Containers stay open on the stack by pointer: only the innermost one ever grows, so the
  // pointers to its ancestors remain valid.
  Json* add_container(Json value) {
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Frame& frame = open_.back();
    if (frame.container->is_array()) {
      frame.container->push_back(std::move(value));
      return &frame.container->back();
    }
    Json& slot = (*frame.container)[frame.key];
    slot = std::move(value);
    return &slot;
  }
  std::string container_path() const {
    std::string path;
    for (size_t i = 1; i < open_.size(); ++i) {
      const Frame& parent = open_[i - 1];
      path = parent.container->is_array() ? element_path(path, parent.container->size() - 1)
                                          : member_path(path, parent.key);
    }
    return path;
  }
  std::string next_value_path() const {
    if (open_.empty()) return {};
    const Frame& frame = open_.back();
    return frame.container->is_array() ? element_path(container_path(), frame.container->size())
                                       : member_path(container_path(), frame.key);
  }

  std::string_view text_;
  Json root_;
  std::vector<Frame> open_;
  PathError error_;
};

// In double, so that the 1e-6 tolerance is not lost to float rounding.
double quat_length(const Quat& q) {
  return std::sqrt(double(q.x()) * q.x() + double(q.y()) * q.y() + double(q.z()) * q.z() +
                   double(q.w()) * q.w());
}

}  // namespace

Json parse(std::string_view text) {
  DocumentBuilder builder(text);
  const bool ok = Json::sax_parse(text.begin(), text.end(), &builder, Json::input_format_t::json,
                                  /*strict=*/true,
                                  /*ignore_comments=*/true);
  if (!ok) throw builder.error();
  return std::move(builder.root());
}

std::string number_text(float value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

std::string compact_text(const Json& value) {
  switch (value.type()) {
    case Json::value_t::number_float:
      return number_text(static_cast<float>(value.get<double>()));
    case Json::value_t::array: {
      std::string out = "[";
      // Appended piece by piece: `"literal" + std::string` trips g++ 12's bogus -Wrestrict.
      for (size_t i = 0; i < value.size(); ++i) {
        if (i > 0) out += ", ";
        out += compact_text(value[i]);
      }
      out += ']';
      return out;
    }
    case Json::value_t::object: {
      std::string out = "{";
      bool first = true;
      for (auto it = value.begin(); it != value.end(); ++it) {
        if (!first) out += ", ";
        out += Json(it.key()).dump();
        out += ": ";
        out += compact_text(it.value());
        first = false;
      }
      out += '}';
      return out;
    }
    default:
      return value.dump();
  }
}

std::string describe(const Json& value) {
  std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  constexpr size_t k_max = 48;
  if (text.size() > k_max) text = text.substr(0, k_max - 3) + "...";
  return text;
}

void expect_object(const Json& value, const std::string& path) {
  if (!value.is_object()) fail(path, "expected an object, got " + describe(value));
}

void expect_array(const Json& value, const std::string& path) {
  if (!value.is_array()) fail(path, "expected an array, got " + describe(value));
}

const Json& require(const Json& object, const std::string& path, std::string_view key) {
  const auto it = object.find(key);
  if (it == object.end()) fail(member_path(path, key), "required key missing");
  return *it;
}

float read_float(const Json& value, const std::string& path) {
  if (!value.is_number()) fail(path, "expected a number, got " + describe(value));
  const double d = value.get<double>();
  // Checked in double: converting a double beyond float range to float is undefined. Numbers
  // less than half a float step above the largest float round to it: the writer's shortest
  // form of it, 3.4028235e+38 (the default of unlimited limits), is one.
  constexpr double k_largest = std::numeric_limits<float>::max();
  constexpr double k_rounds_to_largest = 0x1.ffffffp+127;  // 2^128 − 2^103, exclusive
  if (!(std::fabs(d) < k_rounds_to_largest))
    fail(path, "must be a finite float, got " + describe(value));
  return static_cast<float>(d > k_largest ? k_largest : d < -k_largest ? -k_largest : d);
}

float read_float_in(const Json& value, const std::string& path, float min, float max) {
  const float f = read_float(value, path);
  if (f < min || f > max)
    fail(path,
         (std::isinf(max) ? "must be >= " + number_text(min)
                          : "must be in [" + number_text(min) + ", " + number_text(max) + "]") +
             ", got " + number_text(f));
  return f;
}

float read_positive(const Json& value, const std::string& path) {
  const float f = read_float(value, path);
  if (!(f > 0.0f)) fail(path, "must be > 0, got " + number_text(f));
  return f;
}

float read_non_negative(const Json& value, const std::string& path) {
  return read_float_in(value, path, 0.0f, std::numeric_limits<float>::infinity());
}

int64_t read_int(const Json& value, const std::string& path, int64_t min, int64_t max) {
  int64_t result = 0;
  if (value.is_number_unsigned()) {
    const uint64_t u = value.get<uint64_t>();
    result = u > uint64_t(std::numeric_limits<int64_t>::max()) ? std::numeric_limits<int64_t>::max()
                                                               : int64_t(u);
  } else if (value.is_number_integer()) {
    result = value.get<int64_t>();
  } else if (value.is_number_float()) {
    const double d = value.get<double>();
    // Integral floats (1e3, 10.0) count; 2^62 keeps the conversion to int64 defined.
    if (d != std::floor(d) || std::fabs(d) > 4.6e18)
      fail(path, "expected an integer, got " + describe(value));
    result = static_cast<int64_t>(d);
  } else {
    fail(path, "expected an integer, got " + describe(value));
  }
  if (result < min || result > max) {
    // Bounds at the ends of int32 range only keep the value an int: mentioned only when hit.
    const bool no_min = min <= std::numeric_limits<int32_t>::min();
    const bool no_max = max >= std::numeric_limits<int32_t>::max();
    std::string range;
    if (result > max && (no_max || no_min))
      range = "must be <= " + std::to_string(max);
    else if (result < min && (no_max || no_min))
      range = "must be >= " + std::to_string(min);
    else
      range = "must be in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
    fail(path, range + ", got " + describe(value));
  }
  return result;
}

bool read_bool(const Json& value, const std::string& path) {
  if (!value.is_boolean()) fail(path, "expected true or false, got " + describe(value));
  return value.get<bool>();
}

std::string read_string(const Json& value, const std::string& path) {
  if (!value.is_string()) fail(path, "expected a string, got " + describe(value));
  return value.get<std::string>();
}

std::string read_name(const Json& value, const std::string& path) {
  std::string name = read_string(value, path);
  if (name.empty()) fail(path, "must not be empty");
  return name;
}

Vec3 read_vec3(const Json& value, const std::string& path) {
  if (!value.is_array() || value.size() != 3)
    fail(path, "expected an array of 3 numbers [x, y, z], got " + describe(value));
  return Vec3(read_float(value[0], element_path(path, 0)),
              read_float(value[1], element_path(path, 1)),
              read_float(value[2], element_path(path, 2)));
}

Vec3 read_positive_vec3(const Json& value, const std::string& path) {
  if (!value.is_array() || value.size() != 3)
    fail(path, "expected an array of 3 numbers [x, y, z], got " + describe(value));
  return Vec3(read_positive(value[0], element_path(path, 0)),
              read_positive(value[1], element_path(path, 1)),
              read_positive(value[2], element_path(path, 2)));
}

Quat read_rotation(const Json& value, const std::string& path) {
  if (!value.is_array() || value.size() != 4)
    fail(path, "expected a quaternion [x, y, z, w], got " + describe(value));
  const Quat q(
      read_float(value[0], element_path(path, 0)), read_float(value[1], element_path(path, 1)),
      read_float(value[2], element_path(path, 2)), read_float(value[3], element_path(path, 3)));
  const double length = quat_length(q);
  if (!(std::fabs(length - 1.0) <= 1.0e-3))
    fail(path, "must be a unit quaternion [x, y, z, w], its length is " +
                   number_text(static_cast<float>(length)));
  return unit_rotation(q);
}

Quat unit_rotation(const Quat& q) {
  const double length = quat_length(q);
  if (std::fabs(length - 1.0) <= 1.0e-6) return q;
  const float inv = static_cast<float>(1.0 / length);
  return Quat(q.x() * inv, q.y() * inv, q.z() * inv, q.w() * inv);
}

}  // namespace atl::scene_json
