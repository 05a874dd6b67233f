#!/usr/bin/env bash
# Speculative decoding on and off: each spec-* workload through the harness ROUNDS times. The
# workloads that sweep target.engine.speculative.num_tokens measure off (0) and on in one results
# file; spec-batch (which sweeps users) runs once with speculative.method none and once as
# written; spec-temperature runs sampled (as written) and greedy. Prints TPOT P50, output
# tokens/s, the acceptance rate, mean acceptance length, draft time share and tokens per target
# pass per point, with the on/off ratios of the medians (docs/speculative.md, "Figures").
#
#   bench/campaigns/speculative/measure_spec.sh BUILD_DIR [OUT_DIR]
#
# Environment: WORKLOADS (default "spec-repetitive spec-temperature spec-self spec-open
# spec-batch"), ROUNDS (default 2).
set -euo pipefail

root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:?usage: measure_spec.sh BUILD_DIR [OUT_DIR]}
out=${2:-$(mktemp -d "${TMPDIR:-/tmp}/infergate-measure_spec.XXXXXX")}
workloads=${WORKLOADS:-spec-repetitive spec-temperature spec-self spec-open spec-batch}
rounds=${ROUNDS:-2}
infergate=$build/cli/infergate
[ -x "$infergate" ] || { echo "measure_spec: no $infergate (build it first)" >&2; exit 2; }
mkdir -p "$out"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, INFERGATE_ISA=${INFERGATE_ISA:-unset}"

# Runs: "label workload on|off|sweep [--set ...]": on/off pairs compare across two files.
runs=()
for w in $workloads; do
  case $w in
    spec-batch) runs+=("$w-off $w off --set target.engine.speculative.method=none" "$w-on $w on") ;;
    spec-temperature) runs+=("$w $w sweep" "$w-greedy $w sweep --set sampling.temperature=0") ;;
    *) runs+=("$w $w sweep") ;;
  esac
done
for round in $(seq 1 "$rounds"); do
  for run in "${runs[@]}"; do
    read -r label w _ args <<<"$run"
    # shellcheck disable=SC2086  # the --set arguments split on purpose
    "$infergate" run "$root/workloads/$w.json" ${args:-} --out "$out/$label-$round.json" >/dev/null 2>&1
  done
  echo "  round $round done"
done

python3 - "$out" "$rounds" "${runs[@]}" <<'PY'
import json, statistics, sys
out, rounds, runs = sys.argv[1], int(sys.argv[2]), [r.split()[:3] for r in sys.argv[3:]]
def points(label, r):
    return json.load(open(f"{out}/{label}-{r}.json"))["points"]
def metric(p, key):
    s = p["repetitions"][0]["summary"]
    return s[key]["p50"] if key == "tpot_ms" else s[key]
def med(label, i, key):
    return statistics.median(metric(points(label, r)[i], key) for r in range(1, rounds + 1))
print("\n| workload | point | TPOT p50 off / on ms | TPOT off / on | out tok/s off / on | on / off "
      "| acceptance | mean acceptance length | draft time share | tokens per target pass |")
print("|---|---|---|---|---|---|---|---|---|---|")
def row(name, point, off_label, off_i, on_label, on_i):
    off, on = med(off_label, off_i, "tpot_ms"), med(on_label, on_i, "tpot_ms")
    toff = med(off_label, off_i, "output_throughput_tps")
    ton = med(on_label, on_i, "output_throughput_tps")
    spec = points(on_label, rounds)[on_i]["repetitions"][0]["engine"]["spec_decode"]
    print(f"| {name} | {point} | {off:.2f} / {on:.2f} | {off / on:.2f}x | {toff:.0f} / {ton:.0f} "
          f"| {ton / toff:.2f}x | {100 * spec['acceptance_rate']:.1f}% "
          f"| {spec['mean_acceptance_length']:.2f} | {100 * spec['draft_time_share']:.1f}% "
          f"| {spec['tokens_per_target_pass']:.2f} |")
for label, w, kind in runs:
    if kind == "sweep":  # point 0 is num_tokens 0: off
        for i, p in enumerate(points(label, 1)[1:], start=1):
            row(label, f"{p['sweep']['value']:g} tokens", label, 0, label, i)
    elif kind == "on":
        for i, p in enumerate(points(label, 1)):
            users = f"{p['sweep']['value']:g} users" if p.get("sweep") else "all"
            row(w, users, f"{w}-off", i, label, i)
PY
