// ContactPart: the normal row only pushes, the friction rows stay inside the Coulomb cone as a
// 2D vector and oppose the slip, warm starting applies both (or only the normal), save/restore
// of the three impulses, deactivate.

#include "atoll/constraint/parts/ContactPart.h"

#include <gtest/gtest.h>

#include "PartTestBodies.h"

namespace atl {
namespace contact_part_test {
namespace {

struct BoxOnGround {
  SolverBody ground = test::static_body(Vec3(0.0f, -1.0f, 0.0f));
  SolverBody box = test::ball(2.0f, 0.5f, Vec3(0.0f, 0.5f, 0.0f));
  Vec3 r1{0.0f, 1.0f, 0.0f};  // the contact point (0, 0, 0) from each centre of mass
  Vec3 r2{0.0f, -0.5f, 0.0f};
  Vec3 n{0.0f, 1.0f, 0.0f};
  Vec3 t1{1.0f, 0.0f, 0.0f};
  Vec3 t2{0.0f, 0.0f, -1.0f};  // n × t1
  ContactPart part;

  void prepare() {
    part.normal.calculate_constraint_properties(ground, r1, box, r2, n);
    part.friction1.calculate_constraint_properties(ground, r1, box, r2, t1);
    part.friction2.calculate_constraint_properties(ground, r1, box, r2, t2);
  }
  Vec3 slip() const { return box.linear_velocity + box.angular_velocity.cross(r2); }
};

TEST(ContactPart, NormalRowOnlyPushes) {
  BoxOnGround s;
  s.box.linear_velocity = Vec3(0.0f, -2.0f, 0.0f);
  s.prepare();
  EXPECT_TRUE(s.part.is_active());
  EXPECT_TRUE(s.part.solve_normal(s.ground, s.box, s.n));
  EXPECT_NEAR(s.box.linear_velocity.y(), 0.0f, 1.0e-6f);
  EXPECT_NEAR(s.part.normal.total_lambda(), 4.0f, 1.0e-5f);  // 2 kg × 2 m/s
  // Separating: no pull.
  ContactPart leaving;
  s.box.linear_velocity = Vec3(0.0f, 1.0f, 0.0f);
  leaving.normal.calculate_constraint_properties(s.ground, s.r1, s.box, s.r2, s.n);
  EXPECT_FALSE(leaving.solve_normal(s.ground, s.box, s.n));
  EXPECT_EQ(s.box.linear_velocity.y(), 1.0f);
}

TEST(ContactPart, FrictionStaysInsideTheCone) {
  BoxOnGround s;
  s.box.linear_velocity = Vec3(3.0f, 0.0f, 4.0f);  // sliding at 5 m/s
  s.prepare();
  // Budget μ·λ_n = 0.5 N·s: not enough to stop 2 kg at 5 m/s (10 N·s).
  EXPECT_TRUE(s.part.solve_friction(s.ground, s.box, s.t1, s.t2, 0.5f));
  const float l1 = s.part.friction1.total_lambda();
  const float l2 = s.part.friction2.total_lambda();
  EXPECT_NEAR(std::hypot(l1, l2), 0.5f, 1.0e-5f);
  // The impulse opposes the slip: along −(3, 0, 4)/5.
  const Vec3 impulse = s.t1 * l1 + s.t2 * l2;
  EXPECT_LT((impulse / 0.5f + Vec3(0.6f, 0.0f, 0.8f)).length(), 1.0e-4f);
  // A large budget stops the slip at the point.
  s.prepare();
  s.part.set_total_lambda(Vec3());
  s.part.solve_friction(s.ground, s.box, s.t1, s.t2, 100.0f);
  EXPECT_LT(s.slip().length(), 1.0e-5f);
}

TEST(ContactPart, WarmStartRoundTripAndDeactivate) {
  BoxOnGround s;
  s.prepare();
  s.part.set_total_lambda(Vec3(2.0f, 1.0f, -1.0f));
  EXPECT_EQ(s.part.total_lambda(), Vec3(2.0f, 1.0f, -1.0f));
  // Normal only (manifold friction warm-starts its own rows).
  s.part.warm_start(s.ground, s.box, 0.5f, false);
  EXPECT_NEAR(s.box.linear_velocity.y(), 0.5f, 1.0e-6f);  // 1 N·s / 2 kg
  EXPECT_EQ(s.box.linear_velocity.x(), 0.0f);
  EXPECT_EQ(s.part.friction1.total_lambda(), 1.0f);
  // All three.
  s.box.linear_velocity = Vec3();
  s.box.angular_velocity = Vec3();
  s.part.set_total_lambda(Vec3(2.0f, 1.0f, -1.0f));
  s.part.warm_start(s.ground, s.box, 0.5f);
  EXPECT_NEAR(s.box.linear_velocity.x(), 0.25f, 1.0e-6f);
  EXPECT_NEAR(s.box.linear_velocity.z(), 0.25f, 1.0e-6f);  // −0.5 N·s along t2 = −z
  EXPECT_EQ(s.part.total_lambda(), Vec3(1.0f, 0.5f, -0.5f));

  s.part.impact_lambda = 0.3f;
  s.part.deactivate();
  EXPECT_FALSE(s.part.is_active());
  EXPECT_EQ(s.part.total_lambda(), Vec3());
  EXPECT_EQ(s.part.impact_lambda, 0.0f);
  const Vec3 v = s.box.linear_velocity;
  s.box.linear_velocity.set_y(-1.0f);
  EXPECT_FALSE(s.part.solve_normal(s.ground, s.box, s.n));
  EXPECT_FALSE(s.part.solve_friction(s.ground, s.box, s.t1, s.t2, 10.0f));
  EXPECT_EQ(s.box.linear_velocity.x(), v.x());
  EXPECT_EQ(s.box.linear_velocity.y(), -1.0f);
}

}  // namespace
}  // namespace contact_part_test
}  // namespace atl
