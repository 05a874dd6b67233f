#!/usr/bin/env bash
# A capacity search through the real binary on a simulated target (deterministic, virtual time;
# docs/metrics.md "Capacity at the SLO"): the results keep every probe and the capacity, compare
# judges the capacity alone, a slower decode step lowers it and fails the gate, ab's paired
# capacity comparison catches it, and each way a search cannot answer is a clear verdict or exit.
#   capacity_search.sh INFERGATE WORK_DIR SOURCE_DIR
set -uo pipefail
infergate=${1:?usage: capacity_search.sh INFERGATE WORK_DIR SOURCE_DIR}
work=${2:?usage: capacity_search.sh INFERGATE WORK_DIR SOURCE_DIR}
src=${3:?usage: capacity_search.sh INFERGATE WORK_DIR SOURCE_DIR}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$src/tests/cli/expect.sh"
limit=120
w="$src/workloads/capacity-sim.json"
py=/usr/bin/python3
field() { $py -c 'import json,sys; s=json.load(open(sys.argv[1]))["points"][0]["repetitions"][0]["search"]; print(eval(sys.argv[2]))' "$@"; }

expect 0 "search: capacity [0-9.]+ req/s at the SLO \(TTFT <= 500 ms, TPOT <= 40 ms for 90% of requests\), bracket" -- \
  "$infergate" run "$w" --out a.json
"$infergate" run "$w" --quiet --out b.json >/dev/null 2>&1 || { echo "FAIL: run b"; status=1; }
[ "$(field a.json 's["status"]')" = found ] || { echo "FAIL: a.json's search did not end found"; status=1; }
[ "$(field a.json 'len(s["probes"]) >= 5 and s["low"] <= s["capacity"] <= s["high"] and s["high"] / s["low"] - 1 <= 0.05')" = True ] ||
  { echo "FAIL: a.json's bracket: $(field a.json 's["low"], s["capacity"], s["high"]')"; status=1; }
[ "$(field a.json 'sorted({p["role"] for p in s["probes"]})')" = "['bisect', 'from', 'reprobe', 'to']" ] ||
  { echo "FAIL: probe roles: $(field a.json 'sorted({p["role"] for p in s["probes"]})')"; status=1; }
$py -c 'import json,sys; d=json.load(open(sys.argv[1])); f=d["frontier"]; assert f["source"]=="search" and any(p["on_frontier"] for p in f["points"]) and all(p["meets_slo"] is not None for p in f["points"]), f' a.json ||
  { echo "FAIL: a.json's frontier"; status=1; }
cmp -s <($py -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["points"]))' a.json) \
  <($py -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["points"]))' b.json) ||
  { echo "FAIL: two searches of one simulated workload differ"; status=1; }

# compare judges a search on its capacity alone: the latency rules would compare loads.
expect 0 "capacity-at-slo" -- "$infergate" compare a.json b.json --report-dir same
grep -q '"rule": "tpot-p50"' same/verdicts.json && { echo "FAIL: a latency rule judged a search"; status=1; }
grep -q 'data-chart' same/report.html || { echo "FAIL: the report has no charts"; status=1; }
for section in 'id="capacity-search"' 'id="frontier"'; do
  grep -q "$section" same/report.html || { echo "FAIL: the report lacks $section"; status=1; }
done
"$infergate" run "$w" --quiet --out slow.json --set target.engine.debug.inject_decode_delay_us=6000 \
  >/dev/null 2>&1 || { echo "FAIL: run slow"; status=1; }
expect 1 "capacity-at-slo .*regressed" -- "$infergate" compare a.json slow.json --allow-env-diff

# ab: the baseline searches once, then both sides probe the same loads around its capacity.
timeout "$limit" "$infergate" ab "$w" --candidate-set target.engine.debug.inject_decode_delay_us=6000 \
  --out-dir "$work/ab" --max-pairs 8 --budget-minutes 2 >ab.txt 2>&1
code=$?
[ "$code" = 1 ] || { echo "FAIL: ab of a slower decode step exited $code, not 1"; status=1; }
for line in "baseline: capacity [0-9.]+ req/s at the SLO" "every run probes load.search.at=\[[0-9., ]+\]" \
  "capacity-at-slo .*regressed \(blocking\)"; do
  grep -qE -- "$line" ab.txt || { echo "FAIL: ab's output lacks /$line/"; sed 's/^/    /' ab.txt | head -20; status=1; }
done
[ -f ab/runs/baseline-search.json ] || { echo "FAIL: ab kept no baseline search"; status=1; }
expect 0 "capacity-at-slo .*pass" -- "$infergate" ab "$w" --out-dir "$work/aa" --max-pairs 8 --budget-minutes 2

# Each way a search cannot answer.
expect 0 "capacity 0: the SLO .* is not met at the lowest load searched \(1 req/s" -- \
  "$infergate" run "$w" --quiet --out zero.json --set slo.ttft_ms=1
[ "$(field zero.json 's["capacity"] == 0')" = True ] || { echo "FAIL: capacity 0 not recorded"; status=1; }
expect 2 "does not bracket the capacity.*raise load.search.to" -- \
  "$infergate" run "$w" --quiet --out low.json --set load.search.to=2
[ "$(field low.json 's["status"], s["capacity"]')" = "('not_bracketed', None)" ] ||
  { echo "FAIL: low.json: $(field low.json 's["status"], s["capacity"]')"; status=1; }
cat >dead.json <<JSON
{"schema": "infergate.workload/v1", "name": "capacity-dead",
 "target": {"type": "openai", "url": "http://127.0.0.1:1", "model": "m", "vocab_size": 1000},
 "dataset": {"type": "synthetic", "input_tokens": 8, "output_tokens": 4},
 "load": {"mode": "closed", "search": {"from": 1, "to": 4, "goodput_share": 0.9}},
 "slo": {"ttft_ms": 100}}
JSON
expect 5 "every request failed \(connection refused" -- "$infergate" run dead.json --quiet --out dead-results.json
[ "$(field dead-results.json 's["status"]')" = probe_failed ] || { echo "FAIL: dead: status"; status=1; }
expect 2 "needs an slo with at least one bound" -- "$infergate" run "$w" --set slo={} --out none.json
[ -e none.json ] && { echo "FAIL: a refused workload wrote results"; status=1; }
exit "$status"
