#!/usr/bin/env bash
# Appends one benchmark reading per scene to bench/results/<scene>.csv (issue 9 item 6), so that
# a speed regression shows in review as a new line.
#
# Runs `atoll-bench-peers` once (Bullet 3 on Jolt's Pyramid, the machine's yardstick), then
# `atoll bench --scene S --threads T --repeat N` for every scene, and appends per thread count
#   date,commit,threads,steps_per_s,bullet_pyramid_steps_per_s,atoll_over_bullet,
#   cross_core_ns_before,cross_core_ns_after,runs,interleave
# where
# - atoll_over_bullet is this scene's steps/s over Bullet's pyramid steps/s measured in the
#   same run (for the pyramid itself: Atoll/Bullet on the same scene; for the others a ratio
#   that cancels the machine's speed);
# - the cross_core columns are `atoll bench`'s cross-core round trip before and after the
#   scene's runs (empty with one thread): on a virtual machine it moves with the host's
#   placement of the cores, and the 2-thread speed with it;
# - runs is N: with --repeat N (N > 1) the scene runs N rounds of the thread counts, steps_per_s
#   is the count's median, and the median of the rounds' ratios to the first count is printed;
# - interleave is M with --interleave M: each round's counts ran side by side in turns of M
#   steps (`atoll bench --interleave`), so that a drift of a few seconds reaches every count
#   alike; empty when they ran one after the other.
# Columns added later are empty in the rows written before them.
# Run it on a quiet machine, from a release build:
#   cmake --build build/release --target atoll_cli atoll_bench_peers
#   scripts/bench-results.sh [--build DIR] [--threads 1,2] [--repeat N] [--interleave M]
#                            [--scenes "pyramid chain"]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build/release"
threads=1
repeat=1
interleave=0
scenes="pyramid many_pyramids highspeed convex_vs_mesh chain ragdolls joint_grid"
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --interleave) interleave=$2; shift 2 ;;
    --scenes) scenes=$2; shift 2 ;;
    *)
      echo "usage: $0 [--build DIR] [--threads 1,2] [--repeat N] [--interleave M] [--scenes \"S1 S2\"]" >&2
      exit 2
      ;;
  esac
done
atoll="$build/apps/atoll/atoll"
peers="$build/bench/peers/atoll-bench-peers"
for exe in "$atoll" "$peers"; do
  [ -x "$exe" ] || { echo "bench-results: $exe not built" >&2; exit 2; }
done

date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
commit=$(git -C "$root" rev-parse --short=12 HEAD)
git -C "$root" diff --quiet HEAD -- src apps scenes || commit="$commit+dirty"

bullet=$("$peers" | awk '/^bullet +[0-9.]+ steps\/s/ { print $2 }')
[ -n "$bullet" ] || { echo "bench-results: no Bullet reading from $peers" >&2; exit 1; }
echo "bullet pyramid: $bullet steps/s"

old_header="date,commit,threads,steps_per_s,bullet_pyramid_steps_per_s,atoll_over_bullet"
cross_header="$old_header,cross_core_ns_before,cross_core_ns_after"
runs_header="$cross_header,runs"
header="$runs_header,interleave"
mkdir -p "$root/bench/results"
for scene in $scenes; do
  csv="$root/bench/results/$scene.csv"
  [ -s "$csv" ] || echo "$header" >"$csv"
  # A file of an older layout gets the new columns, empty in its rows.
  if [ "$(head -n 1 "$csv")" = "$old_header" ]; then
    sed -i -e "1s/.*/$header/" -e '2,$s/$/,,,/' "$csv"
  elif [ "$(head -n 1 "$csv")" = "$cross_header" ]; then
    sed -i -e "1s/.*/$header/" -e '2,$s/$/,,/' "$csv"
  elif [ "$(head -n 1 "$csv")" = "$runs_header" ]; then
    sed -i -e "1s/.*/$header/" -e '2,$s/$/,/' "$csv"
  fi
  # One line per thread count: "...: N bodies, S steps, threads T: X steps/s (...), ...", then
  # with more than one thread "cross-core round trip: B ns before the runs, A ns after (...)".
  # With rounds, "threads T, median of N runs: X steps/s (...)[, R x threads F (...)]" lines.
  out=$("$atoll" bench --scene "$scene" --threads "$threads" --repeat "$repeat" \
    --interleave "$interleave")
  cross=$(echo "$out" |
    sed -n 's/^cross-core round trip: \([0-9]*\) ns before the runs, \([0-9]*\) ns after.*/\1,\2/p')
  [ -n "$cross" ] || cross=","
  if [ "$repeat" -gt 1 ]; then
    readings=$(echo "$out" |
      sed -n 's/^threads \([0-9]*\), median of [0-9]* runs: \([0-9.]*\) steps\/s.*/\1 \2/p')
    echo "$out" | sed -n "s/^threads \([0-9]*\), median of .*, \([0-9.]*\)x threads \([0-9]*\) .*/$scene: threads \1: \2 x threads \3 (median of the rounds' ratios)/p"
  else
    readings=$(echo "$out" | sed -n 's/.*, threads \([0-9]*\): \([0-9.]*\) steps\/s.*/\1 \2/p')
  fi
  echo "$readings" |
    while read -r t sps; do
      ratio=$(awk -v a="$sps" -v b="$bullet" 'BEGIN { printf "%.3f", a / b }')
      turns=$interleave
      [ "$interleave" -gt 0 ] || turns=""
      echo "$date,$commit,$t,$sps,$bullet,$ratio,$cross,$repeat,$turns" >>"$csv"
      echo "$scene: threads $t: $sps steps/s, $ratio x Bullet's pyramid"
    done
  [ "$cross" = "," ] || echo "$scene: cross-core round trip ${cross%,*} ns before, ${cross#*,} ns after"
done
