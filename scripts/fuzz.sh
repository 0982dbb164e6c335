#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz in the `fuzz` preset (clang-19, address + undefined
# sanitizers; docs/fuzzing.md) and runs each for a while, one after the other, on a working copy
# of its seed corpus (build/fuzz/runs/<target>/corpus: tests/fuzz/corpus/<target> plus what
# earlier runs found). Prints the executions per target; a crash, leak, timeout or sanitizer
# report leaves the reproducer in build/fuzz/runs/<target>/artifacts/ and makes the script exit 1.
#
# Usage: scripts/fuzz.sh [--seconds N] [--target T]... [--build-jobs J] [--no-build]
#   --seconds N     run each target N seconds (default 60)
#   --target T      only target T (scene_reader, shapes, recording_reader, api_calls,
#                   state_reader); repeatable
#   --build-jobs J  parallel build jobs (default 2)
#   --no-build      use the binaries already in build/fuzz
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
build_jobs=2
build=1
targets=()
all_targets=(scene_reader shapes recording_reader api_calls state_reader)
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --target) targets+=("$2"); shift 2 ;;
    --build-jobs) build_jobs="$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "fuzz.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $t "* ]] ||
    { echo "fuzz.sh: unknown target '$t' (one of: ${all_targets[*]})" >&2; exit 2; }
done
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "fuzz.sh: --seconds: expected a whole number >= 1, got '$seconds'" >&2
  exit 2
fi

if [ "$build" -eq 1 ]; then
  command -v clang++-19 >/dev/null ||
    { echo "fuzz.sh: clang++-19 not found (scripts/setup.sh installs clang-19 and libclang-rt-19-dev)" >&2; exit 2; }
  [ -f build/fuzz/CMakeCache.txt ] || cmake --preset fuzz >/dev/null
  build_targets=()
  for t in "${targets[@]}"; do build_targets+=("atoll_fuzz_$t"); done
  cmake --build build/fuzz -j"$build_jobs" --target "${build_targets[@]}"
fi

status=0
summary=()
for t in "${targets[@]}"; do
  binary="build/fuzz/tests/fuzz/atoll_fuzz_$t"
  [ -x "$binary" ] || { echo "fuzz.sh: $binary missing (run without --no-build)" >&2; exit 2; }
  run_dir="build/fuzz/runs/$t"
  mkdir -p "$run_dir/corpus" "$run_dir/artifacts"
  cp -n tests/fuzz/corpus/"$t"/* "$run_dir/corpus/" 2>/dev/null || true
  dict=()
  [ -f "tests/fuzz/$t.dict" ] && dict=("-dict=tests/fuzz/$t.dict")
  log="$run_dir/last.log"
  echo "fuzz.sh: $t for ${seconds}s (log: $log)" >&2
  rc=0
  "$binary" "$run_dir/corpus" "${dict[@]}" -max_total_time="$seconds" -rss_limit_mb=2048 \
    -timeout=20 -artifact_prefix="$run_dir/artifacts/" -print_final_stats=1 >"$log" 2>&1 || rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  files=$(find "$run_dir/corpus" -type f | wc -l)
  if [ "$rc" -eq 0 ]; then
    summary+=("$t: ${execs:-?} executions in ${seconds}s, corpus $files files, no finding")
  else
    status=1
    artifact=$(grep -o "Test unit written to [^ ]*" "$log" | tail -1 | sed 's/Test unit written to //')
    summary+=("$t: FINDING after ${execs:-?} executions (exit $rc): ${artifact:-see $log}")
  fi
done
printf '%s\n' "${summary[@]}"
exit "$status"
