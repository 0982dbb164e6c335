// The built-in scenes are embedded, parse, and have the contents their descriptions promise.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "atoll/scene/BuiltinScenes.h"
#include "atoll/scene/SceneReader.h"

namespace atl {
namespace builtin_scenes_test {
namespace {

SceneDescription builtin(std::string_view name) {
  const std::optional<std::string_view> text = builtin_scene_text(name);
  EXPECT_TRUE(text.has_value()) << name;
  if (!text) return SceneDescription();
  Result<SceneDescription> scene = read_scene_text(*text, std::string(name) + ".json");
  EXPECT_TRUE(scene.ok()) << (scene.ok() ? "" : scene.error().message());
  return scene.ok() ? std::move(scene).value() : SceneDescription();
}

size_t count_motion(const SceneDescription& scene, MotionType motion) {
  size_t count = 0;
  for (const BodyDesc& body : scene.bodies) count += body.settings.motion_type == motion ? 1 : 0;
  return count;
}

TEST(BuiltinScenes, NamesAreSortedAndUnknownNamesGiveNothing) {
  EXPECT_EQ(builtin_scene_names(),
            (std::vector<std::string_view>{"bullets", "chain", "cloth_on_sphere", "convex_vs_mesh",
                                           "demo", "highspeed", "highspeed_spheres", "joint_grid",
                                           "many_pyramids", "pyramid", "ragdolls", "rope_bridge",
                                           "tower10"}));
  EXPECT_FALSE(builtin_scene_text("nope").has_value());
}

TEST(BuiltinScenes, EmbeddedTextIsTheFileInScenes) {
  for (std::string_view name : builtin_scene_names()) {
    // Appended piece by piece: GCC 12's -Warray-bounds misfires on the chained operator+.
    std::string path = ATOLL_SOURCE_DIR;
    path += "/scenes/";
    path += name;
    path += ".json";
    std::ifstream file(path, std::ios::binary);
    ASSERT_TRUE(file) << name;
    std::ostringstream text;
    text << file.rdbuf();
    EXPECT_EQ(*builtin_scene_text(name), text.str()) << name;
  }
}

TEST(BuiltinScenes, DemoIsAMixedSceneOfAFewDozenBodies) {
  const SceneDescription scene = builtin("demo");
  EXPECT_GE(scene.bodies.size(), 60u);
  EXPECT_LE(scene.bodies.size(), 150u);
  EXPECT_EQ(scene.steps, 600);
  EXPECT_NE(scene.find_body("floor"), nullptr);
  EXPECT_EQ(scene.find_body("slope")->settings.motion_type, MotionType::Static);
  EXPECT_NE(scene.find_body("tall9"), nullptr);
  EXPECT_NE(scene.find_body("short4"), nullptr);
  EXPECT_EQ(scene.find_body("short5"), nullptr);
  // A door on a limited hinge, an 8-link chain and a ragdoll (issue 8 §3).
  const ConstraintDesc* door = scene.find_constraint("door_hinge");
  ASSERT_NE(door, nullptr);
  EXPECT_EQ(door->type, ConstraintSubType::Hinge);
  EXPECT_EQ(door->body1, "world");
  EXPECT_EQ(door->body2, "door");
  EXPECT_NE(scene.find_constraint("chain_joint7"), nullptr);
  EXPECT_EQ(scene.find_constraint("chain_joint8"), nullptr);
  EXPECT_NE(scene.find_body("ragdoll_head"), nullptr);
  EXPECT_EQ(scene.constraints.size(), 1u + 8u + 11u);
  // Three sliders at three different frictions.
  EXPECT_EQ(scene.find_body("slider_ice")->settings.friction, 0.0f);
  EXPECT_EQ(scene.find_body("slider_wood")->settings.friction, 0.2f);
  EXPECT_EQ(scene.find_body("slider_rubber")->settings.friction, 0.5f);
  // Rolling balls: v = ω × r for a ball of radius 0.5 touching the floor.
  for (const char* name : {"ball_pins", "ball_stack"}) {
    const BodyDesc& ball = *scene.find_body(name);
    const Vec3 contact_velocity =
        ball.settings.linear_velocity + ball.settings.angular_velocity.cross(Vec3(0, -0.5f, 0));
    EXPECT_TRUE(contact_velocity.is_near_zero(1e-10f)) << name;
  }
}

TEST(BuiltinScenes, DemoBodiesDoNotStartInsideEachOther) {
  // World bounding boxes of the rotated shapes are conservative, so no overlap there means no
  // overlap at all; touching is allowed. The sliders rest 5 mm above the tilted slope, whose
  // bounding box encloses them: those pairs were placed by hand (see scenes/demo.json).
  const SceneDescription scene = builtin("demo");
  // The parts of the ragdoll overlap at its joints, but share a collision group: they never
  // collide with each other.
  std::vector<std::pair<std::string, AABox>> boxes;
  for (const BodyDesc& body : scene.bodies)
    boxes.emplace_back(body.name, scene_shape_bounds(scene, *scene.resolve(body.shape))
                                      .transformed(Mat44::rotation_translation(
                                          body.settings.rotation, body.settings.position))
                                      .expanded(-1.0e-4f));
  const auto on_slope = [](const std::string& name) {
    return name == "slope" || name.rfind("slider_", 0) == 0;
  };
  for (size_t i = 0; i < boxes.size(); ++i)
    for (size_t j = i + 1; j < boxes.size(); ++j) {
      if (on_slope(boxes[i].first) && on_slope(boxes[j].first)) continue;
      const std::optional<uint32_t> group = scene.bodies[i].collision_group;
      if (group && group == scene.bodies[j].collision_group) continue;
      EXPECT_FALSE(boxes[i].second.overlaps(boxes[j].second))
          << boxes[i].first << " and " << boxes[j].first;
    }
}

TEST(BuiltinScenes, PyramidIsJoltsPerformanceTestPyramid) {
  const SceneDescription scene = builtin("pyramid");
  ASSERT_EQ(scene.bodies.size(), 1u + 1240u);
  EXPECT_EQ(scene.steps, 500);
  EXPECT_EQ(count_motion(scene, MotionType::Dynamic), 1240u);
  const BodyDesc& floor = scene.bodies[0];
  EXPECT_EQ(floor.settings.motion_type, MotionType::Static);
  EXPECT_EQ(floor.settings.position, Vec3(0, -1, 0));
  const auto& floor_box = std::get<BoxShapeSettings>(scene.resolve(floor.shape)->settings);
  EXPECT_EQ(floor_box.half_extent, Vec3(50, 1, 50));
  EXPECT_EQ(floor_box.convex_radius, 0.0f);
  for (size_t i = 1; i < scene.bodies.size(); ++i) {
    const BodyDesc& box = scene.bodies[i];
    ASSERT_EQ(box.name, std::string("p").append(std::to_string(i - 1)));
    const auto& shape = std::get<BoxShapeSettings>(scene.resolve(box.shape)->settings);
    EXPECT_EQ(shape.half_extent, Vec3(1, 1, 1));
    EXPECT_EQ(shape.convex_radius, 0.0f);
    EXPECT_EQ(shape.density, 1000.0f);  // the default density
    EXPECT_FALSE(box.settings.override_mass.has_value());
    EXPECT_EQ(box.settings.allow_sleeping, false);
  }
  EXPECT_EQ(scene.find_body("p1239")->settings.position, Vec3(-1, 36, -1));
}

TEST(BuiltinScenes, BulletsAreAHundredLinearCastSpheresAimedAtAThinPlate) {
  const SceneDescription scene = builtin("bullets");
  ASSERT_EQ(scene.bodies.size(), 1u + 100u);
  EXPECT_EQ(scene.steps, 120);
  EXPECT_EQ(scene.physics.gravity, Vec3());
  const BodyDesc& plate = scene.bodies[0];
  EXPECT_EQ(plate.settings.motion_type, MotionType::Static);
  EXPECT_EQ(std::get<BoxShapeSettings>(scene.resolve(plate.shape)->settings).half_extent,
            Vec3(0.01f, 1, 1));
  for (size_t i = 1; i < scene.bodies.size(); ++i) {
    const BodyDesc& ball = scene.bodies[i];
    EXPECT_EQ(std::get<SphereShapeSettings>(scene.resolve(ball.shape)->settings).radius, 0.01f);
    EXPECT_EQ(ball.settings.motion_quality, MotionQuality::LinearCast);
    EXPECT_EQ(ball.settings.linear_velocity, Vec3(40, 0, 0));
    EXPECT_EQ(ball.settings.position.x(), -2.1f);
    // Inside the plate's face, 0.1 m apart (no sphere touches another).
    EXPECT_LE(std::fabs(ball.settings.position.y()), 0.45f + 1e-6f);
    EXPECT_LE(std::fabs(ball.settings.position.z()), 0.45f + 1e-6f);
  }
}

TEST(BuiltinScenes, HighSpeedSpheresAreFiveThousandFastLinearCastSpheresInAClosedBox) {
  const SceneDescription scene = builtin("highspeed_spheres");
  ASSERT_EQ(scene.bodies.size(), 6u + 5000u);
  EXPECT_EQ(count_motion(scene, MotionType::Static), 6u);
  // The walls' inner faces enclose [-20, 20]³ and overlap at the edges: nothing gets out
  // between them.
  AABox inner(Vec3::replicate(-20.0f), Vec3::replicate(20.0f));
  for (size_t i = 0; i < 6; ++i) {
    const BodyDesc& wall = scene.bodies[i];
    const AABox box = scene_shape_bounds(scene, *scene.resolve(wall.shape))
                          .transformed(Mat44::translation(wall.settings.position));
    const int axis = (box.max - box.min).min_component_index();
    EXPECT_EQ(box.max[axis] - box.min[axis], 1.0f) << wall.name;
    EXPECT_EQ(std::fmin(std::fabs(box.min[axis]), std::fabs(box.max[axis])), 20.0f) << wall.name;
    for (int other = 0; other < 3; ++other) {
      if (other != axis) {
        EXPECT_GE(box.max[other] - box.min[other], 42.0f) << wall.name;
      }
    }
  }
  for (size_t i = 6; i < scene.bodies.size(); ++i) {
    const BodyDesc& body = scene.bodies[i];
    EXPECT_EQ(body.settings.motion_type, MotionType::Dynamic);
    EXPECT_EQ(body.settings.motion_quality, MotionQuality::LinearCast);
    EXPECT_NEAR(body.settings.linear_velocity.length(), 250.0f, 0.01f);
    const float radius = std::get<SphereShapeSettings>(scene.resolve(body.shape)->settings).radius;
    EXPECT_TRUE(inner.contains(body.settings.position + Vec3::replicate(radius))) << body.name;
    EXPECT_TRUE(inner.contains(body.settings.position - Vec3::replicate(radius))) << body.name;
  }
  EXPECT_EQ(scene.probes.size(), 6u);
}

TEST(BuiltinScenes, HighSpeedIsJoltsPerformanceTestHighSpeed) {
  const SceneDescription scene = builtin("highspeed");
  ASSERT_EQ(scene.bodies.size(), 6u + 5000u);
  EXPECT_EQ(scene.steps, 500);
  EXPECT_EQ(scene.physics.gravity, PhysicsSettings().gravity);
  EXPECT_EQ(count_motion(scene, MotionType::Static), 6u);
  // Six walls 0.4 m thick centred at ±50 m: the inner faces enclose [-49.8, 49.8]³ and every
  // wall spans the whole side (the box is closed).
  for (size_t i = 0; i < 6; ++i) {
    const BodyDesc& wall = scene.bodies[i];
    EXPECT_EQ(wall.settings.restitution, 1.0f) << wall.name;
    EXPECT_EQ(wall.settings.friction, 1.0f) << wall.name;
    const AABox box = scene_shape_bounds(scene, *scene.resolve(wall.shape))
                          .transformed(Mat44::rotation_translation(wall.settings.rotation,
                                                                   wall.settings.position));
    const int axis = (box.max - box.min).min_component_index();
    EXPECT_NEAR(box.max[axis] - box.min[axis], 0.4f, 1e-5f) << wall.name;
    EXPECT_NEAR(std::fmin(std::fabs(box.min[axis]), std::fabs(box.max[axis])), 49.8f, 1e-5f)
        << wall.name;
    for (int other = 0; other < 3; ++other)
      if (other != axis) {
        EXPECT_NEAR(box.min[other], -50.0f, 1e-4f) << wall.name;
        EXPECT_NEAR(box.max[other], 50.0f, 1e-4f) << wall.name;
      }
  }
  for (size_t i = 6; i < scene.bodies.size(); ++i) {
    const BodyDesc& body = scene.bodies[i];
    EXPECT_EQ(body.settings.motion_type, MotionType::Dynamic);
    EXPECT_EQ(body.settings.motion_quality, MotionQuality::LinearCast);
    // Sphere, box, compound, sphere, …
    const ShapeSubType expected[3] = {ShapeSubType::Sphere, ShapeSubType::Box,
                                      ShapeSubType::StaticCompound};
    EXPECT_EQ(scene.resolve(body.shape)->type(), expected[(i - 6) % 3]) << body.name;
    EXPECT_NEAR(body.settings.linear_velocity.length(), 250.0f, 250.0f * 1e-6f) << body.name;
    EXPECT_LE(body.settings.position.abs().max_component(), 45.0f) << body.name;
    EXPECT_GE(body.settings.friction, 0.5f);
    EXPECT_LE(body.settings.friction, 1.0f);
    EXPECT_GE(body.settings.restitution, 0.9f);
    EXPECT_LE(body.settings.restitution, 1.0f);
  }
  // The first body's draws, as Jolt makes them from a default-seeded std::mt19937 (values
  // computed apart from Atoll, from the twister's first outputs 3499211612, 581869302,
  // 3890346734, … with Jolt's formula lo + float(u) · (hi − lo) / float(2³² − 1)).
  const BodyDesc& first = *scene.find_body("b0");
  EXPECT_EQ(first.settings.position, Vec3(28.3251266f, -32.8070679f, 36.5212708f));
  EXPECT_EQ(first.settings.friction, 0.956687927f);
  EXPECT_EQ(first.settings.restitution, 0.922103405f);
  EXPECT_EQ(first.settings.linear_velocity.z(), 66.1796341f);
  EXPECT_EQ(scene.find_body("b1")->settings.position.x(), -36.2213631f);
}

TEST(BuiltinScenes, ConvexVsMeshIsJoltsPerformanceTestConvexVsMesh) {
  const SceneDescription scene = builtin("convex_vs_mesh");
  ASSERT_EQ(scene.bodies.size(), 1u + 21u * 4u * 21u);
  EXPECT_EQ(scene.steps, 500);
  EXPECT_EQ(scene.physics.velocity_steps, 4);
  EXPECT_EQ(scene.physics.position_steps, 1);
  const BodyDesc& terrain = scene.bodies[0];
  EXPECT_EQ(terrain.name, "terrain0");
  EXPECT_EQ(terrain.settings.motion_type, MotionType::Static);
  EXPECT_EQ(terrain.settings.position, Vec3(-150, 5, -150));
  const auto& mesh = std::get<TriangleMeshShapeSettings>(scene.resolve(terrain.shape)->settings);
  EXPECT_EQ(mesh.vertices.size(), 101u * 101u);
  EXPECT_EQ(mesh.triangles.size(), 20000u);
  // Vertex (x, z) = (3, 2): [9, 5 sin(1.5) cos(1), 6].
  const Float3& v = mesh.vertices[2 * 101 + 3];
  EXPECT_EQ(v.x, 9.0f);
  EXPECT_NEAR(v.y, 5.0 * std::sin(1.5) * std::cos(1.0), 1e-5);
  EXPECT_EQ(v.z, 6.0f);
  for (const BodyDesc& body : scene.bodies) {
    EXPECT_EQ(body.settings.friction, 0.5f) << body.name;
    EXPECT_EQ(body.settings.restitution, 0.6f) << body.name;
  }
  EXPECT_EQ(scene.find_body("box0")->settings.position, Vec3(-75, 15, -75));
  EXPECT_EQ(scene.find_body("ball220")->settings.position, Vec3(0, 17, 0));
  EXPECT_EQ(scene.find_body("pill440")->settings.position, Vec3(75, 19, 75));
  EXPECT_EQ(scene.find_body("hull21")->settings.position, Vec3(-75, 21, -67.5f));
  EXPECT_EQ(std::get<BoxShapeSettings>(scene.resolve(scene.find_body("box0")->shape)->settings)
                .half_extent,
            Vec3(0.5f, 0.75f, 1.0f));
  EXPECT_EQ(
      std::get<ConvexHullShapeSettings>(scene.resolve(scene.find_body("hull0")->shape)->settings)
          .points.size(),
      5u);
}

TEST(BuiltinScenes, ManyPyramidsAreSixtyFourSeparatePyramids) {
  const SceneDescription scene = builtin("many_pyramids");
  ASSERT_EQ(scene.bodies.size(), 1u + 64u * 55u);
  EXPECT_EQ(count_motion(scene, MotionType::Dynamic), 64u * 55u);
  // Each pyramid's boxes stay within its own 12 m cell, with a gap of 2 m to the next: no box
  // touches a box of another pyramid, so each pyramid is an island.
  for (int p = 0; p < 64; ++p) {
    const Vec3 centre(-42.0f + 12.0f * float(p % 8), 0.0f, -42.0f + 12.0f * float(p / 8));
    for (int b = 0; b < 55; ++b) {
      const BodyDesc* box = scene.find_body(
          std::string("p").append(std::to_string(p)).append("_").append(std::to_string(b)));
      ASSERT_NE(box, nullptr);
      EXPECT_FALSE(box->settings.allow_sleeping);
      const Vec3 offset = box->settings.position - centre;
      EXPECT_LE(std::fabs(offset.x()) + 0.5f, 5.0f) << box->name;
      EXPECT_LE(std::fabs(offset.z()) + 0.5f, 0.5f) << box->name;
    }
  }
}

TEST(BuiltinScenes, ConstraintScenes) {
  const SceneDescription chain = builtin("chain");
  EXPECT_EQ(chain.bodies.size(), 1u + 20u);
  ASSERT_EQ(chain.constraints.size(), 20u);
  for (const ConstraintDesc& joint : chain.constraints)
    EXPECT_EQ(joint.type, ConstraintSubType::Hinge) << joint.name;
  EXPECT_EQ(chain.constraints[0].body1, "world");

  const SceneDescription grid = builtin("joint_grid");
  ASSERT_EQ(grid.bodies.size(), 10000u);
  EXPECT_EQ(grid.constraints.size(), 9900u + 9900u + 100u);
  for (const ConstraintDesc& joint : grid.constraints)
    ASSERT_EQ(joint.type, ConstraintSubType::Point) << joint.name;
  for (const BodyDesc& body : grid.bodies) {
    ASSERT_EQ(std::get<SphereShapeSettings>(grid.resolve(body.shape)->settings).radius, 0.4f);
    ASSERT_EQ(body.collision_group, 0u);  // the spheres do not collide with each other
  }

  const SceneDescription ragdolls = builtin("ragdolls");
  EXPECT_EQ(ragdolls.bodies.size(), 1u + 16u * 12u);
  EXPECT_EQ(ragdolls.constraints.size(), 16u * 11u);
  // Each ragdoll its own group: they collide with each other, not with themselves.
  EXPECT_EQ(ragdolls.find_body("r0_head")->collision_group, 0u);
  EXPECT_EQ(ragdolls.find_body("r15_head")->collision_group, 15u);
}

TEST(BuiltinScenes, Tower10IsTenOneKilogramBoxesOnAFloor) {
  const SceneDescription scene = builtin("tower10");
  ASSERT_EQ(scene.bodies.size(), 11u);
  EXPECT_EQ(scene.bodies[0].settings.motion_type, MotionType::Static);
  for (int i = 0; i < 10; ++i) {
    const BodyDesc& box = *scene.find_body(std::string("b").append(std::to_string(i)));
    EXPECT_EQ(box.settings.override_mass, 1.0f);
    EXPECT_EQ(box.settings.position, Vec3(0, 0.5f + float(i), 0));
    EXPECT_EQ(std::get<BoxShapeSettings>(scene.resolve(box.shape)->settings).half_extent,
              Vec3(0.5f, 0.5f, 0.5f));
  }
}

}  // namespace
}  // namespace builtin_scenes_test
}  // namespace atl
