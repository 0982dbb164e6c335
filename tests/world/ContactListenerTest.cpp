// The contact listener and sensors (issue 7, items 12–14): when validation runs, the body order
// listeners see, and what sensors report. Each test's comment gives the symptom with the
// numbers before the fix, the cause, the fix and the reading after.

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "laws/LawFixture.h"

namespace atl {
namespace contact_listener_test {
namespace {

using laws::BodyOptions;
using laws::LawWorld;

PhysicsSettings weightless() {
  PhysicsSettings s;
  s.gravity = Vec3::zero();
  return s;
}

// Counts the calls and keeps the events and the bodies' order.
struct Recorder : ContactListener {
  int validates = 0;
  int added = 0;
  std::vector<std::pair<BodyID, BodyID>> added_order;
  std::vector<ContactEvent> events;
  ValidateResult on_contact_validate(const Body&, const Body&) override {
    ++validates;
    return ValidateResult::Accept;
  }
  void on_contact_added(const Body& b1, const Body& b2, const ContactManifold&,
                        ContactSettings&) override {
    ++added;
    added_order.emplace_back(b1.id(), b2.id());
  }
  void on_contact_events(std::span<const ContactEvent> e) override {
    events.insert(events.end(), e.begin(), e.end());
  }
  int count(ContactEventType type) const {
    int n = 0;
    for (const ContactEvent& e : events) n += e.type == type ? 1 : 0;
    return n;
  }
};

// Item 12. Symptom: on_contact_validate ran for every broadphase pair before the narrow phase:
// two spheres whose bounding boxes overlap but whose surfaces are 0.27 m apart were validated
// every step (10 calls in 10 steps). Cause: narrow_phase called it before collide_shapes. Fix:
// it runs once the narrow phase has found a contact (within the speculative distance), as in
// Jolt. After: 0 calls for the pair that does not touch; a touching pair is validated when it
// is collided.
TEST(ContactListener, ValidateRunsOnlyForPairsThatTouch) {
  LawWorld w(weightless());
  Recorder r;
  w.system().set_contact_listener(&r);
  w.add_sphere(0.5f, Vec3(0.0f, 0.0f, 0.0f));
  w.add_sphere(0.5f, Vec3(0.9f, 0.9f, 0.0f));
  for (int i = 0; i < 10; ++i) EXPECT_EQ(w.step().num_body_pairs, 1u);
  std::printf("  validate calls for a pair apart: %d in 10 steps\n", r.validates);
  EXPECT_EQ(r.validates, 0);
  EXPECT_TRUE(r.events.empty());

  LawWorld touching(weightless());
  Recorder t;
  touching.system().set_contact_listener(&t);
  touching.add_sphere(0.5f, Vec3(0.0f, 0.0f, 0.0f));
  touching.add_sphere(0.5f, Vec3(1.01f, 0.0f, 0.0f));  // 10 mm gap: a speculative contact
  touching.step();
  EXPECT_EQ(t.validates, 1);
  EXPECT_EQ(t.added, 1);
}

// Item 13. Symptom: callbacks and events gave the lower body ID first: a box (ID 1) resting on
// a static floor (ID 0) came as (floor, box), and a dynamic box (ID 3) on a kinematic platform
// (ID 2) as (platform, box). Cause: the narrow phase ordered pairs by ID for its cache and
// passed that order on. Fix: the listener and the events see the more dynamic body first
// (dynamic > kinematic > static; ties: lower ID), with the manifold, normal and sub-shapes
// flipped to match; the cache keeps its ID order. After: (box, floor), normal from the box to
// the floor (−y), point on the floor; (box, platform).
TEST(ContactListener, TheMoreDynamicBodyComesFirst) {
  PhysicsSettings s;
  LawWorld w(s);
  Recorder r;
  w.system().set_contact_listener(&r);
  const BodyID floor = w.add_floor();
  const BodyID box = w.add_box(Vec3(0.5f, 0.5f, 0.5f), Vec3(0.0f, 0.5f, 0.0f));
  BodyOptions kinematic;
  kinematic.motion_type = MotionType::Kinematic;
  const BodyID platform = w.add_box(Vec3(1.0f, 0.1f, 1.0f), Vec3(5.0f, 2.0f, 0.0f), kinematic);
  const BodyID rider = w.add_box(Vec3(0.5f, 0.5f, 0.5f), Vec3(5.0f, 2.6f, 0.0f));
  ASSERT_LT(floor.value(), box.value());
  ASSERT_LT(platform.value(), rider.value());
  w.step();
  ASSERT_EQ(r.added_order.size(), 2u);
  EXPECT_EQ(r.added_order[0], std::make_pair(box, floor));
  EXPECT_EQ(r.added_order[1], std::make_pair(rider, platform));
  bool saw_floor = false;
  for (const ContactEvent& e : r.events) {
    if (e.body2 != floor) continue;
    saw_floor = true;
    EXPECT_EQ(e.body1, box);
    EXPECT_LT(e.normal.y(), -0.99f);        // from the box towards the floor
    EXPECT_NEAR(e.point.y(), 0.0f, 0.03f);  // on the floor's top face
  }
  EXPECT_TRUE(saw_floor);
  // A removed contact comes in the same order.
  r.events.clear();
  ASSERT_TRUE(w.bodies().set_position(box, Vec3(20.0f, 5.0f, 0.0f)).ok());
  w.step();
  bool removed = false;
  for (const ContactEvent& e : r.events)
    if (e.type == ContactEventType::Removed && (e.body1 == floor || e.body2 == floor)) {
      removed = true;
      EXPECT_EQ(e.body1, box);
    }
  EXPECT_TRUE(removed);
}

// Item 14, caching. Symptom: a sensor pair was re-validated (and re-collided) every step: a
// box resting inside a static sensor gave 10 validate calls in 10 steps. Cause: the narrow phase
// skipped the body-pair cache for sensor pairs. Fix: sensor pairs use the cache like the
// others. After: 1 call, then `persisted` events from the cache.
TEST(ContactListener, ASensorPairAtRestIsCachedNotRevalidated) {
  LawWorld w(weightless());
  Recorder r;
  w.system().set_contact_listener(&r);
  BodyCreationSettings zone(BoxShapeSettings{Vec3(2.0f, 2.0f, 2.0f)}.create().value(), Vec3(),
                            Quat(), MotionType::Static);
  zone.is_sensor = true;
  ASSERT_TRUE(w.bodies().create_and_add_body(zone, Activation::DontActivate).ok());
  w.add_box(Vec3(0.5f, 0.5f, 0.5f), Vec3(0.0f, 0.0f, 0.0f));
  for (int i = 0; i < 10; ++i) w.step();
  std::printf("  validate calls for a resting sensor pair: %d in 10 steps\n", r.validates);
  EXPECT_EQ(r.validates, 1);
  EXPECT_EQ(r.count(ContactEventType::Added), 1);
  EXPECT_EQ(r.count(ContactEventType::Persisted), 9);
}

// Item 14, overlap only. Symptom: a sensor got speculative contacts: a box 18 mm from a sensor
// produced an `added` event. Cause: sensor pairs were collided with the speculative distance.
// Fix: sensor pairs are collided with separation 0 and only overlapping manifolds are kept.
// After: no event at 18 mm; `added` once the box overlaps.
TEST(ContactListener, ASensorReportsOverlapOnlyNotASpeculativeContact) {
  LawWorld w(weightless());
  Recorder r;
  w.system().set_contact_listener(&r);
  BodyCreationSettings zone(BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f), 0.0f}.create().value(), Vec3(),
                            Quat(), MotionType::Static);
  zone.is_sensor = true;
  ASSERT_TRUE(w.bodies().create_and_add_body(zone, Activation::DontActivate).ok());
  BodyOptions slow;
  slow.linear_velocity = Vec3(-0.3f, 0.0f, 0.0f);  // 5 mm per step
  w.add_box(Vec3(0.5f, 0.5f, 0.5f), Vec3(1.018f, 0.0f, 0.0f), slow);
  w.step();
  EXPECT_EQ(r.count(ContactEventType::Added), 0) << "at an 18 mm gap";
  for (int i = 0; i < 6; ++i) w.step();  // 35 mm further: overlapping by ~17 mm
  EXPECT_EQ(r.count(ContactEventType::Added), 1);
}

// Item 14, static bodies. Symptom: a kinematic sensor reported the static bodies it overlapped.
// Cause: every pair with a sensor was collided. Fix: a moving sensor reports static bodies
// only with BodyCreationSettings::sensor_detects_static (default false, as Jolt's
// mSensorDetectsStatic). After: 0 events by default, an `added` with the flag.
TEST(ContactListener, AKinematicSensorReportsStaticBodiesOnlyWhenAsked) {
  for (const bool detects : {false, true}) {
    LawWorld w(weightless());
    Recorder r;
    w.system().set_contact_listener(&r);
    w.add_floor();
    BodyCreationSettings probe(BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value(),
                               Vec3(0.0f, 0.2f, 0.0f), Quat(), MotionType::Kinematic);
    probe.is_sensor = true;
    probe.sensor_detects_static = detects;
    ASSERT_TRUE(w.bodies().create_and_add_body(probe, Activation::Activate).ok());
    w.step();
    EXPECT_EQ(r.count(ContactEventType::Added), detects ? 1 : 0) << "detects " << detects;
  }
}

// Makes every contact with one body a sensor contact.
struct MakeSensor : ContactListener {
  BodyID ghost;
  void on_contact_added(const Body& b1, const Body& b2, const ContactManifold&,
                        ContactSettings& settings) override {
    if (b1.id() == ghost || b2.id() == ghost) settings.is_sensor = true;
  }
  void on_contact_persisted(const Body& b1, const Body& b2, const ContactManifold& m,
                            ContactSettings& settings) override {
    on_contact_added(b1, b2, m, settings);
  }
};

// Item 14, CCD. Symptom: a LinearCast sphere fired at a wall whose contacts the listener turns
// into sensor contacts stopped at the wall (x −0.18 m after one step instead of passing).
// Cause: the CCD sweep asked only on_contact_validate, never the contact settings. Fix: a CCD
// hit goes through on_contact_validate and on_contact_added (a one-point manifold at the hit);
// a contact made a sensor does not stop the body. After: x 0.667 m (= −1 + 100/60), through.
TEST(ContactListener, ACcdHitTheListenerMakesASensorDoesNotStopTheBody) {
  LawWorld w(weightless());
  MakeSensor listener;
  w.system().set_contact_listener(&listener);
  listener.ghost = w.add_static_box(Vec3(0.1f, 2.0f, 2.0f), Vec3());
  BodyOptions bullet;
  bullet.linear_velocity = Vec3(100.0f, 0.0f, 0.0f);
  bullet.motion_quality = MotionQuality::LinearCast;
  const BodyID ball = w.add_sphere(0.1f, Vec3(-1.0f, 0.0f, 0.0f), bullet);
  w.step();
  std::printf("  x after one step: %.4f m\n", w.position(ball).x());
  EXPECT_NEAR(w.position(ball).x(), -1.0f + 100.0f / 60.0f, 1e-4f);
  w.run(5);
  EXPECT_NEAR(w.velocity(ball).x(), 100.0f, 1e-3f);
  // Without the listener the same wall stops it.
  LawWorld plain(weightless());
  plain.add_static_box(Vec3(0.1f, 2.0f, 2.0f), Vec3());
  const BodyID stopped = plain.add_sphere(0.1f, Vec3(-1.0f, 0.0f, 0.0f), bullet);
  plain.step();
  EXPECT_LT(plain.position(stopped).x(), -0.15f);
}

}  // namespace
}  // namespace contact_listener_test
}  // namespace atl
