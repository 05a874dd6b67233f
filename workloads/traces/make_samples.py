"""Writes the sample traces beside this file, in the public formats (docs/workload-schema.md,
"Traces"): small, deterministic, sized for the tiny model (prompts under 1,024 tokens).

  /usr/bin/python3 workloads/traces/make_samples.py

mooncake-sample.jsonl: 48 requests over 12 s; four 512-token system prompts (hash ids 0-3) that
  most requests start with, then one block of their own, so prefix sharing is known exactly.
azure-sample.csv: 40 requests over 10 s as the Azure LLM inference trace writes them.
burstgpt-sample.csv: 40 rows over 10 s as BurstGPT writes them, two of them failed (0 response
  tokens), which a replay leaves out.
"""
import datetime
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))


def mooncake(rng):
    t, next_id, rows = 0.0, 100, []
    for i in range(48):
        t += rng.expovariate(4.0)
        own = rng.randint(40, 380)
        shared = i % 5 != 4  # one request in five has no system prompt
        ids = ([i % 4] if shared else []) + [next_id]
        next_id += 1
        rows.append({"timestamp": int(t * 1000), "input_length": (512 if shared else 0) + own,
                     "output_length": rng.randint(8, 48), "hash_ids": ids})
    with open(os.path.join(HERE, "mooncake-sample.jsonl"), "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


def azure(rng):
    start = datetime.datetime(2023, 11, 16, 18, 15, 46, 680590)
    t = 0.0
    with open(os.path.join(HERE, "azure-sample.csv"), "w") as f:
        f.write("TIMESTAMP,ContextTokens,GeneratedTokens\n")
        for _ in range(40):
            t += rng.expovariate(4.0)
            stamp = (start + datetime.timedelta(seconds=t)).strftime("%Y-%m-%d %H:%M:%S.%f") + "0"
            f.write(f"{stamp},{rng.randint(32, 700)},{rng.randint(4, 64)}\n")


def burstgpt(rng):
    t = 1000.0
    with open(os.path.join(HERE, "burstgpt-sample.csv"), "w") as f:
        f.write("Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n")
        for i in range(40):
            t += rng.expovariate(4.0)
            req = rng.randint(16, 600)
            resp = 0 if i in (7, 23) else rng.randint(4, 64)
            model = "ChatGPT" if i % 3 else "GPT-4"
            f.write(f"{t:.3f},{model},{req},{resp},{req + resp},Conversation log\n")


if __name__ == "__main__":
    rng = random.Random(2026)
    mooncake(rng)
    azure(rng)
    burstgpt(rng)
