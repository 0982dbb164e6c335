#pragma once
// Internal to scene/: field tables. One table per settings type lists, once, every key a scene
// file may give for it: the JSON name, where the value lives in the C++ object (a chain of
// members), its unit, and a codec that reads, writes, compares and describes the value (kind,
// valid range, enum names, nested table). The reader, the writer, --set, scene equality and
// the test that keeps docs/scene-format.md in sync all walk the tables, so a key is spelled here
// and in its C++ member, nowhere else. Defaults are never written down: they are the in-class
// initializers of the settings (a default-constructed owner is the default).
//
// How a settings type is added (a constraint type, say):
//  1. In a *Fields.cpp, specialise FieldTable<MySettings> with `fields()`, one
//     `field<Codec, &MySettings::member>("json_key", "unit")` per key, and `check()` for rules
//     that involve several fields (min <= max). A value inside a nested member is reached by a
//     member chain: `field<Real, &Owner::settings, &Settings::friction>(…)`.
//  2. Codecs exist for every shape of value: Real/Positive/NonNegative/UnitInterval, Integer,
//     Bool, Vector/PositiveVector/NonZeroVector, Rotation, Name, Enum<Names> (names by string,
//     e.g. `space: world|local`), Optional<C>, List<C> (any length), Array<C, N> (fixed size,
//     six_dof's 6-arrays), Object<T> (a nested settings object with its own table, e.g. a
//     spring inside a motor inside a constraint), ShapeReference (a shape by name or inline)
//     and BodyReference (a body by name: body1/body2).
//     `alias<C, &O::x1, &O::x2>("x")` makes "x stand for x1 and x2": read into both, never
//     written.
//  3. Where the engine settings hold something the file names (a Ref<Shape>, a body), the scene
//     keeps a thin wrapper with the settings and the reference (WithShape<T>), and the
//     reference is a field of the wrapper; the builder fills the engine member.
//  4. Add the type's rows to docs/scene-format.md and a SceneDocsTest case that compares them
//     with the table (as BodyTableIsTheBodyFieldTable does for bodies).

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "atoll/scene/SceneDescription.h"
#include "atoll/scene/SceneFields.h"
#include "atoll/scene/SceneJson.h"

namespace atl {

class SceneParser;

namespace fields {

using scene_json::Json;

/// How a key appears in a file.
enum class Presence : uint8_t {
  /// Must be given; always written.
  Required,
  /// May be left out (the owner's default); written only when it differs from the default.
  Optional,
  /// May be left out; always written (a body's position and motion).
  Always,
  /// Stands for other keys (read into them); never written, never compared.
  Alias,
};

/// One key of `Owner`.
template <class Owner>
struct Field {
  /// JSON key.
  const char* name;
  /// Unit ("m", "kg/m³", "1/s"); empty for none.
  const char* unit;
  Presence presence;
  /// Reads the value at `path` into the owner (failing with a PathError).
  void (*read)(Owner&, const Json&, const std::string& path, SceneParser&);
  /// The value as JSON; nested objects leave out what equals their part of `defaults`.
  Json (*write)(const Owner&, const Owner& defaults);
  /// True when both owners hold the same value.
  bool (*equal)(const Owner&, const Owner&);
  /// Appends this key's documentation row (and its nested keys' rows, their defaults taken
  /// from `defaults`) to `rows`.
  void (*describe)(const Owner& defaults, const char* name, const char* unit, Presence presence,
                   const std::string& prefix, std::vector<FieldDoc>& rows);
};

/// The table of one settings type: fields() is specialised per type in the *Fields.cpp files,
/// check() (rules between fields; `object` is the JSON read, empty for --set) where needed.
template <class T>
struct FieldTable {
  static std::span<const Field<T>> fields();
  static void check(const T&, const Json& /*object*/, const std::string& /*path*/) {}
};

// ---------------------------------------------------------------------------------------------
// member chains

template <auto First, auto... Rest>
struct Chain {
  static constexpr auto k_first = First;
  template <class O>
  static auto& get(O& owner) {
    if constexpr (sizeof...(Rest) == 0)
      return owner.*First;
    else
      return Chain<Rest...>::get(owner.*First);
  }
};

template <class C, class M>
C owner_of(M C::*);

template <auto First, auto...>
struct FirstOf {
  static constexpr auto value = First;
};

// ---------------------------------------------------------------------------------------------
// codecs: Value (the C++ type), kind (docs), range() (docs), read, write, equal, nested docs

template <class V>
struct Plain {
  using Value = V;
  static bool equal(const V& a, const V& b) { return a == b; }
  static void nested(const V&, const std::string&, std::vector<FieldDoc>&) {}
  static std::string range() { return ""; }
};

struct Real : Plain<float> {
  static constexpr const char* kind = "real";
  static constexpr const char* kinds = "reals";
  static void read(float& v, const Json& j, const std::string& p, SceneParser&) {
    v = scene_json::read_float(j, p);
  }
  static Json write(float v, float) { return scene_json::real(v); }
};

struct Positive : Real {
  static std::string range() { return "> 0"; }
  static void read(float& v, const Json& j, const std::string& p, SceneParser&) {
    v = scene_json::read_positive(j, p);
  }
};

struct NonNegative : Real {
  static std::string range() { return "≥ 0"; }
  static void read(float& v, const Json& j, const std::string& p, SceneParser&) {
    v = scene_json::read_non_negative(j, p);
  }
};

struct UnitInterval : Real {
  static std::string range() { return "[0, 1]"; }
  static void read(float& v, const Json& j, const std::string& p, SceneParser&) {
    v = scene_json::read_float_in(j, p, 0.0f, 1.0f);
  }
};

/// A finite, non-zero real (a gear or rack-and-pinion ratio).
struct NonZero : Real {
  static std::string range() { return "≠ 0"; }
  static void read(float& v, const Json& j, const std::string& p, SceneParser&) {
    const float value = scene_json::read_float(j, p);
    if (value == 0.0f) scene_json::fail(p, "must not be 0");
    v = value;
  }
};

template <class V, int64_t Min, int64_t Max>
struct Integer : Plain<V> {
  static constexpr const char* kind = "integer";
  static constexpr const char* kinds = "integers";
  static std::string range() {
    // Appended piece by piece: GCC 12's -Wrestrict misfires on the chained operator+ here.
    std::string text = "[";
    text += std::to_string(Min);
    text += ", ";
    text += std::to_string(Max);
    text += "]";
    return text;
  }
  static void read(V& v, const Json& j, const std::string& p, SceneParser&) {
    v = static_cast<V>(scene_json::read_int(j, p, Min, Max));
  }
  static Json write(V v, V) { return Json(v); }
};

struct Bool : Plain<bool> {
  static constexpr const char* kind = "bool";
  static constexpr const char* kinds = "bools";
  static void read(bool& v, const Json& j, const std::string& p, SceneParser&) {
    v = scene_json::read_bool(j, p);
  }
  static Json write(bool v, bool) { return Json(v); }
};

struct Name : Plain<std::string> {
  static constexpr const char* kind = "string";
  static constexpr const char* kinds = "strings";
  static std::string range() { return "non-empty"; }
  static void read(std::string& v, const Json& j, const std::string& p, SceneParser&) {
    v = scene_json::read_name(j, p);
  }
  static Json write(const std::string& v, const std::string&) { return Json(v); }
};

struct Vector : Plain<Vec3> {
  static constexpr const char* kind = "[x, y, z]";
  static constexpr const char* kinds = "[x, y, z]";
  static void read(Vec3& v, const Json& j, const std::string& p, SceneParser&) {
    v = scene_json::read_vec3(j, p);
  }
  static Json write(const Vec3& v, const Vec3&) { return scene_json::vec3(v); }
};

struct PositiveVector : Vector {
  static std::string range() { return "each > 0"; }
  static void read(Vec3& v, const Json& j, const std::string& p, SceneParser&) {
    v = scene_json::read_positive_vec3(j, p);
  }
};

struct NonZeroVector : Vector {
  static std::string range() { return "each ≠ 0"; }
  static void read(Vec3& v, const Json& j, const std::string& p, SceneParser&) {
    v = scene_json::read_vec3(j, p);
    for (int axis = 0; axis < 3; ++axis)
      if (v[axis] == 0.0f)
        scene_json::fail(scene_json::element_path(p, size_t(axis)), "must not be 0");
  }
};

/// [x, y, z] stored as Float3 (mesh vertices).
struct Point : Plain<Float3> {
  static constexpr const char* kind = "[x, y, z]";
  static constexpr const char* kinds = "[x, y, z]";
  static void read(Float3& v, const Json& j, const std::string& p, SceneParser&) {
    v = scene_json::read_vec3(j, p).to_float3();
  }
  static Json write(const Float3& v, const Float3&) { return scene_json::vec3(Vec3(v)); }
};

struct Rotation : Plain<Quat> {
  static constexpr const char* kind = "[x, y, z, w]";
  static constexpr const char* kinds = "[x, y, z, w]";
  static std::string range() { return "unit"; }
  static void read(Quat& v, const Json& j, const std::string& p, SceneParser&) {
    v = scene_json::read_rotation(j, p);
  }
  static Json write(const Quat& v, const Quat&) { return scene_json::quat(v); }
};

/// A string naming one value of an enumeration. `Names` has `what` (the kind, for messages:
/// "unknown motion \"x\"") and `names[]`, pairs of scene name and value.
template <class Names>
struct Enum {
  using Value = std::remove_cv_t<decltype(Names::names[0].second)>;
  static constexpr const char* kind = "string";
  static constexpr const char* kinds = "strings";
  static std::string range() {
    std::string text;
    for (const auto& [name, value] : Names::names)
      text += (text.empty() ? "`" : ", `") + std::string(name) + "`";
    return text;
  }
  static bool equal(const Value& a, const Value& b) { return a == b; }
  static void nested(const Value&, const std::string&, std::vector<FieldDoc>&) {}
  static void read(Value& v, const Json& j, const std::string& p, SceneParser&) {
    const std::string text = scene_json::read_string(j, p);
    std::string expected;
    const size_t count = std::size(Names::names);
    for (size_t i = 0; i < count; ++i) {
      if (text == Names::names[i].first) {
        v = Names::names[i].second;
        return;
      }
      expected += i == 0 ? "" : (i + 1 == count ? " or " : ", ");
      expected += Names::names[i].first;
    }
    scene_json::fail(p, "unknown " + std::string(Names::what) + " " + scene_json::describe(j) +
                            " (expected " + expected + ")");
  }
  static Json write(const Value& v, const Value&) {
    for (const auto& [name, value] : Names::names)
      if (value == v) return Json(name);
    return Json();
  }
};

/// Names of MotionType values ("motion").
struct MotionTypeNames {
  static constexpr const char* what = "motion";
  static constexpr std::pair<const char*, MotionType> names[] = {
      {"static", MotionType::Static},
      {"kinematic", MotionType::Kinematic},
      {"dynamic", MotionType::Dynamic}};
};

/// Names of MotionQuality values.
struct MotionQualityNames {
  static constexpr const char* what = "motion_quality";
  static constexpr std::pair<const char*, MotionQuality> names[] = {
      {"discrete", MotionQuality::Discrete}, {"linear_cast", MotionQuality::LinearCast}};
};

/// A direction: [x, y, z] of non-zero length (a constraint's axes).
struct Direction : Vector {
  static std::string range() { return "non-zero"; }
  static void read(Vec3& v, const Json& j, const std::string& p, SceneParser&) {
    const Vec3 value = scene_json::read_vec3(j, p);
    if (!(value.length_sq() > 0.0f)) scene_json::fail(p, "must not be zero");
    v = value;
  }
};

/// The bounds of a RealIn field and their text as documented and reported ("[-π, 0]", "≤ 0").
/// A constexpr object passed by reference: clang 14 does not take floats as template arguments.
struct RealRange {
  float min, max;
  const char* text;
};

/// A real within [R.min, R.max] (a limit).
template <const RealRange& R>
struct RealIn : Real {
  static std::string range() { return R.text; }
  static void read(float& v, const Json& j, const std::string& p, SceneParser&) {
    const float value = scene_json::read_float(j, p);
    if (value < R.min || value > R.max)
      scene_json::fail(p, std::string("must be ") + (R.text[0] == '[' ? "in " : "") + R.text +
                              ", got " + scene_json::number_text(value));
    v = value;
  }
};

/// A value that may be unset (JSON null when written unset; never written then).
template <class C>
struct Optional {
  using Value = std::optional<typename C::Value>;
  static constexpr const char* kind = C::kind;
  static constexpr const char* kinds = C::kinds;
  static std::string range() { return C::range(); }
  static bool equal(const Value& a, const Value& b) {
    if (!a || !b) return a.has_value() == b.has_value();
    return C::equal(*a, *b);
  }
  static void nested(const Value& d, const std::string& prefix, std::vector<FieldDoc>& rows) {
    C::nested(d ? *d : typename C::Value{}, prefix, rows);
  }
  static void read(Value& v, const Json& j, const std::string& p, SceneParser& parser) {
    typename C::Value value{};
    C::read(value, j, p, parser);
    v = std::move(value);
  }
  static Json write(const Value& v, const Value& d) {
    return v ? C::write(*v, d ? *d : typename C::Value{}) : Json();
  }
};

/// A JSON array of any length into a std::vector.
template <class C>
struct List {
  using Value = std::vector<typename C::Value>;
  // One dynamically initialized string, read only at run time: a `const char*` into a second
  // static would be unordered against it (clang initialized the pointer first and read null).
  static inline const std::string kind = std::string("array of ") + C::kinds;
  static constexpr const char* kinds = "arrays";
  static std::string range() { return ""; }
  static bool equal(const Value& a, const Value& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!C::equal(a[i], b[i])) return false;
    return true;
  }
  static void nested(const Value&, const std::string& prefix, std::vector<FieldDoc>& rows) {
    C::nested(typename C::Value{}, prefix + "[]", rows);
  }
  static void read(Value& v, const Json& j, const std::string& p, SceneParser& parser) {
    scene_json::expect_array(j, p);
    Value values(j.size());
    for (size_t i = 0; i < j.size(); ++i)
      C::read(values[i], j[i], scene_json::element_path(p, i), parser);
    v = std::move(values);
  }
  static Json write(const Value& v, const Value&) {
    const typename C::Value element_default{};
    Json out = Json::array();
    for (const auto& element : v) out.push_back(C::write(element, element_default));
    return out;
  }
};

/// A JSON array of exactly N values into a std::array (six_dof's per-axis settings).
template <class C, size_t N>
struct Array {
  using Value = std::array<typename C::Value, N>;
  static inline const std::string kind = "array of " + std::to_string(N) + " " + C::kinds;
  static constexpr const char* kinds = "arrays";
  static std::string range() { return C::range(); }
  static bool equal(const Value& a, const Value& b) {
    for (size_t i = 0; i < N; ++i)
      if (!C::equal(a[i], b[i])) return false;
    return true;
  }
  static void nested(const Value& d, const std::string& prefix, std::vector<FieldDoc>& rows) {
    C::nested(d[0], prefix + "[]", rows);
  }
  static void read(Value& v, const Json& j, const std::string& p, SceneParser& parser) {
    if (!j.is_array() || j.size() != N)
      scene_json::fail(p, "expected an array of " + std::to_string(N) + " values, got " +
                              scene_json::describe(j));
    Value values = v;
    for (size_t i = 0; i < N; ++i) C::read(values[i], j[i], scene_json::element_path(p, i), parser);
    v = std::move(values);
  }
  static Json write(const Value& v, const Value& d) {
    Json out = Json::array();
    for (size_t i = 0; i < N; ++i) out.push_back(C::write(v[i], d[i]));
    return out;
  }
};

template <class T>
void read_object(T& owner, const Json& object, const std::string& path, SceneParser& parser,
                 std::string_view skip = {});
template <class T>
Json write_object(const T& owner, const T& defaults = T{});
template <class T>
bool equal_objects(const T& a, const T& b);
template <class T>
void describe_object(const std::string& prefix, std::vector<FieldDoc>& rows,
                     const T& defaults = T{});

/// A nested JSON object read through T's own table (a spring inside a motor, a compound child).
/// Keys the object leaves out keep the value the owner had.
template <class T>
struct Object {
  using Value = T;
  static constexpr const char* kind = "object";
  static constexpr const char* kinds = "objects";
  static std::string range() { return ""; }
  static bool equal(const T& a, const T& b) { return equal_objects(a, b); }
  static void nested(const T& d, const std::string& prefix, std::vector<FieldDoc>& rows) {
    describe_object<T>(prefix + ".", rows, d);
  }
  static void read(T& v, const Json& j, const std::string& p, SceneParser& parser) {
    read_object(v, j, p, parser);
  }
  static Json write(const T& v, const T& d) { return write_object(v, d); }
};

/// A shape by name (defined before) or an inline shape object.
struct ShapeReference {
  using Value = ShapeRef;
  static constexpr const char* kind = "shape name or shape";
  static constexpr const char* kinds = "shapes";
  static std::string range() { return ""; }
  static bool equal(const ShapeRef& a, const ShapeRef& b) { return a == b; }
  static void nested(const ShapeRef&, const std::string&, std::vector<FieldDoc>&) {}
  static void read(ShapeRef& v, const Json& j, const std::string& p, SceneParser& parser);
  static Json write(const ShapeRef& v, const ShapeRef& defaults);
};

/// A body by name (a constraint's body1/body2): a body defined before, in the file or a
/// generator.
struct BodyReference : Plain<std::string> {
  static constexpr const char* kind = "body name";
  static constexpr const char* kinds = "body names";
  static void read(std::string& v, const Json& j, const std::string& p, SceneParser& parser);
  static Json write(const std::string& v, const std::string&) { return Json(v); }
};

/// An earlier constraint by name (gear's and rack_and_pinion's constraint1/constraint2): a
/// constraint listed before this one in "constraints".
struct ConstraintReference : Plain<std::string> {
  static constexpr const char* kind = "constraint name";
  static constexpr const char* kinds = "constraint names";
  static void read(std::string& v, const Json& j, const std::string& p, SceneParser& parser);
  static Json write(const std::string& v, const std::string&) { return Json(v); }
};

// ---------------------------------------------------------------------------------------------
// fields

template <class C>
void describe_field(const typename C::Value& defaults, const char* name, const char* unit,
                    Presence presence, const std::string& prefix, std::vector<FieldDoc>& rows) {
  FieldDoc doc;
  doc.key = prefix + name;
  doc.type = C::kind;
  if (unit[0] != '\0') doc.type += std::string(", ") + unit;
  doc.range = C::range();
  doc.required = presence == Presence::Required;
  doc.alias = presence == Presence::Alias;
  rows.push_back(doc);
  C::nested(defaults, prefix + name, rows);
}

/// The field `name` at the member chain `Members…` of its owner, through codec C.
template <class C, auto... Members>
constexpr auto field(const char* name, const char* unit = "",
                     Presence presence = Presence::Optional) {
  using Owner = decltype(owner_of(FirstOf<Members...>::value));
  using M = Chain<Members...>;
  return Field<Owner>{
      name,
      unit,
      presence,
      [](Owner& o, const Json& j, const std::string& p, SceneParser& parser) {
        C::read(M::get(o), j, p, parser);
      },
      [](const Owner& o, const Owner& d) { return C::write(M::get(o), M::get(d)); },
      [](const Owner& a, const Owner& b) { return C::equal(M::get(a), M::get(b)); },
      [](const Owner& d, const char* n, const char* u, Presence p, const std::string& prefix,
         std::vector<FieldDoc>& rows) { describe_field<C>(M::get(d), n, u, p, prefix, rows); }};
}

/// `name` stands for the members First and Second (e.g. "point" for point1 and point2).
template <class C, auto First, auto Second>
constexpr auto alias(const char* name, const char* unit = "") {
  using Owner = decltype(owner_of(First));
  return Field<Owner>{
      name,
      unit,
      Presence::Alias,
      [](Owner& o, const Json& j, const std::string& p, SceneParser& parser) {
        C::read(o.*First, j, p, parser);
        o.*Second = o.*First;
      },
      [](const Owner&, const Owner&) { return Json(); },
      [](const Owner&, const Owner&) { return true; },
      [](const Owner& d, const char* n, const char* u, Presence p, const std::string& prefix,
         std::vector<FieldDoc>& rows) { describe_field<C>(d.*First, n, u, p, prefix, rows); }};
}

/// `name` stands for the members at the chains First and Second (Chain<…>: "point" for
/// settings.point1 and settings.point2); First and Second may be the same (a second name).
template <class C, class First, class Second>
requires requires { First::k_first; }
constexpr auto alias(const char* name, const char* unit = "") {
  using Owner = decltype(owner_of(First::k_first));
  return Field<Owner>{
      name,
      unit,
      Presence::Alias,
      [](Owner& o, const Json& j, const std::string& p, SceneParser& parser) {
        C::read(First::get(o), j, p, parser);
        Second::get(o) = First::get(o);
      },
      [](const Owner&, const Owner&) { return Json(); },
      [](const Owner&, const Owner&) { return true; },
      [](const Owner& d, const char* n, const char* u, Presence p, const std::string& prefix,
         std::vector<FieldDoc>& rows) { describe_field<C>(First::get(d), n, u, p, prefix, rows); }};
}

/// The field of T named `key`, or null.
template <class T>
const Field<T>* find_field(std::string_view key) {
  for (const Field<T>& f : FieldTable<T>::fields())
    if (key == f.name) return &f;
  return nullptr;
}

/// Reads every member of `object` into `owner` through T's table; an unknown key fails, then
/// a missing required key, then the table's check(). The key `skip` (a shape's "type") is left
/// to the caller.
template <class T>
void read_object(T& owner, const Json& object, const std::string& path, SceneParser& parser,
                 std::string_view skip) {
  scene_json::expect_object(object, path);
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (!skip.empty() && it.key() == skip) continue;
    const std::string member = scene_json::member_path(path, it.key());
    const Field<T>* f = find_field<T>(it.key());
    if (f == nullptr) scene_json::fail(member, "unknown key");
    f->read(owner, it.value(), member, parser);
  }
  for (const Field<T>& f : FieldTable<T>::fields())
    if (f.presence == Presence::Required) scene_json::require(object, path, f.name);
  FieldTable<T>::check(owner, object, path);
}

/// The owner as a JSON object: required and "always" keys, and the others that differ from
/// `defaults` (a default-constructed T, or for a nested object its owner's default).
template <class T>
Json write_object(const T& owner, const T& defaults) {
  Json out = Json::object();
  for (const Field<T>& f : FieldTable<T>::fields()) {
    if (f.presence == Presence::Alias) continue;
    if (f.presence == Presence::Optional && f.equal(owner, defaults)) continue;
    out[f.name] = f.write(owner, defaults);
  }
  return out;
}

/// True when every field of the table is equal.
template <class T>
bool equal_objects(const T& a, const T& b) {
  for (const Field<T>& f : FieldTable<T>::fields())
    if (!f.equal(a, b)) return false;
  return true;
}

/// Documentation rows of T's keys (nested keys as "children[].shape"), their defaults those of
/// `defaults` (a nested object's are its owner's: a motor's spring is not a bare spring).
template <class T>
void describe_object(const std::string& prefix, std::vector<FieldDoc>& rows, const T& defaults) {
  for (const Field<T>& f : FieldTable<T>::fields()) {
    const size_t first = rows.size();
    f.describe(defaults, f.name, f.unit, f.presence, prefix, rows);
    if (f.presence != Presence::Required && f.presence != Presence::Alias) {
      const Json value = f.write(defaults, defaults);
      rows[first].default_value = value.is_null() ? "" : scene_json::compact_text(value);
    }
  }
}

/// A body as the writer writes it (scene/BodyFields.cpp).
Json write_body(const BodyDesc& body);
/// A soft body as the writer writes it: name, type, type keys, then the common keys
/// (scene/SoftBodyFields.cpp).
Json write_soft_body(const SoftBodyDesc& soft_body);
/// A shape definition as the writer writes it, "type" first (scene/ShapeFields.cpp).
Json write_shape(const SceneShape& shape);

}  // namespace fields
}  // namespace atl
