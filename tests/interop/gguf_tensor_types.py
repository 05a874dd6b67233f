#!/usr/bin/env python3
"""Prints each tensor of a GGUF file as "name TYPE", sorted by name, where TYPE is ggml's name
(Q4_K, Q6_K, F32, ...). Reads the header only (GGUF v2/v3, little-endian).

    gguf_tensor_types.py FILE.gguf
"""
import struct
import sys

TYPES = {0: "F32", 1: "F16", 2: "Q4_0", 3: "Q4_1", 6: "Q5_0", 7: "Q5_1", 8: "Q8_0", 10: "Q2_K",
         11: "Q3_K", 12: "Q4_K", 13: "Q5_K", 14: "Q6_K", 20: "IQ4_NL", 23: "IQ4_XS", 30: "BF16"}
# GGUF metadata value types: fixed sizes; 8 is a string, 9 an array.
FIXED = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}


def main(path):
    with open(path, "rb") as f:
        data = f.read(64 << 20)
    pos = 0

    def take(fmt):
        nonlocal pos
        values = struct.unpack_from("<" + fmt, data, pos)
        pos += struct.calcsize("<" + fmt)
        return values if len(values) > 1 else values[0]

    def string():
        nonlocal pos
        n = take("Q")
        pos += n
        return data[pos - n:pos].decode("utf-8", "replace")

    def skip_value(kind):
        nonlocal pos
        if kind == 8:
            string()
        elif kind == 9:
            inner, count = take("IQ")
            if inner in FIXED:
                pos += FIXED[inner] * count
            else:
                for _ in range(count):
                    skip_value(inner)
        else:
            pos += FIXED[kind]

    if data[:4] != b"GGUF":
        sys.exit(f"{path}: not a GGUF file")
    pos = 4
    _version, n_tensors, n_kv = take("IQQ")
    for _ in range(n_kv):
        string()
        skip_value(take("I"))
    rows = []
    for _ in range(n_tensors):
        name = string()
        n_dims = take("I")
        pos += 8 * n_dims
        kind = take("I")
        take("Q")
        rows.append(f"{name} {TYPES.get(kind, f'type{kind}')}")
    print("\n".join(sorted(rows)))


if __name__ == "__main__":
    main(sys.argv[1])
