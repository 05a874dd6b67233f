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

# --- Failures are loud ------------------------------------------------------------------------
# A run against a port where nothing listens: every request fails. It must say how many and why,
# and exit 5, not print a table of zeros and exit 0.
# The system interpreter (ci/packages.txt), never whatever python3 PATH finds first.
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
cat >closed-port.json <<WORKLOAD
{"schema": "infergate.workload/v1", "name": "closed-port",
 "target": {"type": "openai", "url": "http://127.0.0.1:$port", "api": "completions",
            "model": "tiny", "vocab_size": 256, "timeout_s": 5},
 "dataset": {"type": "synthetic", "input_tokens": {"dist": "fixed", "value": 8},
             "output_tokens": {"dist": "fixed", "value": 4}},
 "load": {"mode": "open", "rate": 500, "arrival": "constant", "num_requests": 24,
          "warmup_requests": 0}}
WORKLOAD
expect 5 "error: no request succeeded: 24 of 24 requests failed: connection refused: 24 \(first: cannot connect to http://127.0.0.1:$port" -- \
  timeout 60 "$infergate" run closed-port.json --requests --quiet --out failed.json
[ -s failed.json ] || { echo "FAIL: failed.json was not written"; status=1; }
# compare and baseline update refuse it by default, naming the file and the counts
expect 2 "refusing: baseline failed.json: 24 of 24 requests failed: connection refused.*above the 1% limit of rule 'error-share'" -- \
  "$infergate" compare failed.json failed.json
# a rules file without an error-share rule still refuses, at the built-in 1%
expect 2 "refusing: candidate failed.json: .*above the 1% limit of the built-in error-share default" -- \
  "$infergate" compare failed.json failed.json --rules throughput.json
expect 3 "warning: candidate failed.json: 24 of 24 requests failed.*above the 1% limit" -- \
  "$infergate" compare failed.json failed.json --rules throughput.json --allow-errors
expect 2 "refusing: result failed.json: 24 of 24 requests failed" -- \
  "$infergate" baseline update failed.json --baselines store
expect 0 "baseline: store/" -- "$infergate" baseline update failed.json --baselines store --allow-errors
expect 2 "max-error-share must be a fraction in 0 .. 1" -- \
  "$infergate" run closed-port.json --max-error-share 2 --quiet --out x.json

# --- The gate cannot be fooled, or made to write outside its folder -----------------------------
# edit FILE OUT PYTHON: OUT is FILE's JSON after PYTHON (on `d`) ran.
edit() {
  /usr/bin/python3 -c "import json, sys; d = json.load(open(sys.argv[1])); $3; json.dump(d, open(sys.argv[2], 'w'))" "$1" "$2"
}
reps='d["points"][0]["repetitions"]'
# the summaries' mean, as the harness writes it, after a repetition summary was edited
remean='
def mean(xs):
  f = xs[0]
  if isinstance(f, dict): return {k: mean([x[k] for x in xs if k in x]) for k in f}
  if isinstance(f, bool): return any(xs)
  ns = [x for x in xs if isinstance(x, (int, float)) and not isinstance(x, bool)]
  return sum(ns) / len(ns) if ns else f
d["points"][0]["summary"] = d["summary"] = mean([r["summary"] for r in '"$reps"'])'
edit "$base" escaped.json 'd["workload"]["name"] = "../../../escaped"'
rm -f ../escaped.json
expect 0 "baseline: store/[^/]+/__-\.\.-\.\.-escaped-[0-9a-f]{8}\.json" -- \
  "$infergate" baseline update escaped.json --baselines store
[ -e ../escaped.json ] && { echo "FAIL: baseline update wrote outside --baselines"; status=1; }
justified_rules() {  # a needs-justification rule on peak memory, 3 repetitions per side
  cat >"$1" <<RULES
{"schema": "infergate.gates/v1", "statistics": {"alpha": 0.1},
 "rules": [{"name": "peak-memory", "metric": "summary.peak_memory_bytes", "better": "lower",
            "threshold": {"relative": 0.1}, "severity": "needs-justification",
            "min_repetitions": 3, "justification_file": "$2"}]}
RULES
}
justified_rules passwd-rules.json /etc/passwd
expect 2 "passwd-rules.json: \\\$.rules\\[0\\].justification_file: '/etc/passwd' must be a relative path inside the change's checkout" -- \
  "$infergate" compare "$base" "$base" --rules passwd-rules.json
# +1,347,618% peak memory, edited consistently into every summary
m=""; for r in 0 1 2; do m="$m$reps[$r][\"summary\"][\"peak_memory_bytes\"] *= 13477.18; "; done
edit "$base" bloated.json "$m$remean"
justified_rules memory-rules.json perf-justifications/peak-memory.md
mkdir -p checkout/perf-justifications
ln -sf /etc/passwd checkout/perf-justifications/peak-memory.md
expect 1 "resolves to /etc/passwd, outside .*checkout" -- \
  "$infergate" compare "$base" bloated.json --rules memory-rules.json --justification-root checkout
rm checkout/perf-justifications/peak-memory.md
echo "root:x:0:0:root:/root:/bin/sh" >checkout/perf-justifications/peak-memory.md
expect 1 "does not say it justifies this rule" -- \
  "$infergate" compare "$base" bloated.json --rules memory-rules.json --justification-root checkout
printf 'justifies: peak-memory\n\nThe model is 4x larger on purpose.\n' >checkout/perf-justifications/peak-memory.md
expect 0 "justified by perf-justifications/peak-memory.md" -- \
  "$infergate" compare "$base" bloated.json --rules memory-rules.json --justification-root checkout

# --- Bad results files the gate once misread: each is exit 2 naming the field -------------------
edit "$cand" wrong-type.json "$reps[1][\"summary\"][\"tpot_ms\"][\"p95\"] = \"31\""
expect 2 "wrong-type.json: \\\$.points\\[0\\].repetitions\\[1\\].summary.tpot_ms.p95: expected a number, got string" -- \
  "$infergate" compare "$base" wrong-type.json --allow-env-diff
edit "$cand" negative.json "$reps[0][\"summary\"][\"tpot_ms\"][\"p95\"] = -31"
expect 2 "negative.json: \\\$.points\\[0\\].repetitions\\[0\\].summary.tpot_ms.p95: -31 is out of range" -- \
  "$infergate" compare "$base" negative.json --allow-env-diff
edit "$cand" huge.json "$reps[0][\"summary\"][\"tpot_ms\"][\"p95\"] = 1e308"
expect 2 "huge.json: \\\$.points\\[0\\].repetitions\\[0\\].summary.tpot_ms.p95: 1e\\+308 is out of range" -- \
  "$infergate" compare "$base" huge.json --allow-env-diff
edit "$base" edited-workload.json 'd["workload"]["load"]["rate"] = 80.0'
expect 2 "edited-workload.json: \\\$.workload_hash: 'fnv1a64:[0-9a-f]+' is not the hash of the embedded \\\$.workload" -- \
  "$infergate" compare "$base" edited-workload.json
# a summary made to look fast while the records say otherwise: refused, not judged on one and
# shown with the other
t=""; for r in 0 1 2; do t="$t$reps[$r][\"summary\"][\"tpot_ms\"] = {k: v if k == \"count\" else v / 2 for k, v in $reps[$r][\"summary\"][\"tpot_ms\"].items()}; "; done
edit "$cand" tampered.json "$t$remean"
expect 2 "tampered.json: \\\$.points\\[0\\].repetitions\\[0\\].summary.tpot_ms.[a-z0-9]+: .* disagrees with the request records" -- \
  "$infergate" compare "$base" tampered.json --allow-env-diff

# --- Contradictory or empty settings are refused before any run (exit 2 naming the flag) --------
workload="$data/../bisect_fixture/workload.json"
expect 2 "--trials 0: allowed: 1 to 1000000" -- "$infergate" calibrate --from "$base" --trials 0
expect 2 "--reps-per-side 0: allowed: 2 to 1000" -- \
  "$infergate" calibrate --from "$base" --reps-per-side 0
expect 2 "--slowed-from MISSING.json needs --check-slowdown" -- \
  "$infergate" calibrate --from "$base" --slowed-from MISSING.json
expect 2 "--slowed-from MISSING.json: no such file" -- \
  "$infergate" calibrate --from "$base" --slowed-from MISSING.json --check-slowdown 0.1
expect 2 "--min-pairs 100 is more than --max-pairs 4" -- \
  "$infergate" ab "$workload" --min-pairs 100 --max-pairs 4
if command -v git >/dev/null; then
  git init -q repo && git -C repo -c user.name=t -c user.email=t@t commit -q --allow-empty -m one
  expect 2 "sweeps load.rate over 2 values and bisect judges one point: drop the sweep" -- \
    "$infergate" bisect --repo repo --good HEAD --bad HEAD --workload "$workload" \
    --metric summary.tpot_ms.p50 --cache-dir cache --out-dir bisect-out \
    --set 'sweep={"field": "load.rate", "values": [1, 2]}'
  [ -e cache ] && { echo "FAIL: bisect of a sweep made its cache (started building)"; status=1; }
fi

# Ctrl-C during calibrate's runs: the repetitions so far are kept (marked incomplete), exit 130.
set -m
"$infergate" calibrate "$workload" --repeat 20 --runs-out cal-runs.json --noise-out cal.noise.json \
  >cal.log 2>&1 &
pid=$!
sleep 4
kill -INT "$pid" 2>/dev/null
wait "$pid"
code=$?
set +m
if [ $code = 130 ] && grep -q "the repetitions run so far are in cal-runs.json" cal.log &&
  grep -q '"incomplete": *true' cal-runs.json; then
  echo "ok: calibrate interrupted: exit 130, its runs kept"
else
  echo "FAIL: calibrate interrupted: exit $code: $(tail -3 cal.log)"
  status=1
fi

# The slowed runs are described by what they did to each gated metric, not by what was injected
# (a "100%" delay moves TPOT by its own amount), on screen and in the noise file.
expect 0 "detection of the slowed runs \(measured: .*tpot_ms.p50 \+[0-9.]+%.* against the A/A runs\)" -- \
  "$infergate" calibrate "$workload" --repeat 4 --check-slowdown 1 --reps-per-side 2 \
  --trials 20 --runs-out cal2-runs.json --noise-out cal2.noise.json
grep -q '"measured_change"' cal2.noise.json ||
  { echo "FAIL: the noise file keeps no measured_change"; status=1; }

# --- A binary that hangs is stopped by the budget and named with what it printed --------------
printf '#!/bin/sh\necho "hanging now, ignoring $1"\nexec sleep 1000\n' >hang.sh && chmod +x hang.sh
start=$SECONDS
expect 2 "ran past its time limit of [0-9]+ s and was stopped and wrote no results .*it printed: \"hanging now, ignoring run\"" -- \
  "$infergate" ab "$workload" --baseline-bin ./hang.sh --candidate-bin ./hang.sh \
  --budget-minutes 0.05 --out-dir ab-hang
[ $((SECONDS - start)) -lt 40 ] || { echo "FAIL: ab with a hung binary took $((SECONDS - start)) s"; status=1; }
start=$SECONDS
expect 2 "rerunning the baseline: .*ran past its time limit of 3 s .*it printed: \"hanging now" -- \
  "$infergate" compare "$base" "$base" --rules "$data/report-rules.json" --auto-repeat 2 \
  --baseline-bin ./hang.sh --candidate-bin ./hang.sh --budget-minutes 0.05
[ $((SECONDS - start)) -lt 40 ] || { echo "FAIL: compare with a hung binary took $((SECONDS - start)) s"; status=1; }

# --- A killed writer's temporary beside another output goes on the next write to the folder ---
sh -c 'exit 0' &
dead=$!
wait "$dead"
"$infergate" baseline update "$base" --baselines kept >/dev/null
dir=$(dirname "$(ls kept/*/quickstart.json)")
touch -d '20 minutes ago' "$dir/other.json.tmp-$dead-Ab12Cd"
touch "$dir/fresh.json.tmp-$dead-Ab12Cd"
expect 0 "baseline: kept/" -- "$infergate" baseline update "$base" --baselines kept
[ -e "$dir/other.json.tmp-$dead-Ab12Cd" ] &&
  { echo "FAIL: a dead writer's idle temporary was left beside the baseline"; status=1; }
[ -e "$dir/fresh.json.tmp-$dead-Ab12Cd" ] ||
  { echo "FAIL: a fresh temporary of another output was removed"; status=1; }

# Reports only with --report-dir; every file is complete.
expect 1 "report: reports/junit.xml" -- "$infergate" compare "$base" "$cand" --allow-env-diff \
  --rules "$data/report-rules.json" --report-dir reports
for f in verdicts.json report.html summary.md junit.xml; do
  [ -s "reports/$f" ] || { echo "FAIL: reports/$f missing"; status=1; }
done
exit $status
