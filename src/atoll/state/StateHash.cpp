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

}  // namespace atl
