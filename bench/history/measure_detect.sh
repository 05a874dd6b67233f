#!/usr/bin/env bash
# history detect's calibration (docs/history.md, "Calibration"):
# 1. real A/A histories: RUNS runs of each workload at the same commit, stored with
#    `run --history`, then `history calibrate`;
# 2. synthetic A/A histories: 40 copies of a stored results file whose TPOT repetitions are
#    scaled by Gaussian noise of each coefficient of variation in SYNTHETIC_CVS, calibrated alike.
# Each calibration: the share of TRIALS histories of 30 commits with a false change point, the
# share with an injected 10% step where the step is found, and the smallest step found 95%.
#   bench/history/measure_detect.sh [BUILD_DIR] [OUT_DIR]
#   RUNS=40 REPEAT=3 WORKLOADS="quickstart gate-decode" TRIALS=2000 SYNTHETIC_CVS="0.02 0.05"
set -euo pipefail
cd "$(dirname "$0")/../.."
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
  /usr/bin/python3 - tests/gates/data/quickstart-baseline.json "$out/synthetic-$cv" "$cv" <<'PY'
import copy, json, random, sys
base, folder, cv = json.load(open(sys.argv[1])), sys.argv[2], float(sys.argv[3])
rng = random.Random(11)
for i in range(40):
    doc = copy.deepcopy(base)
    doc["manifest"]["git"]["commit"] = f"{i:040x}"
    doc["created_at"] = f"2026-12-01T00:{i:02d}:00Z"
    reps = doc["points"][0]["repetitions"]
    for rep in reps:
        rep.pop("requests", None)
        f = rng.gauss(1.0, cv)
        for k, v in rep["summary"]["tpot_ms"].items():
            if k != "count" and isinstance(v, (int, float)):
                rep["summary"]["tpot_ms"][k] = v * f
    point = doc["points"][0]["summary"]["tpot_ms"]
    for k in point:
        if k != "count" and isinstance(point[k], (int, float)):
            point[k] = sum(r["summary"]["tpot_ms"][k] for r in reps) / len(reps)
    doc["summary"]["tpot_ms"] = point
    json.dump(doc, open(f"{folder}/r{i:02d}.json", "w"))
PY
  "$infergate" history add --db "$db" "$out/synthetic-$cv"/*.json > /dev/null
  echo "synthetic A/A, repetitions scaled by N(1, $cv):"
  "$infergate" history calibrate --db "$db" --workload quickstart --trials "$trials" \
    --metric tpot_ms.p50 tpot_ms.p95 | tee "$out/calibration-synthetic-$cv.md"
done
