// What a model's numbers cost on a given device: bytes per weight (block scales included), the
// dtype its GEMMs run in there, and bytes per activation and per KV element.
#pragma once

#include <string>

#include "kernels/tensor.h"
#include "sim/hardware_spec.h"

namespace infergate {

struct Precision {
  std::string weight_dtype;  // f32 | f16 | bf16 | a block format (q8_0, q4_k, ...) | fp8
  double weight_bytes = 2;   // per parameter
  std::string compute_dtype;
  double activation_bytes = 2;
  double kv_bytes = 2;  // per K or V element
};

// Bytes per element, block scales included (q4_0: 18 bytes per 32).
double bytes_per_element(DType dtype);

// `weight_dtype` as the engine's weight_dtype names it ("auto": `native`), plus "fp8" (weights
// in fp8 e4m3, as vLLM's fp8 checkpoints). Weight-only formats (q8_0, q4_*) run their GEMMs in
// 16 bits on a GPU (dequantized in the kernel) and on int8 dot products on a CPU (as this
// engine's kernels do); w8a8 in int8 and fp8 in fp8 where the device has them. Throws
// std::invalid_argument naming the dtype the hardware lacks.
Precision make_precision(const std::string& weight_dtype, DType native, DType kv_dtype,
                         const HardwareSpec& hardware);

}  // namespace infergate
