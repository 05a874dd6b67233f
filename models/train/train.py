"""Trains infergate's two real models on CPU, reproducibly: a byte-level BPE tokenizer, a Llama
target and a smaller Llama draft sharing it, on the text corpus.py assembles from Debian
packages; writes each as a Hugging Face directory (config.json, model.safetensors in F16,
tokenizer.json, tokenizer_config.json with a chat template), the held-out evaluation text, and
a manifest with every file's SHA-256.

    python3 models/train/train.py OUT_DIR [--quick]

Fixed seeds, fixed thread count (2), deterministic algorithms, step counts rather than time
limits: the same PyTorch gives the same files. --quick trains a few steps only (to try the
recipe; its files are not the kept ones).
"""
import argparse
import hashlib
import json
import math
import os
import random
import sys
import time

import torch
from torch.nn import functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import byte_bpe  # noqa: E402
import corpus  # noqa: E402
import llama  # noqa: E402
import safetensors_file  # noqa: E402

VOCAB_SIZE = 4096
SPECIAL_TOKENS = ["<|begin_of_text|>", "<|end_of_text|>", "<|im_start|>", "<|im_end|>"]
BOS, EOS = SPECIAL_TOKENS[0], SPECIAL_TOKENS[1]
# ChatML, with tools in the <tool_call> layout of infergate's built-in ChatML
# (engine/tokenizer/chat_template.cc), after the BOS the tokenizer does not add to chat text.
CHAT_TEMPLATE = "{{ bos_token }}" + r"""{%- set offset = 0 %}
{%- if tools %}
    {{- '<|im_start|>system\n' }}
    {%- if messages[0].role == 'system' %}
        {{- messages[0].content + '\n\n' }}
        {%- set offset = 1 %}
    {%- endif %}
    {{- '# Tools\n\nThese functions may be called. Their signatures, one per line:\n<tools>' }}
    {%- for tool in tools %}
        {{- '\n' + (tool | tojson) }}
    {%- endfor %}
    {{- '\n</tools>\n\nTo call one, answer with its name and arguments as JSON between' }}
    {{- ' <tool_call></tool_call> tags:\n<tool_call>\n{"name": <name>, "arguments": <arguments' }}
    {{- ' object>}\n</tool_call><|im_end|>\n' }}
{%- endif %}
{%- for message in messages[offset:] %}
    {%- if message.role == 'tool' %}
        {%- if loop.first or loop.previtem.role != 'tool' %}
            {{- '<|im_start|>user' }}
        {%- endif %}
        {{- '\n<tool_response>\n' + message.content + '\n</tool_response>' }}
        {%- if loop.last or loop.nextitem.role != 'tool' %}
            {{- '<|im_end|>\n' }}
        {%- endif %}
    {%- else %}
        {{- '<|im_start|>' + message.role + '\n' + (message.content or '') }}
        {%- for call in message.tool_calls or [] %}
            {%- if loop.first and message.content or not loop.first %}
                {{- '\n' }}
            {%- endif %}
            {{- '<tool_call>\n{"name": "' + call.function.name + '", "arguments": ' }}
            {{- (call.function.arguments | tojson) + '}\n</tool_call>' }}
        {%- endfor %}
        {{- '<|im_end|>\n' }}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}
{%- endif %}"""
SEQ_LEN = 256  # positions trained on; config.json allows 1024 for serving
HELD_OUT_BYTES = 200_000  # the evaluation text kept in the repository

# Sized for the budget: on a 2-core AMD EPYC (Zen 5) the target's 4,096-token step takes ~1.45 s
# (the 5.5M-parameter shape tried first took 4.9 s, too few tokens in 45 minutes).
MODELS = {
    "target": {"hidden_size": 192, "intermediate_size": 512, "num_hidden_layers": 4,
               "num_attention_heads": 6, "num_key_value_heads": 2,
               "steps": 1500, "batch": 16, "lr": 2e-3, "seed": 1},
    "draft": {"hidden_size": 128, "intermediate_size": 352, "num_hidden_layers": 2,
              "num_attention_heads": 4, "num_key_value_heads": 2,
              "steps": 1000, "batch": 16, "lr": 3e-3, "seed": 2},
}


def hf_config(shape, bos_id, eos_id):
    return {"architectures": ["LlamaForCausalLM"], "model_type": "llama",
            "vocab_size": VOCAB_SIZE, "hidden_size": shape["hidden_size"],
            "intermediate_size": shape["intermediate_size"],
            "num_hidden_layers": shape["num_hidden_layers"],
            "num_attention_heads": shape["num_attention_heads"],
            "num_key_value_heads": shape["num_key_value_heads"], "hidden_act": "silu",
            "max_position_embeddings": 1024, "rms_norm_eps": 1e-5, "rope_theta": 10000.0,
            "tie_word_embeddings": True, "bos_token_id": bos_id, "eos_token_id": eos_id,
            "torch_dtype": "float16"}


def token_stream(docs, encode, eos_id):
    ids = []
    for doc in docs:
        ids.extend(encode(doc))
        ids.append(eos_id)
    return torch.tensor(ids, dtype=torch.long)


def batches(stream, steps, batch, seed):
    """`steps` batches of `batch` windows of SEQ_LEN + 1 tokens at seeded random offsets."""
    rng = random.Random(seed)
    for _ in range(steps):
        starts = [rng.randrange(0, len(stream) - SEQ_LEN - 1) for _ in range(batch)]
        yield torch.stack([stream[s:s + SEQ_LEN + 1] for s in starts])


def learning_rate(step, steps, peak):
    warmup = max(1, steps // 20)
    if step < warmup:
        return peak * (step + 1) / warmup
    progress = (step - warmup) / max(1, steps - warmup)
    return peak * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))


@torch.no_grad()
def perplexity(model, stream, windows=64):
    """exp(mean next-token loss) over the first `windows` consecutive SEQ_LEN windows."""
    model.eval()
    total, count = 0.0, 0
    for s in range(0, min(len(stream) - SEQ_LEN - 1, windows * SEQ_LEN), SEQ_LEN):
        window = stream[s:s + SEQ_LEN + 1][None]
        logits = model(window[:, :-1])
        total += F.cross_entropy(logits[0], window[0, 1:], reduction="sum").item()
        count += SEQ_LEN
    model.train()
    return math.exp(total / count)


def train(name, shape, stream, held_out, bos_id, eos_id, quick):
    torch.manual_seed(shape["seed"])
    config = hf_config(shape, bos_id, eos_id)
    model = llama.Llama(config)
    random_ppl = perplexity(model, held_out)
    steps = 4 if quick else shape["steps"]
    optimizer = torch.optim.AdamW(model.parameters(), lr=shape["lr"], betas=(0.9, 0.95),
                                  weight_decay=0.1)
    started = time.time()
    for step, batch in enumerate(batches(stream, steps, shape["batch"], shape["seed"])):
        for group in optimizer.param_groups:
            group["lr"] = learning_rate(step, steps, shape["lr"])
        logits = model(batch[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, VOCAB_SIZE), batch[:, 1:].reshape(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        if step % 50 == 0 or step == steps - 1:
            print(f"{name}: step {step + 1}/{steps} loss {loss.item():.3f} "
                  f"({time.time() - started:.0f} s)", flush=True)
    params = sum(p.numel() for p in model.parameters())
    return model, config, {"parameters": params, "steps": steps, "tokens_seen":
                           steps * shape["batch"] * SEQ_LEN,
                           "train_seconds": round(time.time() - started),
                           "held_out_perplexity_torch": perplexity(model, held_out),
                           "random_init_perplexity_torch": random_ppl}


def write_model(directory, model, config, tokenizer, tokenizer_config):
    os.makedirs(directory, exist_ok=True)
    tensors = {name: p.to(torch.float16) for name, p in model.state_dict().items()}
    safetensors_file.write(os.path.join(directory, "model.safetensors"), tensors)
    with open(os.path.join(directory, "config.json"), "w") as f:
        json.dump(config, f, indent=1)
        f.write("\n")
    byte_bpe.write(os.path.join(directory, "tokenizer.json"), tokenizer)
    byte_bpe.write(os.path.join(directory, "tokenizer_config.json"), tokenizer_config)


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(2)
    torch.use_deterministic_algorithms(True)
    train_docs, held_docs, manifest = corpus.split()
    print(f"corpus: {manifest}", flush=True)
    started = time.time()
    merges = byte_bpe.train(train_docs, VOCAB_SIZE - 256 - len(SPECIAL_TOKENS))
    tokenizer = byte_bpe.tokenizer_json(merges, SPECIAL_TOKENS, BOS)
    ids = {t["content"]: t["id"] for t in tokenizer["added_tokens"]}
    tokenizer_config = {"bos_token": BOS, "eos_token": EOS, "add_bos_token": True,
                        "add_eos_token": False, "chat_template": CHAT_TEMPLATE,
                        "model_max_length": 1024, "clean_up_tokenization_spaces": False}
    print(f"tokenizer: {len(merges)} merges in {time.time() - started:.0f} s", flush=True)
    encode = byte_bpe.encoder(tokenizer)
    stream = token_stream(train_docs, encode, ids[EOS])
    held_text = ""
    for doc in held_docs:
        if len(held_text) + len(doc) > HELD_OUT_BYTES:
            break
        held_text += doc + "\n\n"
    held_out = token_stream(held_docs, encode, ids[EOS])
    manifest["tokens"] = {"train": len(stream), "held_out": len(held_out)}
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "held_out.txt"), "w", encoding="utf-8") as f:
        f.write(held_text)
    manifest["models"] = {}
    for name, shape in MODELS.items():
        model, config, figures = train(name, shape, stream, held_out, ids[BOS], ids[EOS],
                                       args.quick)
        write_model(os.path.join(args.out, name), model, config, tokenizer, tokenizer_config)
        manifest["models"][name] = figures
        print(f"{name}: {figures}", flush=True)
    manifest["torch"] = torch.__version__
    manifest["sha256"] = {}
    for root, _, names in sorted(os.walk(args.out)):
        for n in sorted(names):
            path = os.path.join(root, n)
            if n != "manifest.json":
                manifest["sha256"][os.path.relpath(path, args.out)] = sha256(path)
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps(manifest["sha256"], indent=1))


if __name__ == "__main__":
    main()
