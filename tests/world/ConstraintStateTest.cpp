// A constraint's simulation state (Constraint::visit_state, issue 10 item 1): for every
// constraint type, in a world stepped until its impulses are non-zero, the walk names at least
// one non-zero accumulated impulse; saved, stepped on and restored, every walked number (the
// accumulated impulses, motor states and targets, the limits the setters change) is back to its
// saved bits (and so is what the public getters show); with the two boxes put back as well, the
// next steps repeat the first run's bits; validating after a change names the changed field;
// restoring an invalid motor state or setting fails with the field named and changes nothing.
//
// The stream here is the test's own (the world's StateRecorder is state/'s): saving appends the
// walked numbers to a list of 32-bit words, restoring reads them back, validating compares bits.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "atoll/constraint/ConeConstraint.h"
#include "atoll/constraint/DistanceConstraint.h"
#include "atoll/constraint/FixedConstraint.h"
#include "atoll/constraint/GearConstraint.h"
#include "atoll/constraint/HingeConstraint.h"
#include "atoll/constraint/PathConstraint.h"
#include "atoll/constraint/PathConstraintPath.h"
#include "atoll/constraint/PointConstraint.h"
#include "atoll/constraint/PulleyConstraint.h"
#include "atoll/constraint/RackAndPinionConstraint.h"
#include "atoll/constraint/SixDOFConstraint.h"
#include "atoll/constraint/SliderConstraint.h"
#include "atoll/constraint/SwingTwistConstraint.h"
#include "atoll/state/StateRecorder.h"
#include "laws/LawFixture.h"

namespace atl {
namespace constraint_state_test {

using laws::LawWorld;

// A saved state: the walked numbers as 32-bit words, with what each one was (for the tests'
// checks; a real saved state needs only the words).
struct Saved {
  enum class Kind : uint8_t { floating, integer, flag, count };
  std::vector<uint32_t> words;
  std::vector<Kind> kinds;
  std::vector<std::string> names;  // component names ("point_lambda.y")
};

std::string float_text(float f) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", static_cast<double>(f));
  return buffer;
}

class TestStream final : public StateStream {
 public:
  // Saving into `saved` (cleared).
  explicit TestStream(Saved& saved) : StateStream(Mode::save), saved_(&saved) {
    saved.words.clear();
    saved.kinds.clear();
    saved.names.clear();
  }
  // Restoring from or validating against `saved`.
  TestStream(Mode mode, const Saved& saved) : StateStream(mode), source_(&saved) {}

  void floats(const char* name, float* values, uint32_t count) override {
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t bits = 0;
      std::memcpy(&bits, &values[i], sizeof bits);
      uint32_t saved_bits = bits;
      if (!word(Saved::Kind::floating, component_name(name, i, count), saved_bits)) return;
      if (mode() == Mode::validate && saved_bits != bits) {
        float saved_value = 0.0f;
        std::memcpy(&saved_value, &saved_bits, sizeof saved_value);
        fail(component_name(name, i, count) + ": saved " + float_text(saved_value) + ", now " +
             float_text(values[i]));
        return;
      }
    }
    if (!restoring() || !ok()) return;
    // Written only once every word was read: a failed stream leaves its arguments alone.
    for (uint32_t i = 0; i < count; ++i)
      std::memcpy(&values[i], &source_->words[read_ - count + i], sizeof(float));
  }
  void u32s(const char* name, uint32_t* values, uint32_t count) override {
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t saved = values[i];
      if (!word(Saved::Kind::integer, component_name(name, i, count), saved)) return;
      if (mode() == Mode::validate && saved != values[i]) {
        fail(component_name(name, i, count) + ": saved " + std::to_string(saved) + ", now " +
             std::to_string(values[i]));
        return;
      }
    }
    if (!restoring() || !ok()) return;
    for (uint32_t i = 0; i < count; ++i) values[i] = source_->words[read_ - count + i];
  }
  void flag(const char* name, bool& value) override {
    uint32_t saved = value ? 1u : 0u;
    if (!word(Saved::Kind::flag, name, saved)) return;
    if (mode() == Mode::validate && saved != (value ? 1u : 0u)) {
      fail(std::string(name) + ": saved " + std::to_string(saved) + ", now " +
           std::to_string(value ? 1 : 0));
      return;
    }
    if (restoring()) value = saved != 0;
  }
  void count(const char* name, uint32_t& value, uint32_t /*min_element_bytes*/) override {
    uint32_t saved = value;
    if (!word(Saved::Kind::count, name, saved)) return;
    if (mode() == Mode::validate && saved != value) {
      fail(std::string(name) + ": saved " + std::to_string(saved) + ", now " +
           std::to_string(value));
      return;
    }
    if (restoring()) value = saved;
  }
  void expect(const char* name, uint32_t world_value) override {
    uint32_t saved = world_value;
    if (!word(Saved::Kind::count, name, saved)) return;
    if (saved != world_value)
      fail(std::string(name) + ": the state has " + std::to_string(saved) + ", the world has " +
           std::to_string(world_value));
  }

  // True when every saved word was read (restore, validate).
  bool at_end() const { return source_ != nullptr && read_ == source_->words.size(); }

 private:
  // Saving: appends `value`. Reading: the next saved word into `value`; false (and the stream
  // failed) past the end or when the saved word is of another kind (the walk changed).
  bool word(Saved::Kind kind, const std::string& name, uint32_t& value) {
    if (!ok()) return false;
    if (saving()) {
      saved_->words.push_back(value);
      saved_->kinds.push_back(kind);
      saved_->names.push_back(name);
      return true;
    }
    if (read_ >= source_->words.size()) {
      fail(name + ": the saved state ends");
      return false;
    }
    if (source_->kinds[read_] != kind || source_->names[read_] != name) {
      fail(name + ": the saved state has " + source_->names[read_] + " here");
      return false;
    }
    value = source_->words[read_++];
    return true;
  }

  Saved* saved_ = nullptr;
  const Saved* source_ = nullptr;
  size_t read_ = 0;
};

// Walks every constraint of `world` (object "constraint <index>") into, from or against
// `saved`; returns the stream's error ("" when it did not fail).
std::string walk(LawWorld& world, StateStream::Mode mode, Saved& saved) {
  std::unique_ptr<TestStream> s = mode == StateStream::Mode::save
                                      ? std::make_unique<TestStream>(saved)
                                      : std::make_unique<TestStream>(mode, saved);
  for (const Ref<Constraint>& c : world.system().constraints()) {
    s->object("constraint", c->index());
    c->visit_state(*s);
  }
  if (s->ok() && mode != StateStream::Mode::save) {
    EXPECT_TRUE(s->at_end()) << "words left over";
  }
  return s->error();
}
Saved save(LawWorld& world) {
  Saved saved;
  EXPECT_EQ(walk(world, StateStream::Mode::save, saved), "");
  return saved;
}
std::string restore(LawWorld& world, const Saved& saved) {
  Saved copy = saved;
  return walk(world, StateStream::Mode::restore, copy);
}
std::string validate(LawWorld& world, const Saved& saved) {
  Saved copy = saved;
  return walk(world, StateStream::Mode::validate, copy);
}

// A world with a constraint of one type between box `b` (0.5 m cube, 1 m from the origin at
// height 10) and the world or box `a`, with its motors, limits and springs on where it has them.
struct Rig {
  std::unique_ptr<LawWorld> world = std::make_unique<LawWorld>();
  BodyID a, b;
  Ref<Constraint> constraint;  // the one under test (a gear's hinges are in the world too)
  int steps = 0;

  Rig() {
    a = world->add_box(Vec3(0.25f, 0.25f, 0.25f), Vec3(0.0f, 10.0f, 0.0f));
    b = world->add_box(Vec3(0.25f, 0.25f, 0.25f), Vec3(1.0f, 10.0f, 0.0f));
  }
  Ref<Constraint> add(Result<Ref<Constraint>> made) {
    EXPECT_TRUE(made.ok()) << (made.ok() ? "" : made.error().message());
    if (!made) return nullptr;
    EXPECT_TRUE(world->system().add_constraint(made.value()).ok());
    return made.value();
  }
  // One step with forces and torques on both boxes (of 125 kg) that differ between them and
  // change every step, so that every impulse keeps changing.
  void step(int n) {
    for (int i = 0; i < n; ++i, ++steps) {
      float t = 0.7f * static_cast<float>(steps);
      for (BodyID id : {a, b}) {
        EXPECT_TRUE(world->bodies()
                        .add_force(id, Vec3(400.0f * std::sin(t), 300.0f * std::cos(1.3f * t),
                                            250.0f * std::sin(0.9f * t + 1.0f)))
                        .ok());
        EXPECT_TRUE(world->bodies()
                        .add_torque(id, Vec3(30.0f * std::cos(t), 20.0f * std::sin(1.1f * t),
                                             25.0f * std::cos(0.8f * t)))
                        .ok());
        t += 2.0f;
      }
      world->step();
    }
  }
};

Ref<const PathConstraintPath> s_curve_path() {
  const Vec3 up(0.0f, 1.0f, 0.0f), out(3.0f, 0.0f, 1.0f), in(3.0f, 0.0f, -0.7f);
  return Ref<const PathConstraintPath>(
      new PathConstraintPathHermite({{Vec3(0.0f, 0.0f, 0.0f), out, up},
                                     {Vec3(3.0f, 0.0f, 1.0f), in, Vec3(0.0f, 1.0f, -0.6f)},
                                     {Vec3(6.0f, 0.0f, -1.0f), in, Vec3(0.0f, 1.0f, 0.6f)},
                                     {Vec3(9.0f, 0.0f, 0.0f), out, up}},
                                    false));
}

// A hinge about z holding `body` to the world at its centre, driven at 2 rad/s.
Ref<Constraint> driven_hinge(Rig& r, BodyID body, const Vec3& at) {
  HingeConstraintSettings s;
  s.point1 = s.point2 = at;
  s.hinge_axis1 = s.hinge_axis2 = Vec3(0.0f, 0.0f, 1.0f);
  s.normal_axis1 = s.normal_axis2 = Vec3(1.0f, 0.0f, 0.0f);
  Ref<Constraint> c = r.add(s.create(r.world->bodies(), Constraint::k_world, body));
  auto& hinge = static_cast<HingeConstraint&>(*c);
  hinge.set_motor_state(MotorState::Velocity);
  EXPECT_TRUE(hinge.set_target_angular_velocity(2.0f).ok());
  return c;
}

void make_fixed(Rig& r) {
  FixedConstraintSettings s;
  s.point1 = s.point2 = Vec3(0.5f, 10.0f, 0.0f);
  r.constraint = r.add(s.create(r.world->bodies(), r.a, r.b));
}

void make_point(Rig& r) {
  PointConstraintSettings s;
  s.point1 = s.point2 = Vec3(0.5f, 10.0f, 0.0f);
  r.constraint = r.add(s.create(r.world->bodies(), Constraint::k_world, r.b));
}

void make_hinge(Rig& r) {
  HingeConstraintSettings s;
  s.point1 = s.point2 = Vec3(0.5f, 10.0f, 0.0f);
  s.hinge_axis1 = s.hinge_axis2 = Vec3(0.0f, 0.0f, 1.0f);
  s.normal_axis1 = s.normal_axis2 = Vec3(1.0f, 0.0f, 0.0f);
  s.limits_min = -0.4f;
  s.limits_max = 0.3f;
  s.limits_spring_settings = SpringSettings::frequency_and_damping(8.0f, 0.5f);
  s.max_friction_torque = 1.0f;
  r.constraint = r.add(s.create(r.world->bodies(), r.a, r.b));
  auto& c = static_cast<HingeConstraint&>(*r.constraint);
  c.set_motor_state(MotorState::PositionAndVelocity);
  EXPECT_TRUE(c.set_target_angle(0.2f).ok());
  EXPECT_TRUE(c.set_target_angular_velocity(0.5f).ok());
}

void make_slider(Rig& r) {
  SliderConstraintSettings s;
  s.point1 = s.point2 = Vec3(0.5f, 10.0f, 0.0f);
  s.slider_axis1 = Vec3(1.0f, 0.0f, 0.0f);
  s.limits_min = -0.2f;
  s.limits_max = 0.1f;
  s.max_friction_force = 2.0f;
  s.motor_settings.set_force_limit(50.0f);
  r.constraint = r.add(s.create(r.world->bodies(), Constraint::k_world, r.b));
  auto& c = static_cast<SliderConstraint&>(*r.constraint);
  c.set_motor_state(MotorState::Position);
  EXPECT_TRUE(c.set_target_position(0.05f).ok());
  EXPECT_TRUE(c.set_target_velocity(0.25f).ok());
}

void make_distance(Rig& r) {
  DistanceConstraintSettings s;
  s.point1 = Vec3(0.0f, 10.0f, 0.0f);
  s.point2 = Vec3(1.0f, 10.0f, 0.0f);
  s.min_distance = 1.0f;  // a soft rod: the row is always active
  s.max_distance = 1.0f;
  s.limits_spring_settings = SpringSettings::frequency_and_damping(5.0f, 0.3f);
  r.constraint = r.add(s.create(r.world->bodies(), r.a, r.b));
}

void make_cone(Rig& r) {
  ConeConstraintSettings s;
  s.point1 = s.point2 = Vec3(0.5f, 10.0f, 0.0f);
  s.twist_axis1 = s.twist_axis2 = Vec3(1.0f, 0.0f, 0.0f);
  s.half_cone_angle = 0.2f;
  r.constraint = r.add(s.create(r.world->bodies(), Constraint::k_world, r.b));
}

void make_swing_twist(Rig& r) {
  SwingTwistConstraintSettings s;
  s.position1 = s.position2 = Vec3(0.5f, 10.0f, 0.0f);
  s.normal_half_cone_angle = 0.3f;
  s.plane_half_cone_angle = 0.2f;
  s.twist_min_angle = -0.1f;
  s.twist_max_angle = 0.2f;
  s.max_friction_torque = 0.5f;
  s.swing_motor_settings.set_torque_limit(5.0f);
  r.constraint = r.add(s.create(r.world->bodies(), r.a, r.b));
  auto& c = static_cast<SwingTwistConstraint&>(*r.constraint);
  c.set_swing_motor_state(MotorState::Position);
  c.set_twist_motor_state(MotorState::Velocity);
  EXPECT_TRUE(c.set_target_angular_velocity_cs(Vec3(0.4f, 0.1f, -0.1f)).ok());
  EXPECT_TRUE(c.set_target_orientation_cs(Quat::rotation(Vec3(0.0f, 1.0f, 0.0f), 0.15f)).ok());
}

void make_six_dof(Rig& r) {
  using Axis = SixDOFConstraintSettings::Axis;
  SixDOFConstraintSettings s;
  s.position1 = s.position2 = Vec3(0.5f, 10.0f, 0.0f);
  s.make_fixed_axis(Axis::TranslationY);
  s.set_limited_axis(Axis::TranslationX, -0.1f, 0.1f);
  s.set_limited_axis(Axis::RotationX, -0.2f, 0.3f);
  s.set_limited_axis(Axis::RotationY, -0.25f, 0.25f);
  s.set_limited_axis(Axis::RotationZ, -0.25f, 0.25f);
  s.max_friction[Axis::TranslationZ] = 1.0f;
  r.constraint = r.add(s.create(r.world->bodies(), Constraint::k_world, r.b));
  auto& c = static_cast<SixDOFConstraint&>(*r.constraint);
  c.set_motor_state(Axis::TranslationX, MotorState::Velocity);
  c.set_motor_state(Axis::RotationX, MotorState::Position);
  EXPECT_TRUE(c.set_target_velocity_cs(Vec3(0.3f, 0.0f, 0.0f)).ok());
  EXPECT_TRUE(c.set_target_angular_velocity_cs(Vec3(0.1f, 0.0f, 0.0f)).ok());
  EXPECT_TRUE(c.set_target_position_cs(Vec3(0.05f, 0.0f, 0.0f)).ok());
  EXPECT_TRUE(c.set_target_orientation_cs(Quat::rotation(Vec3(1.0f, 0.0f, 0.0f), 0.1f)).ok());
}

void make_path(Rig& r) {
  PathConstraintSettings s;
  s.path = s_curve_path();
  s.path_position = r.world->body(r.b).position();
  s.path_fraction = 0.0f;
  s.rotation_constraint_type = PathRotationConstraintType::ConstrainAroundTangent;
  s.max_friction_force = 1.0f;
  r.constraint = r.add(s.create(r.world->bodies(), Constraint::k_world, r.b));
  auto& c = static_cast<PathConstraint&>(*r.constraint);
  c.set_motor_state(MotorState::Velocity);
  EXPECT_TRUE(c.set_target_velocity(1.5f).ok());
  EXPECT_TRUE(c.set_target_path_fraction(2.0f).ok());
}

// The gear is added before its hinges, so it is solved first and reads the hinges' angles of the
// step before (HingeConstraint's current_angle, which the hinge's state therefore holds).
void make_gear(Rig& r) {
  GearConstraintSettings s;
  s.hinge_axis1 = s.hinge_axis2 = Vec3(0.0f, 0.0f, 1.0f);
  s.ratio = 2.0f;
  r.constraint = r.add(s.create(r.world->bodies(), r.a, r.b));
  Ref<Constraint> hinge1 = driven_hinge(r, r.a, Vec3(0.0f, 10.0f, 0.0f));
  HingeConstraintSettings free_hinge;
  free_hinge.point1 = free_hinge.point2 = Vec3(1.0f, 10.0f, 0.0f);
  free_hinge.hinge_axis1 = free_hinge.hinge_axis2 = Vec3(0.0f, 0.0f, 1.0f);
  Ref<Constraint> hinge2 = r.add(free_hinge.create(r.world->bodies(), Constraint::k_world, r.b));
  EXPECT_TRUE(static_cast<GearConstraint&>(*r.constraint).set_constraints(hinge1, hinge2).ok());
}

// Added before its hinge and slider, as the gear.
void make_rack_and_pinion(Rig& r) {
  RackAndPinionConstraintSettings s;
  s.hinge_axis = Vec3(0.0f, 0.0f, 1.0f);
  s.slider_axis = Vec3(1.0f, 0.0f, 0.0f);
  s.ratio = 4.0f;
  r.constraint = r.add(s.create(r.world->bodies(), r.a, r.b));
  Ref<Constraint> hinge = driven_hinge(r, r.a, Vec3(0.0f, 10.0f, 0.0f));
  SliderConstraintSettings rail;
  rail.point1 = rail.point2 = Vec3(1.0f, 10.0f, 0.0f);
  rail.slider_axis1 = Vec3(1.0f, 0.0f, 0.0f);
  Ref<Constraint> slider = r.add(rail.create(r.world->bodies(), Constraint::k_world, r.b));
  EXPECT_TRUE(
      static_cast<RackAndPinionConstraint&>(*r.constraint).set_constraints(hinge, slider).ok());
}

void make_pulley(Rig& r) {
  PulleyConstraintSettings s;
  s.body_point1 = Vec3(0.0f, 10.25f, 0.0f);
  s.fixed_point1 = Vec3(0.0f, 12.0f, 0.0f);
  s.body_point2 = Vec3(1.0f, 10.25f, 0.0f);
  s.fixed_point2 = Vec3(1.0f, 12.0f, 0.0f);
  s.ratio = 1.5f;
  s.min_length = 0.0f;
  s.max_length = -1.0f;
  r.constraint = r.add(s.create(r.world->bodies(), r.a, r.b));
}

struct TypeCase {
  const char* name;
  ConstraintSubType type;
  void (*make)(Rig&);
};

// Every constraint type the library makes (Vehicle and User1…4 have no class).
const TypeCase k_types[] = {
    {"fixed", ConstraintSubType::Fixed, make_fixed},
    {"point", ConstraintSubType::Point, make_point},
    {"hinge", ConstraintSubType::Hinge, make_hinge},
    {"slider", ConstraintSubType::Slider, make_slider},
    {"distance", ConstraintSubType::Distance, make_distance},
    {"cone", ConstraintSubType::Cone, make_cone},
    {"swing_twist", ConstraintSubType::SwingTwist, make_swing_twist},
    {"six_dof", ConstraintSubType::SixDOF, make_six_dof},
    {"path", ConstraintSubType::Path, make_path},
    {"rack_and_pinion", ConstraintSubType::RackAndPinion, make_rack_and_pinion},
    {"gear", ConstraintSubType::Gear, make_gear},
    {"pulley", ConstraintSubType::Pulley, make_pulley},
};

// The walk of the constraint under test alone (its object name, "constraint <index>").
Saved save_one(Constraint& c) {
  Saved saved;
  TestStream s(saved);
  s.object("constraint", c.index());
  c.visit_state(s);
  EXPECT_TRUE(s.ok()) << s.error();
  return saved;
}

// What a constraint shows through its public getters of the walked state (impulses, motor
// states, targets, settings), independent of the walk: an impulse the walk forgot would not be
// restored, and this sees it.
std::vector<float> observe(const Constraint& constraint) {
  std::vector<float> v;
  const auto add = [&v](std::initializer_list<float> values) {
    v.insert(v.end(), values.begin(), values.end());
  };
  const auto add3 = [&v](const Vec3& x) { v.insert(v.end(), {x.x(), x.y(), x.z()}); };
  const auto add4 = [&v](const Quat& q) { v.insert(v.end(), {q.x(), q.y(), q.z(), q.w()}); };
  const auto state = [](MotorState m) { return static_cast<float>(m); };
  switch (constraint.sub_type()) {
    case ConstraintSubType::Fixed: {
      const auto& c = static_cast<const FixedConstraint&>(constraint);
      add3(c.total_lambda_position());
      add3(c.total_lambda_rotation());
      break;
    }
    case ConstraintSubType::Point:
      add3(static_cast<const PointConstraint&>(constraint).total_lambda_position());
      break;
    case ConstraintSubType::Hinge: {
      const auto& c = static_cast<const HingeConstraint&>(constraint);
      add3(c.total_lambda_position());
      add({c.total_lambda_rotation()[0], c.total_lambda_rotation()[1],
           c.total_lambda_rotation_limits(), c.total_lambda_motor(), state(c.motor_state()),
           c.target_angular_velocity(), c.target_angle(), c.current_angle(),
           c.settings().limits_min, c.settings().limits_max, c.settings().max_friction_torque});
      break;
    }
    case ConstraintSubType::Slider: {
      const auto& c = static_cast<const SliderConstraint&>(constraint);
      add({c.total_lambda_position()[0], c.total_lambda_position()[1],
           c.total_lambda_position_limits(), c.total_lambda_motor(), state(c.motor_state()),
           c.target_velocity(), c.target_position(), c.current_position(), c.settings().limits_min,
           c.settings().limits_max});
      add3(c.total_lambda_rotation());
      break;
    }
    case ConstraintSubType::Distance: {
      const auto& c = static_cast<const DistanceConstraint&>(constraint);
      add({c.total_lambda_position(), c.settings().min_distance, c.settings().max_distance});
      break;
    }
    case ConstraintSubType::Cone: {
      const auto& c = static_cast<const ConeConstraint&>(constraint);
      add3(c.total_lambda_position());
      add({c.total_lambda_rotation(), c.settings().half_cone_angle});
      break;
    }
    case ConstraintSubType::SwingTwist: {
      const auto& c = static_cast<const SwingTwistConstraint&>(constraint);
      const SwingTwistConstraintSettings s = c.settings();
      add3(c.total_lambda_position());
      add({c.total_lambda_swing(), c.total_lambda_twist(), state(c.swing_motor_state()),
           state(c.twist_motor_state()), s.normal_half_cone_angle, s.plane_half_cone_angle,
           s.twist_min_angle, s.twist_max_angle, s.max_friction_torque});
      add3(c.total_lambda_motor());
      add3(c.target_angular_velocity_cs());
      add4(c.target_orientation_cs());
      break;
    }
    case ConstraintSubType::SixDOF: {
      const auto& c = static_cast<const SixDOFConstraint&>(constraint);
      add3(c.total_lambda_position());
      add3(c.total_lambda_rotation());
      add3(c.total_lambda_motor_translation());
      add3(c.total_lambda_motor_rotation());
      for (int i = 0; i < SixDOFConstraint::k_num_axes; ++i)
        add({state(c.motor_state(SixDOFConstraint::Axis(i)))});
      add3(c.target_velocity_cs());
      add3(c.target_angular_velocity_cs());
      add3(c.target_position_cs());
      add4(c.target_orientation_cs());
      break;
    }
    case ConstraintSubType::Path: {
      const auto& c = static_cast<const PathConstraint&>(constraint);
      add({c.total_lambda_position()[0], c.total_lambda_position()[1],
           c.total_lambda_position_limits(), c.total_lambda_motor(), state(c.motor_state()),
           c.target_velocity(), c.target_path_fraction(), c.path_fraction(),
           c.max_friction_force()});
      // Not total_lambda_rotation(): the angle rows' impulses times their world axes, which
      // the next setup measures again.
      break;
    }
    case ConstraintSubType::Gear:
      add({static_cast<const GearConstraint&>(constraint).total_lambda()});
      break;
    case ConstraintSubType::RackAndPinion:
      add({static_cast<const RackAndPinionConstraint&>(constraint).total_lambda()});
      break;
    case ConstraintSubType::Pulley: {
      const auto& c = static_cast<const PulleyConstraint&>(constraint);
      add({c.total_lambda(), c.settings().min_length, c.settings().max_length});
      break;
    }
    default:
      ADD_FAILURE() << "no getters listed for " << to_string(constraint.sub_type());
  }
  return v;
}

// The bits of `v` (so that −0 differs from 0 and a NaN equals itself).
std::vector<uint32_t> bits(const std::vector<float>& v) {
  std::vector<uint32_t> b(v.size());
  std::memcpy(b.data(), v.data(), v.size() * sizeof(float));
  return b;
}

bool is_nonzero_lambda(const Saved& saved, size_t i) {
  return saved.kinds[i] == Saved::Kind::floating &&
         saved.names[i].find("_lambda") != std::string::npos && (saved.words[i] << 1) != 0;
}

TEST(ConstraintState, EveryTypeWalksNonZeroImpulsesAndRestoresThemExactly) {
  for (const TypeCase& t : k_types) {
    SCOPED_TRACE(t.name);
    Rig r;
    t.make(r);
    ASSERT_NE(r.constraint, nullptr);
    ASSERT_EQ(r.constraint->sub_type(), t.type);
    r.step(20);

    // The walk names an accumulated impulse that is not 0: an empty visit_type_state fails.
    const Saved mine = save_one(*r.constraint);
    size_t nonzero = 0;
    for (size_t i = 0; i < mine.words.size(); ++i) nonzero += is_nonzero_lambda(mine, i);
    EXPECT_GT(nonzero, 0u) << "no non-zero accumulated impulse walked";

    // The whole world's constraints (a gear's hinges too): saved, stepped on, restored.
    const std::vector<float> shown = observe(*r.constraint);
    const Saved saved = save(*r.world);
    EXPECT_EQ(validate(*r.world, saved), "") << "validating right after saving";
    r.step(3);
    EXPECT_NE(bits(observe(*r.constraint)), bits(shown)) << "the getters show no change";
    const std::string difference = validate(*r.world, saved);
    EXPECT_NE(difference, "") << "three more steps changed no walked number";
    // "constraint <i> <field>: saved X, now Y", the field one of the walked ones.
    bool names_a_field = false;
    for (const std::string& name : saved.names)
      for (const Ref<Constraint>& c : r.world->system().constraints())
        names_a_field |=
            difference.rfind("constraint " + std::to_string(c->index()) + " " + name + ": saved ",
                             0) == 0;
    EXPECT_TRUE(names_a_field) << difference;

    EXPECT_EQ(restore(*r.world, saved), "");
    EXPECT_EQ(validate(*r.world, saved), "") << "after restoring";
    const Saved again = save(*r.world);
    EXPECT_EQ(again.words, saved.words) << "restored bits differ";
    EXPECT_EQ(again.names, saved.names);
    // The impulses are back: what the solver reads when it warm-starts the next step.
    const Saved mine_again = save_one(*r.constraint);
    EXPECT_EQ(mine_again.words, mine.words);
    EXPECT_EQ(bits(observe(*r.constraint)), bits(shown)) << "the getters show another state";
  }
}

// The two boxes' poses and velocities, as bits: with no contact (the boxes never touch) and a
// fixed step, they and the constraints' state are all a step reads.
std::vector<uint32_t> body_bits(LawWorld& world, std::initializer_list<BodyID> ids) {
  std::vector<float> v;
  for (BodyID id : ids) {
    const Body& b = world.body(id);
    const Vec3 p = b.position(), lv = b.linear_velocity(), av = b.angular_velocity();
    const Quat q = b.rotation();
    v.insert(v.end(), {p.x(), p.y(), p.z(), q.x(), q.y(), q.z(), q.w(), lv.x(), lv.y(), lv.z(),
                       av.x(), av.y(), av.z()});
  }
  return bits(v);
}

// Saved constraints plus the boxes put back as they were: the next steps give the same bits as
// the first time. A number the next step reads and the walk forgot (an accumulated impulse the
// warm start applies, a target, a joint angle a gear reads) would make them differ.
TEST(ConstraintState, RestoredWorldContinuesWithTheSameBits) {
  for (const TypeCase& t : k_types) {
    SCOPED_TRACE(t.name);
    Rig r;
    t.make(r);
    ASSERT_NE(r.constraint, nullptr);
    r.step(15);
    const Saved saved = save(*r.world);
    const int steps = r.steps;
    struct Pose {
      Vec3 position, linear_velocity, angular_velocity;
      Quat rotation;
    };
    Pose poses[2];
    for (int i = 0; i < 2; ++i) {
      const Body& b = r.world->body(i == 0 ? r.a : r.b);
      poses[i] = {b.position(), b.linear_velocity(), b.angular_velocity(), b.rotation()};
    }
    const std::vector<uint32_t> at_save = body_bits(*r.world, {r.a, r.b});

    r.step(10);
    const std::vector<uint32_t> first_bodies = body_bits(*r.world, {r.a, r.b});
    const Saved first = save(*r.world);

    for (int i = 0; i < 2; ++i) {
      const BodyID id = i == 0 ? r.a : r.b;
      BodyInterface& bodies = r.world->bodies();
      ASSERT_TRUE(bodies.set_position_and_rotation(id, poses[i].position, poses[i].rotation).ok());
      ASSERT_TRUE(bodies.set_linear_velocity(id, poses[i].linear_velocity).ok());
      ASSERT_TRUE(bodies.set_angular_velocity(id, poses[i].angular_velocity).ok());
    }
    ASSERT_EQ(body_bits(*r.world, {r.a, r.b}), at_save) << "the boxes were not put back exactly";
    ASSERT_EQ(restore(*r.world, saved), "");
    r.steps = steps;
    r.step(10);
    EXPECT_EQ(body_bits(*r.world, {r.a, r.b}), first_bodies);
    EXPECT_EQ(validate(*r.world, first), "");
  }
}

// Each walked field is named in the difference a validation finds: a motor target changed by
// its setter, an accumulated impulse, a limit.
TEST(ConstraintState, ValidatingNamesTheChangedField) {
  Rig r;
  make_hinge(r);
  r.step(10);
  auto& hinge = static_cast<HingeConstraint&>(*r.constraint);
  const std::string id = "constraint " + std::to_string(hinge.index()) + " ";
  const Saved saved = save(*r.world);

  ASSERT_TRUE(hinge.set_target_angle(0.25f).ok());
  EXPECT_EQ(validate(*r.world, saved), id + "target_angle: saved 0.200000003, now 0.25");
  ASSERT_TRUE(hinge.set_target_angle(0.2f).ok());
  EXPECT_EQ(validate(*r.world, saved), "");

  hinge.set_motor_state(MotorState::Velocity);
  EXPECT_EQ(validate(*r.world, saved), id + "motor_state: saved 3, now 1");
  hinge.set_motor_state(MotorState::PositionAndVelocity);

  ASSERT_TRUE(hinge.set_limits(-0.5f, 0.3f).ok());
  EXPECT_EQ(validate(*r.world, saved), id + "limits_min: saved -0.400000006, now -0.5");
  ASSERT_TRUE(hinge.set_limits(-0.4f, 0.3f).ok());

  hinge.set_enabled(false);
  EXPECT_EQ(validate(*r.world, saved), id + "enabled: saved 1, now 0");
  hinge.set_enabled(true);  // restarts the impulses from 0
  const std::string lambda = validate(*r.world, saved);
  EXPECT_EQ(lambda.rfind(id + "point_lambda.x: saved ", 0), 0u) << lambda;
  EXPECT_EQ(restore(*r.world, saved), "");
  EXPECT_EQ(validate(*r.world, saved), "");
}

// Restoring writes the saved targets and states back over what the setters changed.
TEST(ConstraintState, RestoringBringsBackMotorStatesAndTargets) {
  Rig r;
  make_six_dof(r);
  r.step(5);
  auto& c = static_cast<SixDOFConstraint&>(*r.constraint);
  const Saved saved = save(*r.world);
  c.set_motor_state(SixDOFConstraint::Axis::TranslationX, MotorState::Off);
  c.set_motor_state(SixDOFConstraint::Axis::RotationZ, MotorState::Velocity);
  ASSERT_TRUE(c.set_target_velocity_cs(Vec3(-1.0f, 2.0f, 3.0f)).ok());
  ASSERT_TRUE(c.set_target_orientation_cs(Quat::rotation(Vec3(0.0f, 1.0f, 0.0f), 0.5f)).ok());
  r.step(2);
  ASSERT_EQ(restore(*r.world, saved), "");
  EXPECT_EQ(c.motor_state(SixDOFConstraint::Axis::TranslationX), MotorState::Velocity);
  EXPECT_EQ(c.motor_state(SixDOFConstraint::Axis::RotationZ), MotorState::Off);
  EXPECT_EQ(c.target_velocity_cs(), Vec3(0.3f, 0.0f, 0.0f));
  EXPECT_EQ(c.target_orientation_cs(),
            Quat::rotation(Vec3(1.0f, 0.0f, 0.0f), 0.1f).normalized().ensure_w_positive());
}

// The index of the first saved word named `name`.
size_t word_index(const Saved& saved, const std::string& name) {
  for (size_t i = 0; i < saved.names.size(); ++i)
    if (saved.names[i] == name) return i;
  ADD_FAILURE() << "no saved word " << name;
  return 0;
}

// A motor state that is no MotorState is refused, naming the field, and the constraint keeps
// every walked number (the walk stops at the first error).
TEST(ConstraintState, RestoringAnInvalidMotorStateFailsAndChangesNothing) {
  Rig r;
  make_hinge(r);
  r.step(10);
  auto& hinge = static_cast<HingeConstraint&>(*r.constraint);
  Saved bad = save(*r.world);
  bad.words[word_index(bad, "motor_state")] = 9;
  r.step(2);
  const Saved before = save(*r.world);
  EXPECT_EQ(restore(*r.world, bad), "constraint " + std::to_string(hinge.index()) +
                                        " motor_state: saved 9, not a motor state (0 … 3)");
  EXPECT_EQ(hinge.motor_state(), MotorState::PositionAndVelocity);
  EXPECT_EQ(save(*r.world).words, before.words);

  // One of six: all six are left alone.
  Rig r6;
  make_six_dof(r6);
  r6.step(3);
  auto& six = static_cast<SixDOFConstraint&>(*r6.constraint);
  Saved bad6 = save(*r6.world);
  bad6.words[word_index(bad6, "motor_state[0]")] = 0;  // would turn TranslationX's motor off
  bad6.words[word_index(bad6, "motor_state[4]")] = 4;
  const Saved before6 = save(*r6.world);
  EXPECT_EQ(restore(*r6.world, bad6), "constraint " + std::to_string(six.index()) +
                                          " motor_state[4]: saved 4, not a motor state (0 … 3)");
  EXPECT_EQ(six.motor_state(SixDOFConstraint::Axis::TranslationX), MotorState::Velocity);
  EXPECT_EQ(save(*r6.world).words, before6.words);
}

// A saved setting or target its setter would refuse is refused, naming the field; the field
// keeps its value.
TEST(ConstraintState, RestoringAnInvalidSettingOrTargetFails) {
  Rig r;
  make_hinge(r);
  r.step(5);
  auto& hinge = static_cast<HingeConstraint&>(*r.constraint);
  const std::string id = "constraint " + std::to_string(hinge.index()) + " ";
  const Saved good = save(*r.world);

  Saved bad = good;
  const float positive_min = 0.5f;  // the hinge's lower limit must be ≤ 0
  std::memcpy(&bad.words[word_index(bad, "limits_min")], &positive_min, sizeof(float));
  const std::string error = restore(*r.world, bad);
  EXPECT_EQ(error.rfind(id + "restoring limits_min: ", 0), 0u) << error;
  EXPECT_EQ(hinge.settings().limits_min, -0.4f);

  bad = good;
  const float nan = std::nanf("");
  std::memcpy(&bad.words[word_index(bad, "target_angle")], &nan, sizeof(float));
  EXPECT_EQ(restore(*r.world, bad), id + "target_angle: saved nan, must be finite");
  EXPECT_EQ(hinge.target_angle(), 0.2f);

  Rig p;
  make_path(p);
  p.step(5);
  auto& path = static_cast<PathConstraint&>(*p.constraint);
  Saved bad_path = save(*p.world);
  const float fraction = path.path_fraction();
  const float beyond = 7.0f;  // the s-curve's fractions run over [0, 3]
  std::memcpy(&bad_path.words[word_index(bad_path, "path_fraction")], &beyond, sizeof(float));
  EXPECT_EQ(restore(*p.world, bad_path), "constraint " + std::to_string(path.index()) +
                                             " path_fraction: saved 7.000000, not in [0, " +
                                             std::to_string(path.path().max_fraction()) + "]");
  EXPECT_EQ(path.path_fraction(), fraction);
}

// The field a component belongs to: "point_lambda" for "point_lambda.x", "motor_state" for
// "motor_state[4]".
std::string field_of(const std::string& component) {
  const size_t end = component.find_first_of(".[");
  return end == std::string::npos ? component : component.substr(0, end);
}

// A gear's or rack-and-pinion's reading of a coupled joint marks itself suspended with a last
// angle (hinge) or start (slider) that is not finite (CoupledJoints.h).
bool suspends_a_reading(const std::string& field) {
  const auto ends_with = [&](const std::string& tail) {
    return field.size() >= tail.size() &&
           field.compare(field.size() - tail.size(), tail.size(), tail) == 0;
  };
  return ends_with("_last_angle") || ends_with("_start");
}

// Every number a constraint walks is one a step leaves finite. Saved as NaN or ∞ (a hand-made
// or damaged state: a checksum proves only that the bytes are the ones written), each float of
// every type's walk is refused with its field named, and no non-finite number gets into the
// constraint (an accumulated impulse used to be taken as it was, and the next warm start put
// the NaN into both bodies). Only a slider's limits may be infinite (no limit on that side), and
// a coupled reading's mark of suspension is not finite.
TEST(ConstraintState, EveryWalkedNumberSavedNonFiniteIsRefusedByName) {
  const float k_bad[] = {std::numeric_limits<float>::quiet_NaN(),
                         std::numeric_limits<float>::infinity()};
  for (const TypeCase& t : k_types) {
    SCOPED_TRACE(t.name);
    Rig r;
    t.make(r);
    ASSERT_NE(r.constraint, nullptr);
    r.step(10);
    const Saved good = save(*r.world);
    size_t floats = 0;
    for (size_t i = 0; i < good.words.size(); ++i) {
      if (good.kinds[i] != Saved::Kind::floating) continue;
      ++floats;
      for (const float bad_value : k_bad) {
        SCOPED_TRACE(good.names[i] + " = " + float_text(bad_value));
        Saved bad = good;
        std::memcpy(&bad.words[i], &bad_value, sizeof(float));
        const std::string error = restore(*r.world, bad);
        const std::string field = field_of(good.names[i]);
        if (error.empty()) {
          // A slider's limits may be unbounded, and a coupled reading's last angle or start is
          // not finite while it is suspended: taken.
          EXPECT_TRUE((std::isinf(bad_value) && (field == "limits_min" || field == "limits_max")) ||
                      suspends_a_reading(field))
              << "taken";
          ASSERT_EQ(restore(*r.world, good), "");
          continue;
        }
        EXPECT_EQ(error.rfind("constraint ", 0), 0u) << error;
        EXPECT_NE(error.find(field), std::string::npos) << error;
        const Saved now = save(*r.world);
        for (size_t k = 0; k < now.words.size(); ++k) {
          if (now.kinds[k] != Saved::Kind::floating || suspends_a_reading(now.names[k])) continue;
          float value = 0.0f;
          std::memcpy(&value, &now.words[k], sizeof value);
          EXPECT_TRUE(std::isfinite(value)) << now.names[k] << " took " << float_text(value);
        }
        ASSERT_EQ(restore(*r.world, good), "");
      }
    }
    EXPECT_GT(floats, 0u);
  }
}

// The same through the world's own saved state: a NaN impulse in the bytes (the checksum made
// again, as a hand-made file would have it) is refused by name, and the world is as it was.
TEST(ConstraintState, AWorldStateWithANonFiniteImpulseIsRefusedAndChangesNothing) {
  Rig r;
  make_hinge(r);
  r.step(10);
  auto& hinge = static_cast<HingeConstraint&>(*r.constraint);
  StateRecorder saved;
  ASSERT_TRUE(r.world->system().save_state(saved).ok());
  // The bytes of the hinge's first accumulated impulse, found once in the saved state.
  const Saved walked = save_one(hinge);
  const uint32_t lambda = walked.words[word_index(walked, "point_lambda.x")];
  ASSERT_NE(lambda << 1, 0u) << "the impulse is 0";
  std::vector<uint8_t> bytes = saved.data();
  uint8_t pattern[4];
  std::memcpy(pattern, &lambda, sizeof pattern);
  const auto at = std::search(bytes.begin(), bytes.end(), pattern, pattern + 4);
  ASSERT_NE(at, bytes.end());
  ASSERT_EQ(std::search(at + 1, bytes.end(), pattern, pattern + 4), bytes.end())
      << "the impulse's bytes are found twice";
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(&*at, &nan, sizeof nan);
  StateRecorder bad;
  bad.set_data(bytes);
  bad.finish_save();

  r.step(2);
  StateRecorder before;
  ASSERT_TRUE(r.world->system().save_state(before).ok());
  const Status refused = r.world->system().restore_state(bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message(), "state: constraint " + std::to_string(hinge.index()) +
                                           " point_lambda.x: saved nan, must be finite");
  before.set_validating(true);
  const Status same = r.world->system().restore_state(before);
  EXPECT_TRUE(same.ok()) << same.error().message();
}

}  // namespace constraint_state_test
}  // namespace atl
