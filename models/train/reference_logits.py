"""PyTorch's logits for a trained directory (config.json + model.safetensors), the outside
reference the engine's forward pass is checked against: prints, as JSON, the last position's
logits of `ids` (the model's own weights, computed in float32 as llama.py defines them).

    /usr/bin/python3 models/train/reference_logits.py MODEL_DIR ID [ID ...]
"""
import json
import os
import struct
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import llama  # noqa: E402

NUMPY = {"F16": np.float16, "F32": np.float32}


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


def main():
    directory, ids = sys.argv[1], [int(x) for x in sys.argv[2:]]
    with open(os.path.join(directory, "config.json")) as f:
        config = json.load(f)
    model = llama.Llama(config)
    model.load_state_dict(read_safetensors(os.path.join(directory, "model.safetensors")))
    model.eval()
    with torch.no_grad():
        logits = model(torch.tensor([ids]))[0, -1]
    print(json.dumps({"ids": ids, "logits": [round(float(x), 6) for x in logits]}))


if __name__ == "__main__":
    main()
