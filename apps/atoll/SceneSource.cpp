#include <filesystem>

#include "Commands.h"
#include "atoll/scene/BuiltinScenes.h"
#include "atoll/scene/SceneReader.h"

namespace atl::cli {

Result<SceneDescription> load_scene(const std::string& scene, std::string& out_source) {
  const std::string name = scene.empty() ? "demo" : scene;
  std::error_code ec;
  if (std::filesystem::is_regular_file(name, ec)) {
    out_source = name;
    return read_scene_file(name);
  }
  if (std::optional<std::string_view> text = builtin_scene_text(name)) {
    out_source = name + " (built-in)";
    return read_scene_text(*text, out_source);
  }
  std::string names;
  for (std::string_view builtin : builtin_scene_names())
    names += (names.empty() ? "" : ", ") + std::string(builtin);
  return Error(name + ": no such scene file or built-in scene (built-ins: " + names + ")");
}

}  // namespace atl::cli
