#!/usr/bin/env bash
# Every test file with file-local helpers keeps them in a namespace named after the file
# (tests/collision/GJKTest.cpp: `namespace gjk_test {`), so that any files of an area can share a
# unity batch (tests/CMakeLists.txt): a helper of the same name in two files of a batch stops the
# build, and which files share a batch changes as files come and go. CTest `test_namespaces`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
status=0
while IFS= read -r file; do
  grep -q '^namespace {$' "$file" || continue
  stem="$(basename "$file" .cpp)"
  name="$(sed -E 's/([a-z0-9])([A-Z])/\1_\2/g; s/([A-Z])([A-Z][a-z])/\1_\2/g' <<< "$stem" |
          tr '[:upper:]' '[:lower:]')"
  case "$name" in *_test) ;; *) name="${name}_test" ;; esac
  if ! grep -qE "^namespace ([a-z_]+::)*${name} \{$" "$file"; then
    echo "${file#"$root"/}: file-local helpers outside \`namespace ${name} {\`" >&2
    status=1
  fi
done < <(find "$root/tests" -name '*.cpp' -not -path '*/fuzz/*' | sort)
exit "$status"
