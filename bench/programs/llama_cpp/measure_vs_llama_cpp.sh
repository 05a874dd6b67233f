#!/usr/bin/env bash
# The engine against llama.cpp on the identical GGUF, at one CPU kernel level: prefill of 512
# tokens, single-stream decode, and batched decode at 8 and 32 streams, with the roofline the
# engine's figures are held to (fp32 FMA peak at that level's vector width, read bandwidth)
# measured in the engine's process (docs/performance.md, "Against llama.cpp").
#
#   bench/programs/llama_cpp/measure_vs_llama_cpp.sh BUILD_DIR [OUT_DIR]
#
# Environment: ISA=avx2|avx512|amx|generic (default avx2; the engine runs with INFERGATE_ISA set
# to it, and llama.cpp with only its matching CPU variant: haswell, skylakex (zen4 or icelake
# where the CPU has AVX512_VNNI), sapphirerapids, x64; LLAMA_VARIANT overrides), DTYPES (default
# "f16 f32"; infergate's dtypes such as q8_0, q4_k or q6_k, written by `infergate export`, or
# llama.cpp's preset names such as Q4_K_M, made by llama.cpp's own quantizer from an f32 export
# through llama_quantize.py beside this script), ROUNDS (default 2: each round runs both, alternating which
# goes first), THREADS (default: one per core; the engine's threads), LLAMA_THREADS (default
# THREADS and THREADS - 1: llama.cpp runs at each and every figure takes its best, because its
# spinning thread barriers collapse when the Node.js thread takes a core from one of them),
# PRESET (default small).
# Exit status: 0 measured, 2 usage error, 77 llama.cpp unavailable (no Node.js >= 20 or npm).
set -euo pipefail

root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:?usage: measure_vs_llama_cpp.sh BUILD_DIR [OUT_DIR]}
out=${2:-$(mktemp -d "${TMPDIR:-/tmp}/infergate-vs-llama-cpp.XXXXXX")}
isa=${ISA:-avx2}
dtypes=${DTYPES:-f16 f32}
rounds=${ROUNDS:-2}
threads=${THREADS:-$(nproc)}
preset=${PRESET:-small}
llama_threads=${LLAMA_THREADS:-$threads $((threads > 1 ? threads - 1 : 1))}
llama_threads=$(tr ' ' '\n' <<<"$llama_threads" | sort -un | tr '\n' ' ')
infergate=$build/cli/infergate
engine_speed=$build/bench/programs/llama_cpp/infergate_engine_speed
for bin in "$infergate" "$engine_speed"; do
  [ -x "$bin" ] || { echo "measure_vs_llama_cpp: no $bin (build it first)" >&2; exit 2; }
done
# llama.cpp's CPU variant for the level, as its own loader would pick on this CPU: at avx512,
# the VNNI builds where the CPU has VNNI (zen4 on AMD, icelake elsewhere), whose int8 dot
# products its quantized kernels use. LLAMA_VARIANT overrides.
avx512_variant=skylakex
if grep -q -w avx512_vnni /proc/cpuinfo; then
  avx512_variant=icelake
  grep -q -m1 AuthenticAMD /proc/cpuinfo && avx512_variant=zen4
fi
case "$isa" in
  avx2) variant=haswell ;;
  avx512) variant=$avx512_variant ;;
  amx) variant=sapphirerapids ;;
  generic) variant=x64 ;;
  *) echo "measure_vs_llama_cpp: ISA='$isa' (allowed: avx2, avx512, amx, generic)" >&2; exit 2 ;;
esac
variant=${LLAMA_VARIANT:-$variant}

skip() {
  echo "SKIP: $*"
  exit 77
}
# shellcheck source=ci/node-llama-cpp.sh
source "$root/ci/node-llama-cpp.sh"

# llama.cpp loads the best CPU variant of the ones beside it: a hard-linked copy of the
# node_modules tree holding only the variant of the chosen level makes it take that one.
mkdir -p "$out"
overlay="$out/node-llama-cpp-$variant"
rm -rf "$overlay"
mkdir -p "$overlay"
cp -al "$INFERGATE_NODE_MODULES/node_modules" "$INFERGATE_NODE_MODULES/package.json" "$overlay/"
bins=$(find "$overlay/node_modules/@node-llama-cpp" -name "libggml-cpu-$variant.so" -printf '%h\n')
[ -n "$bins" ] || { echo "measure_vs_llama_cpp: node-llama-cpp has no $variant CPU variant" >&2; exit 2; }
find "$bins" -name 'libggml-cpu-*.so' ! -name "libggml-cpu-$variant.so" -delete
export INFERGATE_NODE_MODULES=$overlay

echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; flags:" \
     "$(grep -o -w -E 'avx2|fma|f16c|avx512f|avx512_bf16|avx512_vnni|amx_bf16' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "level: $isa (llama.cpp variant $variant), threads: infergate $threads, llama.cpp" \
     "$llama_threads(best taken), rounds $rounds, out $out"
# The GGUF of one DTYPES entry: a preset name (upper case) by llama.cpp's quantizer.
make_gguf() {
  case "$1" in
    [A-Z]*)
      local source="$out/$preset-f32-source.gguf"
      [ -f "$source" ] ||
        "$infergate" export --model "$preset" --dtype f32 --format gguf --out "$source" >/dev/null
      /usr/bin/python3 "$root/bench/programs/llama_cpp/llama_quantize.py" "$INFERGATE_NODE_MODULES" \
        "$source" "$2" "$1" >/dev/null 2>&1 ||
        { echo "measure_vs_llama_cpp: llama.cpp could not quantize to $1" >&2; exit 2; } ;;
    *) "$infergate" export --model "$preset" --dtype "$1" --format gguf --out "$2" >/dev/null ;;
  esac
}
for dtype in $dtypes; do
  gguf="$out/$preset-$dtype.gguf"
  make_gguf "$dtype" "$gguf"
  for round in $(seq 1 "$rounds"); do
    ours() {
      INFERGATE_ISA=$isa "$engine_speed" --model "$gguf" --threads "$threads" \
        >>"$out/infergate-$dtype.jsonl"
    }
    theirs() {
      for t in $llama_threads; do
        node "$root/bench/programs/llama_cpp/llama_cpp_speed.mjs" "$gguf" --threads "$t" \
          >>"$out/llama-cpp-$dtype.jsonl"
      done
    }
    if [ $((round % 2)) -eq 1 ]; then ours; theirs; else theirs; ours; fi
    echo "  $dtype round $round done ($(cut -d' ' -f1-3 /proc/loadavg) load)"
  done
  rm -f "$gguf"
done
rm -rf "$overlay" "$out/$preset-f32-source.gguf"

# The table: per figure the median over rounds of each side (llama.cpp: of its best thread
# count for that figure), and their ratio.
python3 - "$out" $dtypes <<'EOF'
import json, statistics, sys
out, dtypes = sys.argv[1], sys.argv[2:]
def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]
def med(values):
    return statistics.median(values)
ours_threads = load(f"{out}/infergate-{dtypes[0]}.jsonl")[0]["threads"]
print(f"\n| weights | figure | infergate ({ours_threads} thr) | llama.cpp | ratio | roofline (infergate) |")
print("|---|---|---|---|---|---|")
def best_of_threads(runs, value):
    """The best over thread counts of the median over rounds; returns (value, threads)."""
    by_threads = {}
    for r in runs:
        by_threads.setdefault(r["threads"], []).append(value(r))
    return max((med(v), t) for t, v in by_threads.items())
for d in dtypes:
    ours, theirs = load(f"{out}/infergate-{d}.jsonl"), load(f"{out}/llama-cpp-{d}.jsonl")
    a = med([r["prefill_tok_s"] for r in ours])
    b, bt = best_of_threads(theirs, lambda r: r["prefill_tok_s"])
    peak = med([r.get("prefill_fma_peak_ratio", 0) for r in ours])
    print(f"| {d} | prefill {ours[0]['prefill_tokens']} tok/s | {a:.0f} | {b:.0f} ({bt} thr) | {a / b:.2f} "
          f"| {peak:.2f} of the FMA peak ({med([r['fma_peak_GFLOPs'] for r in ours]):.0f} GFLOP/s) |")
    for i, entry in enumerate(ours[0]["decode"]):
        s = entry["streams"]
        a = med([r["decode"][i]["tok_s"] for r in ours])
        b, bt = best_of_threads(theirs, lambda r: r["decode"][i]["tok_s"])
        roof = ""
        if "read_ratio" in entry:
            roof = (f"{med([r['decode'][i]['read_ratio'] for r in ours]):.2f} of reading 1 GiB "
                    f"({med([r['read_GBps'] for r in ours]):.1f} GB/s), "
                    f"{med([r['decode'][i]['read_model_size_ratio'] for r in ours]):.2f} of "
                    f"reading the weights' size ({med([r['read_model_size_GBps'] for r in ours]):.1f} GB/s)")
        print(f"| {d} | decode {s} stream{'s' if s > 1 else ''} tok/s | {a:.1f} | {b:.1f} ({bt} thr) "
              f"| {a / b:.2f} | {roof} |")
print(f"\nllama.cpp: {theirs[0]['release']}, {theirs[0]['system_info'].strip()}")
print(f"infergate kernels: {ours[0]['isa']['active']} (this CPU: {ours[0]['isa']['detected']})")
EOF
