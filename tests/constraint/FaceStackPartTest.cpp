// FaceStackPart: one solve brings every face contact of a stack to its target at once, with
// any mass ratio, whichever way round each contact names its bodies.

#include "atoll/constraint/parts/FaceStackPart.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace atl {
namespace face_stack_part_test {
namespace {

// Cubes of 1 m stacked on a static ground, centres at y = 0.5, 1.5, 2.5; inertia m/6 per axis.
struct Stack {
  SolverBody ground;
  std::array<SolverBody, 3> cubes;
  struct Contact {
    SolverBody* body1;
    SolverBody* body2;
    Vec3 normal;  // from body 1 to body 2
    std::array<Vec3, 4> r1;
    std::array<Vec3, 4> r2;
    FaceContactPart part;
    std::array<float, 4> lambdas{};
  };
  std::array<Contact, 3> contacts;

  // `flip_middle`: the contact between cube 0 and cube 1 names cube 1 as body 1.
  Stack(const std::array<float, 3>& masses, bool flip_middle) {
    ground.com_position = Vec3(0.0f, -1.0f, 0.0f);
    for (int i = 0; i < 3; ++i) {
      cubes[i].com_position = Vec3(0.0f, 0.5f + static_cast<float>(i), 0.0f);
      cubes[i].inv_mass = Vec3::replicate(1.0f / masses[i]);
      cubes[i].inv_inertia = Mat44::scale(Vec3::replicate(6.0f / masses[i]));
    }
    const float corners[4][2] = {{-0.5f, -0.5f}, {0.5f, -0.5f}, {0.5f, 0.5f}, {-0.5f, 0.5f}};
    for (int k = 0; k < 3; ++k) {
      Contact& c = contacts[k];
      SolverBody* lower = k == 0 ? &ground : &cubes[k - 1];
      SolverBody* upper = &cubes[k];
      const bool flip = flip_middle && k == 1;
      c.body1 = flip ? upper : lower;
      c.body2 = flip ? lower : upper;
      c.normal = flip ? Vec3(0.0f, -1.0f, 0.0f) : Vec3(0.0f, 1.0f, 0.0f);
      for (int i = 0; i < 4; ++i) {
        const Vec3 p(corners[i][0], static_cast<float>(k), corners[i][1]);
        c.r1[i] = p - c.body1->com_position;
        c.r2[i] = p - c.body2->com_position;
      }
      const Vec3 t1(1.0f, 0.0f, 0.0f);
      const std::array<float, 4> targets{};
      c.part.calculate_constraint_properties(*c.body1, *c.body2, c.r1.data(), c.r2.data(),
                                             targets.data(), 4, c.normal, t1, c.normal.cross(t1));
    }
  }

  float normal_velocity(int k, int i) const {
    const Contact& c = contacts[k];
    const Vec3 v1 = c.body1->linear_velocity + c.body1->angular_velocity.cross(c.r1[i]);
    const Vec3 v2 = c.body2->linear_velocity + c.body2->angular_velocity.cross(c.r2[i]);
    return (v2 - v1).dot(c.normal);
  }

  // One direct solve of the whole stack; false when a point would pull.
  bool solve() {
    FaceStackPart stack;
    for (int k = 0; k < 3; ++k) {
      const Contact& c = contacts[k];
      // The body shared with the contact below / above.
      const bool previous_via_body2 = k > 0 && c.body2 == &cubes[k - 1];
      const bool next_via_body2 = k < 2 && c.body2 == &cubes[k];
      if (!stack.push_back(c.part, previous_via_body2, next_via_body2)) return false;
    }
    std::vector<std::array<float, 3>> errors(3);
    std::vector<std::array<float, 3>> impulses(3);
    for (int k = 0; k < 3; ++k)
      contacts[k].part.velocity_error(*contacts[k].body1, *contacts[k].body2, errors[k].data());
    stack.solve(errors, impulses);
    std::array<std::array<float, 4>, 3> updated;
    for (int k = 0; k < 3; ++k)
      if (!contacts[k].part.push_only_lambdas(impulses[k].data(), contacts[k].lambdas.data(),
                                              updated[k].data()))
        return false;
    for (int k = 0; k < 3; ++k)
      contacts[k].part.apply_lambdas(*contacts[k].body1, *contacts[k].body2,
                                     contacts[k].lambdas.data(), updated[k].data());
    return true;
  }
};

void expect_all_stopped(const Stack& s) {
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 4; ++i)
      EXPECT_NEAR(s.normal_velocity(k, i), 0.0f, 1e-4f) << "contact " << k << " corner " << i;
}

TEST(FaceStackPart, OneSolveStopsEveryContactOfAFallingStack) {
  for (bool flip : {false, true}) {
    Stack s({1.0f, 1.0f, 1.0f}, flip);
    for (SolverBody& cube : s.cubes) cube.linear_velocity = Vec3(0.0f, -0.1635f, 0.0f);
    s.cubes[1].angular_velocity = Vec3(0.2f, 0.0f, -0.1f);
    ASSERT_TRUE(s.solve()) << "flip " << flip;
    expect_all_stopped(s);
    // The floor carries all three boxes: 3 × 0.1635 N·s over its four corners.
    float floor = 0.0f;
    for (float l : s.contacts[0].lambdas) floor += l;
    EXPECT_NEAR(floor, 3.0f * 0.1635f, 1e-4f);
  }
}

TEST(FaceStackPart, HeavyBoxOnLightBoxStopsInOneSolve) {
  // 1 kg, 1000 kg, 1 kg: one block at a time would leave the heavy box 99.9 % of its speed.
  Stack s({1.0f, 1000.0f, 1.0f}, true);
  for (SolverBody& cube : s.cubes) cube.linear_velocity = Vec3(0.0f, -1.0f, 0.0f);
  ASSERT_TRUE(s.solve());
  expect_all_stopped(s);
  EXPECT_NEAR(s.cubes[1].linear_velocity.y(), 0.0f, 1e-4f);
  float floor = 0.0f;
  for (float l : s.contacts[0].lambdas) floor += l;
  EXPECT_NEAR(floor, 1002.0f, 0.1f);  // float impulses: 1001.95 read
}

TEST(FaceStackPart, ContactBlocksAloneLeaveTheStackMoving) {
  // The same falling stack, each block solved on its own once, bottom to top: the upper boxes
  // still push down on the lower ones (what the direct solve is for).
  Stack s({1.0f, 1.0f, 1.0f}, false);
  for (SolverBody& cube : s.cubes) cube.linear_velocity = Vec3(0.0f, -0.1635f, 0.0f);
  for (Stack::Contact& c : s.contacts)
    c.part.solve_velocity_constraint(*c.body1, *c.body2, c.lambdas.data());
  EXPECT_LT(s.normal_velocity(0, 0), -0.01f);
}

}  // namespace
}  // namespace face_stack_part_test
}  // namespace atl
