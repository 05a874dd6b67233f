"""PyTorch's logits for a trained directory (config.json + model.safetensors), the outside
reference the engine's forward pass is checked against (the models' own weights, computed in
float32 as llama.py defines them).

    /usr/bin/python3 models/train/reference_logits.py MODEL_DIR ID [ID ...]
        prints the last position's logits of the ids, as JSON
    /usr/bin/python3 models/train/reference_logits.py --fixture TRAINED_DIR
        writes TRAINED_DIR/reference_logits.json: for the target and the draft, the last
        position's logits of prompts cut from held_out.txt (1, 40 and 300 tokens after BOS, so
        past the 256 positions trained on), which tests/models/trained_reference_logits.py
        compares the engine's with (CI has no PyTorch; the fixture carries its answer)
"""
import json
import os
import struct
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import byte_bpe  # noqa: E402
import llama  # noqa: E402

NUMPY = {"F16": np.float16, "F32": np.float32}
FIXTURE_LENGTHS = [0, 40, 300]  # tokens of held-out text after BOS


def read_safetensors(path):
    with open(path, "rb") as f:
        size = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(size))
        data = f.read()
    tensors = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        begin, end = entry["data_offsets"]
        array = np.frombuffer(data[begin:end], dtype=NUMPY[entry["dtype"]]).reshape(entry["shape"])
        tensors[name] = torch.from_numpy(array.astype(np.float32))
    return tensors


def load(directory):
    with open(os.path.join(directory, "config.json")) as f:
        config = json.load(f)
    model = llama.Llama(config)
    model.load_state_dict(read_safetensors(os.path.join(directory, "model.safetensors")))
    model.eval()
    return model, config


def last_logits(model, ids):
    with torch.no_grad():
        return [round(float(x), 5) for x in model(torch.tensor([ids]))[0, -1]]


def fixture(trained_dir):
    with open(os.path.join(trained_dir, "target", "tokenizer.json"), encoding="utf-8") as f:
        encode = byte_bpe.encoder(json.load(f))
    with open(os.path.join(trained_dir, "held_out.txt"), encoding="utf-8") as f:
        text_ids = encode(f.read()[:20000])
    out = {"torch": torch.__version__, "models": {}}
    for name in ("target", "draft"):
        model, config = load(os.path.join(trained_dir, name))
        prompts = [[config["bos_token_id"]] + text_ids[:n] for n in FIXTURE_LENGTHS]
        out["models"][name] = [{"ids": p, "logits": last_logits(model, p)} for p in prompts]
    with open(os.path.join(trained_dir, "reference_logits.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")


def main():
    torch.set_num_threads(2)
    if sys.argv[1] == "--fixture":
        fixture(sys.argv[2])
        return
    model, _ = load(sys.argv[1])
    ids = [int(x) for x in sys.argv[2:]]
    print(json.dumps({"ids": ids, "logits": last_logits(model, ids)}))


if __name__ == "__main__":
    main()
