// Row-wise softmax on the GPU; twin of kernels/cpu/ops.h's softmax_inplace applied per row.
// Device pointers; queued on `stream`.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace infergate::cuda {

// out[r, :] = softmax(x[r, :]) for x, out: [rows, n]. out may alias x. Online: one read pass
// keeps a running (max, sum of exp) per thread, merged across the block, then one write pass.
void softmax_rows(const float* x, int64_t rows, int64_t n, float* out, cudaStream_t stream);

}  // namespace infergate::cuda
