// Element-wise x += y on the GPU; twin of kernels/cpu/ops.h's add_inplace. Device pointers;
// queued on `stream`.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace infergate::cuda {

void add_inplace(float* x, const float* y, int64_t n, cudaStream_t stream);

}  // namespace infergate::cuda
