#!/usr/bin/env bash
# Throughput and TPOT of workloads/parallel-small.json (the `small` preset) single-rank and at
# TP=2 and PP=2 over MPI on this machine, in one session, as ratios to the single-rank run
# (docs/parallelism.md quotes the figures). Each rank gets cores/ranks threads.
#   bench/campaigns/parallel/measure_parallel.sh [INFERGATE] [OUT_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")/../../.." && pwd)"
infergate=${1:-$here/build/release/cli/infergate}
out=${2:-$(mktemp -d)}
cores=$(nproc)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
workload="$here/workloads/parallel-small.json"

run() {  # NAME RANKS [--set ...]
  local name=$1 ranks=$2
  shift 2
  local threads=$(( cores / ranks > 0 ? cores / ranks : 1 ))
  local launcher=()
  [ "$ranks" -gt 1 ] && launcher=(mpirun --oversubscribe -np "$ranks")
  "${launcher[@]}" "$infergate" run "$workload" -q --out "$out/$name.json" \
    --set "target.engine.num_threads=$threads" "$@" >/dev/null
}

run single 1
run tp2 2 --set target.engine.tensor_parallel=2
run pp2 2 --set target.engine.pipeline_parallel=2
run single-again 1  # the machine's drift over the session

/usr/bin/python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
def figures(name):
    d = json.load(open(f"{out}/{name}.json"))
    s = d["points"][0]["repetitions"][0]
    summary = s["summary"]
    return (summary["output_throughput_tps"], summary["tpot_ms"]["p50"],
            s["engine"].get("parallel", {}))
base_tps, base_tpot, _ = figures("single")
print(f"{'config':14} {'out tok/s':>10} {'ratio':>7} {'TPOT p50 ms':>12} {'ratio':>7}  notes")
for name in ("single", "tp2", "pp2", "single-again"):
    tps, tpot, par = figures(name)
    notes = ""
    if "pipeline" in par:
        notes = f"bubble {par['pipeline']['bubble_fraction']:.2f}"
    if "comm" in par:
        g = par["comm"]["group"].get("all_reduce")
        if g:
            notes += f"all_reduce {g['calls']} calls {g['seconds']:.2f} s"
    print(f"{name:14} {tps:10.1f} {tps / base_tps:7.2f} {tpot:12.1f} {tpot / base_tpot:7.2f}  {notes}")
PY
echo "results in $out"
