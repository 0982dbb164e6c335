#!/usr/bin/env bash
# Runs Jolt's PerformanceTest and `atoll bench` on the same scenes in the same minutes, on 1 and
# 2 threads, and appends each round to bench/results/jolt-side-by-side.csv (issue 9: Atoll's
# bench scenes reproduce Jolt's PerformanceTest scenes, so that the two can be run side by side).
#
# Jolt is not part of Atoll's build and is not downloaded: give the script a JoltPhysics source
# tree (a checkout or an unpacked release; it needs Jolt/, Build/ and PerformanceTest/). It builds
# Jolt's PerformanceTest once into build/jolt with the same compiler as Atoll, Jolt's
# Distribution configuration (-O3, its default AVX2 instruction set) and, like Atoll's release
# build, no link-time optimisation.
#
# Scenes (Atoll's name = Jolt's, with the motion quality passed to Jolt):
#   pyramid = Pyramid (Discrete), convex_vs_mesh = ConvexVsMesh (Discrete),
#   highspeed = HighSpeed (its dynamic bodies are LinearCast whatever the quality).
# Each round runs Jolt on 1 thread, then on 2 (its main thread and one worker, as Atoll's 2), then
# `atoll bench --threads 1,2 --interleave 25` (both counts side by side in turns of 25 steps), and
# appends
#   date,atoll_commit,jolt_version,scene,round,cross_core_ns_before,cross_core_ns_after,
#   jolt_1t,jolt_2t,atoll_1t,atoll_2t
# (steps/s; the cross-core round trip is `atoll bench`'s, measured before and after the round: on
# a virtual machine it moves with the host's placement of the two cores, and every 2-thread speed
# with it, see docs/performance.md).
#
#   scripts/jolt-side-by-side.sh JOLT_SOURCE [--rounds N] [--scenes "pyramid highspeed"]
#                                            [--build DIR]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: $0 JOLT_SOURCE [--rounds N] [--scenes \"pyramid convex_vs_mesh highspeed\"] [--build DIR]"
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
jolt_source=$(cd "$1" && pwd)
shift
build="$root/build/release"
rounds=3
scenes="pyramid convex_vs_mesh highspeed"
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --scenes) scenes=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
for dir in Jolt Build PerformanceTest; do
  [ -d "$jolt_source/$dir" ] || {
    echo "jolt-side-by-side: $jolt_source/$dir: not found (JOLT_SOURCE must be a JoltPhysics tree)" >&2
    exit 2
  }
done
atoll="$build/apps/atoll/atoll"
[ -x "$atoll" ] || { echo "jolt-side-by-side: $atoll not built (cmake --build --preset release)" >&2; exit 2; }

jolt_build="$root/build/jolt"
if [ ! -x "$jolt_build/PerformanceTest" ]; then
  cmake -S "$jolt_source/Build" -B "$jolt_build" -G Ninja -DCMAKE_BUILD_TYPE=Distribution \
    -DCMAKE_CXX_COMPILER="$(command -v g++)" -DTARGET_UNIT_TESTS=OFF -DTARGET_HELLO_WORLD=OFF \
    -DTARGET_SAMPLES=OFF -DTARGET_VIEWER=OFF -DTARGET_PERFORMANCE_TEST=ON \
    -DENABLE_ALL_WARNINGS=OFF -DINTERPROCEDURAL_OPTIMIZATION=OFF >/dev/null
  cmake --build "$jolt_build" --target PerformanceTest
fi
jolt="$jolt_build/PerformanceTest"

version=$(sed -n 's/^#define JPH_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' \
  "$jolt_source/Jolt/Core/Core.h" | paste -sd.)
if git -C "$jolt_source" rev-parse --short=12 HEAD >/dev/null 2>&1; then
  version="$version-$(git -C "$jolt_source" rev-parse --short=12 HEAD)"
fi
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
commit=$(git -C "$root" rev-parse --short=12 HEAD)
git -C "$root" diff --quiet HEAD -- src apps scenes || commit="$commit+dirty"

csv="$root/bench/results/jolt-side-by-side.csv"
mkdir -p "$(dirname "$csv")"
[ -s "$csv" ] || echo "date,atoll_commit,jolt_version,scene,round,cross_core_ns_before,cross_core_ns_after,jolt_1t,jolt_2t,atoll_1t,atoll_2t" >"$csv"

# Jolt's steps/s on `threads` threads: the last line of its report is
# "<quality>, <threads>, <steps/s>, <hash>".
jolt_run() {
  "$jolt" "-s=$1" -q=Discrete "-t=$2" | tail -n 1 | cut -d, -f3 | tr -d ' '
}

echo "Jolt $version ($jolt), Atoll $commit"
for scene in $scenes; do
  case "$scene" in
    pyramid) jolt_scene=Pyramid ;;
    convex_vs_mesh) jolt_scene=ConvexVsMesh ;;
    highspeed) jolt_scene=HighSpeed ;;
    *) echo "jolt-side-by-side: $scene: no Jolt scene (pyramid, convex_vs_mesh, highspeed)" >&2; exit 2 ;;
  esac
  for round in $(seq "$rounds"); do
    # `atoll bench` prints "...: N bodies, S steps, threads T: X steps/s (...), ..." per count
    # and "cross-core round trip: B ns before the runs, A ns after (...)".
    before=$("$atoll" bench --scene chain --threads 1,2 --steps 5 |
      sed -n 's/^cross-core round trip: \([0-9]*\) ns before.*/\1/p')
    j1=$(jolt_run "$jolt_scene" 1)
    j2=$(jolt_run "$jolt_scene" 2)
    out=$("$atoll" bench --scene "$scene" --threads 1,2 --interleave 25)
    a1=$(echo "$out" | sed -n 's/.*, threads 1: \([0-9.]*\) steps\/s.*/\1/p')
    a2=$(echo "$out" | sed -n 's/.*, threads 2: \([0-9.]*\) steps\/s.*/\1/p')
    after=$(echo "$out" | sed -n 's/^cross-core round trip: [0-9]* ns before the runs, \([0-9]*\) ns after.*/\1/p')
    echo "$date,$commit,$version,$scene,$round,$before,$after,$j1,$j2,$a1,$a2" >>"$csv"
    awk -v s="$scene" -v r="$round" -v b="$before" -v a="$after" -v j1="$j1" -v j2="$j2" \
      -v a1="$a1" -v a2="$a2" 'BEGIN {
        printf "%s round %s (round trip %s → %s ns): Jolt %.1f → %.1f steps/s (%.2fx), Atoll %.1f → %.1f (%.2fx); Atoll/Jolt %.2fx on 1 thread, %.2fx on 2\n",
          s, r, b, a, j1, j2, j2 / j1, a1, a2, a2 / a1, a1 / j1, a2 / j2 }'
  done
done
