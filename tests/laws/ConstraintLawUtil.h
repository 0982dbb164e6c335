#pragma once
// Helpers shared by the constraint law tests (one file per constraint type): points in a
// body's frame, adding a made constraint, a thrown pair of boxes, the rotation error.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "atoll/constraint/Constraint.h"
#include "atoll/core/Random.h"
#include "laws/LawFixture.h"

namespace atl::laws {

// World position of a point given in a body's centre-of-mass frame.
inline Vec3 world_point(LawWorld& world, BodyID id, const Vec3& local) {
  if (id == Constraint::k_world) return local;
  const Body& b = world.body(id);
  return b.center_of_mass_position() + b.rotation() * local;
}

inline Ref<Constraint> add(LawWorld& world, Result<Ref<Constraint>> made) {
  EXPECT_TRUE(made.ok()) << (made.ok() ? "" : made.error().message());
  if (!made) return nullptr;
  const Status added = world.system().add_constraint(made.value());
  EXPECT_TRUE(added.ok()) << (added.ok() ? "" : added.error().message());
  return made.value();
}

// A vector of three uniform draws in [lo, hi), drawn x, y, z in that order. (The arguments of
// Vec3(r(), r(), r()) are evaluated in an unspecified order: g++ and clang draw them differently,
// so the same seed threw other bodies in the two builds.)
inline Vec3 random_vec3(Random& random, float lo, float hi) {
  const float x = random.uniform(lo, hi);
  const float y = random.uniform(lo, hi);
  const float z = random.uniform(lo, hi);
  return Vec3(x, y, z);
}

// Two boxes 1 m apart, thrown under gravity: a common random velocity (±5 m/s per axis) plus
// each its own (±1 m/s and ±1 rad/s per axis). The spin this gives the pair sets the drift the
// position solve must take back: a lever arm r turning by ω·dt leaves the joint by r·(ω·dt)²/2
// each step, which two Baumgarte passes of 0.2 hold at about 1.8× that (measured with ±5 m/s
// and ±5 rad/s per body instead: 1.9 to 5.8 mm on the point joint, as Jolt's scheme would).
struct ThrownPair {
  BodyID a, b;
};
inline ThrownPair thrown_pair(LawWorld& world, uint32_t seed) {
  Random random(seed);
  const Vec3 common = random_vec3(random, -5.0f, 5.0f);
  const auto options = [&] {
    BodyOptions o;
    o.linear_velocity = common + random_vec3(random, -1.0f, 1.0f);
    o.angular_velocity = random_vec3(random, -1.0f, 1.0f);
    return o;
  };
  const Vec3 half(0.25f, 0.15f, 0.1f);
  ThrownPair p;
  p.a = world.add_box(half, Vec3(0.0f, 10.0f, 0.0f), options());
  p.b = world.add_box(half, Vec3(1.0f, 10.0f, 0.0f), options());
  return p;
}

// Rotation error (rad) of body b relative to body a against the relative rotation q0.
inline float rotation_error(LawWorld& world, BodyID a, BodyID b, const Quat& q0) {
  const Quat e =
      (world.body(b).rotation() * q0.conjugated() * world.body(a).rotation().conjugated())
          .normalized()
          .ensure_w_positive();
  return 2.0f * e.xyz().length();
}

}  // namespace atl::laws
