#include "atoll/state/StateHash.h"

#include "atoll/core/Hash.h"

namespace atl {

uint64_t state_hash(const BodyManager& bodies) {
  uint64_t hash = k_fnv1a_basis;
  const auto add = [&hash](const Vec3& v) {
    hash = hash_float(v.x(), hash);
    hash = hash_float(v.y(), hash);
    hash = hash_float(v.z(), hash);
  };
  bodies.for_each_body([&](const Body& body) {
    add(body.position());
    const Quat q = body.rotation();
    hash = hash_float(q.x(), hash);
    hash = hash_float(q.y(), hash);
    hash = hash_float(q.z(), hash);
    hash = hash_float(q.w(), hash);
    add(body.linear_velocity());
    add(body.angular_velocity());
  });
  return hash;
}

uint64_t state_hash(const BodyManager& bodies, const SoftBodyManager& soft_bodies) {
  uint64_t hash = state_hash(bodies);
  bodies.for_each_body([&](const Body& body) {
    if (!body.is_soft_body()) return;
    const SoftBody* soft = soft_bodies.get(body.id());
    if (soft == nullptr) return;
    for (const std::span<const Vec3> values : {soft->positions(), soft->velocities()})
      for (const Vec3& v : values)
        for (int i = 0; i < 3; ++i) hash = hash_float(v[i], hash);
  });
  return hash;
}

}  // namespace atl
