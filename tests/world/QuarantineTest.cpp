// Quarantine of bodies whose state goes non-finite during a step (DESIGN.md §7): the API edge
// rejects NaN and infinite input, but finite input can still overflow inside the step. Two
// ways to get there through the public API alone: two forces of 3e38 N, each finite, whose sum
// overflows the force accumulator to infinity; and a contact listener that gives a contact an
// infinite inverse-mass scale. Either way the body must be put back where it started the step,
// at rest, asleep, out of collision detection, and reported — and the rest of the world must
// not notice.

#include <gtest/gtest.h>

#include <bit>
#include <limits>
#include <vector>

#include "atoll/shape/BoxShape.h"
#include "atoll/world/PhysicsSystem.h"
#include "atoll/world/WorldQuery.h"

namespace atl {
namespace quarantine_test {
namespace {

constexpr float k_dt = 1.0f / 60.0f;
constexpr float k_huge_force = 3.0e38f;  // finite; twice that is not

struct World {
  World() {
    floor_shape = BoxShapeSettings{Vec3(10, 1, 10)}.create().value();
    box_shape = BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value();
    floor = bodies()
                .create_and_add_body({floor_shape, Vec3(0, -1, 0), Quat(), MotionType::Static},
                                     Activation::DontActivate)
                .value();
  }
  BodyInterface& bodies() { return system.body_interface(); }
  BodyID add_box(const Vec3& position, const Quat& rotation = Quat()) {
    return bodies()
        .create_and_add_body({box_shape, position, rotation, MotionType::Dynamic},
                             Activation::Activate)
        .value();
  }
  UpdateResult step() { return system.update(k_dt).value(); }
  PhysicsSystem system;
  Ref<Shape> floor_shape, box_shape;
  BodyID floor;
};

// Bit patterns, so that "restored exactly" means exactly.
std::vector<uint32_t> bits(const Vec3& v) {
  return {std::bit_cast<uint32_t>(v.x()), std::bit_cast<uint32_t>(v.y()),
          std::bit_cast<uint32_t>(v.z())};
}
std::vector<uint32_t> bits(const Quat& q) {
  return {std::bit_cast<uint32_t>(q.x()), std::bit_cast<uint32_t>(q.y()),
          std::bit_cast<uint32_t>(q.z()), std::bit_cast<uint32_t>(q.w())};
}
std::vector<uint32_t> state_bits(const Body& body) {
  std::vector<uint32_t> out = bits(body.center_of_mass_position());
  for (uint32_t b : bits(body.rotation())) out.push_back(b);
  for (uint32_t b : bits(body.linear_velocity())) out.push_back(b);
  for (uint32_t b : bits(body.angular_velocity())) out.push_back(b);
  return out;
}

TEST(Quarantine, ForceOverflowPutsTheBodyBackAtItsStartPoseAtRestAndReportsIt) {
  World world;
  // Tumbling in the air, so that the restored pose is neither the creation pose nor axis-aligned.
  const BodyID box = world.add_box(Vec3(0, 5, 0), Quat::rotation(Vec3(1, 0, 0), 0.3f));
  ASSERT_TRUE(world.bodies().set_angular_velocity(box, Vec3(0, 2, 1)).ok());
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(world.step().quarantined.empty());
  const Body& body = *world.bodies().body(box).value();
  const Vec3 com_before = body.center_of_mass_position();
  const Vec3 position_before = body.position();
  const Quat rotation_before = body.rotation();

  // Each call is valid input; the accumulated force is not.
  ASSERT_TRUE(world.bodies().add_force(box, Vec3(k_huge_force, 0, 0)).ok());
  ASSERT_TRUE(world.bodies().add_force(box, Vec3(k_huge_force, 0, 0)).ok());
  const UpdateResult result = world.step();

  ASSERT_EQ(result.quarantined, std::vector<BodyID>{box});
  EXPECT_EQ(bits(body.center_of_mass_position()), bits(com_before));
  EXPECT_EQ(bits(body.position()), bits(position_before));
  EXPECT_EQ(bits(body.rotation()), bits(rotation_before));
  EXPECT_EQ(body.linear_velocity(), Vec3::zero());
  EXPECT_EQ(body.angular_velocity(), Vec3::zero());
  EXPECT_EQ(body.motion_properties()->accumulated_force(), Vec3::zero());
  EXPECT_FALSE(body.is_active());
  EXPECT_TRUE(world.bodies().is_quarantined(box).value());
  EXPECT_TRUE(body.is_added());
  EXPECT_FALSE(world.system.broadphase().contains(box.index()));
  EXPECT_EQ(result.num_active_bodies, 0u);
}

TEST(Quarantine, AQuarantinedBodyStaysOutUntilReleased) {
  World world;
  const BodyID box = world.add_box(Vec3(0, 5, 0));
  ASSERT_TRUE(world.bodies().add_force(box, Vec3(0, k_huge_force, 0)).ok());
  ASSERT_TRUE(world.bodies().add_force(box, Vec3(0, k_huge_force, 0)).ok());
  ASSERT_EQ(world.step().quarantined.size(), 1u);
  const Vec3 parked = world.bodies().position(box).value();

  // Nothing wakes it: not activate() (an error that says why), not a push, not being re-added.
  const Status activated = world.bodies().activate(box);
  ASSERT_FALSE(activated.ok());
  EXPECT_NE(std::string(activated.error().message()).find("is quarantined"), std::string::npos)
      << activated.error().message();
  EXPECT_TRUE(world.bodies().add_impulse(box, Vec3(0, 1, 0)).ok());
  ASSERT_TRUE(world.bodies().remove_body(box).ok());
  ASSERT_TRUE(world.bodies().add_body(box, Activation::Activate).ok());
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(world.step().quarantined.empty());
  EXPECT_FALSE(world.bodies().is_active(box).value());
  EXPECT_EQ(world.bodies().position(box).value(), parked);
  EXPECT_FALSE(world.system.broadphase().contains(box.index()));
  // No query finds it either.
  EXPECT_TRUE(WorldQuery(world.system).collide_point(parked).value().empty());

  // The user may fix it up (here: move it) and release it; then it falls as any body.
  ASSERT_TRUE(world.bodies().set_position(box, Vec3(0, 2, 0)).ok());
  EXPECT_FALSE(world.bodies().is_active(box).value());
  ASSERT_TRUE(world.bodies().release_quarantine(box).ok());
  EXPECT_FALSE(world.bodies().is_quarantined(box).value());
  EXPECT_TRUE(world.bodies().is_active(box).value());
  EXPECT_TRUE(world.system.broadphase().contains(box.index()));
  for (int i = 0; i < 120; ++i) EXPECT_TRUE(world.step().quarantined.empty());
  // Resting on the floor (top at y = 0), centre half a metre up.
  EXPECT_NEAR(world.bodies().position(box).value().y(), 0.5f, 0.03f);
  // Releasing twice is an error naming the call.
  const Status again = world.bodies().release_quarantine(box);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(std::string(again.error().message()).find("is not quarantined"), std::string::npos)
      << again.error().message();
}

// Gives every contact of `target` an infinite inverse-mass scale while `poison` is set.
class PoisonListener : public ContactListener {
 public:
  explicit PoisonListener(BodyID target) : target_(target) {}
  void on_contact_added(const Body& body1, const Body& body2, const ContactManifold&,
                        ContactSettings& settings) override {
    poison_contact(body1, body2, settings);
  }
  void on_contact_persisted(const Body& body1, const Body& body2, const ContactManifold&,
                            ContactSettings& settings) override {
    poison_contact(body1, body2, settings);
  }
  void on_contact_events(std::span<const ContactEvent> events) override {
    for (const ContactEvent& e : events)
      if (e.type == ContactEventType::Removed && (e.body1 == target_ || e.body2 == target_))
        ++removed_with_target;
  }
  bool poison = true;
  int removed_with_target = 0;

 private:
  void poison_contact(const Body& body1, const Body& body2, ContactSettings& settings) const {
    if (!poison) return;
    constexpr float k_inf = std::numeric_limits<float>::infinity();
    if (body1.id() == target_) settings.mass_scales.inv_mass1 = k_inf;
    if (body2.id() == target_) settings.mass_scales.inv_mass2 = k_inf;
  }
  BodyID target_;
};

// An infinite mass scale from a listener never reaches the solver: the world keeps the
// contact's default settings and reports the listener's value (PhysicsSystemTest has the exact
// message), so there is nothing to quarantine.
TEST(Quarantine, AContactListenersInfiniteMassScaleIsRejectedBeforeItPoisonsAnything) {
  World world;
  const BodyID healthy = world.add_box(Vec3(-3, 0.5f, 0));
  const BodyID victim = world.add_box(Vec3(3, 0.5f, 0));
  PoisonListener listener(victim);
  world.system.set_contact_listener(&listener);

  const UpdateResult first = world.step();
  EXPECT_TRUE(first.quarantined.empty());
  // The dynamic victim is the listener's body1 against the static floor (ContactListener.h).
  EXPECT_TRUE(first.has(UpdateError::invalid_contact_settings));
  EXPECT_EQ(first.rejected_settings_field, "mass_scales.inv_mass1 = inf") << first.to_string();
  EXPECT_TRUE(world.bodies().is_active(healthy).value());
  EXPECT_TRUE(world.bodies().position(victim).value().is_finite());
  const UpdateResult second = world.step();
  EXPECT_TRUE(second.quarantined.empty());
  EXPECT_EQ(listener.removed_with_target, 0);
  EXPECT_EQ(second.num_manifolds, 2u);  // both boxes still stand on the floor
}

// A box resting on the poisoned one, and one elsewhere on the same floor, for 60 steps; the
// poison (at step 20) optional. Returns the world's states after every step.
struct SharedFloorRun {
  std::vector<std::vector<uint32_t>> elsewhere;
  std::vector<UpdateResult> results;
  bool top_finite = true;
};
SharedFloorRun run_shared_floor(bool poison) {
  World world;
  const BodyID bottom = world.add_box(Vec3(0, 0.5f, 0));
  const BodyID top = world.add_box(Vec3(0, 1.5f, 0));
  const BodyID elsewhere = world.add_box(Vec3(5, 0.5f, 0));
  SharedFloorRun run;
  for (int step = 0; step < 60; ++step) {
    if (poison && step == 20) {
      EXPECT_TRUE(world.bodies().add_force(bottom, Vec3(k_huge_force, 0, 0)).ok());
      EXPECT_TRUE(world.bodies().add_force(bottom, Vec3(k_huge_force, 0, 0)).ok());
    }
    run.results.push_back(world.step());
    run.elsewhere.push_back(state_bits(*world.bodies().body(elsewhere).value()));
    run.top_finite &= world.bodies().position(top).value().is_finite();
  }
  return run;
}

TEST(Quarantine, NothingSpreadsThroughItsContactsOrThroughTheFloorItSharesWithOthers) {
  // In the step it goes bad, the poisoned box's NaN velocity enters the contact solve with the
  // box on top of it and with the floor. Its impulses are dropped (AxisConstraintPart::apply),
  // so the box on top just loses its support for that step, and the floor's solver entry —
  // which the island of the box elsewhere shares — stays clean (0 · NaN would not).
  const SharedFloorRun clean = run_shared_floor(false);
  const SharedFloorRun poisoned = run_shared_floor(true);
  for (int step = 0; step < 60; ++step) {
    EXPECT_EQ(poisoned.results[step].quarantined.size(), step == 20 ? 1u : 0u) << step;
    ASSERT_EQ(poisoned.elsewhere[step], clean.elsewhere[step]) << "step " << step;
  }
  // Only the bottom box (index 1, after the floor).
  EXPECT_EQ(poisoned.results[20].quarantined, std::vector<BodyID>{BodyID(1, 0)});
  EXPECT_TRUE(poisoned.top_finite);
}

// Runs a small world — a falling box, a box sliding on the floor, a stack of two — for 90
// steps, with or without an extra body far away that is poisoned at step 30. Returns the
// state of the shared bodies after every step.
std::vector<std::vector<uint32_t>> run_neighbours(bool with_poisoned_body) {
  World world;
  std::vector<BodyID> shared = {world.add_box(Vec3(-4, 3, 0), Quat::rotation(Vec3(0, 0, 1), 0.4f)),
                                world.add_box(Vec3(0, 0.5f, 4)), world.add_box(Vec3(3, 0.5f, -2)),
                                world.add_box(Vec3(3, 1.5f, -2))};
  EXPECT_TRUE(world.bodies().set_linear_velocity(shared[1], Vec3(2, 0, 0)).ok());
  // Created last, so that the shared bodies get the same IDs in both worlds; above the floor's
  // far corner and falling off it, so that it touches nothing.
  BodyID poisoned;
  if (with_poisoned_body) poisoned = world.add_box(Vec3(40, 5, 40));
  std::vector<std::vector<uint32_t>> states;
  for (int step = 0; step < 90; ++step) {
    if (with_poisoned_body && step == 30) {
      EXPECT_TRUE(world.bodies().add_torque(poisoned, Vec3(k_huge_force, 0, 0)).ok());
      EXPECT_TRUE(world.bodies().add_torque(poisoned, Vec3(k_huge_force, 0, 0)).ok());
    }
    const UpdateResult result = world.step();
    if (with_poisoned_body) {
      EXPECT_EQ(result.quarantined.size(), step == 30 ? 1u : 0u) << "step " << step;
    }
    std::vector<uint32_t> state;
    for (BodyID id : shared)
      for (uint32_t b : state_bits(*world.bodies().body(id).value())) state.push_back(b);
    states.push_back(std::move(state));
  }
  return states;
}

TEST(Quarantine, TheOtherBodiesSimulateBitForBitAsIfThePoisonedBodyWereAbsent) {
  const std::vector<std::vector<uint32_t>> without = run_neighbours(false);
  const std::vector<std::vector<uint32_t>> with = run_neighbours(true);
  ASSERT_EQ(without.size(), with.size());
  for (size_t step = 0; step < without.size(); ++step)
    ASSERT_EQ(without[step], with[step]) << "step " << step;
}

}  // namespace
}  // namespace quarantine_test
}  // namespace atl
