#!/usr/bin/env bash
# Deterministic gating of simulated workloads through the real binary (docs/simulator.md): the
# same code gives identical results, compare passes and says nothing changed; a slower decode
# step fails the gate with every change listed; ci/perf-gate.sh gates the sim-* workloads with
# one repetition against a baseline stored under the hardware's machine key.
#   sim_gate.sh INFERGATE WORK_DIR SOURCE_DIR
set -uo pipefail
infergate=${1:?usage: sim_gate.sh INFERGATE WORK_DIR SOURCE_DIR}
work=${2:?usage: sim_gate.sh INFERGATE WORK_DIR SOURCE_DIR}
src=${3:?usage: sim_gate.sh INFERGATE WORK_DIR SOURCE_DIR}
rm -rf "$work" && mkdir -p "$work" && cd "$work"
source "$src/tests/cli/expect.sh"
limit=60
w="$src/workloads/sim-prefix-cache.json"

"$infergate" run "$w" --quiet --out a.json >/dev/null || { echo "FAIL: run a"; exit 1; }
"$infergate" run "$w" --quiet --out b.json >/dev/null || { echo "FAIL: run b"; exit 1; }
cmp -s <(/usr/bin/python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["points"]))' a.json) \
  <(/usr/bin/python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["points"]))' b.json) ||
  { echo "FAIL: two runs of one simulated workload differ"; status=1; }
expect 0 "deterministic: every summary metric is identical" -- \
  "$infergate" compare a.json b.json --report-dir same
grep -q '"deterministic": true' same/verdicts.json || { echo "FAIL: verdicts.json lacks deterministic"; status=1; }
"$infergate" run "$w" --quiet --out slow.json --set target.engine.debug.inject_decode_delay_us=3000 \
  >/dev/null || { echo "FAIL: run slow"; exit 1; }
expect 1 "REGRESSED" -- "$infergate" compare a.json slow.json --allow-env-diff
"$infergate" compare a.json slow.json --allow-env-diff >slow.txt 2>&1
for line in "summary metric\(s\) changed" "  tpot_ms.p50: 7.87.* -> 1[0-9.]+ \(\+[0-9.]+%\)" \
  "tpot-p50 .*regressed \(blocking\)"; do
  grep -qE "$line" slow.txt || { echo "FAIL: the slower run's comparison lacks /$line/"; status=1; }
done
# One repetition was enough (min_repetitions does not apply), and the report says how it judged.
grep -q "deterministic runs" same/summary.md || { echo "FAIL: summary.md lacks the method"; status=1; }

# The perf gate: no baseline yet (exit 2), then one stored under simulated-h100-sxm (exit 0).
gate=(env INFERGATE="$infergate" bash "$src/ci/perf-gate.sh" --skip-build --workloads ""
      --sim-workloads sim-prefix-cache --baselines store --no-history --out "$work/pg")
(cd "$src" && expect 2 "sim-prefix-cache: 1 repetitions" -- "${gate[@]/store/$work/store}")
expect 0 "simulated-h100-sxm" -- "$infergate" baseline update a.json --baselines store
(cd "$src" && expect 0 "perf-gate: exit 0" -- "${gate[@]/store/$work/store}")
exit $status
