#!/usr/bin/env bash
# The CI performance gate (docs/ci.md): build, run each workload with repetitions, compare it
# with its stored baseline, write every report, and exit with the verdict.
#
#   ci/perf-gate.sh [--workloads "quickstart chat-short"] [--repeat 6] [--out DIR]
#                   [--rules FILE] [--baselines DIR] [--auto-repeat N] [--skip-build]
#                   [--update-baselines] [--baseline-bin OLD [--budget-minutes M]]
#                   [--history DB | --no-history] [--sim-workloads "sim-scheduling ..."]
# INFERGATE=PATH uses that binary instead of build/release/cli/infergate (with --skip-build).
# --baseline-bin: instead of comparing with the stored baseline, a paired A/B of OLD against the
# new build on this machine (`infergate ab`, docs/gates.md "Paired A/B"), within M minutes.
# --history: every candidate run is also stored in this history database (default
# results/history.sqlite; docs/history.md), and `history detect --newest` looks for a change
# point the new commit completes (not in --baseline-bin mode).
#
# --sim-workloads: simulated scheduling workloads (docs/simulator.md) gated on every change with
# one repetition each, compared exactly (deterministic mode); "" skips them. Default: every
# workloads/sim-*.json.
#
# Exit: 0 pass, 1 regression, 2 usage or input error (e.g. no baseline), 3 inconclusive,
# 4 incomparable, 6 the new commit completes a change point that makes a metric worse; over
# several workloads the most serious wins (2, then 1, 6, 4, 3, 0).
set -euo pipefail
cd "$(dirname "$0")/.."

workloads="quickstart" repeat=6 out="out/perf-gate" rules="" baselines="results"
auto_repeat=4 build=1 update=0 baseline_bin="" budget=10 history="results/history.sqlite"
sim_workloads="$(for f in workloads/sim-*.json; do [ -e "$f" ] && basename "$f" .json; done | xargs)"
while [ $# -gt 0 ]; do
  case "$1" in
    --workloads) workloads="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --rules) rules="$2"; shift 2 ;;
    --baselines) baselines="$2"; shift 2 ;;
    --auto-repeat) auto_repeat="$2"; shift 2 ;;
    --skip-build) build=0; shift ;;
    --update-baselines) update=1; shift ;;
    --baseline-bin) baseline_bin="$2"; shift 2 ;;
    --budget-minutes) budget="$2"; shift 2 ;;
    --history) history="$2"; shift 2 ;;
    --no-history) history=""; shift ;;
    --sim-workloads) sim_workloads="$2"; shift 2 ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) echo "perf-gate: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done

if [ "$build" = 1 ]; then bash ci/build.sh infergate; fi
infergate=${INFERGATE:-build/release/cli/infergate}
[ -x "$infergate" ] || { echo "perf-gate: $infergate is not built" >&2; exit 2; }
mkdir -p "$out"
rules_args=()
[ -n "$rules" ] && rules_args=(--rules "$rules")

# Most serious first: input error, regression, a worse change point, incomparable, inconclusive.
rank() { case "$1" in 2) echo 5 ;; 1) echo 4 ;; 6) echo 3 ;; 4) echo 2 ;; 3) echo 1 ;; *) echo 0 ;; esac; }
overall=0
: >"$out/summary.md"
# Paired: OLD and the new build alternately on this machine, judged while they run.
gate_paired() {
  echo "== $1: paired A/B against $baseline_bin, within $budget minutes"
  "$infergate" ab "workloads/$1.json" --baseline-bin "$baseline_bin" --candidate-bin "$infergate" \
    "${rules_args[@]}" --baselines "$baselines" --budget-minutes "$budget" --out-dir "$2"
}

# Simulated, against OLD: one run of each build, compared exactly (no pairs needed).
gate_simulated_pair() {
  echo "== $1: simulated, one run of $baseline_bin and one of the new build"
  "$baseline_bin" run "workloads/$1.json" --quiet --out "$2/baseline.json"
  "$infergate" run "workloads/$1.json" --quiet --out "$2/candidate.json"
  "$infergate" compare "$2/baseline.json" "$2/candidate.json" "${rules_args[@]}" --report-dir "$2"
}

# A simulated workload is deterministic: one repetition is its value, and no rerun helps.
is_simulated() { case " $sim_workloads " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# Stored: the new build's repetitions against the stored baseline.
gate_stored() {
  local reps="$repeat" reruns="$auto_repeat"
  if is_simulated "$1"; then reps=1 reruns=0; fi
  # No baseline on any machine: an input error now, not after the repetitions (compare still
  # refuses one stored for another machine, which needs the run's machine to tell).
  if ! "$infergate" baseline show "$1" --baselines "$baselines" >/dev/null 2>&1; then
    echo "perf-gate: no baseline for workload '$1' in $baselines (on any machine); store one" \
      "with: infergate baseline update RESULT" >&2
    return 2
  fi
  echo "== $1: $reps repetitions"
  # Exit 5 (no request succeeded) still writes the results: compare then refuses them with
  # exit 2, naming the failures, so the gate keeps compare's exit codes.
  local run_code=0
  "$infergate" run "workloads/$1.json" --repeat "$reps" --requests --quiet \
    --out "$2/candidate.json" || run_code=$?
  [ "$run_code" = 0 ] || [ "$run_code" = 5 ] || return "$run_code"
  if [ -n "$history" ]; then
    mkdir -p "$(dirname "$history")"
    "$infergate" history add "$2/candidate.json" --db "$history"
  fi
  "$infergate" compare "$2/candidate.json" --baselines "$baselines" "${rules_args[@]}" \
    --auto-repeat "$reruns" --report-dir "$2"
}

# Change points the new commit completes in the workload's stored history: exit 6 when worse.
detect_newest() {
  echo "== $1: change points completed by this commit ($history)"
  "$infergate" history detect --db "$history" --workload "$1" --newest --format markdown \
    --out "$2/change-points.md"
}

for w in $workloads $sim_workloads; do
  dir="$out/$w"
  mkdir -p "$dir"
  set +e
  if [ -n "$baseline_bin" ] && is_simulated "$w"; then
    gate_simulated_pair "$w" "$dir" 2>&1 | tee "$dir/compare.log"
  elif [ -n "$baseline_bin" ]; then
    gate_paired "$w" "$dir" 2>&1 | tee "$dir/compare.log"
  else
    gate_stored "$w" "$dir" 2>&1 | tee "$dir/compare.log"
  fi
  code=${PIPESTATUS[0]}
  set -e
  # Anything but a verdict (a run that crashed, an interrupt) ends the gate with its code.
  case "$code" in 0 | 1 | 2 | 3 | 4) ;; *) exit "$code" ;; esac
  if [ -n "$history" ] && [ -z "$baseline_bin" ] && [ "$code" != 2 ] && ! is_simulated "$w"; then
    set +e
    detect_newest "$w" "$dir" 2>&1 | tee -a "$dir/compare.log"
    detect_code=${PIPESTATUS[0]}
    set -e
    case "$detect_code" in 0) ;; 6) [ "$(rank 6)" -gt "$(rank "$code")" ] && code=6 ;; *) code=2 ;; esac
  fi
  if [ -f "$dir/summary.md" ]; then
    cat "$dir/summary.md" >>"$out/summary.md"
    if [ -f "$dir/change-points.md" ] && [ "${detect_code:-0}" = 6 ]; then
      cat "$dir/change-points.md" >>"$out/summary.md"
    fi
  else
    printf '## %s: compare failed (exit %s)\n\n```\n%s\n```\n' "$w" "$code" \
      "$(tail -5 "$dir/compare.log")" >>"$out/summary.md"
  fi
  if [ "$update" = 1 ] && [ "$code" = 0 ]; then
    "$infergate" baseline update "$dir/candidate.json" --baselines "$baselines"
  fi
  if [ "$(rank "$code")" -gt "$(rank "$overall")" ]; then overall=$code; fi
done

if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$out/summary.md" >>"$GITHUB_STEP_SUMMARY"; fi
echo "perf-gate: exit $overall (reports in $out)"
exit "$overall"
