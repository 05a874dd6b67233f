#!/usr/bin/env bash
# Where integer-activation W8A8 overtakes 4-bit weights as the batch grows: decode tokens/s per
# stream count for each weight format, and prefill of 512 tokens against f16, in one run, on one
# preset (f32 GGUF converted at load by infergate_engine_speed --weight-dtype; docs/quantization.md,
# "W8A8 and the crossover"). The crossover is the smallest stream count from which W8A8 decodes at
# least as fast as the 4-bit format at every larger count too (INT4 below: q4_0 by default).
#
#   bench/quality/measure_crossover.sh BUILD_DIR [OUT_DIR]
#
# Environment: PRESET (default small), DTYPES (default "f16 q4_0 q4_1 w8a8"), INT4 (default q4_0),
# STREAMS (default 1,2,4,8,16,32,64), THREADS (default: one per core), REPS (default 2, each
# figure the best of them).
set -euo pipefail

name=measure_crossover
dtypes=${DTYPES:-f16 q4_0 q4_1 w8a8}
int4=${INT4:-q4_0}
streams=${STREAMS:-1,2,4,8,16,32,64}
TEXT=/dev/null  # no evaluation text: speed only
source "$(dirname "$0")/measure_setup.sh"
gguf="$out/$preset-f32.gguf"
"$infergate" export --model "$preset" --dtype f32 --format gguf --out "$gguf" >/dev/null
for dtype in $dtypes; do
  "$engine_speed" --model "$gguf" --weight-dtype "$dtype" --threads "$threads" \
    --streams "$streams" --reps "$reps" >"$out/speed-$dtype.json"
  echo "  $dtype done"
done
rm -f "$gguf"

python3 - "$out" "$int4" $dtypes <<'PY'
import json, sys
out, int4, dtypes = sys.argv[1], sys.argv[2], sys.argv[3:]
speed = {d: json.load(open(f"{out}/speed-{d}.json")) for d in dtypes}
dec = {d: {e["streams"]: e["tok_s"] for e in speed[d]["decode"]} for d in dtypes}
counts = sorted(dec[dtypes[0]])
print("\n| weights | prefill 512 tok/s | vs f16 | " +
      " | ".join(f"decode {n} tok/s" for n in counts) + " |")
print("|---|---|---|" + "---|" * len(counts))
f16 = speed["f16"]["prefill_tok_s"] if "f16" in speed else None
for d in dtypes:
    p = speed[d]["prefill_tok_s"]
    vs = f"{p / f16:.2f}x" if f16 else "-"
    print(f"| {d} | {p:,.0f} | {vs} | " + " | ".join(f"{dec[d][n]:,.1f}" for n in counts) + " |")
if "w8a8" in dec and int4 in dec:
    ratios = [dec["w8a8"][n] / dec[int4][n] for n in counts]
    print(f"\nw8a8 / {int4} decode: " + ", ".join(f"{n}: {r:.2f}x" for n, r in zip(counts, ratios)))
    # The crossover holds from a count on: w8a8 at least as fast there and at every larger count.
    over = [n for i, n in enumerate(counts) if all(r >= 1.0 for r in ratios[i:])]
    print(f"crossover: w8a8 at least as fast as {int4} from {over[0]} streams on" if over else
          f"crossover: none up to {counts[-1]} streams ({int4} ahead at some count above each)")
s = speed[dtypes[0]]
print(f"kernels {s['isa']['active']} (this CPU: {s['isa']['detected']}), {s['threads']} threads")
PY
