// Fuzz target: the scene reader. The bytes are a scene file's text (read_scene_text); a scene it
// accepts with few enough bodies (and soft-body vertices) is built into a world
// (SceneWorld::create) and stepped a few times. Checks: a rejection has a message; a built world's
// bodies stay finite (or are quarantined by the engine) after every step.
#include <cstdint>
#include <string_view>

#include "FuzzCommon.h"
#include "atoll/run/SceneWorld.h"
#include "atoll/scene/SceneReader.h"
#include "atoll/scene/SceneSoftBodies.h"

namespace fuzz_scene_reader {

// Scenes up to this many bodies and constraints are built and stepped (the shipped scenes hold
// up to ~1000 bodies; the fuzzer's time goes to the reader, not to big worlds).
constexpr size_t k_max_built_bodies = 64;
// Soft bodies up to this many vertices in all are built and stepped (a cloth may ask for 10⁶).
constexpr size_t k_max_built_soft_vertices = 4096;
constexpr int k_steps = 3;

}  // namespace fuzz_scene_reader

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace atl;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<SceneDescription> scene = read_scene_text(text, "fuzz.json");
  if (!fuzz::accepted(scene, "read_scene_text")) return 0;
  if (scene->bodies.size() > fuzz_scene_reader::k_max_built_bodies ||
      scene->constraints.size() > fuzz_scene_reader::k_max_built_bodies)
    return 0;
  size_t soft_vertices = 0;
  for (const SoftBodyDesc& desc : scene->soft_bodies) {
    // Read means buildable: the reader built every soft body already.
    Result<SceneSoftBody> built = build_scene_soft_body(desc);
    fuzz::check(built.ok(), "build_scene_soft_body refused a soft body the reader accepted");
    if (!built) return 0;
    soft_vertices += built->settings->vertices.size();
  }
  if (soft_vertices > fuzz_scene_reader::k_max_built_soft_vertices) return 0;
  Result<std::unique_ptr<SceneWorld>> world = SceneWorld::create(*scene, "fuzz.json");
  if (!fuzz::accepted(world, "SceneWorld::create")) return 0;
  PhysicsSystem& system = (*world)->system();
  fuzz::check_world_finite(system);
  for (int step = 0; step < fuzz_scene_reader::k_steps; ++step) {
    const Result<UpdateResult> updated = system.update(scene->dt, scene->collision_steps);
    if (!fuzz::accepted(updated, "PhysicsSystem::update")) break;
    fuzz::check_world_finite(system);
  }
  return 0;
}
