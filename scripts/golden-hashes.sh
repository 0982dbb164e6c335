#!/usr/bin/env bash
# Golden state hashes (issue 10 item 3, LAWS.md F4): runs every built-in scene for a fixed
# number of steps with the atoll program of a `crossplatform` build (ATOLL_CROSS_PLATFORM_
# DETERMINISTIC: no FMA or contraction, own trigonometry, the default floating-point
# environment) and compares each state hash with tests/golden/state_hashes.txt. A g++ and a
# clang build must both match it: the same bits whatever the compiler. The file is written
# from a g++ build (--update refuses another); CI checks the g++ `crossplatform` build and the
# clang `asan` build (cross-platform deterministic as well) against it.
#
#   cmake --preset crossplatform && cmake --build --preset crossplatform
#   scripts/golden-hashes.sh build/crossplatform            # check (exit 1 on a difference)
#   scripts/golden-hashes.sh build/crossplatform --update   # rewrite the golden file
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:?usage: $0 BUILD_DIR [--update]}"
update="${2:-}"
atoll="$build/apps/atoll/atoll"
golden="$root/tests/golden/state_hashes.txt"
[ -x "$atoll" ] || { echo "golden-hashes: $atoll not built" >&2; exit 2; }
if ! "$atoll" info | grep -q "cross-platform deterministic: yes"; then
  echo "golden-hashes: $atoll is not a crossplatform build (atoll info)" >&2
  exit 2
fi
steps=100
# Every built-in scene, as the program lists them (a new scene joins the check by itself).
scenes="$("$atoll" info | sed -n 's/^built-in scenes: //p')"
[ -n "$scenes" ] || { echo "golden-hashes: no built-in scenes in \`$atoll info\`" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# The runs go one per core (the asan build's 13 runs take 50 s one after another); xargs fails
# when one of them does.
export atoll steps tmp
printf '%s\n' $scenes |
  xargs -P "$(nproc)" -I{} sh -c '"$atoll" run "$1" --steps "$steps" --quiet --summary "$tmp/$1.json"' _ {}
for scene in $scenes; do
  hash="$(sed -n 's/.*"state_hash": *"\([0-9a-f]*\)".*/\1/p' "$tmp/$scene.json")"
  echo "$scene $steps $hash" >> "$tmp/hashes.txt"
done
if [ "$update" = "--update" ]; then
  # Written from g++ and checked in CI with g++ and clang: a difference between the compilers
  # shows.
  if ! "$atoll" info | grep -q "^build: .*GNU"; then
    echo "golden-hashes: --update takes a g++ build (the crossplatform preset)" >&2
    exit 2
  fi
  mkdir -p "$(dirname "$golden")"
  {
    echo "# scene steps state_hash — written by scripts/golden-hashes.sh from a crossplatform build"
    sort "$tmp/hashes.txt"
  } > "$golden"
  echo "golden-hashes: wrote $golden"
  exit 0
fi
if diff <(grep -v '^#' "$golden" | sort) <(sort "$tmp/hashes.txt") > "$tmp/diff.txt"; then
  echo "golden-hashes: $(wc -l < "$tmp/hashes.txt") scenes match $golden"
else
  echo "golden-hashes: $atoll differs from $golden (< golden, > this build):" >&2
  cat "$tmp/diff.txt" >&2
  exit 1
fi
