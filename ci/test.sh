#!/usr/bin/env bash
# The README's test command (and CI's): install, build everything, check formatting, run the
# whole test suite. GPU tests skip cleanly without a GPU (ci/gpu-check.sh runs them on one).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/build.sh
bash ci/check-format.sh
ctest --preset release --timeout 900 -j "$(nproc 2>/dev/null || echo 2)"
# The request parsers under libFuzzer (clang, ASan/UBSan) for a bounded minute: docs/server.md.
bash ci/fuzz.sh 60
