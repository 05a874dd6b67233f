#!/usr/bin/env bash
# One table, one run: per KV cache format, the bytes one token of context holds, how many
# sequences of CONTEXT tokens fit in a fixed KV budget (and the ratio to f16), the engine's
# decode speed with that cache at 1 and 32 streams over long prompts, and what it costs in
# quality against an fp32 cache (`infergate eval --kv-dtype`: KL divergence, top-1 agreement),
# on one preset (docs/quantization.md, "KV cache").
#
#   bench/quality/measure_kv_formats.sh BUILD_DIR [OUT_DIR]
#
# Environment: PRESET (default small), WEIGHTS (the preset's weights in the speed runs, default
# f16), KV_DTYPES (default "f32 f16 bf16 int8 fp8_e4m3"), BUDGET_GIB (default 1), CONTEXT
# (tokens per sequence in the capacity column, default 2048), PROMPT (each decode stream's
# prompt, default 1024), TEXT (default every docs/*.md), CTX (default 256) and CHUNKS (default
# 4) for eval, THREADS (default one per core), REPS (default 2, the best taken).
set -euo pipefail

name=measure_kv_formats
weights=${WEIGHTS:-f16}
kv_dtypes=${KV_DTYPES:-f32 f16 bf16 int8 fp8_e4m3}
budget_gib=${BUDGET_GIB:-1}
context=${CONTEXT:-2048}
prompt=${PROMPT:-1024}
source "$(dirname "$0")/measure_setup.sh"
gguf="$out/$preset-$weights.gguf"
"$infergate" export --model "$preset" --dtype "$weights" --format gguf --out "$gguf" >/dev/null

for kv in $kv_dtypes; do
  "$engine_speed" --model "$gguf" --threads "$threads" --streams 1,32 --prompt "$prompt" \
    --decode 32 --prefill 16 --reps "$reps" --kv-dtype "$kv" >"$out/speed-$kv.json"
  "$infergate" eval --model "$preset" --kv-dtype "$kv" --text "$text" --ctx "$ctx" \
    --chunks "$chunks" --threads "$threads" --out "$out/quality-$kv.json" >/dev/null 2>&1
  echo "  $kv done"
done
rm -f "$gguf"

python3 - "$out" "$budget_gib" "$context" "$prompt" $kv_dtypes <<'PY'
import json, sys
out, budget_gib, context, prompt, kvs = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), \
    int(sys.argv[4]), sys.argv[5:]
budget = budget_gib * 2**30
speed = {k: json.load(open(f"{out}/speed-{k}.json")) for k in kvs}
quality = {k: json.load(open(f"{out}/quality-{k}.json")) for k in kvs}
fits = {k: int(budget // (speed[k]["kv_bytes_per_token"] * context)) for k in kvs}
ref = fits.get("f16")
print(f"\n| KV cache | bytes per token | sequences of {context} tokens in {budget_gib:g} GiB "
      f"| vs f16 | decode 1 stream tok/s | decode 32 streams tok/s | KL mean | KL p99 "
      f"| top-1 agreement |")
print("|---|---|---|---|---|---|---|---|---|")
for k in kvs:
    dec = {e["streams"]: e["tok_s"] for e in speed[k]["decode"]}
    q = quality[k]
    ratio = f"{fits[k] / ref:.2f}x" if ref else "-"
    print(f"| {k} | {speed[k]['kv_bytes_per_token']} | {fits[k]} | {ratio} | {dec[1]:.1f} "
          f"| {dec[32]:.1f} | {q['kl_divergence']['mean']:.6f} | {q['kl_divergence']['p99']:.6f} "
          f"| {100 * q['top1_agreement']:.1f}% |")
s = speed[kvs[0]]
print(f"\nweights {s['weight_dtype']}; decode streams of a {prompt}-token prompt; kernels "
      f"{s['isa']['active']} (this CPU: {s['isa']['detected']}); eval: f32 weights, "
      f"{quality[kvs[0]]['positions']} positions, ctx {quality[kvs[0]]['context']}, against an "
      f"f32 KV cache")
PY
