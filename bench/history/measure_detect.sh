#!/usr/bin/env bash
# history detect's calibration on this machine (docs/history.md, "Calibration"): RUNS runs of
# one workload at the same commit (an A/A history) stored with `run --history`, then
# `history calibrate`: the share of synthetic A/A histories with a false change point, and of
# those with an injected 10% step where the step is found.
#   bench/history/measure_detect.sh [BUILD_DIR] [OUT_DIR]
#   RUNS=40 REPEAT=3 WORKLOAD=quickstart TRIALS=1000 bench/history/measure_detect.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
out=${2:-out/detect-calibration}
runs=${RUNS:-40} repeat=${REPEAT:-3} workload=${WORKLOAD:-quickstart} trials=${TRIALS:-1000}
infergate="$build/cli/infergate"
[ -x "$infergate" ] || { echo "measure_detect: $infergate is not built" >&2; exit 2; }
mkdir -p "$out"
db="$out/aa.sqlite"
rm -f "$db" "$db-wal" "$db-shm"
lscpu | sed -n 's/^Model name: *//p' | head -1 | sed 's/^/cpu: /'
for i in $(seq 1 "$runs"); do
  "$infergate" run "workloads/$workload.json" --repeat "$repeat" --quiet \
    --out "$out/run-$i.json" --history "$db" | tail -1
done
"$infergate" history calibrate --db "$db" --workload "$workload" --trials "$trials" \
  | tee "$out/calibration.md"
"$infergate" history calibrate --db "$db" --workload "$workload" --trials "$trials" \
  --format json --out "$out/calibration.json"
