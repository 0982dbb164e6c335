// Recordings (docs/recording-format.md): what is written reads back exactly — the last frame is
// the world's final state bit for bit, every shape type comes back as the same parts — the
// decorators resolve into the right placements, and the file appears complete or not at all.

#include <gtest/gtest.h>

#include <algorithm>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "TestDirectory.h"
#include "atoll/run/Recording.h"
#include "atoll/run/SceneWorld.h"
#include "atoll/scene/SceneReader.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/CylinderShape.h"
#include "atoll/shape/HeightFieldShape.h"
#include "atoll/shape/OffsetCenterOfMassShape.h"
#include "atoll/shape/RotatedTranslatedShape.h"
#include "atoll/shape/ScaledShape.h"
#include "atoll/shape/StaticCompoundShape.h"
#include "scene/FullScene.h"

namespace atl {
namespace recording_test {
namespace {

namespace fs = std::filesystem;

class RecordingTest : public ::testing::Test {
 protected:
  fs::path path(const std::string& name) const { return dir_ / name; }
  // Every file in the test's directory: what a writer left behind.
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_.path()))
      names.push_back(entry.path().filename().string());
    return names;
  }
  atl::test::TestDirectory dir_{"atoll_recording"};
};

std::array<uint32_t, 7> pose_bits(const Vec3& p, const Quat& q) {
  return {std::bit_cast<uint32_t>(p.x()), std::bit_cast<uint32_t>(p.y()),
          std::bit_cast<uint32_t>(p.z()), std::bit_cast<uint32_t>(q.x()),
          std::bit_cast<uint32_t>(q.y()), std::bit_cast<uint32_t>(q.z()),
          std::bit_cast<uint32_t>(q.w())};
}

TEST_F(RecordingTest, RoundTripOfTheFullSceneEndsInTheWorldStateBitForBit) {
  // Every shape type, decorator and motion type, and events that remove, deactivate and change
  // the motion type of bodies during the run.
  const SceneDescription scene = read_scene_text(test::k_full_scene, "full.json").value();
  std::unique_ptr<SceneWorld> world = SceneWorld::create(scene, "full.json").value();
  const BodyManager& bodies = world->system().bodies();
  std::vector<std::array<uint32_t, 7>> start;
  for (BodyID id : world->body_ids())
    start.push_back(pose_bits(bodies.get(id)->position(), bodies.get(id)->rotation()));

  constexpr int k_steps = 20;
  auto writer = RecordingWriter::create(path("full.rec"), bodies, world->body_ids(),
                                        world->body_names(), scene.dt, k_steps, "full.json")
                    .value();
  RunOptions options;
  options.steps = k_steps;
  options.recording = writer.get();
  ASSERT_TRUE(run_scene(*world, options, "full.json").ok());
  ASSERT_TRUE(writer->finish().ok());
  EXPECT_EQ(files(), std::vector<std::string>{"full.rec"});

  const Recording recording = read_recording(path("full.rec")).value();
  EXPECT_EQ(recording.header.source, "full.json");
  EXPECT_EQ(std::bit_cast<uint32_t>(recording.header.dt), std::bit_cast<uint32_t>(scene.dt));
  EXPECT_EQ(recording.header.steps, k_steps);
  ASSERT_EQ(recording.num_frames(), size_t(k_steps + 1));
  ASSERT_EQ(recording.header.bodies.size(), world->body_ids().size());
  for (size_t i = 0; i < world->body_ids().size(); ++i) {
    SCOPED_TRACE(world->body_names()[i]);
    const Body& body = *bodies.get(world->body_ids()[i]);
    const RecordedBody& recorded = recording.header.bodies[i];
    EXPECT_EQ(recorded.name, world->body_names()[i]);
    EXPECT_EQ(recorded.motion_type, scene.bodies[i].settings.motion_type);
    // The header's shape is the body's shape, resolved.
    ASSERT_LT(recorded.shape, recording.header.shapes.size());
    EXPECT_EQ(recording.header.shapes[recorded.shape], describe_shape(*body.shape()));

    const RecordedBodyState first = recording.state(0, i);
    EXPECT_EQ(pose_bits(first.position, first.rotation), start[i]);
    const RecordedBodyState last = recording.state(k_steps, i);
    EXPECT_EQ(pose_bits(last.position, last.rotation), pose_bits(body.position(), body.rotation()));
    EXPECT_EQ(last.active(), body.is_active());
    EXPECT_EQ(last.added(), body.is_added());
    EXPECT_FALSE(last.quarantined());
    EXPECT_EQ(last.motion_type(), body.motion_type());
  }
  // Bodies that share a Shape share one recorded shape (the stack's crates, the pile's balls).
  EXPECT_LT(recording.header.shapes.size(), recording.header.bodies.size());
  // What the events did shows in the frames: r2 removed at step 11, g1 kinematic from step 8.
  const auto index_of = [&](const std::string& name) {
    size_t i = 0;
    while (world->body_names()[i] != name) ++i;
    return i;
  };
  EXPECT_TRUE(recording.state(11, index_of("r2")).added());
  EXPECT_FALSE(recording.state(12, index_of("r2")).added());
  EXPECT_EQ(recording.state(8, index_of("g1")).motion_type(), MotionType::Dynamic);
  EXPECT_EQ(recording.state(9, index_of("g1")).motion_type(), MotionType::Kinematic);
}

TEST_F(RecordingTest, ConstraintsAreRecordedWithTheirBodiesAndAttachmentPoints) {
  const SceneDescription scene = read_scene_text(test::k_full_scene, "full.json").value();
  std::unique_ptr<SceneWorld> world = SceneWorld::create(scene, "full.json").value();
  auto writer = RecordingWriter::create(path("c.rec"), world->system().bodies(), world->body_ids(),
                                        world->body_names(), scene.dt, 0, "full.json",
                                        recorded_constraints(*world))
                    .value();
  writer->add_frame(world->system().bodies());
  ASSERT_TRUE(writer->finish().ok());
  const Recording recording = read_recording(path("c.rec")).value();
  const std::vector<RecordedConstraint>& constraints = recording.header.constraints;
  ASSERT_EQ(constraints.size(), scene.constraints.size());
  EXPECT_EQ(constraints, recorded_constraints(*world));
  const auto index_of = [&](const std::string& name) {
    for (size_t b = 0; b < recording.header.bodies.size(); ++b)
      if (recording.header.bodies[b].name == name) return int(b);
    return -2;
  };
  for (size_t c = 0; c < constraints.size(); ++c) {
    const ConstraintDesc& desc = scene.constraints[c];
    EXPECT_EQ(constraints[c].name, desc.name);
    EXPECT_EQ(constraints[c].body1, desc.body1 == "world" ? -1 : index_of(desc.body1));
    EXPECT_EQ(constraints[c].body2, desc.body2 == "world" ? -1 : index_of(desc.body2));
  }
  // "ball": a point joint between the world and "wobbly" (whose centre of mass is offset from
  // its shape origin) at world [2, 2, -2]: both recorded points are there in frame 0.
  const auto ball_it = std::find_if(constraints.begin(), constraints.end(),
                                    [](const RecordedConstraint& c) { return c.name == "ball"; });
  ASSERT_NE(ball_it, constraints.end());
  const RecordedConstraint& ball = *ball_it;
  EXPECT_EQ(ball.type, "point");
  EXPECT_EQ(ball.point1, Vec3(2, 2, -2));
  const RecordedBodyState state = recording.state(0, size_t(ball.body2));
  const Vec3 anchor = state.position + state.rotation * ball.point2;
  EXPECT_NEAR((anchor - Vec3(2, 2, -2)).length(), 0.0f, 1e-5f);  // reads about 1e-7
}

TEST_F(RecordingTest, DecoratorsAndCompoundsResolveIntoPlacedParts) {
  const Ref<Shape> box = BoxShapeSettings{Vec3(1, 2, 3), 0.1f}.create().value();
  // A cylinder takes the non-uniform scale below (its cross-section stays round); a sphere would
  // not.
  const Ref<Shape> drum = CylinderShapeSettings{0.5f, 0.25f, 0.05f}.create().value();
  // A quarter turn about z maps the box's x axis onto y.
  const Quat quarter = Quat::rotation(Vec3(0, 0, 1), 0.5f * k_pi);
  const Ref<Shape> turned =
      RotatedTranslatedShapeSettings{box, Vec3(1, 0, 0), quarter}.create().value();
  const Ref<Shape> compound =
      StaticCompoundShapeSettings{{{turned, Vec3(0, 1, 0), Quat()}, {drum, Vec3(0, 0, 2), Quat()}}}
          .create()
          .value();
  const Ref<Shape> off_center =
      OffsetCenterOfMassShapeSettings{compound, Vec3(0, -1, 0)}.create().value();
  const Ref<Shape> scaled = ScaledShapeSettings{off_center, Vec3(2, 3, 2)}.create().value();

  const RecordedShape shape = describe_shape(*scaled);
  ASSERT_EQ(shape.parts.size(), 2u);
  const RecordedPart& b = shape.parts[0];
  EXPECT_EQ(b.type, ShapeSubType::Box);
  EXPECT_EQ(b.half_extent, Vec3(1, 2, 3));
  EXPECT_EQ(b.convex_radius, 0.1f);
  // Box origin at compound (1, 1, 0), scaled by (2, 3, 2): (2, 3, 0).
  EXPECT_TRUE(b.position.is_close(Vec3(2, 3, 0), 1e-10f)) << b.position;
  EXPECT_TRUE(b.rotation.is_close(quarter, 1e-6f));
  // Seen from the turned box, the outer x scale acts on its y axis and the y scale on its x.
  EXPECT_TRUE(b.scale.is_close(Vec3(3, 2, 2), 1e-10f)) << b.scale;
  const RecordedPart& c = shape.parts[1];
  EXPECT_EQ(c.type, ShapeSubType::Cylinder);
  EXPECT_EQ(c.half_height, 0.5f);
  EXPECT_EQ(c.radius, 0.25f);
  EXPECT_EQ(c.convex_radius, 0.05f);
  EXPECT_EQ(c.position, Vec3(0, 0, 4));
  EXPECT_EQ(c.scale, Vec3(2, 3, 2));
  // The offset of the centre of mass moves no geometry.
  EXPECT_EQ(describe_shape(*off_center).parts, describe_shape(*compound).parts);

  // Where the part puts a point must be where the shape has it: the box's corner (1, 2, 3).
  const Vec3 corner = b.position + b.rotation * (b.scale * Vec3(1, 2, 3));
  const Vec3 expected = Vec3(2, 3, 2) * (Vec3(0, 1, 0) + Vec3(1, 0, 0) + quarter * Vec3(1, 2, 3));
  EXPECT_TRUE(corner.is_close(expected, 1e-10f)) << corner << " vs " << expected;
}

TEST_F(RecordingTest, HeightFieldSpacingFoldsIntoThePlacementAndHolesSurviveTheFile) {
  HeightFieldShapeSettings settings;
  settings.sample_count = 3;
  settings.heights = {0, 1, 2, 3, HeightFieldShapeSettings::k_no_collision, 5, 6, 7, 8};
  settings.offset = Vec3(-2, 0.5f, -2);
  settings.scale = Vec3(2, 0.5f, 2);
  const Ref<Shape> field = settings.create().value();
  const RecordedShape shape = describe_shape(*field);
  ASSERT_EQ(shape.parts.size(), 1u);
  const RecordedPart& part = shape.parts[0];
  EXPECT_EQ(part.sample_count, 3u);
  EXPECT_EQ(part.heights, settings.heights);
  EXPECT_EQ(part.position, Vec3(-2, 0.5f, -2));
  EXPECT_EQ(part.scale, Vec3(2, 0.5f, 2));
  // Sample (2, 1) as the part places it and as the shape has it.
  const auto& hf = static_cast<const HeightFieldShape&>(*field);
  EXPECT_EQ(part.position + part.scale * Vec3(2, part.heights[1 * 3 + 2], 1),
            hf.sample_position(2, 1));

  // Through a file: a static height field in a world of one body.
  PhysicsSystem system;
  const BodyID id = system.body_interface()
                        .create_and_add_body({field, Vec3(), Quat(), MotionType::Static},
                                             Activation::DontActivate)
                        .value();
  const std::vector<BodyID> ids{id};
  const std::vector<std::string> names{"ground"};
  auto writer =
      RecordingWriter::create(path("hf.rec"), system.bodies(), ids, names, 0.01f, 0, "test")
          .value();
  writer->add_frame(system.bodies());
  ASSERT_TRUE(writer->finish().ok());
  const Recording recording = read_recording(path("hf.rec")).value();
  ASSERT_EQ(recording.header.shapes.size(), 1u);
  EXPECT_EQ(recording.header.shapes[0], shape);
  EXPECT_EQ(recording.num_frames(), 1u);
  EXPECT_FALSE(recording.state(0, 0).active());
  EXPECT_TRUE(recording.state(0, 0).added());
  EXPECT_EQ(recording.state(0, 0).motion_type(), MotionType::Static);
}

// A world of one dynamic box for the writer's file-handling tests.
struct OneBox {
  OneBox() {
    const Ref<Shape> box = BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value();
    ids.push_back(system.body_interface()
                      .create_and_add_body({box, Vec3(0, 1, 0), Quat(), MotionType::Dynamic},
                                           Activation::Activate)
                      .value());
  }
  Result<std::unique_ptr<RecordingWriter>> writer(const fs::path& path, int steps) {
    return RecordingWriter::create(path, system.bodies(), ids, names, 0.01f, steps, "test");
  }
  PhysicsSystem system;
  std::vector<BodyID> ids;
  std::vector<std::string> names{"box"};
};

TEST_F(RecordingTest, TheFileAppearsOnlyWhenFinished) {
  OneBox world;
  {
    auto writer = world.writer(path("a.rec"), 1).value();
    writer->add_frame(world.system.bodies());
    EXPECT_EQ(files(), std::vector<std::string>{"a.rec.partial"});
    // Abandoned (an error in the run, an early return): nothing stays behind.
  }
  EXPECT_TRUE(files().empty());

  auto writer = world.writer(path("a.rec"), 1).value();
  writer->add_frame(world.system.bodies());
  const Status short_of_frames = writer->finish();
  ASSERT_FALSE(short_of_frames.ok());
  EXPECT_EQ(std::string(short_of_frames.error().message()),
            path("a.rec").string() + ": recording has 1 frames, expected steps + 1 = 2");
  EXPECT_TRUE(files().empty());
}

TEST_F(RecordingTest, AnUnwritablePathIsAnErrorAndWritesNothing) {
  OneBox world;
  const fs::path missing = path("no_such_dir") / "a.rec";
  Result<std::unique_ptr<RecordingWriter>> writer = world.writer(missing, 1);
  ASSERT_FALSE(writer.ok());
  EXPECT_EQ(std::string(writer.error().message()),
            missing.string() + ": cannot write: No such file or directory");
  writer = world.writer(dir_.path(), 1);
  ASSERT_FALSE(writer.ok());
  EXPECT_EQ(std::string(writer.error().message()),
            dir_.path().string() + ": cannot write: is a directory");
  EXPECT_TRUE(files().empty());
}

TEST_F(RecordingTest, DamagedFilesAreRejectedWithAReason) {
  OneBox world;
  auto writer = world.writer(path("good.rec"), 2).value();
  for (int i = 0; i < 3; ++i) writer->add_frame(world.system.bodies());
  ASSERT_TRUE(writer->finish().ok());
  std::ifstream in(path("good.rec"), std::ios::binary);
  const std::string good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_TRUE(read_recording(path("good.rec")).ok());

  const auto read_damaged = [&](const std::string& bytes) {
    std::ofstream(path("bad.rec"), std::ios::binary) << bytes;
    Result<Recording> r = read_recording(path("bad.rec"));
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : std::string(r.error().message());
  };
  const std::string bad = path("bad.rec").string();
  // Version 3 without soft bodies, a version-2 frame: 32 bytes of pose and flags, 19 figures
  // of 4 bytes (4 + one per stage), the 8-byte contact index.
  EXPECT_EQ(read_damaged(good.substr(0, good.size() - 1)),
            bad + ": 347 bytes of frames, expected 348 (3 frames of 1 bodies)");
  EXPECT_EQ(read_damaged("ATOLLREX" + good.substr(8)),
            bad + ": not an Atoll recording (no ATOLLREC magic)");
  std::string future = good;
  future[8] = 4;
  EXPECT_EQ(read_damaged(future),
            bad + ": recording format version 4, this build reads versions 1 to 3");
  std::string no_steps = good;
  no_steps.replace(no_steps.find("\"steps\""), 7, "\"stepz\"");
  EXPECT_EQ(read_damaged(no_steps), bad + ": header.steps: required key missing");
  EXPECT_EQ(read_recording(path("missing.rec")).error().message(),
            path("missing.rec").string() + ": cannot open file");
}

}  // namespace
}  // namespace recording_test
}  // namespace atl
