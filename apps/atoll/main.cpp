// The atoll command-line program (DESIGN.md §4): run, bench, sweep, view, info.

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
  // One value per --set (repeat it for more): taking every word after it, CLI11 read
  // `--set a=1 tower10` as two overrides and lost the scene.
  run_cmd
      ->add_option("--set", run.sets,
                   "Override key=value (settings key, bodies.NAME.field or bodies.*.field)")
      ->allow_extra_args(false);
  run_cmd->add_option("--trace", run.trace, "Write a per-step CSV trace to this file");
  run_cmd->add_option("--trace-bodies", run.trace_bodies, "Bodies to trace (default: all)")
      ->delimiter(',');
  run_cmd->add_option("--summary", run.summary, "Write the run summary JSON to this file");
  run_cmd->add_option("--record", run.record,
                      "Write a recording (poses of every body after every step, shapes) to this "
                      "file; format: docs/recording-format.md");
  run_cmd->add_flag("--record-contacts", run.record_contacts,
                    "With --record: keep every step's contacts (point, normal, penetration per "
                    "contact manifold) for the viewer's contact display");
  run_cmd->add_option("--max-contacts", run.max_contacts,
                      "With --record-contacts: the most contacts kept per step (default 10000)");
  run_cmd->add_option("--seed", run.seed,
                      "Perturb the dynamic bodies' initial positions (up to 1 mm per axis) and "
                      "velocities (up to 1 cm/s) with this seed; 0 (default): as written "
                      "(docs/sweeps.md)");
  run_cmd
      ->add_option("--save-state-at", run.save_state_at,
                   "STEP FILE: write the world's state after STEP steps to FILE (a saved state, "
                   "docs/state-format.md)")
      ->expected(2)
      ->allow_extra_args(false);
  run_cmd->add_option("--restore-state", run.restore_state,
                      "Start from the state in this file (saved from the same scene), then run "
                      "--steps more");
  run_cmd->add_flag("--validate", run.validate,
                    "Step every step twice from its saved state and stop at the first step whose "
                    "repeat differs, naming the field (exit 1); twice the time");
  run_cmd->add_option("--detlog", run.detlog,
                      "Write a determinism log to this file: a hash of every stage of every step "
                      "(compare two with `atoll detlog-diff`)");
  run_cmd->add_flag("--quiet", run.quiet, "No progress bar and no report on stdout");

  BenchArgs bench;
  CLI::App* bench_cmd = app.add_subcommand("bench", "Measure steps per second on a scene");
  bench_cmd->add_option("--scene", bench.scene, "Built-in scene name or scene file");
  bench_cmd->add_option("--threads", bench.threads, "Thread counts, e.g. 1,2")->delimiter(',');
  bench_cmd->add_option("--steps", bench.steps, "Steps to run (default: the scene's)");
  bench_cmd->add_option("--repeat", bench.repeat,
                        "Rounds of runs, each thread count once a round (default 1); with more "
                        "than one, the medians and each count's speed over the first count's");
  bench_cmd->add_option(
      "--interleave", bench.interleave,
      "Run a round's thread counts side by side, each on its own world, taking turns of this "
      "many steps (default 0: one run after the other), so that a machine whose speed changes "
      "within seconds slows every count alike");
  bench_cmd->add_flag("--stages", bench.stages,
                      "Also each stage's time per step for every thread count (the median of the "
                      "rounds) and its speed-up over the first count");
  bench_cmd
      ->add_option("--set", bench.sets,
                   "Override key=value, as for run (e.g. use_large_island_splitter=false)")
      ->allow_extra_args(false);

  SweepArgs sweep;
  CLI::App* sweep_cmd = app.add_subcommand(
      "sweep",
      "Run every combination of settings overrides and seeds of a scene on a Dask cluster "
      "(Python module atoll.sweeps) and write one CSV row per run: the grid keys, seed, "
      "state_hash, max_penetration_m, wall_ms_per_step, steps, first_all_asleep_step, "
      "active_bodies_end, error (docs/sweeps.md)");
  sweep_cmd->add_option("scene", sweep.scene, "Scene JSON file or built-in scene name")->required();
  sweep_cmd
      ->add_option("--grid", sweep.grid,
                   "KEY=V1,V2,...: the values of one --set key (repeat for more keys; "
                   "commas inside [] separate nothing)")
      ->allow_extra_args(false);
  sweep_cmd->add_option("--seeds", sweep.seeds,
                        "Run seeds 0..N-1 per combination (0: the scene as written; default 1)");
  sweep_cmd->add_option("--steps", sweep.steps, "Steps per run (default: the scene's)");
  sweep_cmd->add_option("--scheduler", sweep.scheduler,
                        "Dask scheduler address, e.g. tcp://host:8786 (default: a local cluster "
                        "with one worker thread per core)");
  sweep_cmd->add_option("--workers", sweep.workers, "Workers of the local cluster");
  sweep_cmd->add_option("--out", sweep.out, "CSV file to write")->required();
  sweep_cmd->add_flag("--quiet", sweep.quiet, "No progress bar and no report on stdout");

  ViewArgs view;
  CLI::App* view_cmd = app.add_subcommand(
      "view",
      "Show a recording in the web viewer: serve it on http://127.0.0.1:PORT/ until Ctrl-C, or "
      "write one self-contained HTML file with --html (docs/viewer.md)");
  view_cmd->add_option("recording", view.recording, "Recording file (atoll run --record)")
      ->required();
  view_cmd->add_option("--port", view.port, "Port on 127.0.0.1 (default 8080; 0: any free one)");
  view_cmd->add_option("--html", view.html,
                       "Write a self-contained page (viewer and recording inlined) to this file "
                       "instead of serving");

  std::string detlog_a, detlog_b;
  CLI::App* detlog_cmd = app.add_subcommand(
      "detlog-diff",
      "Compare two determinism logs (atoll run --detlog): print the first step and stage where "
      "they part (exit 1), or that they are identical (exit 0)");
  detlog_cmd->add_option("a", detlog_a, "First log")->required();
  detlog_cmd->add_option("b", detlog_b, "Second log")->required();

  app.add_subcommand("info", "Print version, build flags and SIMD level");
  CLI::App* help_cmd = app.add_subcommand("help", "Print this help, or a command's (help run)");
  std::string help_topic;
  help_cmd->add_option("command", help_topic, "run, bench, sweep, view, detlog-diff or info");

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
    for (CLI::App* command :
         {run_cmd, bench_cmd, sweep_cmd, view_cmd, detlog_cmd, app.get_subcommand("info")})
      if (command->get_name() == help_topic) {
        std::printf("%s", command->help().c_str());
        return k_exit_ok;
      }
    std::fprintf(stderr,
                 "atoll: help: unknown command \"%s\" (run, bench, sweep, view, detlog-diff, "
                 "info)\n",
                 help_topic.c_str());
    return k_exit_bad_input;
  }
  if (*run_cmd) return run_command(run);
  if (*bench_cmd) return bench_command(bench);
  if (*sweep_cmd) return sweep_command(sweep, argv[0]);
  if (*view_cmd) return view_command(view);
  if (*detlog_cmd) return detlog_diff_command(detlog_a, detlog_b);
  return info_command();
}
