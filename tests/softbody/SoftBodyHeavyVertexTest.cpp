// Regression (found by tests/fuzz's api_calls target): a vertex of inverse mass 1e-38 weighs
// 1e38 kg; the centre of mass summed weight × position in float, overflowed, and the soft body's
// Body got an infinite pose. The means are now summed in double and stay among the vertices.

#include <gtest/gtest.h>

#include <memory>

#include "atoll/softbody/SoftBody.h"
#include "atoll/softbody/SoftBodyGenerators.h"

namespace atl {
namespace soft_body_heavy_vertex_test {

TEST(SoftBodyHeavyVertex, CentreOfMassAndVelocityStayFinite) {
  Ref<SoftBodySettings> rope =
      make_rope(Vec3(9.0e6f, 0, 0), Vec3(9.0e6f, -4, 0), 4, 1.0f, 0.0f, 0.0f, 0.02f)
          .value_or_throw();
  for (SoftBodyVertex& v : rope->vertices) {
    v.inverse_mass = 1.0e-38f;
    v.velocity = Vec3(0, -3, 0);
  }
  rope->vertices[2].inverse_mass = 1.0f;
  const std::unique_ptr<SoftBody> body = SoftBody::create(rope).value_or_throw();
  const Vec3 c = body->center_of_mass();
  ASSERT_TRUE(c.is_finite()) << c;
  EXPECT_FLOAT_EQ(c.x(), 9.0e6f);
  EXPECT_NEAR(c.y(), -2.0f, 1e-3f);  // the four heavy vertices' mean (the light one weighs 0)
  const Vec3 v = body->linear_velocity();
  ASSERT_TRUE(v.is_finite()) << v;
  EXPECT_FLOAT_EQ(v.y(), -3.0f);
}

}  // namespace soft_body_heavy_vertex_test
}  // namespace atl
