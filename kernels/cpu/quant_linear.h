// y = x W^T for weights in a block format (Q8_0, Q4_0, Q4_1, Q4_K, W8A8), read in place in the
// grouped layout of quant_layout.h (prepare_weight repacks them at load; nothing dequantized):
// the m = 1 GEMV streams the quantized bytes once, and every product is an integer dot product
// of 32-element blocks against x quantized per block to int8 (quant_kernels.h), as llama.cpp
// computes it. W8A8 quantizes x per token instead (one scale per row, as SmoothQuant's W8A8
// does), so a row pair is one integer dot product scaled once. linear() routes these dtypes
// here; this header is for linear.cc and the tests.
#pragma once

#include <cstdint>

#include "kernels/cpu/thread_pool.h"
#include "kernels/tensor.h"

namespace infergate {

// w: [n, k] in `dtype` (k whole blocks, at most 65536 for w8a8; std::invalid_argument
// otherwise), in the grouped
// layout when `grouped`, else row-major as in a file (then repacked for this call).
void quant_linear(const float* x, int64_t m, const void* w, bool grouped, DType dtype, int64_t n,
                  int64_t k, float* y, ThreadPool& pool);

// The plain reference: x quantized as the kernels do, weights dequantized, double sums.
void quant_linear_reference(const float* x, int64_t m, const Tensor& w, float* y);

}  // namespace infergate
