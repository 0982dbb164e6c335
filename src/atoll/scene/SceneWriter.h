#pragma once
// Writing a SceneDescription back to JSON scene text.

#include <string>

#include "atoll/scene/SceneDescription.h"

namespace atl {

/// The scene as JSON text that read_scene_text reads back to an equal description. Generated
/// bodies are written one by one; settings are written where they differ from PhysicsSettings'
/// defaults (dt, steps and collision_steps always); floats in their shortest exact form.
std::string write_scene_json(const SceneDescription& scene);

}  // namespace atl
