#!/usr/bin/env bash
# The README's main job: install, build, and generate text from the built-in synthetic model,
# printing throughput. Extra arguments go to `infergate generate`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/build.sh infergate
./build/release/cli/infergate generate --model tiny --max-tokens 64 "$@"
