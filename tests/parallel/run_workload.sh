#!/usr/bin/env bash
# `infergate run` under mpirun with a tensor-parallel engine: every request completes, and the
# results file carries the layout and the collectives by name (engine.parallel).
#   run_workload.sh MPIRUN INFERGATE WORKLOAD OUT_DIR
set -euo pipefail
mpirun=$1 infergate=$2 workload=$3 out=$4
mkdir -p "$out"
"$mpirun" --oversubscribe -np 2 "$infergate" run "$workload" -q --out "$out/tp2.json" \
  --set target.engine.tensor_parallel=2 --set target.engine.num_threads=1 \
  --set load.num_requests=12 --set load.warmup_requests=0
/usr/bin/python3 - "$out/tp2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rep = d["points"][0]["repetitions"][0]
s, par = rep["summary"], rep["engine"]["parallel"]
assert s["num_completed"] == 12 and s["num_errors"] == 0, s
assert d["workload"]["target"]["engine"]["tensor_parallel"] == 2, d["workload"]["target"]
assert par["world_size"] == 2 and par["tensor_parallel"] == 2, par
ar = par["comm"]["group"]["all_reduce"]
assert ar["calls"] > 0 and ar["bytes"] > 0, par
print(f"ok: 12 requests at TP=2; {ar['calls']} all-reduces, {ar['bytes']} bytes in the results")
PY
