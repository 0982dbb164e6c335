// The atoll command-line program (DESIGN.md §4): run, bench, info.

#include <CLI/CLI.hpp>
#include <cstdio>

#include "Commands.h"

int main(int argc, char** argv) {
  using namespace atl::cli;
  CLI::App app{"Atoll rigid-body physics: run and inspect simulations without writing C++"};
  app.require_subcommand(1);

  RunArgs run;
  CLI::App* run_cmd = app.add_subcommand("run", "Run a scene (default: the built-in demo)");
  run_cmd->add_option("scene", run.scene, "Scene JSON file or built-in scene name");
  run_cmd->add_option("--steps", run.steps, "Steps to run (default: the scene's)");
  run_cmd->add_option("--threads", run.threads, "Worker threads (only 1 for now)");
  run_cmd->add_option("--set", run.sets, "Override key=value (settings key or bodies.NAME.field)");
  run_cmd->add_option("--trace", run.trace, "Write a per-step CSV trace to this file");
  run_cmd->add_option("--trace-bodies", run.trace_bodies, "Bodies to trace (default: all)")
      ->delimiter(',');
  run_cmd->add_option("--summary", run.summary, "Write the run summary JSON to this file");
  run_cmd->add_option("--record", run.record,
                      "Write a recording (poses of every body after every step, shapes) to this "
                      "file; format: docs/recording-format.md");
  run_cmd->add_flag("--quiet", run.quiet, "No progress bar and no report on stdout");

  BenchArgs bench;
  CLI::App* bench_cmd = app.add_subcommand("bench", "Measure steps per second on a scene");
  bench_cmd->add_option("--scene", bench.scene, "Built-in scene name or scene file");
  bench_cmd->add_option("--threads", bench.threads, "Thread counts, e.g. 1,2")->delimiter(',');
  bench_cmd->add_option("--steps", bench.steps, "Steps to run (default: the scene's)");

  app.add_subcommand("info", "Print version, build flags and SIMD level");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? k_exit_ok : k_exit_bad_input;
  }
  if (*run_cmd) return run_command(run);
  if (*bench_cmd) return bench_command(bench);
  return info_command();
}
