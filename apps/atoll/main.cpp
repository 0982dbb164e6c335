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
  run_cmd->add_option("--threads", run.threads,
                      "Worker threads, the caller included (1: no thread is started)");
  run_cmd->add_option("--set", run.sets,
                      "Override key=value (settings key, bodies.NAME.field or bodies.*.field)");
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
  bench_cmd->add_option("--set", bench.sets,
                        "Override key=value, as for run (e.g. use_large_island_splitter=false)");

  app.add_subcommand("info", "Print version, build flags and SIMD level");
  CLI::App* help_cmd = app.add_subcommand("help", "Print this help, or a command's (help run)");
  std::string help_topic;
  help_cmd->add_option("command", help_topic, "run, bench or info");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? k_exit_ok : k_exit_bad_input;
  }
  // `atoll help` used to fail ("The following argument was not expected: help").
  if (*help_cmd) {
    if (help_topic.empty()) {
      // app.help() would describe the selected sub-command, i.e. `help` itself.
      std::printf(
          "%s", app.get_formatter()->make_help(&app, "atoll", CLI::AppFormatMode::Normal).c_str());
      return k_exit_ok;
    }
    for (CLI::App* command : {run_cmd, bench_cmd, app.get_subcommand("info")})
      if (command->get_name() == help_topic) {
        std::printf("%s", command->help().c_str());
        return k_exit_ok;
      }
    std::fprintf(stderr, "atoll: help: unknown command \"%s\" (run, bench, info)\n",
                 help_topic.c_str());
    return k_exit_bad_input;
  }
  if (*run_cmd) return run_command(run);
  if (*bench_cmd) return bench_command(bench);
  return info_command();
}
