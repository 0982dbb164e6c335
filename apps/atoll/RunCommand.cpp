#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string_view>

#include "Commands.h"
#include "atoll/run/Recording.h"
#include "atoll/run/SceneWorld.h"
#include "atoll/scene/ScenePerturbation.h"
#include "atoll/scene/SceneReader.h"

namespace atl::cli {

namespace {

// A progress bar on stderr, shown only for runs that take more than a second, and only when
// stderr is a terminal.
class ProgressBar {
 public:
  explicit ProgressBar(bool enabled) : enabled_(enabled && isatty(STDERR_FILENO) != 0) {}
  ~ProgressBar() { clear(); }
  // Erases the bar, so that what is printed next starts at the beginning of a clean line (the
  // report used to follow "100/100 steps" on the same line).
  void clear() {
    if (!shown_) return;
    std::fprintf(stderr, "\r%*s\r", k_line_width, "");
    std::fflush(stderr);
    shown_ = false;
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
  static constexpr int k_line_width = 72;
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_;
};

int bad_input(const std::string& message) {
  std::fprintf(stderr, "atoll: %s\n", message.c_str());
  return k_exit_bad_input;
}

namespace fs = std::filesystem;

fs::path partial_path(const fs::path& path) {
  fs::path temp = path;
  temp += ".partial";
  return temp;
}

// Writes `text` to `path`.partial (renamed into place once every output is written, so that a
// full disk or any other write error leaves neither a partial file nor a damaged old one).
// `path` is the resolved target (a symlink's target, see resolve_output).
bool write_partial(const fs::path& path, const std::string& shown, std::string_view text) {
  const fs::path temp = partial_path(path);
  std::FILE* file = std::fopen(temp.c_str(), "wb");
  bool ok = file != nullptr;
  if (ok) {
    ok = std::fwrite(text.data(), 1, text.size(), file) == text.size();
    ok = std::fclose(file) == 0 && ok;
  }
  if (!ok) {
    const std::string reason = std::strerror(errno);
    std::error_code ec;
    fs::remove(temp, ec);
    std::fprintf(stderr, "atoll: %s: cannot write: %s\n", shown.c_str(), reason.c_str());
  }
  return ok;
}

// Whether `path` can be written without creating anything now: an existing file must be
// writable, a new one needs a writable directory. Checked before the run, so that a typo in
// an output path costs no simulation time and, like any bad input, exits 2 writing nothing.
std::optional<std::string> unwritable(const fs::path& file, const std::string& shown) {
  std::error_code error;
  if (fs::exists(file, error)) {
    if (fs::is_directory(file, error)) return shown + ": cannot write: is a directory";
    // A device node, a FIFO or a socket is refused: outputs are replaced by renaming, which
    // would put a regular file where /dev/full was (it did, run as root).
    if (!fs::is_regular_file(file, error)) return shown + ": cannot write: not a regular file";
    if (access(file.c_str(), W_OK) != 0) return shown + ": cannot write: " + std::strerror(errno);
    return std::nullopt;
  }
  const fs::path directory = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  if (access(directory.c_str(), W_OK) != 0)
    return shown + ": cannot write: " + std::strerror(errno);
  return std::nullopt;
}

// The file an output path names: a symlink is followed (the link stays, its target is
// written, as a shell redirection would do), a relative path made absolute so that two
// spellings of one file compare equal.
fs::path resolve_output(const std::string& path) {
  std::error_code ec;
  fs::path file = fs::absolute(path, ec);
  if (ec) return fs::path(path);
  // Followed by hand: weakly_canonical leaves a link to a file not yet made unresolved.
  for (int hops = 0; hops < 40 && fs::is_symlink(file, ec); ++hops) {
    const fs::path target = fs::read_symlink(file, ec);
    if (ec) break;
    file = target.is_absolute() ? target : file.parent_path() / target;
  }
  fs::path resolved = fs::weakly_canonical(file, ec);
  return ec ? file : resolved;
}

bool same_file(const fs::path& a, const fs::path& b) {
  if (a == b) return true;
  std::error_code ec;
  return fs::equivalent(a, b, ec) && !ec;  // hard links
}

}  // namespace

int run_command(const RunArgs& args) {
  Result<std::unique_ptr<ThreadPool>> pool = make_thread_pool(args.threads);
  if (!pool) return bad_input(pool.error().message());
  if (!args.trace_bodies.empty() && args.trace.empty())
    return bad_input("--trace-bodies: needs --trace FILE (it chooses the bodies of the trace)");
  std::string source;
  Result<SceneDescription> scene = load_scene(args.scene, source);
  if (!scene) return bad_input(scene.error().message());
  for (const std::string& assignment : args.sets)
    if (Status ok = apply_override(*scene, assignment); !ok) return bad_input(ok.error().message());
  if (args.seed < 0 || args.seed > int64_t(UINT32_MAX))
    return bad_input("--seed: must be in [0, 4294967295], got " + std::to_string(args.seed));
  perturb_scene(*scene, static_cast<uint32_t>(args.seed));
  if (args.record_contacts && args.record.empty())
    return bad_input("--record-contacts: needs --record FILE");
  if (args.max_contacts < 0 || args.max_contacts > int64_t(UINT32_MAX))
    return bad_input("--max-contacts: must be in [0, 4294967295], got " +
                     std::to_string(args.max_contacts));
  if (args.steps < -1 || args.steps == 0)
    return bad_input("--steps: must be >= 1, got " + std::to_string(args.steps));

  // The world keeps the scene, moved in, not copied, and without its bodies' descriptions
  // (k_world_options).
  Result<std::unique_ptr<SceneWorld>> world =
      SceneWorld::create(std::move(*scene), source, k_world_options);
  if (!world) return bad_input(world.error().message());
  const SceneDescription& scene_desc = (*world)->scene();
  if (!args.restore_state.empty()) {
    std::ifstream in(args.restore_state, std::ios::binary);
    if (!in)
      return bad_input("--restore-state " + args.restore_state +
                       ": cannot read: " + std::strerror(errno));
    StateRecorder restored;
    restored.set_data(std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {}));
    if (Status ok = (*world)->system().restore_state(restored); !ok)
      return bad_input("--restore-state " + args.restore_state + ": " + ok.error().message());
  }
  const int64_t first_step = static_cast<int64_t>((*world)->system().step_count());
  const int64_t last_step = first_step + (args.steps > 0 ? args.steps : scene_desc.steps);
  int64_t save_state_at = -1;
  std::string save_state_file;
  if (!args.save_state_at.empty()) {
    const std::string& text = args.save_state_at[0];
    char* end = nullptr;
    errno = 0;
    const long long step = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno != 0 || step < first_step || step > last_step)
      return bad_input("--save-state-at: STEP must be a step of this run, in [" +
                       std::to_string(first_step) + ", " + std::to_string(last_step) + "], got " +
                       text);
    save_state_at = step;
    save_state_file = args.save_state_at[1];
  }
  // Outputs: each must be writable, none may be the scene file or another output (writing
  // the summary over the scene, or the trace and the summary into one file, used to succeed).
  struct Output {
    const char* option;
    const std::string* given;
    fs::path target;
  };
  std::vector<Output> outputs;
  for (Output output :
       {Output{"--summary", &args.summary, {}}, Output{"--trace", &args.trace, {}},
        Output{"--record", &args.record, {}}, Output{"--save-state-at", &save_state_file, {}},
        Output{"--detlog", &args.detlog, {}}}) {
    if (output.given->empty()) continue;
    output.target = resolve_output(*output.given);
    if (const std::optional<std::string> problem = unwritable(output.target, *output.given))
      return bad_input(*problem);
    std::error_code ec;
    if (fs::is_regular_file(args.scene, ec) && same_file(output.target, resolve_output(args.scene)))
      return bad_input(std::string(output.option) + " " + *output.given +
                       ": is the scene file; choose another output path");
    for (const Output& other : outputs)
      if (same_file(output.target, other.target))
        return bad_input(std::string(other.option) + " and " + output.option + " name one file, " +
                         *output.given + "; give each its own");
    outputs.push_back(output);
  }
  const auto target_of = [&outputs](const std::string& given) {
    for (const Output& output : outputs)
      if (output.given == &given) return output.target;
    return fs::path(given);
  };

  // Outputs are built in memory and written only when the whole run succeeded, so that bad
  // input never leaves a partial file behind. The recording, which can be large, streams into
  // a temporary file that is renamed at the end (and removed on any early return).
  std::unique_ptr<RecordingWriter> recording;
  if (!args.record.empty()) {
    const SceneWorld& w = **world;
    RecordingOptions record_options;
    record_options.contacts = args.record_contacts;
    record_options.max_contacts_per_frame = static_cast<uint32_t>(args.max_contacts);
    Result<std::unique_ptr<RecordingWriter>> writer = RecordingWriter::create(
        target_of(args.record), w.system().bodies(), w.body_ids(), w.body_names(), scene_desc.dt,
        args.steps > 0 ? args.steps : scene_desc.steps, source, recorded_constraints(w),
        record_options, recorded_soft_bodies(w));
    if (!writer) return bad_input(writer.error().message());
    recording = std::move(*writer);
  }
  std::ostringstream trace;
  RunOptions options;
  options.steps = args.steps;
  options.recording = recording.get();
  options.trace = args.trace.empty() ? nullptr : &trace;
  options.trace_bodies = args.trace_bodies;
  options.jobs = pool->get();
  StateRecorder saved_state;
  options.save_state_at = save_state_at;
  options.saved_state = &saved_state;
  options.validate = args.validate;
  std::ostringstream detlog;
  DeterminismLogWriter detlog_writer(detlog);
  if (!args.detlog.empty()) options.detlog = &detlog_writer;
  ProgressBar progress(!args.quiet);
  options.progress = [&progress](int done, int total) { progress.update(done, total); };
  Result<RunSummary> summary = run_scene(**world, options, source);
  progress.clear();
  if (!summary) {
    // A repeated step that differs is the engine's failure, not the input's.
    if (args.validate && std::string_view(summary.error().message()).find(": --validate: step ") !=
                             std::string_view::npos) {
      std::fprintf(stderr, "atoll: %s\n", summary.error().message());
      return k_exit_failure;
    }
    return bad_input(summary.error().message());
  }

  // The world is not needed any more: freed before the outputs are built (the pyramid's
  // contact caches and solver blocks are some 20 MB).
  world->reset();

  // A write that fails (a full disk) exits 2 like any output that cannot be written, and
  // leaves none of the outputs behind: all are written to .partial files first and renamed
  // into place only when every one succeeded. Each text is built only when its file was
  // asked for (the pyramid's summary JSON alone is 2 MB), and freed once written.
  std::vector<fs::path> written;
  const auto discard_written = [&written] {
    std::error_code ec;
    for (const fs::path& path : written) fs::remove(partial_path(path), ec);
  };
  const auto write_output = [&](const std::string& given, std::string_view text) {
    if (!write_partial(target_of(given), given, text)) {
      discard_written();
      return false;
    }
    written.push_back(target_of(given));
    return true;
  };
  if (!args.trace.empty() && !write_output(args.trace, std::move(trace).str()))
    return k_exit_bad_input;
  if (!args.summary.empty() && !write_output(args.summary, summary_to_json(*summary)))
    return k_exit_bad_input;
  if (!save_state_file.empty()) {
    const std::vector<uint8_t>& data = saved_state.data();
    if (!write_output(save_state_file,
                      std::string_view(reinterpret_cast<const char*>(data.data()), data.size())))
      return k_exit_bad_input;
  }
  if (!args.detlog.empty() && !write_output(args.detlog, std::move(detlog).str()))
    return k_exit_bad_input;
  if (recording != nullptr) {
    if (Status finished = recording->finish(); !finished) {
      std::fprintf(stderr, "atoll: %s\n", finished.error().message());
      discard_written();
      return k_exit_bad_input;
    }
  }
  for (const fs::path& path : written) {
    std::error_code ec;
    fs::rename(partial_path(path), path, ec);
    if (ec) {
      std::fprintf(stderr, "atoll: %s: cannot write: %s\n", path.c_str(), ec.message().c_str());
      discard_written();
      return k_exit_bad_input;
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
    if (summary->max_penetration_step >= 0)
      std::printf("max penetration %.2f mm (step %d, \"%s\" and \"%s\")",
                  double(summary->max_penetration_m) * 1000.0, summary->max_penetration_step,
                  summary->max_penetration_body1.c_str(), summary->max_penetration_body2.c_str());
    else
      std::printf("max penetration 0 mm (no contacts)");
    std::printf(", active bodies at the end %u, all asleep: ",
                summary->active_bodies.empty() ? 0u : summary->active_bodies.back());
    if (summary->first_all_asleep_step >= 0)
      std::printf("at step %d\n", summary->first_all_asleep_step);
    else
      std::printf("never\n");
    if (!summary->update_error.empty()) std::printf("warning: %s\n", summary->update_error.c_str());
  }
  return k_exit_ok;
}

int detlog_diff_command(const std::string& a, const std::string& b) {
  std::ifstream in_a(a), in_b(b);
  if (!in_a) return bad_input(a + ": cannot read: " + std::strerror(errno));
  if (!in_b) return bad_input(b + ": cannot read: " + std::strerror(errno));
  const Result<std::optional<std::string>> difference = first_difference(in_a, a, in_b, b);
  if (!difference) return bad_input(difference.error().message());
  if (!difference->has_value()) {
    std::printf("identical\n");
    return k_exit_ok;
  }
  std::printf("first difference: %s\n", (*difference)->c_str());
  return k_exit_failure;
}

}  // namespace atl::cli
