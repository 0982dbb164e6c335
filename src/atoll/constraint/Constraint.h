#pragma once
// The constraint base (seed 003 §4): what every constraint type shares — its two bodies, enabled,
// priority, step overrides, user data, break thresholds — and the four solver calls the island
// solver makes in every step (setup, warm start, velocity solve, Baumgarte position solve).
// A type is assembled from constraint parts (constraint/parts/), which alone compute impulses;
// the type only measures its geometry and forwards.
//
// The world: a constraint may join a body to the fixed world. The world is Constraint::k_world
// (the invalid BodyID) in body1() or body2(); the solver gives it an immovable entry at the
// origin with identity rotation, so a world "point" is a world-space point. At most one of the
// two bodies may be the world.
//
// Lifetime: a constraint is created from its settings (`…Settings::create`, which validates
// every field and converts world-space settings to each body's centre-of-mass frame), then
// added to one PhysicsSystem with add_constraint. The caller keeps a Ref to change it at run
// time (enable, motor state and targets) and to read its impulses back.

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "atoll/body/BodyID.h"
#include "atoll/body/BodyInterface.h"
#include "atoll/constraint/SolverBody.h"
#include "atoll/core/Ref.h"
#include "atoll/core/Result.h"
#include "atoll/core/StateStream.h"

namespace atl {

/// The constraint types, with stable values (they are serialized; Jolt's order).
enum class ConstraintSubType : uint8_t {
  Fixed = 0,
  Point = 1,
  Hinge = 2,
  Slider = 3,
  Distance = 4,
  Cone = 5,
  SwingTwist = 6,
  SixDOF = 7,
  Path = 8,
  Vehicle = 9,
  RackAndPinion = 10,
  Gear = 11,
  Pulley = 12,
  User1 = 13,
  User2 = 14,
  User3 = 15,
  User4 = 16,
};
/// Number of sub-types (the values are 0 … k_num_constraint_sub_types − 1).
inline constexpr int k_num_constraint_sub_types = 17;

/// Snake-case name of a sub-type ("fixed", "point", …, "user4").
const char* to_string(ConstraintSubType type);
/// The sub-type of a snake-case name; error naming the name when there is none.
Result<ConstraintSubType> constraint_sub_type_from_name(std::string_view name);

/// The space in which a settings' points and axes are given.
enum class ConstraintSpace : uint8_t {
  /// World space (default): converted to each body's centre-of-mass frame at creation.
  WorldSpace = 0,
  /// Relative to each body's centre of mass, in the body's frame.
  LocalToBodyCOM = 1,
};

/// Most velocity or position iterations an island may take in a step (a constraint's
/// overrides; PhysicsSettings::velocity_steps and position_steps): the multi-threaded solve keeps
/// some bytes per iteration and island split, and 10⁶ iterations took 2.2 GB in one step.
inline constexpr uint32_t k_max_solver_steps = 10000;

/// The fields every constraint type has.
struct ConstraintSettings {
  /// Solved from the start (default true).
  bool enabled = true;
  /// Solve order: higher priority is solved later, so it holds more exactly (default 0).
  uint32_t priority = 0;
  /// Velocity iterations of the island this constraint is in (the island uses the largest
  /// override and at least the global setting); 0 = the global setting (default). At most
  /// k_max_solver_steps.
  uint32_t velocity_steps_override = 0;
  /// Position iterations, as velocity_steps_override (0 = the global setting).
  uint32_t position_steps_override = 0;
  /// Free for the user (default 0).
  uint64_t user_data = 0;
  /// Disabled after a step whose linear impulse magnitude exceeds this (N·s); 0 = unbreakable.
  float break_impulse = 0.0f;
  /// Disabled after a step whose angular impulse magnitude exceeds this (N·m·s); 0 =
  /// unbreakable.
  float break_angular_impulse = 0.0f;

  /// Checks the fields (thresholds finite and ≥ 0, overrides at most k_max_solver_steps); the
  /// error names `path`.field.
  Status validate(std::string_view path) const;
  bool operator==(const ConstraintSettings&) const = default;
};

/// A one-dimensional limit [min, max] on a measured value (rad or m): when the value is at or
/// beyond a bound, sets `error` = value − bound and the impulse range that pushes it back (≥ 0
/// at the lower bound, ≤ 0 at the upper) and returns true; false inside the limits.
inline bool limit_violation(float value, float min, float max, float& error, float& min_lambda,
                            float& max_lambda) {
  constexpr float k_unbounded = std::numeric_limits<float>::max();
  if (value <= min) {
    error = value - min;
    min_lambda = 0.0f;
    max_lambda = k_unbounded;
    return true;
  }
  if (value >= max) {
    error = value - max;
    min_lambda = -k_unbounded;
    max_lambda = 0.0f;
    return true;
  }
  return false;
}

class Constraint : public RefTarget<Constraint> {
 public:
  /// The fixed world in body1() or body2(): the invalid BodyID.
  static constexpr BodyID k_world = BodyID();

  virtual ~Constraint() = default;
  Constraint(const Constraint&) = delete;
  Constraint& operator=(const Constraint&) = delete;

  /// The type.
  virtual ConstraintSubType sub_type() const = 0;
  /// First body (k_world: the world).
  BodyID body1() const { return body1_; }
  /// Second body (k_world: the world).
  BodyID body2() const { return body2_; }

  /// True when solved. A disabled constraint costs nothing in the solve.
  bool is_enabled() const { return common_.enabled; }
  /// Enables or disables; re-enabling restarts the accumulated impulses from 0.
  void set_enabled(bool enabled);
  /// Solve priority (higher = solved later, more exactly).
  uint32_t priority() const { return common_.priority; }
  void set_priority(uint32_t priority) { common_.priority = priority; }
  /// Velocity iteration override (0 = global).
  uint32_t velocity_steps_override() const { return common_.velocity_steps_override; }
  /// Sets it; error (nothing changed) above k_max_solver_steps.
  Status set_velocity_steps_override(uint32_t steps);
  /// Position iteration override (0 = global).
  uint32_t position_steps_override() const { return common_.position_steps_override; }
  /// Sets it; error (nothing changed) above k_max_solver_steps.
  Status set_position_steps_override(uint32_t steps);
  /// User data.
  uint64_t user_data() const { return common_.user_data; }
  void set_user_data(uint64_t data) { common_.user_data = data; }
  /// Linear break threshold (N·s, 0 = unbreakable).
  float break_impulse() const { return common_.break_impulse; }
  /// Angular break threshold (N·m·s, 0 = unbreakable).
  float break_angular_impulse() const { return common_.break_angular_impulse; }
  /// Sets both thresholds; error (nothing changed) when one is negative or not finite.
  Status set_break_impulses(float linear, float angular);
  /// The common settings as they are now.
  const ConstraintSettings& common_settings() const { return common_; }

  /// Index in the world's constraint list (ties in the solve order), or k_not_in_world.
  uint32_t index() const { return index_; }
  static constexpr uint32_t k_not_in_world = 0xffffffffu;

  // --- The solver interface (called by the island solver; bodies are the solver entries of
  // body1 and body2, the world's being an immovable entry at the origin) ---------------------

  /// Computes effective masses and targets from the bodies' poses at the start of the step.
  /// Writes only this constraint; reads the bodies, and other constraints only when
  /// reads_other_constraints().
  virtual void setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                         float dt) = 0;
  /// True when the setup reads what other constraints' setups write (a gear following its
  /// hinges): the step then sets up every constraint in solve order on one thread, so that it
  /// reads each of them set up or not exactly as in that order.
  virtual bool reads_other_constraints() const { return false; }
  /// Applies last step's impulses × `ratio` (dt / previous dt; 0 = none).
  virtual void warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                              float ratio) = 0;
  /// One velocity iteration; true when it applied an impulse.
  virtual bool solve_velocity_constraint(SolverBody& body1, SolverBody& body2, float dt) = 0;
  /// One Baumgarte position iteration (`baumgarte` ∈ (0, 1]); true when it moved a body.
  virtual bool solve_position_constraint(SolverBody& body1, SolverBody& body2, float dt,
                                         float baumgarte) = 0;
  /// Magnitude of this step's impulse of the linear parts (N·s; 0 without one).
  virtual float linear_impulse() const = 0;
  /// Magnitude of this step's impulse of the angular parts (N·m·s; 0 without one).
  virtual float angular_impulse() const = 0;
  /// Sets every accumulated impulse to 0 (the next warm start applies nothing).
  virtual void reset_warm_start() = 0;

  /// Walks the state the simulation changes in this constraint (core/StateStream.h), for
  /// saving, restoring and validating a world's state: whether it is enabled, then its type's
  /// fields (visit_type_state).
  void visit_state(StateStream& stream) {
    stream.flag("enabled", common_.enabled);
    visit_type_state(stream);
  }

 protected:
  /// The type's part of visit_state: the accumulated impulse of every solver part, in a fixed
  /// order, and whatever its setters change while it runs (motor states and targets, …). What
  /// setup recomputes every step (effective masses, targets' errors) is not state.
  virtual void visit_type_state(StateStream& stream) = 0;

  /// Only the settings' create() makes constraints (validated input).
  Constraint(BodyID body1, BodyID body2, const ConstraintSettings& common)
      : body1_(body1), body2_(body2), common_(common) {}

 private:
  friend class ConstraintManager;
  BodyID body1_;
  BodyID body2_;
  ConstraintSettings common_;
  uint32_t index_ = k_not_in_world;
};

/// The pose a constraint sees of a body: centre of mass (m) and rotation; the world's is the
/// origin with identity rotation.
struct ConstraintBodyPose {
  Vec3 com_position;
  Quat rotation;
  /// World point → the body's centre-of-mass frame.
  Vec3 to_local(const Vec3& world_point) const {
    return rotation.conjugated() * (world_point - com_position);
  }
  /// World direction → the body's frame.
  Vec3 to_local_direction(const Vec3& world_direction) const {
    return rotation.conjugated() * world_direction;
  }
};

/// Checks the two bodies of a new constraint and reads their poses: each is k_world or a body
/// of `bodies`; not both the world; not the same body. Errors name `path`.body1 / body2.
Result<std::array<ConstraintBodyPose, 2>> constraint_body_poses(const BodyInterface& bodies,
                                                                BodyID body1, BodyID body2,
                                                                std::string_view path);

/// Error unless `v` is finite: "path.field: must be finite".
Status check_finite(const Vec3& v, std::string_view path, const char* field);
/// Error unless `v` is finite and not of zero length (a direction).
Status check_direction(const Vec3& v, std::string_view path, const char* field);

}  // namespace atl
