#!/usr/bin/env bash
# The README's main job: install, build, print text from the trained model (models/trained: a
# small Llama trained here, so the text reads as its corpus does), then benchmark the built-in
# synthetic model with workloads/quickstart.json, printing the summary table and the results
# file path. Extra arguments go to `infergate run` (e.g. --set load.rate=4, --trace out/trace.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/build.sh infergate
./build/release/cli/infergate generate --max-tokens 48 \
  | sed '/^---/,$d'  # the text only; `generate` alone prints its timings too
./build/release/cli/infergate run workloads/quickstart.json "$@"
