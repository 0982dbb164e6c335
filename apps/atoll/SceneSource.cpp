#include <filesystem>

#include "Commands.h"
#include "atoll/scene/BuiltinScenes.h"
#include "atoll/scene/SceneReader.h"

namespace atl::cli {

Result<std::unique_ptr<ThreadPool>> make_thread_pool(int threads) {
  // Checked here, so that the message names the option (and a negative count is not reported
  // as a huge unsigned one).
  if (threads < 1 || threads > static_cast<int>(ThreadPool::k_max_workers))
    return Error("--threads: must be in [1, " + std::to_string(ThreadPool::k_max_workers) +
                 "], got " + std::to_string(threads));
  Result<std::unique_ptr<ThreadPool>> pool = ThreadPool::create(static_cast<uint32_t>(threads));
  if (!pool) return Error(std::string("--threads: ") + pool.error().message());
  return pool;
}

Result<SceneDescription> load_scene(const std::string& scene, std::string& out_source) {
  std::error_code ec;
  // Only an absent SCENE means the demo: an empty one (`atoll run ""`, an unset shell variable)
  // used to run the demo too.
  if (scene.empty()) return Error(std::string("SCENE: empty name (leave it out to run the demo)"));
  const std::string& name = scene;
  if (std::filesystem::is_directory(name, ec))
    return Error(name + ": is a directory, not a scene file");
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
