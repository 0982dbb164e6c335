#pragma once
// The scenes shipped in scenes/*.json, embedded into the library when CMake configures, so that
// the CLI, the tests and the benchmarks run the same scene text without finding files.

#include <optional>
#include <string_view>
#include <vector>

namespace atl {

/// JSON text of the built-in scene `name` ("demo", "pyramid", "tower10"), or nothing.
std::optional<std::string_view> builtin_scene_text(std::string_view name);

/// Names of the built-in scenes, sorted.
std::vector<std::string_view> builtin_scene_names();

}  // namespace atl
