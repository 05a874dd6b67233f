"""Writes a safetensors file (8-byte little-endian header length, the JSON header, the tensors'
bytes in header order), the format Hugging Face directories hold; written here because Debian
packages PyTorch but not the safetensors library."""
import json
import struct

import torch

DTYPES = {torch.float16: "F16", torch.float32: "F32", torch.bfloat16: "BF16"}


def write(path, tensors):
    """`tensors`: name -> contiguous CPU tensor; written in sorted name order."""
    header, blobs, offset = {}, [], 0
    for name in sorted(tensors):
        t = tensors[name].detach().contiguous().cpu()
        data = t.numpy().tobytes() if t.dtype != torch.bfloat16 else t.view(torch.int16).numpy().tobytes()
        header[name] = {"dtype": DTYPES[t.dtype], "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    header["__metadata__"] = {"format": "pt"}
    text = json.dumps(header, separators=(",", ":"), sort_keys=True).encode("utf-8")
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)
