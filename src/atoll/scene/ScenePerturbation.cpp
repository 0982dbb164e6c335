#include "atoll/scene/ScenePerturbation.h"

#include "atoll/core/Random.h"

namespace atl {

void perturb_scene(SceneDescription& scene, uint32_t seed) {
  if (seed == 0) return;
  Random random(seed);
  const auto jitter = [&random](float bound) {
    const float x = random.uniform(-bound, bound);
    const float y = random.uniform(-bound, bound);
    const float z = random.uniform(-bound, bound);
    return Vec3(x, y, z);
  };
  for (BodyDesc& body : scene.bodies) {
    if (body.settings.motion_type != MotionType::Dynamic) continue;
    body.settings.position += jitter(k_seed_position_jitter);
    body.settings.linear_velocity += jitter(k_seed_velocity_jitter);
  }
}

}  // namespace atl
