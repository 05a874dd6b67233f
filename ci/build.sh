#!/usr/bin/env bash
# Configures and builds the release preset (warnings are errors). Usage: ci/build.sh [target...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh
cmake --preset release >/dev/null
jobs=$(nproc 2>/dev/null || echo 2)
if [ $# -gt 0 ]; then
  cmake --build --preset release -j "$jobs" --target "$@"
else
  cmake --build --preset release -j "$jobs"
fi
