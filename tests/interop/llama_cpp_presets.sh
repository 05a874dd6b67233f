#!/usr/bin/env bash
# llama.cpp's standard quantization presets, and infergate's own writer of each type, against
# llama.cpp greedy token for token (tests/interop/llama_cpp_greedy.mjs): the tiny preset's
# weights exported as f32 GGUF, quantized by llama.cpp itself (llama_model_quantize, through
# bench/programs/llama_cpp/llama_quantize.py) to each of the 16 presets, and by
# `infergate export --dtype` to each block type; both engines then read each file. A file of another model's weights is the
# negative control. First, `infergate quantize --to PRESET` must give every tensor the type
# llama.cpp's quantizer gives it (tests/interop/gguf_tensor_types.py lists them), for the tiny
# preset (every preset), moe-tiny (8 experts) and the Llama 3.1 shape (tied head, GQA).
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
# same_mixture MODEL NAME PRESET: llama.cpp's and infergate's PRESET of MODEL type alike.
same_mixture() {
  local model=$1 name=$2 preset=$3 ref="$work/$2-$3.gguf" ours="$work/ours-$2-$3.gguf"
  [ -f "$ref" ] || /usr/bin/python3 "$quantize" "$modules" "$work/$name-f32.gguf" "$ref" "$preset" \
    >"$work/quantize-$name-$preset.log" 2>&1 || { echo "FAIL: llama.cpp $name $preset"; exit 1; }
  "$infergate" quantize --model "$model" --to "$preset" --out "$ours" >/dev/null
  if ! diff <(/usr/bin/python3 "$here/gguf_tensor_types.py" "$ref") \
            <(/usr/bin/python3 "$here/gguf_tensor_types.py" "$ours") >"$work/mixture.diff"; then
    echo "FAIL: $name $preset: tensor types differ from llama.cpp's (< llama.cpp, > infergate):"
    head -20 "$work/mixture.diff"
    exit 1
  fi
}
llama31=$here/../../models/shapes/llama-3.1-tiny.json
"$infergate" export --model moe-tiny --dtype f32 --format gguf --out "$work/moe-tiny-f32.gguf" >/dev/null
"$infergate" export --model "$llama31" --dtype f32 --format gguf --out "$work/llama31-f32.gguf" \
  >/dev/null
for preset in Q4_0 Q4_1 Q5_0 Q5_1 Q8_0 Q2_K Q3_K_S Q3_K_M Q3_K_L Q4_K_S Q4_K_M Q5_K_S Q5_K_M Q6_K \
              IQ4_NL IQ4_XS; do
  same_mixture tiny tiny "$preset"
done
for preset in Q2_K Q3_K_M Q4_K_S Q4_K_M IQ4_XS; do
  same_mixture moe-tiny moe-tiny "$preset"
  same_mixture "$llama31" llama31 "$preset"
done
echo "mixtures: infergate's 26 preset files type every tensor as llama.cpp's quantizer does"

for dtype in q8_0 q4_0 q4_1 q4_k q5_0 q5_1 q2_k q3_k q5_k q6_k iq4_nl iq4_xs; do
  "$infergate" export --model tiny --dtype "$dtype" --format gguf --out "$work/ours-$dtype.gguf" \
    >/dev/null
  models+=("infergate $dtype=$work/ours-$dtype.gguf")
done
models+=("control:other weights=$work/tiny-Q4_K_M.gguf=$work/other-f32.gguf")
# The near-tie margin: twice the largest gap seen at a parting step (0.13, Q6_K).
exec node "$here/llama_cpp_greedy.mjs" "$infergate" 0.25 "${models[@]}"
