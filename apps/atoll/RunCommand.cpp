#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "Commands.h"
#include "atoll/scene/Recording.h"
#include "atoll/scene/SceneReader.h"
#include "atoll/scene/SceneWorld.h"

namespace atl::cli {

namespace {

// A progress bar on stderr, shown only for runs that take more than a second, and only when
// stderr is a terminal.
class ProgressBar {
 public:
  explicit ProgressBar(bool enabled) : enabled_(enabled && isatty(STDERR_FILENO) != 0) {}
  ~ProgressBar() {
    if (shown_) std::fprintf(stderr, "\n");
  }
  void update(int done, int total) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (!shown_ && now - start_ < std::chrono::seconds(1)) return;
    if (shown_ && done != total && now - last_ < std::chrono::milliseconds(100)) return;
    shown_ = true;
    last_ = now;
    constexpr int k_width = 40;
    const int filled = total > 0 ? done * k_width / total : k_width;
    std::fprintf(stderr, "\r[%.*s%*s] %d/%d steps", filled,
                 "########################################", k_width - filled, "", done, total);
    std::fflush(stderr);
  }

 private:
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_;
};

int bad_input(const std::string& message) {
  std::fprintf(stderr, "atoll: %s\n", message.c_str());
  return k_exit_bad_input;
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) {
    std::fprintf(stderr, "atoll: %s: cannot write file\n", path.c_str());
    return false;
  }
  return true;
}

// Whether `path` can be written without creating anything now: an existing file must be
// writable, a new one needs a writable directory. Checked before the run, so that a typo in
// an output path costs no simulation time and, like any bad input, exits 2 writing nothing.
std::optional<std::string> unwritable(const std::string& path) {
  const std::filesystem::path file(path);
  std::error_code error;
  if (std::filesystem::exists(file, error)) {
    if (std::filesystem::is_directory(file, error)) return path + ": cannot write: is a directory";
    if (access(path.c_str(), W_OK) != 0) return path + ": cannot write: " + std::strerror(errno);
    return std::nullopt;
  }
  const std::filesystem::path directory =
      file.parent_path().empty() ? std::filesystem::path(".") : file.parent_path();
  if (access(directory.c_str(), W_OK) != 0) return path + ": cannot write: " + std::strerror(errno);
  return std::nullopt;
}

}  // namespace

int run_command(const RunArgs& args) {
  if (args.threads != 1)
    return bad_input("--threads: must be 1 (the step is single-threaded in this version), got " +
                     std::to_string(args.threads));
  std::string source;
  Result<SceneDescription> scene = load_scene(args.scene, source);
  if (!scene) return bad_input(scene.error().message());
  for (const std::string& assignment : args.sets)
    if (Status ok = apply_override(*scene, assignment); !ok) return bad_input(ok.error().message());
  if (args.steps < -1 || args.steps == 0)
    return bad_input("--steps: must be >= 1, got " + std::to_string(args.steps));

  Result<std::unique_ptr<SceneWorld>> world = SceneWorld::create(*scene, source);
  if (!world) return bad_input(world.error().message());
  for (const std::string* output : {&args.summary, &args.trace})
    if (!output->empty())
      if (const std::optional<std::string> problem = unwritable(*output))
        return bad_input(*problem);

  // Outputs are built in memory and written only when the whole run succeeded, so that bad
  // input never leaves a partial file behind. The recording, which can be large, streams into
  // a temporary file that is renamed at the end (and removed on any early return).
  std::unique_ptr<RecordingWriter> recording;
  if (!args.record.empty()) {
    const SceneWorld& w = **world;
    Result<std::unique_ptr<RecordingWriter>> writer =
        RecordingWriter::create(args.record, w.system().bodies(), w.body_ids(), w.body_names(),
                                scene->dt, args.steps > 0 ? args.steps : scene->steps, source);
    if (!writer) return bad_input(writer.error().message());
    recording = std::move(*writer);
  }
  std::ostringstream trace;
  RunOptions options;
  options.steps = args.steps;
  options.recording = recording.get();
  options.trace = args.trace.empty() ? nullptr : &trace;
  options.trace_bodies = args.trace_bodies;
  ProgressBar progress(!args.quiet);
  options.progress = [&progress](int done, int total) { progress.update(done, total); };
  Result<RunSummary> summary = run_scene(**world, options, source);
  if (!summary) return bad_input(summary.error().message());

  if (!args.trace.empty() && !write_file(args.trace, trace.str())) return k_exit_failure;
  if (!args.summary.empty() && !write_file(args.summary, summary_to_json(*summary)))
    return k_exit_failure;
  if (recording != nullptr) {
    if (Status finished = recording->finish(); !finished) {
      std::fprintf(stderr, "atoll: %s\n", finished.error().message());
      return k_exit_failure;
    }
  }
  for (const RunSummary::QuarantinedBody& q : summary->quarantined)
    std::fprintf(stderr,
                 "atoll: warning: step %d: body \"%s\" went non-finite and was quarantined "
                 "(put back at its pose from the start of the step, at rest, out of the "
                 "simulation)\n",
                 q.step, q.name.c_str());
  if (!args.quiet) {
    std::printf("%s: %d bodies, %d steps of %.6g s, %.3f ms/step, state hash %s\n", source.c_str(),
                static_cast<int>(summary->bodies.size()), summary->steps, summary->dt,
                summary->wall_ms_per_step, hash_to_hex(summary->state_hash).c_str());
    std::printf("max penetration %.2f mm, active bodies at the end %u, all asleep at step %d\n",
                summary->max_penetration_m * 1000.0f,
                summary->active_bodies.empty() ? 0u : summary->active_bodies.back(),
                summary->first_all_asleep_step);
    if (!summary->update_error.empty()) std::printf("warning: %s\n", summary->update_error.c_str());
  }
  return k_exit_ok;
}

}  // namespace atl::cli
