#pragma once
// A scene's soft body made into the engine's settings (scene/SoftBodyFields.cpp): the world
// builder uses it, and the reader has already run it on every soft body it returns, so that a
// soft body the engine would refuse is refused at the key of the file that caused it.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "atoll/core/Result.h"
#include "atoll/scene/SceneDescription.h"

namespace atl {

/// What a scene soft body becomes: the settings (generated, pinned, validated) and the vertices
/// tied to rigid bodies, by scene body name.
struct SceneSoftBody {
  Ref<SoftBodySettings> settings;
  std::vector<std::pair<uint32_t, std::string>> ties;
};

/// Builds `desc`; error "soft_bodies.NAME.KEY: problem" (never for a soft body of a scene the
/// reader returned).
Result<SceneSoftBody> build_scene_soft_body(const SoftBodyDesc& desc);

/// The vertices `desc` makes (a rope's segments + 1, a cloth's resolution x × z, …), counted
/// without making them.
int64_t scene_soft_body_vertices(const SoftBodyDesc& desc);

/// Scene-file name of the soft body's type ("rope", "cloth", "pressure_ball", "mesh").
const char* scene_soft_body_type_name(const SoftBodyDesc& desc);

}  // namespace atl
