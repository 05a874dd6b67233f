#!/usr/bin/env bash
# llama.cpp's standard quantization presets, and infergate's own writer of each type, against
# llama.cpp greedy token for token (tests/interop/llama_cpp_greedy.mjs): the tiny preset's
# weights exported as f32 GGUF, quantized by llama.cpp itself (llama_model_quantize, through
# bench/programs/llama_cpp/llama_quantize.py) to each of the 16 presets, and by
# `infergate export --dtype` to each block type; both engines then read each file. A file of another model's weights is the
# negative control.
#
#   llama_cpp_presets.sh INFERGATE WORK_DIR
#
# Exit status: 0 all agree, 1 a mismatch, 2 usage, 77 skipped (no Node.js or node-llama-cpp in
# the cache that ci/interop-llama-cpp.sh installs; this never installs anything).
set -euo pipefail
infergate=${1:?usage: llama_cpp_presets.sh INFERGATE WORK_DIR}
work=${2:?usage: llama_cpp_presets.sh INFERGATE WORK_DIR}
here=$(cd "$(dirname "$0")" && pwd)
quantize=$here/../../bench/programs/llama_cpp/llama_quantize.py
modules=${INFERGATE_NODE_MODULES:-${XDG_CACHE_HOME:-$HOME/.cache}/infergate/node-llama-cpp}
command -v node >/dev/null || { echo "SKIP: no Node.js"; exit 77; }
[ -d "$modules/node_modules/node-llama-cpp" ] || { echo "SKIP: node-llama-cpp not in $modules"; exit 77; }
export INFERGATE_NODE_MODULES=$modules
rm -rf "$work" && mkdir -p "$work"

"$infergate" export --model tiny --dtype f32 --format gguf --out "$work/tiny-f32.gguf" >/dev/null
"$infergate" export --model tiny --model-seed 1 --dtype f32 --format gguf \
  --out "$work/other-f32.gguf" >/dev/null
models=("llama.cpp f32=$work/tiny-f32.gguf")
for preset in Q4_0 Q4_1 Q5_0 Q5_1 Q8_0 Q2_K Q3_K_S Q3_K_M Q3_K_L Q4_K_S Q4_K_M Q5_K_S Q5_K_M Q6_K \
              IQ4_NL IQ4_XS; do
  if ! /usr/bin/python3 "$quantize" "$modules" "$work/tiny-f32.gguf" "$work/tiny-$preset.gguf" \
       "$preset" >"$work/quantize-$preset.log" 2>&1; then
    tail -5 "$work/quantize-$preset.log"
    echo "FAIL: llama.cpp could not quantize to $preset"
    exit 1
  fi
  models+=("llama.cpp $preset=$work/tiny-$preset.gguf")
done
for dtype in q8_0 q4_0 q4_1 q4_k q5_0 q5_1 q2_k q3_k q5_k q6_k iq4_nl iq4_xs; do
  "$infergate" export --model tiny --dtype "$dtype" --format gguf --out "$work/ours-$dtype.gguf" \
    >/dev/null
  models+=("infergate $dtype=$work/ours-$dtype.gguf")
done
models+=("control:other weights=$work/tiny-Q4_K_M.gguf=$work/other-f32.gguf")
# The near-tie margin: twice the largest gap seen at a parting step (0.13, Q6_K).
exec node "$here/llama_cpp_greedy.mjs" "$infergate" 0.25 "${models[@]}"
