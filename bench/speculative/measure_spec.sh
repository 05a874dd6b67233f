#!/usr/bin/env bash
# Speculative decoding on and off in one run: each spec-* workload through the harness with
# speculative.method none and as written (ngram), alternating, ROUNDS times; prints TPOT P50, output
# tokens/s, the acceptance rate and mean acceptance length per point, and the on/off ratios of
# the medians (docs/speculative.md, "Figures").
#
#   bench/speculative/measure_spec.sh BUILD_DIR [OUT_DIR]
#
# Environment: WORKLOADS (default "spec-repetitive spec-open spec-batch"), ROUNDS (default 2).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: measure_spec.sh BUILD_DIR [OUT_DIR]}
out=${2:-$(mktemp -d "${TMPDIR:-/tmp}/infergate-measure_spec.XXXXXX")}
workloads=${WORKLOADS:-spec-repetitive spec-open spec-batch}
rounds=${ROUNDS:-2}
infergate=$build/cli/infergate
[ -x "$infergate" ] || { echo "measure_spec: no $infergate (build it first)" >&2; exit 2; }
mkdir -p "$out"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, INFERGATE_ISA=${INFERGATE_ISA:-unset}"
for w in $workloads; do
  for round in $(seq 1 "$rounds"); do
    for method in none ngram; do
      "$infergate" run "$root/workloads/$w.json" --set "target.engine.speculative.method=$method" \
        --out "$out/$w-$method-$round.json" >/dev/null 2>&1
    done
  done
  echo "  $w done"
done

python3 - "$out" "$rounds" $workloads <<'PY'
import json, statistics, sys
out, rounds, workloads = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
print("\n| workload | point | TPOT p50 off / on ms | TPOT off / on | out tok/s off / on | on / off "
      "| acceptance | mean acceptance length |")
print("|---|---|---|---|---|---|---|---|")
def points(path):
    return json.load(open(path))["points"]
for w in workloads:
    runs = {m: [points(f"{out}/{w}-{m}-{r}.json") for r in range(1, rounds + 1)]
            for m in ("none", "ngram")}
    for i, p in enumerate(runs["ngram"][0]):
        label = "all" if not p.get("sweep") else f"{p['sweep']['value']}"
        def med(method, key):
            return statistics.median(run[i]["repetitions"][0]["summary"][key]["p50"]
                                     if key == "tpot_ms" else
                                     run[i]["repetitions"][0]["summary"][key]
                                     for run in runs[method])
        off, on = med("none", "tpot_ms"), med("ngram", "tpot_ms")
        toff, ton = med("none", "output_throughput_tps"), med("ngram", "output_throughput_tps")
        spec = runs["ngram"][-1][i]["repetitions"][0]["engine"]["spec_decode"]
        print(f"| {w} | {label} | {off:.2f} / {on:.2f} | {off / on:.2f}x | {toff:.0f} / {ton:.0f} "
              f"| {ton / toff:.2f}x | {100 * spec['acceptance_rate']:.1f}% "
              f"| {spec['mean_acceptance_length']:.2f} |")
PY
