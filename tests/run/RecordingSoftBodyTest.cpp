// Recording format version 3 (docs/recording-format.md): the header lists the soft bodies with
// their edges and faces, every frame carries their vertices — frame 0 the world's before the
// first step and the last frame the world's at the end, bit for bit —, a scene without soft
// bodies is recorded with the bytes of version 2, version-2 files still read, and damaged or
// truncated soft body sections are refused with a reason.

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "TestDirectory.h"
#include "atoll/run/Recording.h"
#include "atoll/run/SceneWorld.h"
#include "atoll/scene/SceneReader.h"
#include "atoll/shape/SphereShape.h"

namespace atl::recording_soft_body_test {
namespace {

namespace fs = std::filesystem;

// A rope of 9 vertices hanging from its first one and a 6 × 5 cloth falling onto a floor: two
// soft bodies, so that their flags bytes are followed by two bytes of padding. A ball on the
// floor gives the steps contacts.
constexpr const char* k_scene = R"({"settings": {"steps": 30},
  "bodies": [{"name": "floor", "shape": {"type": "box", "half_extent": [5, 0.5, 5]},
              "position": [0, -0.5, 0], "motion": "static"},
             {"name": "ball", "shape": {"type": "sphere", "radius": 0.2},
              "position": [2, 0.3, 0]}],
  "soft_bodies": [
    {"name": "rope", "type": "rope", "from": [0, 2, 0], "to": [1, 2, 0], "segments": 8,
     "pinned": "first", "radius": 0.03},
    {"name": "sheet", "type": "cloth", "center": [-1.5, 0.5, 0], "size": [1, 0.8],
     "resolution": [6, 5]}]})";
constexpr int k_steps = 30;

// x, y, z bits of every position.
std::vector<uint32_t> bits_of(std::span<const Vec3> positions) {
  std::vector<uint32_t> out;
  for (const Vec3& p : positions)
    out.insert(out.end(), {std::bit_cast<uint32_t>(p.x()), std::bit_cast<uint32_t>(p.y()),
                           std::bit_cast<uint32_t>(p.z())});
  return out;
}

std::string bytes_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

uint32_t u32_at(const std::string& bytes, size_t at) {
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value |= uint32_t(uint8_t(bytes[at + size_t(i)])) << (8 * i);
  return value;
}

// The recording `bytes` with the header JSON `header` (padded, its length in the preamble).
std::string with_header(const std::string& bytes, std::string header) {
  header.append((4 - header.size() % 4) % 4, ' ');
  std::string out = bytes.substr(0, 12);
  for (int i = 0; i < 4; ++i) out += char((header.size() >> (8 * i)) & 0xff);
  return out + header + bytes.substr(16 + u32_at(bytes, 12));
}

// The header JSON of the recording `bytes`, without its padding.
std::string header_of(const std::string& bytes) {
  std::string header = bytes.substr(16, u32_at(bytes, 12));
  while (!header.empty() && header.back() == ' ') header.pop_back();
  return header;
}

// The scene's world, recorded for `steps` steps into `path` (recording options `options`).
struct RecordedRun {
  std::unique_ptr<SceneWorld> world;
  // Each soft body's positions before the first step (bits).
  std::vector<std::vector<uint32_t>> start;
};

RecordedRun record_run(const std::string& scene_text, const fs::path& path, int steps,
                       const RecordingOptions& options = {}) {
  const SceneDescription scene = read_scene_text(scene_text, "soft.json").value();
  RecordedRun run;
  run.world = SceneWorld::create(scene, "soft.json").value();
  SceneWorld& world = *run.world;
  for (BodyID id : world.soft_body_ids())
    run.start.push_back(bits_of(world.system().soft_body(id)->positions()));
  auto writer =
      RecordingWriter::create(path, world.system().bodies(), world.body_ids(), world.body_names(),
                              scene.dt, steps, "soft.json", recorded_constraints(world), options,
                              recorded_soft_bodies(world))
          .value();
  RunOptions options_run;
  options_run.steps = steps;
  options_run.recording = writer.get();
  EXPECT_TRUE(run_scene(world, options_run, "soft.json").ok());
  EXPECT_TRUE(writer->finish().ok());
  return run;
}

class RecordingSoftBodyTest : public ::testing::Test {
 protected:
  fs::path file(const std::string& name) const { return dir_ / name; }
  // Reads `bytes` as a recording; the error message ("" when it was accepted, which fails).
  std::string refusal(const std::string& bytes) const {
    write_bytes(file("bad.rec"), bytes);
    Result<Recording> r = read_recording(file("bad.rec"));
    EXPECT_FALSE(r.ok()) << "accepted";
    return r.ok() ? std::string() : std::string(r.error().message());
  }
  atl::test::TestDirectory dir_{"atoll_recording_soft"};
};

TEST_F(RecordingSoftBodyTest, HeaderListsTheSoftBodiesWithTheirEdgesAndFaces) {
  const RecordedRun run = record_run(k_scene, file("s.rec"), k_steps);
  const Recording recording = read_recording(file("s.rec")).value();
  EXPECT_EQ(recording.version, 3u);
  ASSERT_EQ(recording.header.soft_bodies.size(), 2u);
  const RecordedSoftBody& rope = recording.header.soft_bodies[0];
  const RecordedSoftBody& sheet = recording.header.soft_bodies[1];
  EXPECT_EQ(rope.name, "rope");
  EXPECT_EQ(sheet.name, "sheet");
  EXPECT_EQ(rope.vertex_count, 9u);
  EXPECT_EQ(sheet.vertex_count, 30u);
  EXPECT_EQ(rope.vertex_radius, 0.03f);
  EXPECT_EQ(sheet.vertex_radius, 0.02f);
  // The rope: one edge per segment, in order, and no faces.
  ASSERT_EQ(rope.edges.size(), 8u);
  for (uint32_t i = 0; i < 8; ++i)
    EXPECT_EQ(rope.edges[i], (std::array<uint32_t, 2>{i, i + 1})) << "edge " << i;
  EXPECT_TRUE(rope.faces.empty());
  // The cloth: two triangles per cell, and the structural edges of the world's soft body.
  EXPECT_EQ(sheet.faces.size(), 2u * 5u * 4u);
  const SoftBodySettings& settings =
      run.world->system().soft_body(run.world->soft_body_ids()[1])->settings();
  ASSERT_EQ(sheet.edges.size(), settings.edges.size());
  for (size_t e = 0; e < settings.edges.size(); ++e)
    EXPECT_EQ(sheet.edges[e],
              (std::array<uint32_t, 2>{settings.edges[e].vertex[0], settings.edges[e].vertex[1]}));
  ASSERT_EQ(sheet.faces.size(), settings.faces.size());
  for (size_t f = 0; f < settings.faces.size(); ++f) EXPECT_EQ(sheet.faces[f], settings.faces[f]);
  // The header lists what recorded_soft_bodies() gave the writer, and the frames have room for
  // exactly the vertices after the version-2 part.
  EXPECT_EQ(recording.header.soft_bodies, recorded_soft_bodies(*run.world));
  const size_t v2 = Recording::frame_bytes_v2(2, 0, recording.header.stats.size());
  EXPECT_EQ(recording.bytes_per_frame(), v2 + 4 + 12 * (9 + 30));
  EXPECT_EQ(recording.soft_body_flags_offset(), v2);
  EXPECT_EQ(recording.soft_body_positions_offset(0), v2 + 4);
  EXPECT_EQ(recording.soft_body_positions_offset(1), v2 + 4 + 12 * 9);
}

TEST_F(RecordingSoftBodyTest, FramesHoldTheVerticesFromTheStartToTheWorldsEndBitForBit) {
  const RecordedRun run = record_run(k_scene, file("s.rec"), k_steps);
  const Recording recording = read_recording(file("s.rec")).value();
  ASSERT_EQ(recording.num_frames(), size_t(k_steps + 1));
  const PhysicsSystem& system = run.world->system();
  for (size_t j = 0; j < 2; ++j) {
    const BodyID id = run.world->soft_body_ids()[j];
    const RecordedSoftBodyState first = recording.soft_body_state(0, j);
    const RecordedSoftBodyState last = recording.soft_body_state(size_t(k_steps), j);
    EXPECT_EQ(bits_of(first.positions), run.start[j]) << "soft body " << j << ", frame 0";
    EXPECT_EQ(bits_of(last.positions), bits_of(system.soft_body(id)->positions()))
        << "soft body " << j << ", last frame";
    EXPECT_TRUE(first.added() && first.active());
    EXPECT_TRUE(last.added());
    EXPECT_EQ(last.active(), !system.is_soft_body_sleeping(id));
  }
  // The cloth falls and the rope swings down from its pinned end: the frames in between move.
  const RecordedSoftBodyState sheet_mid = recording.soft_body_state(10, 1);
  EXPECT_LT(sheet_mid.positions[0].y(), recording.soft_body_state(0, 1).positions[0].y());
  const RecordedSoftBodyState rope_mid = recording.soft_body_state(10, 0);
  EXPECT_EQ(bits_of(std::span(rope_mid.positions).first(1)),
            std::vector<uint32_t>(run.start[0].begin(), run.start[0].begin() + 3))
      << "the pinned vertex stays";
  EXPECT_LT(rope_mid.positions[8].y(), 2.0f);
  // The bodies before the soft bodies are read as in version 2.
  EXPECT_EQ(recording.state(size_t(k_steps), 0).position, Vec3(0, -0.5f, 0));
  EXPECT_EQ(recording.stats(0).size(), recording.header.stats.size());
}

TEST_F(RecordingSoftBodyTest, ContactsFollowTheFramesWithSoftBodies) {
  // Contacts come after every frame's soft bodies; the contact index still finds them.
  RecordingOptions options;
  options.contacts = true;
  record_run(k_scene, file("c.rec"), k_steps, options);
  record_run(k_scene, file("n.rec"), k_steps);
  const Recording with = read_recording(file("c.rec")).value();
  const Recording without = read_recording(file("n.rec")).value();
  ASSERT_EQ(with.bytes_per_frame(), without.bytes_per_frame());
  EXPECT_EQ(with.frame_data.size(), without.frame_data.size());
  size_t contacts = 0;
  for (size_t k = 0; k < with.num_frames(); ++k) {
    contacts += with.contacts(k).size();
    EXPECT_EQ(bits_of(with.soft_body_state(k, 1).positions),
              bits_of(without.soft_body_state(k, 1).positions));
  }
  EXPECT_GT(contacts, 0u);  // the ball on the floor
  EXPECT_EQ(with.contact_data.size(), contacts * k_recording_contact_bytes);
}

TEST_F(RecordingSoftBodyTest, WithoutSoftBodiesTheFileIsVersionTwosButForItsNumber) {
  const std::string scene = R"({"bodies": [
    {"name": "floor", "shape": {"type": "box", "half_extent": [5, 0.5, 5]},
     "position": [0, -0.5, 0], "motion": "static"},
    {"name": "ball", "shape": {"type": "sphere", "radius": 0.2}, "position": [0, 1, 0]}]})";
  record_run(scene, file("r.rec"), 12);
  const std::string bytes = bytes_of(file("r.rec"));
  EXPECT_EQ(u32_at(bytes, 8), 3u);
  const uint32_t header_bytes = u32_at(bytes, 12);
  EXPECT_EQ(bytes.substr(16, header_bytes).find("\"soft_bodies\""), std::string::npos);
  const Recording v3 = read_recording(file("r.rec")).value();
  EXPECT_TRUE(v3.header.soft_bodies.empty());
  // No soft body bytes: the frames are version 2's, and nothing follows them.
  const size_t frame_bytes = Recording::frame_bytes_v2(2, 0, v3.header.stats.size());
  EXPECT_EQ(v3.bytes_per_frame(), frame_bytes);
  EXPECT_EQ(bytes.size(), 16 + header_bytes + 13 * frame_bytes);
  // With the version number of 2, a version-2 reader reads the same recording.
  std::string v2_bytes = bytes;
  v2_bytes[8] = 2;
  write_bytes(file("v2.rec"), v2_bytes);
  const Recording v2 = read_recording(file("v2.rec")).value();
  EXPECT_EQ(v2.version, 2u);
  EXPECT_EQ(v2.frame_data, v3.frame_data);
  EXPECT_EQ(v2.bytes_per_frame(), v3.bytes_per_frame());
  for (size_t k = 0; k < v2.num_frames(); ++k) {
    EXPECT_EQ(v2.state(k, 1).position, v3.state(k, 1).position);
    EXPECT_EQ(v2.stats(k), v3.stats(k));
  }
}

TEST_F(RecordingSoftBodyTest, VersionTwoIgnoresSoftBodiesInItsHeader) {
  // A version-2 file's frames have no soft bodies, whatever keys its header has (readers
  // ignore keys they do not know): the soft bodies of a version-3 header are not read from it.
  const std::string scene = R"({"bodies": [{"name": "ball", "shape": {"type": "sphere",
    "radius": 0.2}, "position": [0, 1, 0]}]})";
  record_run(scene, file("r.rec"), 2);
  std::string bytes = bytes_of(file("r.rec"));
  bytes[8] = 2;
  std::string header = header_of(bytes);
  header.insert(header.size() - 1, R"(,"soft_bodies":[{"name":"x","vertex_count":5,)"
                                   R"("vertex_radius":0,"edges":[],"faces":[]}])");
  write_bytes(file("v2.rec"), with_header(bytes, header));
  const Recording v2 = read_recording(file("v2.rec")).value();
  EXPECT_TRUE(v2.header.soft_bodies.empty());
  EXPECT_EQ(v2.frame_data, read_recording(file("r.rec")).value().frame_data);
}

TEST_F(RecordingSoftBodyTest, SoftBodiesTheWriterIsNotToldAboutAreRecordedAsAbsent) {
  // A writer made with a soft body and given frames without it (add_frame(bodies), or a list
  // of the wrong length): flags 0 and zero positions, which a viewer does not draw; frames
  // with it record the positions given and the flags' known bits only.
  PhysicsSystem system;
  const Ref<Shape> ball = SphereShapeSettings{0.5f}.create().value();
  const BodyCreationSettings body{ball, Vec3(0, 1, 0), Quat(), MotionType::Dynamic};
  const std::vector<BodyID> ids{
      system.body_interface().create_and_add_body(body, Activation::Activate).value()};
  const std::vector<std::string> names{"ball"};
  RecordedSoftBody strip;
  strip.name = "strip";
  strip.vertex_count = 3;
  strip.vertex_radius = 0.01f;
  strip.edges = {{0, 1}, {1, 2}};
  const std::vector<RecordedSoftBody> soft{strip};
  auto writer = RecordingWriter::create(file("w.rec"), system.bodies(), ids, names, 0.01f, 3, "w",
                                        {}, {}, soft)
                    .value();
  writer->add_frame(system.bodies());
  const std::vector<Vec3> positions{Vec3(1, 2, 3), Vec3(4, 5, 6), Vec3(7, 8, 9)};
  const RecordingSoftBodyFrame given{positions, uint8_t(0xff)};
  RecordingFrameInfo info;
  info.soft_bodies = std::span(&given, 1);
  writer->add_frame(system.bodies(), info);
  const RecordingSoftBodyFrame gone{{}, k_recording_soft_body_added};
  info.soft_bodies = std::span(&gone, 1);
  writer->add_frame(system.bodies(), info);
  const std::vector<RecordingSoftBodyFrame> two{given, given};
  info.soft_bodies = two;
  writer->add_frame(system.bodies(), info);
  ASSERT_TRUE(writer->finish().ok());

  const Recording recording = read_recording(file("w.rec")).value();
  ASSERT_EQ(recording.header.soft_bodies.size(), 1u);
  EXPECT_EQ(recording.header.soft_bodies[0], strip);
  const std::vector<Vec3> zeros(3, Vec3::zero());
  for (size_t k : {size_t(0), size_t(2), size_t(3)}) {
    EXPECT_EQ(recording.soft_body_state(k, 0).flags, 0) << "frame " << k;
    EXPECT_EQ(recording.soft_body_state(k, 0).positions, zeros) << "frame " << k;
  }
  EXPECT_EQ(recording.soft_body_state(1, 0).flags,
            k_recording_soft_body_active | k_recording_soft_body_added);
  EXPECT_EQ(recording.soft_body_state(1, 0).positions, positions);
}

TEST_F(RecordingSoftBodyTest, DamagedSoftBodySectionsAreRefusedWithAReason) {
  record_run(k_scene, file("good.rec"), k_steps);
  const std::string good = bytes_of(file("good.rec"));
  const Recording recording = read_recording(file("good.rec")).value();
  const std::string bad = file("bad.rec").string();
  const uint32_t header_bytes = u32_at(good, 12);
  const size_t frames_begin = 16 + header_bytes;
  const size_t frame_bytes = recording.bytes_per_frame();
  const size_t frames = recording.num_frames() * frame_bytes;
  ASSERT_EQ(good.size(), frames_begin + frames);
  const std::string shape = " (31 frames of 2 bodies and 2 soft bodies of 39 vertices)";

  // Cut inside the last frame's vertices.
  EXPECT_EQ(refusal(good.substr(0, good.size() - 5)), bad + ": " + std::to_string(frames - 5) +
                                                          " bytes of frames, expected " +
                                                          std::to_string(frames) + shape);
  // Cut before the soft bodies of frame 0: the header's vertices do not fit at all.
  EXPECT_EQ(refusal(good.substr(0, frames_begin + recording.soft_body_flags_offset())),
            bad +
                ": header.soft_bodies: 39 vertices in all need 468 bytes per frame, the file "
                "has " +
                std::to_string(recording.soft_body_flags_offset()) +
                " bytes of frames: the file is truncated or damaged");

  // Header numbers a small file cannot hold: refused before any size is computed from them.
  const auto with_header_text = [&](const std::string& from, const std::string& to) {
    std::string header = header_of(good);
    const size_t at = header.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return with_header(good,
                       at == std::string::npos ? header : header.replace(at, from.size(), to));
  };
  EXPECT_EQ(refusal(with_header_text("\"vertex_count\": 30,", "\"vertex_count\": 4294967295,")),
            bad +
                ": header.soft_bodies: 4294967304 vertices in all need 51539607648 bytes per "
                "frame, the file has " +
                std::to_string(frames) + " bytes of frames: the file is truncated or damaged");
  EXPECT_EQ(refusal(with_header_text("\"vertex_count\": 30,", "\"vertex_count\": 4294967296,")),
            bad + ": header.soft_bodies[1].vertex_count: must be <= 4294967295, got 4294967296");
  // One more vertex than the frames hold.
  EXPECT_EQ(refusal(with_header_text("\"vertex_count\": 9,", "\"vertex_count\": 10,")),
            bad + ": " + std::to_string(frames) + " bytes of frames, expected " +
                std::to_string(31 * (frame_bytes + 12)) +
                " (31 frames of 2 bodies and 2 soft bodies of 40 vertices)");
  // Edges and faces that do not fit the vertices, or are missing.
  EXPECT_EQ(refusal(with_header_text("\"vertex_count\": 9,", "\"vertex_count\": 8,")),
            bad + ": header.soft_bodies[0].edges[7][1]: must be in [0, 7], got 8");
  EXPECT_EQ(refusal(with_header_text("\"edges\": [[0, 1],", "\"edges\": [[0, 1, 2],")),
            bad + ": header.soft_bodies[0].edges[0]: expected 2 vertex indices, got [0,1,2]");
  EXPECT_EQ(refusal(with_header_text("\"faces\": [[0,", "\"faces\": [[-1,")),
            bad + ": header.soft_bodies[1].faces[0][0]: must be in [0, 29], got -1");
  EXPECT_EQ(refusal(with_header_text("\"faces\": []", "\"facez\": []")),
            bad + ": header.soft_bodies[0].faces: required key missing");
  EXPECT_EQ(refusal(with_header_text("\"soft_bodies\": [", "\"soft_bodies\": [7,")),
            bad + ": header.soft_bodies[0]: expected an object, got 7");

  // A flags byte with unknown bits, and a padding byte that is not 0, in frame 4.
  std::string flags = good;
  const size_t flags_at = frames_begin + 4 * frame_bytes + recording.soft_body_flags_offset();
  flags[flags_at + 1] = char(0x82);
  EXPECT_EQ(refusal(flags), bad +
                                ": frame 4: soft body 1 (\"sheet\"): flags byte 130 has bits "
                                "other than 0 and 1: the file is damaged");
  std::string padding = good;
  padding[flags_at + 3] = 1;
  EXPECT_EQ(refusal(padding), bad +
                                  ": frame 4: soft body flags padding byte 1 is 1, not 0: the "
                                  "file is damaged");
}

}  // namespace
}  // namespace atl::recording_soft_body_test
