// Soft body settings: validation names the first bad field (every kind of bad input the issue
// lists), the generators build what they promise (counts, masses, rest values, outward faces),
// refuse bad parameters by name, and a soft body refuses a bad step without changing.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "atoll/softbody/SoftBody.h"
#include "atoll/softbody/SoftBodyGenerators.h"

namespace atl {
namespace soft_body_settings_test {

// A valid 4-vertex square of two faces with edges and one bend, and a long-range attachment.
Ref<SoftBodySettings> square() {
  Ref<SoftBodySettings> s = new SoftBodySettings();
  s->vertices = {{Vec3(0, 0, 0), Vec3::zero(), 0.0f},
                 {Vec3(1, 0, 0), Vec3::zero(), 1.0f},
                 {Vec3(1, 0, 1), Vec3::zero(), 1.0f},
                 {Vec3(0, 0, 1), Vec3::zero(), 1.0f}};
  s->faces = {{0, 3, 2}, {0, 2, 1}};
  s->create_edges_from_faces(0.001f);
  s->create_bends_from_faces(0.01f);
  s->create_long_range_attachments();
  return s;
}

std::string error_of(const std::function<void(SoftBodySettings&)>& change) {
  Ref<SoftBodySettings> s = square();
  change(*s);
  const Status valid = s->validate();
  return valid.ok() ? "accepted" : valid.error().message();
}

TEST(SoftBodySettings, AValidSquareHasItsEdgesBendAndAttachments) {
  Ref<SoftBodySettings> s = square();
  EXPECT_TRUE(s->validate().ok());
  EXPECT_EQ(s->edges.size(), 5u);  // four sides and the diagonal
  ASSERT_EQ(s->bends.size(), 1u);
  EXPECT_NEAR(s->bends[0].rest_angle, 0.0f, 1.0e-6f);
  EXPECT_EQ(s->long_range.size(), 3u);  // each free vertex to the pinned one
  EXPECT_NEAR(s->long_range[1].max_distance, std::sqrt(2.0f), 1.0e-6f);
  EXPECT_FLOAT_EQ(s->total_mass(), 3.0f);
}

TEST(SoftBodySettings, ValidationNamesTheFirstBadField) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const struct {
    std::function<void(SoftBodySettings&)> change;
    const char* message;
  } cases[] = {
      {[](SoftBodySettings& s) { s.vertices.clear(); },
       "vertices: a soft body needs at least one vertex"},
      {[&](SoftBodySettings& s) { s.vertices[2].position = Vec3(0, nan, 0); },
       "vertices[2].position.y: must be finite"},
      {[](SoftBodySettings& s) { s.vertices[1].inverse_mass = -1.0f; },
       "vertices[1].inverse_mass: must be >= 0, got -1"},
      {[](SoftBodySettings& s) { s.edges[3].compliance = -0.5f; },
       "edges[3].compliance: must be >= 0, got -0.5"},
      {[](SoftBodySettings& s) { s.edges[0].rest_length = 0.0f; },
       "edges[0].rest_length: must be > 0, got 0"},
      {[](SoftBodySettings& s) { s.edges[4].vertex[1] = 9; },
       "edges[4].vertex[1]: vertex 9 out of range (4 vertices)"},
      {[](SoftBodySettings& s) { s.edges[2].vertex[1] = s.edges[2].vertex[0]; },
       "edges[2]: joins vertex"},
      {[](SoftBodySettings& s) {
         s.bend_edges.push_back({{0, 2}, -1.0f, 0.0f});
       },
       "bend_edges[0].rest_length: must be > 0"},
      {[](SoftBodySettings& s) { s.bends[0].vertex[3] = s.bends[0].vertex[0]; },
       "bends[0]: names vertex"},
      {[](SoftBodySettings& s) { s.bends[0].rest_angle = 4.0f; },
       "bends[0].rest_angle: must be in [-pi, pi], got 4"},
      {[](SoftBodySettings& s) { s.long_range[0].anchor = 2; },
       "long_range[0].anchor: vertex 2 is not pinned"},
      {[](SoftBodySettings& s) {
         s.faces[1] = {0, 0, 2};
       },
       "faces[1]: names a vertex twice"},
      {[](SoftBodySettings& s) {
         s.vertices.push_back({Vec3(2, 0, 0), Vec3::zero(), 1.0f});
         s.faces.push_back({0, 1, 4});
       },
       "faces[2]: is degenerate (its vertices are collinear)"},
      {[](SoftBodySettings& s) { s.faces[0][2] = 7; }, "faces[0][2]: vertex 7 out of range"},
      {[](SoftBodySettings& s) {
         s.keep_volume = true;
         s.faces.clear();
       },
       "keep_volume: needs faces"},
      {[](SoftBodySettings& s) { s.vertex_radius = -0.1f; }, "vertex_radius: must be >= 0"},
  };
  for (const auto& c : cases) {
    const std::string message = error_of(c.change);
    EXPECT_EQ(message.rfind(c.message, 0), 0u) << "got: " << message << "\nexpected: " << c.message;
  }
}

TEST(SoftBodyGenerators, ARopeHasItsSegmentsMassAndRestLengths) {
  Ref<SoftBodySettings> rope =
      make_rope(Vec3(0, 2, 0), Vec3(3, 2, 0), 6, 1.4f, 1.0e-4f, 1.0e-3f, 0.05f).value_or_throw();
  EXPECT_TRUE(rope->validate().ok());
  EXPECT_EQ(rope->vertices.size(), 7u);
  EXPECT_EQ(rope->edges.size(), 6u);
  EXPECT_EQ(rope->bend_edges.size(), 5u);
  EXPECT_NEAR(rope->total_mass(), 1.4f, 1.0e-5f);
  for (const SoftBodyEdge& e : rope->edges) EXPECT_NEAR(e.rest_length, 0.5f, 1.0e-6f);
  for (const SoftBodyEdge& e : rope->bend_edges) EXPECT_NEAR(e.rest_length, 1.0f, 1.0e-6f);
  EXPECT_EQ(rope->vertex_radius, 0.05f);
}

TEST(SoftBodyGenerators, AClothIsAGridOfUpwardFacesWithBendsAcrossItsInnerEdges) {
  const uint32_t nx = 5, nz = 4;
  Ref<SoftBodySettings> cloth =
      make_cloth(Vec3(0, 1, 0), 2.0f, 1.5f, nx, nz, 2.0f, 0.0f, 1.0e-3f).value_or_throw();
  EXPECT_TRUE(cloth->validate().ok());
  EXPECT_EQ(cloth->vertices.size(), nx * nz);
  EXPECT_EQ(cloth->faces.size(), 2u * (nx - 1) * (nz - 1));
  const size_t edges = (nx - 1) * nz + nx * (nz - 1) + (nx - 1) * (nz - 1);
  EXPECT_EQ(cloth->edges.size(), edges);
  const size_t boundary = 2 * (nx - 1) + 2 * (nz - 1);
  EXPECT_EQ(cloth->bends.size(), edges - boundary);
  for (const SoftBodyBend& b : cloth->bends) EXPECT_NEAR(b.rest_angle, 0.0f, 1.0e-6f);
  for (const SoftBodyFace& f : cloth->faces) {
    const Vec3 a = cloth->vertices[f[0]].position, b = cloth->vertices[f[1]].position,
               c = cloth->vertices[f[2]].position;
    EXPECT_GT((b - a).cross(c - a).y(), 0.0f);
  }
  EXPECT_NEAR(cloth->total_mass(), 2.0f, 1.0e-5f);
  EXPECT_EQ(cloth->vertices[nx - 1].position, Vec3(1.0f, 1.0f, -0.75f));
}

TEST(SoftBodyGenerators, APressureBallIsAClosedOutwardSphere) {
  const uint32_t counts[] = {12, 42, 162, 642};
  for (uint32_t level = 0; level < 4; ++level) {
    Ref<SoftBodySettings> ball =
        make_pressure_ball(Vec3(1, 2, 3), 0.5f, level, 3.0f, 1.0f, 0.0f).value_or_throw();
    EXPECT_TRUE(ball->validate().ok());
    EXPECT_EQ(ball->vertices.size(), counts[level]);
    // Closed: V − E + F = 2.
    EXPECT_EQ(ball->vertices.size() - ball->edges.size() + ball->faces.size(), 2u);
    const float sphere = 4.0f / 3.0f * k_pi * 0.125f;
    EXPECT_GT(ball->rest_volume, 0.6f * sphere) << level;
    EXPECT_LT(ball->rest_volume, sphere) << level;
    EXPECT_TRUE(ball->keep_volume);
  }
}

TEST(SoftBodyGenerators, BadParametersAreNamed) {
  const struct {
    Result<Ref<SoftBodySettings>> result;
    const char* message;
  } cases[] = {
      {make_rope(Vec3(0, 0, 0), Vec3(0, 0, 0), 4, 1, 0, 0, 0), "rope: to: must differ"},
      {make_rope(Vec3(0, 0, 0), Vec3(1, 0, 0), 0, 1, 0, 0, 0), "rope: segments: must be in [1,"},
      {make_rope(Vec3(0, 0, 0), Vec3(1, 0, 0), 4, 0, 0, 0, 0), "rope: mass: must be > 0"},
      {make_rope(Vec3(0, 0, 0), Vec3(1, 0, 0), 4, 1, -1, 0, 0), "rope: compliance: must be >= 0"},
      {make_cloth(Vec3(0, 0, 0), 1, 1, 1, 4, 1, 0, 0),
       "cloth: resolution[0]: must be in [2, 4096]"},
      {make_cloth(Vec3(0, 0, 0), 1, -1, 4, 4, 1, 0, 0), "cloth: size[1]: must be > 0"},
      {make_cloth(Vec3(0, 0, 0), 1, 1, 4, 4, 1, 0, -2), "cloth: bend_compliance: must be >= 0"},
      {make_pressure_ball(Vec3(0, 0, 0), 1, 9, 1, 1, 0),
       "pressure_ball: subdivisions: must be in [0, 5]"},
      {make_pressure_ball(Vec3(0, 0, 0), 1, 2, 1, 0, 0), "pressure_ball: pressure: must be > 0"},
  };
  for (const auto& c : cases) {
    ASSERT_FALSE(c.result.ok()) << c.message;
    const std::string message = c.result.error().message();
    EXPECT_EQ(message.rfind(c.message, 0), 0u) << "got: " << message;
  }
}

TEST(SoftBody, CreationAndStepsRefuseBadInputAndChangeNothing) {
  Ref<SoftBodySettings> bad = square();
  bad->edges[0].compliance = -1.0f;
  const Result<std::unique_ptr<SoftBody>> refused = SoftBody::create(bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(std::string(refused.error().message()),
            "SoftBody::create: settings.edges[0].compliance: must be >= 0, got -1");

  std::unique_ptr<SoftBody> body = SoftBody::create(square()).value_or_throw();
  SoftBodyStepSettings step;
  ASSERT_TRUE(body->step(0.01f, step).ok());
  const std::vector<Vec3> x(body->positions().begin(), body->positions().end());
  const std::vector<Vec3> v(body->velocities().begin(), body->velocities().end());
  const float inf = std::numeric_limits<float>::infinity();
  SoftBodyStepSettings no_substeps = step, no_iterations = step, bad_gravity = step;
  no_substeps.substeps = 0;
  no_iterations.iterations = -3;
  bad_gravity.gravity = Vec3(0, inf, 0);
  const struct {
    Status status;
    const char* message;
  } cases[] = {
      {body->step(-0.01f, step), "SoftBody::step: dt: must be finite and > 0"},
      {body->step(inf, step), "SoftBody::step: dt: must be finite and > 0"},
      {body->step(0.01f, no_substeps), "SoftBody::step: substeps: must be in [1, 1000]"},
      {body->step(0.01f, no_iterations), "SoftBody::step: iterations: must be in [1, 1000]"},
      {body->step(0.01f, bad_gravity), "SoftBody::step: gravity: must be finite"},
      {body->set_vertex(4, Vec3::zero(), Vec3::zero()),
       "SoftBody::set_vertex: index: 4 out of range"},
  };
  for (const auto& c : cases) {
    ASSERT_FALSE(c.status.ok()) << c.message;
    EXPECT_EQ(std::string(c.status.error().message()).rfind(c.message, 0), 0u)
        << c.status.error().message();
  }
  EXPECT_EQ(std::vector<Vec3>(body->positions().begin(), body->positions().end()), x);
  EXPECT_EQ(std::vector<Vec3>(body->velocities().begin(), body->velocities().end()), v);
}

TEST(SoftBody, AStepWhoseResultOverflowsIsUndone) {
  // Gravity of 3e38 m/s² overflows the positions within a step: refused after the fact, the
  // soft body is as it was.
  std::unique_ptr<SoftBody> body = SoftBody::create(square()).value_or_throw();
  const std::vector<Vec3> x(body->positions().begin(), body->positions().end());
  SoftBodyStepSettings huge;
  huge.gravity = Vec3(0, -3.0e38f, 0);
  const Status s = body->step(1.0f, huge);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(std::string(s.error().message()).find("the result is not finite"), std::string::npos);
  EXPECT_EQ(std::vector<Vec3>(body->positions().begin(), body->positions().end()), x);
}

TEST(SoftBody, APressureBallPushedInRecoversItsVolume) {
  Ref<SoftBodySettings> ball =
      make_pressure_ball(Vec3(0, 0, 0), 0.5f, 2, 1.0f, 1.0f, 1.0e-4f).value_or_throw();
  ball->linear_damping = 1.0f;
  std::unique_ptr<SoftBody> body = SoftBody::create(ball).value_or_throw();
  // Squash the top half toward the centre: a third of the volume gone.
  for (uint32_t i = 0; i < body->vertex_count(); ++i) {
    const Vec3 p = body->positions()[i];
    if (p.y() > 0.0f) {
      ASSERT_TRUE(body->set_vertex(i, Vec3(p.x(), p.y() * 0.3f, p.z()), Vec3::zero()).ok());
    }
  }
  EXPECT_LT(body->volume(), 0.75f * ball->rest_volume);
  SoftBodyStepSettings step;
  step.gravity = Vec3::zero();
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(body->step(1.0f / 60.0f, step).ok());
  EXPECT_NEAR(body->volume(), ball->rest_volume, 0.02f * ball->rest_volume);
}

}  // namespace soft_body_settings_test
}  // namespace atl
