#!/usr/bin/env bash
# ci/perf-gate.sh end to end against a baseline stored moments before by the same build: it must
# run the workload, compare, write every report, and exit with the verdict its reports record.
# (An A/A pair passes or, on a noisy machine, is inconclusive; about 1 in 100 is a false alarm,
# docs/gates.md, so the verdict itself is not asserted here: the plumbing is.)
#   perf_gate_end_to_end.sh INFERGATE WORK_DIR
set -uo pipefail
infergate=${1:?usage: perf_gate_end_to_end.sh INFERGATE WORK_DIR}
work=${2:?usage: perf_gate_end_to_end.sh INFERGATE WORK_DIR}
repo="$(cd "$(dirname "$0")/../.." && pwd)"
rm -rf "$work" && mkdir -p "$work"
status=0

"$infergate" run "$repo/workloads/quickstart.json" --repeat 6 --requests --quiet \
  --out "$work/baseline.json" >/dev/null || exit 1
"$infergate" baseline update "$work/baseline.json" --baselines "$work/results" || exit 1

INFERGATE="$infergate" bash "$repo/ci/perf-gate.sh" --skip-build --workloads quickstart \
  --sim-workloads "" --repeat 6 --auto-repeat 0 --baselines "$work/results" --out "$work/gate" \
  --history "$work/history.sqlite" >"$work/gate.log" 2>&1
code=$?
cat "$work/gate.log"
recorded=$(grep -o '"exit_code": *[0-9]' "$work/gate/quickstart/verdicts.json" | grep -o '[0-9]$')
case "$code" in
  0|1|3) if [ "$code" = "$recorded" ]; then echo "ok: perf-gate exit $code, as verdicts.json says"
         else echo "FAIL: perf-gate exit $code but verdicts.json says $recorded"; status=1; fi ;;
  *) echo "FAIL: perf-gate exited $code on an A/A pair"; status=1 ;;
esac
for f in candidate.json verdicts.json report.html summary.md junit.xml compare.log; do
  [ -s "$work/gate/quickstart/$f" ] || { echo "FAIL: $work/gate/quickstart/$f missing"; status=1; }
done
grep -q "infergate compare" "$work/gate/summary.md" || { echo "FAIL: no summary.md"; status=1; }
# The candidate was stored in the history, and its (one-run) history completes no change point.
if "$infergate" history list --db "$work/history.sqlite" | grep -q "^run 1  quickstart" &&
  grep -q "change points completed by this commit" "$work/gate.log"; then
  echo "ok: the candidate is in the history and was checked for change points"
else
  echo "FAIL: history: $("$infergate" history list --db "$work/history.sqlite" 2>&1)"; status=1
fi

# A missing baseline is an input error (2) that names the expected file, never a pass.
INFERGATE="$infergate" bash "$repo/ci/perf-gate.sh" --skip-build --workloads quickstart \
  --sim-workloads "" --repeat 6 --auto-repeat 0 --baselines "$work/none" --out "$work/gate2" \
  --history "$work/history2.sqlite" >"$work/gate2.log" 2>&1
code=$?
if [ "$code" != 2 ] || ! grep -q "no baseline for workload 'quickstart'" "$work/gate2.log"; then
  echo "FAIL: missing baseline gave exit $code"; cat "$work/gate2.log"; status=1
else
  echo "ok: missing baseline -> exit 2"
fi

# --baseline-bin: a paired A/B (infergate ab) instead of the stored baseline; here an A/A of this
# build under rules that four pairs can decide, so the plumbing is what is checked. The simulated
# workload runs once per build and is compared exactly.
INFERGATE="$infergate" bash "$repo/ci/perf-gate.sh" --skip-build --workloads gate-decode \
  --baseline-bin "$infergate" --rules "$repo/tests/gates/data/ab-rules.json" --budget-minutes 2 \
  --sim-workloads sim-scheduling --out "$work/gate3" --no-history >"$work/gate3.log" 2>&1
code=$?
recorded=$(grep -o '"exit_code": *[0-9]' "$work/gate3/gate-decode/verdicts.json" | grep -o '[0-9]$')
if [ "$code" != "$recorded" ] || ! grep -q '"paired": true' "$work/gate3/gate-decode/verdicts.json"; then
  echo "FAIL: paired perf-gate exit $code, verdicts.json says ${recorded:-nothing}"
  cat "$work/gate3.log"; status=1
else
  echo "ok: paired perf-gate exit $code, as its verdicts.json says"
fi
for f in baseline.json candidate.json report.html summary.md; do
  [ -s "$work/gate3/gate-decode/$f" ] || { echo "FAIL: paired $f missing"; status=1; }
done
if grep -q '"deterministic": true' "$work/gate3/sim-scheduling/verdicts.json" &&
  grep -q '"overall": "PASS"' "$work/gate3/sim-scheduling/verdicts.json"; then
  echo "ok: the simulated workload was compared exactly and passed A/A"
else
  echo "FAIL: sim-scheduling against --baseline-bin"; status=1
fi
exit $status
