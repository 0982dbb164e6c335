#!/usr/bin/env bash
# Writes apps/atoll/hot-code.order: the functions the atoll program runs on the benchmark scenes,
# one (mangled) name a line, which the link places first and together (lld's
# --symbol-ordering-file, cmake/AtollCodeOrder.cmake).
#
# Why: the program's code pages count in its resident memory, and the kernel maps code in 64 KB
# runs around every page a run touches (fault-around). Left where the linker puts them, the 750
# functions a pyramid run calls (730 KB) lay in 56 of the 74 runs of the 4.7 MB of code, so
# `atoll run pyramid` held 3.9 MB of code and peaked at 15.9 MB; placed together they lie in
# about 24 runs (1.5 MB) and it peaks at 13.4 MB. Where code goes also decided whether unrelated
# changes crossed the issue 9 bound of 16 MB (a change that moved no data added 0.5 MB of code
# pages).
#
# The list only orders: a function missing from it (new since the list was made) is placed after
# the listed ones, and a name no longer in the program is skipped. So a stale list costs a few
# 64 KB runs, never correctness or speed of the step's arithmetic (the bits are the same). Run it
# again after large changes, from a release build of the same compiler:
#   cmake --build build/release --target atoll_cli
#   scripts/hot-code-order.sh [--build DIR]
# It runs each scene a few steps under valgrind's callgrind (about 3 minutes) and lists the
# functions of the first run (the pyramid, the issue 9 memory reading), then those the second run
# adds, and so on, each run's sorted by name: callgrind's order of mention changes from run to
# run, and sorted, a new function is one new line in review (a class's members still end up side
# by side). All of them sorted at once spread the pyramid's code over the other scenes' and left
# 0.3 MB more of it resident.
#
#   scripts/hot-code-order.sh --check PROGRAM
# checks a linked program against the list instead (the CTest test hot_code_order): that at least
# 90 % of the listed functions are in it, and that the link placed them together (they span at
# most twice their size). It fails once refactoring has renamed a tenth of the list, or when the
# order was not applied.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build/release"
out="$root/apps/atoll/hot-code.order"
check=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --check) check=$2; shift 2 ;;
    *) echo "usage: $0 [--build DIR] | --check PROGRAM" >&2; exit 2 ;;
  esac
done

if [ -n "$check" ]; then
  declare -A listed seen
  while read -r name; do listed[$name]=1; done <"$out"
  found=0 size=0 lo=-1 hi=0
  while read -r address bytes type name; do
    [ -n "${name:-}" ] && [ -n "${listed[$name]:-}" ] && [ -z "${seen[$name]:-}" ] || continue
    case "$type" in t | T | w | W) ;; *) continue ;; esac
    seen[$name]=1
    found=$((found + 1))
    a=$((16#$address)) n=$((16#$bytes))
    size=$((size + n))
    if [ "$lo" -lt 0 ] || [ "$a" -lt "$lo" ]; then lo=$a; fi
    if [ $((a + n)) -gt "$hi" ]; then hi=$((a + n)); fi
  done < <(nm -S --defined-only "$check")
  total=${#listed[@]}
  echo "hot-code-order: $found of $total listed functions in $check, $size bytes spanning $((hi - lo))"
  if [ $((found * 10)) -lt $((total * 9)) ]; then
    echo "hot-code-order: the list is stale: run scripts/hot-code-order.sh" >&2
    exit 1
  fi
  if [ $((hi - lo)) -gt $((2 * size)) ]; then
    echo "hot-code-order: the listed functions are not together: the order was not applied" >&2
    exit 1
  fi
  exit 0
fi
atoll="$build/apps/atoll/atoll"
[ -x "$atoll" ] || { echo "hot-code-order: $atoll not built" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "hot-code-order: needs valgrind (apt-get install valgrind)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The README's memory reading, the demo scene (what a user runs first), the bench scenes on one
# and two threads (the thread pool's code), then `bench` itself.
runs=(
  "run pyramid --quiet --steps 20"
  "run --quiet"
  "run pyramid --quiet --steps 20 --threads 2"
  "run many_pyramids --quiet --steps 10 --threads 2"
  "run highspeed --quiet --steps 10"
  "run convex_vs_mesh --quiet --steps 10"
  "run chain --quiet --steps 20"
  "run ragdolls --quiet --steps 20"
  "run joint_grid --quiet --steps 10"
  "bench --scene pyramid --steps 5 --threads 1,2"
)
k=0
for args in "${runs[@]}"; do
  k=$((k + 1))
  echo "hot-code-order: atoll $args"
  # shellcheck disable=SC2086 # the arguments are words
  valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$k.out" \
    "$atoll" $args >/dev/null 2>"$work/$k.log" ||
    { cat "$work/$k.log" >&2; exit 1; }
done
# "fn=(id) name" (and cfn= for callees) names a function the first time callgrind mentions it;
# a trailing 'N marks recursion depth; 0x… is code without a symbol.
: >"$out"
for k in $(seq 1 ${#runs[@]}); do
  sed -n "s/^c\{0,1\}fn=([0-9]*) //p" "$work/$k.out" | sed "s/'[0-9]*\$//" | grep -v '^0x' |
    LC_ALL=C sort -u | LC_ALL=C comm -23 - <(LC_ALL=C sort "$out") >"$work/new"
  cat "$work/new" >>"$out"
done
echo "hot-code-order: $(wc -l <"$out") functions in $out"
