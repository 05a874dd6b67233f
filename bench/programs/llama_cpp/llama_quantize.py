#!/usr/bin/python3
"""Quantizes a GGUF file to one of llama.cpp's presets with llama.cpp itself: llama_model_quantize
from the prebuilt libllama that the node-llama-cpp npm package ships (ctypes; there is no
llama-quantize binary in the package and no compiler is needed). What llama-quantize does without
an importance matrix: its per-tensor mixture rules and its quantizers.

  llama_quantize.py NODE_MODULES IN.gguf OUT.gguf PRESET

PRESET: Q4_0 Q4_1 Q5_0 Q5_1 Q8_0 Q2_K Q3_K_S Q3_K_M Q3_K_L Q4_K_S Q4_K_M Q5_K_S Q5_K_M Q6_K
IQ4_NL IQ4_XS. The parameter struct is llama.h's llama_model_quantize_params of the llama.cpp
that ci/node-llama-cpp.sh pins (node-llama-cpp 3.22.1). Exit status: 0 written, 1 llama.cpp
failed, 2 usage or the library is missing.
"""
import ctypes
import glob
import os
import sys

# llama_ftype ids (llama.h).
PRESETS = {"Q4_0": 2, "Q4_1": 3, "Q8_0": 7, "Q5_0": 8, "Q5_1": 9, "Q2_K": 10, "Q3_K_S": 11,
           "Q3_K_M": 12, "Q3_K_L": 13, "Q4_K_S": 14, "Q4_K_M": 15, "Q5_K_S": 16, "Q5_K_M": 17,
           "Q6_K": 18, "IQ4_NL": 25, "IQ4_XS": 30}


class QuantizeParams(ctypes.Structure):
    _fields_ = [("nthread", ctypes.c_int32), ("ftype", ctypes.c_int),
                ("output_tensor_type", ctypes.c_int), ("token_embedding_type", ctypes.c_int),
                ("allow_requantize", ctypes.c_bool), ("quantize_output_tensor", ctypes.c_bool),
                ("only_copy", ctypes.c_bool), ("pure", ctypes.c_bool), ("keep_split", ctypes.c_bool),
                ("dry_run", ctypes.c_bool), ("imatrix", ctypes.c_void_p),
                ("kv_overrides", ctypes.c_void_p), ("tt_overrides", ctypes.c_void_p),
                ("prune_layers", ctypes.c_void_p), ("max_buf_size", ctypes.c_size_t)]


def main():
    if len(sys.argv) != 5 or sys.argv[4] not in PRESETS:
        print(__doc__, file=sys.stderr)
        return 2
    modules, source, target, preset = sys.argv[1:]
    found = glob.glob(os.path.join(modules, "node_modules/@node-llama-cpp/linux-x64/bins/linux-x64"))
    if not found:
        print(f"llama_quantize: no prebuilt llama.cpp under {modules}", file=sys.stderr)
        return 2
    bins = found[0]
    ctypes.CDLL(os.path.join(bins, "libggml-base.so"), mode=ctypes.RTLD_GLOBAL)
    for extra in glob.glob(os.path.join(bins, "libggml.*so")):
        ctypes.CDLL(extra, mode=ctypes.RTLD_GLOBAL)
    llama = ctypes.CDLL(glob.glob(os.path.join(bins, "libllama.v*.so"))[0], mode=ctypes.RTLD_GLOBAL)
    llama.llama_model_quantize_default_params.restype = QuantizeParams
    llama.llama_model_quantize.argtypes = [ctypes.c_char_p, ctypes.c_char_p,
                                           ctypes.POINTER(QuantizeParams)]
    llama.llama_model_quantize.restype = ctypes.c_uint32
    llama.llama_backend_init()
    params = llama.llama_model_quantize_default_params()
    params.ftype = PRESETS[preset]
    params.nthread = 1
    return 1 if llama.llama_model_quantize(source.encode(), target.encode(), ctypes.byref(params)) else 0


if __name__ == "__main__":
    sys.exit(main())
