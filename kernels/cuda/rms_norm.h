// RMSNorm on the GPU; twin of kernels/cpu/ops.h's rms_norm (and add_inplace for the fused form).
// All pointers are device pointers; the work is queued on `stream`.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace infergate::cuda {

// out[r, :] = x[r, :] / rms(x[r, :]) * weight. out may alias x.
void rms_norm(const float* x, const float* weight, int64_t rows, int64_t dim, float eps, float* out,
              cudaStream_t stream);
// The fused pre-norm step: residual += x, then x = rms_norm(residual) * weight (vLLM's
// fused_add_rms_norm): one pass over memory instead of two.
void add_rms_norm(float* x, float* residual, const float* weight, int64_t rows, int64_t dim,
                  float eps, cudaStream_t stream);

}  // namespace infergate::cuda
