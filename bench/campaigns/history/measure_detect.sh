#!/usr/bin/env bash
# history detect's calibration (docs/history.md, "Calibration"):
# 1. real A/A histories: RUNS runs of each workload at the same commit, stored with
#    `run --history`, then `history calibrate`;
# 2. synthetic A/A histories: 40 copies of a stored results file whose TPOT repetitions are
#    scaled by Gaussian noise of each coefficient of variation in SYNTHETIC_CVS, calibrated alike.
# Each calibration: the share of TRIALS histories of 30 commits with a false change point, the
# share with an injected 10% step where the step is found, and the smallest step found 95%.
#   bench/campaigns/history/measure_detect.sh [BUILD_DIR] [OUT_DIR]
#   RUNS=40 REPEAT=3 WORKLOADS="quickstart gate-decode" TRIALS=2000 SYNTHETIC_CVS="0.02 0.05"
set -euo pipefail
cd "$(dirname "$0")/../../.."
build=${1:-build/release}
out=${2:-out/detect-calibration}
runs=${RUNS:-40} repeat=${REPEAT:-3} trials=${TRIALS:-2000}
workloads=${WORKLOADS:-quickstart gate-decode} cvs=${SYNTHETIC_CVS:-0.02 0.05}
metrics="tpot_ms.p50 tpot_ms.p95 ttft_ms.p95 output_throughput_tps engine_cpu_ms_per_decode_token"
infergate="$build/cli/infergate"
[ -x "$infergate" ] || { echo "measure_detect: $infergate is not built" >&2; exit 2; }
mkdir -p "$out"
lscpu | sed -n 's/^Model name: *//p' | head -1 | sed 's/^/cpu: /'

if [ "$runs" -gt 0 ]; then
  for w in $workloads; do
    db="$out/aa-$w.sqlite"
    rm -f "$db" "$db-wal" "$db-shm"
    for i in $(seq 1 "$runs"); do
      "$infergate" run "workloads/$w.json" --repeat "$repeat" --quiet \
        --out "$out/$w-$i.json" --history "$db" | tail -1
    done
    # shellcheck disable=SC2086
    "$infergate" history calibrate --db "$db" --workload "$w" --trials "$trials" \
      --metric $metrics | tee "$out/calibration-$w.md"
  done
fi

for cv in $cvs; do
  db="$out/synthetic-$cv.sqlite"
  rm -rf "$db" "$db-wal" "$db-shm" "$out/synthetic-$cv"
  mkdir -p "$out/synthetic-$cv"
  /usr/bin/python3 tests/history/make_history.py tests/gates/data/quickstart-baseline.json \
    "$out/synthetic-$cv" 40 --noise "$cv" --seed 11
  "$infergate" history add --db "$db" "$out/synthetic-$cv"/*.json > /dev/null
  echo "synthetic A/A, repetitions scaled by N(1, $cv):"
  "$infergate" history calibrate --db "$db" --workload quickstart --trials "$trials" \
    --metric tpot_ms.p50 tpot_ms.p95 | tee "$out/calibration-synthetic-$cv.md"
done
