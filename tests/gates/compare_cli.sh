#!/usr/bin/env bash
# `infergate compare` and `infergate baseline` end to end on the fixtures: documented exit codes,
# clear errors that name the problem, the baseline store, and reports written only when asked.
#   compare_cli.sh INFERGATE WORK_DIR
set -uo pipefail
infergate=${1:?usage: compare_cli.sh INFERGATE WORK_DIR}
work=${2:?usage: compare_cli.sh INFERGATE WORK_DIR}
data="$(cd "$(dirname "$0")" && pwd)/data"
rm -rf "$work" && mkdir -p "$work" && cd "$work"
base="$data/quickstart-baseline.json" cand="$data/quickstart-candidate.json"
status=0

# expect CODE PATTERN -- COMMAND...: the exit code, and PATTERN in stdout+stderr.
expect() {
  local code=$1 pattern=$2
  shift 3
  local out
  out=$("$@" 2>&1)
  local got=$?
  if [ "$got" != "$code" ] || ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL: $* -> exit $got (want $code), output lacks /$pattern/:"
    echo "$out" | sed 's/^/    /'
    status=1
  else
    echo "ok: exit $got: $*"
  fi
}

expect 4 "workload.target.engine.debug.inject_decode_delay_us: 0 -> 5000" -- \
  "$infergate" compare "$base" "$cand"
expect 3 "needs 6 repetitions per side, has 3" -- \
  "$infergate" compare "$base" "$cand" --allow-env-diff
expect 1 "REGRESSED" -- \
  "$infergate" compare "$base" "$cand" --allow-env-diff --rules "$data/report-rules.json"
# A/A on 3 noisy repetitions: the latency intervals are wide, so inconclusive, not pass.
expect 3 "the interval .* reaches past the 5.0% threshold" -- \
  "$infergate" compare "$base" "$base" --rules "$data/report-rules.json"
cat >throughput.json <<'RULES'
{"schema": "infergate.gates/v1", "statistics": {"alpha": 0.1},
 "rules": [{"name": "tput", "metric": "summary.request_throughput_rps", "better": "higher",
            "threshold": {"relative": 0.05}, "min_repetitions": 3}]}
RULES
expect 0 "PASS: no regression in 1 rule evaluations" -- \
  "$infergate" compare "$base" "$base" --rules throughput.json
expect 2 "/nonexistent.json: no such file" -- "$infergate" compare /nonexistent.json "$cand"
expect 2 "rules.json: \\\$.rules\\[0\\].better: 'up' is not allowed \\(allowed: lower, higher\\)" -- \
  sh -c "echo '{\"schema\": \"infergate.gates/v1\", \"rules\": [{\"name\": \"x\",
    \"metric\": \"summary.tpot_ms.p95\", \"better\": \"up\", \"threshold\": {\"relative\": 0.05}}]}' \
    > rules.json && '$infergate' compare '$base' '$base' --rules rules.json"
expect 2 "give CANDIDATE, or BASELINE and CANDIDATE" -- "$infergate" compare
expect 2 "no baseline for workload 'quickstart'.*infergate baseline update RESULT" -- \
  "$infergate" compare "$cand" --baselines store

# The store: update, compare against it by workload and machine, corrupt it, list it.
expect 0 "baseline: store/.*/quickstart.json" -- \
  "$infergate" baseline update "$base" --baselines store
expect 0 "PASS" -- "$infergate" compare "$base" --baselines store --rules throughput.json
expect 0 "quickstart .*repetitions 3" -- "$infergate" baseline list --baselines store
stored=$(ls store/*/quickstart.json)
printf '{"schema": "infergate.results/v1", ' >"$stored"
expect 2 "corrupt baseline.*not JSON" -- "$infergate" compare "$base" --baselines store

# Reports only with --report-dir; every file is complete.
expect 1 "report: reports/junit.xml" -- "$infergate" compare "$base" "$cand" --allow-env-diff \
  --rules "$data/report-rules.json" --report-dir reports
for f in verdicts.json report.html summary.md junit.xml; do
  [ -s "reports/$f" ] || { echo "FAIL: reports/$f missing"; status=1; }
done
exit $status
