#!/usr/bin/env bash
# One table, one run: per weight format, the bytes, the engine's speed (prefill of 512 tokens,
# decode of 1 and 32 streams, from infergate_engine_speed) and the quality it costs against f32
# (`infergate eval`: KL divergence, top-1 agreement, perplexity ratio), on one preset exported
# as GGUF in each format (fp8, which GGUF cannot hold, as a safetensors checkpoint converted at
# load like the others; docs/quantization.md, "Figures").
#
#   bench/quality/measure_formats.sh BUILD_DIR [OUT_DIR]
#
# Environment: PRESET (default small; any --model, e.g. trained), DTYPES (default: f32, f16, bf16
# and every block format), TEXT (default every docs/*.md, concatenated), CTX (default 256) and
# CHUNKS (default 4; 0: all) for eval, THREADS (default: one per core), REPS (default 2, each
# speed figure the best of them).
set -euo pipefail

name=measure_formats
dtypes=${DTYPES:-f32 f16 bf16 q8_0 fp8 q6_k q5_k q5_1 q5_0 q4_k q4_1 q4_0 iq4_xs iq4_nl q3_k q2_k}
source "$(dirname "$0")/measure_setup.sh"
for dtype in $dtypes; do
  file="$out/$preset-$dtype.gguf"
  if [ "$dtype" = fp8 ]; then  # projections fp8, embeddings and LM head bf16 in the file
    file="$out/$preset-fp8"
    "$infergate" quantize --model "$preset" --to fp8 --format safetensors --out "$file" >/dev/null
    stat -c %s "$file/model.safetensors" >"$out/bytes-$dtype"
  else
    "$infergate" export --model "$preset" --dtype "$dtype" --format gguf --out "$file" >/dev/null
    stat -c %s "$file" >"$out/bytes-$dtype"
  fi
  # --weight-dtype: w8a8's file is Q8_0, computed as w8a8 only when converted at load.
  "$engine_speed" --model "$file" --weight-dtype "$dtype" --threads "$threads" --streams 1,32 \
    --reps "$reps" >"$out/speed-$dtype.json"
  "$infergate" eval --model "$preset" --dtype "$dtype" --text "$text" --ctx "$ctx" \
    --chunks "$chunks" --threads "$threads" --out "$out/quality-$dtype.json" >/dev/null 2>&1
  rm -rf "$file"
  echo "  $dtype done"
done

python3 - "$out" $dtypes <<'PY'
import json, math, sys
out, dtypes = sys.argv[1], sys.argv[2:]
print("\n| format | GGUF bytes | prefill 512 tok/s | decode 1 stream tok/s | decode 32 streams tok/s "
      "| KL mean | KL p99 | top-1 agreement | ln(PPL/PPL f32) |")
print("|---|---|---|---|---|---|---|---|---|")
for d in dtypes:
    size = int(open(f"{out}/bytes-{d}").read())
    s = json.load(open(f"{out}/speed-{d}.json"))
    q = json.load(open(f"{out}/quality-{d}.json"))
    dec = {e["streams"]: e["tok_s"] for e in s["decode"]}
    print(f"| {d} | {size / 1e6:.1f} MB | {s['prefill_tok_s']:.0f} | {dec[1]:.1f} | {dec[32]:.1f} "
          f"| {q['kl_divergence']['mean']:.5f} | {q['kl_divergence']['p99']:.5f} "
          f"| {100 * q['top1_agreement']:.1f}% "
          f"| {math.log(q['perplexity'] / q['baseline_perplexity']):+.5f} |")
print(f"\nkernels: {s['isa']['active']} (this CPU: {s['isa']['detected']}); eval: "
      f"{q['positions']} positions, ctx {q['context']}")
PY
