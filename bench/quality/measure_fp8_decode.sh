#!/usr/bin/env bash
# FP8 weights against Q8_0, the format they must match in decode (one byte per weight each):
# ROUNDS rounds, each running infergate_engine_speed on the q8_0 GGUF and on the fp8 safetensors
# checkpoint of the same preset, alternating which goes first, so that the machine's drift falls
# on both; prints each round's single-stream decode tok/s and their ratio, then the median ratio
# (docs/quantization.md, "FP8").
#
#   bench/quality/measure_fp8_decode.sh BUILD_DIR [OUT_DIR]
#
# Environment: PRESET (default small), ROUNDS (default 6), REPS (default 3, each figure the best
# of them), THREADS (default: one per core), INFERGATE_ISA (the kernel level, as for the engine).
set -euo pipefail

name=measure_fp8_decode
source "$(dirname "$0")/measure_setup.sh"
rounds=${ROUNDS:-6}
reps=${REPS:-3}
"$infergate" export --model "$preset" --dtype q8_0 --format gguf --out "$out/q8_0.gguf" >/dev/null
"$infergate" quantize --model "$preset" --to fp8 --format safetensors --out "$out/fp8" >/dev/null
decode() {  # decode() DTYPE MODEL: single-stream decode tok/s, best of REPS
  "$engine_speed" --model "$2" --weight-dtype "$1" --threads "$threads" --streams 1 \
    --reps "$reps" --decode 128 --prefill 16 |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["decode"][0]["tok_s"])'
}
ratios=()
for round in $(seq 1 "$rounds"); do
  if ((round % 2)); then
    q8=$(decode q8_0 "$out/q8_0.gguf") fp8=$(decode fp8 "$out/fp8")
  else
    fp8=$(decode fp8 "$out/fp8") q8=$(decode q8_0 "$out/q8_0.gguf")
  fi
  ratio=$(python3 -c "print(f'{$fp8 / $q8:.3f}')")
  ratios+=("$ratio")
  printf 'round %d: q8_0 %.1f tok/s, fp8 %.1f tok/s, fp8 / q8_0 %s\n' "$round" "$q8" "$fp8" "$ratio"
done
python3 -c "import statistics, sys; print(f'median fp8 / q8_0: {statistics.median(map(float, sys.argv[1:])):.3f}')" "${ratios[@]}"
rm -rf "$out/q8_0.gguf" "$out/fp8"
