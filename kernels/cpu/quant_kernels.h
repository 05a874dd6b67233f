// Internal: the per-ISA building blocks of quantized `linear` (block-format weights in the
// grouped layout of quant_layout.h), one table per instruction-set level, each in its own
// translation unit as linear_kernels.h explains.
//
// As in llama.cpp, activations are quantized too: each row of x becomes 32-element blocks of
// int8 values q with one fp32 scale d (d = amax / 127, q = round-to-nearest-even(x / d)), and
// each block pair contributes d_w * d_x * (q_w . q_x), an exact integer dot product, to the sum.
// (llama.cpp rounds d_x to fp16; we keep fp32, which only removes error.)
#pragma once

#include <cstdint>

#include "kernels/cpu/cpu_features.h"
#include "kernels/tensor.h"

namespace infergate::detail {

struct QuantKernels {
  // One row: x [k] fp32 -> q [k] int8, d [k / 32] fp32 and s [k / 32], each block's sum of q
  // (k a multiple of 32). Every table gives bit-identical results (the reference in
  // quant_linear.cc quantizes with the generic one).
  void (*quantize_row)(const float* x, int64_t k, int8_t* q, float* d, int32_t* s);
  // For activation rows i < m (q: [m, blocks * 32], d and s: [m, blocks]) and the row groups
  // [0, groups) of w (quant_layout.h, `blocks` 32-value blocks per row; Q4_K's super-blocks
  // hold eight): c[i * ldc + 8g + r] = sum over blocks of d_w * d_x * (q_w . q_x) (plus the
  // minimum's term), for 8g + r < rows.
  void (*dot_groups)(const int8_t* xq, const float* xd, const int32_t* xs, int64_t m,
                     const uint8_t* w, DType dtype, int64_t blocks, int64_t groups, int64_t rows,
                     float* c, int64_t ldc);
};

// The sums of q per 16 values, for `halves` runs of 16 int8: the s that the formats with 16-value
// sub-blocks (Q2_K, Q3_K, Q6_K) take instead of the per-32 sums. In a buffer of the calling
// thread, valid until its next call.
const int32_t* quant_half_sums(const int8_t* q, int64_t halves);

const QuantKernels& generic_quant_kernels();
const QuantKernels& avx2_quant_kernels();
// AVX-512 VNNI (vpdpbusd on 256-bit vectors); the AVX2 table on AVX-512 CPUs without it.
const QuantKernels& vnni_quant_kernels();
// aarch64's dot-product extension (sdot on 128-bit vectors); the generic table elsewhere.
const QuantKernels& dotprod_quant_kernels();
const QuantKernels& quant_kernels_for(IsaLevel level);
// The name of the table quant_kernels_for(level) returns ("generic", "avx2", "avx512-vnni",
// "neon-dotprod").
const char* quant_kernels_name(IsaLevel level);

}  // namespace infergate::detail
