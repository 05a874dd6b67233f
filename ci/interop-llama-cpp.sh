#!/usr/bin/env bash
# Checks that GGUF files `infergate export` writes load in llama.cpp and compute the same logits:
# exports small models (dense f32/f16/bf16/q8_0/q4_0/q4_1/q4_k, grouped-query attention, MoE, the
# scaled-down architectures of models/shapes), evaluates a few
# tokens with llama.cpp (the prebuilt CPU library in the node-llama-cpp npm package) and compares
# with `infergate logits --reference` (tests/interop/llama_cpp_logits.mjs, one process for all).
#
#   ci/interop-llama-cpp.sh [PATH/TO/infergate]     (default: build/release/cli/infergate)
#
# node-llama-cpp (pinned) is installed once by ci/node-llama-cpp.sh (which see). Exit status: 0 all pass, 1 a check
# failed, 2 usage error, 77 skipped (Node.js or the package cannot be installed, e.g. no network).
set -euo pipefail

readonly TOKENS=1,42,300,7,259,511,100,31999
# 96 positions of a 512-token vocabulary, for the architectures of models/shapes: far enough
# that RoPE's scaled frequencies turn whole radians away from plain RoPE's.
LONG_TOKENS=$(seq -s, 0 95 | awk -F, '{for (i = 1; i <= NF; i++) printf "%s%d", (i > 1 ? "," : ""), ($i * 37 + 5) % 512}')
readonly LONG_TOKENS

root=$(cd "$(dirname "$0")/.." && pwd)
infergate=${1:-$root/build/release/cli/infergate}
[ -x "$infergate" ] || { echo "interop: no infergate binary at '$infergate'" >&2; exit 2; }
infergate=$(cd "$(dirname "$infergate")" && pwd)/$(basename "$infergate")

skip() {
  echo "SKIP: $*"
  exit 77
}

# --- Node.js, npm and node-llama-cpp (sets INFERGATE_NODE_MODULES) ---------------------------
# shellcheck source=ci/node-llama-cpp.sh
source "$root/ci/node-llama-cpp.sh"

# --- export and compute the expected logits of every case, then compare them all ------------
work=$(mktemp -d "${TMPDIR:-/tmp}/infergate-interop.XXXXXX")
trap 'rm -rf "$work"' EXIT
compare="$root/tests/interop/llama_cpp_logits.mjs"
cases=()  # MODEL EXPECTED TOLERANCE LABEL, four words a case, for one Node.js process

# compare_with PATH NAME TOLERANCE EXPORT_ARGS... : exports with `infergate export EXPORT_ARGS`,
# computes the logits of the same model and dtype on PATH (reference: the double-accumulating
# forward; optimized: the engine's kernels), and queues the comparison with llama.cpp's.
compare_with() {
  local path=$1 name=$2 tolerance=$3
  shift 3
  local gguf="$work/$name.gguf" expected="$work/$name.json" mode=()
  [ "$path" = reference ] && mode=(--reference)
  if ! "$infergate" export "$@" --format gguf --out "$gguf" >/dev/null ||
     ! "$infergate" logits "$@" --tokens "${CASE_TOKENS:-$TOKENS}" "${mode[@]}" >"$expected"; then
    echo "FAIL $name: infergate could not export the model or compute its logits"
    exit 1
  fi
  cases+=("$gguf" "$expected" "$tolerance" "$name")
}
check() { compare_with reference "$@"; }
check_optimized() { compare_with optimized "$@"; }

# Tolerances (max |logit| is about 8 for tiny, 16 for small): infergate's reference accumulates
# in double and llama.cpp here uses an f32 KV cache, so f32 agrees to ~1e-5. llama.cpp rounds
# activations to bf16 for bf16 matmuls (observed 0.06) and quantizes them to Q8_0 for Q8_0 ones
# (observed 0.19); f16 matmuls may round them to f16 on some CPUs. The bounds are a few times
# that, far below what a layout bug gives (Q/K rotary rows left unpermuted: differences > 1).
check dense-f32 0.002 --model tiny --dtype f32
check dense-f16 0.05 --model tiny --dtype f16
check dense-bf16 0.2 --model tiny --dtype bf16
check dense-q8_0 0.5 --model tiny --dtype q8_0
check dense-q4_0 0.5 --model tiny --dtype q4_0
check dense-q4_1 0.5 --model tiny --dtype q4_1
# Q4_K: tiny's 768-wide FFN down rows are Q4_K super-blocks, its 288-wide rows fall back to Q5_0
# (a mixed file, as llama.cpp's own quantizer writes); small is Q4_K throughout.
check dense-q4_k 0.5 --model tiny --dtype q4_k
check dense-small-q4_k 1.0 --model small --dtype q4_k
# The engine's own q8_0/q4_0/q4_1/q4_k kernels quantize activations per block as llama.cpp does, but with
# an fp32 rather than fp16 scale, so values near a rounding boundary land on different sides:
# no closer to llama.cpp than the reference (observed 0.18 and 0.38 of logits up to 8 and 15).
check_optimized engine-q8_0 0.5 --model tiny --dtype q8_0
check_optimized engine-q4_0 0.5 --model tiny --dtype q4_0
check_optimized engine-q4_1 0.5 --model tiny --dtype q4_1
check_optimized engine-small-q4_0 1.0 --model small --dtype q4_0
check_optimized engine-small-q4_k 1.0 --model small --dtype q4_k
check gqa-small-f16 0.05 --model small --dtype f16  # 12 query heads, 4 KV heads
check moe-f32 0.002 --model moe-tiny --dtype f32  # 8 experts, top-2; 6 query, 2 KV heads

# Real architectures scaled down, synthetic weights (models/shapes/*.json): RoPE scaling of each
# type (llama3 as llama.cpp's rope_freqs tensor, linear, dynamic as its fixed NTK base, YaRN
# with Qwen2's biases), Qwen3's per-head q/k norms and head_dim != hidden / heads, tied heads.
for shape in "$root"/models/shapes/*.json; do
  CASE_TOKENS=$LONG_TOKENS check "shape-$(basename "$shape" .json)" 0.002 --model "$shape" --dtype f32
done
CASE_TOKENS=$LONG_TOKENS check_optimized engine-qwen3-q8_0 0.5 \
  --model "$root/models/shapes/qwen3-tiny.json" --dtype q8_0
CASE_TOKENS=$LONG_TOKENS check_optimized engine-llama-3.1-q4_k 0.5 \
  --model "$root/models/shapes/llama-3.1-tiny.json" --dtype q4_k

# Negative controls: the comparison must reject the logits of other weights (another seed) and
# those of a scaled model computed with its rope_scaling left out.
/usr/bin/python3 -c 'import json, sys; c = json.load(open(sys.argv[1])); del c["rope_scaling"]; print(json.dumps(c))' \
  "$root/models/shapes/qwen2.5-yarn-tiny.json" >"$work/unscaled.json"
"$infergate" logits --model "$work/unscaled.json" --dtype f32 --tokens "$LONG_TOKENS" \
  --reference >"$work/unscaled-logits.json"
cases+=("$work/shape-qwen2.5-yarn-tiny.gguf" "$work/unscaled-logits.json" 0.002
        "control: YaRN's model without its rope_scaling")

"$infergate" export --model tiny --dtype f32 --format gguf --out "$work/control.gguf" >/dev/null
"$infergate" logits --model tiny --model-seed 1 --dtype f32 --tokens "$TOKENS" --reference \
  >"$work/control.json"
cases+=("$work/control.gguf" "$work/control.json" 0.002 "control: another seed's logits")

# One Node.js process and one llama.cpp load of the library for every case (starting them per
# case took over half of this test's time).
status=0
node "$compare" "${cases[@]}" || status=$?
if [ "$status" -ne 0 ]; then
  echo "interop: llama.cpp disagrees with infergate (exit status $status; the FAIL lines above)"
  exit 1
fi
echo "interop: all GGUF exports load in llama.cpp and match infergate's logits"
