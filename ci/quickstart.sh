#!/usr/bin/env bash
# The README's main job: install, build, and benchmark the built-in synthetic model with
# workloads/quickstart.json, printing the summary table and the results file path.
# Extra arguments go to `infergate run` (e.g. --set load.rate=4, --trace out/trace.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/build.sh infergate
./build/release/cli/infergate run workloads/quickstart.json "$@"
