// Recording format version 2 (docs/recording-format.md): the per-step figures agree with the
// run summary and with the bodies' state, contacts are kept only when asked and capped, the
// constraint states follow a break, version-1 files still load, and damaged version-2 files
// are refused with a reason.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

#include "TestDirectory.h"
#include "atoll/run/Recording.h"
#include "atoll/run/SceneWorld.h"
#include "atoll/scene/BuiltinScenes.h"
#include "atoll/scene/SceneReader.h"
#include "atoll/shape/BoxShape.h"

namespace atl {
namespace recording_v2_test {
namespace {

namespace fs = std::filesystem;

class RecordingV2Test : public ::testing::Test {
 protected:
  fs::path file(const std::string& name) const { return dir_ / name; }
  std::string bytes_of(const fs::path& path) const {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  atl::test::TestDirectory dir_{"atoll_recording_v2"};
};

// Runs `scene_text` for `steps` steps into a recording at `path`.
RunSummary record_run(const std::string& scene_text, const fs::path& path, int steps,
                      const RecordingOptions& options) {
  const SceneDescription scene = read_scene_text(scene_text, "t.json").value();
  std::unique_ptr<SceneWorld> world = SceneWorld::create(scene, "t.json").value();
  auto writer = RecordingWriter::create(path, world->system().bodies(), world->body_ids(),
                                        world->body_names(), scene.dt, steps, "t.json",
                                        recorded_constraints(*world), options)
                    .value();
  RunOptions run;
  run.steps = steps;
  run.recording = writer.get();
  RunSummary summary = run_scene(*world, run, "t.json").value();
  EXPECT_TRUE(writer->finish().ok());
  return summary;
}

std::string builtin_text(const std::string& name) {
  const std::optional<std::string_view> text = builtin_scene_text(name);
  EXPECT_TRUE(text.has_value()) << "no built-in scene " << name;
  return text ? std::string(*text) : std::string();
}

size_t stat_index(const Recording& recording, const std::string& name) {
  for (size_t i = 0; i < recording.header.stats.size(); ++i)
    if (recording.header.stats[i] == name) return i;
  ADD_FAILURE() << "no stat " << name;
  return 0;
}

TEST_F(RecordingV2Test, PerStepFiguresAgreeWithTheRunSummary) {
  constexpr int k_steps = 60;
  const RunSummary summary = record_run(builtin_text("tower10"), file("t.rec"), k_steps, {});
  const Recording recording = read_recording(file("t.rec")).value();
  // Written as version 3, whose frames begin with version 2's (RecordingSoftBodyTest).
  EXPECT_EQ(recording.version, 3u);
  EXPECT_FALSE(recording.header.contacts);
  // The base figures, then one time per stage.
  ASSERT_EQ(recording.header.stats.size(), k_recording_num_base_stats + size_t(k_num_stages));
  EXPECT_EQ(recording.header.stats[0], "kinetic_energy_J");
  EXPECT_EQ(recording.header.stats.back(),
            std::string("ms_") + stage_name(static_cast<Stage>(k_num_stages - 1)));
  const size_t active = stat_index(recording, "active_bodies");
  const size_t penetration = stat_index(recording, "max_penetration_m");
  float deepest = 0.0f;
  double total_ms = 0.0;
  for (int k = 1; k <= k_steps; ++k) {
    const std::vector<float> stats = recording.stats(size_t(k));
    EXPECT_EQ(stats[active], float(summary.active_bodies[size_t(k - 1)])) << "step " << k;
    deepest = std::max(deepest, stats[penetration]);
    for (size_t s = k_recording_num_base_stats; s < stats.size(); ++s) {
      EXPECT_GE(stats[s], 0.0f);
      total_ms += stats[s];
    }
    EXPECT_TRUE(recording.contacts(size_t(k)).empty());
  }
  EXPECT_EQ(deepest, summary.max_penetration_m);
  EXPECT_GT(total_ms, 0.0);
  // Frame 0 is before the first step: no penetration, no stage times yet.
  const std::vector<float> first = recording.stats(0);
  EXPECT_EQ(first[penetration], 0.0f);
  for (size_t s = k_recording_num_base_stats; s < first.size(); ++s) EXPECT_EQ(first[s], 0.0f);
}

TEST_F(RecordingV2Test, KineticEnergyIsLinearPlusRotational) {
  // A 1 m cube (default density 1000 kg/m³ unless set: the mass comes from the body) moving at
  // 2 m/s and spinning at 3 rad/s: E = ½·m·v² + ½·(m/6)·ω² (a cube's inertia is m·a²/6).
  PhysicsSystem system;
  PhysicsSettings settings = system.settings();
  settings.gravity = Vec3::zero();
  ASSERT_TRUE(system.set_settings(settings).ok());
  const Ref<Shape> cube = BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f), 0.0f}.create().value();
  BodyCreationSettings body{cube, Vec3(0, 1, 0), Quat(), MotionType::Dynamic};
  body.linear_velocity = Vec3(2, 0, 0);
  body.angular_velocity = Vec3(0, 3, 0);
  const std::vector<BodyID> ids{
      system.body_interface().create_and_add_body(body, Activation::Activate).value()};
  const std::vector<std::string> names{"cube"};
  auto writer =
      RecordingWriter::create(file("e.rec"), system.bodies(), ids, names, 0.01f, 0, "e").value();
  writer->add_frame(system.bodies());
  ASSERT_TRUE(writer->finish().ok());
  const Recording recording = read_recording(file("e.rec")).value();
  const float mass = 1.0f / system.bodies().get(ids[0])->motion_properties()->inverse_mass();
  const float expected = 0.5f * mass * 4.0f + 0.5f * (mass / 6.0f) * 9.0f;
  EXPECT_NEAR(recording.stats(0)[stat_index(recording, "kinetic_energy_J")], expected,
              expected * 1e-5f);
  EXPECT_EQ(recording.stats(0)[stat_index(recording, "active_bodies")], 1.0f);
  // Written without what the run loop knows: constraint states unknown, no times.
  EXPECT_EQ(recording.stats(0)[stat_index(recording, "ms_narrow_phase")], 0.0f);
}

TEST_F(RecordingV2Test, ContactsAreKeptWhenAskedAndCappedPerFrame) {
  constexpr int k_steps = 40;
  RecordingOptions options;
  options.contacts = true;
  record_run(builtin_text("tower10"), file("c.rec"), k_steps, options);
  const Recording recording = read_recording(file("c.rec")).value();
  EXPECT_TRUE(recording.header.contacts);
  EXPECT_EQ(recording.header.max_contacts_per_frame, 10000u);
  const size_t counted = stat_index(recording, "contacts");
  const size_t penetration = stat_index(recording, "max_penetration_m");
  size_t most = 0;
  for (int k = 1; k <= k_steps; ++k) {
    const std::vector<RecordedContact> contacts = recording.contacts(size_t(k));
    const std::vector<float> stats = recording.stats(size_t(k));
    // The tower's contacts are all between awake bodies: every one is listed.
    EXPECT_EQ(float(contacts.size()), stats[counted]) << "step " << k;
    for (const RecordedContact& contact : contacts) {
      EXPECT_NEAR(contact.normal.length(), 1.0f, 1e-4f);
      EXPECT_LE(contact.penetration, stats[penetration] + 1e-6f);
      EXPECT_TRUE(std::isfinite(contact.point.x()) && std::isfinite(contact.point.y()));
    }
    most = std::max(most, contacts.size());
  }
  EXPECT_GE(most, 10u);  // ten stacked boxes: at least one manifold below each
  EXPECT_TRUE(recording.contacts(0).empty());

  options.max_contacts_per_frame = 3;
  record_run(builtin_text("tower10"), file("capped.rec"), k_steps, options);
  const Recording capped = read_recording(file("capped.rec")).value();
  EXPECT_EQ(capped.header.max_contacts_per_frame, 3u);
  for (int k = 1; k <= k_steps; ++k) {
    const std::vector<RecordedContact> kept = capped.contacts(size_t(k));
    const std::vector<RecordedContact> all = recording.contacts(size_t(k));
    ASSERT_EQ(kept.size(), std::min<size_t>(3, all.size()));
    // The first ones, the same as in the full recording (the run is deterministic).
    for (size_t c = 0; c < kept.size(); ++c) EXPECT_EQ(kept[c], all[c]);
    EXPECT_EQ(capped.stats(size_t(k))[counted], recording.stats(size_t(k))[counted]);
  }
  // No temporary file is left behind.
  for (const auto& entry : fs::directory_iterator(dir_.path()))
    EXPECT_EQ(entry.path().extension(), ".rec") << entry.path();
}

TEST_F(RecordingV2Test, ConstraintStatesFollowABreak) {
  // A ball on a rope (break threshold 1 N·s) kicked with 5 N·s at step 20: the rope breaks in
  // step 20 and is disabled from then on (RunConstraintTest).
  const std::string scene = R"({"settings": {"steps": 30, "gravity": [0, 0, 0]},
    "bodies": [{"name": "ball", "shape": {"type": "sphere", "radius": 0.1}, "mass": 2,
                "position": [0, 1, 0], "allow_sleeping": false}],
    "constraints": [{"name": "rope", "type": "point", "body1": "world", "body2": "ball",
                     "point1": [0, 2, 0], "point2": [0, 2, 0], "break_impulse": 1}],
    "events": [{"step": 20, "action": "add_impulse", "body": "ball", "impulse": [0, -5, 0]}]})";
  record_run(scene, file("b.rec"), 30, {});
  const Recording recording = read_recording(file("b.rec")).value();
  ASSERT_EQ(recording.header.constraints.size(), 1u);
  const uint8_t intact = k_recording_constraint_known | k_recording_constraint_enabled;
  const uint8_t broken = k_recording_constraint_known | k_recording_constraint_broken;
  EXPECT_EQ(recording.constraint_flags(0, 0), intact);
  EXPECT_EQ(recording.constraint_flags(20, 0), intact);  // frame 20: after 20 steps
  EXPECT_EQ(recording.constraint_flags(21, 0), broken);  // after step 20 (0-based)
  EXPECT_EQ(recording.constraint_flags(30, 0), broken);
}

TEST_F(RecordingV2Test, VersionOneFilesStillLoad) {
  // A version-1 file made by hand: one body, two frames.
  const std::string header =
      R"({"source":"old","dt":0.01,"steps":1,"shapes":[{"parts":[{"type":"sphere",)"
      R"("position":[0,0,0],"rotation":[0,0,0,1],"scale":[1,1,1],"radius":0.5}]}],)"
      R"("bodies":[{"name":"s","motion":"dynamic","shape":0}]})";
  std::string padded = header + std::string((4 - header.size() % 4) % 4, ' ');
  std::string bytes = "ATOLLREC";
  const auto u32 = [](uint32_t v) {
    std::string out(4, '\0');
    for (int i = 0; i < 4; ++i) out[size_t(i)] = char((v >> (8 * i)) & 0xff);
    return out;
  };
  const auto f32 = [&](float v) { return u32(std::bit_cast<uint32_t>(v)); };
  bytes += u32(1) + u32(uint32_t(padded.size())) + padded;
  for (int k = 0; k < 2; ++k) {
    for (float v : {1.0f, 2.0f - float(k), 3.0f, 0.0f, 0.0f, 0.0f, 1.0f}) bytes += f32(v);
    bytes += std::string(1, char(k_recording_added | k_recording_active | (2 << 3)));
    bytes += std::string(3, '\0');
  }
  std::ofstream(file("v1.rec"), std::ios::binary) << bytes;
  const Recording recording = read_recording(file("v1.rec")).value();
  EXPECT_EQ(recording.version, 1u);
  EXPECT_EQ(recording.num_frames(), 2u);
  EXPECT_EQ(recording.state(1, 0).position, Vec3(1, 1, 3));
  EXPECT_EQ(recording.state(1, 0).motion_type(), MotionType::Dynamic);
  EXPECT_TRUE(recording.header.stats.empty());
  EXPECT_TRUE(recording.stats(1).empty());
  EXPECT_TRUE(recording.contacts(1).empty());
  // One byte short is refused as before.
  std::ofstream(file("v1.rec"), std::ios::binary) << bytes.substr(0, bytes.size() - 1);
  EXPECT_EQ(read_recording(file("v1.rec")).error().message(),
            file("v1.rec").string() + ": 63 bytes of frames, expected 64 (2 frames of 1 bodies)");
}

TEST_F(RecordingV2Test, DamagedVersionTwoFilesAreRefusedWithAReason) {
  RecordingOptions options;
  options.contacts = true;
  record_run(builtin_text("tower10"), file("good.rec"), 5, options);
  const std::string good = bytes_of(file("good.rec"));
  const Recording recording = read_recording(file("good.rec")).value();
  size_t contacts = 0;
  for (size_t k = 0; k < recording.num_frames(); ++k) contacts += recording.contacts(k).size();
  ASSERT_GT(contacts, 0u);
  const std::string bad = file("bad.rec").string();
  const auto read_damaged = [&](const std::string& bytes) {
    std::ofstream(file("bad.rec"), std::ios::binary) << bytes;
    Result<Recording> r = read_recording(file("bad.rec"));
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : std::string(r.error().message());
  };
  // Cut inside the contacts.
  const std::string contact_count = std::to_string(contacts);
  EXPECT_EQ(read_damaged(good.substr(0, good.size() - 5)),
            bad + ": " + std::to_string(contacts * 28 - 5) + " bytes of contacts, expected " +
                std::to_string(contacts * 28) + " (" + contact_count +
                " contacts): the file is truncated or damaged");
  // Cut inside the frames.
  const size_t frames_end = good.size() - contacts * 28;
  const size_t frames_bytes = recording.num_frames() * recording.bytes_per_frame();
  EXPECT_EQ(read_damaged(good.substr(0, frames_end - 10)),
            bad + ": " + std::to_string(frames_bytes - 10) + " bytes of frames, expected " +
                std::to_string(frames_bytes) + " (6 frames of 11 bodies)");
  // A contact index that does not follow the previous frame's.
  std::string index = good;
  const size_t frame2_index = frames_end - frames_bytes + 3 * recording.bytes_per_frame() - 8;
  index[frame2_index] = char(index[frame2_index] + 1);
  const std::string message = read_damaged(index);
  EXPECT_EQ(message.rfind(bad + ": frame 2: contact index ", 0), 0u) << message;
  EXPECT_NE(message.find("the file is damaged"), std::string::npos) << message;
  // Extra bytes after the contacts.
  EXPECT_NE(read_damaged(good + "x").find("bytes of contacts, expected"), std::string::npos);
  // A future version.
  std::string future = good;
  future[8] = 4;
  EXPECT_EQ(read_damaged(future),
            bad + ": recording format version 4, this build reads versions 1 to 3");
  // A header without the stats list.
  std::string no_stats = good;
  no_stats.replace(no_stats.find("\"stats\""), 7, "\"statz\"");
  EXPECT_EQ(read_damaged(no_stats), bad + ": header.stats: required key missing");
}

}  // namespace
}  // namespace recording_v2_test
}  // namespace atl
