#!/usr/bin/env bash
# Speculative decoding on the trained models (docs/speculative.md, "On trained models"): the
# spec-trained-code and spec-trained-prose workloads, each with every drafter at temperature 0
# (the trained draft model at its F16 and as q4_0, the target's own q4_0 copy, n-gram lookup), and
# the draft model and n-gram lookup at temperatures 0.8 and 1.2. Each run measures speculation off (num_tokens 0)
# and on in one results file; ROUNDS rounds, medians. Prints acceptance, tokens per target pass
# and the TPOT ratio off / on, and what a draft step costs against a target step (the draft
# model run as the target, speculation off).
#
#   bench/campaigns/speculative/measure_trained.sh BUILD_DIR [OUT_DIR]
#
# Environment: ROUNDS (default 3), TEXTS (default "code prose").
set -euo pipefail

root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:?usage: measure_trained.sh BUILD_DIR [OUT_DIR]}
out=${2:-$(mktemp -d "${TMPDIR:-/tmp}/infergate-measure_trained.XXXXXX")}
rounds=${ROUNDS:-3}
read -r -a texts <<<"${TEXTS:-code prose}"
infergate=$build/cli/infergate
[ -x "$infergate" ] || { echo "measure_trained: no $infergate (build it first)" >&2; exit 2; }
mkdir -p "$out"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, INFERGATE_ISA=${INFERGATE_ISA:-unset}"

spec=target.engine.speculative
# "label --set ...": the drafters and temperatures, each a variant of the workload as written.
variants=(
  "draft-f16"
  "draft-q4_0 --set $spec.draft_weight_dtype=q4_0"
  "self-q4_0 --set $spec.method=self --set $spec.draft_model=null --set $spec.draft_weight_dtype=q4_0"
  "ngram --set $spec.method=ngram --set $spec.draft_model=null"
  "draft-f16-t0.8 --set sampling.temperature=0.8"
  "draft-f16-t1.2 --set sampling.temperature=1.2"
  "ngram-t0.8 --set $spec.method=ngram --set $spec.draft_model=null --set sampling.temperature=0.8"
  "ngram-t1.2 --set $spec.method=ngram --set $spec.draft_model=null --set sampling.temperature=1.2"
  "draft-alone --set target.model.safetensors=$root/models/trained/draft"
)
for round in $(seq 1 "$rounds"); do
  for text in "${texts[@]}"; do
    for variant in "${variants[@]}"; do
      read -r label args <<<"$variant"
      # shellcheck disable=SC2086  # the --set arguments split on purpose
      "$infergate" run "$root/workloads/spec-trained-$text.json" ${args:-} \
        --out "$out/$text-$label-$round.json" >/dev/null 2>&1
    done
  done
  echo "  round $round done"
done

/usr/bin/python3 - "$out" "$rounds" "${texts[@]}" <<'PY'
import json, statistics, sys
out, rounds, texts = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
labels = ["draft-f16", "draft-q4_0", "self-q4_0", "ngram", "draft-f16-t0.8", "draft-f16-t1.2",
          "ngram-t0.8", "ngram-t1.2"]
def summary(point):
    return point["repetitions"][0]["summary"]
print("\n| text | drafter | temperature | acceptance | tokens per target pass | TPOT p50 off / on ms "
      "| TPOT off / on |")
print("|---|---|---|---|---|---|---|")
for text in texts:
    for label in labels:
        runs = [json.load(open(f"{out}/{text}-{label}-{r}.json"))["points"]
                for r in range(1, rounds + 1)]
        off = statistics.median(summary(p[0])["tpot_ms"]["p50"] for p in runs)
        on = statistics.median(summary(p[1])["tpot_ms"]["p50"] for p in runs)
        ratio = statistics.median(summary(p[0])["tpot_ms"]["p50"] / summary(p[1])["tpot_ms"]["p50"]
                                  for p in runs)
        s = runs[-1][1]["repetitions"][0]["engine"]["spec_decode"]
        drafter, _, temp = label.partition("-t")
        print(f"| {text} | {drafter} | {temp or '0'} | {100 * s['acceptance_rate']:.1f}% "
              f"| {s['tokens_per_target_pass']:.2f} | {off:.2f} / {on:.2f} | {ratio:.2f}x |")
def off_tpot(text, label):
    return statistics.median(summary(json.load(open(f"{out}/{text}-{label}-{r}.json"))["points"][0])
                             ["tpot_ms"]["p50"] for r in range(1, rounds + 1))
for text in texts:
    print(f"\n{text}: a draft-model step costs {off_tpot(text, 'draft-alone') / off_tpot(text, 'draft-f16'):.2f} "
          "of a target step (TPOT p50 of each alone)")
PY
