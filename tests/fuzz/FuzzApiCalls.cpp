// Fuzz target: sequences of calls on a PhysicsSystem and its BodyInterface. The bytes decode to
// up to k_max_calls calls: create bodies (sphere, box, capsule, cylinder, hull, mesh, compound,
// of fuzzed size; any motion type, quality, DOFs, material values), add, remove and destroy
// them, forces, torques and impulses, teleports, velocities, kinematic moves, motion type and
// shape changes, activation, quarantine release, gravity and solver settings, constraints
// (point, distance, hinge, fixed) between any bodies (also removed ones and invalid IDs),
// rollback snapshots saved and restored, soft bodies (ropes, cloth, pressure balls of fuzzed
// size, pins, compliance and damping, tied to any body) created and added, and steps with a fuzzed
// dt and sub-step count. Values come from ByteReader::real(): also 0, huge, NaN and ±∞. Checks:
// every rejection has a message; after every step every body that the engine has not quarantined
// has a finite pose and velocity; a restored snapshot gives back the world it was taken of (the
// same body IDs, constraints and saved state, byte for byte) and a valid broadphase.
#include <cstdint>
#include <string>
#include <vector>

#include "FuzzCommon.h"
#include "atoll/body/BodyCreationSettings.h"
#include "atoll/constraint/DistanceConstraint.h"
#include "atoll/constraint/FixedConstraint.h"
#include "atoll/constraint/HingeConstraint.h"
#include "atoll/constraint/PointConstraint.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/CapsuleShape.h"
#include "atoll/shape/ConvexHullShape.h"
#include "atoll/shape/CylinderShape.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/shape/StaticCompoundShape.h"
#include "atoll/shape/TriangleMeshShape.h"
#include "atoll/softbody/SoftBodyGenerators.h"
#include "atoll/state/WorldSnapshot.h"
#include "atoll/world/PhysicsSystem.h"

namespace fuzz_api_calls {

using atl::fuzz::accepted;
using atl::fuzz::ByteReader;

constexpr int k_max_calls = 64;
constexpr uint32_t k_max_bodies = 48;
constexpr int k_max_steps = 12;

// A size: mostly 0.05–2 m, sometimes any float.
float size(ByteReader& in) { return in.u8() < 16 ? in.real() : in.in_range(0.05f, 2.0f); }
// A position: mostly within ±20 m, sometimes any vector.
atl::Vec3 position(ByteReader& in) { return in.u8() < 16 ? in.vec3() : in.moderate_vec3(20.0f); }
// A velocity, force or impulse: mostly moderate, sometimes any vector.
atl::Vec3 vector(ByteReader& in) { return in.u8() < 32 ? in.vec3() : in.moderate_vec3(50.0f); }

atl::Ref<atl::Shape> make_shape(ByteReader& in, bool allow_compound = true) {
  using namespace atl;
  Result<Ref<Shape>> shape = Error("unset");
  switch (in.below(allow_compound ? 7 : 6)) {
    case 0:
      shape = SphereShapeSettings{size(in)}.create();
      break;
    case 1: {
      const float x = size(in), y = size(in);
      shape = BoxShapeSettings{Vec3(x, y, size(in))}.create();
      break;
    }
    case 2: {
      const float h = size(in);
      shape = CapsuleShapeSettings{h, size(in)}.create();
      break;
    }
    case 3: {
      const float h = size(in);
      shape = CylinderShapeSettings{h, size(in)}.create();
      break;
    }
    case 4: {
      ConvexHullShapeSettings s;
      const uint32_t n = in.below(13);
      const float scale = size(in);
      for (uint32_t i = 0; i < n; ++i) s.points.push_back(in.moderate_vec3(1.0f) * scale);
      shape = s.create();
      break;
    }
    case 5: {
      // A small mesh: a quad of fuzzed size, tilted.
      TriangleMeshShapeSettings s;
      const float half = in.u8() < 16 ? in.real() : in.in_range(1.0f, 20.0f);
      const float tilt = in.in_range(-1.0f, 1.0f);
      s.vertices = {
          {-half, -tilt, -half}, {half, tilt, -half}, {half, tilt, half}, {-half, -tilt, half}};
      s.triangles = {IndexedTriangle{{0, 2, 1}}, IndexedTriangle{{0, 3, 2}}};
      shape = s.create();
      break;
    }
    default: {
      StaticCompoundShapeSettings s;
      const uint32_t n = 1 + in.below(3);
      for (uint32_t i = 0; i < n; ++i) {
        StaticCompoundShapeSettings::Child child;
        child.shape = make_shape(in, false);
        child.position = in.moderate_vec3(1.0f);
        child.rotation = in.quat();
        s.children.push_back(std::move(child));
      }
      shape = s.create();
      break;
    }
  }
  if (!accepted(shape, "shape settings create")) return nullptr;
  return *shape;
}

class Session {
 public:
  explicit Session(ByteReader& in) : in_(in) {}

  void run() {
    for (int call = 0; call < k_max_calls && !in_.empty(); ++call) one_call();
  }

 private:
  // A body ID: mostly one created so far (maybe removed or destroyed since), sometimes any
  // value.
  atl::BodyID any_body() {
    if (ids_.empty() || in_.u8() < 8) return atl::BodyID(in_.u32());
    return ids_[in_.below(uint32_t(ids_.size()))];
  }
  atl::Activation activation() {
    return in_.boolean() ? atl::Activation::Activate : atl::Activation::DontActivate;
  }
  atl::Ref<atl::Constraint> constraint(atl::BodyID a, atl::BodyID b) {
    using namespace atl;
    const bool local = in_.u8() < 64;
    const ConstraintSpace space =
        local ? ConstraintSpace::LocalToBodyCOM : ConstraintSpace::WorldSpace;
    ConstraintSettings common;
    if (in_.u8() < 32) common.break_impulse = in_.real();
    Result<Ref<Constraint>> made = Error("unset");
    switch (in_.below(4)) {
      case 0: {
        PointConstraintSettings s;
        s.common = common, s.space = space, s.point1 = position(in_), s.point2 = position(in_);
        made = s.create(system_.body_interface(), a, b);
        break;
      }
      case 1: {
        DistanceConstraintSettings s;
        s.common = common, s.space = space, s.point1 = position(in_), s.point2 = position(in_);
        if (in_.boolean()) s.min_distance = in_.real();
        if (in_.boolean()) s.max_distance = in_.real();
        if (in_.boolean()) s.limits_spring_settings.frequency = in_.real();
        made = s.create(system_.body_interface(), a, b);
        break;
      }
      case 2: {
        HingeConstraintSettings s;
        s.common = common, s.space = space, s.point1 = position(in_), s.point2 = position(in_);
        if (in_.boolean()) s.hinge_axis1 = s.hinge_axis2 = in_.vec3();
        if (in_.boolean()) s.limits_min = in_.real();
        if (in_.boolean()) s.limits_max = in_.real();
        if (in_.boolean()) s.max_friction_torque = in_.real();
        made = s.create(system_.body_interface(), a, b);
        break;
      }
      default: {
        FixedConstraintSettings s;
        s.common = common, s.space = space, s.point1 = position(in_), s.point2 = position(in_);
        if (local) s.relative_rotation = in_.quat();
        made = s.create(system_.body_interface(), a, b);
        break;
      }
    }
    if (!accepted(made, "constraint settings create")) return nullptr;
    return *made;
  }

  void create_body() {
    using namespace atl;
    if (ids_.size() >= k_max_bodies) return;
    const Ref<Shape> shape = make_shape(in_);
    BodyCreationSettings s(shape, position(in_), in_.quat(), MotionType(in_.below(3)));
    if (in_.boolean()) s.linear_velocity = vector(in_);
    if (in_.boolean()) s.angular_velocity = vector(in_);
    s.motion_quality = MotionQuality(in_.below(2));
    if (in_.u8() < 32) s.allowed_dofs = AllowedDOFs(in_.below(64));
    if (in_.u8() < 32) s.friction = in_.real();
    if (in_.u8() < 32) s.restitution = in_.real();
    if (in_.u8() < 32) s.linear_damping = in_.real();
    if (in_.u8() < 32) s.angular_damping = in_.real();
    if (in_.u8() < 32) s.max_linear_velocity = in_.real();
    if (in_.u8() < 32) s.max_angular_velocity = in_.real();
    if (in_.u8() < 32) s.gravity_factor = in_.real();
    if (in_.u8() < 64) s.override_mass = in_.real();
    if (in_.u8() < 32) s.rolling_resistance = in_.real();
    if (in_.u8() < 32) s.torsional_friction = in_.real();
    s.allow_sleeping = in_.boolean();
    s.is_sensor = in_.u8() < 16;
    BodyInterface& bodies = system_.body_interface();
    const Result<BodyID> id =
        in_.boolean() ? bodies.create_and_add_body(s, activation()) : bodies.create_body(s);
    if (accepted(id, "create_body")) ids_.push_back(*id);
  }

  void step() {
    const float dt = in_.u8() < 16 ? in_.real() : in_.in_range(1.0e-4f, 0.1f);
    const int collision_steps = in_.u8() < 8 ? int(int8_t(in_.u8())) : 1 + int(in_.below(3));
    const atl::Result<atl::UpdateResult> result = system_.update(dt, collision_steps);
    (void)accepted(result, "PhysicsSystem::update");
    atl::fuzz::check_world_finite(system_);
    ++steps_;
  }

  void one_call() {
    using namespace atl;
    BodyInterface& bodies = system_.body_interface();
    switch (in_.below(25)) {
      case 0:
      case 1:
        create_body();
        break;
      case 2:
        (void)accepted(bodies.add_body(any_body(), activation()), "add_body");
        break;
      case 3:
        (void)accepted(bodies.remove_body(any_body()), "remove_body");
        break;
      case 4:
        (void)accepted(bodies.destroy_body(any_body()), "destroy_body");
        break;
      case 5: {
        const BodyID id = any_body();
        const Vec3 force = vector(in_);
        (void)accepted(in_.boolean() ? bodies.add_force(id, force)
                                     : bodies.add_force(id, force, position(in_)),
                       "add_force");
        break;
      }
      case 6: {
        const BodyID id = any_body();
        const Vec3 impulse = vector(in_);
        (void)accepted(in_.boolean() ? bodies.add_impulse(id, impulse)
                                     : bodies.add_impulse(id, impulse, position(in_)),
                       "add_impulse");
        break;
      }
      case 7: {
        const BodyID id = any_body();
        const Vec3 v = vector(in_);
        (void)accepted(in_.boolean() ? bodies.add_torque(id, v) : bodies.add_angular_impulse(id, v),
                       "add_torque/add_angular_impulse");
        break;
      }
      case 8: {
        const BodyID id = any_body();
        const Vec3 p = position(in_);
        (void)accepted(bodies.set_position(id, p, activation()), "set_position");
        break;
      }
      case 9: {
        const BodyID id = any_body();
        const Quat q = in_.quat();
        (void)accepted(bodies.set_rotation(id, q, activation()), "set_rotation");
        break;
      }
      case 10: {
        const BodyID id = any_body();
        const Vec3 v = vector(in_);
        (void)accepted(
            in_.boolean() ? bodies.set_linear_velocity(id, v) : bodies.set_angular_velocity(id, v),
            "set_linear_velocity/set_angular_velocity");
        break;
      }
      case 11: {
        const BodyID id = any_body();
        const Vec3 p = position(in_);
        const Quat q = in_.quat();
        const float dt = in_.u8() < 32 ? in_.real() : 1.0f / 60.0f;
        (void)accepted(bodies.move_kinematic(id, p, q, dt), "move_kinematic");
        break;
      }
      case 12: {
        const BodyID id = any_body();
        (void)accepted(bodies.set_motion_type(id, MotionType(in_.below(3)), activation()),
                       "set_motion_type");
        break;
      }
      case 13: {
        const BodyID id = any_body();
        (void)accepted(bodies.set_motion_quality(id, MotionQuality(in_.below(2))),
                       "set_motion_quality");
        break;
      }
      case 14: {
        const BodyID id = any_body();
        (void)accepted(bodies.set_shape(id, make_shape(in_), activation()), "set_shape");
        break;
      }
      case 15: {
        const BodyID id = any_body();
        switch (in_.below(4)) {
          case 0:
            (void)accepted(bodies.activate(id), "activate");
            break;
          case 1:
            (void)accepted(bodies.deactivate(id), "deactivate");
            break;
          case 2:
            (void)accepted(bodies.release_quarantine(id, activation()), "release_quarantine");
            break;
          default:
            (void)accepted(bodies.set_gravity_factor(id, in_.real()), "set_gravity_factor");
            break;
        }
        break;
      }
      case 16: {
        const BodyID id = any_body();
        const float value = in_.real();
        (void)accepted(
            in_.boolean() ? bodies.set_friction(id, value) : bodies.set_restitution(id, value),
            "set_friction/set_restitution");
        break;
      }
      case 17: {
        PhysicsSettings settings = system_.settings();
        switch (in_.below(4)) {
          case 0:
            settings.gravity = vector(in_);
            break;
          case 1:
            settings.velocity_steps = int(int8_t(in_.u8()));
            settings.position_steps = int(int8_t(in_.u8()));
            break;
          case 2:
            settings.baumgarte = in_.real();
            settings.penetration_slop = in_.real();
            break;
          default:
            settings.use_large_island_splitter = in_.boolean();
            settings.use_wide_contact_solver = in_.boolean();
            settings.allow_sleeping = in_.boolean();
            settings.speculative_contacts_from_velocity = in_.boolean();
            break;
        }
        (void)accepted(system_.set_settings(settings), "set_settings");
        break;
      }
      case 18:
      case 19: {
        const BodyID a = any_body(), b = any_body();
        const Ref<Constraint> c = constraint(a, b);
        if (c != nullptr && accepted(system_.add_constraint(c), "add_constraint"))
          constraints_.push_back(c);
        break;
      }
      case 20:
        if (!constraints_.empty()) {
          const uint32_t i = in_.below(uint32_t(constraints_.size()));
          (void)accepted(system_.remove_constraint(constraints_[i]), "remove_constraint");
          if (in_.boolean()) constraints_.erase(constraints_.begin() + i);
        }
        break;
      case 21:
        save_snapshot(snapshots_[in_.below(k_snapshots)]);
        break;
      case 22:
        restore_snapshot(snapshots_[in_.below(k_snapshots)]);
        break;
      case 23:
        create_soft_body();
        break;
      default:
        if (steps_ < k_max_steps) step();
        break;
    }
  }

  // A soft body of fuzzed parameters (mostly small, sometimes any value), maybe pinned, maybe
  // tied to a body, maybe added. A rejection must have a message.
  void create_soft_body() {
    using namespace atl;
    const auto value = [&](float lo, float hi) {
      return in_.u8() < 16 ? in_.real() : in_.in_range(lo, hi);
    };
    Result<Ref<SoftBodySettings>> made = Error("none");
    switch (in_.below(3)) {
      case 0:
        made = make_rope(position(in_), position(in_), 1 + in_.below(12), value(0.1f, 5.0f),
                         value(0.0f, 1.0e-3f), value(0.0f, 1.0e-2f), value(0.0f, 0.1f));
        break;
      case 1:
        made = make_cloth(position(in_), value(0.2f, 3.0f), value(0.2f, 3.0f), 2 + in_.below(8),
                          2 + in_.below(8), value(0.1f, 5.0f), value(0.0f, 1.0e-3f),
                          value(0.0f, 1.0e-2f));
        break;
      default:
        made = make_pressure_ball(position(in_), value(0.1f, 1.0f), in_.below(3), value(0.1f, 5.0f),
                                  value(0.5f, 2.0f), value(0.0f, 1.0e-3f));
        break;
    }
    if (!accepted(made, "make_soft_body")) return;
    Ref<SoftBodySettings> settings = made.value();
    if (in_.boolean())
      settings->vertices[in_.below(uint32_t(settings->vertices.size()))].inverse_mass = 0.0f;
    if (in_.u8() < 32) settings->linear_damping = in_.real();
    if (in_.u8() < 32) settings->friction = in_.real();
    if (in_.u8() < 32) settings->vertex_radius = in_.real();
    SoftBodyCreationSettings creation;
    creation.settings = settings;
    if (in_.boolean())
      creation.ties.push_back({in_.below(uint32_t(settings->vertices.size()) + 2), any_body()});
    const Result<BodyID> id = system_.body_interface().create_soft_body(creation);
    if (!accepted(id, "create_soft_body")) return;
    ids_.push_back(*id);
    if (in_.boolean())
      (void)accepted(system_.body_interface().add_body(*id, activation()), "add_body");
  }

  // A rollback snapshot with what the world looked like when it was taken, to check the restore.
  struct Snapshot {
    atl::WorldSnapshot world;
    std::vector<atl::BodyID> ids;
    std::vector<const atl::Constraint*> constraints;
    std::vector<uint8_t> state;
  };
  static constexpr uint32_t k_snapshots = 2;

  // The world's outline and whole saved state.
  void describe(std::vector<atl::BodyID>& ids, std::vector<const atl::Constraint*>& constraints,
                std::vector<uint8_t>& state) const {
    ids = system_.bodies().body_ids();
    constraints.clear();
    for (const atl::Ref<atl::Constraint>& c : system_.constraints()) constraints.push_back(c.get());
    atl::StateRecorder recorder;
    (void)system_.save_state(recorder);
    state = recorder.data();
  }

  void save_snapshot(Snapshot& snapshot) {
    (void)system_.save_snapshot(snapshot.world);
    describe(snapshot.ids, snapshot.constraints, snapshot.state);
  }

  void restore_snapshot(const Snapshot& snapshot) {
    const atl::Status restored = system_.restore_snapshot(snapshot.world);
    if (snapshot.world.empty()) {
      atl::fuzz::check(!restored.ok(), "restore_snapshot: an empty snapshot was accepted");
      (void)accepted(restored, "restore_snapshot");
      return;
    }
    atl::fuzz::check(restored.ok(),
                     std::string("restore_snapshot: refused a snapshot of this world: ") +
                         (restored.ok() ? "" : restored.error().message()));
    Snapshot now;
    describe(now.ids, now.constraints, now.state);
    atl::fuzz::check(now.ids == snapshot.ids, "restore_snapshot: other body IDs");
    atl::fuzz::check(now.constraints == snapshot.constraints,
                     "restore_snapshot: other constraints");
    atl::fuzz::check(now.state == snapshot.state, "restore_snapshot: another state");
    const atl::Status valid = system_.broadphase().validate();
    atl::fuzz::check(valid.ok(), std::string("restore_snapshot: broadphase: ") +
                                     (valid.ok() ? "" : valid.error().message()));
    atl::fuzz::check_world_finite(system_);
  }

  ByteReader& in_;
  atl::PhysicsSystem system_;
  std::vector<atl::BodyID> ids_;
  std::vector<atl::Ref<atl::Constraint>> constraints_;
  Snapshot snapshots_[k_snapshots];
  int steps_ = 0;
};

}  // namespace fuzz_api_calls

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  atl::fuzz::ByteReader in(data, size);
  fuzz_api_calls::Session session(in);
  session.run();
  return 0;
}
