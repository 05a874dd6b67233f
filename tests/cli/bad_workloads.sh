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
# Schedules that would run for days or hang: refused before any request, naming the file, the
# line and the field, and the limit (docs/workload-schema.md, "Limits").
echo_run=("$infergate" run --quiet --out sched.json)
workload() {  # workload NAME DATASET LOAD
  printf '{"schema": "infergate.workload/v1", "name": "%s", "target": {"type": "echo"},\n' "$1"
  printf ' "dataset": %s, "load": %s}\n' "$2" "$3"
}
workload slow '{"type": "synthetic"}' '{"mode": "open", "rate": 0.0001, "num_requests": 100}' >slow.json
expect 2 "slow.json: \\$.load.rate: 0.0001 is out of range .*100 requests at 0.0001 req/s would take about 990000 s; a run may last at most 86400 s" -- \
  "${echo_run[@]}" slow.json
trace() {  # trace FORMAT FILE: a replay of FILE
  workload "t-$1" "{\"type\": \"trace\", \"format\": \"$1\", \"path\": \"$2\"}" \
    '{"mode": "trace", "warmup_requests": 0}' >"t-$1.json"
}
record() { printf '{"timestamp": %s, "input_length": 8, "output_length": 2, "hash_ids": [1]}\n' "$1"; }
trace mooncake m.jsonl
for ts in -5 1e15 1e308; do
  { record 0; record "$ts"; } >m.jsonl
  expect 2 "m.jsonl:2: \"timestamp\" must be a number in \[0, 31536000000\]" -- "${echo_run[@]}" t-mooncake.json
done
{ record 0; record 1e309; } >m.jsonl
expect 2 "m.jsonl:2: not a usable JSON record: \"timestamp\" is a number out of range" -- \
  "${echo_run[@]}" t-mooncake.json
printf '{"timestamp": 0, "timestamp": 1e308, "input_length": 8, "output_length": 2, "hash_ids": [1]}\n' >m.jsonl
expect 2 "m.jsonl:1: not a usable JSON record: key \"timestamp\" appears twice" -- "${echo_run[@]}" t-mooncake.json
{ record 0; record 90000000; } >m.jsonl  # 25 hours: past a day's replay
expect 2 "m.jsonl:2: the replay would send this record 90000 s after its first: a replay may last at most 86400 s" -- \
  "${echo_run[@]}" t-mooncake.json
printf '{"timestamp": 0, "input_length": 8,\n' >m.jsonl
expect 2 "m.jsonl:1: not JSON at byte [0-9]+ of the line: unexpected end of input" -- "${echo_run[@]}" t-mooncake.json
trace azure a.csv
printf 'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.1,8,2\n9999-12-31 23:59:59.9,8,2\n' >a.csv
expect 2 "a.csv:3: TIMESTAMP is 2.91[0-9.e+]* days after the trace's first record: a trace may span at most 365 days" -- \
  "${echo_run[@]}" t-azure.json
trace burstgpt b.csv
for ts in -1 1e300; do
  printf 'Timestamp,Model,Request tokens,Response tokens\n0,m,8,2\n%s,m,8,2\n' "$ts" >b.csv
  expect 2 "b.csv:3: Timestamp = $ts must be in \[0, 31536000\]" -- "${echo_run[@]}" t-burstgpt.json
done
workload warm '{"type": "sessions", "num_sessions": 2, "turns": 3}' \
  '{"mode": "sessions", "concurrency": 2, "warmup_requests": 8}' >warm.json
expect 2 "warm.json: \\$.load.warmup_requests: 8 is out of range \(must be less than the sessions' 6 turns" -- \
  "${echo_run[@]}" warm.json
test ! -e sched.json || { echo "FAIL: a refused run wrote sched.json"; status=1; }

# A sweep of 10,000 points (each a whole run: it went on for hours, one line of output) is
# refused up front; 100 points are the limit (docs/workload-schema.md, "Limits").
points=$(seq -s, 1 10000)
expect 2 "sweep.values.*10000 points is out of range \(at most 100 sweep points" -- \
  "$infergate" validate "$src/workloads/rate-sweep.json" --set "sweep.values=[$points]"
expect 2 "sweep.values.*101 points is out of range" -- \
  "$infergate" run "$src/workloads/rate-sweep.json" --set "sweep.values=[$(seq -s, 1 101)]"
expect 0 "" -- \
  "$infergate" validate "$src/workloads/rate-sweep.json" --set "sweep.values=[$(seq -s, 1 100)]"

# An unknown command lists every command the dispatcher knows.
expect 2 "unknown command 'nope' \(allowed: run, validate, serve, router, generate, export, quantize, logits, tokenize, eval, compare, ab, diagnose, baseline, history, import, plan, sim, calibrate, report, bisect, bench-comm\)" -- \
  "$infergate" nope
exit $status
