#pragma once
// The atoll program's sub-commands. Each returns the process exit status: 0 success, 2 bad
// input or an output that cannot be written, a full disk included (one line on stderr naming
// the input, nothing written), 1 an error the program did not foresee.

#include <memory>
#include <string>
#include <vector>

#include "atoll/core/ThreadPool.h"
#include "atoll/run/SceneWorld.h"
#include "atoll/scene/SceneDescription.h"

namespace atl::cli {

inline constexpr int k_exit_ok = 0;
inline constexpr int k_exit_failure = 1;
inline constexpr int k_exit_bad_input = 2;

/// How run and bench build their worlds: nothing in the program reads a body's scene
/// description once the body is made, so the world does not keep them (SceneWorldOptions).
inline constexpr SceneWorldOptions k_world_options{.keep_body_descriptions = false};

struct RunArgs {
  std::string scene = "demo";  // file or built-in name
  int steps = -1;
  int threads = 1;
  std::vector<std::string> sets;
  std::string trace;
  std::vector<std::string> trace_bodies;
  std::string summary;
  std::string record;
  /// --record-contacts: the recording keeps every step's contacts (needs --record).
  bool record_contacts = false;
  /// --max-contacts: the most contacts kept per recorded frame.
  int64_t max_contacts = 10000;
  /// --seed: perturbs the initial state (scene/ScenePerturbation.h); 0 = none.
  int64_t seed = 0;
  /// --save-state-at STEP FILE (empty: none).
  std::vector<std::string> save_state_at;
  /// --restore-state FILE (empty: none).
  std::string restore_state;
  /// --validate: every step repeated from its saved state and compared.
  bool validate = false;
  /// --detlog FILE: a hash per stage per step (empty: none).
  std::string detlog;
  bool quiet = false;
};
int run_command(const RunArgs& args);

struct BenchArgs {
  std::string scene = "pyramid";
  std::vector<int> threads{1};
  int steps = -1;
  // Rounds of runs: every thread count once per round, in the order given.
  int repeat = 1;
  // Steps per turn when the thread counts of a round run side by side, each on its own world,
  // taking turns (0: one after the other, each run whole).
  int interleave = 0;
  // After the runs, each stage's time per step for every thread count.
  bool stages = false;
  std::vector<std::string> sets;
};
int bench_command(const BenchArgs& args);

int info_command();

/// `atoll detlog-diff A B`: the first step and stage where two determinism logs part.
int detlog_diff_command(const std::string& a, const std::string& b);

/// `atoll sweep`'s arguments, handed to the Python module atoll.sweeps (python/atoll/sweeps.py).
struct SweepArgs {
  std::string scene;
  std::vector<std::string> grid;
  int seeds = 1;
  int steps = -1;
  std::string scheduler;
  int workers = -1;
  std::string out;
  bool quiet = false;
};
/// Runs `PYTHON -m atoll.sweeps …` with the build's python directory (found next to the
/// executable) on PYTHONPATH; exit status 2 and a clear message when Python or the module is
/// missing.
int sweep_command(const SweepArgs& args, const char* argv0);

/// `atoll view`'s arguments.
struct ViewArgs {
  /// The recording to show.
  std::string recording;
  /// --port: TCP port on 127.0.0.1 (0: a free one).
  int port = 8080;
  /// --html: write one self-contained page here instead of serving.
  std::string html;
};
/// Serves the viewer and the recording on 127.0.0.1 until interrupted, or writes the
/// self-contained page (--html). Exit 2 and one line for a missing or bad recording.
int view_command(const ViewArgs& args);

/// Reads a scene given as a file path or a built-in name; `out_source` is the name errors use.
Result<SceneDescription> load_scene(const std::string& scene, std::string& out_source);

/// The job system of `--threads N`: a thread pool of N workers (the caller included; 1 runs
/// every stage on the caller). Errors read "--threads: ...".
Result<std::unique_ptr<ThreadPool>> make_thread_pool(int threads);

}  // namespace atl::cli
