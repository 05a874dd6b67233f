#!/usr/bin/env bash
# Configures and builds the release preset (warnings are errors). Usage: ci/build.sh [target...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
# ccache across builds and clones on this machine (CI builds a fresh clone every run): the base
# folder makes the compile lines relative, so another clone's objects are hits too.
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
cmake --preset release "${launcher[@]}" >/dev/null
jobs=$(nproc 2>/dev/null || echo 2)
if [ $# -gt 0 ]; then
  cmake --build --preset release -j "$jobs" --target "$@"
else
  cmake --build --preset release -j "$jobs"
fi
