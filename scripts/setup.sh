#!/usr/bin/env bash
# Installs what Atoll's build and tests need: Debian packages (skips the ones already installed)
# and the web viewer's npm packages (viewer/node_modules, from the committed lock file; skipped
# when they match it already). Nothing else is downloaded: the viewer's browser test drives
# Debian's chromium (no browser download).
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(cmake ninja-build g++ clang-format pkg-config googletest libgtest-dev libgmock-dev
          libbenchmark-dev nlohmann-json3-dev libcli11-dev libbullet-dev clang libclang-rt-14-dev
          clang-19 libclang-rt-19-dev
          pybind11-dev python3-dev python3-numpy python3-pytest python3-distributed
          python3-pandas nodejs npm chromium fonts-liberation lld)
# Installed without their recommended packages (for chromium: systemd, cups, samba, avahi…, 128
# packages in all, that a headless browser test does not need).
lean=(chromium fonts-liberation)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  # node and npm from elsewhere (nodesource, nvm) serve as well as Debian's.
  if command -v node >/dev/null && command -v npm >/dev/null; then
    filtered=()
    for p in "${missing[@]}"; do [ "$p" = nodejs ] || [ "$p" = npm ] || filtered+=("$p"); done
    missing=("${filtered[@]}")
  fi
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  full=()
  slim=()
  for p in "${missing[@]}"; do
    if [[ " ${lean[*]} " == *" $p "* ]]; then slim+=("$p"); else full+=("$p"); fi
  done
  if [ ${#full[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${full[@]}" >/dev/null
  fi
  if [ ${#slim[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
      "${slim[@]}" >/dev/null
  fi
fi

# The viewer (viewer/package-lock.json): three.js, esbuild, playwright-core. `npm ci` only when
# node_modules is missing or older than the lock file.
stamp=viewer/node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ viewer/package-lock.json -nt "$stamp" ]; then
  echo "setup: npm ci in viewer/" >&2
  (cd viewer && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
