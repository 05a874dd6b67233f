// AutoAWQ's "gemm" checkpoint layout for group-wise INT4 linear layers (the safetensors form of
// `infergate quantize --to int4-g128`; Hugging Face transformers and vLLM load it). For a
// linear layer with weight [out, in] and group size g, three tensors replace `.weight`:
//   qweight int32 [in, out / 8]      the codes, transposed; 8 per int32,
//   qzeros  int32 [in / g, out / 8]  the zero points, packed the same way,
//   scales  fp16  [in / g, out]      the scales,
// and w[o][i] = (q - z) * s. Within an int32 the 4-bit field j (bits 4j .. 4j + 3) holds
// output column 8p + kAwqOrder[j]: AutoAWQ interleaves the columns for its dequantization kernel.
// config.json says so with "quantization_config": {"quant_method": "awq", "bits": 4,
// "group_size": g, "zero_point": true, "version": "gemm"}.
//
// In memory the same codes are Q4_1 blocks (kernels/cpu/int4_group.h): d = s and
// m = fp16(-s z), so reading a checkpoint is exact up to that fp16 product (2^-11 relative).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/tensor.h"

namespace infergate {

inline constexpr int kAwqOrder[8] = {0, 2, 4, 6, 1, 3, 5, 7};

struct AwqTensors {
  int64_t in = 0, out = 0, group = 0;
  std::vector<int32_t> qweight;  // [in, out / 8]
  std::vector<int32_t> qzeros;   // [in / group, out / 8]
  std::vector<uint16_t> scales;  // [in / group, out], fp16 bits
};

// The AWQ tensors of a Q4_1 matrix [out, in] holding group-wise INT4 with `group` (as
// quantize_int4_grouped writes it). Throws std::invalid_argument naming `name` when the matrix
// is not that: out not a multiple of 8, in not whole groups, or a group whose blocks do not
// share one scale and integer zero point.
AwqTensors pack_awq(const Tensor& q4_1, int64_t group, const std::string& name);

// The Q4_1 matrix [out, in] of AWQ tensors; sizes must match (checked by the caller's reads).
Tensor unpack_awq(const AwqTensors& awq);

}  // namespace infergate
