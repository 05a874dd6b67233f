// Dense projection y = x * W^T, the GEMM/GEMV at the heart of every layer.
#pragma once

#include <cstdint>

#include "kernels/cpu/thread_pool.h"
#include "kernels/tensor.h"

namespace infergate {

// y[m, n] = sum_k x[m, k] * w[n, k], for w of shape [n, k] in any storage dtype.
void linear(const float* x, int64_t m, const Tensor& w, float* y, ThreadPool& pool);

// The plain reference: scalar loops with double accumulation. Tests pin `linear` to it.
void linear_reference(const float* x, int64_t m, const Tensor& w, float* y);

}  // namespace infergate
