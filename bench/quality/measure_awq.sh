#!/usr/bin/env bash
# Group-wise INT4 with and without AWQ's scale search, one run: per variant `infergate
# quantize` writes the preset as GGUF (AWQ calibrated on CALIBRATION, default README.md), then
# `infergate eval` scores it against the f32 preset on a different text (every docs/*.md) and
# infergate_engine_speed measures single-stream decode (docs/quantization.md, "AWQ").
#
#   bench/quality/measure_awq.sh BUILD_DIR [OUT_DIR]
#
# Environment: PRESET (default small), VARIANTS (default "q4_1 int4-g32 int4-g32+awq int4-g128
# int4-g128+awq"), CALIBRATION, CALIBRATION_TOKENS (default 256), TEXT, CTX, CHUNKS, THREADS,
# REPS as for measure_formats.sh.
set -euo pipefail

name=measure_awq
variants=${VARIANTS:-q4_1 int4-g32 int4-g32+awq int4-g128 int4-g128+awq}
source "$(dirname "$0")/measure_setup.sh"
calibration=${CALIBRATION:-$root/README.md}
calibration_tokens=${CALIBRATION_TOKENS:-256}
for variant in $variants; do
  gguf="$out/$preset-$variant.gguf"
  args=(--to "${variant%+awq}")
  [ "$variant" = "${variant%+awq}" ] ||
    args+=(--calibration "$calibration" --calibration-tokens "$calibration_tokens")
  start=$(date +%s%N)
  "$infergate" quantize --model "$preset" "${args[@]}" --out "$gguf" >"$out/quantize-$variant.txt"
  echo $((($(date +%s%N) - start) / 1000000)) >"$out/ms-$variant"
  stat -c %s "$gguf" >"$out/bytes-$variant"
  "$engine_speed" --model "$gguf" --threads "$threads" --streams 1 --reps "$reps" \
    >"$out/speed-$variant.json"
  "$infergate" eval --model "$gguf" --baseline-model "$preset" --baseline-dtype f32 \
    --text "$text" --ctx "$ctx" --chunks "$chunks" --threads "$threads" \
    --out "$out/quality-$variant.json" >/dev/null 2>&1
  rm -f "$gguf"
  echo "  $variant done"
done

python3 - "$out" $variants <<'PY'
import json, sys
out, variants = sys.argv[1], sys.argv[2:]
print("\n| variant | GGUF bytes | quantize s | decode 1 stream tok/s | KL mean | KL p99 "
      "| top-1 agreement |")
print("|---|---|---|---|---|---|---|")
for v in variants:
    size = int(open(f"{out}/bytes-{v}").read())
    secs = int(open(f"{out}/ms-{v}").read()) / 1000
    s = json.load(open(f"{out}/speed-{v}.json"))
    q = json.load(open(f"{out}/quality-{v}.json"))
    dec = {e["streams"]: e["tok_s"] for e in s["decode"]}
    print(f"| {v} | {size / 1e6:.1f} MB | {secs:.1f} | {dec[1]:.1f} "
          f"| {q['kl_divergence']['mean']:.5f} | {q['kl_divergence']['p99']:.5f} "
          f"| {100 * q['top1_agreement']:.1f}% |")
for v in variants:
    for line in open(f"{out}/quantize-{v}.txt"):
        if line.startswith("AWQ"):
            print(f"{v}: {line.strip()}")
print(f"\nkernels: {s['isa']['active']} (this CPU: {s['isa']['detected']}); eval: "
      f"{q['positions']} positions, ctx {q['context']}")
PY
