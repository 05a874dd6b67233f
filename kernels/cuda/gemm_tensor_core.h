// Our own tensor-core GEMM (WMMA 16x16x16, fp32 accumulate), measured against cuBLAS
// (cublas_gemm.h). Same contract as kernels/cpu/linear.h's linear. Device pointers; queued on
// `stream`.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/cuda/gemm_dtype.h"

namespace infergate::cuda {

// y[m, n] (fp32, row-major) = sum_k x[m, k] * w[n, k]; x and w row-major, both `dtype` (kF16
// or kBF16 bit patterns), products and sums in fp32. Any m, n, k >= 1; the fast path (cp.async
// double buffering) needs k % 8 == 0 and x, w 16-byte aligned, otherwise the same tiles are
// loaded element by element. y is written only inside [m, n].
// Throws std::invalid_argument for kF32 (tensor cores take 16-bit operands: use CublasGemm),
// sizes < 1, or m beyond the grid's reach (65535 row tiles of 128).
void gemm_tensor_core(const void* x, const void* w, GemmDType dtype, float* y, int64_t m, int64_t n,
                      int64_t k, cudaStream_t stream);

}  // namespace infergate::cuda
