#include "atoll/state/WorldState.h"

#include <cmath>
#include <string>
#include <vector>

#include "atoll/math/MathState.h"

namespace atl {

namespace {

// The fewest bytes a saved body and constraint take (a corrupted count is checked against
// them): the body's id and fields, the constraint's index, type and enabled flag.
constexpr uint32_t k_min_body_bytes = 4 * (1 + 3 + 4 + 3 + 3 + 3 + 3 + 4 * 3 + 1 + 6) + 3;
constexpr uint32_t k_min_constraint_bytes = 4 + 4 + 1;

void walk_global(StateStream& s, const WorldStateRefs& w) {
  s.object("world", 0);
  visit_state(s, "gravity", w.gravity);
  uint32_t steps[2] = {static_cast<uint32_t>(w.step_count),
                       static_cast<uint32_t>(w.step_count >> 32)};
  s.u32s("step_count", steps, 2);
  if (s.restoring() && s.ok()) w.step_count = (uint64_t{steps[1]} << 32) | steps[0];
  w.contacts.visit_step_state(s);
  w.constraints.visit_step_state(s);
  if (s.restoring() && s.ok() &&
      !(w.gravity.is_finite() && w.gravity.abs().max_component() <= k_max_gravity))
    s.fail("gravity: each component must be finite and within ±" + std::to_string(k_max_gravity) +
           " m/s²");
}

// A restored body's state must be one the simulation could have left: finite numbers and a
// unit rotation (a state that passed its checksum was written by a save, but the format is
// open and a hand-made one must not put a non-finite body into the world).
bool plausible(const BodyState& state) {
  bool finite = state.com_position.is_finite() && state.rotation.is_finite() &&
                state.linear_velocity.is_finite() && state.angular_velocity.is_finite() &&
                Vec3(state.force).is_finite() && Vec3(state.torque).is_finite() &&
                std::isfinite(state.sleep_test_timer);
  for (const MotionProperties::SleepTestSphere& sphere : state.sleep_test_spheres)
    finite = finite && Vec3(sphere.center).is_finite() && std::isfinite(sphere.radius);
  // The tolerance the pose's users assert (Mat44::rotation): a rotation that passed a looser
  // test here failed that assert (found by the state_reader fuzz target).
  return finite && state.rotation.is_normalized();
}

void walk_body_fields(StateStream& s, BodyState& state, bool& in_broadphase, AABox& fat_box) {
  visit_state(s, "com_position", state.com_position);
  visit_state(s, "rotation", state.rotation);
  visit_state(s, "linear_velocity", state.linear_velocity);
  visit_state(s, "angular_velocity", state.angular_velocity);
  visit_state(s, "force", state.force);
  visit_state(s, "torque", state.torque);
  s.flag("active", state.active);
  s.flag("quarantined", state.quarantined);
  for (MotionProperties::SleepTestSphere& sphere : state.sleep_test_spheres) {
    visit_state(s, "sleep_test_sphere.center", sphere.center);
    visit_state(s, "sleep_test_sphere.radius", sphere.radius);
  }
  visit_state(s, "sleep_test_timer", state.sleep_test_timer);
  s.flag("in_broadphase", in_broadphase);
  visit_state(s, "fat_box.min", fat_box.min);
  visit_state(s, "fat_box.max", fat_box.max);
}

void walk_bodies(StateStream& s, const WorldStateRefs& w, const StateFilter* filter) {
  std::vector<Body*> bodies;
  if (!s.restoring())
    w.bodies.for_each_body([&](Body& body) {
      if (!body.is_static() && (filter == nullptr || filter->save_body(body)))
        bodies.push_back(&body);
    });
  uint32_t count = static_cast<uint32_t>(bodies.size());
  s.object("world", 0);
  s.count("bodies", count, k_min_body_bytes);
  for (uint32_t k = 0; k < count && s.ok(); ++k) {
    Body* body = s.restoring() ? nullptr : bodies[k];
    uint32_t id = body != nullptr ? body->id().value() : 0;
    s.object("body", body != nullptr ? body->id().index() : k);
    s.u32s("id", &id, 1);
    if (!s.ok()) return;
    if (s.restoring()) {
      s.object("body", BodyID(id).index());
      body = w.bodies.get(BodyID(id));
      if (body == nullptr || body->is_static()) {
        s.fail("(id " + std::to_string(id) + "): not a moving body of this world");
        return;
      }
    }
    BodyState state = w.bodies.body_state(*body);
    const uint32_t index = body->id().index();
    bool in_broadphase = w.broadphase.contains(index);
    AABox fat_box = in_broadphase ? w.broadphase.fat_box(index) : AABox();
    walk_body_fields(s, state, in_broadphase, fat_box);
    if (!s.restoring() || !s.ok()) continue;
    if (!plausible(state)) {
      s.fail("holds a number that is not finite, or a rotation that is not a unit quaternion");
      return;
    }
    if (in_broadphase != w.broadphase.contains(index)) {
      s.fail(in_broadphase ? "was in the world when saved, is not now"
                           : "was not in the world when saved, is now");
      return;
    }
    w.bodies.set_body_state(*body, state);
    if (in_broadphase) {
      if (Status set = w.broadphase.set_fat_box(index, fat_box); !set)
        s.fail(set.error().message());
    }
  }
}

void walk_constraints(StateStream& s, const WorldStateRefs& w, const StateFilter* filter) {
  const std::span<const Ref<Constraint>> all = w.constraints.constraints();
  std::vector<Constraint*> walked;
  if (!s.restoring())
    for (const Ref<Constraint>& c : all)
      if (filter == nullptr || filter->save_constraint(*c)) walked.push_back(c.get());
  uint32_t count = static_cast<uint32_t>(walked.size());
  s.object("world", 0);
  s.count("constraints", count, k_min_constraint_bytes);
  for (uint32_t k = 0; k < count && s.ok(); ++k) {
    Constraint* constraint = s.restoring() ? nullptr : walked[k];
    uint32_t index = constraint != nullptr ? constraint->index() : 0;
    s.object("constraint", constraint != nullptr ? index : k);
    s.u32s("index", &index, 1);
    if (!s.ok()) return;
    if (s.restoring()) {
      s.object("constraint", index);
      if (index >= all.size()) {
        s.fail("is not in this world (it has " + std::to_string(all.size()) + " constraints)");
        return;
      }
      constraint = all[index].get();
    }
    s.expect("type", static_cast<uint32_t>(constraint->sub_type()));
    constraint->visit_state(s);
  }
}

void walk(StateStream& s, const WorldStateRefs& w, StateParts parts, const StateFilter* filter) {
  if (has_part(parts, StateParts::global)) walk_global(s, w);
  if (has_part(parts, StateParts::bodies)) {
    walk_bodies(s, w, filter);
    // A soft body destroyed since the last update is still listed until that update drops it:
    // it has no state (its Body is gone, which a filter would have been given as a null
    // reference), and a state holding it could not be restored after the update.
    const std::function<bool(BodyID)> keep = [&](BodyID id) {
      const Body* body = w.bodies.get(id);
      return body != nullptr && (filter == nullptr || filter->save_body(*body));
    };
    if (s.ok()) w.soft_bodies.visit_state(s, keep);
    // A soft body's Body took the restored pose and placeholder shape's bounds: its vertices'
    // bounds are the ones queries need.
    if (s.restoring() && s.ok()) w.soft_bodies.sync_bodies(w.bodies);
  }
  if (has_part(parts, StateParts::contacts)) {
    std::function<bool(uint32_t, uint32_t)> keep;
    if (filter != nullptr)
      keep = [&](uint32_t key1, uint32_t key2) {
        const Body* body1 = w.bodies.get(BodyID(key1));
        const Body* body2 = w.bodies.get(BodyID(key2));
        return body1 != nullptr && body2 != nullptr && filter->save_contact(*body1, *body2);
      };
    s.object("world", 0);
    w.contacts.visit_cache_state(s, keep);
  }
  if (has_part(parts, StateParts::constraints)) walk_constraints(s, w, filter);
}

}  // namespace

void save_world_state(const WorldStateRefs& world, StateRecorder& recorder, StateParts parts,
                      const StateFilter* filter) {
  const std::unique_ptr<StateStream> writer = recorder.begin_save(parts);
  walk(*writer, world, parts, filter);
  ATOLL_ASSERT(writer->ok(), "saving cannot fail");
  recorder.finish_save();
}

Status restore_world_state(const WorldStateRefs& world, const StateRecorder& recorder) {
  const Result<StateParts> parts = recorder.check();
  if (!parts) return parts.error();
  const auto read = [&](StateStream& reader) -> Status {
    walk(reader, world, parts.value(), nullptr);
    if (!reader.ok()) return Error("state: " + reader.error());
    if (const uint64_t left = StateRecorder::unread_bytes(reader); left != 0)
      return Error("state: " + std::to_string(left) +
                   " bytes after the last field (saved from another kind of world)");
    return Ok{};
  };
  if (recorder.is_validating()) {
    const std::unique_ptr<StateStream> validator = recorder.begin_read(StateStream::Mode::validate);
    return read(*validator);
  }
  // Restoring writes as it reads: keep the world's own state of the same parts, and put it back
  // when the saved one turns out not to fit half way.
  StateRecorder backup;
  save_world_state(world, backup, parts.value(), nullptr);
  const std::unique_ptr<StateStream> restorer = recorder.begin_read(StateStream::Mode::restore);
  if (Status restored = read(*restorer); !restored) {
    const std::unique_ptr<StateStream> undo = backup.begin_read(StateStream::Mode::restore);
    walk(*undo, world, parts.value(), nullptr);
    ATOLL_ASSERT(undo->ok(), "restoring the world's own state cannot fail");
    return restored;
  }
  return Ok{};
}

void restore_own_world_state(const WorldStateRefs& world, const StateRecorder& recorder) {
  ATOLL_ASSERT(!recorder.is_validating());
  const Result<StateParts> parts = recorder.check();
  ATOLL_ASSERT(parts.ok(), "a state this world saved");
  const std::unique_ptr<StateStream> restorer = recorder.begin_read(StateStream::Mode::restore);
  walk(*restorer, world, parts.value(), nullptr);
  ATOLL_ASSERT(restorer->ok(), "a state this world saved fits it");
}

}  // namespace atl
