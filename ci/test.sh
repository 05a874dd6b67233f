#!/usr/bin/env bash
# The README's test command (and CI's): install, build everything, check formatting, run the
# whole test suite. GPU tests skip cleanly without a GPU (ci/gpu-check.sh runs them on one).
# Under CI (CI=true) or INFERGATE_CHECK_DEPS=1, all of it runs under ci/check-deps.py, which
# then fails the run if the build or the tests used a package that ci/packages.txt does not
# install (docs/ci.md, "The install list is checked").
set -euo pipefail
cd "$(dirname "$0")/.."
if { [ "${CI:-}" = true ] || [ "${INFERGATE_CHECK_DEPS:-0}" = 1 ]; } &&
   [ -z "${INFERGATE_DEPS_RECORDING:-}" ]; then
  bash ci/install-deps.sh
  trace=build/deps/opened-files.txt
  status=0
  INFERGATE_DEPS_RECORDING=1 /usr/bin/python3 ci/check-deps.py record --trace "$trace" -- \
    bash ci/test.sh || status=$?
  /usr/bin/python3 ci/check-deps.py judge --trace "$trace" || status=$((status ? status : 1))
  exit "$status"
fi
bash ci/build.sh
bash ci/check-format.sh
ctest --preset release --timeout 900 -j "$(nproc 2>/dev/null || echo 2)"
# The kernels cross-compiled for aarch64 (NEON), their tests under qemu-user (~1 min):
# docs/performance.md, "aarch64 (NEON)". Outside CI a missing cross compiler or qemu skips it
# (exit 77); CI installs both, so there a skip fails. It runs beside the fuzzing, which keeps one
# core busy (libFuzzer runs one process), so the other is not idle for that minute.
mkdir -p build
bash ci/aarch64-check.sh >build/aarch64-check.log 2>&1 &
aarch64=$!
# The request parsers under libFuzzer (clang, ASan/UBSan) for a bounded minute: docs/server.md.
fuzz_status=0
bash ci/fuzz.sh 60 || fuzz_status=$?
status=0
wait "$aarch64" || status=$?
cat build/aarch64-check.log
[ "$fuzz_status" -eq 0 ] || exit "$fuzz_status"
if [ "$status" -ne 0 ] && { [ "$status" -ne 77 ] || [ "${CI:-}" = true ]; }; then
  exit "$status"
fi
# The simulator's accuracy recomputed on this machine (docs/simulator.md, "Accuracy"): calibrated
# here from timed engine steps (3 timings per shape), then six held-out workloads run for real
# and simulated (one of them disaggregated, behind the router); the table is kept in
# build/sim-accuracy/accuracy.md (~5 min; a hang fails after 15). The errors are reported, not
# judged: a shared runner's noise is not the model's.
CALIBRATE_REPETITIONS=3 LAYOUTS="" WORKLOADS="quickstart chat-short goodput-slo long-prompt shared-system-prompt pd-interference" \
  timeout 900 bash bench/campaigns/sim/measure_accuracy.sh build/release build/sim-accuracy
