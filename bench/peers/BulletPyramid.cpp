#include "BulletPyramid.h"

#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

namespace atl::peers {

namespace {

// The scene of Jolt's PerformanceTest "Pyramid" (PyramidScene.h), reproduced exactly:
//
//   floor  static box, half extents (50, 1, 50), centre (0, -1, 0): its top face is y = 0.
//   boxes  dynamic cubes of half extent 1, no convex radius (Bullet margin 0), sleeping off.
//          15 layers; layer i (i = 0 at the bottom) is a (15 - i) x (15 - i) grid with 2 m
//          spacing, shifted by half a box in x and z on odd layers (a brick bond), with its
//          centres at y = 1 + 2.5 i: every layer starts 0.5 m above the one below it and
//          drops onto it. 15² + 14² + ... + 1² = 1240 boxes.
//
// Jolt's defaults that the scene relies on are set explicitly here: density 1000 kg/m³
// (mass 8000 kg per 8 m³ box), friction 0.2, restitution 0, linear and angular damping 0.05,
// 10 velocity iterations, 1/60 s steps, gravity -9.81 m/s².
constexpr int k_pyramid_height = 15;
constexpr float k_box_size = 2.0f;
constexpr float k_box_separation = 0.5f;
constexpr float k_half_box_size = 0.5f * k_box_size;
constexpr float k_box_mass = 1000.0f * k_box_size * k_box_size * k_box_size;
// Solid cube of side a: I = m a² / 6 about every axis through its centre.
constexpr float k_box_inertia = k_box_mass * k_box_size * k_box_size / 6.0f;
constexpr float k_friction = 0.2f;
constexpr float k_damping = 0.05f;
constexpr int k_solver_iterations = 10;
constexpr double k_time_step = 1.0 / 60.0;

// Bullet combines the frictions of two bodies as their product, Jolt as the geometric mean
// sqrt(f1 f2). Giving every body sqrt(0.2) makes each contact see 0.2, as in Jolt.
const float k_body_friction = std::sqrt(k_friction);

std::unique_ptr<btRigidBody> make_body(btCollisionShape& shape, float mass, float inertia,
                                       const btVector3& position) {
  btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, &shape,
                                                btVector3(inertia, inertia, inertia));
  info.m_startWorldTransform.setIdentity();
  info.m_startWorldTransform.setOrigin(position);
  info.m_friction = k_body_friction;
  info.m_restitution = 0.0f;
  if (mass > 0.0f) {
    // Bullet damps by v *= (1 - c)^dt, Jolt by v *= 1 - c dt: the same to within 3e-5 per
    // step at these values.
    info.m_linearDamping = k_damping;
    info.m_angularDamping = k_damping;
  }
  auto body = std::make_unique<btRigidBody>(info);
  if (mass > 0.0f) body->setActivationState(DISABLE_DEACTIVATION);
  return body;
}

}  // namespace

PeerResult run_bullet_pyramid(int steps) {
  steps = std::max(steps, 0);

  // Bodies and shapes outlive the world, whose destructor still touches its bodies.
  btBoxShape floor_shape(btVector3(50.0f, 1.0f, 50.0f));
  floor_shape.setMargin(0.0f);  // btBoxShape keeps its half extents when the margin changes
  btBoxShape box_shape(btVector3(k_half_box_size, k_half_box_size, k_half_box_size));
  box_shape.setMargin(0.0f);
  std::unique_ptr<btRigidBody> floor;
  std::vector<std::unique_ptr<btRigidBody>> boxes;

  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher(&configuration);
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &configuration);
  world.setGravity(btVector3(0.0f, -9.81f, 0.0f));
  world.getSolverInfo().m_numIterations = k_solver_iterations;

  floor = make_body(floor_shape, 0.0f, 0.0f, btVector3(0.0f, -1.0f, 0.0f));
  world.addRigidBody(floor.get());
  for (int i = 0; i < k_pyramid_height; ++i)
    for (int j = i / 2; j < k_pyramid_height - (i + 1) / 2; ++j)
      for (int k = i / 2; k < k_pyramid_height - (i + 1) / 2; ++k) {
        const float shift = (i & 1) ? k_half_box_size : 0.0f;
        const btVector3 position(-k_pyramid_height + k_box_size * j + shift,
                                 1.0f + (k_box_size + k_box_separation) * i,
                                 -k_pyramid_height + k_box_size * k + shift);
        boxes.push_back(make_body(box_shape, k_box_mass, k_box_inertia, position));
        world.addRigidBody(boxes.back().get());
      }

  // maxSubSteps = 0: exactly one step of k_time_step per call, no interpolation.
  const auto start = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) world.stepSimulation(static_cast<btScalar>(k_time_step), 0);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  PeerResult result;
  result.steps = steps;
  result.steps_per_second = seconds > 0.0 ? steps / seconds : 0.0;
  result.final_positions.reserve(boxes.size());
  for (const auto& box : boxes) {
    const btVector3& p = box->getCenterOfMassPosition();
    result.final_positions.push_back(
        {static_cast<float>(p.x()), static_cast<float>(p.y()), static_cast<float>(p.z())});
  }

  for (auto it = boxes.rbegin(); it != boxes.rend(); ++it) world.removeRigidBody(it->get());
  world.removeRigidBody(floor.get());
  return result;
}

}  // namespace atl::peers
