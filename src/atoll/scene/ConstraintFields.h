#pragma once
// Internal to scene/ (and run/, which builds and drives the constraints): the constraint types
// of the scene format. Each type is one file in scene/constraints/ holding its field table and
// a small behaviour struct; constraint_types() (ConstraintTypes.cpp) is the one list of them.
// The common keys (enabled, priority, …) are one more table, FieldTable<ConstraintSettings>.
//
// How a constraint type is added (cone, say):
//  1. scene/constraints/ConeFields.cpp: a `struct ConeDesc final : ConstraintData<ConeDesc>`
//     whose member `settings` is the engine's ConeConstraintSettings (its `common` is filled
//     from the common keys) plus what only a scene has (SceneMotor members for motors).
//  2. Specialise FieldTable<ConeDesc>::fields() (and check() for rules between fields), one
//     row per type key: `field<Codec, k_settings, &ConeConstraintSettings::member>("key", "unit")`;
//     `alias<Vector, Chain<k_settings, &S::point1>, Chain<k_settings, &S::point2>>("point", "m")`
//     for shortcuts; `Array<C, 6>` for six_dof's per-axis values; `Object<SceneMotor>` for a
//     motor, `Object<SpringSettings>` for a spring; `ConstraintReference` for a constraint
//     named by gear / rack_and_pinion (ConstraintBuild::find gives the created one).
//  3. A behaviour struct with `type`, `linear_part`, `angular_part`, `motor`, and static
//     `complete(Desc&, const Json& object)` (derived values from what the file left out),
//     `create(const Desc&, const ConstraintBuild&)`, `set_motor(Constraint&, const EventDesc&)`
//     and `total_lambda(const Constraint&, LambdaParts&)` (part names in snake_case), and
//     `check_event(const EventDesc&, const std::string& path)` when its set_motor events
//     differ from a single motor's (swing_twist, six_dof); then
//     `const ConstraintType& cone_constraint_type() { return constraint_type<ConeDesc, Cone>(); }`.
//  4. Add that function to the list in scene/ConstraintTypes.cpp, the rows to
//     docs/scene-format.md ("## Constraints", which SceneDocsTest compares with the table) and
//     a round trip and the error paths to tests/scene/SceneConstraintTest.cpp.

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "atoll/scene/FieldTable.h"

namespace atl {

class PhysicsSystem;

namespace fields {

// Rules between the keys of a spring and of a motor (ConstraintFields.cpp), declared before any
// use of those tables.
template <>
void FieldTable<SpringSettings>::check(const SpringSettings&, const Json&, const std::string&);
template <>
void FieldTable<SceneMotor>::check(const SceneMotor&, const Json&, const std::string&);

/// Base of a type's scene settings: clone through the derived type.
template <class Derived>
struct ConstraintData : ConstraintTypeData {
  std::unique_ptr<ConstraintTypeData> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
};

/// What a type's create() gets besides its settings.
struct ConstraintBuild {
  /// The world's bodies.
  const BodyInterface& bodies;
  /// The constraint's bodies (Constraint::k_world: the world).
  BodyID body1, body2;
  /// A constraint created before this one, by scene name (null: none of that name).
  std::function<Ref<Constraint>(std::string_view)> find;
};

/// A constraint's impulses of this step, per part: (snake_case part name, components); one
/// component is written as a number, more as an array.
using LambdaParts = std::vector<std::pair<std::string, std::vector<float>>>;

/// Appends a part's lambda.
inline void add_lambda(LambdaParts& parts, const char* name, float value) {
  parts.emplace_back(name, std::vector<float>{value});
}
inline void add_lambda(LambdaParts& parts, const char* name, const Vec3& value) {
  parts.emplace_back(name, std::vector<float>{value.x(), value.y(), value.z()});
}
template <size_t N>
void add_lambda(LambdaParts& parts, const char* name, const std::array<float, N>& value) {
  parts.emplace_back(name, std::vector<float>(value.begin(), value.end()));
}

/// One constraint type of the scene format.
struct ConstraintType {
  ConstraintSubType type;
  /// Has a linear part (break_impulse accepted).
  bool linear_part;
  /// Has an angular part (break_angular_impulse accepted).
  bool angular_part;
  /// Has a motor (set_motor events accepted).
  bool motor;
  /// Default settings.
  std::unique_ptr<ConstraintTypeData> (*make)();
  /// The common settings inside.
  ConstraintSettings& (*common)(ConstraintTypeData&);
  /// Reads one type key; false when the type has no such key.
  bool (*read_key)(ConstraintTypeData&, std::string_view key, const Json& value,
                   const std::string& path, SceneParser&);
  /// Fills what the file left out from what it gave (`object`), then checks between fields.
  void (*complete)(ConstraintTypeData&, const Json& object, const std::string& path);
  /// Checks between fields (after --set).
  void (*check)(const ConstraintTypeData&, const std::string& path);
  /// The type keys as JSON (those that differ from the defaults).
  Json (*write)(const ConstraintTypeData&);
  /// Type keys equal.
  bool (*equal)(const ConstraintTypeData&, const ConstraintTypeData&);
  /// Documentation rows of the type keys.
  void (*describe)(std::vector<FieldDoc>&);
  /// The engine constraint (not yet added to a world); errors name the C++ field.
  Result<Ref<Constraint>> (*create)(const ConstraintTypeData&, const ConstraintBuild&);
  /// Checks a set_motor event's motor and targets against the type (at `path`, the event).
  void (*check_event)(const EventDesc&, const std::string& path);
  /// Applies a set_motor event.
  Status (*set_motor)(Constraint&, const EventDesc&);
  /// This step's impulses per part.
  void (*total_lambda)(const Constraint&, LambdaParts&);
  /// The attachment points in each body's centre-of-mass frame (world space for the world), for
  /// recordings.
  std::pair<Vec3, Vec3> (*anchors)(const Constraint&);
};

/// A constraint as the writer writes it: name, type, body1, body2, common and type keys.
Json write_constraint(const ConstraintDesc& constraint);

/// Every constraint type the scene format supports, in ConstraintSubType order.
std::span<const ConstraintType* const> constraint_types();
/// The type of `type`, or null when the scene format does not support it yet.
const ConstraintType* find_constraint_type(ConstraintSubType type);

/// The check_event of a type with one motor (scalar targets): no `motor`, `target_orientation`
/// or `target_angular_velocity` key.
void check_single_motor_event(ConstraintSubType type, const EventDesc& event,
                              const std::string& path);

/// The ConstraintType of Desc (a ConstraintData with its FieldTable) and its behaviour B; B may
/// have a static `check_event(const EventDesc&, const std::string& path)` (a type with several
/// motors or orientation targets), else check_single_motor_event.
template <class Desc, class B>
const ConstraintType& constraint_type() {
  static const ConstraintType k{
      B::type,
      B::linear_part,
      B::angular_part,
      B::motor,
      []() -> std::unique_ptr<ConstraintTypeData> { return std::make_unique<Desc>(); },
      [](ConstraintTypeData& d) -> ConstraintSettings& {
        return static_cast<Desc&>(d).settings.common;
      },
      [](ConstraintTypeData& d, std::string_view key, const Json& value, const std::string& path,
         SceneParser& parser) {
        const Field<Desc>* f = find_field<Desc>(key);
        if (f == nullptr) return false;
        f->read(static_cast<Desc&>(d), value, path, parser);
        return true;
      },
      [](ConstraintTypeData& d, const Json& object, const std::string& path) {
        B::complete(static_cast<Desc&>(d), object);
        FieldTable<Desc>::check(static_cast<const Desc&>(d), object, path);
      },
      [](const ConstraintTypeData& d, const std::string& path) {
        FieldTable<Desc>::check(static_cast<const Desc&>(d), Json::object(), path);
      },
      [](const ConstraintTypeData& d) { return write_object(static_cast<const Desc&>(d)); },
      [](const ConstraintTypeData& a, const ConstraintTypeData& b) {
        return equal_objects(static_cast<const Desc&>(a), static_cast<const Desc&>(b));
      },
      [](std::vector<FieldDoc>& rows) { describe_object<Desc>("", rows); },
      [](const ConstraintTypeData& d, const ConstraintBuild& build) {
        return B::create(static_cast<const Desc&>(d), build);
      },
      [](const EventDesc& e, const std::string& path) {
        if constexpr (requires { B::check_event(e, path); })
          B::check_event(e, path);
        else
          check_single_motor_event(B::type, e, path);
      },
      B::set_motor,
      B::total_lambda,
      [](const Constraint& c) -> std::pair<Vec3, Vec3> {
        if constexpr (requires { B::anchors(c); }) {
          return B::anchors(c);
        } else {
          const auto s = static_cast<const typename B::Engine&>(c).settings();
          return {s.point1, s.point2};
        }
      },
  };
  return k;
}

/// For types without a motor: set_motor is refused when the scene is read, so never called.
inline Status no_motor(Constraint&, const EventDesc&) {
  return Error("the constraint has no motor");
}

/// Names of ConstraintSpace values ("space").
struct SpaceNames {
  static constexpr const char* what = "space";
  static constexpr std::pair<const char*, ConstraintSpace> names[] = {
      {"world", ConstraintSpace::WorldSpace}, {"local", ConstraintSpace::LocalToBodyCOM}};
};

/// Names of MotorState values ("state").
struct MotorStateNames {
  static constexpr const char* what = "motor state";
  static constexpr std::pair<const char*, MotorState> names[] = {
      {"off", MotorState::Off},
      {"velocity", MotorState::Velocity},
      {"position", MotorState::Position},
      {"position_and_velocity", MotorState::PositionAndVelocity}};
};

/// A unit vector perpendicular to `axis` (non-zero): +x made perpendicular, or +y when `axis`
/// is along x. The normal axis of a hinge the file gives none for.
Vec3 derived_perpendicular(const Vec3& axis);

}  // namespace fields

}  // namespace atl
