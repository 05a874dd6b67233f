#!/usr/bin/env bash
# Workloads and flags with absurd values, through the real binary: each is refused at once with
# exit 2 and a message naming the field and the limit (no crash, no hang, no huge allocation).
#   bad_workloads.sh INFERGATE WORK_DIR SOURCE_DIR
set -uo pipefail
infergate=${1:?usage: bad_workloads.sh INFERGATE WORK_DIR SOURCE_DIR}
work=${2:?usage: bad_workloads.sh INFERGATE WORK_DIR SOURCE_DIR}
src=${3:?usage: bad_workloads.sh INFERGATE WORK_DIR SOURCE_DIR}
rm -rf "$work" && mkdir -p "$work" && cd "$work"
source "$src/tests/cli/expect.sh"

nested() { printf '%*s' "$1" '' | tr ' ' '['; printf '%*s' "$1" '' | tr ' ' ']'; }

# The quickstart whose description is 100,000 nested arrays (the repro: it was exit 139).
nested 100000 >description.txt
while IFS= read -r line; do
  case $line in
    '  "description": '*) printf '  "description": %s,\n' "$(cat description.txt)" ;;
    *) printf '%s\n' "$line" ;;
  esac
done <"$src/workloads/quickstart.json" >nested.json
grep -q '\[\[\[' nested.json || { echo "FAIL: the fixture did not nest"; exit 1; }
expect 2 "nested.json.*description.*nests too deep" -- "$infergate" validate nested.json
expect 2 "description.*nests too deep" -- \
  "$infergate" validate "$src/workloads/quickstart.json" --set "description=$(nested 20000)"
expect 2 "load.rate.*1e\+?308.*1000000|load.rate.*1000000.*1e\+?308" -- \
  "$infergate" validate "$src/workloads/quickstart.json" --set load.rate=1e308
expect 2 "out of range" -- \
  "$infergate" validate "$src/workloads/quickstart.json" --set load.rate=1e309

# Engine flags beyond what the engine or the machine can hold.
expect 2 "max_model_len 1024" -- "$infergate" generate --max-tokens 1000000000
expect 2 "num_threads = 100000 \(allowed: 0..1024" -- "$infergate" generate --threads 100000
expect 2 "not a KV cache dtype \(allowed: f32, f16, bf16, int8, fp8_e4m3\)" -- \
  "$infergate" generate --kv-dtype int4
expect 2 "physical memory|machine's memory|memory of" -- \
  "$infergate" generate --num-kv-blocks 2147483647
# Simulated targets: missing or unknown hardware, a missing calibration, what is not simulated.
sim=("$infergate" run "$src/workloads/quickstart.json" --quiet --out sim.json --set target.type=simulated)
expect 2 "target.hardware.*must be a non-empty name or path" -- "${sim[@]}"
expect 2 "hardware 'h300': no such built-in hardware \(built in: a100-80gb" -- \
  "${sim[@]}" --set target.hardware=h300
expect 2 "target.calibration.*is not an existing file" -- \
  "${sim[@]}" --set target.hardware=h100-sxm --set target.calibration=/nonexistent/cal.json
expect 2 "speculative decoding is not simulated yet" -- \
  "${sim[@]}" --set target.hardware=h100-sxm --set target.engine.speculative.method=ngram
expect 2 "bf16 weights: 141.1 GB" -- "${sim[@]}" --set target.hardware=a100-80gb \
  --set target.model=llama-3-70b --set target.memory_utilization=0.9
expect 2 "memory_utilization.*must be in \[0, 1\]" -- "${sim[@]}" --set target.hardware=h100-sxm \
  --set target.memory_utilization=2
test ! -e sim.json || { echo "FAIL: a refused simulated run wrote sim.json"; status=1; }
expect 2 "--out FILE is required" -- "$infergate" sim calibrate
expect 2 "unknown action 'nope' \(allowed: calibrate, list\)" -- "$infergate" sim nope
printf '{"schema": "infergate.sim-calibration/v1"}' >cal.json
expect 2 "cal.json: compute_efficiency: missing" -- "$infergate" sim calibrate --refit cal.json --out c2.json
# An unknown command lists every command the dispatcher knows.
expect 2 "unknown command 'nope' \(allowed: run, validate, serve, router, generate, export, quantize, logits, eval, compare, ab, diagnose, baseline, history, plan, sim, calibrate, report, bisect, bench-comm\)" -- \
  "$infergate" nope
exit $status
