#pragma once
// Reading JSON scene files (docs/scene-format.md) into a SceneDescription, and the CLI's
// --set overrides. Every key is checked; every error is one line naming the source, the JSON
// path and the problem: `demo.json: bodies[3].shape: unknown shape "crat"`.

#include <filesystem>
#include <string_view>

#include "atoll/core/Result.h"
#include "atoll/scene/SceneDescription.h"

namespace atl {

/// Reads, validates and expands (generators) a scene file; errors start with `path` as given.
Result<SceneDescription> read_scene_file(const std::filesystem::path& path);

/// Like read_scene_file for text in memory; errors start with `source_name` ("demo.json").
Result<SceneDescription> read_scene_text(std::string_view text, std::string_view source_name);

/// Applies one "KEY=VALUE" override: KEY is a settings key ("velocity_steps=4",
/// "gravity=[0,-1,0]", also as "settings.KEY"), "bodies.NAME.FIELD" (generated names too;
/// NAME "*" sets the field on every body), "constraints.NAME.FIELD" or
/// "soft_bodies.NAME.FIELD" (a common or a type key: "soft_bodies.rope.compliance").
/// VALUE is JSON; text that is not JSON is taken as a string ("motion=static"). Errors read
/// "--set: KEY: problem" and leave `scene` unchanged.
Status apply_override(SceneDescription& scene, std::string_view assignment);

}  // namespace atl
