#!/usr/bin/env bash
# A command beside a CPU-bound neighbour, as on a shared CI runner: infergate_cpu_drift keeps one
# thread busy for a share of a core that wanders between 0 and 100% every few seconds, for as long
# as the command runs. Timing tests must hold by design (margins from the run's own noise, paired
# runs, the simulated clock), so the suite passes here too (docs/ci.md, "A busy machine").
#   ci/busy-check.sh                     the test suite (ctest) on the built tree
#   ci/busy-check.sh env CI=true bash .ci/run    the whole CI, clean clone and all
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/build.sh infergate_cpu_drift >/dev/null
build/release/bench/programs/drift/infergate_cpu_drift --threads 1 --max-share 1 --min-segment-s 2 \
  --max-segment-s 20 --duration-s 21600 --seed "${BUSY_SEED:-1}" &
neighbour=$!
trap 'kill "$neighbour" 2>/dev/null; wait "$neighbour" 2>/dev/null || true' EXIT
echo "busy-check: infergate_cpu_drift (pid $neighbour) takes up to one core meanwhile"
if [ $# -eq 0 ]; then
  set -- ctest --preset release --timeout 900 -j "$(nproc 2>/dev/null || echo 2)"
fi
start=$(date +%s)
status=0
"$@" || status=$?
echo "busy-check: '$*' exited $status after $(( $(date +%s) - start )) s beside the neighbour"
exit "$status"
